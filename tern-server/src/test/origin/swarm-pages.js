#!/usr/bin/env node
// Opens several watch pages of a swarm stream of the real origin in one headless Chromium (driven
// by playwright-core), lets them play, and prints what each page's swarm reported. What the pages
// are measured by is the way tern-swarm/test/browser measures its stand-in origin's pages (stalls,
// steady offload once every page plays), injected here as an init script because the origin's
// watch page is the product's own.
//
// usage: node swarm-pages.js '<json>'
//   json: {"url": "http://127.0.0.1:8080/live/cam1/?relay=udp", "pages": 4, "playSeconds": 20,
//          "warmSeconds": 4, "timeoutMs": 90000, "corrupt": [4]}
//   "corrupt": indices of pages that flip a bit in every CHUNK they send on a data channel.
// prints one JSON line: {"ok": true, "pages": [...], "steady": {peer, http, offload},
//   "total": {...}, "loadPerCore": n}
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CHROMIUM = process.env.TERN_CHROMIUM || '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
  // Host candidates as plain loopback addresses, not mDNS names nothing here resolves.
  '--disable-features=WebRtcHideLocalIpsWithMdns'];
const POLL_MS = 500;

// Runs in every page before its own scripts: counts stalls, lists the routes of its connections,
// and (with #corrupt in the URL) corrupts the CHUNK messages it sends.
function instrument() {
  if (location.hash === '#corrupt') {
    const send = RTCDataChannel.prototype.send;
    RTCDataChannel.prototype.send = function (data) {
      const bytes = data instanceof ArrayBuffer || ArrayBuffer.isView(data) ? new Uint8Array(data.buffer ?? data, data.byteOffset ?? 0, data.byteLength) : null;
      if (bytes && bytes[0] === 6 && bytes.length > 9) {
        const copy = bytes.slice();
        copy[copy.length - 1] ^= 1;
        return send.call(this, copy);
      }
      return send.call(this, data);
    };
  }
  window.connections = [];
  const NativeConnection = RTCPeerConnection;
  window.RTCPeerConnection = class extends NativeConnection {
    constructor(...args) {
      super(...args);
      window.connections.push(this);
    }
  };
  /** The local candidate of each connected pair: "relay/udp", "host/udp", ... */
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
  // Every buffer hls.js appends, by SHA-256 (base64url, as attestations carry it), so that the
  // script can check each against the objects the origin attested.
  window.appended = [];
  const append = SourceBuffer.prototype.appendBuffer;
  SourceBuffer.prototype.appendBuffer = function (data) {
    const bytes = new Uint8Array(data.buffer ?? data, data.byteOffset ?? 0, data.byteLength).slice();
    crypto.subtle.digest('SHA-256', bytes).then((d) => window.appended.push(
      btoa(String.fromCharCode(...new Uint8Array(d))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')));
    return append.call(this, data);
  };
  // A stall is a 'waiting' after the first 2 s of playback, other than one a seek causes (as
  // tern-swarm/test/browser/live-origin.js counts them); waits before that are startupWaits.
  window.stalls = 0;
  window.startupWaits = 0;
  window.events = [];
  document.addEventListener('DOMContentLoaded', () => {
    const video = document.querySelector('video');
    let playedFrom = null;
    video.addEventListener('playing', () => (playedFrom ??= video.currentTime));
    video.addEventListener('seeking', () => window.events.push('seek@' + video.currentTime.toFixed(2)));
    video.addEventListener('waiting', () => {
      if (playedFrom === null || video.seeking) return;
      const startup = video.currentTime < playedFrom + 2;
      if (startup) window.startupWaits++;
      else window.stalls++;
      window.events.push((startup ? 'startup-wait@' : 'stall@') + video.currentTime.toFixed(2) + '/' + ((Date.now() / 1000) % 1000).toFixed(1));
    });
  });
}

async function read(page) {
  return page.evaluate(async () => {
    const video = document.querySelector('video');
    const s = window.ternSwarm;
    const m = s?.metrics;
    return {
      swarm: window.ternWatch?.swarm, reason: s?.reason, currentTime: video?.currentTime ?? 0,
      stalls: window.stalls, startupWaits: window.startupWaits, events: window.events,
      peers: m?.peers ?? 0, bytes: { peer: 0, http: 0, ...m?.bytes }, loads: m?.loads, bans: m?.bans ?? 0,
      fallbacks: m?.fallbacks ?? 0, verifyFailures: m?.verifyFailures ?? 0, inTimeShare: m?.inTimeShare,
      appended: window.appended, rendezvous: s?.rendezvous, routes: await window.routes(), connections: window.connections.map((pc) => pc.connectionState), errors: window.ternWatch?.errors,
    };
  });
}

/**
 * Polls the stream's media playlists (from the multivariant playlist at url) and keeps the SHA-256
 * of every object the origin attested in them (#EXT-X-TERN-ATTEST), until stop() is called.
 */
function collectAttested(url) {
  const attested = new Set();
  let running = true;
  const streamUrl = new URL('index.m3u8', new URL(url.split('?')[0]));
  let media = [];
  const poll = async () => {
    for (const playlist of media) {
      try {
        const text = await (await fetch(playlist)).text();
        for (const m of text.matchAll(/^#EXT-X-TERN-ATTEST:.*SHA256="([^"]+)"/gm)) attested.add(m[1]);
      } catch {
        // the next poll lists the same window again
      }
    }
  };
  const loop = (async () => {
    const master = await (await fetch(streamUrl)).text();
    media = [...master.matchAll(/URI="([^"]+\.m3u8)"|^([^#\s][^\s]*\.m3u8)$/gm)].map((m) => new URL(m[1] ?? m[2], streamUrl));
    while (running) {
      await poll();
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  // One last poll after the pages were read: a part they appended since the previous poll is
  // still in the playlist's window, though it was listed after that poll.
  return { attested, stop: async () => { running = false; await loop; await poll(); } };
}

function offloadOf(states) {
  const peer = states.reduce((n, s) => n + s.bytes.peer, 0);
  const http = states.reduce((n, s) => n + s.bytes.http, 0);
  return { peer, http, offload: peer / Math.max(1, peer + http) };
}

async function main() {
  const opts = JSON.parse(process.argv[2] || '{}');
  if (!opts.url) throw new Error('missing option url');
  const count = opts.pages || 4;
  const corrupt = new Set(opts.corrupt || []);
  const playSeconds = opts.playSeconds || 20;
  const warmSeconds = opts.warmSeconds || 4;
  const timeoutMs = opts.timeoutMs || 90000;
  const { chromium } = require('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 60000,
  });
  try {
    await context.addInitScript(instrument);
    const origin = collectAttested(opts.url);
    const pages = [];
    const logs = [];
    for (let i = 0; i < count; i++) {
      const page = i === 0 ? context.pages()[0] || (await context.newPage()) : await context.newPage();
      page.on('pageerror', (error) => logs.length < 200 && logs.push(`page ${i}: ${error.message}`));
      page.on('console', (m) => logs.length < 200 && /tern-swarm/.test(m.text()) && logs.push(`page ${i}: ${m.text()}`));
      await page.goto(opts.url + (corrupt.has(i) ? '#corrupt' : ''), { timeout: 30000 });
      pages.push(page);
    }
    let states = [];
    let warm = null;
    let maxLoadPerCore = 0;
    /** Every route each page's connections took while connected, over the whole run. */
    const routesSeen = pages.map(() => new Set());
    for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      states = await Promise.all(pages.map(read));
      states.forEach((s, i) => s.routes.forEach((r) => routesSeen[i].add(r)));
      maxLoadPerCore = Math.max(maxLoadPerCore, os.loadavg()[0] / os.cpus().length);
      if (!warm && states.every((s) => s.currentTime > warmSeconds)) warm = offloadOf(states);
      if (warm && states.every((s) => s.currentTime > warmSeconds + playSeconds)) break;
    }
    await origin.stop();
    states.forEach((s, i) => {
      s.routesSeen = [...routesSeen[i]];
      // Appended buffers that are not byte for byte an object the origin attested.
      s.foreign = s.appended.filter((hash) => !origin.attested.has(hash)).length;
      s.appended = s.appended.length;
    });
    const total = offloadOf(states);
    const steady = warm && offloadOf(states);
    if (steady) {
      steady.peer -= warm.peer;
      steady.http -= warm.http;
      steady.offload = steady.peer / Math.max(1, steady.peer + steady.http);
    }
    const out = { ok: true, pages: states, total, steady, loadPerCore: os.loadavg()[0] / os.cpus().length, maxLoadPerCore, logs };
    process.stdout.write(JSON.stringify(out) + '\n');
    return 0;
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code), (err) => {
  process.stdout.write(JSON.stringify({ ok: false, error: String(err && err.stack || err) }) + '\n');
  process.exit(1);
});
