// A stand-in for the origin's signing side, written from docs/swarm-protocol.md with WebCrypto, so
// the verifier is tested against the spec itself as well as against the Java side's vectors.
import { b64urlEncode, objectMessage, sessionMessage } from '../src/verify.js';

const ED25519 = { name: 'Ed25519' };

export async function makeOrigin({ stream = 'cam', instance = 'i-1', notAfter = 2_000_000_000 } = {}) {
  const origin = await crypto.subtle.generateKey(ED25519, true, ['sign', 'verify']);
  const session = await crypto.subtle.generateKey(ED25519, true, ['sign', 'verify']);
  const originKey = b64urlEncode(new Uint8Array(await crypto.subtle.exportKey('raw', origin.publicKey)));
  const sessionKey = b64urlEncode(new Uint8Array(await crypto.subtle.exportKey('raw', session.publicKey)));
  const endorsement = b64urlEncode(
    new Uint8Array(
      await crypto.subtle.sign(ED25519, origin.privateKey, sessionMessage(stream, instance, sessionKey, notAfter)),
    ),
  );
  return {
    stream,
    instance,
    originKey,
    sessions: [{ key: sessionKey, notAfter, endorsement }],
    /** The attestation of bytes as the object {kind, msn, part} of rendition. */
    async attest(rendition, { kind, msn, part }, bytes) {
      const sha256 = b64urlEncode(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
      const attestation = { kind, msn, part, length: bytes.length, sha256 };
      const message = objectMessage({ stream, rendition, instance, kind, msn, part }, attestation);
      attestation.sig = b64urlEncode(new Uint8Array(await crypto.subtle.sign(ED25519, session.privateKey, message)));
      return attestation;
    },
  };
}

/** The #EXT-X-TERN-ATTEST line of an attestation. */
export function attestLine(a) {
  return `#EXT-X-TERN-ATTEST:KIND=${a.kind},MSN=${a.msn},PART=${a.part},LENGTH=${a.length},SHA256="${a.sha256}",SIG="${a.sig}"`;
}
