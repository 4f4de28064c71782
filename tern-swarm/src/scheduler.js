// The swarm scheduler, sans-IO: it decides for each object whether it comes from a peer or over
// HTTP, from the time left before the playhead needs it. It reads no clock and does no I/O: every
// input carries nowMs, and its decisions are queued as actions that the glue (or the simulation)
// drains with poll() after every input, then arms one timer at nextDeadlineMs().
//
// Actions:
//   {type: 'http', fetchId, ref, url}                  fetch over HTTP; answer onHttpResult
//   {type: 'verify', verifyId, ref, bytes, attestation} verify (verify.js); answer onVerified
//   {type: 'send', peerId, bytes}                      one data-channel message
//   {type: 'deliver', loadId, bytes, stats}            hand verified bytes to the player
//   {type: 'fail', loadId, status}                     the HTTP fetch of a load failed
//   {type: 'disconnect', peerId, reason, ban}          close the peer (ban: for the session)
import { b64urlDecode, b64urlEncode } from './verify.js';
import { decode, encodeAbsent, encodeCancel, encodeHave, encodeRequest, MAX_HAVE_REFS, refKey } from './peer-protocol.js';
import { Peer } from './peer.js';
import { Metrics } from './metrics.js';

export const DEFAULTS = Object.freeze({
  /** A viewer looks for peers until it has targetPeers, and accepts newcomers up to maxPeers, so a full swarm still takes them in. */
  targetPeers: 6,
  maxPeers: 8,
  /**
   * Viewers of each neighbourhood (a viewer and its peers) that fetch a listed part over HTTP at
   * once: seederShare of it, at least one (1 of 4, 2 of 7), unless seedersPerObject fixes it.
   */
  seederShare: 0.25,
  seedersPerObject: null,
  uploadBytesPerSecond: 1_000_000,
  uploadBurstBytes: 256 * 1024,
  /** Stop sending into a channel above this; the glue sets bufferedAmountLowThreshold to lowWaterBytes. */
  highWaterBytes: 1024 * 1024,
  lowWaterBytes: 256 * 1024,
  maxUploadsPerPeer: 8,
  maxDownloadsPerPeer: 4,
  /**
   * A peer that has not started a requested object (no OBJECT header) this long after the request
   * stalled: the request moves on, and stallsBeforeReplace such stalls replace the peer for the
   * session. A transfer that started and then sends nothing for peerStallMs is cancelled without
   * a strike (loss on a reliable channel looks like that).
   */
  peerFirstByteMs: 1000,
  peerStallMs: 1000,
  stallsBeforeReplace: 2,
  /** The HTTP fetch starts this long (at least) before the playhead needs the object. */
  minHttpLeadMs: 250,
  initialHttpMs: 300,
  /** Newly listed parts within this many of the newest are prefetched from peers. */
  prefetchParts: 6,
  /** Objects older than the newest msn minus this many segments are forgotten. */
  windowSegments: 4,
  maxHeldBytes: 64 * 1024 * 1024,
});

