import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  b64urlDecode,
  b64urlEncode,
  endorsedSessionKeys,
  objectId,
  parseAttributes,
  parsePlaylist,
  verifyObject,
} from '../src/verify.js';
import { attestLine, makeOrigin } from './origin-fixture.js';
import { prng } from './prng.js';

const NOW_S = 1_800_000_000;

async function fixture() {
  const origin = await makeOrigin();
  const bytes = prng(7).bytes(3000);
  const part = await origin.attest('video', { kind: 'part', msn: 12, part: 3 }, bytes);
  const segment = await origin.attest('video', { kind: 'segment', msn: 11, part: -1 }, bytes);
  const init = await origin.attest('video', { kind: 'init', msn: -1, part: -1 }, bytes.subarray(0, 700));
  const s = origin.sessions[0];
  const playlist = [
    '#EXTM3U',
    '#EXT-X-TARGETDURATION:2',
    `#EXT-X-TERN-SWARM-SESSION:KEY="${s.key}",NOT-AFTER=${s.notAfter},ENDORSEMENT="${s.endorsement}"`,
    '#EXT-X-MAP:URI="video-init-0.mp4"',
    attestLine(init),
    '#EXTINF:2.0,',
    attestLine(segment),
    'video-11.m4s',
    attestLine(part),
    '#EXT-X-PART:DURATION=0.5,URI="video-p51.m4s"',
  ].join('\n');
  const { keys } = await endorsedSessionKeys(origin.originKey, origin.sessions, 'cam', 'i-1', NOW_S);
  const scope = { stream: 'cam', rendition: 'video', instance: 'i-1', kind: 'part', msn: 12, part: 3 };
  return { origin, bytes, part, segment, init, playlist, keys, scope };
}

test('b64url round-trips without padding and rejects other alphabets', () => {
  const random = prng(1);
  for (let n = 0; n < 70; n++) {
    const bytes = random.bytes(n);
    const text = b64urlEncode(bytes);
    assert.doesNotMatch(text, /[=+/]/);
    assert.deepEqual(b64urlDecode(text), bytes);
  }
  assert.equal(b64urlDecode('ab+c'), null);
  assert.equal(b64urlDecode('abcde'), null);
  assert.equal(b64urlDecode(42), null);
});

test('a playlist yields its sessions and the attestation of every listed object', async () => {
  const f = await fixture();
  const parsed = parsePlaylist(f.playlist);
  assert.equal(parsed.sessions.length, 1);
  assert.equal(parsed.attestations.size, 3);
  assert.deepEqual(parsed.attestations.get('part/12/3'), f.part);
  assert.deepEqual(parsed.attestations.get(objectId({ kind: 'init', msn: -1, part: -1 })), f.init);
});

test('the attested bytes verify, as part, segment and init', async () => {
  const f = await fixture();
  assert.equal(f.keys.size, 1);
  assert.deepEqual(await verifyObject(f.bytes, f.part, f.scope, f.keys), { ok: true, reason: null });
  const segment = { ...f.scope, kind: 'segment', msn: 11, part: -1 };
  assert.equal((await verifyObject(f.bytes, f.segment, segment, f.keys)).ok, true);
  const init = { ...f.scope, kind: 'init', msn: -1, part: -1 };
  assert.equal((await verifyObject(f.bytes.slice(0, 700), f.init, init, f.keys)).ok, true);
});

test('forged, truncated and replayed objects are refused, each for its reason', async () => {
  const f = await fixture();
  const flipped = f.bytes.slice();
  flipped[1234] ^= 1;
  const cases = [
    [flipped, f.part, f.scope, 'sha256'],
    [f.bytes.subarray(0, 2999), f.part, f.scope, 'length'],
    [f.bytes, { ...f.part, msn: 13 }, f.scope, 'object'],
    [f.bytes, { ...f.part, msn: 13 }, { ...f.scope, msn: 13 }, 'signature'],
    [f.bytes, { ...f.part, part: 4 }, { ...f.scope, part: 4 }, 'signature'],
    [f.bytes, { ...f.part, kind: 'segment' }, { ...f.scope, kind: 'segment' }, 'signature'],
    [f.bytes, f.segment, f.scope, 'object'],
    [f.bytes, f.part, { ...f.scope, rendition: 'audio' }, 'signature'],
    [f.bytes, f.part, { ...f.scope, instance: 'i-2' }, 'signature'],
    [f.bytes, f.part, { ...f.scope, stream: 'other' }, 'signature'],
    [f.bytes, { ...f.part, sig: 'AAAA' }, f.scope, 'signature encoding'],
  ];
  for (const [bytes, attestation, scope, reason] of cases) {
    assert.deepEqual(await verifyObject(bytes, attestation, scope, f.keys), { ok: false, reason });
  }
});

test('an object signed by a key the origin did not endorse is refused', async () => {
  const f = await fixture();
  const foreign = await makeOrigin();
  const forged = await foreign.attest('video', { kind: 'part', msn: 12, part: 3 }, f.bytes);
  assert.deepEqual(await verifyObject(f.bytes, forged, f.scope, f.keys), { ok: false, reason: 'signature' });
  // The foreign session, endorsed by a foreign origin key, is not trusted under the real origin key.
  const { keys, rejected } = await endorsedSessionKeys(f.origin.originKey, foreign.sessions, 'cam', 'i-1', NOW_S);
  assert.equal(keys.size, 0);
  assert.equal(rejected, 1);
});

test('session endorsements bind stream, instance and expiry', async () => {
  const f = await fixture();
  const check = async (stream, instance, now) =>
    (await endorsedSessionKeys(f.origin.originKey, f.origin.sessions, stream, instance, now)).keys.size;
  assert.equal(await check('cam', 'i-1', NOW_S), 1);
  assert.equal(await check('cam', 'i-2', NOW_S), 0);
  assert.equal(await check('cam2', 'i-1', NOW_S), 0);
  assert.equal(await check('cam', 'i-1', f.origin.sessions[0].notAfter + 1), 0);
  const tampered = [{ ...f.origin.sessions[0], notAfter: f.origin.sessions[0].notAfter + 3600 }];
  assert.equal((await endorsedSessionKeys(f.origin.originKey, tampered, 'cam', 'i-1', NOW_S)).keys.size, 0);
  await assert.rejects(endorsedSessionKeys('short', f.origin.sessions, 'cam', 'i-1', NOW_S), /originKey/);
});

test('property: garbage playlists and attribute lists never throw and yield only well-formed entries', () => {
  const random = prng(99);
  const alphabet = '#EXT-X-TERN-ATTEST:KIND=partsegmentinit,MSN=PART=-1LENGTH=SHA256="SIG\n0123456789';
  for (let round = 0; round < 2000; round++) {
    let text = '';
    const length = random.int(300);
    for (let i = 0; i < length; i++) text += random.pick(alphabet);
    const parsed = parsePlaylist(text);
    for (const a of parsed.attestations.values()) {
      assert.ok(['part', 'segment', 'init'].includes(a.kind));
      assert.ok(Number.isInteger(a.msn) && Number.isInteger(a.part) && Number.isInteger(a.length));
    }
    parseAttributes(text);
  }
  assert.equal(parseAttributes('A=1,B="x,y"').B, 'x,y');
  assert.equal(parseAttributes('A="unterminated'), null);
});
