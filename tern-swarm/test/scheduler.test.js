import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Scheduler } from '../src/scheduler.js';
import { decode, encodeChunk, encodeHave, encodeObject, MAX_CHUNK_BYTES, MAX_MESSAGE_BYTES } from '../src/peer-protocol.js';
import { b64urlEncode } from '../src/verify.js';

const ref = (msn, part) => ({ rendition: 'video', kind: 'part', msn, part });
const attestation = (r, length) => ({
  kind: r.kind, msn: r.msn, part: r.part, length, sha256: b64urlEncode(new Uint8Array(32).fill(7)), sig: b64urlEncode(new Uint8Array(64).fill(9)),
});
const item = (r, length = 1000) => ({ ref: r, url: `/video-p${r.msn * 4 + r.part}.m4s`, attestation: attestation(r, length) });

function drain(s) {
  const actions = [];
  for (let a = s.poll(); a; a = s.poll()) actions.push(a);
  return actions;
}
const ofType = (actions, type) => actions.filter((a) => a.type === type);

/** Carries every queued message of one scheduler to another, until both are quiet; answers verify with ok. */
function exchange(nowMs, a, b, verifyOk = true) {
  const deliveries = [];
  for (let round = 0; round < 100; round++) {
    let moved = false;
    for (const [from, to] of [[a, b], [b, a]]) {
      for (const action of drain(from)) {
        moved = true;
        if (action.type === 'send' && action.peerId === to.selfId) to.onPeerMessage(nowMs, from.selfId, action.bytes);
        else if (action.type === 'verify') from.onVerified(nowMs, action.verifyId, verifyOk);
        else if (action.type === 'send') from.onBufferedAmount(nowMs, action.peerId, 0);
        else deliveries.push({ at: from.selfId, ...action });
      }
      from.onBufferedAmount(nowMs, to.selfId, 0);
    }
    if (!moved) return deliveries;
  }
  throw new Error('no quiescence in 100 rounds');
}

test('with no peers a load goes over HTTP at once, and reports the real transfer times', () => {
  const s = new Scheduler('a');
  s.onPlaylist(0, 'video', [item(ref(0, 0))]);
  drain(s);
  s.load(10, 1, ref(0, 0), '/video-p0.m4s', 1500);
  const [http] = drain(s);
  assert.equal(http.type, 'http');
  const bytes = new Uint8Array(1000);
  s.onHttpResult(130, http.fetchId, bytes, { startMs: 10, firstMs: 70, endMs: 130 });
  const deliver = ofType(drain(s), 'deliver')[0];
  assert.deepEqual(deliver.stats, { source: 'http', startMs: 10, firstMs: 70, endMs: 130 });
  assert.equal(deliver.bytes, bytes);
  assert.equal(s.metrics.loads.inTime, 1);
});

test('a seeder fetches a listed part at once and a peer gets it from the seeder, verified, with its transfer times', () => {
  const a = new Scheduler('a', { seedersPerObject: 1 });
  const b = new Scheduler('b', { seedersPerObject: 1 });
  a.addPeer(0, 'b');
  b.addPeer(0, 'a');
  exchange(0, a, b);
  // Find a part for which a is the seeder.
  let r;
  for (let p = 0; p < 50 && !r; p++) if (a.isSeeder(`video/part/0/${p}`)) r = ref(0, p);
  a.onPlaylist(100, 'video', [item(r, 200_000)]);
  b.onPlaylist(100, 'video', [item(r, 200_000)]);
  const http = ofType(drain(a), 'http');
  assert.equal(http.length, 1, 'the seeder fetches');
  assert.equal(ofType(drain(b), 'http').length, 0, 'the other viewer waits for peers');
  const bytes = new Uint8Array(200_000).fill(5);
  a.onHttpResult(180, http[0].fetchId, bytes, { startMs: 100, firstMs: 160, endMs: 180 });
  exchange(200, a, b);
  b.load(210, 1, r, '/x', 2000);
  const deliver = ofType(drain(b), 'deliver')[0];
  assert.equal(deliver.stats.source, 'peer');
  assert.deepEqual(deliver.bytes, bytes);
  assert.equal(b.metrics.bytes.peer, 200_000);
  assert.equal(b.metrics.bytes.http, 0);
  assert.ok(a.metrics.bytes.uploaded > 200_000);
});

function seeded(selfId, length) {
  // A viewer holding one verified part, with one peer 'p'.
  const s = new Scheduler(selfId, { uploadBurstBytes: 1 << 30, uploadBytesPerSecond: 1 << 30 });
  const r = ref(0, 0);
  s.onPlaylist(0, 'video', [item(r, length)]);
  s.load(0, 1, r, '/x', 1000);
  const http = ofType(drain(s), 'http')[0];
  s.onHttpResult(50, http.fetchId, new Uint8Array(length).fill(1), { startMs: 0, firstMs: 40, endMs: 50 });
  const verify = ofType(drain(s), 'verify')[0];
  s.onVerified(51, verify.verifyId, true);
  s.addPeer(60, 'p');
  drain(s);
  return { s, r };
}

