// A fleet of simulated viewers of one live stream, running the library's own sans-IO Scheduler
// over modelled links on simulated time: an origin publishing LL-HLS parts, viewers that load
// parts one at a time as hls.js does, data channels with latency, bandwidth and a send queue, and
// misbehaving viewers. Deterministic for a seed. The benchmark scales it; tests run small fleets.
import { Scheduler } from '../src/scheduler.js';
import { encodeHave, refKey } from '../src/peer-protocol.js';
import { b64urlEncode } from '../src/verify.js';

export const BEHAVIOURS = Object.freeze(['honest', 'corrupt', 'garbage', 'silent', 'oversized']);

const DEFAULT_FLEET = {
  seed: 1,
  viewers: 4,
  /** One entry per viewer (default honest). */
  behaviours: [],
  /** Scheduler options for all viewers, and per viewer (by index) on top. */
  schedulerOptions: {},
  viewerOptions: [],
  durationMs: 20_000,
  partMs: 500,
  partsPerSegment: 4,
  bitrateBps: 1_500_000,
  holdBackParts: 3,
  joinSpreadMs: 2_000,
  peerLatencyMs: 20,
  peerBytesPerMs: 2_500, // 20 Mbit/s per direction
  /** A lost packet on a reliable, ordered channel: the message and all behind it wait a retransmission. */
  peerLossRate: 0,
  retransmitMs: 200,
  originRttMs: 60,
  originBytesPerMs: 5_000,
  connectMs: 300,
};

function rng(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function equalBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Time-ordered events; ties run in insertion order. */
class EventQueue {
  constructor() {
    this.heap = [];
    this.seq = 0;
  }
  push(atMs, run) {
    const heap = this.heap;
    heap.push({ atMs, seq: this.seq++, run });
    for (let i = heap.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (this.less(heap[up], heap[i])) break;
      [heap[up], heap[i]] = [heap[i], heap[up]];
      i = up;
    }
  }
  less(a, b) {
    return a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);
  }
  pop() {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && this.less(heap[l], heap[m])) m = l;
        if (r < heap.length && this.less(heap[r], heap[m])) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i], heap[m]];
        i = m;
      }
    }
    return top;
  }
}

/**
 * Runs a fleet and returns {viewers: [{id, behaviour, metrics, late, corruptDelivered}], originBytes}.
 * options.verify(ref, bytes, attestation) -> Promise<boolean> replaces the default oracle (which
 * compares with the origin's bytes) with real verification, and options.attest(ref, bytes) ->
 * Promise<attestation> signs the origin's objects for it.
 */
