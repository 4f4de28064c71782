#!/usr/bin/env node
// nostr-tools (and ws, for bad input) against a running Tern relay. Each scenario asserts what it
// sees and prints one JSON line {"ok": true, ...figures} (or {"ok": false, "error": ...}, exit 1).
//
// usage: node clients.mjs <scenario> <ws-url>
//   basic      Relay and SimplePool: publish, subscribe, EOSE, live events, close
//   oracle     random events and filters; every REQ answer (and COUNT) equals matchFilters over
//              everything published, with NIP-01's replaceable/addressable rules and limits
//   auth       (relay started with --auth write) publish refused with auth-required:, NIP-42
//              AUTH by relay.auth() and by onauth, then accepted
//   nip11      fetchRelayInformation: the document Tern serves on the relay's URL
//   bad-input  (relay started with low limits) garbage over ws; a bystander keeps its answers
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure';
import { matchFilter, matchFilters } from 'nostr-tools/filter';
import { Relay, useWebSocketImplementation } from 'nostr-tools/relay';
import { SimplePool, useWebSocketImplementation as usePoolWebSocket } from 'nostr-tools/pool';
import { fetchRelayInformation } from 'nostr-tools/nip11';

useWebSocketImplementation(WebSocket);
usePoolWebSocket(WebSocket);

const [scenario, url] = process.argv.slice(2);
const now = () => Math.floor(Date.now() / 1000);

