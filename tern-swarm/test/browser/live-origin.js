// A stand-in for Tern's origin, for the headless-Chromium test of the library: a live LL-HLS
// stream cut from ffmpeg's fMP4 output (each 0.5 s ffmpeg segment is one part, four make a
// segment), signed per docs/swarm-protocol.md, with blocking playlist reloads; the swarm endpoint;
// the library at /_tern/swarm/; and a Nostr relay on /nostr that checks signatures (nostr-tools).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import { verifyEvent } from 'nostr-tools/pure';
import { matchFilters } from 'nostr-tools/filter';
import { attestLine, makeOrigin } from '../origin-fixture.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const PARTS_PER_SEGMENT = 4;
const PART_MS = 500;

function concat(arrays) {
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

/**
 * mediaDir holds ffmpeg's init.mp4 and p0.m4s ... p<N-1>.m4s. Returns {url, close, served}.
 * The watch page takes ?relay=udp|tcp|tls (relay-only ICE over that TURN transport) and ?corrupt=1
 * (the page flips a bit in every CHUNK it sends, and seeds every part: a malicious viewer) and
 * ?swarm=0 (plain hls.js over HTTP, for comparison).
 */
export async function startLiveOrigin({ mediaDir, partCount, startParts = 8, iceServers = [] }) {
  const origin = await makeOrigin({ stream: 'cam', instance: 'i-1' });
  const init = new Uint8Array(readFileSync(join(mediaDir, 'init.mp4')));
  const objects = new Map([['video-init-0.mp4', init]]);
  const lines = new Map();
  lines.set('init', attestLine(await origin.attest('video', { kind: 'init', msn: -1, part: -1 }, init)));
  for (let i = 0; i < partCount; i++) {
    const bytes = new Uint8Array(readFileSync(join(mediaDir, `p${i}.m4s`)));
    const msn = Math.floor(i / PARTS_PER_SEGMENT);
    const part = i % PARTS_PER_SEGMENT;
    objects.set(`video-p${i}.m4s`, bytes);
    lines.set(`p${i}`, attestLine(await origin.attest('video', { kind: 'part', msn, part }, bytes)));
    if (part === PARTS_PER_SEGMENT - 1) {
      const segment = concat([...Array(PARTS_PER_SEGMENT).keys()].map((k) => objects.get(`video-p${i - 3 + k}.m4s`)));
      objects.set(`video-${msn}.m4s`, segment);
      lines.set(`s${msn}`, attestLine(await origin.attest('video', { kind: 'segment', msn, part: -1 }, segment)));
    }
  }
  const startedMs = Date.now() - startParts * PART_MS;
  const published = () => Math.min(partCount, Math.floor((Date.now() - startedMs) / PART_MS));
  const isPublished = (name) => {
    const part = /^video-p(\d+)\.m4s$/.exec(name);
    if (part) return Number(part[1]) < published();
    const segment = /^video-(\d+)\.m4s$/.exec(name);
    if (segment) return (Number(segment[1]) + 1) * PARTS_PER_SEGMENT <= published();
    return true;
  };

  const playlist = () => {
    const count = published();
    const s = origin.sessions[0];
    const out = [
      '#EXTM3U', '#EXT-X-VERSION:9', '#EXT-X-TARGETDURATION:2',
      '#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5',
      '#EXT-X-PART-INF:PART-TARGET=0.5',
      `#EXT-X-TERN-SWARM-SESSION:KEY="${s.key}",NOT-AFTER=${s.notAfter},ENDORSEMENT="${s.endorsement}"`,
    ];
    const firstMsn = Math.max(0, Math.floor(count / PARTS_PER_SEGMENT) - 4);
    out.push(`#EXT-X-MEDIA-SEQUENCE:${firstMsn}`, '#EXT-X-MAP:URI="video-init-0.mp4"', lines.get('init'));
    for (let msn = firstMsn; msn * PARTS_PER_SEGMENT < count; msn++) {
      for (let part = 0; part < PARTS_PER_SEGMENT; part++) {
        const i = msn * PARTS_PER_SEGMENT + part;
        if (i >= count) break;
        out.push(lines.get(`p${i}`), `#EXT-X-PART:DURATION=0.5,URI="video-p${i}.m4s",INDEPENDENT=YES`);
      }
      if ((msn + 1) * PARTS_PER_SEGMENT <= count) out.push('#EXTINF:2.0,', lines.get(`s${msn}`), `video-${msn}.m4s`);
    }
    if (count < partCount) out.push(`#EXT-X-PRELOAD-HINT:TYPE=PART,URI="video-p${count}.m4s"`);
    else out.push('#EXT-X-ENDLIST');
    return out.join('\n') + '\n';
  };

  const served = { mediaBytes: 0 };
  let port = 0;
  const page = (stream) => `<!doctype html><html><body><video muted autoplay playsinline></video>
<script src="/hls.js"></script>
<script type="module">
  import { attachSwarm } from '/_tern/swarm/index.js';
  const params = new URLSearchParams(location.search);
  if (params.get('corrupt')) {
    const send = RTCDataChannel.prototype.send;
    RTCDataChannel.prototype.send = function (data) {
      const bytes = new Uint8Array(data);
      if (bytes[0] === 6 && bytes.length > 9) {
        const copy = bytes.slice();
        copy[copy.length - 1] ^= 1;
        return send.call(this, copy);
      }
      return send.call(this, data);
    };
  }
  // Every connection the page makes, so the test can read which candidates carry its channels.
  window.connections = [];
  const NativeConnection = RTCPeerConnection;
  window.RTCPeerConnection = class extends NativeConnection {
    constructor(...args) {
      super(...args);
      window.connections.push(this);
    }
  };
  /** The local candidate of each connected pair: "relay/tls", "host/udp", ... */
  window.routes = async () => {
    const routes = [];
    for (const pc of window.connections) {
      if (pc.connectionState !== 'connected') continue;
      const stats = await pc.getStats();
      for (const pair of stats.values()) {
        if (pair.type !== 'candidate-pair' || pair.state !== 'succeeded' || !pair.nominated) continue;
        const local = stats.get(pair.localCandidateId);
        routes.push(local.candidateType + '/' + (local.relayProtocol ?? local.protocol));
      }
    }
    return routes;
  };
  // Every buffer hls.js appends, by SHA-256, so the test can check each against the origin's objects.
  window.appended = [];
  const append = SourceBuffer.prototype.appendBuffer;
  SourceBuffer.prototype.appendBuffer = function (data) {
    const bytes = new Uint8Array(data.buffer ?? data, data.byteOffset ?? 0, data.byteLength).slice();
    crypto.subtle.digest('SHA-256', bytes).then((d) => window.appended.push(btoa(String.fromCharCode(...new Uint8Array(d)))));
    return append.call(this, data);
  };
  const video = document.querySelector('video');
  // A stall is a 'waiting' after the first 2 s of playback, other than one a seek causes. Before
  // that, hls.js settles at the live edge (it seeks there, and a page alone fetches over HTTP):
  // those waits are counted apart, as startupWaits.
  window.stalls = 0;
  window.startupWaits = 0;
  window.events = [];
  let playedFrom = null;
  video.addEventListener('playing', () => (playedFrom ??= video.currentTime));
  video.addEventListener('seeking', () => window.events.push('seek@' + video.currentTime.toFixed(2)));
  video.addEventListener('waiting', () => {
    if (playedFrom === null || video.seeking) return;
    const startup = video.currentTime < playedFrom + 2;
    if (startup) window.startupWaits++;
    else window.stalls++;
    // Media time / wall-clock seconds (mod 1000), so that pages' events line up with each other.
    const at = video.currentTime.toFixed(2) + '/' + ((Date.now() / 1000) % 1000).toFixed(1);
    window.events.push((startup ? 'startup-wait@' : 'stall@') + at);
  });
  const relay = params.get('relay');
  const options = { stream: '${stream}', Hls, media: video, ...(relay ? { relayOnly: true, transport: relay } : {}) };
  // A corrupting page seeds every part, so that its peers do ask it for objects.
  if (params.get('corrupt')) options.scheduler = { seedersPerObject: 1000 };
  const config = { lowLatencyMode: true };
  const hls = new Hls(params.get('swarm') === '0' ? config : await attachSwarm(config, options));
  window.hls = hls;
  hls.loadSource('/live/cam/i-1/video.m3u8');
  hls.attachMedia(video);
</script></body></html>`;
  const send = (res, type, body) => res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x/');
    const path = url.pathname;
    if (path === '/watch') return send(res, 'text/html', page('cam'));
    if (path === '/hls.js') return send(res, 'text/javascript', readFileSync(join(ROOT, 'node_modules/hls.js/dist/hls.min.js')));
    if (path === '/_tern/swarm/nostr.bundle.js') {
      return send(res, 'text/javascript', readFileSync(join(ROOT, 'node_modules/nostr-tools/lib/nostr.bundle.js')));
    }
    if (path.startsWith('/_tern/swarm/') && /^[a-z-]+\.js$/.test(path.slice(13))) {
      return send(res, 'text/javascript', readFileSync(join(ROOT, 'src', path.slice(13))));
    }
    if (path === '/api/v1/swarm/cam') {
      return send(res, 'application/json', JSON.stringify({
        stream: 'cam', instance: 'i-1', originKey: origin.originKey, sessions: origin.sessions,
        nostr: `ws://127.0.0.1:${port}/nostr`, iceServers, credentialTtlSeconds: 3600,
      }));
    }
    if (path === '/live/cam/i-1/video.m3u8') {
      // Blocking reload: hold the request until the asked part is published (at most 3 s).
      const msn = Number(url.searchParams.get('_HLS_msn') ?? -1);
      const part = Number(url.searchParams.get('_HLS_part') ?? 0);
      const wanted = msn * PARTS_PER_SEGMENT + part;
      for (let waitedMs = 0; wanted >= published() && published() < partCount && waitedMs < 3000; waitedMs += 20) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return send(res, 'application/vnd.apple.mpegurl', playlist());
    }
    const name = path.slice('/live/cam/i-1/'.length);
    const bytes = path.startsWith('/live/cam/i-1/') && objects.get(name);
    if (!bytes || !isPublished(name)) return res.writeHead(404).end();
    served.mediaBytes += bytes.length;
    return send(res, name.endsWith('.mp4') ? 'video/mp4' : 'video/iso.segment', Buffer.from(bytes));
  });

  const relayStats = { events: 0, rejected: 0 };
  const sockets = new WebSocketServer({ server, path: '/nostr' });
  const subscriptions = new Set();
  sockets.on('connection', (socket) => {
    socket.on('message', (data) => {
      let frame;
      try {
        frame = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (frame[0] === 'REQ') subscriptions.add({ socket, id: frame[1], filters: frame.slice(2) });
      else if (frame[0] === 'EVENT') {
        const event = frame[1];
        const ok = verifyEvent(event);
        socket.send(JSON.stringify(['OK', event.id, ok, ok ? '' : 'invalid: bad signature']));
        if (!ok) return void relayStats.rejected++;
        relayStats.events++;
        for (const s of subscriptions) {
          if (s.socket.readyState === 1 && matchFilters(s.filters, event)) s.socket.send(JSON.stringify(['EVENT', s.id, event]));
        }
      }
    });
    socket.on('close', () => {
      for (const s of subscriptions) if (s.socket === socket) subscriptions.delete(s);
    });
  });

  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = server.address().port;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    relayStats,
    objects,
    close: () => new Promise((resolve) => {
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      server.close(resolve);
    }),
  };
}
