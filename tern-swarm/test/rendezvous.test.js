import { test } from 'node:test';
import assert from 'node:assert/strict';
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure';
import { matchFilters } from 'nostr-tools/filter';
import { KIND_ANNOUNCE, KIND_SIGNAL, Rendezvous, subscriptionFilters, swarmTopic } from '../src/rendezvous.js';
import { Scheduler } from '../src/scheduler.js';
import { prng } from './prng.js';

const topic = swarmTopic('cam', 'i-1');

/** An in-memory relay that checks signatures and fans events out by REQ filters, as Tern's relay does. */
class Relay {
  constructor() {
    this.subscribers = [];
    this.published = [];
    this.rejected = 0;
  }
  subscribe(filters, deliver) {
    this.subscribers.push({ filters, deliver });
  }
  publish(event) {
    if (!verifyEvent(event)) {
      this.rejected++;
      return;
    }
    this.published.push(event);
    for (const s of this.subscribers) if (matchFilters(s.filters, event)) s.deliver(event);
  }
}

/** One viewer: a Scheduler, its Rendezvous, a per-session Nostr key, and connections that open once offer and answer crossed. */
function viewer(relay, seed, schedulerOptions = {}) {
  const secret = generateSecretKey();
  const pubkey = getPublicKey(secret);
  const swarm = new Scheduler(pubkey, schedulerOptions);
  const random = prng(seed);
  const r = new Rendezvous({ selfPubkey: pubkey, topic, swarm, random: random.next });
  const v = { pubkey, swarm, r, inbox: [], signals: [], now: 0 };
  relay.subscribe(subscriptionFilters(topic, pubkey), (event) => v.inbox.push(event));
  v.drain = (nowMs) => {
    for (let a = r.poll(); a; a = r.poll()) {
      if (a.type === 'publish') relay.publish(finalizeEvent({ ...a.template, created_at: Math.floor(nowMs / 1000) }, secret));
      else if (a.type === 'connect') r.localSignal(nowMs, a.peerId, { type: 'offer', sdp: `offer from ${pubkey}` });
      else if (a.type === 'signal') {
        v.signals.push(a);
        if (a.signal.type === 'offer') {
          r.localSignal(nowMs, a.peerId, { type: 'answer', sdp: 'answer' });
          open(v, a.peerId, nowMs);
        } else if (a.signal.type === 'answer') open(v, a.peerId, nowMs);
      }
    }
    for (let a = swarm.poll(); a; a = swarm.poll());
  };
  return v;
}

function open(v, peerId, nowMs) {
  v.r.connected(peerId);
  v.swarm.addPeer(nowMs, peerId);
}

/** Runs the viewers on simulated time: events are delivered at once, timers fire when due. */
function run(viewers, untilMs) {
  for (let now = 0; now <= untilMs; now += 10) {
    for (const v of viewers) {
      if (v.joinMs > now) continue;
      if (!v.started) {
        v.started = true;
        v.r.start(now);
      }
      while (v.inbox.length > 0) v.r.onEvent(now, v.inbox.shift());
      if (v.r.nextDeadlineMs() <= now) v.r.onTimer(now);
      v.drain(now);
    }
  }
}

test('an arriving viewer announces, the viewers already there offer, and both sides connect', () => {
  const relay = new Relay();
  const old = [1, 2, 3].map((s) => Object.assign(viewer(relay, s), { joinMs: 0 }));
  const late = Object.assign(viewer(relay, 9), { joinMs: 30_000 });
  run([...old, late], 32_000);
  assert.equal(relay.rejected, 0);
  assert.equal(late.swarm.peers.size, 3);
  for (const v of old) assert.ok(v.swarm.peers.has(late.pubkey));
  const offersToLate = relay.published.filter((e) => e.kind === KIND_SIGNAL && e.tags.some((t) => t[0] === 'p' && t[1] === late.pubkey));
  assert.ok(offersToLate.length >= 3);
  for (const e of relay.published) {
    assert.deepEqual(e.tags.find((t) => t[0] === 'x'), ['x', topic]);
    assert.ok(e.kind >= 20000 && e.kind < 30000, 'ephemeral');
  }
});

test('a viewer stops announcing once it has enough peers, and starts again when one leaves', () => {
  const relay = new Relay();
  const viewers = [1, 2, 3].map((s) => Object.assign(viewer(relay, s, { targetPeers: 2, maxPeers: 3 }), { joinMs: s * 100 }));
  run(viewers, 120_000);
  const announcesOf = (v) => relay.published.filter((e) => e.kind === KIND_ANNOUNCE && e.pubkey === v.pubkey).length;
  for (const v of viewers) {
    assert.equal(v.swarm.peers.size, 2);
    assert.ok(announcesOf(v) <= 2, `${announcesOf(v)} announces in 120 s with enough peers`);
  }
  const before = announcesOf(viewers[0]);
  viewers[0].swarm.removePeer(120_000, viewers[1].pubkey);
  viewers[0].r.onPeersChanged(120_000);
  viewers[0].drain(120_000);
  assert.equal(announcesOf(viewers[0]), before + 1);
});

