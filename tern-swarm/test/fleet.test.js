// The fleet simulation (sim/fleet.js) on small fleets: the library's scheduler end to end, with
// the origin, links and misbehaving viewers modelled on simulated time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runFleet } from '../sim/fleet.js';
import { makeOrigin } from './origin-fixture.js';
import { verifyObject, endorsedSessionKeys } from '../src/verify.js';

const honest = (result) => result.viewers.filter((v) => v.behaviour === 'honest');

test('four honest viewers play in time with most parts from peers and nothing corrupt', async () => {
  const result = await runFleet({ seed: 1, viewers: 4, durationMs: 15_000 });
  const streamBytes = 1_500_000 / 8 * 15;
  for (const v of result.viewers) {
    assert.equal(v.late, 0, `${v.id} late`);
    assert.equal(v.corruptDelivered, 0);
    assert.equal(v.metrics.inTimeShare, 1);
  }
  const offload = 1 - result.originBytes / (4 * streamBytes);
  assert.ok(offload > 0.5, `origin offload ${offload.toFixed(2)}`);
});

test('with 2 % packet loss on the data channels playback stays in time and peers are kept', async () => {
  const result = await runFleet({ seed: 7, viewers: 4, durationMs: 15_000, peerLossRate: 0.02 });
  for (const v of result.viewers) {
    assert.equal(v.late, 0, `${v.id} late`);
    assert.equal(v.metrics.replaced, 0, 'a slow transfer is not a stall strike');
  }
  const offload = 1 - result.originBytes / (4 * (1_500_000 / 8) * 15);
  assert.ok(offload > 0.5, `origin offload ${offload.toFixed(2)}`);
});

for (const behaviour of ['corrupt', 'garbage', 'oversized', 'silent']) {
  test(`a ${behaviour} viewer is cut off, costs no stall, and no corrupt byte reaches any player`, async () => {
    for (const seed of [1, 2]) {
      // The bad viewer seeds every part, so that its peers do take objects from it.
      const result = await runFleet({ seed, viewers: 6, behaviours: [behaviour], viewerOptions: [{ seedersPerObject: 8 }], durationMs: 12_000 });
      for (const v of result.viewers) assert.equal(v.corruptDelivered, 0, `seed ${seed} ${v.id}`);
      for (const v of honest(result)) {
        assert.equal(v.late, 0, `seed ${seed} ${v.id} late`);
        assert.ok(v.metrics.fallbacks <= 1, `seed ${seed} ${v.id}: ${v.metrics.fallbacks} fallbacks`);
        const cutOff = behaviour === 'silent' ? v.metrics.replaced : v.metrics.bans;
        assert.ok(cutOff <= 1);
      }
      const cutOffs = honest(result).reduce((n, v) => n + (behaviour === 'silent' ? v.metrics.replaced : v.metrics.bans), 0);
      assert.ok(cutOffs >= 1, `seed ${seed}: nobody cut the ${behaviour} viewer off`);
      assert.ok(honest(result).every((v) => v.metrics.peers <= 8));
    }
  });
}

test('the fleet runs the real verifier: signed parts pass, a corrupting viewer is banned', async () => {
  const origin = await makeOrigin({ stream: 'sim', instance: 'i' });
  const { keys } = await endorsedSessionKeys(origin.originKey, origin.sessions, 'sim', 'i', 0);
  const attestations = new Map();
  const result = await runFleet({
    seed: 3,
    viewers: 4,
    behaviours: ['corrupt'],
    viewerOptions: [{ seedersPerObject: 8 }],
    durationMs: 6_000,
    attest: async (ref, bytes) => {
      const a = await origin.attest(ref.rendition, ref, bytes);
      attestations.set(`${ref.kind}/${ref.msn}/${ref.part}`, a);
      return a;
    },
    verify: (ref, bytes, attestation) =>
      verifyObject(bytes, attestation, { stream: 'sim', instance: 'i', ...ref }, keys).then((r) => r.ok),
  });
  assert.ok(attestations.size > 10);
  for (const v of result.viewers) assert.equal(v.corruptDelivered, 0);
  assert.ok(honest(result).some((v) => v.metrics.bytes.peer > 0));
  assert.ok(honest(result).some((v) => v.metrics.verifyFailures > 0));
});
