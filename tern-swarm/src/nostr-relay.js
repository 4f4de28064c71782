// The Nostr relay connection of the rendezvous: one WebSocket, one subscription, events signed with
// the viewer's per-session key (nostr-tools' schnorr signatures; the relay verifies them). Thin:
// what to publish and what an event means is rendezvous.js's business.

/**
 * nostrTools: {generateSecretKey, getPublicKey, finalizeEvent} (the nostr-tools browser bundle's
 * window.NostrTools, or its npm module). One key per page session, never stored.
 */
export function sessionSigner(nostrTools) {
  const secret = nostrTools.generateSecretKey();
  return {
    pubkey: nostrTools.getPublicKey(secret),
    sign: (template, createdAtSeconds) => nostrTools.finalizeEvent({ ...template, created_at: createdAtSeconds }, secret),
  };
}

export class RelayClient {
  /**
   * url: the relay (the swarm endpoint's "nostr"); filters: the REQ filters; onEvent(event) for
   * each event of the subscription; io: {WebSocket, setTimeout, log}.
   */
  constructor(url, filters, onEvent, io) {
    this.url = url;
    this.filters = filters;
    this.onEvent = onEvent;
    this.io = io;
    this.subscriptionId = `swarm-${Math.random().toString(36).slice(2, 10)}`;
    this.outbox = [];
    this.backoffMs = 1000;
    this.closed = false;
    this.open();
  }

  publish(event) {
    const frame = JSON.stringify(['EVENT', event]);
    if (this.socket?.readyState === 1) this.socket.send(frame);
    else if (this.outbox.length < 32) this.outbox.push(frame);
  }

  close() {
    this.closed = true;
    this.socket?.close();
  }

  open() {
    const socket = new this.io.WebSocket(this.url);
    this.socket = socket;
    socket.onopen = () => {
      this.backoffMs = 1000;
      socket.send(JSON.stringify(['REQ', this.subscriptionId, ...this.filters]));
      for (const frame of this.outbox.splice(0)) socket.send(frame);
    };
    socket.onmessage = (message) => {
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (Array.isArray(frame) && frame[0] === 'EVENT' && frame[1] === this.subscriptionId) this.onEvent(frame[2]);
      else if (Array.isArray(frame) && (frame[0] === 'NOTICE' || (frame[0] === 'OK' && frame[2] === false))) {
        this.io.log?.(`relay: ${JSON.stringify(frame)}`);
      }
    };
    socket.onclose = () => {
      if (this.closed) return;
      // Reconnect with a bounded backoff; the rendezvous announces again on its own heartbeat.
      this.io.setTimeout(() => this.open(), this.backoffMs);
      this.backoffMs = Math.min(30_000, this.backoffMs * 2);
    };
  }
}
