// The data-channel messages between two viewers (docs/swarm-protocol.md, "Data channel"). Pure
// codec: every message is one binary data-channel message, big-endian, starting with its type byte.
// decode() never throws: anything malformed or out of bounds comes back as {type: 'invalid'}.

export const MESSAGE = Object.freeze({
  HAVE: 1, // [count u8 1..64][ref × count]: objects the sender holds, verified
  REQUEST: 2, // [requestId u32][ref]
  CANCEL: 3, // [requestId u32]
  ABSENT: 4, // [requestId u32]: the sender does not hold it (any more)
  OBJECT: 5, // [requestId u32][ref][length u32][sha256 32][sig 64]: the attestation, then chunks
  CHUNK: 6, // [requestId u32][offset u32][payload 1..MAX_CHUNK_BYTES]
});

/** Payload bytes per CHUNK: a large message would block every channel of its connection. */
export const MAX_CHUNK_BYTES = 64 * 1024;
/** The largest message a viewer accepts (a full CHUNK). */
export const MAX_MESSAGE_BYTES = 1 + 4 + 4 + MAX_CHUNK_BYTES;
/** The largest object a viewer accepts from a peer (a 2 s segment at 30 Mbit/s fits). */
export const MAX_OBJECT_BYTES = 8 * 1024 * 1024;
export const MAX_HAVE_REFS = 64;
export const MAX_RENDITION_BYTES = 64;

const KIND_CODES = ['part', 'segment', 'init'];
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** An object reference: {rendition, kind, msn, part}; its bytes: [kind u8][len u8][rendition][msn i32][part i32]. */
function refBytes(ref) {
  const rendition = encoder.encode(ref.rendition);
  if (rendition.length < 1 || rendition.length > MAX_RENDITION_BYTES) {
    throw new RangeError(`rendition must be 1..${MAX_RENDITION_BYTES} UTF-8 bytes: ${ref.rendition}`);
  }
  const code = KIND_CODES.indexOf(ref.kind);
  if (code < 0) throw new RangeError(`kind must be part, segment or init: ${ref.kind}`);
  const out = new Uint8Array(2 + rendition.length + 8);
  const view = new DataView(out.buffer);
  out[0] = code;
  out[1] = rendition.length;
  out.set(rendition, 2);
  view.setInt32(2 + rendition.length, ref.msn, false);
  view.setInt32(6 + rendition.length, ref.part, false);
  return out;
}

function concat(parts) {
  let length = 0;
  for (const p of parts) length += p.length;
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function u32(value) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, false);
  return out;
}

export function encodeHave(refs) {
  if (refs.length < 1 || refs.length > MAX_HAVE_REFS) throw new RangeError(`HAVE carries 1..${MAX_HAVE_REFS} refs`);
  return concat([Uint8Array.of(MESSAGE.HAVE, refs.length), ...refs.map(refBytes)]);
}

export function encodeRequest(requestId, ref) {
  return concat([Uint8Array.of(MESSAGE.REQUEST), u32(requestId), refBytes(ref)]);
}

export function encodeCancel(requestId) {
  return concat([Uint8Array.of(MESSAGE.CANCEL), u32(requestId)]);
}

export function encodeAbsent(requestId) {
  return concat([Uint8Array.of(MESSAGE.ABSENT), u32(requestId)]);
}

/** attestation: {length, sha256: 32 bytes, sig: 64 bytes}. */
export function encodeObject(requestId, ref, length, sha256, sig) {
  if (sha256.length !== 32 || sig.length !== 64) throw new RangeError('sha256 is 32 bytes and sig 64');
  return concat([Uint8Array.of(MESSAGE.OBJECT), u32(requestId), refBytes(ref), u32(length), sha256, sig]);
}

export function encodeChunk(requestId, offset, payload) {
  if (payload.length < 1 || payload.length > MAX_CHUNK_BYTES) throw new RangeError(`a chunk carries 1..${MAX_CHUNK_BYTES} bytes`);
  return concat([Uint8Array.of(MESSAGE.CHUNK), u32(requestId), u32(offset), payload]);
}

const invalid = (reason) => ({ type: 'invalid', reason });

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.at = 1;
  }
  remaining() {
    return this.bytes.length - this.at;
  }
  u8() {
    return this.bytes[this.at++];
  }
  u32() {
    const v = this.view.getUint32(this.at, false);
    this.at += 4;
    return v;
  }
  i32() {
    const v = this.view.getInt32(this.at, false);
    this.at += 4;
    return v;
  }
  take(n) {
    const v = this.bytes.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }
  /** A ref, or null when it is out of bounds. */
  ref() {
    if (this.remaining() < 2) return null;
    const kind = KIND_CODES[this.u8()];
    const length = this.u8();
    if (!kind || length < 1 || length > MAX_RENDITION_BYTES || this.remaining() < length + 8) return null;
    let rendition;
    try {
      rendition = decoder.decode(this.take(length));
    } catch {
      return null;
    }
    const msn = this.i32();
    const part = this.i32();
    if (msn < -1 || part < -1) return null;
    if (kind === 'init' ? msn !== -1 || part !== -1 : kind === 'segment' ? part !== -1 || msn < 0 : msn < 0 || part < 0) {
      return null;
    }
    return { rendition, kind, msn, part };
  }
}

/** Decodes one data-channel message; {type: 'invalid', reason} for anything else. */
export function decode(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length < 1) return invalid('empty or not binary');
  if (bytes.length > MAX_MESSAGE_BYTES) return invalid('oversized');
  const r = new Reader(bytes);
  switch (bytes[0]) {
    case MESSAGE.HAVE: {
      if (r.remaining() < 1) return invalid('short');
      const count = r.u8();
      if (count < 1 || count > MAX_HAVE_REFS) return invalid('ref count');
      const refs = [];
      for (let i = 0; i < count; i++) {
        const ref = r.ref();
        if (!ref) return invalid('bad ref');
        refs.push(ref);
      }
      return r.remaining() === 0 ? { type: 'have', refs } : invalid('trailing bytes');
    }
    case MESSAGE.REQUEST: {
      if (r.remaining() < 4) return invalid('short');
      const requestId = r.u32();
      const ref = r.ref();
      if (!ref) return invalid('bad ref');
      return r.remaining() === 0 ? { type: 'request', requestId, ref } : invalid('trailing bytes');
    }
    case MESSAGE.CANCEL:
    case MESSAGE.ABSENT: {
      if (r.remaining() !== 4) return invalid('length');
      return { type: bytes[0] === MESSAGE.CANCEL ? 'cancel' : 'absent', requestId: r.u32() };
    }
    case MESSAGE.OBJECT: {
      if (r.remaining() < 4) return invalid('short');
      const requestId = r.u32();
      const ref = r.ref();
      if (!ref) return invalid('bad ref');
      if (r.remaining() !== 4 + 32 + 64) return invalid('length');
      const length = r.u32();
      if (length < 1 || length > MAX_OBJECT_BYTES) return invalid('object length');
      return { type: 'object', requestId, ref, length, sha256: r.take(32), sig: r.take(64) };
    }
    case MESSAGE.CHUNK: {
      if (r.remaining() < 9) return invalid('short');
      const requestId = r.u32();
      const offset = r.u32();
      return { type: 'chunk', requestId, offset, payload: r.take(r.remaining()) };
    }
    default:
      return invalid('unknown type');
  }
}

/** The key of an object across renditions: "video/part/12/3". */
export function refKey(ref) {
  return `${ref.rendition}/${ref.kind}/${ref.msn}/${ref.part}`;
}
