// One connected peer as the scheduler sees it: what it announced, what we are sending it (chunked,
// rate-limited, under backpressure) and what it is sending us (reassembled within bounds). Pure
// state: the scheduler passes the time in and collects the messages to send.
import { encodeChunk, encodeObject, MAX_CHUNK_BYTES, refKey } from './peer-protocol.js';

/** At most this many announced objects are remembered per peer; older announcements are dropped. */
export const MAX_ANNOUNCED = 1024;

export class Peer {
  constructor(id, config, nowMs) {
    this.id = id;
    this.config = config;
    this.connectedMs = nowMs;
    /** key -> true, insertion-ordered, bounded by MAX_ANNOUNCED. */
    this.announced = new Map();
    /** Objects we are sending: {requestId, ref, bytes, attestation, offset, headerSent}. */
    this.uploads = [];
    /** Bytes queued in the channel, as last reported by the glue plus what we sent since. */
    this.bufferedBytes = 0;
    this.tokens = config.uploadBurstBytes;
    this.tokensAtMs = nowMs;
    /** requestId -> {key, ref, startMs, firstMs, lastByteMs, length, sha256, sig, buffer, received}. */
    this.downloads = new Map();
    this.stalls = 0;
    this.uploadedBytes = 0;
  }

  announce(key) {
    this.announced.delete(key);
    this.announced.set(key, true);
    if (this.announced.size > MAX_ANNOUNCED) this.announced.delete(this.announced.keys().next().value);
  }

  has(key) {
    return this.announced.has(key);
  }

  refill(nowMs) {
    const elapsedMs = Math.max(0, nowMs - this.tokensAtMs);
    this.tokens = Math.min(this.config.uploadBurstBytes, this.tokens + (elapsedMs * this.config.uploadBytesPerSecond) / 1000);
    this.tokensAtMs = nowMs;
  }

  /**
   * Moves upload messages into send(bytes) while the channel is below its high-water mark and the
   * rate allows. Returns the time at which more tokens will be available, or Infinity.
   */
  pump(nowMs, send) {
    this.refill(nowMs);
    while (this.uploads.length > 0 && this.bufferedBytes < this.config.highWaterBytes) {
      const upload = this.uploads[0];
      let message;
      if (!upload.headerSent) {
        const a = upload.attestation;
        message = encodeObject(upload.requestId, upload.ref, upload.bytes.length, a.sha256Bytes, a.sigBytes);
      } else {
        const end = Math.min(upload.bytes.length, upload.offset + MAX_CHUNK_BYTES);
        message = encodeChunk(upload.requestId, upload.offset, upload.bytes.subarray(upload.offset, end));
      }
      if (this.tokens < message.length) {
        return nowMs + Math.ceil(((message.length - this.tokens) * 1000) / this.config.uploadBytesPerSecond);
      }
      this.tokens -= message.length;
      this.bufferedBytes += message.length;
      this.uploadedBytes += message.length;
      if (!upload.headerSent) upload.headerSent = true;
      else upload.offset += message.length - 9;
      if (upload.headerSent && upload.offset >= upload.bytes.length) this.uploads.shift();
      send(message);
    }
    return Infinity;
  }

  cancelUpload(requestId) {
    this.uploads = this.uploads.filter((u) => u.requestId !== requestId);
  }

  /** The download in progress for key, if any. */
  downloadOf(key) {
    for (const d of this.downloads.values()) if (d.key === key) return d;
    return null;
  }

  startDownload(requestId, ref, nowMs) {
    const download = { key: refKey(ref), ref, startMs: nowMs, firstMs: -1, lastByteMs: nowMs, buffer: null, received: 0 };
    this.downloads.set(requestId, download);
    return download;
  }

  /** When a download counts as stalled: not started peerFirstByteMs after the request, or silent peerStallMs mid-transfer. */
  stallDeadlineOf(download) {
    return download.firstMs < 0
      ? download.startMs + this.config.peerFirstByteMs
      : download.lastByteMs + this.config.peerStallMs;
  }

  /** The earliest time a download of this peer counts as stalled. */
  stallDeadlineMs() {
    let deadline = Infinity;
    for (const d of this.downloads.values()) deadline = Math.min(deadline, this.stallDeadlineOf(d));
    return deadline;
  }
}
