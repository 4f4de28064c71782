// Rendezvous on a Nostr relay, sans-IO (docs/swarm-protocol.md, "Rendezvous"). Viewers of one stream
// instance meet through two ephemeral kinds scoped by an `x` tag: an arriving viewer announces, and
// viewers already in the swarm with room answer by sending it an offer, addressed with a `p` tag.
// A viewer announces on arrival and on a jittered heartbeat only while it wants peers.
//
// Inputs take nowMs; outputs are queued and drained with poll():
//   {type: 'publish', template: {kind, tags, content}}  sign (per-session key) and send; the glue sets created_at
//   {type: 'connect', peerId}                        create a connection as the offerer (then localSignal)
//   {type: 'signal', peerId, signal}                 apply a remote offer, answer or candidate
//   {type: 'abandon', peerId}                        a negotiation timed out or was refused: close it

export const KIND_ANNOUNCE = 25490;
export const KIND_SIGNAL = 25491;
export const PROTOCOL_VERSION = '1';

export const RENDEZVOUS_DEFAULTS = Object.freeze({
  heartbeatMs: 20_000,
  /** The heartbeat varies by ± this share, so that viewers who arrived together spread out. */
  heartbeatJitter: 0.3,
  /** Answers to an announcement wait up to this long, so that not every viewer answers at once. */
  answerJitterMs: 500,
  /** Negotiations in progress at once; offers beyond this are ignored (an offer flood costs nothing). */
  maxPending: 4,
  /**
   * Offers taken from others at most this many per offerWindowMs: a flood of offers with SDP that
   * fails at once would otherwise free its slot and open a new RTCPeerConnection per offer.
   */
  maxOffersPerWindow: 8,
  offerWindowMs: 10_000,
  negotiationTimeoutMs: 10_000,
  /** Signals accepted per peer per negotiation (offer/answer plus trickled candidates). */
  maxSignalsPerPeer: 40,
  maxSignalBytes: 16 * 1024,
  maxAnnouncesPerHeartbeat: 16,
});

const SIGNAL_TYPES = ['offer', 'answer', 'candidate'];

/** The `x` tag value that scopes a swarm to one stream instance. */
export function swarmTopic(stream, instance) {
  return `tern-swarm:${stream}:${instance}`;
}

/** The relay subscription (REQ filters) a viewer holds. */
export function subscriptionFilters(topic, selfPubkey) {
  return [
    { kinds: [KIND_ANNOUNCE], '#x': [topic] },
    { kinds: [KIND_SIGNAL], '#x': [topic], '#p': [selfPubkey] },
  ];
}

function tagValue(event, name) {
  const tag = Array.isArray(event.tags) ? event.tags.find((t) => Array.isArray(t) && t[0] === name) : undefined;
  return typeof tag?.[1] === 'string' ? tag[1] : null;
}

export class Rendezvous {
  /**
   * swarm answers wantsPeers(), acceptsPeers(), isBanned(id) and peers.has(id) (the Scheduler does);
   * random() in [0, 1) is injected.
   */
  constructor({ selfPubkey, topic, swarm, random, options = {} }) {
    this.self = selfPubkey;
    this.topic = topic;
    this.swarm = swarm;
    this.random = random;
    this.config = { ...RENDEZVOUS_DEFAULTS, ...options };
    this.actions = [];
    /** peerId -> {initiator, startedMs, signals}. */
    this.pending = new Map();
    /** Answers to announcements waiting for their jitter: peerId -> atMs. */
    this.answers = new Map();
    this.nextAnnounceMs = Infinity;
    /** When the offers taken within the last offerWindowMs were taken (at most maxOffersPerWindow). */
    this.offersTakenMs = [];
    this.metrics = { announces: 0, offersSent: 0, offersIgnored: 0, signalsIgnored: 0, abandoned: 0 };
  }

  poll() {
    return this.actions.shift() ?? null;
  }

  nextDeadlineMs() {
    let deadline = this.nextAnnounceMs;
    for (const atMs of this.answers.values()) deadline = Math.min(deadline, atMs);
    for (const p of this.pending.values()) deadline = Math.min(deadline, p.startedMs + this.config.negotiationTimeoutMs);
    return deadline;
  }

  /** Joining: announce at once. */
  start(nowMs) {
    this.announce(nowMs);
  }

  onTimer(nowMs) {
    for (const [peerId, p] of this.pending) {
      if (nowMs - p.startedMs >= this.config.negotiationTimeoutMs) this.abandon(peerId);
    }
    for (const [peerId, atMs] of this.answers) {
      if (atMs > nowMs) continue;
      this.answers.delete(peerId);
      if (this.canTake(peerId)) {
        this.pending.set(peerId, { initiator: true, startedMs: nowMs, signals: 0 });
        this.metrics.offersSent++;
        this.actions.push({ type: 'connect', peerId });
      }
    }
    if (nowMs >= this.nextAnnounceMs) this.announce(nowMs);
  }

