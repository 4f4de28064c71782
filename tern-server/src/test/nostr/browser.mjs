#!/usr/bin/env node
// Two pages in Debian's headless Chromium (driven by playwright-core) exchange a WebRTC-style offer
// and answer as ephemeral events through a Tern relay, with nostr-tools bundled by esbuild at test
// time (never committed), as the peer-assisted delivery's rendezvous will.
//
// usage: node browser.mjs <ws-url> [<ws-url-of-the-offering-page>]
//   with a second URL the two pages meet through two relays (two nodes of one fleet).
// prints one JSON line: {"ok": true, "offer": id, "answer": id, "browser": "..."} or {"ok": false, "error": ...}
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const CHROMIUM = process.env.TERN_CHROMIUM || '/usr/bin/chromium';
// The flags every Tern browser test uses (playwright adds --headless and --user-data-dir).
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const url = process.argv[2];
const offererUrl = process.argv[3] || url;

async function bundle(dir) {
  const entry = path.join(dir, 'entry.mjs');
  fs.writeFileSync(entry, `
    import { SimplePool } from 'nostr-tools/pool';
    import { finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } from 'nostr-tools/pure';
    window.NostrTools = { SimplePool, finalizeEvent, generateSecretKey, getPublicKey, verifyEvent };
  `);
  const out = path.join(dir, 'nostr-tools.js');
  await esbuild.build({
    entryPoints: [entry], bundle: true, format: 'iife', outfile: out, logLevel: 'silent',
    nodePaths: [path.join(here, 'node_modules')],
  });
  return out;
}

/** In the page: join the room, then answer the first offer (answerer) or send one and await the answer. */
async function rendezvous({ relay, room, role }) {
  const { SimplePool, finalizeEvent, generateSecretKey, getPublicKey, verifyEvent } = window.NostrTools;
  const sk = generateSecretKey();
  const me = getPublicKey(sk);
  const pool = new SimplePool();
  const send = (type, tags, content) => Promise.any(pool.publish([relay], finalizeEvent({
    kind: 21000, created_at: Math.floor(Date.now() / 1000), tags: [['r', room], ['type', type], ...tags], content,
  }, sk)));
  return new Promise((resolve, reject) => {
    setTimeout(() => reject(new Error(role + ': no rendezvous in 15 s')), 15000);
    const sub = pool.subscribe([relay], { kinds: [21000], '#r': [room], limit: 0 }, {
      oneose: async () => {
        window.ternJoined = true;
        if (role === 'offerer') {
          const offer = await send('offer', [], JSON.stringify({ type: 'offer', sdp: 'v=0 offer from ' + me }));
          window.ternSent = offer;
        }
      },
      onevent: async (event) => {
        if (!verifyEvent(event) || event.pubkey === me) return;
        const type = event.tags.find((t) => t[0] === 'type')[1];
        if (role === 'answerer' && type === 'offer') {
          await send('answer', [['e', event.id], ['p', event.pubkey]], JSON.stringify({ type: 'answer', sdp: 'v=0 answer' }));
          sub.close();
          resolve({ offer: event.id, from: event.pubkey });
        } else if (role === 'offerer' && type === 'answer' && event.tags.some((t) => t[0] === 'p' && t[1] === me)) {
          sub.close();
          resolve({ answer: event.id, to: event.tags.find((t) => t[0] === 'e')[1], content: JSON.parse(event.content) });
        }
      },
    });
  });
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-nostr-browser-'));
  const context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
    executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 30000,
  });
  try {
    const script = await bundle(dir);
    const room = 'room-' + Math.random().toString(36).slice(2);
    const pages = [context.pages()[0] || await context.newPage(), await context.newPage()];
    for (const page of pages) {
      await page.setContent('<!doctype html><title>tern rendezvous</title>');
      await page.addScriptTag({ path: script });
    }
    const answering = pages[0].evaluate(rendezvous, { relay: url, room, role: 'answerer' });
    await pages[0].waitForFunction(() => window.ternJoined === true, null, { timeout: 15000 });
    const offering = pages[1].evaluate(rendezvous, { relay: offererUrl, room, role: 'offerer' });
    const [answerer, offerer] = await Promise.all([answering, offering]);
    if (offerer.to !== answerer.offer) throw new Error('the answer names another offer');
    if (offerer.content.type !== 'answer') throw new Error('not an answer: ' + JSON.stringify(offerer.content));
    const out = { ok: true, offer: answerer.offer, answer: offerer.answer, browser: context.browser() ? context.browser().version() : 'chromium' };
    process.stdout.write(JSON.stringify(out) + '\n');
  } finally {
    await context.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(() => process.exit(0), (err) => {
  process.stdout.write(JSON.stringify({ ok: false, error: String(err && err.stack || err) }) + '\n');
  process.exit(1);
});
