// The engine loop of one page: it owns the scheduler and the rendezvous (both sans-IO), reads the
// clock once per turn, feeds the input, performs every queued action, and arms one timer at the
// earliest deadline. All I/O (fetch, WebCrypto, data channels, the relay) happens here or in the
// thin modules it drives, and every callback comes back in through turn().
import { Scheduler } from './scheduler.js';
import { Rendezvous, subscriptionFilters, swarmTopic } from './rendezvous.js';
import { Connections, iceServersFor } from './webrtc.js';
import { RelayClient, sessionSigner } from './nostr-relay.js';
import { endorsedSessionKeys, verifyObject } from './verify.js';
import { parseListing } from './playlist.js';

const MAX_ACTIONS_PER_TURN = 10_000;
const HTTP_TIMEOUT_MS = 20_000;

export class SwarmRuntime {
  /**
   * endpoint: the JSON of GET /api/v1/swarm/<stream>; options: {relayOnly, transport, scheduler:
   * {...Scheduler options}, rendezvous: {...}, media}; io: {now, wallSeconds, setTimeout,
   * clearTimeout, fetch, random, RTCPeerConnection, WebSocket, nostrTools, log}.
   */
  constructor(endpoint, options, io) {
    this.endpoint = endpoint;
    this.options = options;
    this.io = io;
    this.log = io.log;
    this.signer = sessionSigner(io.nostrTools);
    this.scheduler = new Scheduler(this.signer.pubkey, options.scheduler);
    this.topic = swarmTopic(endpoint.stream, endpoint.instance);
    this.rendezvous = new Rendezvous({
      selfPubkey: this.signer.pubkey,
      topic: this.topic,
      swarm: this.scheduler,
      random: io.random,
      options: options.rendezvous,
    });
    this.connections = new Connections(this, {
      RTCPeerConnection: io.RTCPeerConnection,
      iceServers: iceServersFor(endpoint.iceServers ?? [], options.transport),
      iceTransportPolicy: options.relayOnly ? 'relay' : 'all',
      lowWaterBytes: this.scheduler.config.lowWaterBytes,
    });
    this.sessionKeys = new Map();
    this.knownSessions = new Set();
    this.loads = new Map();
    this.nextLoadId = 1;
    this.timer = null;
    this.timerAtMs = Infinity;
  }

  async start() {
    await this.addSessions(this.endpoint.sessions ?? []);
    if (this.sessionKeys.size === 0) throw new Error('the origin lists no session key its origin key endorses');
    this.relay = new RelayClient(
      this.endpoint.nostr,
      subscriptionFilters(this.topic, this.signer.pubkey),
      (event) => this.turn((nowMs) => this.rendezvous.onEvent(nowMs, event)),
      { WebSocket: this.io.WebSocket, setTimeout: this.io.setTimeout, log: this.log },
    );
    this.turn((nowMs) => this.rendezvous.start(nowMs));
  }

  stop() {
    this.io.clearTimeout(this.timer);
    this.relay?.close();
    this.connections.closeAll();
  }

  /** One turn of the loop: input at the current time, then every action, then one timer. */
  turn(input) {
    const nowMs = this.io.now();
    input(nowMs);
    for (let i = 0; i < MAX_ACTIONS_PER_TURN; i++) {
      const action = this.scheduler.poll() ?? this.rendezvous.poll();
      if (!action) break;
      this.perform(nowMs, action);
    }
    const deadline = Math.min(this.scheduler.nextDeadlineMs(), this.rendezvous.nextDeadlineMs());
    if (deadline !== this.timerAtMs) {
      this.io.clearTimeout(this.timer);
      this.timerAtMs = deadline;
      this.timer =
        deadline === Infinity
          ? null
          : this.io.setTimeout(() => {
              this.timerAtMs = Infinity;
              this.turn((now) => {
                this.scheduler.onTimer(now);
                this.rendezvous.onTimer(now);
              });
            }, Math.max(0, deadline - nowMs));
    }
  }

  perform(nowMs, action) {
    switch (action.type) {
      case 'http':
        this.httpFetch(action.fetchId, action.url);
        break;
      case 'verify':
        this.verify(action);
        break;
      case 'send':
        this.connections.send(action.peerId, action.bytes);
        break;
      case 'deliver':
      case 'fail': {
        const done = this.loads.get(action.loadId);
        this.loads.delete(action.loadId);
        done?.(action);
        break;
      }
      case 'disconnect':
        this.connections.close(action.peerId);
        this.rendezvous.onPeersChanged(nowMs);
        break;
      case 'publish':
        this.relay.publish(this.signer.sign(action.template, this.io.wallSeconds()));
        break;
      case 'connect':
        this.connections.connect(action.peerId);
        break;
      case 'signal':
        this.connections.apply(action.peerId, action.signal);
        break;
      case 'abandon':
        this.connections.close(action.peerId);
        break;
      default:
        throw new Error(`unknown action ${action.type}`);
    }
  }