test('uploads are chunked to 64 KiB and stop at the high-water mark until the channel drains', () => {
  const { s, r } = seeded('a', 3 * 1024 * 1024);
  s.onPeerMessage(100, 'p', new Uint8Array([2, 0, 0, 0, 1, ...encodeHave([r]).subarray(2)]));
  let sends = ofType(drain(s), 'send');
  assert.ok(sends.every((m) => m.bytes.length <= MAX_MESSAGE_BYTES));
  const queued = sends.reduce((n, m) => n + m.bytes.length, 0);
  assert.ok(queued >= s.config.highWaterBytes && queued < s.config.highWaterBytes + MAX_MESSAGE_BYTES, `queued ${queued}`);
  assert.equal(decode(sends[0].bytes).type, 'object');
  assert.equal(decode(sends[1].bytes).payload.length, MAX_CHUNK_BYTES);
  s.onBufferedAmount(200, 'p', 0);
  sends = ofType(drain(s), 'send');
  assert.ok(sends.length > 10, 'the drained channel takes more chunks');
});

test('the upload rate per peer is bounded: the rest waits for the timer', () => {
  const s = new Scheduler('a', { uploadBytesPerSecond: 100_000, uploadBurstBytes: 100_000 });
  const r = ref(0, 0);
  s.onPlaylist(0, 'video', [item(r, 500_000)]);
  s.load(0, 1, r, '/x', 1000);
  s.onHttpResult(50, ofType(drain(s), 'http')[0].fetchId, new Uint8Array(500_000), { startMs: 0, firstMs: 40, endMs: 50 });
  s.onVerified(51, ofType(drain(s), 'verify')[0].verifyId, true);
  s.addPeer(60, 'p');
  drain(s);
  s.onPeerMessage(100, 'p', new Uint8Array([2, 0, 0, 0, 1, ...encodeHave([r]).subarray(2)]));
  const sent = ofType(drain(s), 'send').reduce((n, m) => n + m.bytes.length, 0);
  assert.ok(sent <= 100_000, `sent ${sent} at once`);
  assert.ok(s.nextDeadlineMs() > 100 && s.nextDeadlineMs() < 2000);
  let total = sent;
  for (let t = 100; t <= 5100; t += 100) {
    s.onTimer(t);
    total += ofType(drain(s), 'send').reduce((n, m) => n + m.bytes.length, 0);
    s.onBufferedAmount(t, 'p', 0);
  }
  assert.ok(total > 500_000 && total < 100_000 + 5.1 * 100_000 + 70_000, `sent ${total} in 5 s`);
});

/** A viewer waiting on part 0/0 that peer 'p' announced, with the request out. */
function waitingOnPeer() {
  const s = new Scheduler('b', { seedersPerObject: 0 });
  const r = ref(0, 0);
  s.addPeer(0, 'p');
  s.onPlaylist(0, 'video', [item(r, 1000)]);
  s.onPeerMessage(10, 'p', encodeHave([r]));
  drain(s);
  s.load(20, 1, r, '/x', 2000);
  const actions = drain(s);
  assert.equal(ofType(actions, 'http').length, 0);
  return { s, r };
}

test('garbage from a peer bans it and costs exactly one HTTP fetch', () => {
  const { s } = waitingOnPeer();
  s.onPeerMessage(30, 'p', Uint8Array.of(6, 1, 2));
  const actions = drain(s);
  assert.deepEqual(ofType(actions, 'disconnect').map((a) => [a.peerId, a.ban]), [['p', true]]);
  assert.equal(ofType(actions, 'http').length, 1);
  assert.equal(s.metrics.bans, 1);
  assert.equal(s.addPeer(40, 'p'), false, 'banned for the session');
});

test('an oversized message bans the peer and costs one HTTP fetch', () => {
  const { s } = waitingOnPeer();
  s.onPeerMessage(30, 'p', new Uint8Array(200 * 1024).fill(6));
  assert.equal(ofType(drain(s), 'http').length, 1);
  assert.equal(s.metrics.protocolErrors, 1);
});

test('an object that fails verification bans its sender and is fetched over HTTP', () => {
  const { s, r } = waitingOnPeer();
  const request = [...s.peers.get('p').downloads.keys()][0];
  s.onPeerMessage(30, 'p', encodeObject(request, r, 1000, new Uint8Array(32).fill(7), new Uint8Array(64).fill(9)));
  s.onPeerMessage(31, 'p', encodeChunk(request, 0, new Uint8Array(1000)));
  const verify = ofType(drain(s), 'verify')[0];
  assert.ok(verify);
  s.onVerified(32, verify.verifyId, false);
  const actions = drain(s);
  assert.equal(ofType(actions, 'deliver').length, 0, 'nothing unverified reaches the player');
  assert.equal(ofType(actions, 'http').length, 1);
  assert.equal(s.metrics.verifyFailures, 1);
  assert.equal(s.isBanned('p'), true);
});

