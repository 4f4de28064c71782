// Integrity of swarm objects (docs/swarm-protocol.md, "Attestations"): the origin's long-term
// Ed25519 key endorses a session key per stream instance, and the session key signs every part,
// segment and init segment. A viewer checks an object from any peer with WebCrypto alone.

const encoder = new TextEncoder();
const ED25519 = { name: 'Ed25519' };

/** Kinds of object an attestation can name. */
export const KINDS = Object.freeze(['part', 'segment', 'init']);

/** base64url without padding, as the origin writes it. */
export function b64urlEncode(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url (padding optional); null for anything that is not base64url. */
export function b64urlDecode(text) {
  if (typeof text !== 'string' || !/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  const plain = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  if (plain.length % 4 === 1) return null;
  const binary = atob(plain + '='.repeat((4 - (plain.length % 4)) % 4));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The bytes the origin key signs to endorse a session key. */
export function sessionMessage(stream, instance, sessionKeyB64, notAfterSeconds) {
  return encoder.encode(
    `tern-swarm-session-v1\n${stream}\n${instance}\n${sessionKeyB64}\n${notAfterSeconds}`,
  );
}

/** The bytes a session key signs for one object: context names it, attestation gives length and sha256 (b64url). */
export function objectMessage(context, attestation) {
  const { kind, stream, rendition, instance, msn, part } = context;
  return encoder.encode(
    `tern-swarm-object-v1\n${kind}\n${stream}\n${rendition}\n${instance}\n` +
      `${msn}\n${part}\n${attestation.length}\n${attestation.sha256}`,
  );
}

/** Parses `KEY=value,KEY="quoted"` attribute lists; null when malformed. */
export function parseAttributes(text) {
  const attributes = {};
  const pattern = /([A-Z0-9-]+)=("[^"]*"|[^,"]*)(,|$)/gy;
  let match;
  let at = 0;
  while (at < text.length && (match = pattern.exec(text)) !== null) {
    const value = match[2];
    attributes[match[1]] = value.startsWith('"') ? value.slice(1, -1) : value;
    at = pattern.lastIndex;
  }
  return at === text.length ? attributes : null;
}

const INTEGER = /^-?\d{1,15}$/;

/**
 * The swarm tags of one media playlist: the session keys it lists and, by object id (see
 * {@link objectId}), the attestation of each listed part, segment and init segment. Malformed tags
 * are skipped: the object they name is then simply not eligible for peer delivery.
 */
export function parsePlaylist(text) {
  const sessions = [];
  const attestations = new Map();
  for (const line of text.split(/\r?\n/)) {
    if (line.startsWith('#EXT-X-TERN-SWARM-SESSION:')) {
      const a = parseAttributes(line.slice('#EXT-X-TERN-SWARM-SESSION:'.length));
      if (a && a.KEY && INTEGER.test(a['NOT-AFTER'] ?? '') && a.ENDORSEMENT) {
        sessions.push({ key: a.KEY, notAfter: Number(a['NOT-AFTER']), endorsement: a.ENDORSEMENT });
      }
    } else if (line.startsWith('#EXT-X-TERN-ATTEST:')) {
      const attestation = attestationFromAttributes(
        parseAttributes(line.slice('#EXT-X-TERN-ATTEST:'.length)),
      );
      if (attestation) attestations.set(objectId(attestation), attestation);
    }
  }
  return { sessions, attestations };
}

function attestationFromAttributes(a) {
  if (!a || !KINDS.includes(a.KIND)) return null;
  if (![a.MSN, a.PART, a.LENGTH].every((v) => INTEGER.test(v ?? ''))) return null;
  if (!a.SHA256 || !a.SIG) return null;
  return {
    kind: a.KIND,
    msn: Number(a.MSN),
    part: Number(a.PART),
    length: Number(a.LENGTH),
    sha256: a.SHA256,
    sig: a.SIG,
  };
}

/** The id of an object within a rendition: "part/12/3", "segment/12/-1", "init/-1/-1". */
export function objectId({ kind, msn, part }) {
  return `${kind}/${msn}/${part}`;
}

async function importKey(raw) {
  return crypto.subtle.importKey('raw', raw, ED25519, false, ['verify']);
}

/**
 * The session keys the origin key endorses for this stream instance and that have not expired at
 * nowSeconds, as CryptoKeys. Sessions with a bad endorsement are left out (and counted in
 * `rejected`), never trusted.
 */
export async function endorsedSessionKeys(originKeyB64, sessions, stream, instance, nowSeconds) {
  const originRaw = b64urlDecode(originKeyB64);
  if (!originRaw || originRaw.length !== 32) throw new Error(`originKey is not 32 bytes of base64url: ${originKeyB64}`);
  const originKey = await importKey(originRaw);
  const keys = new Map();
  let rejected = 0;
  for (const session of sessions) {
    const raw = b64urlDecode(session.key);
    const signature = b64urlDecode(session.endorsement);
    const ok =
      raw?.length === 32 &&
      signature?.length === 64 &&
      session.notAfter >= nowSeconds &&
      (await crypto.subtle.verify(
        ED25519,
        originKey,
        signature,
        sessionMessage(stream, instance, session.key, session.notAfter),
      ));
    if (ok) keys.set(session.key, await importKey(raw));
    else rejected++;
  }
  return { keys, rejected };
}

/**
 * Whether bytes are the object the viewer expects, context = {stream, rendition, instance, kind,
 * msn, part}: the attestation names that object, its length and SHA-256 are those of bytes, and
 * one of the endorsed session keys signed it. Returns {ok, reason}; reason names the first check
 * that failed.
 */
export async function verifyObject(bytes, attestation, context, sessionKeys) {
  if (!(bytes instanceof Uint8Array)) return { ok: false, reason: 'not bytes' };
  const { kind, msn, part } = attestation;
  if (kind !== context.kind || msn !== context.msn || part !== context.part) return { ok: false, reason: 'object' };
  if (bytes.length !== attestation.length) return { ok: false, reason: 'length' };
  const digest = b64urlEncode(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
  if (digest !== attestation.sha256) return { ok: false, reason: 'sha256' };
  const signature = b64urlDecode(attestation.sig);
  if (!signature || signature.length !== 64) return { ok: false, reason: 'signature encoding' };
  const message = objectMessage(context, attestation);
  for (const key of sessionKeys.values()) {
    if (await crypto.subtle.verify(ED25519, key, signature, message)) return { ok: true, reason: null };
  }
  return { ok: false, reason: 'signature' };
}

/** A session key taken as it is (raw 32 bytes, base64url), for tests and vectors. */
export async function sessionKeyOf(keyB64) {
  const raw = b64urlDecode(keyB64);
  if (!raw || raw.length !== 32) throw new Error(`session key is not 32 bytes of base64url: ${keyB64}`);
  return importKey(raw);
}