  now() {
    return this.io.now();
  }

  /** An object outside the swarm (a byte range, a playlist without attestations): plain HTTP, real timings. */
  async fetchDirect(url, context, done) {
    const startMs = this.io.now();
    const headers = (context.rangeEnd ?? 0) > 0 ? { Range: `bytes=${context.rangeStart}-${context.rangeEnd - 1}` } : {};
    try {
      const response = await this.io.fetch(url, { headers, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
      const firstMs = this.io.now();
      if (!response.ok) return done({ type: 'fail', status: response.status });
      const bytes = new Uint8Array(await response.arrayBuffer());
      this.scheduler.metrics.bytes.http += bytes.length;
      done({ type: 'deliver', bytes, stats: { source: 'http', startMs, firstMs, endMs: this.io.now() } });
    } catch (error) {
      this.log?.(`GET ${url}: ${error.message}`);
      done({ type: 'fail', status: 0 });
    }
  }

  /** The loader's request: done({type: 'deliver', bytes, stats} | {type: 'fail', status}). Returns the load id. */
  load(ref, url, needByMs, done) {
    const loadId = this.nextLoadId++;
    this.loads.set(loadId, done);
    this.turn((nowMs) => this.scheduler.load(nowMs, loadId, ref, url, needByMs));
    return loadId;
  }

  abort(loadId) {
    if (!this.loads.delete(loadId)) return;
    this.turn((nowMs) => this.scheduler.abort(nowMs, loadId));
  }

  /** A media playlist hls.js loaded (the pLoader tap). */
  onPlaylist(url, text) {
    // A multivariant playlist (the origin's /live/NAME/index.m3u8) lists renditions, no objects.
    if (text.includes('#EXT-X-STREAM-INF:')) return;
    // The origin serves an instance's playlists under /live/NAME/INSTANCE/. A new publish is a new
    // instance whose objects this page's swarm (scoped to the old one) must not take: HTTP only.
    if (!new URL(url, 'http://x/').pathname.split('/').includes(this.endpoint.instance)) {
      if (!this.warnedInstance) this.log?.(`playlist ${url} is not of instance ${this.endpoint.instance}: swarm off for it`);
      this.warnedInstance = true;
      return;
    }
    const { rendition, sessions, listing } = parseListing(text, url);
    if (sessions.some((s) => !this.knownSessions.has(s.key))) this.addSessions(sessions);
    if (listing.length > 0) this.turn((nowMs) => this.scheduler.onPlaylist(nowMs, rendition, listing));
  }

  async addSessions(sessions) {
    const fresh = sessions.filter((s) => !this.knownSessions.has(s.key));
    for (const s of fresh) this.knownSessions.add(s.key);
    const { keys, rejected } = await endorsedSessionKeys(
      this.endpoint.originKey,
      fresh,
      this.endpoint.stream,
      this.endpoint.instance,
      this.io.wallSeconds(),
    );
    for (const [key, cryptoKey] of keys) this.sessionKeys.set(key, cryptoKey);
    if (rejected > 0) this.log?.(`${rejected} session key(s) without a valid endorsement ignored`);
  }

  async verify(action) {
    const context = { stream: this.endpoint.stream, instance: this.endpoint.instance, ...action.ref };
    let ok = false;
    try {
      ok = (await verifyObject(action.bytes, action.attestation, context, this.sessionKeys)).ok;
    } catch (error) {
      this.log?.(`verify: ${error.message}`);
    }
    this.turn((nowMs) => this.scheduler.onVerified(nowMs, action.verifyId, ok));
  }

  async httpFetch(fetchId, url) {
    const startMs = this.io.now();
    let result = null;
    let timing = { startMs, status: 0 };
    try {
      const response = await this.io.fetch(url, { signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
      const firstMs = this.io.now();
      timing = { startMs, firstMs, status: response.status };
      if (response.ok) {
        result = new Uint8Array(await response.arrayBuffer());
        timing.endMs = this.io.now();
      }
    } catch (error) {
      this.log?.(`GET ${url}: ${error.message}`);
    }
    this.turn((nowMs) => this.scheduler.onHttpResult(nowMs, fetchId, result, timing));
  }
}
