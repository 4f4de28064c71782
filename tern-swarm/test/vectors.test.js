// The attestation vectors the Java side writes (tern-hls's AttestationVectorsTest): both sides must
// accept exactly the valid cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  endorsedSessionKeys,
  objectMessage,
  parsePlaylist,
  sessionKeyOf,
  sessionMessage,
  verifyObject,
} from '../src/verify.js';

const vectors = JSON.parse(readFileSync(new URL('./vectors/attestation.json', import.meta.url), 'utf8'));
const hex = (text) => Uint8Array.from(text.match(/../g) ?? [], (h) => parseInt(h, 16));
const decoder = new TextDecoder();

test('session endorsements: exactly the valid cases are accepted, and the signed text matches', async () => {
  assert.ok(vectors.sessions.length >= 2);
  for (const c of vectors.sessions) {
    const [session] = parsePlaylist(c.tag).sessions;
    assert.deepEqual(session, { key: c.sessionKey, notAfter: c.notAfter, endorsement: c.endorsement }, c.name);
    const { keys } = await endorsedSessionKeys(c.originKey, [session], c.stream, c.instance, 0);
    assert.equal(keys.size === 1, c.valid, c.name);
    if (c.message) assert.equal(decoder.decode(sessionMessage(c.stream, c.instance, c.sessionKey, c.notAfter)), c.message);
  }
});

test('object attestations: exactly the valid cases verify, and the signed text matches', async () => {
  assert.ok(vectors.objects.some((c) => c.valid) && vectors.objects.some((c) => !c.valid));
  for (const c of vectors.objects) {
    const attestation = parsePlaylist(c.tag).attestations.values().next().value;
    assert.deepEqual(attestation, c.attestation, c.name);
    const keys = new Map([[c.sessionKey, await sessionKeyOf(c.sessionKey)]]);
    const result = await verifyObject(hex(c.bytes), attestation, c.context, keys);
    assert.equal(result.ok, c.valid, `${c.name}: ${result.reason}`);
    if (c.message) assert.equal(decoder.decode(objectMessage(c.context, attestation)), c.message);
  }
});
