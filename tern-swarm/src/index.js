// Entry point, served by the origin at /_tern/swarm/index.js. Adding the swarm to an hls.js page:
//
//   import { attachSwarm } from '/_tern/swarm/index.js';
//   const hls = new Hls(await attachSwarm({ lowLatencyMode: true }, { stream: 'NAME', Hls }));
//   hls.loadSource('/live/NAME/index.m3u8'); hls.attachMedia(video);
//
// When the origin has the swarm off for the stream (404), or the browser lacks what it needs,
// attachSwarm returns the config unchanged and playback is plain HTTP.
import { SwarmRuntime } from './runtime.js';
import { createFragmentLoader, tapPlaylists } from './loader.js';
import { renditionOf } from './playlist.js';

const NOSTR_BUNDLE = new URL('./nostr.bundle.js', import.meta.url).href;

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = resolve;
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.appendChild(script);
  });
}

/** The page's I/O for the runtime: the real clock, timers, fetch, WebRTC and WebSocket. */
function browserIo(nostrTools, log) {
  return {
    now: () => performance.now(),
    wallSeconds: () => Math.floor(Date.now() / 1000),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id),
    fetch: (url, init) => fetch(url, init),
    random: () => Math.random(),
    RTCPeerConnection: globalThis.RTCPeerConnection,
    WebSocket: globalThis.WebSocket,
    nostrTools,
    log,
  };
}

/**
 * Returns hlsConfig with the swarm's fLoader and pLoader installed, and publishes the swarm as
 * window.ternSwarm ({enabled, stream, instance, pubkey, metrics, rendezvous, peers(), held(), stop()};
 * docs/swarm-protocol.md).
 * options: {stream (required), origin (default: this page's origin), Hls (the hls.js class, for its
 * default playlist loader; default window.Hls), media (the <video>, default the first on the page),
 * relayOnly (ICE through TURN only), transport ('udp' | 'tcp' | 'tls': one TURN transport only),
 * scheduler, rendezvous (option overrides), nostrTools, log}.
 */
export async function attachSwarm(hlsConfig = {}, options = {}) {
  if (!options.stream) throw new Error('attachSwarm: options.stream is required');
  const log = options.log ?? ((message) => console.debug(`tern-swarm: ${message}`));
  const disabled = (reason) => {
    globalThis.ternSwarm = { enabled: false, reason };
    log(`off: ${reason}`);
    return hlsConfig;
  };
  if (!globalThis.RTCPeerConnection || !globalThis.crypto?.subtle) return disabled('no WebRTC or WebCrypto');
  const origin = options.origin ?? location.origin;
  let endpoint;
  try {
    const response = await fetch(`${origin}/api/v1/swarm/${encodeURIComponent(options.stream)}`, { cache: 'no-store' });
    if (!response.ok) return disabled(`GET /api/v1/swarm/${options.stream}: ${response.status}`);
    endpoint = await response.json();
  } catch (error) {
    return disabled(error.message);
  }
  const nostrTools = options.nostrTools ?? globalThis.NostrTools ?? (await loadScript(NOSTR_BUNDLE), globalThis.NostrTools);
  const runtime = new SwarmRuntime(endpoint, options, browserIo(nostrTools, log));
  try {
    await runtime.start();
  } catch (error) {
    return disabled(error.message);
  }
  const Hls = options.Hls ?? globalThis.Hls;
  const BasePlaylistLoader = hlsConfig.pLoader ?? hlsConfig.loader ?? Hls?.DefaultConfig?.loader;
  if (!BasePlaylistLoader) {
    runtime.stop();
    return disabled('no hls.js playlist loader to wrap: pass options.Hls');
  }
  globalThis.ternSwarm = {
    enabled: true,
    stream: endpoint.stream,
    instance: endpoint.instance,
    pubkey: runtime.signer.pubkey,
    metrics: runtime.scheduler.metrics,
    rendezvous: runtime.rendezvous.metrics,
    peers: () => [...runtime.scheduler.peers.keys()],
    held: () => ({ objects: runtime.scheduler.objects.size, bytes: runtime.scheduler.heldBytes }),
    stop: () => runtime.stop(),
  };
  return {
    ...hlsConfig,
    fLoader: createFragmentLoader({
      runtime,
      renditionOf,
      media: () => options.media ?? globalThis.document?.querySelector('video') ?? null,
    }),
    pLoader: tapPlaylists(BasePlaylistLoader, (url, text) => runtime.onPlaylist(url, text)),
  };
}
