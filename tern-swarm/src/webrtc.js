// The data channels to peers, over RTCPeerConnection: thin glue that turns the rendezvous' signals
// into connections and the channels' events into scheduler inputs. The runtime owns the clock;
// every callback here goes through runtime.turn(fn).

/** The channel label: the data-channel protocol's version (docs/swarm-protocol.md). */
export const CHANNEL_LABEL = 'tern-swarm-v1';

/**
 * The ICE servers a page may use: all of them, or only the one transport named ('udp': turn: over
 * UDP, 'tcp': turn: over TCP, 'tls': turns:). Throws naming the option when none is left.
 */
export function iceServersFor(iceServers, transport) {
  if (!transport) return iceServers;
  const keep = (url) => {
    if (transport === 'tls') return url.startsWith('turns:');
    if (!url.startsWith('turn:')) return false;
    const tcp = /[?&]transport=tcp\b/i.test(url);
    return transport === 'tcp' ? tcp : !tcp;
  };
  if (!['udp', 'tcp', 'tls'].includes(transport)) throw new Error(`transport must be udp, tcp or tls: ${transport}`);
  const servers = iceServers
    .map((s) => ({ ...s, urls: [].concat(s.urls).filter(keep) }))
    .filter((s) => s.urls.length > 0);
  if (servers.length === 0) throw new Error(`transport=${transport}: the origin lists no ICE server for it`);
  return servers;
}

export class Connections {
  /**
   * runtime: {turn(fn), scheduler, rendezvous}; rtc: {RTCPeerConnection, iceServers,
   * iceTransportPolicy, lowWaterBytes}.
   */
  constructor(runtime, rtc) {
    this.runtime = runtime;
    this.rtc = rtc;
    /** peerId -> {pc, channel, remoteSet, candidates: []}. */
    this.peers = new Map();
  }

  /** Offerer side: the rendezvous chose to connect to peerId. */
  async connect(peerId) {
    const peer = this.create(peerId);
    try {
      await peer.pc.setLocalDescription(await peer.pc.createOffer());
      this.signal(peerId, { type: 'offer', sdp: peer.pc.localDescription.sdp });
    } catch (error) {
      this.fail(peerId, error);
    }
  }

  /** A remote offer, answer or candidate for peerId. */
  async apply(peerId, signal) {
    let peer = this.peers.get(peerId);
    try {
      if (signal.type === 'offer') {
        peer ??= this.create(peerId);
        await peer.pc.setRemoteDescription({ type: 'offer', sdp: String(signal.sdp) });
        await this.remoteSet(peer);
        await peer.pc.setLocalDescription(await peer.pc.createAnswer());
        this.signal(peerId, { type: 'answer', sdp: peer.pc.localDescription.sdp });
      } else if (signal.type === 'answer' && peer) {
        await peer.pc.setRemoteDescription({ type: 'answer', sdp: String(signal.sdp) });
        await this.remoteSet(peer);
      } else if (signal.type === 'candidate' && peer) {
        if (peer.remoteSet) await peer.pc.addIceCandidate(signal.candidate);
        else if (peer.candidates.length < 64) peer.candidates.push(signal.candidate);
      }
    } catch (error) {
      this.fail(peerId, error);
    }
  }

  send(peerId, bytes) {
    const channel = this.peers.get(peerId)?.channel;
    if (!channel || channel.readyState !== 'open') return;
    try {
      channel.send(bytes);
    } catch (error) {
      // The send queue is full or the channel died: treat the peer as gone.
      this.fail(peerId, error);
    }
  }

  close(peerId) {
    const peer = this.peers.get(peerId);
    if (!peer) return;
    this.peers.delete(peerId);
    peer.channel.onclose = null;
    // Chromium counts RTCPeerConnections until they are collected (at most 500 per page): close at once.
    peer.channel.close();
    peer.pc.close();
  }

  closeAll() {
    for (const peerId of [...this.peers.keys()]) this.close(peerId);
  }

  // ---------------------------------------------------------------------------------------

  create(peerId) {
    const { RTCPeerConnection, iceServers, iceTransportPolicy, lowWaterBytes } = this.rtc;
    const pc = new RTCPeerConnection({ iceServers, iceTransportPolicy });
    // Negotiated on both sides with a fixed id: no in-band open handshake, one round trip less.
    const channel = pc.createDataChannel(CHANNEL_LABEL, { negotiated: true, id: 0, ordered: true });
    channel.binaryType = 'arraybuffer';
    channel.bufferedAmountLowThreshold = lowWaterBytes;
    const peer = { pc, channel, remoteSet: false, candidates: [] };
    this.peers.set(peerId, peer);
    const { runtime } = this;
    pc.onicecandidate = (event) => {
      if (event.candidate) this.signal(peerId, { type: 'candidate', candidate: event.candidate.toJSON() });
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState === 'failed') this.fail(peerId, new Error('ICE failed'));
    };
    channel.onopen = () =>
      runtime.turn((nowMs) => {
        runtime.rendezvous.connected(peerId);
        if (!runtime.scheduler.addPeer(nowMs, peerId)) this.close(peerId);
      });
    channel.onmessage = (event) => {
      if (!(event.data instanceof ArrayBuffer)) return this.fail(peerId, new Error('text message'));
      runtime.turn((nowMs) => runtime.scheduler.onPeerMessage(nowMs, peerId, new Uint8Array(event.data)));
    };
    channel.onbufferedamountlow = () =>
      runtime.turn((nowMs) => runtime.scheduler.onBufferedAmount(nowMs, peerId, channel.bufferedAmount));
    channel.onclose = () => this.fail(peerId, null);
    return peer;
  }

  async remoteSet(peer) {
    peer.remoteSet = true;
    for (const candidate of peer.candidates.splice(0)) await peer.pc.addIceCandidate(candidate);
  }

  signal(peerId, signal) {
    this.runtime.turn((nowMs) => this.runtime.rendezvous.localSignal(nowMs, peerId, signal));
  }

  /** The connection to peerId is gone (closed, failed, or refused a send). */
  fail(peerId, error) {
    if (!this.peers.has(peerId)) return;
    this.close(peerId);
    if (error) this.runtime.log?.(`peer ${peerId.slice(0, 8)}: ${error.message ?? error}`);
    this.runtime.turn((nowMs) => {
      this.runtime.scheduler.removePeer(nowMs, peerId);
      this.runtime.rendezvous.abandon(peerId);
      this.runtime.rendezvous.onPeersChanged(nowMs);
    });
  }
}