/** FNV-1a: the rendezvous hash that picks each object's seeders among a neighbourhood. */
function hash32(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function withBytes(attestation) {
  return { ...attestation, sha256Bytes: b64urlDecode(attestation.sha256), sigBytes: b64urlDecode(attestation.sig) };
}

export class Scheduler {
  constructor(selfId, options = {}) {
    this.selfId = selfId;
    this.config = { ...DEFAULTS, ...options };
    this.actions = [];
    this.peers = new Map();
    this.banned = new Set();
    /** key -> {ref, url, attestation, bytes, timing, source, shareable, waiters:Set, httpFetchId, peerId, fallbackAtMs}. */
    this.objects = new Map();
    this.loads = new Map();
    this.fetches = new Map();
    this.verifies = new Map();
    this.newestMsn = new Map();
    this.heldBytes = 0;
    this.nextId = 1;
    this.httpMs = this.config.initialHttpMs;
    this.peerWakeMs = Infinity;
    this.pendingHave = [];
    this.metrics = new Metrics();
  }

  poll() {
    return this.actions.shift() ?? null;
  }

  nextDeadlineMs() {
    let deadline = this.peerWakeMs;
    for (const load of this.loads.values()) {
      const entry = this.objects.get(load.key);
      if (entry && entry.httpFetchId === 0) deadline = Math.min(deadline, entry.fallbackAtMs);
    }
    for (const peer of this.peers.values()) deadline = Math.min(deadline, peer.stallDeadlineMs());
    return deadline;
  }

  /** How many more peers this viewer looks for (the rendezvous announces while this is > 0). */
  wantsPeers() {
    return Math.max(0, this.config.targetPeers - this.peers.size);
  }

  /** Whether this viewer takes one more peer (it answers announcements while this holds). */
  acceptsPeers() {
    return this.peers.size < this.config.maxPeers;
  }

  isBanned(peerId) {
    return this.banned.has(peerId);
  }

  addPeer(nowMs, peerId) {
    if (this.banned.has(peerId) || this.peers.size >= this.config.maxPeers || this.peers.has(peerId)) {
      this.actions.push({ type: 'disconnect', peerId, reason: this.banned.has(peerId) ? 'banned' : 'full', ban: false });
      return false;
    }
    const peer = new Peer(peerId, this.config, nowMs);
    this.peers.set(peerId, peer);
    const held = [...this.objects.values()].filter((e) => e.shareable).slice(-MAX_HAVE_REFS);
    if (held.length > 0) this.send(peer, encodeHave(held.map((e) => e.ref)));
    this.metrics.peers = this.peers.size;
    return true;
  }

  removePeer(nowMs, peerId) {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    this.peers.delete(peerId);
    this.metrics.peers = this.peers.size;
    for (const download of peer.downloads.values()) this.peerTransferLost(nowMs, download.key);
  }

  /** The glue saw bufferedamountlow (or polled bufferedAmount) on this peer's channel. */
  onBufferedAmount(nowMs, peerId, bufferedBytes) {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    peer.bufferedBytes = bufferedBytes;
    this.pumpUploads(nowMs);
  }

  /**
   * The objects of a media playlist, oldest first: [{ref, url, attestation}] (attestation from
   * verify.js's parsePlaylist, or null when the playlist carries none: such objects go over HTTP).
   */
  onPlaylist(nowMs, rendition, listing) {
    let newest = this.newestMsn.get(rendition) ?? -1;
    for (const item of listing) newest = Math.max(newest, item.ref.msn);
    this.newestMsn.set(rendition, newest);
    const fresh = [];
    for (const item of listing) {
      const key = refKey(item.ref);
      let entry = this.objects.get(key);
      if (!entry) {
        entry = this.entry(item.ref, item.url);
        fresh.push(entry);
      }
      if (item.attestation && !entry.attestation) entry.attestation = withBytes(item.attestation);
      entry.url = item.url;
    }
    this.evict(rendition, newest);
    const prefetch = fresh.filter((e) => e.ref.kind === 'part' && e.attestation).slice(-this.config.prefetchParts);
    for (const entry of prefetch) {
      entry.seeded = true;
      // Alone, a viewer has nobody to seed for: the player's own loads go over HTTP.
      if (this.peers.size > 0 && this.isSeeder(entry.key)) this.startHttp(nowMs, entry);
      else this.tryPeer(nowMs, entry);
    }
    this.flush(nowMs);
  }

  /** hls.js asks for an object: {ref, url}; needByMs is when the playhead reaches it. */
  load(nowMs, loadId, ref, url, needByMs) {
    const key = refKey(ref);
    const entry = this.objects.get(key) ?? this.entry(ref, url);
    entry.url ??= url;
    this.loads.set(loadId, { key, needByMs, startMs: nowMs });
    entry.waiters.add(loadId);
    entry.fallbackAtMs = Math.min(entry.fallbackAtMs, needByMs - this.httpLeadMs());
    if (entry.bytes) this.deliver(nowMs, entry);
    else if (entry.httpFetchId === 0) {
      if (entry.peerId === null) this.tryPeer(nowMs, entry);
      // Waiting for a peer only pays for an object some seeder fetched when it was listed.
      const awaitPeer = entry.peerId !== null || (entry.seeded && this.peers.size > 0);
      if (!entry.attestation || !awaitPeer || nowMs >= entry.fallbackAtMs) this.startHttp(nowMs, entry);
    }
    this.flush(nowMs);
  }

  abort(nowMs, loadId) {
    const load = this.loads.get(loadId);
    if (!load) return;
    this.loads.delete(loadId);
    this.objects.get(load.key)?.waiters.delete(loadId);
    this.metrics.aborted++;
  }

  onHttpResult(nowMs, fetchId, bytes, timing) {
    const key = this.fetches.get(fetchId);
    this.fetches.delete(fetchId);
    const entry = this.objects.get(key);
    if (!entry || entry.httpFetchId !== fetchId) return;
    if (!bytes) {
      entry.httpFetchId = 0;
      for (const loadId of entry.waiters) {
        this.loads.delete(loadId);
        this.actions.push({ type: 'fail', loadId, status: timing?.status ?? 0 });
      }
      entry.waiters.clear();
      this.metrics.httpErrors++;
      return;
    }
    const durationMs = Math.max(1, timing.endMs - timing.startMs);
    this.httpMs = 0.8 * this.httpMs + 0.2 * durationMs;
    this.metrics.bytes.http += bytes.length;
    if (entry.bytes) return;
    this.hold(entry, bytes, 'http', timing);
    // Bytes from the origin reach the player as they are; they are shared only once verified.
    if (entry.attestation) this.verify(entry, bytes, entry.attestation, null);
    this.deliver(nowMs, entry);
    this.flush(nowMs);
  }

  onVerified(nowMs, verifyId, ok) {
    const v = this.verifies.get(verifyId);
    this.verifies.delete(verifyId);
    const entry = v && this.objects.get(v.key);
    if (!entry) return;
    if (v.peerId === null) {
      entry.shareable = ok;
      if (ok) this.pendingHave.push(entry.ref);
      else this.metrics.httpUnverified++;
    } else if (ok) {
      if (entry.bytes) return;
      this.metrics.bytes.peer += v.bytes.length;
      this.hold(entry, v.bytes, 'peer', v.timing);
      entry.shareable = true;
      this.pendingHave.push(entry.ref);
      this.deliver(nowMs, entry);
    } else {
      this.metrics.verifyFailures++;
      this.ban(nowMs, v.peerId, 'object failed verification');
      if (entry.peerId === v.peerId) this.peerTransferLost(nowMs, entry.key);
    }
    this.flush(nowMs);
  }

  onPeerMessage(nowMs, peerId, bytes) {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    const message = decode(bytes);
    switch (message.type) {
      case 'have':
        for (const ref of message.refs) {
          const key = refKey(ref);
          peer.announce(key);
          const entry = this.objects.get(key);
          if (entry?.attestation && !entry.bytes && entry.httpFetchId === 0 && entry.peerId === null && this.wanted(entry)) {
            this.request(nowMs, peer, entry);
          }
        }
        break;
      case 'request':
        this.serve(peer, message.requestId, message.ref);
        break;
      case 'cancel':
        peer.cancelUpload(message.requestId);
        break;
      case 'absent':
        this.downloadFailed(nowMs, peer, message.requestId, false);
        break;
      case 'object':
        this.objectHeader(nowMs, peer, message);
        break;
      case 'chunk':
        this.chunk(nowMs, peer, message);
        break;
      default:
        this.metrics.protocolErrors++;
        this.ban(nowMs, peerId, `invalid message: ${message.reason}`);
    }
    this.flush(nowMs);
  }

  onTimer(nowMs) {
    for (const load of [...this.loads.values()]) {
      const entry = this.objects.get(load.key);
      if (entry && !entry.bytes && entry.httpFetchId === 0 && nowMs >= entry.fallbackAtMs) {
        if (entry.peerId !== null) this.metrics.fallbacks++;
        this.startHttp(nowMs, entry);
      }
    }
    for (const peer of [...this.peers.values()]) {
      for (const [requestId, download] of peer.downloads) {
        if (nowMs < peer.stallDeadlineOf(download)) continue;
        this.metrics.stalls++;
        this.downloadFailed(nowMs, peer, requestId, download.firstMs < 0);
      }
    }
    this.flush(nowMs);
  }

  // --- decisions ---------------------------------------------------------------------------

  entry(ref, url) {
    const entry = {
      key: refKey(ref), ref, url, attestation: null, bytes: null, timing: null, source: null,
      shareable: false, seeded: false, waiters: new Set(), httpFetchId: 0, peerId: null, requestId: 0, fallbackAtMs: Infinity,
    };
    this.objects.set(entry.key, entry);
    return entry;
  }

  httpLeadMs() {
    return Math.max(this.config.minHttpLeadMs, 2 * this.httpMs);
  }

  /** Whether this viewer is among the object's seeders in its neighbourhood (rendezvous hashing). */
  isSeeder(key) {
    const mine = hash32(`${this.selfId}|${key}`);
    let better = 0;
    for (const id of this.peers.keys()) if (hash32(`${id}|${key}`) > mine) better++;
    return better < this.seeders();
  }

  seeders() {
    return this.config.seedersPerObject ?? Math.max(1, Math.round((this.peers.size + 1) * this.config.seederShare));
  }

  /** A listed part near the edge, or an object the player is waiting for. */
  wanted(entry) {
    if (entry.waiters.size > 0) return true;
    const newest = this.newestMsn.get(entry.ref.rendition) ?? -1;
    return entry.ref.kind === 'part' && entry.attestation !== null && entry.ref.msn >= newest - 1;
  }

  tryPeer(nowMs, entry) {
    // Only an object our own playlist attests may come from a peer: it is what the peer's copy is checked against.
    if (!entry.attestation) return;
    let best = null;
    for (const peer of this.peers.values()) {
      if (!peer.has(entry.key) || peer.downloads.size >= this.config.maxDownloadsPerPeer) continue;
      if (!best || peer.downloads.size < best.downloads.size) best = peer;
    }
    if (best) this.request(nowMs, best, entry);
  }

  request(nowMs, peer, entry) {
    const requestId = this.nextId++;
    peer.startDownload(requestId, entry.ref, nowMs);
    entry.peerId = peer.id;
    entry.requestId = requestId;
    this.send(peer, encodeRequest(requestId, entry.ref));
  }

  startHttp(nowMs, entry) {
    if (entry.peerId !== null) this.cancelPeerTransfer(entry);
    const fetchId = this.nextId++;
    entry.httpFetchId = fetchId;
    this.fetches.set(fetchId, entry.key);
    this.actions.push({ type: 'http', fetchId, ref: entry.ref, url: entry.url });
  }

  cancelPeerTransfer(entry) {
    const peer = this.peers.get(entry.peerId);
    if (peer) {
      peer.downloads.delete(entry.requestId);
      this.send(peer, encodeCancel(entry.requestId));
    }
    entry.peerId = null;
  }

  /** The peer transfer of key ended without the object (absent, stalled, peer gone or banned). */
  peerTransferLost(nowMs, key) {
    const entry = this.objects.get(key);
    if (!entry || entry.bytes) return;
    entry.peerId = null;
    if (entry.httpFetchId !== 0) return;
    this.tryPeer(nowMs, entry);
    if (entry.peerId === null && entry.waiters.size > 0) {
      this.metrics.fallbacks++;
      this.startHttp(nowMs, entry);
    }
  }

  /** A download ended without the object; stalled: the peer never started it (a strike). */
  downloadFailed(nowMs, peer, requestId, stalled) {
    const download = peer.downloads.get(requestId);
    if (!download) return;
    peer.downloads.delete(requestId);
    peer.announced.delete(download.key);
    if (stalled || download.firstMs >= 0) this.send(peer, encodeCancel(requestId));
    this.peerTransferLost(nowMs, download.key);
    if (stalled && ++peer.stalls >= this.config.stallsBeforeReplace) {
      // Not a ban (it sent nothing bad), but it is not taken back this session: a peer that
      // announces everything and sends nothing must not cost a fallback on every reconnect.
      this.banned.add(peer.id);
      this.metrics.replaced++;
      this.drop(nowMs, peer.id, 'stalled', false);
    }
  }

  serve(peer, requestId, ref) {
    const entry = this.objects.get(refKey(ref));
    if (!entry || !entry.shareable || peer.uploads.length >= this.config.maxUploadsPerPeer) {
      this.send(peer, encodeAbsent(requestId));
      return;
    }
    peer.uploads.push({ requestId, ref: entry.ref, bytes: entry.bytes, attestation: entry.attestation, offset: 0, headerSent: false });
  }

  objectHeader(nowMs, peer, message) {
    const download = peer.downloads.get(message.requestId);
    if (!download) {
      // The header of a transfer we cancelled may still be in flight; anything else is a violation.
      if (message.requestId >= this.nextId) this.ban(nowMs, peer.id, 'unrequested object');
      return;
    }
    const expected = this.objects.get(download.key)?.attestation;
    if (download.buffer || download.key !== refKey(message.ref)) {
      this.ban(nowMs, peer.id, 'object header does not match the request');
      return;
    }
    if (expected && (expected.length !== message.length || b64urlEncode(message.sha256) !== expected.sha256)) {
      // Not the object our playlist lists. For an init segment an honest peer may hold an earlier
      // generation (same name, validly signed): skip it. A part or segment has one content only.
      if (message.ref.kind === 'init') this.downloadFailed(nowMs, peer, message.requestId, false);
      else this.ban(nowMs, peer.id, 'object header does not match the playlist');
      return;
    }
    download.length = message.length;
    download.sha256 = message.sha256;
    download.sig = message.sig;
    download.buffer = new Uint8Array(message.length);
    download.firstMs = nowMs;
    download.lastByteMs = nowMs;
  }

  chunk(nowMs, peer, message) {
    const download = peer.downloads.get(message.requestId);
    if (!download) {
      // A chunk of a transfer we cancelled may still be in flight; anything else is a violation.
      if (message.requestId >= this.nextId) this.ban(nowMs, peer.id, 'unrequested chunk');
      return;
    }
    if (!download.buffer || message.offset !== download.received || download.received + message.payload.length > download.length) {
      this.ban(nowMs, peer.id, 'chunk out of bounds');
      return;
    }
    download.buffer.set(message.payload, download.received);
    download.received += message.payload.length;
    download.lastByteMs = nowMs;
    if (download.received < download.length) return;
    peer.downloads.delete(message.requestId);
    const entry = this.objects.get(download.key);
    if (!entry || entry.bytes) return;
    const { kind, msn, part } = download.ref;
    const attestation = {
      kind, msn, part, length: download.length, sha256: b64urlEncode(download.sha256), sig: b64urlEncode(download.sig),
    };
    const timing = { startMs: download.startMs, firstMs: download.firstMs, endMs: nowMs };
    this.verify(entry, download.buffer, withBytes(attestation), peer.id, timing);
  }

  verify(entry, bytes, attestation, peerId, timing = null) {
    const verifyId = this.nextId++;
    this.verifies.set(verifyId, { key: entry.key, peerId, bytes, timing });
    if (peerId !== null && !entry.attestation) entry.attestation = attestation;
    const { sha256Bytes, sigBytes, ...plain } = attestation;
    this.actions.push({ type: 'verify', verifyId, ref: entry.ref, bytes, attestation: plain });
  }

  hold(entry, bytes, source, timing) {
    entry.bytes = bytes;
    entry.source = source;
    entry.timing = timing;
    entry.peerId = null;
    this.heldBytes += bytes.length;
    for (const e of this.objects.values()) {
      if (this.heldBytes <= this.config.maxHeldBytes) break;
      if (e.bytes && e.waiters.size === 0 && e !== entry) this.release(e);
    }
  }

  release(entry) {
    if (entry.bytes) this.heldBytes -= entry.bytes.length;
    entry.bytes = null;
    entry.shareable = false;
  }

  deliver(nowMs, entry) {
    for (const loadId of entry.waiters) {
      const load = this.loads.get(loadId);
      this.loads.delete(loadId);
      this.metrics.delivered(entry.source, nowMs <= load.needByMs);
      this.actions.push({ type: 'deliver', loadId, bytes: entry.bytes, stats: { source: entry.source, ...entry.timing } });
    }
    entry.waiters.clear();
  }

  evict(rendition, newestMsn) {
    const oldest = newestMsn - this.config.windowSegments;
    for (const [key, entry] of this.objects) {
      if (entry.ref.rendition !== rendition || entry.ref.kind === 'init' || entry.ref.msn >= oldest) continue;
      if (entry.waiters.size > 0) continue;
      if (entry.peerId !== null) this.cancelPeerTransfer(entry);
      this.release(entry);
      this.objects.delete(key);
    }
  }

  ban(nowMs, peerId, reason) {
    this.banned.add(peerId);
    this.metrics.bans++;
    this.drop(nowMs, peerId, reason, true);
  }

  drop(nowMs, peerId, reason, ban) {
    if (!this.peers.has(peerId)) return;
    this.actions.push({ type: 'disconnect', peerId, reason, ban });
    this.removePeer(nowMs, peerId);
  }

  send(peer, bytes) {
    peer.bufferedBytes += bytes.length;
    this.actions.push({ type: 'send', peerId: peer.id, bytes });
  }

  /** After every input: announce what became shareable, then move uploads into the channels. */
  flush(nowMs) {
    if (this.pendingHave.length > 0) {
      for (let i = 0; i < this.pendingHave.length; i += MAX_HAVE_REFS) {
        const message = encodeHave(this.pendingHave.slice(i, i + MAX_HAVE_REFS));
        for (const peer of this.peers.values()) this.send(peer, message);
      }
      this.pendingHave = [];
    }
    this.pumpUploads(nowMs);
  }

  pumpUploads(nowMs) {
    this.peerWakeMs = Infinity;
    for (const peer of this.peers.values()) {
      const before = peer.uploadedBytes;
      const wakeMs = peer.pump(nowMs, (bytes) => this.actions.push({ type: 'send', peerId: peer.id, bytes }));
      this.metrics.bytes.uploaded += peer.uploadedBytes - before;
      this.peerWakeMs = Math.min(this.peerWakeMs, wakeMs);
    }
  }
}
