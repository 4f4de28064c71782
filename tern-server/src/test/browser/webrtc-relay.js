#!/usr/bin/env node
// Headless Chromium: two RTCPeerConnections in one page whose only ICE server is the TURN
// server under test, with iceTransportPolicy 'relay', exchange data-channel messages both ways.
// Node makes the random messages and checks what arrived byte for byte; the selected candidate
// pair is read from getStats().
//
// usage: node webrtc-relay.js '<json>'
//   json: {"url": "turn:127.0.0.1:3478?transport=udp", "username": "...", "credential": "...",
//          "messages": 20, "largeBytes": 16384, "timeoutMs": 20000,
//          "extraArgs": ["--ignore-certificate-errors"]}
// prints one JSON line to stdout: {"ok": true|false, ...}; exit status 0 only when ok.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CHROMIUM = process.env.TERN_CHROMIUM || '/usr/bin/chromium';

async function main() {
  const opts = JSON.parse(process.argv[2] || '{}');
  for (const key of ['url', 'username', 'credential']) {
    if (!opts[key]) throw new Error(`missing option ${key}`);
  }
  const count = opts.messages || 20;
  const largeBytes = opts.largeBytes || 16384;
  const timeoutMs = opts.timeoutMs || 20000;

  // 20 messages of random bytes and random sizes, one of them large (16 KiB by default).
  const forward = [];
  const backward = [];
  for (let i = 0; i < count; i++) {
    const size = i === Math.floor(count / 2) ? largeBytes : 1 + crypto.randomInt(1200);
    forward.push(crypto.randomBytes(size));
    backward.push(crypto.randomBytes(i === 0 ? largeBytes : 1 + crypto.randomInt(1200)));
  }

  const { chromium } = require('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-chromium-'));
  const args = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ...(opts.extraArgs || [])];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args, timeout: timeoutMs,
  });
  try {
    const page = context.pages()[0] || await context.newPage();
    const browserVersion = context.browser() ? context.browser().version() : undefined;
    const result = await page.evaluate(runInPage, {
      iceServer: { urls: opts.url, username: opts.username, credential: opts.credential },
      forward: forward.map((b) => b.toString('base64')),
      backward: backward.map((b) => b.toString('base64')),
      timeoutMs,
    });
    const mismatches = [];
    compare('forward', forward, result.receivedForward, mismatches);
    compare('backward', backward, result.receivedBackward, mismatches);
    delete result.receivedForward;
    delete result.receivedBackward;
    const userAgent = await page.evaluate(() => navigator.userAgent);
    const out = {
      ok: result.error === undefined && mismatches.length === 0,
      ...result,
      mismatches,
      messagesEachWay: count,
      bytesForward: forward.reduce((n, b) => n + b.length, 0),
      bytesBackward: backward.reduce((n, b) => n + b.length, 0),
      largestMessage: Math.max(...forward.map((b) => b.length), ...backward.map((b) => b.length)),
      browser: browserVersion || userAgent,
    };
    process.stdout.write(JSON.stringify(out) + '\n');
    return out.ok ? 0 : 1;
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

function compare(label, sent, receivedBase64, mismatches) {
  const received = (receivedBase64 || []).map((s) => Buffer.from(s, 'base64'));
  if (received.length !== sent.length) {
    mismatches.push(`${label}: sent ${sent.length} messages, received ${received.length}`);
  }
  for (let i = 0; i < Math.min(sent.length, received.length); i++) {
    if (!sent[i].equals(received[i])) {
      mismatches.push(`${label} #${i}: sent ${sent[i].length} bytes, received ${received[i].length} that differ`);
    }
  }
}

// Runs inside the page; must be self-contained.
async function runInPage({ iceServer, forward, backward, timeoutMs }) {
  const decode = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const encode = (buf) => {
    const bytes = new Uint8Array(buf);
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) {
      s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(s);
  };
  const config = { iceServers: [iceServer], iceTransportPolicy: 'relay' };
  const a = new RTCPeerConnection(config);
  const b = new RTCPeerConnection(config);
  const candidateErrors = [];
  const candidates = { a: [], b: [] };
  for (const [pc, other, name] of [[a, b, 'a'], [b, a, 'b']]) {
    pc.onicecandidate = (e) => {
      if (e.candidate) {
        candidates[name].push(e.candidate.candidate);
        other.addIceCandidate(e.candidate).catch((err) => candidateErrors.push(String(err)));
      }
    };
    pc.onicecandidateerror = (e) => candidateErrors.push(`${name}: ${e.errorCode} ${e.errorText} ${e.url}`);
  }
  const started = performance.now();
  const timeout = new Promise((_, reject) => setTimeout(
    () => reject(new Error(`timed out after ${timeoutMs} ms (ICE a=${a.iceConnectionState} b=${b.iceConnectionState})`)),
    timeoutMs));

  const receivedForward = [];
  const receivedBackward = [];
  let connectMs;
  try {
    await Promise.race([timeout, (async () => {
      const dcA = a.createDataChannel('tern', { ordered: true });
      dcA.binaryType = 'arraybuffer';
      const dcBPromise = new Promise((resolve) => { b.ondatachannel = (e) => resolve(e.channel); });
      const offer = await a.createOffer();
      await a.setLocalDescription(offer);
      await b.setRemoteDescription(offer);
      const answer = await b.createAnswer();
      await b.setLocalDescription(answer);
      await a.setRemoteDescription(answer);
      const dcB = await dcBPromise;
      dcB.binaryType = 'arraybuffer';
      await Promise.all([dcA, dcB].map((dc) => dc.readyState === 'open'
        ? null : new Promise((resolve) => dc.addEventListener('open', resolve, { once: true }))));
      connectMs = Math.round(performance.now() - started);

      const gotForward = new Promise((resolve) => {
        dcB.onmessage = (e) => {
          receivedForward.push(encode(e.data));
          if (receivedForward.length === forward.length) resolve();
        };
      });
      const gotBackward = new Promise((resolve) => {
        dcA.onmessage = (e) => {
          receivedBackward.push(encode(e.data));
          if (receivedBackward.length === backward.length) resolve();
        };
      });
      for (const m of forward) dcA.send(decode(m));
      for (const m of backward) dcB.send(decode(m));
      await Promise.all([gotForward, gotBackward]);
    })()]);
  } catch (err) {
    return {
      error: String(err), candidateErrors, candidates, receivedForward, receivedBackward,
      iceA: a.iceConnectionState, iceB: b.iceConnectionState,
    };
  }

  const selected = async (pc) => {
    const stats = await pc.getStats();
    let pair;
    stats.forEach((s) => {
      if (s.type === 'transport' && s.selectedCandidatePairId) pair = stats.get(s.selectedCandidatePairId);
    });
    if (!pair) {
      stats.forEach((s) => { if (s.type === 'candidate-pair' && s.nominated && s.state === 'succeeded') pair = s; });
    }
    if (!pair) return null;
    const local = stats.get(pair.localCandidateId);
    const remote = stats.get(pair.remoteCandidateId);
    return {
      state: pair.state,
      localCandidateType: local.candidateType,
      relayProtocol: local.relayProtocol,
      localProtocol: local.protocol,
      localAddress: `${local.address}:${local.port}`,
      url: local.url,
      remoteCandidateType: remote.candidateType,
      remoteAddress: `${remote.address}:${remote.port}`,
      bytesSent: pair.bytesSent,
      bytesReceived: pair.bytesReceived,
    };
  };
  // Chrome reports the selected pair 'in-progress' while a consent-freshness check is in flight,
  // even with data flowing; read it again (at most 50 times, 100 ms apart) until it has settled.
  const settled = async (pc) => {
    let pair = await selected(pc);
    for (let i = 0; i < 50 && !(pair && pair.state === 'succeeded'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      pair = await selected(pc);
    }
    return pair;
  };
  const result = {
    connectMs,
    totalMs: Math.round(performance.now() - started),
    selectedA: await settled(a),
    selectedB: await settled(b),
    candidates,
    candidateErrors,
    receivedForward,
    receivedBackward,
  };
  a.close();
  b.close();
  return result;
}

main().then((code) => process.exit(code), (err) => {
  process.stdout.write(JSON.stringify({ ok: false, error: String(err && err.stack || err) }) + '\n');
  process.exit(1);
});
