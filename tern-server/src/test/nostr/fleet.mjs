#!/usr/bin/env node
// nostr-tools against two Tern relay nodes sharing one PostgreSQL database. Each scenario prints
// one JSON line {"ok": true, ...} (or {"ok": false, "error": ...}, exit 1).
//
// usage: node fleet.mjs <scenario> args...
//   live A B            a subscriber on B receives what is published on A, live; COUNT agrees on
//                       both; an ephemeral event from A reaches B's subscriber and is stored nowhere
//   subscribe B FILE S  subscribes on B to kind 1 tagged t=fleet; appends each id received to FILE
//                       (one line per delivery, repeats included); exits after S seconds
//   publish A FILE N    publishes N kind 1 events tagged t=fleet on A one after another; appends
//                       "ok ID" or "refused ID MESSAGE" per answer to FILE; a lost connection is
//                       retried until N answers were had or 60 s passed
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import WebSocket from 'ws';
import { finalizeEvent, generateSecretKey } from 'nostr-tools/pure';
import { Relay, useWebSocketImplementation } from 'nostr-tools/relay';
import { SimplePool, useWebSocketImplementation as usePoolWebSocket } from 'nostr-tools/pool';

useWebSocketImplementation(WebSocket);
usePoolWebSocket(WebSocket);

const [scenario, ...args] = process.argv.slice(2);
const now = () => Math.floor(Date.now() / 1000);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function within(ms, what, promise) {
  let timer;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(what + ' not within ' + ms + ' ms')), ms);
    }),
  ]);
}

/** Resolves with every stored event matching filters on url (REQ to EOSE). */
async function stored(url, filters) {
  const relay = await Relay.connect(url);
  try {
    return await within(10000, 'EOSE from ' + url, new Promise((resolve) => {
      const events = [];
      const sub = relay.subscribe(filters, {
        onevent: (e) => events.push(e),
        oneose: () => {
          sub.close();
          resolve(events);
        },
      });
    }));
  } finally {
    relay.close();
  }
}

async function live([a, b]) {
  const sk = generateSecretKey();
  const tag = 'fleet-' + Math.random().toString(36).slice(2);
  const onB = await Relay.connect(b);
  const received = new Map();
  let eose;
  const eosed = new Promise((r) => (eose = r));
  onB.subscribe([{ '#t': [tag] }], {
    onevent: (e) => received.set(e.id, (received.get(e.id) || 0) + 1),
    oneose: () => eose(),
  });
  await within(10000, 'EOSE on B', eosed);

  // Stored events: published on A with Relay, one also with SimplePool.
  const onA = await Relay.connect(a);
  const published = [];
  for (let i = 0; i < 5; i++) {
    const e = finalizeEvent({ kind: 1, created_at: now(), tags: [['t', tag]], content: 'across ' + i }, sk);
    await onA.publish(e);
    published.push(e.id);
  }
  const pool = new SimplePool();
  const viaPool = finalizeEvent({ kind: 1, created_at: now(), tags: [['t', tag]], content: 'pool' }, sk);
  await Promise.all(pool.publish([a], viaPool));
  published.push(viaPool.id);
  await within(10000, 'every event live on B', (async () => {
    while (!published.every((id) => received.has(id))) await sleep(20);
  })());

  // Ephemeral (kind 20000-29999): live on B, stored nowhere.
  const eph = finalizeEvent({ kind: 20001, created_at: now(), tags: [['t', tag]], content: 'ephemeral' }, sk);
  await onA.publish(eph);
  await within(10000, 'the ephemeral event live on B', (async () => {
    while (!received.has(eph.id)) await sleep(20);
  })());
  await sleep(300); // a repeat would arrive within this
  for (const [id, n] of received) assert.equal(n, 1, id + ' delivered ' + n + ' times on B');

  const countA = (await onA.count([{ '#t': [tag] }])) ?? -1;
  const countB = (await onB.count([{ '#t': [tag] }])) ?? -1;
  const storedA = await stored(a, [{ '#t': [tag] }]);
  const storedB = await stored(b, [{ '#t': [tag] }]);
  const ephStored = (await stored(a, [{ ids: [eph.id] }])).length + (await stored(b, [{ ids: [eph.id] }])).length;
  const poolB = await pool.querySync([b], { '#t': [tag] });
  onA.close();
  onB.close();
  pool.close([a, b]);
  return {
    live: published.filter((id) => received.has(id)).length,
    ephemeralLive: received.has(eph.id) ? 1 : 0,
    countA,
    countB,
    storedA: storedA.map((e) => e.id).sort(),
    storedB: storedB.map((e) => e.id).sort(),
    poolB: poolB.length,
    ephemeralStored: ephStored,
  };
}

async function subscribe([b, file, seconds]) {
  let relay = null;
  let deliveries = 0;
  let reconnects = 0;
  const end = Date.now() + Number(seconds) * 1000;
  while (Date.now() < end) {
    try {
      relay = await Relay.connect(b);
      let closed;
      const gone = new Promise((r) => (closed = r));
      relay.onclose = () => closed();
      relay.subscribe([{ kinds: [1], '#t': ['fleet'] }], {
        onevent: (e) => {
          deliveries++;
          appendFileSync(file, e.id + '\n');
        },
      });
      appendFileSync(file, 'subscribed\n');
      await Promise.race([gone, sleep(end - Date.now())]);
    } catch {
      reconnects++;
      await sleep(200);
    }
  }
  relay?.close();
  return { deliveries, reconnects };
}

async function publish([a, file, n]) {
  const sk = generateSecretKey();
  const total = Number(n);
  let answered = 0;
  let ok = 0;
  let refused = 0;
  let lost = 0;
  const end = Date.now() + 60000;
  let relay = null;
  while (answered < total && Date.now() < end) {
    try {
      if (!relay || !relay.connected) relay = await Relay.connect(a);
      const e = finalizeEvent(
        { kind: 1, created_at: now(), tags: [['t', 'fleet']], content: 'n' + answered },
        sk,
      );
      try {
        await relay.publish(e);
        appendFileSync(file, 'ok ' + e.id + '\n');
        ok++;
      } catch (err) {
        appendFileSync(file, 'refused ' + e.id + ' ' + String(err.message ?? err).replace(/\n/g, ' ') + '\n');
        refused++;
        await sleep(50);
      }
      answered++;
    } catch {
      lost++;
      relay = null;
      await sleep(200);
    }
  }
  relay?.close();
  return { ok, refused, lost };
}

const scenarios = { live, subscribe, publish };
try {
  const run = scenarios[scenario];
  if (!run) throw new Error('unknown scenario ' + scenario);
  const result = await run(args);
  console.log(JSON.stringify({ ok: true, ...result }));
  process.exit(0);
} catch (e) {
  console.log(JSON.stringify({ ok: false, error: String(e?.stack ?? e) }));
  process.exit(1);
}