  /** The swarm lost a peer (or never got one): start announcing again if it wants more. */
  onPeersChanged(nowMs) {
    if (this.nextAnnounceMs === Infinity && this.swarm.wantsPeers() > 0) this.announce(nowMs);
  }

  /** A negotiation ended with an open data channel (the glue then adds the peer to the scheduler). */
  connected(peerId) {
    this.pending.delete(peerId);
  }

  /** The glue's connection produced a local offer, answer or ICE candidate for peerId. */
  localSignal(nowMs, peerId, signal) {
    this.actions.push({
      type: 'publish',
      template: {
        kind: KIND_SIGNAL,
        tags: [['x', this.topic], ['p', peerId], ['v', PROTOCOL_VERSION]],
        content: JSON.stringify(signal),
      },
    });
  }

  /** An event from the relay's subscription (the relay checked its id and signature). */
  onEvent(nowMs, event) {
    if (!event || typeof event.pubkey !== 'string' || event.pubkey === this.self) return;
    if (tagValue(event, 'x') !== this.topic || tagValue(event, 'v') !== PROTOCOL_VERSION) return;
    const peerId = event.pubkey;
    if (event.kind === KIND_ANNOUNCE) this.onAnnounce(nowMs, peerId);
    else if (event.kind === KIND_SIGNAL && tagValue(event, 'p') === this.self) this.onSignal(nowMs, peerId, event.content);
  }

  // ---------------------------------------------------------------------------------------

  canTake(peerId) {
    return (
      !this.swarm.isBanned(peerId) &&
      !this.swarm.peers.has(peerId) &&
      !this.pending.has(peerId) &&
      this.pending.size < this.config.maxPending &&
      this.swarm.peers.size + this.pending.size < this.swarm.config.maxPeers
    );
  }

  onAnnounce(nowMs, peerId) {
    if (this.answers.has(peerId) || this.answers.size >= this.config.maxAnnouncesPerHeartbeat || !this.canTake(peerId)) {
      return;
    }
    this.answers.set(peerId, nowMs + Math.floor(this.random() * this.config.answerJitterMs));
  }

  onSignal(nowMs, peerId, content) {
    if (typeof content !== 'string' || content.length > this.config.maxSignalBytes) {
      this.metrics.signalsIgnored++;
      return;
    }
    let signal;
    try {
      signal = JSON.parse(content);
    } catch {
      this.metrics.signalsIgnored++;
      return;
    }
    if (!signal || !SIGNAL_TYPES.includes(signal.type)) {
      this.metrics.signalsIgnored++;
      return;
    }
    let p = this.pending.get(peerId);
    if (signal.type === 'offer') {
      if (p?.initiator) {
        // Glare: both offered. The lower key keeps its offer; the higher one answers instead.
        if (this.self < peerId) return;
        this.abandon(peerId);
        p = undefined;
      }
      while (this.offersTakenMs.length > 0 && nowMs - this.offersTakenMs[0] >= this.config.offerWindowMs) this.offersTakenMs.shift();
      if (p || !this.canTake(peerId) || this.offersTakenMs.length >= this.config.maxOffersPerWindow) {
        this.metrics.offersIgnored++;
        return;
      }
      this.offersTakenMs.push(nowMs);
      this.answers.delete(peerId);
      p = { initiator: false, startedMs: nowMs, signals: 0 };
      this.pending.set(peerId, p);
    }
    if (!p) {
      this.metrics.signalsIgnored++;
      return;
    }
    if (++p.signals > this.config.maxSignalsPerPeer || (signal.type === 'answer' && !p.initiator)) {
      this.metrics.signalsIgnored++;
      return;
    }
    this.actions.push({ type: 'signal', peerId, signal });
  }

  abandon(peerId) {
    if (!this.pending.delete(peerId)) return;
    this.metrics.abandoned++;
    this.actions.push({ type: 'abandon', peerId });
  }

  announce(nowMs) {
    if (this.swarm.wantsPeers() <= this.pending.size) {
      // Enough peers (or enough on the way): stop announcing until one leaves.
      this.nextAnnounceMs = this.swarm.wantsPeers() > 0 ? nowMs + this.config.heartbeatMs : Infinity;
      return;
    }
    this.metrics.announces++;
    this.actions.push({
      type: 'publish',
      template: { kind: KIND_ANNOUNCE, tags: [['x', this.topic], ['v', PROTOCOL_VERSION]], content: '' },
    });
    const jitter = 1 + this.config.heartbeatJitter * (2 * this.random() - 1);
    this.nextAnnounceMs = nowMs + Math.round(this.config.heartbeatMs * jitter);
  }
}
