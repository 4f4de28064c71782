// The swarm's counters, as scripts read them (window.ternSwarm.metrics; docs/swarm-protocol.md,
// "Metrics"). Plain fields, so a page can poll them without a call.

export class Metrics {
  constructor() {
    /** Bytes received over HTTP and from peers (verified), and sent to peers. */
    this.bytes = { http: 0, peer: 0, uploaded: 0 };
    /** Loads delivered to the player, by source, and how many before the playhead needed them. */
    this.loads = { http: 0, peer: 0, inTime: 0, late: 0 };
    this.peers = 0;
    this.bans = 0;
    /** Peer transfers abandoned for HTTP (deadline, stall, peer gone) while the player waited. */
    this.fallbacks = 0;
    this.stalls = 0;
    /** Peers dropped after repeated stalls (not taken back this session, not counted as bans). */
    this.replaced = 0;
    this.verifyFailures = 0;
    this.protocolErrors = 0;
    this.httpErrors = 0;
    /** Objects fetched from the origin whose bytes did not match their attestation (never shared). */
    this.httpUnverified = 0;
    this.aborted = 0;
  }

  /** Share of received bytes that came from peers, 0..1. */
  get offload() {
    const total = this.bytes.http + this.bytes.peer;
    return total === 0 ? 0 : this.bytes.peer / total;
  }

  /** Share of loads delivered before the playhead needed them, 0..1. */
  get inTimeShare() {
    const total = this.loads.inTime + this.loads.late;
    return total === 0 ? 1 : this.loads.inTime / total;
  }

  delivered(source, inTime) {
    this.loads[source]++;
    if (inTime) this.loads.inTime++;
    else this.loads.late++;
  }
}