test('the heartbeat is jittered within ±30 % of 20 s while a viewer is alone', () => {
  const relay = new Relay();
  const alone = Object.assign(viewer(relay, 5), { joinMs: 0 });
  const times = [];
  relay.subscribe([{ kinds: [KIND_ANNOUNCE] }], () => times.push(alone.now));
  const viewers = [alone];
  for (let now = 0; now <= 200_000; now += 10) {
    alone.now = now;
    if (!alone.started) {
      alone.started = true;
      alone.r.start(now);
    }
    if (alone.r.nextDeadlineMs() <= now) alone.r.onTimer(now);
    alone.drain(now);
  }
  assert.ok(viewers.length === 1 && times.length >= 7 && times.length <= 15, `${times.length} announces`);
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  for (const gap of gaps) assert.ok(gap >= 14_000 && gap <= 26_010, `gap ${gap}`);
  assert.ok(new Set(gaps).size > 1, 'not a fixed period');
});

test('an offer flood opens at most maxPending negotiations, and garbage or foreign events none', () => {
  const relay = new Relay();
  const target = Object.assign(viewer(relay, 1), { joinMs: 0 });
  target.r.start(0);
  target.drain(0);
  const offer = (content, tags = [['x', topic], ['p', target.pubkey], ['v', '1']]) => ({
    kind: KIND_SIGNAL, pubkey: getPublicKey(generateSecretKey()), tags, content,
  });
  for (let i = 0; i < 1000; i++) target.r.onEvent(10, offer(JSON.stringify({ type: 'offer', sdp: 'x' })));
  target.r.onEvent(10, offer('not json'));
  target.r.onEvent(10, offer('{"type":"bogus"}'));
  target.r.onEvent(10, offer('x'.repeat(100_000)));
  target.r.onEvent(10, offer(JSON.stringify({ type: 'offer' }), [['x', 'tern-swarm:other:i'], ['p', target.pubkey], ['v', '1']]));
  target.r.onEvent(10, offer(JSON.stringify({ type: 'offer' }), [['x', topic], ['p', 'someone-else'], ['v', '1']]));
  target.r.onEvent(10, offer(JSON.stringify({ type: 'answer' })));
  const actions = [];
  for (let a = target.r.poll(); a; a = target.r.poll()) actions.push(a);
  assert.equal(actions.filter((a) => a.type === 'signal').length, target.r.config.maxPending);
  assert.equal(actions.length, target.r.config.maxPending);
  // The stuck negotiations time out and free their slots.
  target.r.onTimer(10 + target.r.config.negotiationTimeoutMs);
  assert.equal(target.r.pending.size, 0);
});

test('offers whose negotiations fail at once are taken at most maxOffersPerWindow per window', () => {
  const relay = new Relay();
  const target = Object.assign(viewer(relay, 1), { joinMs: 0 });
  target.r.start(0);
  target.drain(0);
  const { maxOffersPerWindow, offerWindowMs } = target.r.config;
  let taken = 0;
  const flood = (nowMs, count) => {
    for (let i = 0; i < count; i++) {
      const pubkey = getPublicKey(generateSecretKey());
      target.r.onEvent(nowMs, {
        kind: KIND_SIGNAL, pubkey, tags: [['x', topic], ['p', target.pubkey], ['v', '1']], content: JSON.stringify({ type: 'offer', sdp: 'x' }),
      });
      for (let a = target.r.poll(); a; a = target.r.poll()) if (a.type === 'signal') taken++;
      // The glue's connection fails on the bad SDP and abandons the negotiation, freeing its slot.
      target.r.abandon(pubkey);
      target.r.poll();
    }
  };
  flood(10, 200);
  assert.equal(taken, maxOffersPerWindow);
  flood(10 + offerWindowMs - 1, 200);
  assert.equal(taken, maxOffersPerWindow);
  flood(10 + offerWindowMs, 200);
  assert.equal(taken, 2 * maxOffersPerWindow, 'the budget refills after the window');
});

test('glare: when two viewers offer to each other, exactly one offer is answered', () => {
  const relay = new Relay();
  const [a, b] = [1, 2].map((s) => Object.assign(viewer(relay, s), { joinMs: 0 }));
  // Both learn of each other at once, and both decide to offer before either offer arrives.
  for (const [x, y] of [[a, b], [b, a]]) {
    x.started = true;
    x.r.onEvent(0, { kind: KIND_ANNOUNCE, pubkey: y.pubkey, tags: [['x', topic], ['v', '1']], content: '' });
    x.r.onTimer(1000);
  }
  a.drain(1000);
  b.drain(1000);
  assert.equal(a.r.pending.get(b.pubkey)?.initiator, true);
  assert.equal(b.r.pending.get(a.pubkey)?.initiator, true);
  run([a, b], 2000);
  assert.ok(a.swarm.peers.has(b.pubkey) && b.swarm.peers.has(a.pubkey));
  const answered = [...a.signals, ...b.signals].filter((s) => s.signal.type === 'offer');
  assert.equal(answered.length, 1);
});
