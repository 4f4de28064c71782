// In-memory stand-ins for what Node lacks: RTCPeerConnection with one negotiated data channel, and
// a WebSocket to a Nostr relay that checks signatures (nostr-tools) and fans events out by filter.
import { verifyEvent } from 'nostr-tools/pure';
import { matchFilters } from 'nostr-tools/filter';

export function fakeWebRtc({ corrupt = () => false } = {}) {
  const bySdp = new Map();
  let nextId = 1;
  class FakeChannel {
    constructor(pc) {
      this.pc = pc;
      this.readyState = 'connecting';
      this.bufferedAmount = 0;
      this.other = null;
    }
    send(bytes) {
      if (this.readyState !== 'open') throw new Error('not open');
      const copy = new Uint8Array(bytes).slice();
      if (corrupt(this.pc) && copy[0] === 6) copy[copy.length - 1] ^= 1;
      const other = this.other;
      setTimeout(() => other.readyState === 'open' && other.onmessage?.({ data: copy.buffer }), 1);
    }
    close() {
      if (this.readyState === 'closed') return;
      this.readyState = 'closed';
      const other = this.other;
      if (other && other.readyState !== 'closed') {
        other.readyState = 'closed';
        setTimeout(() => other.onclose?.(), 0);
      }
    }
  }
  class FakePeerConnection {
    constructor(config) {
      this.config = config;
      this.id = nextId++;
      this.connectionState = 'new';
    }
    createDataChannel() {
      this.channel = new FakeChannel(this);
      return this.channel;
    }
    async createOffer() {
      return { type: 'offer', sdp: `fake-offer-${this.id}` };
    }
    async createAnswer() {
      return { type: 'answer', sdp: `fake-answer-${this.id}` };
    }
    async setLocalDescription(description) {
      this.localDescription = description;
      bySdp.set(description.sdp, this);
      setTimeout(() => this.onicecandidate?.({ candidate: { toJSON: () => ({ candidate: `fake ${this.id}`, sdpMid: '0' }) } }), 0);
    }
    async setRemoteDescription(description) {
      const remote = bySdp.get(description.sdp);
      if (!remote) throw new Error('unknown sdp');
      this.remote = remote;
      if (description.type === 'answer') {
        this.channel.other = remote.channel;
        remote.channel.other = this.channel;
        for (const c of [this.channel, remote.channel]) {
          c.readyState = 'open';
          setTimeout(() => c.onopen?.(), 0);
        }
      }
    }
    async addIceCandidate() {}
    close() {
      this.channel?.close();
    }
  }
  return FakePeerConnection;
}

export function fakeRelay() {
  const subscriptions = new Set();
  const stats = { published: 0, rejected: 0 };
  class FakeWebSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.subs = new Map();
      setTimeout(() => {
        this.readyState = 1;
        this.onopen?.();
      }, 0);
    }
    send(text) {
      const frame = JSON.parse(text);
      if (frame[0] === 'REQ') {
        const sub = { socket: this, id: frame[1], filters: frame.slice(2) };
        subscriptions.add(sub);
      } else if (frame[0] === 'EVENT') {
        const event = frame[1];
        if (!verifyEvent(event)) {
          stats.rejected++;
          return;
        }
        stats.published++;
        for (const sub of subscriptions) {
          if (sub.socket.readyState === 1 && matchFilters(sub.filters, event)) {
            setTimeout(() => sub.socket.onmessage?.({ data: JSON.stringify(['EVENT', sub.id, event]) }), 1);
          }
        }
      }
    }
    close() {
      this.readyState = 3;
      for (const sub of subscriptions) if (sub.socket === this) subscriptions.delete(sub);
    }
  }
  return { WebSocket: FakeWebSocket, stats };
}
