// Headless Chromium (Debian's, through playwright-core) plays a live LL-HLS stream with the swarm:
// real hls.js 1.7.4, real RTCPeerConnections, nostr-tools' browser bundle, against the stand-in
// origin and relay of test/browser/live-origin.js. Chromium and ffmpeg are test peers: missing,
// the test is skipped, or fails with CI=true.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { coturnAvailable, startCoturn } from './browser/coturn.js';
import { CHROMIUM, playPages, removeMedia } from './browser/pages.js';

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

after(removeMedia);

function assertPlayedClean(s, playSeconds = 12) {
  assert.equal(s.enabled, true, s.reason);
  assert.ok(s.currentTime > playSeconds, `played ${s.currentTime} s`);
  assert.ok(s.appended > 0);
  assert.equal(s.foreign, 0, 'every appended buffer is an object of the origin');
}

/**
 * No stall and no late load. On a machine loaded past two runnable tasks per core (a developer's
 * machine running several builds), the pages' own CPU starves and hls.js stalls at a 1.5 s
 * hold-back (seen at 9 per core on 2 cores, with 0 or 1 late load), so there they are logged, not
 * asserted; CI runs this suite alone.
 */
function assertNoStall(s) {
  const loadPerCore = loadavg()[0] / cpus().length;
  if (loadPerCore > 2) {
    if (s.stalls > 0 || s.loads.late > 0) console.log(`not asserted at load ${loadPerCore.toFixed(1)} per core: ${s.stalls} stalls, ${s.loads.late} late`);
    return;
  }
  assert.equal(s.stalls, 0, `no stall once playing: ${s.events}`);
  assert.equal(s.loads.late, 0, 'every load delivered before the playhead needed it');
}

test('four Chromium pages play with no stall and take most bytes from each other', { skip: missing ?? false, timeout: 180_000 }, async () => {
  const states = await playPages({ queries: ['', '', '', ''] });
  for (const s of states) {
    assertPlayedClean(s);
    assertNoStall(s);
    assert.equal(s.bans, 0);
    assert.ok(s.peers >= 1, 'connected to a peer');
  }
  assert.ok(states.steady.offload > 0.5, `offload once all four pages play: ${states.steady.offload}`);
});

test('relay-only through TURN over UDP: a page that corrupts its sends is banned, and the others play on clean', { skip: missing ?? false, timeout: 240_000 }, async () => {
  const turn = await startCoturn();
  try {
    const states = await playPages({ queries: ['?relay=udp', '?relay=udp', '?relay=udp', '?relay=udp&corrupt=1'], iceServers: turn.iceServers });
    const honest = states.slice(0, 3);
    for (const s of states) assert.ok(s.routes.every((r) => r === 'relay/udp'), `routes ${s.routes}`);
    for (const s of honest) assertPlayedClean(s);
    assert.ok(honest.reduce((n, s) => n + s.bytes.peer, 0) > 0, 'honest pages shared parts through the relay');
    assert.ok(honest.reduce((n, s) => n + s.bans, 0) >= 1, 'the corrupting page was banned');
    assert.ok(honest.every((s) => s.verifyFailures <= 1 && s.fallbacks <= 2));
  } finally {
    await turn.stop();
  }
});

test('relay-only through TURN over TCP and over TLS: the pages play with no stall', { skip: missing ?? false, timeout: 240_000 }, async () => {
  const turn = await startCoturn({ tls: true });
  try {
    const states = await playPages({
      queries: ['?relay=tcp', '?relay=tls', '?relay=tcp', '?relay=tls'],
      iceServers: turn.iceServers,
      // coturn's certificate is self-signed.
      chromiumArgs: ['--ignore-certificate-errors'],
    });
    for (const [i, s] of states.entries()) {
      assertPlayedClean(s);
      assertNoStall(s);
      assert.equal(s.bans, 0);
      const transport = i % 2 === 0 ? 'tcp' : 'tls';
      assert.ok(s.routes.length > 0 && s.routes.every((r) => r === `relay/${transport}`), `routes ${s.routes}`);
    }
    assert.ok(states.total.peer > 0, 'parts went page to page through the relay over TCP and TLS');
  } finally {
    await turn.stop();
  }
});
