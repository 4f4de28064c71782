// The browser glue (runtime, loader, webrtc, nostr-relay) in Node: a real HTTP origin serving
// signed parts, real WebCrypto verification and nostr-tools signatures, and in-memory stand-ins for
// RTCPeerConnection and the relay's WebSocket. Real timers, bounded waits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import * as nostrTools from 'nostr-tools/pure';
import { SwarmRuntime } from '../src/runtime.js';
import { createFragmentLoader } from '../src/loader.js';
import { renditionOf } from '../src/playlist.js';
import { attestLine, makeOrigin } from './origin-fixture.js';
import { fakeRelay, fakeWebRtc } from './fakes.js';
import { prng } from './prng.js';
import { KIND_SIGNAL, swarmTopic } from '../src/rendezvous.js';

async function startOrigin() {
  const origin = await makeOrigin({ stream: 'cam', instance: 'i-1' });
  const random = prng(3);
  const objects = new Map();
  const lines = ['#EXTM3U', '#EXT-X-TARGETDURATION:2', '#EXT-X-PART-INF:PART-TARGET=0.5'];
  const s = origin.sessions[0];
  lines.push(`#EXT-X-TERN-SWARM-SESSION:KEY="${s.key}",NOT-AFTER=${s.notAfter},ENDORSEMENT="${s.endorsement}"`);
  for (let msn = 0; msn < 2; msn++) {
    for (let part = 0; part < 4; part++) {
      const bytes = random.bytes(150_000);
      const name = `video-p${msn * 4 + part}.m4s`;
      objects.set(`/live/cam/i-1/${name}`, bytes);
      lines.push(attestLine(await origin.attest('video', { kind: 'part', msn, part }, bytes)));
      lines.push(`#EXT-X-PART:DURATION=0.5,URI="${name}"`);
    }
    lines.push('#EXTINF:2.0,', `video-${msn}.m4s`);
  }
  const playlist = lines.join('\n');
  const served = { bytes: 0 };
  const server = createServer((req, res) => {
    const bytes = objects.get(req.url);
    if (!bytes) return res.writeHead(404).end();
    served.bytes += bytes.length;
    // A little latency, so that transfer times are real and not zero.
    setTimeout(() => res.writeHead(200, { 'content-length': bytes.length }).end(Buffer.from(bytes)), 15);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  return { origin, objects, playlist, served, server, base, playlistUrl: `${base}/live/cam/i-1/video.m3u8` };
}

function runtimeFor(o, relay, RTCPeerConnection, options = {}) {
  const endpoint = {
    stream: 'cam', instance: 'i-1', originKey: o.origin.originKey, sessions: o.origin.sessions, nostr: 'ws://fake/nostr',
    iceServers: [{ urls: ['turn:127.0.0.1:3478?transport=udp', 'turn:127.0.0.1:3478?transport=tcp'], username: 'u', credential: 'c' }],
  };
  return new SwarmRuntime(endpoint, { scheduler: { seedersPerObject: 1 }, rendezvous: { answerJitterMs: 20 }, ...options }, {
    now: () => performance.now(),
    wallSeconds: () => Math.floor(Date.now() / 1000),
    setTimeout, clearTimeout, fetch, random: prng(options.seed ?? 1).next,
    RTCPeerConnection, WebSocket: relay.WebSocket, nostrTools,
  });
}

async function until(condition, what, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Loads one part through the fLoader as hls.js would; resolves {response, stats}. */
function loadPart(Loader, o, msn, part) {
  return new Promise((resolve, reject) => {
    const loader = new Loader({});
    const url = `${o.base}/live/cam/i-1/video-p${msn * 4 + part}.m4s`;
    const context = { frag: { sn: msn, baseurl: o.playlistUrl }, part: { index: part }, url, rangeStart: 0, rangeEnd: 0, responseType: 'arraybuffer' };
    loader.load(context, {}, {
      onSuccess: (response, stats) => resolve({ response, stats: structuredClone(stats) }),
      onError: (error) => reject(new Error(`load failed ${JSON.stringify(error)}`)),
      onTimeout: () => reject(new Error('timeout')),
    });
  });
}

test('two pages meet over the relay, share verified parts over their data channel, and report real timings', async () => {
  const o = await startOrigin();
  const relay = fakeRelay();
  const RTC = fakeWebRtc();
  const a = runtimeFor(o, relay, RTC, { seed: 1 });
  const b = runtimeFor(o, relay, RTC, { seed: 2 });
  try {
    await a.start();
    await b.start();
    await until(() => a.scheduler.peers.size === 1 && b.scheduler.peers.size === 1, 'the two pages to connect');
    assert.equal(relay.stats.rejected, 0);
    assert.equal(a.connections.rtc.iceServers[0].urls.length, 2);
    a.onPlaylist(o.playlistUrl, o.playlist);
    b.onPlaylist(o.playlistUrl, o.playlist);
    const loaders = [a, b].map((runtime) => createFragmentLoader({ runtime, renditionOf, media: () => null, startupBudgetMs: 3000 }));
    for (let msn = 0; msn < 2; msn++) {
      for (let part = 0; part < 4; part++) {
        for (const Loader of loaders) {
          const { response, stats } = await loadPart(Loader, o, msn, part);
          assert.deepEqual(new Uint8Array(response.data), o.objects.get(`/live/cam/i-1/video-p${msn * 4 + part}.m4s`));
          assert.ok(stats.loading.end > stats.loading.start, 'a real transfer time, not an instant hit');
          assert.equal(stats.loaded, 150_000);
        }
      }
    }
    const peerBytes = a.scheduler.metrics.bytes.peer + b.scheduler.metrics.bytes.peer;
    assert.ok(peerBytes >= 150_000, `peer bytes ${peerBytes}`);
    assert.ok(o.served.bytes < 2 * 8 * 150_000, `origin served ${o.served.bytes}`);
  } finally {
    a.stop();
    b.stop();
    o.server.close();
  }
});

test("the origin's multivariant playlist is passed over; a media playlist of another instance turns the swarm off for it", async () => {
  const o = await startOrigin();
  const logged = [];
  const runtime = runtimeFor(o, fakeRelay(), fakeWebRtc());
  runtime.log = (message) => logged.push(message);
  const multivariant = '#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.640014"\ni-1/video.m3u8\n';
  try {
    runtime.onPlaylist(`${o.base}/live/cam/index.m3u8`, multivariant);
    assert.deepEqual(logged, []);
    runtime.onPlaylist(`${o.base}/live/cam/i-2/video.m3u8`, o.playlist);
    assert.equal(logged.length, 1);
    assert.match(logged[0], /i-2\/video\.m3u8 is not of instance i-1/);
    assert.equal(runtime.scheduler.objects.size, 0, 'nothing of the other instance is listed');
  } finally {
    runtime.stop();
    o.server.close();
  }
});

test('a page whose data-channel sends are corrupted is banned and no corrupt byte reaches the loader', async () => {
  const o = await startOrigin();
  const relay = fakeRelay();
  let bad = null;
  const RTC = fakeWebRtc({ corrupt: (pc) => bad !== null && bad.connections.peers.size > 0 && [...bad.connections.peers.values()].some((p) => p.pc === pc) });
  const good = runtimeFor(o, relay, RTC, { seed: 5, scheduler: { seedersPerObject: 0 } });
  bad = runtimeFor(o, relay, RTC, { seed: 6, scheduler: { seedersPerObject: 2 } });
  try {
    await good.start();
    await bad.start();
    await until(() => good.scheduler.peers.size === 1, 'the pages to connect');
    bad.onPlaylist(o.playlistUrl, o.playlist);
    await until(() => bad.scheduler.metrics.bytes.http > 0, 'the bad page to seed');
    good.onPlaylist(o.playlistUrl, o.playlist);
    const Loader = createFragmentLoader({ runtime: good, renditionOf, media: () => null, startupBudgetMs: 3000 });
    for (let part = 0; part < 4; part++) {
      const { response } = await loadPart(Loader, o, 1, part);
      assert.deepEqual(new Uint8Array(response.data), o.objects.get(`/live/cam/i-1/video-p${4 + part}.m4s`));
    }
    assert.equal(good.scheduler.metrics.bans, 1);
    assert.equal(good.scheduler.metrics.bytes.peer, 0);
    assert.equal(good.scheduler.peers.size, 0);
  } finally {
    good.stop();
    bad.stop();
    o.server.close();
  }
});

test('a flood of signed offers on the Nostr topic opens a bounded number of connections and costs no HTTP fallback', async () => {
  const o = await startOrigin();
  const relay = fakeRelay();
  const RTC = fakeWebRtc();
  let created = 0;
  class CountingRTC extends RTC {
    constructor(config) {
      super(config);
      created++;
    }
  }
  // a seeds every part, b none: b's parts come from a unless the flood gets in the way.
  const a = runtimeFor(o, relay, RTC, { seed: 7, scheduler: { seedersPerObject: 2 } });
  const b = runtimeFor(o, relay, CountingRTC, { seed: 8, scheduler: { seedersPerObject: 0 } });
  try {
    await a.start();
    await b.start();
    await until(() => a.scheduler.peers.size === 1 && b.scheduler.peers.size === 1, 'the two pages to connect', 15_000);
    const honestConnections = created;
    // 60 offers, each signed by a fresh key and addressed to b, with SDP no connection accepts.
    const flooder = new relay.WebSocket('ws://fake/nostr');
    await until(() => flooder.readyState === 1, 'the flooder to connect');
    for (let i = 0; i < 60; i++) {
      const event = nostrTools.finalizeEvent({
        kind: KIND_SIGNAL, created_at: Math.floor(Date.now() / 1000),
        tags: [['x', swarmTopic('cam', 'i-1')], ['p', b.signer.pubkey], ['v', '1']],
        content: JSON.stringify({ type: 'offer', sdp: `flood-${i}` }),
      }, nostrTools.generateSecretKey());
      flooder.send(JSON.stringify(['EVENT', event]));
    }
    a.onPlaylist(o.playlistUrl, o.playlist);
    b.onPlaylist(o.playlistUrl, o.playlist);
    const Loader = createFragmentLoader({ runtime: b, renditionOf, media: () => null, startupBudgetMs: 3000 });
    for (let part = 0; part < 4; part++) {
      const { response } = await loadPart(Loader, o, 1, part);
      assert.deepEqual(new Uint8Array(response.data), o.objects.get(`/live/cam/i-1/video-p${4 + part}.m4s`));
    }
    assert.equal(relay.stats.rejected, 0);
    assert.ok(created - honestConnections <= b.rendezvous.config.maxOffersPerWindow, `${created - honestConnections} connections for the flood`);
    assert.equal(b.scheduler.metrics.fallbacks, 0);
    assert.ok(b.scheduler.peers.has(a.signer.pubkey), 'the honest peer is kept');
    assert.equal(b.scheduler.metrics.loads.peer, 4, 'every part still came from the honest peer');
  } finally {
    a.stop();
    b.stop();
    o.server.close();
  }
});