/** A deterministic pseudo-random source, so a failure can be replayed with TERN_SEED. */
function random(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Subscribes and resolves with every event before EOSE (each checked with verifyEvent). */
function query(relay, filters) {
  return new Promise((resolve, reject) => {
    const events = [];
    const timer = setTimeout(() => reject(new Error('no EOSE in 10 s for ' + JSON.stringify(filters))), 10000);
    const sub = relay.subscribe(filters, {
      onevent: (e) => {
        assert.ok(verifyEvent(e), 'verifyEvent on ' + e.id);
        events.push(e);
      },
      oneose: () => {
        clearTimeout(timer);
        sub.close();
        resolve(events);
      },
      onclose: (reason) => {
        if (reason && reason !== 'closed by caller') {
          clearTimeout(timer);
          reject(new Error('CLOSED ' + reason));
        }
      },
    });
  });
}

async function basic() {
  const sk = generateSecretKey();
  const reader = await Relay.connect(url);
  const writer = await Relay.connect(url);
  const live = [];
  let eose = false;
  const sub = reader.subscribe([{ kinds: [1], '#t': ['tern-basic'] }], {
    onevent: (e) => live.push(e),
    oneose: () => { eose = true; },
  });
  await until(() => eose, 'EOSE on the live subscription');
  const note = finalizeEvent({ kind: 1, created_at: now(), tags: [['t', 'tern-basic']], content: 'hello from nostr-tools' }, sk);
  assert.equal(await writer.publish(note), '');
  await until(() => live.length === 1, 'the live event');
  assert.equal(live[0].id, note.id);
  sub.close();
  const stored = await query(reader, [{ ids: [note.id] }]);
  assert.deepEqual(stored.map((e) => e.id), [note.id]);
  reader.close();
  writer.close();

  // SimplePool: publish to the relay, subscribe, EOSE, live event, querySync, close.
  const pool = new SimplePool();
  const got = [];
  let poolEose = false;
  const poolSub = pool.subscribe([url], { kinds: [1], '#t': ['tern-pool'] }, {
    onevent: (e) => got.push(e),
    oneose: () => { poolEose = true; },
  });
  await until(() => poolEose, 'EOSE through SimplePool');
  const second = finalizeEvent({ kind: 1, created_at: now(), tags: [['t', 'tern-pool']], content: 'pooled' }, sk);
  await Promise.all(pool.publish([url], second));
  await until(() => got.length === 1, 'the live event through SimplePool');
  poolSub.close();
  const fetched = await pool.querySync([url], { kinds: [1], authors: [getPublicKey(sk)] });
  assert.deepEqual(fetched.map((e) => e.id).sort(), [note.id, second.id].sort());
  pool.close([url]);
  return { live: live.length + got.length, stored: fetched.length };
}

async function until(condition, what, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting for ' + what);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** NIP-01's newest first, ties by lowest id. */
const newestFirst = (a, b) => b.created_at - a.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** What the relay keeps of everything published: replaceable and addressable events by key. */
function surviving(published) {
  const byKey = new Map();
  const kept = [];
  for (const e of published) {
    const k = e.kind;
    let key = null;
    if (k === 0 || k === 3 || (k >= 10000 && k < 20000)) key = `${k}:${e.pubkey}`;
    else if (k >= 30000 && k < 40000) key = `${k}:${e.pubkey}:${(e.tags.find((t) => t[0] === 'd') || [])[1] || ''}`;
    else if (k >= 20000 && k < 30000) continue; // ephemeral: never stored
    if (key === null) { kept.push(e); continue; }
    const old = byKey.get(key);
    if (!old || newestFirst(e, old) < 0) byKey.set(key, e);
  }
  return kept.concat([...byKey.values()]);
}

/** The stored answer to one filter: matches, newest first, at most its limit (500 by default). */
function expected(stored, filter) {
  return stored.filter((e) => matchFilter(filter, e)).sort(newestFirst).slice(0, filter.limit ?? 500);
}

async function oracle() {
  const rand = random(Number(process.env.TERN_SEED || 42));
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const keys = Array.from({ length: 5 }, () => generateSecretKey());
  const pubkeys = keys.map((k) => getPublicKey(k));
  const base = now() - 3000;
  const kinds = [1, 1, 1, 7, 0, 3, 10002, 30023, 30023, 1111, 20001];
  const published = [];
  const relay = await Relay.connect(url);
  for (let i = 0; i < 240; i++) {
    const kind = pick(kinds);
    const tags = [];
    if (rand() < 0.7) tags.push(['t', pick(['a', 'b', 'c'])]);
    if (rand() < 0.4) tags.push(['p', pick(pubkeys)]);
    if (kind === 30023 && rand() < 0.9) tags.push(['d', pick(['x', 'y', ''])]);
    if (published.length > 0 && rand() < 0.2) tags.push(['e', pick(published).id]);
    // Few distinct times, so ties (same created_at, then lowest id) are common.
    // Ephemeral events must be fresh (max-ephemeral-age-seconds).
    const created_at = kind >= 20000 && kind < 30000 ? now() : base + Math.floor(rand() * 40) * 50;
    const event = finalizeEvent({ kind, created_at, tags, content: `oracle ${i} ${pick(['', 'ünïcödé', '"quoted"\n', '\u0001'])}` },
      pick(keys));
    const answer = await relay.publish(event).then((m) => ({ ok: true, m }), (e) => ({ ok: false, m: String(e.message) }));
    // An older replaceable version is acknowledged as a duplicate; everything else is accepted.
    assert.ok(answer.ok, `publish ${i} kind ${kind}: ${answer.m}`);
    published.push(event);
  }
  const stored = surviving(published);
  const filters = [];
  // Mostly with limits: nostr-tools verifies every event it receives (a few ms each in pure JS).
  for (let q = 0; q < 90; q++) {
    const f = {};
    if (rand() < 0.4) f.kinds = [pick(kinds), pick(kinds)];
    if (rand() < 0.3) f.authors = [pick(pubkeys)];
    if (rand() < 0.2) f.ids = [pick(published).id, pick(published).id];
    if (rand() < 0.3) f['#t'] = [pick(['a', 'b', 'c'])];
    if (rand() < 0.15) f['#p'] = [pick(pubkeys)];
    if (rand() < 0.3) f.since = base + Math.floor(rand() * 40) * 50;
    // until: 0 would be read as "no bound" by matchFilter, so times start at base.
    if (rand() < 0.3) f.until = base + Math.floor(rand() * 40) * 50;
    if (rand() < 0.85) f.limit = 1 + Math.floor(rand() * 25);
    filters.push(f);
  }
  let compared = 0;
  let returned = 0;
  for (const f of filters) {
    const got = await query(relay, [f]);
    const want = expected(stored, f);
    assert.deepEqual(got.map((e) => e.id), want.map((e) => e.id), 'REQ ' + JSON.stringify(f));
    returned += got.length;
    compared++;
  }
  // Several filters in one REQ: the union of each filter's answer, each event once.
  for (let q = 0; q + 2 < filters.length; q += 3) {
    const group = filters.slice(q, q + 3);
    const got = await query(relay, group);
    const want = new Set(group.flatMap((f) => expected(stored, f)).map((e) => e.id));
    assert.equal(new Set(got.map((e) => e.id)).size, got.length, 'each event once');
    assert.deepEqual(got.map((e) => e.id).sort(), [...want].sort(), 'REQ ' + JSON.stringify(group));
    for (const e of got) assert.ok(matchFilters(group, e));
    compared++;
  }
  // NIP-45 COUNT: every match, limits ignored.
  for (const f of filters.slice(0, 20)) {
    const { limit, ...unlimited } = f;
    const count = await relay.count([unlimited]);
    assert.equal(count, stored.filter((e) => matchFilter(unlimited, e)).length, 'COUNT ' + JSON.stringify(unlimited));
  }
  relay.close();
  return { published: published.length, stored: stored.length, compared, returned };
}

async function auth() {
  const sk = generateSecretKey();
  const relay = await Relay.connect(url);
  const before = finalizeEvent({ kind: 1, created_at: now(), tags: [], content: 'before auth' }, sk);
  await assert.rejects(relay.publish(before), /^Error: auth-required: /);
  const answer = await relay.auth(async (template) => finalizeEvent(template, sk));
  assert.equal(answer, '');
  assert.equal(await relay.publish(before), '');
  relay.close();

  // The same through onauth, as clients that authenticate as soon as they are challenged.
  const eager = new Relay(url);
  eager.onauth = async (template) => finalizeEvent(template, sk);
  await eager.connect();
  await until(() => eager.authPromise !== undefined, 'the automatic AUTH');
  assert.equal(await eager.authPromise, '');
  const after = finalizeEvent({ kind: 1, created_at: now(), tags: [], content: 'after onauth' }, sk);
  assert.equal(await eager.publish(after), '');
  // A wrong challenge is refused.
  const wrong = finalizeEvent({ kind: 22242, created_at: now(), tags: [['relay', url], ['challenge', 'not-it']], content: '' }, sk);
  const refused = await rawExchange(url, ['AUTH', wrong], (m) => m[0] === 'OK');
  assert.equal(refused[2], false);
  assert.match(refused[3], /^invalid: /);
  eager.close();
  return { authenticated: 2 };
}

/** Opens a ws connection, sends one message, and resolves with the first answer that matches. */
function rawExchange(target, message, matches) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(target);
    const timer = setTimeout(() => { ws.terminate(); reject(new Error('no answer to ' + JSON.stringify(message))); }, 10000);
    ws.on('open', () => ws.send(JSON.stringify(message)));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (matches(m)) { clearTimeout(timer); ws.close(); resolve(m); }
    });
    ws.on('error', reject);
  });
}

