// Headless Chromium pages of the stand-in origin's watch page (test/browser/live-origin.js), for the
// browser test and the CPU comparison (test/browser/cpu.js): the test stream is made once with
// ffmpeg, each run gets its own origin, relay and Chromium profile.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { startLiveOrigin } from './live-origin.js';

export const CHROMIUM = process.env.TERN_CHROMIUM ?? '/usr/bin/chromium';
const PART_COUNT = 64;

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

let media = null;

/** The test stream's files, made once for every test of this file. */
function sharedMedia() {
  if (!media) {
    media = mkdtempSync(join(tmpdir(), 'tern-swarm-media-'));
    makeMedia(media);
  }
  return media;
}

/** Removes the test stream's files. */
export function removeMedia() {
  if (media) rmSync(media, { recursive: true, force: true });
  media = null;
}

/** The pid of the Chromium browser process that uses profile (its --user-data-dir), or 0. */
function browserPid(profile) {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (args.includes(`--user-data-dir=${profile}`) && !args.some((a) => a.startsWith('--type='))) return Number(name);
    } catch {
      // the process ended while we looked
    }
  }
  return 0;
}

/** CPU seconds (user + system) used so far by rootPid and every process below it. */
function treeCpuSeconds(rootPid) {
  const stats = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const fields = readFileSync(`/proc/${name}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
      stats.set(Number(name), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // the process ended while we looked
    }
  }
  const inTree = (pid) => {
    for (let p = pid, hops = 0; p > 1 && hops < 64; p = stats.get(p)?.ppid ?? 0, hops++) if (p === rootPid) return true;
    return false;
  };
  let ticks = 0;
  for (const [pid, stat] of stats) if (inTree(pid)) ticks += stat.ticks;
  return ticks / 100;
}

/** Received bytes by source summed over pages, and the share from peers. */
function offloadOf(states) {
  const peer = states.reduce((n, s) => n + s.bytes.peer, 0);
  const http = states.reduce((n, s) => n + s.bytes.http, 0);
  return { peer, http, offload: peer / Math.max(1, peer + http) };
}

/**
 * Opens one page per query string (staggered), waits until each has played playSeconds (bounded),
 * and returns each page's state, with `foreign`: how many buffers it appended that are not byte for
 * byte an object of the origin; and `steady`: the offload summed over pages from the moment every
 * page had played warmSeconds (every page had joined the swarm) to the end; and `cpu`: the CPU
 * seconds of the whole Chromium process tree and of each page's main thread (CDP's TaskDuration)
 * over that same window, with its wall-clock length; `latency`: the median and maximum of hls.js's
 * latency estimate over the pages and that window.
 */
export async function playPages({ queries, iceServers = [], playSeconds = 12, warmSeconds = 3, chromiumArgs = [] }) {
  const profile = mkdtempSync(join(tmpdir(), 'tern-swarm-chromium-'));
  const origin = await startLiveOrigin({ mediaDir: sharedMedia(), partCount: PART_COUNT, iceServers });
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
      ...chromiumArgs,
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
    const pid = browserPid(profile);
    const sessions = await Promise.all(pages.map((page) => context.newCDPSession(page)));
    await Promise.all(sessions.map((session) => session.send('Performance.enable')));
    const cpuNow = async () => ({
      wallMs: Date.now(),
      tree: pid ? treeCpuSeconds(pid) : NaN,
      tasks: await Promise.all(
        sessions.map(async (session) => (await session.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value),
      ),
    });
    let warmCpu = null;
    const read = (page) =>
      page.evaluate(async () => {
        const video = document.querySelector('video');
        const s = window.ternSwarm;
        const m = s?.metrics;
        return {
          enabled: s?.enabled, reason: s?.reason, currentTime: video.currentTime, latency: window.hls?.latency, stalls: window.stalls, startupWaits: window.startupWaits, events: window.events,
          peers: m?.peers, bytes: { ...m?.bytes }, loads: m?.loads, bans: m?.bans, fallbacks: m?.fallbacks,
          verifyFailures: m?.verifyFailures, offload: m?.offload, held: s?.held?.(), appended: window.appended, routes: await window.routes(),
        };
      });
    let states = [];
    let warm = null;
    /** hls.js's latency estimate (live edge to playhead, s) of every page, every poll after warm-up. */
    const latencies = [];
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      states = await Promise.all(pages.map(read));
      if (!warm && states.every((s) => s.currentTime > warmSeconds)) {
        warm = offloadOf(states);
        warmCpu = await cpuNow();
      }
      if (warm) latencies.push(...states.map((s) => s.latency).filter((l) => Number.isFinite(l)));
      if (states.every((s) => s.currentTime > playSeconds)) break;
    }
    for (const s of states) {
      s.foreign = s.appended.filter((hash) => !known.has(hash)).length;
      s.appended = s.appended.length;
    }
    for (const [i, s] of states.entries()) console.log(`page ${i}${queries[i]}: ${JSON.stringify(s)}`);
    const total = offloadOf(states);
    const steady = warm && offloadOf(states);
    if (steady) {
      steady.peer -= warm.peer;
      steady.http -= warm.http;
      steady.offload = steady.peer / Math.max(1, steady.peer + steady.http);
    }
    if (warmCpu) {
      const end = await cpuNow();
      states.cpu = {
        wallSeconds: (end.wallMs - warmCpu.wallMs) / 1000,
        treeSeconds: end.tree - warmCpu.tree,
        pageTaskSeconds: end.tasks.map((t, i) => t - warmCpu.tasks[i]),
      };
    }
    latencies.sort((a, b) => a - b);
    states.latency = latencies.length ? { median: latencies[latencies.length >> 1], max: latencies.at(-1) } : null;
    states.total = total;
    states.steady = steady;
    console.log(`all pages: ${JSON.stringify(total)}; after warm-up: ${JSON.stringify(steady)}; cpu ${JSON.stringify(states.cpu)}; latency ${JSON.stringify(states.latency)}`);
    console.log(`origin served ${origin.served.mediaBytes} media bytes; relay ${JSON.stringify(origin.relayStats)}`);
    assert.equal(origin.relayStats.rejected, 0);
    return states;
  } finally {
    await context.close();
    await origin.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

