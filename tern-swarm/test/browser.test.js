// Headless Chromium (Debian's, through playwright-core) plays a live LL-HLS stream with the swarm:
// real hls.js 1.7.4, real RTCPeerConnections, nostr-tools' browser bundle, against the stand-in
// origin and relay of test/browser/live-origin.js. Chromium and ffmpeg are test peers: missing,
// the test is skipped, or fails with CI=true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { startLiveOrigin } from './browser/live-origin.js';
import { coturnAvailable, startCoturn } from './browser/coturn.js';

const CHROMIUM = process.env.TERN_CHROMIUM ?? '/usr/bin/chromium';
const PART_COUNT = 64;

function missingPeer() {
  if (!existsSync(CHROMIUM)) return `chromium (${CHROMIUM}; apt-get install chromium)`;
  if (!coturnAvailable()) return 'coturn (apt-get install coturn)';
  try {
    execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
  } catch {
    return 'ffmpeg (apt-get install ffmpeg)';
  }
  return null;
}

const missing = missingPeer();
if (missing && process.env.CI === 'true') throw new Error(`CI=true and a test peer is missing: ${missing}`);

/** 320x180 noise-like test video at a constant ~800 kbit/s, cut into 0.5 s fMP4 fragments. */
function makeMedia(dir) {
  execFileSync('ffmpeg', [
    '-loglevel', 'error', '-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=30', '-t', String(PART_COUNT / 2 + 1),
    '-c:v', 'libx264', '-preset', 'veryfast', '-g', '15', '-keyint_min', '15', '-sc_threshold', '0',
    '-b:v', '800k', '-maxrate', '800k', '-bufsize', '400k',
    '-f', 'hls', '-hls_time', '0.5', '-hls_segment_type', 'fmp4', '-hls_playlist_type', 'vod',
    '-hls_segment_filename', join(dir, 'p%d.m4s'), join(dir, 'video.m3u8'),
  ], { timeout: 120_000 });
}

/**
 * Opens one page per query string (staggered), waits until each has played playSeconds (bounded),
 * and returns each page's state, with `foreign`: how many buffers it appended that are not byte for
 * byte an object of the origin.
 */
async function playPages({ queries, iceServers = [], playSeconds = 12 }) {
  const mediaDir = mkdtempSync(join(tmpdir(), 'tern-swarm-media-'));
  const profile = mkdtempSync(join(tmpdir(), 'tern-swarm-chromium-'));
  makeMedia(mediaDir);
  const origin = await startLiveOrigin({ mediaDir, partCount: PART_COUNT, iceServers });
  const known = new Set([...origin.objects.values()].map((b) => createHash('sha256').update(b).digest('base64')));
  const { chromium } = await import('playwright-core');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    args: [
      '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
      // Host candidates as plain loopback addresses, not mDNS names nothing here resolves.
      '--disable-features=WebRtcHideLocalIpsWithMdns',
    ],
  });
  try {
    const pages = [];
    for (const [i, query] of queries.entries()) {
      const page = i === 0 ? context.pages()[0] ?? (await context.newPage()) : await context.newPage();
      page.on('pageerror', (error) => console.log(`page ${i}: ${error.message}`));
      await page.goto(`${origin.url}/watch${query}`);
      pages.push(page);
    }
    const read = (page) =>
      page.evaluate(() => {
        const video = document.querySelector('video');
        const s = window.ternSwarm;
        const m = s?.metrics;
        return {
          enabled: s?.enabled, reason: s?.reason, currentTime: video.currentTime, stalls: window.stalls,
          peers: m?.peers, bytes: m?.bytes, loads: m?.loads, bans: m?.bans, fallbacks: m?.fallbacks,
          verifyFailures: m?.verifyFailures, offload: m?.offload, appended: window.appended,
        };
      });
    let states = [];
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      states = await Promise.all(pages.map(read));
      if (states.every((s) => s.currentTime > playSeconds)) break;
    }
    for (const s of states) {
      s.foreign = s.appended.filter((hash) => !known.has(hash)).length;
      s.appended = s.appended.length;
    }
    for (const [i, s] of states.entries()) console.log(`page ${i}${queries[i]}: ${JSON.stringify(s)}`);
    console.log(`origin served ${origin.served.mediaBytes} media bytes; relay ${JSON.stringify(origin.relayStats)}`);
    assert.equal(origin.relayStats.rejected, 0);
    return states;
  } finally {
    await context.close();
    await origin.close();
    rmSync(mediaDir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}

function assertPlayedClean(s, playSeconds = 12) {
  assert.equal(s.enabled, true, s.reason);
  assert.ok(s.currentTime > playSeconds, `played ${s.currentTime} s`);
  assert.ok(s.appended > 0);
  assert.equal(s.foreign, 0, 'every appended buffer is an object of the origin');
}

test('three Chromium pages play the live stream, sharing verified parts over WebRTC', { skip: missing ?? false, timeout: 180_000 }, async () => {
  const states = await playPages({ queries: ['', '', ''] });
  for (const s of states) {
    assertPlayedClean(s);
    assert.equal(s.bans, 0);
    assert.ok(s.peers >= 1, 'connected to a peer');
  }
  assert.ok(states.reduce((n, s) => n + s.bytes.peer, 0) > 0, 'some parts came from peers');
});

test('relay-only through TURN over UDP: a page that corrupts its sends is banned, and the others play on clean', { skip: missing ?? false, timeout: 240_000 }, async () => {
  const turn = await startCoturn();
  try {
    const states = await playPages({ queries: ['?relay=udp', '?relay=udp', '?relay=udp', '?relay=udp&corrupt=1'], iceServers: turn.iceServers });
    const honest = states.slice(0, 3);
    for (const s of honest) assertPlayedClean(s);
    assert.ok(honest.reduce((n, s) => n + s.bytes.peer, 0) > 0, 'honest pages shared parts through the relay');
    assert.ok(honest.reduce((n, s) => n + s.bans, 0) >= 1, 'the corrupting page was banned');
    assert.ok(honest.every((s) => s.verifyFailures <= 1 && s.fallbacks <= 2));
  } finally {
    await turn.stop();
  }
});
