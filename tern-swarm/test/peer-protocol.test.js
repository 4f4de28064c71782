import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decode,
  encodeAbsent,
  encodeCancel,
  encodeChunk,
  encodeHave,
  encodeObject,
  encodeRequest,
  MAX_CHUNK_BYTES,
  MAX_MESSAGE_BYTES,
  MAX_OBJECT_BYTES,
} from '../src/peer-protocol.js';
import { prng } from './prng.js';

const part = { rendition: 'video', kind: 'part', msn: 12, part: 3 };
const segment = { rendition: 'audio', kind: 'segment', msn: 11, part: -1 };
const init = { rendition: 'vidéo', kind: 'init', msn: -1, part: -1 };

function valid(random) {
  switch (random.int(6)) {
    case 0:
      return encodeHave([part, segment, init].slice(0, 1 + random.int(3)));
    case 1:
      return encodeRequest(random.int(2 ** 32), part);
    case 2:
      return encodeCancel(random.int(2 ** 32));
    case 3:
      return encodeAbsent(7);
    case 4:
      return encodeObject(9, segment, 1 + random.int(MAX_OBJECT_BYTES), random.bytes(32), random.bytes(64));
    default:
      return encodeChunk(9, random.int(1000), random.bytes(1 + random.int(2000)));
  }
}

test('every message round-trips', () => {
  assert.deepEqual(decode(encodeHave([part, segment, init])), { type: 'have', refs: [part, segment, init] });
  assert.deepEqual(decode(encodeRequest(4_000_000_000, part)), { type: 'request', requestId: 4_000_000_000, ref: part });
  assert.deepEqual(decode(encodeCancel(5)), { type: 'cancel', requestId: 5 });
  assert.deepEqual(decode(encodeAbsent(6)), { type: 'absent', requestId: 6 });
  const sha = new Uint8Array(32).fill(1);
  const sig = new Uint8Array(64).fill(2);
  assert.deepEqual(decode(encodeObject(7, segment, 1234, sha, sig)), { type: 'object', requestId: 7, ref: segment, length: 1234, sha256: sha, sig });
  const payload = new Uint8Array(MAX_CHUNK_BYTES).fill(3);
  const chunk = encodeChunk(8, 65536, payload);
  assert.equal(chunk.length, MAX_MESSAGE_BYTES);
  assert.deepEqual(decode(chunk), { type: 'chunk', requestId: 8, offset: 65536, payload });
});

test('encoders refuse what decoders would refuse', () => {
  assert.throws(() => encodeChunk(1, 0, new Uint8Array(MAX_CHUNK_BYTES + 1)), RangeError);
  assert.throws(() => encodeChunk(1, 0, new Uint8Array(0)), RangeError);
  assert.throws(() => encodeHave([]), RangeError);
  assert.throws(() => encodeRequest(1, { ...part, rendition: 'x'.repeat(65) }), RangeError);
  assert.throws(() => encodeRequest(1, { ...part, kind: 'playlist' }), RangeError);
});

test('oversized, empty, unknown and inconsistent messages decode as invalid', () => {
  assert.equal(decode(new Uint8Array(MAX_MESSAGE_BYTES + 1).fill(6)).reason, 'oversized');
  assert.equal(decode(new Uint8Array(0)).reason, 'empty or not binary');
  assert.equal(decode('text').reason, 'empty or not binary');
  assert.equal(decode(Uint8Array.of(99)).reason, 'unknown type');
  assert.equal(decode(encodeRequest(1, { ...part, part: -1 })).reason, 'bad ref'); // a part needs its index
  assert.equal(decode(encodeRequest(1, { ...init, msn: 4 })).reason, 'bad ref');
  assert.equal(decode(encodeObject(1, part, MAX_OBJECT_BYTES + 1, new Uint8Array(32), new Uint8Array(64))).reason, 'object length');
  const trailing = new Uint8Array([...encodeCancel(1), 0]);
  assert.equal(decode(trailing).type, 'invalid');
});

test('property: random and mutated messages never throw and decode to a bounded answer', () => {
  for (let seed = 1; seed <= 5; seed++) {
    const random = prng(seed);
    for (let round = 0; round < 4000; round++) {
      let bytes;
      if (round % 2 === 0) {
        bytes = random.bytes(random.int(200));
        if (bytes.length > 0) bytes[0] = 1 + random.int(7);
      } else {
        bytes = valid(random);
        for (let flips = 1 + random.int(3); flips > 0; flips--) bytes[random.int(bytes.length)] ^= 1 << random.int(8);
        if (random.int(4) === 0) bytes = bytes.subarray(0, random.int(bytes.length));
      }
      const message = decode(bytes);
      assert.ok(['have', 'request', 'cancel', 'absent', 'object', 'chunk', 'invalid'].includes(message.type), `seed ${seed}`);
      if (message.type === 'chunk') assert.ok(message.payload.length >= 1 && message.payload.length <= MAX_CHUNK_BYTES);
      if (message.type === 'object') assert.ok(message.length >= 1 && message.length <= MAX_OBJECT_BYTES);
      if (message.type === 'have') assert.ok(message.refs.length >= 1 && message.refs.length <= 64);
    }
  }
});