async function nip11() {
  const info = await fetchRelayInformation(url);
  assert.deepEqual(info.supported_nips, [1, 9, 11, 40, 42, 45]);
  assert.equal(info.limitation.max_message_length, 131072);
  assert.equal(info.software, 'https://github.com/tern-edge/tern');
  const plain = await fetch(url.replace('ws://', 'http://'));
  assert.equal(plain.headers.get('access-control-allow-origin'), '*');
  return { name: info.name };
}

/** A ws client that records every message, for bad input. */
class Raw {
  /** From another loopback address than the bystander's, so per-IP limits apply to it alone. */
  static open(target) {
    return new Promise((resolve, reject) => {
      const raw = new Raw();
      raw.ws = new WebSocket(target, { maxPayload: 1 << 24, localAddress: '127.0.0.2' });
      raw.messages = [];
      raw.waiters = [];
      raw.closed = null;
      raw.ws.on('message', (data) => {
        raw.messages.push(JSON.parse(data.toString()));
        raw.waiters = raw.waiters.filter((w) => !w());
      });
      raw.ws.on('close', (code) => { raw.closed = code; raw.waiters = raw.waiters.filter((w) => !w()); });
      raw.ws.on('open', () => resolve(raw));
      raw.ws.on('error', reject);
    });
  }