test('an object header that contradicts the playlist bans the peer before any chunk', () => {
  const { s, r } = waitingOnPeer();
  const request = [...s.peers.get('p').downloads.keys()][0];
  s.onPeerMessage(30, 'p', encodeObject(request, r, 1000, new Uint8Array(32), new Uint8Array(64)));
  const actions = drain(s);
  assert.equal(ofType(actions, 'http').length, 1);
  assert.equal(s.isBanned('p'), true);
});

test('a peer that announces but never sends costs one fallback, before the playhead needs it, then is replaced', () => {
  const { s } = waitingOnPeer();
  const deadline = s.nextDeadlineMs();
  assert.ok(deadline > 20 && deadline <= 2000 - s.config.minHttpLeadMs, `deadline ${deadline}`);
  s.onTimer(deadline);
  const http = ofType(drain(s), 'http');
  assert.equal(http.length, 1);
  // A second stalled transfer replaces the peer, and it is not taken back.
  const r2 = ref(0, 1);
  s.onPlaylist(500, 'video', [item(r2, 1000)]);
  s.onPeerMessage(510, 'p', encodeHave([r2]));
  drain(s);
  s.onTimer(510 + s.config.peerStallMs);
  const actions = drain(s);
  assert.deepEqual(ofType(actions, 'disconnect').map((a) => a.reason), ['stalled']);
  assert.equal(ofType(actions, 'http').length, 0, 'a prefetch nobody waits for costs no HTTP');
  assert.equal(s.addPeer(1000, 'p'), false);
});

test('an aborted load is never delivered', () => {
  const s = new Scheduler('a');
  s.load(0, 1, ref(0, 0), '/x', 1000);
  const http = ofType(drain(s), 'http')[0];
  s.abort(5, 1);
  s.onHttpResult(50, http.fetchId, new Uint8Array(10), { startMs: 0, firstMs: 40, endMs: 50 });
  assert.equal(ofType(drain(s), 'deliver').length, 0);
  assert.equal(s.metrics.aborted, 1);
});

/** Lists msn's four parts (partBytes each) and has the player load them over HTTP; returns the scheduler. */
function playSegment(s, msn, partBytes) {
  const nowMs = msn * 2000;
  const listing = [0, 1, 2, 3].map((p) => item(ref(msn, p), partBytes));
  s.onPlaylist(nowMs, 'video', listing);
  for (const { ref: r, url } of listing) s.load(nowMs, `${msn}/${r.part}`, r, url, nowMs + 1000);
  for (const action of drain(s)) {
    if (action.type === 'http') s.onHttpResult(nowMs + 50, action.fetchId, new Uint8Array(partBytes), { startMs: nowMs, firstMs: nowMs + 1, endMs: nowMs + 50 });
  }
  drain(s);
}

test('held objects are a bounded window, not the whole stream', () => {
  const s = new Scheduler('a', { windowSegments: 2 });
  for (let msn = 0; msn < 50; msn++) {
    playSegment(s, msn, 10);
    assert.ok(s.objects.size <= 4 * 3, `objects ${s.objects.size}`);
    assert.ok(s.heldBytes <= 4 * 3 * 10, `held ${s.heldBytes}`);
  }
  assert.ok(s.heldBytes >= 4 * 10, 'the newest segment is held');
});

test('held bytes stay under maxHeldBytes, the oldest released first', () => {
  const s = new Scheduler('a', { maxHeldBytes: 100 });
  for (let msn = 0; msn < 3; msn++) {
    playSegment(s, msn, 30);
    assert.ok(s.heldBytes <= 100, `held ${s.heldBytes}`);
  }
  const held = [...s.objects.values()].filter((e) => e.bytes);
  assert.equal(held.length, 3);
  assert.ok(held.every((e) => e.ref.msn === 2), 'the newest are kept');
});

test('a flood of connections is capped at maxPeers', () => {
  const s = new Scheduler('a');
  let accepted = 0;
  for (let i = 0; i < 100; i++) if (s.addPeer(0, `p${i}`)) accepted++;
  assert.equal(accepted, s.config.maxPeers);
  assert.equal(s.wantsPeers(), 0);
  assert.equal(s.acceptsPeers(), false);
});

test('an object our playlist does not attest is never taken from a peer, even if announced', () => {
  const s = new Scheduler('b', { seedersPerObject: 0 });
  s.addPeer(0, 'p');
  const r = ref(3, 0);
  s.onPeerMessage(10, 'p', encodeHave([r]));
  s.load(20, 1, r, '/x', 5000);
  const actions = drain(s);
  assert.equal(ofType(actions, 'http').length, 1);
  assert.ok(ofType(actions, 'send').every((a) => decode(a.bytes).type !== 'request'));
});