export async function runFleet(options = {}) {
  const o = { ...DEFAULT_FLEET, ...options };
  const random = rng(o.seed);
  const events = new EventQueue();
  const truth = new Map();
  const listing = [];
  let originBytes = 0;
  const partBytes = Math.round((o.bitrateBps / 8) * (o.partMs / 1000));

  const makeObject = async (ref) => {
    const bytes = new Uint8Array(ref.kind === 'init' ? 800 : partBytes);
    for (let i = 0; i < bytes.length; i += 97) bytes[i] = Math.floor(random() * 256);
    truth.set(refKey(ref), bytes);
    const attestation = options.attest
      ? await options.attest(ref, bytes)
      : {
          kind: ref.kind, msn: ref.msn, part: ref.part, length: bytes.length,
          sha256: b64urlEncode(new Uint8Array(32).fill(ref.part & 0xff)), sig: b64urlEncode(new Uint8Array(64)),
        };
    listing.push({ ref, url: `/${refKey(ref)}`, attestation, publishedMs: 0 });
    return listing[listing.length - 1];
  };
  const verify =
    options.verify ??
    (async (ref, bytes) => {
      const expected = truth.get(refKey(ref));
      return expected !== undefined && equalBytes(expected, bytes);
    });

  const viewers = [];
  const byId = new Map();

  const link = (from, to) => {
    const key = `${from.id}>${to.id}`;
    let l = from.links.get(key);
    if (!l) {
      l = { freeAtMs: 0, queuedBytes: 0 };
      from.links.set(key, l);
    }
    return l;
  };

  const transmit = (nowMs, from, to, bytes) => {
    const l = link(from, to);
    const startMs = Math.max(nowMs, l.freeAtMs);
    l.freeAtMs = startMs + bytes.length / o.peerBytesPerMs;
    const packets = Math.ceil(bytes.length / 1200);
    for (let i = 0; i < packets; i++) if (o.peerLossRate > 0 && random() < o.peerLossRate) l.freeAtMs += o.retransmitMs;
    l.queuedBytes += bytes.length;
    const sentMs = l.freeAtMs;
    events.push(sentMs, async () => {
      l.queuedBytes -= bytes.length;
      if (from.peers.has(to.id) && l.queuedBytes < from.scheduler.config.lowWaterBytes) {
        await step(from, sentMs, (s) => s.onBufferedAmount(sentMs, to.id, l.queuedBytes));
      }
    });
    events.push(sentMs + o.peerLatencyMs, async () => {
      // Chromium refuses to send a message over 256 KiB: it never reaches the peer.
      if (!to.peers.has(from.id) || bytes.length > 256 * 1024) return;
      await step(to, sentMs + o.peerLatencyMs, (s) => s.onPeerMessage(sentMs + o.peerLatencyMs, from.id, bytes));
    });
  };

  const misbehave = (viewer, bytes) => {
    switch (viewer.behaviour) {
      case 'corrupt':
        if (bytes[0] === 6 && bytes.length > 20) {
          const copy = bytes.slice();
          copy[copy.length - 1] ^= 0x40;
          return copy;
        }
        return bytes;
      case 'garbage':
        return bytes[0] === 5 || bytes[0] === 6 ? Uint8Array.from(bytes.subarray(0, 64), () => Math.floor(random() * 256)) : bytes;
      case 'silent':
        return bytes[0] === 5 || bytes[0] === 6 || bytes[0] === 4 ? null : bytes;
      case 'oversized':
        return bytes[0] === 6 ? new Uint8Array(200 * 1024).fill(6) : bytes;
      default:
        return bytes;
    }
  };

  /** Feeds one input to a viewer's scheduler, then drains its actions and re-arms its timer. */
  const step = async (viewer, nowMs, input) => {
    if (viewer.leftMs <= nowMs) return;
    input(viewer.scheduler);
    for (let action = viewer.scheduler.poll(); action; action = viewer.scheduler.poll()) {
      await perform(viewer, nowMs, action);
    }
    const deadline = viewer.scheduler.nextDeadlineMs();
    if (deadline < Infinity && deadline !== viewer.timerMs) {
      viewer.timerMs = deadline;
      const atMs = Math.max(deadline, nowMs);
      events.push(atMs, async () => {
        if (viewer.timerMs !== deadline) return;
        viewer.timerMs = Infinity;
        await step(viewer, atMs, (s) => s.onTimer(atMs));
      });
    }
  };

  const perform = async (viewer, nowMs, action) => {
    switch (action.type) {
      case 'send': {
        const to = byId.get(action.peerId);
        const bytes = misbehave(viewer, action.bytes);
        if (to && bytes) transmit(nowMs, viewer, to, bytes);
        break;
      }
      case 'http': {
        const bytes = truth.get(refKey(action.ref));
        originBytes += bytes.length;
        const firstMs = nowMs + o.originRttMs;
        const endMs = firstMs + bytes.length / o.originBytesPerMs;
        events.push(endMs, () => step(viewer, endMs, (s) => s.onHttpResult(endMs, action.fetchId, bytes, { startMs: nowMs, firstMs, endMs })));
        break;
      }
      case 'verify': {
        const ok = await verify(action.ref, action.bytes, action.attestation);
        events.push(nowMs + 1, () => step(viewer, nowMs + 1, (s) => s.onVerified(nowMs + 1, action.verifyId, ok)));
        break;
      }
      case 'deliver': {
        const load = viewer.loads.get(action.loadId);
        viewer.loads.delete(action.loadId);
        const expected = truth.get(refKey(load.ref));
        if (!equalBytes(action.bytes, expected)) viewer.corruptDelivered++;
        if (nowMs > load.needByMs) viewer.late++;
        viewer.loading = false;
        events.push(nowMs, () => nextLoad(viewer, nowMs));
        break;
      }
      case 'fail':
        viewer.loading = false;
        break;
      case 'disconnect': {
        const other = byId.get(action.peerId);
        viewer.peers.delete(action.peerId);
        if (other && other.peers.delete(viewer.id)) {
          events.push(nowMs + o.peerLatencyMs, () => step(other, nowMs + o.peerLatencyMs, (s) => s.removePeer(nowMs + o.peerLatencyMs, viewer.id)));
        }
        events.push(nowMs + o.connectMs, () => connect(viewer, nowMs + o.connectMs));
        break;
      }
      default:
        throw new Error(`unknown action ${action.type}`);
    }
  };

  /** The player: hls.js loads the next listed part once the previous one is in. */
  const nextLoad = async (viewer, nowMs) => {
    if (viewer.loading || viewer.nextIndex >= viewer.listedCount) return;
    const item = listing[viewer.nextIndex++];
    viewer.loading = true;
    const loadId = ++viewer.loadCount;
    // The playhead trails the edge by the hold-back, and starts a hold-back after the player joins.
    const needByMs = Math.max(item.publishedMs, viewer.joinedMs) + o.holdBackParts * o.partMs;
    viewer.loads.set(loadId, { ref: item.ref, needByMs });
    await step(viewer, nowMs, (s) => s.load(nowMs, loadId, item.ref, item.url, needByMs));
  };

  const connect = async (viewer, nowMs) => {
    if (viewer.leftMs <= nowMs) return;
    const candidates = viewers.filter(
      (v) => v !== viewer && v.joinedMs <= nowMs && v.leftMs > nowMs && !viewer.peers.has(v.id) &&
        !viewer.scheduler.isBanned(v.id) && !v.scheduler.isBanned(viewer.id) && v.scheduler.acceptsPeers(),
    );
    while (viewer.scheduler.wantsPeers() > viewer.pendingConnects && candidates.length > 0) {
      const other = candidates.splice(Math.floor(random() * candidates.length), 1)[0];
      viewer.pendingConnects++;
      other.pendingConnects++;
      const atMs = nowMs + o.connectMs;
      events.push(atMs, async () => {
        viewer.pendingConnects--;
        other.pendingConnects--;
        if (viewer.leftMs <= atMs || other.leftMs <= atMs) return;
        if (!viewer.scheduler.acceptsPeers() || !other.scheduler.acceptsPeers()) return;
        viewer.peers.add(other.id);
        other.peers.add(viewer.id);
        await step(viewer, atMs, (s) => s.addPeer(atMs, other.id));
        await step(other, atMs, (s) => s.addPeer(atMs, viewer.id));
      });
    }
    // Still short of peers: look again later, as the rendezvous heartbeat would.
    if (viewer.scheduler.wantsPeers() > viewer.pendingConnects) {
      const retryMs = nowMs + 2_000 + Math.floor(random() * 1_000);
      if (retryMs < o.durationMs) events.push(retryMs, () => connect(viewer, retryMs));
    }
  };

  for (let i = 0; i < o.viewers; i++) {
    const id = `v${i}`;
    const viewer = {
      id, behaviour: o.behaviours[i] ?? 'honest', scheduler: new Scheduler(id, { ...o.schedulerOptions, ...o.viewerOptions[i] }),
      peers: new Set(), links: new Map(), loads: new Map(), loadCount: 0, loading: false, nextIndex: 0,
      listedCount: 0, late: 0, corruptDelivered: 0, timerMs: Infinity, pendingConnects: 0,
      joinedMs: Math.floor(random() * o.joinSpreadMs), leftMs: Infinity,
    };
    viewers.push(viewer);
    byId.set(id, viewer);
  }

  const publish = async (nowMs, ref) => {
    const item = await makeObject(ref);
    item.publishedMs = nowMs;
    for (const viewer of viewers) {
      if (viewer.joinedMs > nowMs) continue;
      const atMs = nowMs + o.originRttMs / 2;
      events.push(atMs, async () => {
        const rendition = [listing[0], ...listing.slice(Math.max(1, listing.length - 3 * o.partsPerSegment))];
        viewer.listedCount = listing.indexOf(item) + 1;
        if (viewer.behaviour === 'silent') {
          for (const peerId of viewer.peers) transmit(atMs, viewer, byId.get(peerId), encodeHaveOf(rendition));
        }
        await step(viewer, atMs, (s) => s.onPlaylist(atMs, 'video', rendition));
        await nextLoad(viewer, atMs);
      });
    }
  };

  await publish(0, { rendition: 'video', kind: 'init', msn: -1, part: -1 });
  for (let index = 0; ; index++) {
    const atMs = (index + 1) * o.partMs;
    if (atMs > o.durationMs) break;
    const ref = { rendition: 'video', kind: 'part', msn: Math.floor(index / o.partsPerSegment), part: index % o.partsPerSegment };
    events.push(atMs, () => publish(atMs, ref));
  }
  for (const viewer of viewers) {
    events.push(viewer.joinedMs, async () => {
      // A joining player starts at the init segment, then the part a hold-back behind the edge.
      viewer.listedCount = listing.length;
      viewer.nextIndex = 0;
      await nextLoad(viewer, viewer.joinedMs);
      viewer.nextIndex = Math.max(1, listing.length - o.holdBackParts);
      await connect(viewer, viewer.joinedMs);
    });
  }

  const endMs = o.durationMs + 5_000;
  let count = 0;
  while (events.heap.length > 0 && count++ < 5_000_000) {
    const event = events.pop();
    if (event.atMs > endMs) break;
    await event.run();
  }
  return {
    originBytes,
    events: count,
    viewers: viewers.map((v) => ({ id: v.id, behaviour: v.behaviour, metrics: v.scheduler.metrics, late: v.late, corruptDelivered: v.corruptDelivered })),
  };
}

function encodeHaveOf(items) {
  return encodeHave(items.filter((i) => i.ref.kind === 'part').slice(-64).map((i) => i.ref));
}