  /** Waits until {@code n} messages (after the AUTH challenge) have arrived, and returns them. */
  take(n, timeoutMs = 20000) {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.messages.length >= n + 1) {
          resolve(this.messages.splice(1, n));
          return true;
        }
        return false;
      };
      if (check()) return;
      const timer = setTimeout(() => reject(new Error(`got ${this.messages.length - 1} of ${n} answers`)), timeoutMs);
      this.waiters.push(() => { if (check()) { clearTimeout(timer); return true; } return false; });
    });
  }
}

async function badInput() {
  // A bystander asks the relay something every 20 ms throughout and times each answer.
  const bystander = await Relay.connect(url);
  let worstMs = 0;
  let answered = 0;
  let running = true;
  const watching = (async () => {
    while (running) {
      const t = Date.now();
      await query(bystander, [{ kinds: [1], limit: 1 }]);
      worstMs = Math.max(worstMs, Date.now() - t);
      answered++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();

  const sk = generateSecretKey();
  const good = finalizeEvent({ kind: 1, created_at: now(), tags: [], content: 'template' }, sk);
  const badId = { ...good, content: 'changed after signing' };
  const badSig = { ...good, sig: good.sig.slice(0, -2) + (good.sig.endsWith('00') ? '11' : '00') };
  const raw = await Raw.open(url);
  const cases = [
    ['not json at all', (m) => m[0] === 'NOTICE' && m[1].startsWith('invalid: ')],
    ['{"an":"object"}', (m) => m[0] === 'NOTICE' && m[1].startsWith('invalid: ')],
    ['["EVENT",5]', (m) => m[0] === 'NOTICE' && m[1].startsWith('invalid: ')],
    ['["REQ",1,{}]', (m) => m[0] === 'NOTICE' && m[1].startsWith('invalid: ')],
    ['["REQ","s","not a filter"]', (m) => m[0] === 'CLOSED' && m[1] === 's' && m[2].startsWith('invalid: ')],
    ['["REQ","s",{"kinds":["one"]}]', (m) => m[0] === 'CLOSED' && m[2].startsWith('invalid: ')],
    ['["REQ","' + 'x'.repeat(65) + '",{}]', (m) => m[0] === 'NOTICE' && m[1].startsWith('invalid: ')],
    ['["SUBSCRIBE","s",{}]', (m) => m[0] === 'NOTICE' && m[1].startsWith('invalid: ')],
    ['[]', (m) => m[0] === 'NOTICE' && m[1].startsWith('invalid: ')],
    [JSON.stringify(['EVENT', badId]), (m) => m[0] === 'OK' && m[1] === good.id && m[2] === false && m[3].startsWith('invalid: ')],
    [JSON.stringify(['EVENT', badSig]), (m) => m[0] === 'OK' && m[1] === good.id && m[2] === false && m[3].startsWith('invalid: ')],
    [JSON.stringify(['EVENT', { ...good, kind: 'one' }]), (m) => m[0] === 'OK' && m[2] === false && m[3].startsWith('invalid: ')],
    [JSON.stringify(['EVENT', { ...good, created_at: 1.5 }]), (m) => m[0] === 'OK' && m[2] === false && m[3].startsWith('invalid: ')],
    // Over max-message-bytes (the relay under test allows 65536) but under twice that: a NOTICE.
    [JSON.stringify(['EVENT', { ...good, content: 'x'.repeat(100000) }]), (m) => m[0] === 'NOTICE' && m[1].startsWith('invalid: message too large')],
  ];
  for (const [text] of cases) raw.ws.send(text);
  const answers = await raw.take(cases.length);
  cases.forEach(([text, ok], i) => assert.ok(ok(answers[i]), `answer to ${text.slice(0, 60)}: ${JSON.stringify(answers[i])}`));

  // 10,000 subscriptions on one connection: 200 open (EOSE), every other one CLOSED with a prefix.
  for (let i = 0; i < 10000; i++) raw.ws.send(`["REQ","s${i}",{"kinds":[1],"limit":0}]`);
  const subs = await raw.take(10000, 60000);
  const eose = subs.filter((m) => m[0] === 'EOSE').length;
  const closed = subs.filter((m) => m[0] === 'CLOSED' && /^(blocked|rate-limited): /.test(m[2])).length;
  assert.equal(eose, 200);
  assert.equal(eose + closed, 10000);

  // A flood of signed EVENTs from one connection (a fresh one: the 200 subscriptions above would
  // receive the accepted ones): the burst is accepted, the rest rate-limited.
  raw.ws.close();
  const flooder = await Raw.open(url);
  const flood = [];
  for (let i = 0; i < 400; i++) flood.push(finalizeEvent({ kind: 1, created_at: now(), tags: [['t', 'flood']], content: `flood ${i}` }, sk));
  for (const e of flood) flooder.ws.send(JSON.stringify(['EVENT', e]));
  const oks = await flooder.take(flood.length, 60000);
  const accepted = oks.filter((m) => m[0] === 'OK' && m[2] === true).map((m) => m[1]);
  const limited = oks.filter((m) => m[0] === 'OK' && m[2] === false && m[3].startsWith('rate-limited: ')).map((m) => m[1]);
  assert.equal(accepted.length + limited.length, flood.length,
    'answers: ' + JSON.stringify([...new Set(oks.map((m) => m[0] + ' ' + m[2] + ' ' + String(m[3]).slice(0, 30)))]));
  assert.ok(limited.length > 0, 'some of the flood is rate-limited');

  // Nothing refused was stored: ask for everything that was sent.
  const storedFlood = await query(bystander, [{ '#t': ['flood'], limit: 500 }]);
  assert.deepEqual(storedFlood.map((e) => e.id).sort(), [...accepted].sort());
  const storedBad = await query(bystander, [{ ids: [good.id] }]);
  assert.equal(storedBad.length, 0);

  // Over twice max-message-bytes the WebSocket layer closes the connection with 1009.
  const big = await Raw.open(url);
  big.ws.send('["EVENT",' + JSON.stringify({ ...good, content: 'y'.repeat(200000) }) + ']');
  await until(() => big.closed !== null, 'the 1009 close');
  assert.equal(big.closed, 1009);

  running = false;
  await watching;
  flooder.ws.close();
  bystander.close();
  assert.ok(answered > 0, 'the bystander was answered');
  return { worstBystanderMs: worstMs, bystanderAnswers: answered, floodAccepted: accepted.length, floodLimited: limited.length };
}

const scenarios = { basic, oracle, auth, nip11, 'bad-input': badInput };

try {
  if (!scenarios[scenario]) throw new Error('unknown scenario ' + scenario);
  const result = await scenarios[scenario]();
  process.stdout.write(JSON.stringify({ ok: true, ...result }) + '\n');
  process.exit(0);
} catch (err) {
  process.stdout.write(JSON.stringify({ ok: false, error: String(err && err.stack || err) }) + '\n');
  process.exit(1);
}
