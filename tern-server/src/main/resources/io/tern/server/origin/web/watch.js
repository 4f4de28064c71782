// The watch page of /live/NAME/: plays NAME's LL-HLS with hls.js in low-latency mode and shows,
// every second, the latency (wall clock against EXT-X-PROGRAM-DATE-TIME), the buffer ahead, the
// bitrate loaded over the last seconds, dropped frames and stalls. What it shows is also kept in
// window.ternWatch, one sample a second, for the tests.
// A stream with the swarm on (the origin marks its page with <meta name="tern-swarm">) loads the
// peer-assisted delivery library, /_tern/swarm/index.js, and lets it install its loader into the
// hls.js config; if the library is missing or fails, the page plays over HTTP as before. Its
// figures (window.ternSwarm.metrics: share of bytes from peers, peers and bans, loads in time) are
// shown beside the player's and kept in the samples. ?relay=udp|tcp|tls restricts the page's peer
// connections to the origin's TURN relay over that one transport (to try a viewer behind a
// strict NAT, and for the tests).
'use strict';
(() => {
  const BITRATE_WINDOW_MS = 5000;
  const RETRY_MS = 2000;
  const name = decodeURIComponent(location.pathname.replace(/\/+$/, '').split('/').pop());
  const src = location.pathname.replace(/\/?$/, '/') + 'index.m3u8';
  const video = document.getElementById('video');
  const el = (id) => document.getElementById(id);
  document.title = 'Tern · live/' + name;
  el('title').textContent = 'live/' + name;
  el('playlist').href = src;
  el('playlist').textContent = src;

  const watch = { name, samples: [], stalls: 0, errors: [] };
  window.ternWatch = watch;
  let hls = null;
  let loads = []; // [time ms, bytes] of media loaded lately
  let playingSince = null;
  let stalled = false;

  function state(text, kind) {
    const s = el('state');
    s.textContent = text;
    s.className = 'state ' + (kind || '');
  }

  function stall() {
    if (playingSince !== null && !stalled) {
      stalled = true;
      watch.stalls++;
    }
  }

  video.addEventListener('waiting', stall);
  video.addEventListener('playing', () => {
    stalled = false;
    if (playingSince === null) playingSince = performance.now();
    state('live', 'ok');
  });

  const swarmOn = document.querySelector('meta[name="tern-swarm"][content="on"]') !== null;
  watch.swarm = swarmOn ? 'loading' : 'off';

  // The hls.js config: with the swarm, as attachSwarm returns it (it may be a promise).
  async function hlsConfig() {
    const config = { lowLatencyMode: true, maxLiveSyncPlaybackRate: 1.5, backBufferLength: 10 };
    if (!swarmOn) return config;
    if (window.ternSwarm && window.ternSwarm.stop) window.ternSwarm.stop(); // a retry attaches afresh
    try {
      const swarm = await import('/_tern/swarm/index.js');
      const relay = new URLSearchParams(location.search).get('relay');
      const options = { stream: name, origin: location.origin, ...(relay ? { relayOnly: true, transport: relay } : {}) };
      const attached = await swarm.attachSwarm(config, options);
      watch.swarm = window.ternSwarm && window.ternSwarm.enabled ? 'on' : 'off: ' + (window.ternSwarm ? window.ternSwarm.reason : '?');
      return attached || config;
    } catch (e) {
      watch.swarm = 'failed: ' + (e && e.message ? e.message : e);
      watch.errors.push('swarm: ' + watch.swarm);
      return { lowLatencyMode: true, maxLiveSyncPlaybackRate: 1.5, backBufferLength: 10 };
    }
  }

  function start() {
    if (window.Hls && Hls.isSupported()) {
      hlsConfig().then(play);
    } else if (video.canPlayType('application/vnd.apple.mpegurl')) {
      video.src = src; // Safari without Media Source Extensions: its own HLS, fewer figures
      video.play().catch(() => state('press play', ''));
    } else {
      state('this browser cannot play HLS', 'bad');
    }
  }

  function play(config) {
    hls = new Hls(config);
    hls.on(Hls.Events.FRAG_LOADED, (event, data) => {
      // The loader's count: the payload itself may already be handed to the transmuxer worker.
      const stats = (data.part || data.frag).stats;
      loads.push([performance.now(), stats ? stats.loaded || stats.total || 0 : 0]);
    });
    hls.on(Hls.Events.ERROR, (event, data) => {
      if (data.details === Hls.ErrorDetails.BUFFER_STALLED_ERROR) stall();
      watch.errors.push(data.details);
      if (watch.errors.length > 50) watch.errors.shift();
      if (data.fatal) {
        // Not live yet, or gone: show it and try again, as a player left open should.
        state(data.type === Hls.ErrorTypes.NETWORK_ERROR ? 'waiting for live/' + name : 'error: ' + data.details, 'bad');
        hls.destroy();
        hls = null;
        playingSince = null;
        setTimeout(start, RETRY_MS);
      }
    });
    hls.loadSource(src);
    hls.attachMedia(video);
    video.play().catch(() => state('press play', ''));
  }

  function seconds(s) {
    return s === null || !isFinite(s) ? '–' : s.toFixed(2) + ' s';
  }

  function sample() {
    const now = performance.now();
    loads = loads.filter((l) => now - l[0] <= BITRATE_WINDOW_MS);
    const bytes = loads.reduce((sum, l) => sum + l[1], 0);
    const bitsPerSecond = playingSince === null ? null : bytes * 8 / (Math.min(BITRATE_WINDOW_MS, now - playingSince) / 1000 || 1);
    const date = hls ? hls.playingDate : null;
    const latency = date ? (Date.now() - date.getTime()) / 1000 : null;
    const b = video.buffered;
    let buffer = null;
    for (let i = 0; i < b.length; i++) {
      if (b.start(i) <= video.currentTime + 0.1 && video.currentTime <= b.end(i)) buffer = b.end(i) - video.currentTime;
    }
    const quality = video.getVideoPlaybackQuality ? video.getVideoPlaybackQuality() : null;
    const dropped = quality ? quality.droppedVideoFrames : null;

    el('latency').textContent = seconds(latency);
    el('latency').className = latency === null ? '' : latency < 2 ? 'ok' : latency < 5 ? 'warn' : 'bad';
    el('buffer').textContent = seconds(buffer);
    el('bitrate').textContent = bitsPerSecond === null ? '–' : bitsPerSecond >= 1e6
      ? (bitsPerSecond / 1e6).toFixed(2) + ' Mbit/s' : (bitsPerSecond / 1e3).toFixed(0) + ' kbit/s';
    el('dropped').textContent = dropped === null ? '–' : dropped + (quality.totalVideoFrames ? ' of ' + quality.totalVideoFrames : '');
    el('stalls').textContent = String(watch.stalls);
    el('stalls').className = watch.stalls ? 'warn' : '';
    el('picture').textContent = video.videoWidth ? video.videoWidth + '×' + video.videoHeight : '–';
    const swarm = swarmFigures();

    if (playingSince !== null) {
      watch.samples.push({
        wall: (now - playingSince) / 1000, media: video.currentTime, latency, buffer, bitsPerSecond,
        dropped, stalls: watch.stalls, shown: el('latency').textContent, swarm,
      });
      if (watch.samples.length > 600) watch.samples.shift();
    }
  }

  // The swarm's figures, shown and returned for the sample; null while it is not running.
  function swarmFigures() {
    const s = window.ternSwarm;
    if (!swarmOn || !s || !s.enabled || !s.metrics) {
      if (swarmOn) el('offload').textContent = watch.swarm;
      return null;
    }
    const m = s.metrics;
    const figures = {
      offload: m.offload, peerBytes: m.bytes.peer, httpBytes: m.bytes.http, uploadedBytes: m.bytes.uploaded,
      peers: m.peers, bans: m.bans, inTimeShare: m.inTimeShare, fallbacks: m.fallbacks, verifyFailures: m.verifyFailures,
    };
    el('offload').textContent = (100 * m.offload).toFixed(0) + ' % (' + (m.bytes.peer / 1e6).toFixed(1) + ' of '
      + ((m.bytes.peer + m.bytes.http) / 1e6).toFixed(1) + ' MB)';
    el('peers').textContent = m.peers + (m.bans ? ', ' + m.bans + ' banned' : '');
    el('peers').className = m.bans ? 'warn' : '';
    el('intime').textContent = (100 * m.inTimeShare).toFixed(0) + ' %' + (m.fallbacks ? ', ' + m.fallbacks + ' fallbacks' : '');
    return figures;
  }

  if (swarmOn) document.querySelectorAll('.stats .swarm').forEach((row) => { row.hidden = false; });
  setInterval(sample, 1000);
  start();
})();
