#!/usr/bin/env node
// Opens one page in Debian's headless Chromium (driven by playwright-core) and prints what the
// page reports, plus how Chromium fetched the page and each resource.
//
// usage: node browser-page.js '<json>'
//   json: {"url": "https://127.0.0.1:8443/", "result": "window.ternResult",
//          "timeoutMs": 20000, "ignoreCertificateErrors": true,
//          "viewport": {"width": 960, "height": 900}, "screenshot": "/tmp/page.png"}
//   "screenshot", when given, is where the page is saved as a PNG once the result is set.
//   "result" is a JavaScript expression the page sets when it is done; the script waits until it
//   is neither undefined nor null.
// prints one JSON line: {"ok": true|false, "result": ..., "navigation": {"protocol": "h2", ...},
//   "resources": [{"name": url, "protocol": "h2", "status": 200}], "browser": "..."}
'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CHROMIUM = process.env.TERN_CHROMIUM || '/usr/bin/chromium';
// The flags every Tern browser test uses (playwright adds --headless and --user-data-dir).
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function main() {
  const opts = JSON.parse(process.argv[2] || '{}');
  if (!opts.url) throw new Error('missing option url');
  const timeoutMs = opts.timeoutMs || 20000;
  const { chromium } = require('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-chromium-'));
  const args = [...FLAGS, ...(opts.ignoreCertificateErrors ? ['--ignore-certificate-errors'] : [])];
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args, timeout: timeoutMs,
    ignoreHTTPSErrors: !!opts.ignoreCertificateErrors,
    ...(opts.viewport ? { viewport: opts.viewport } : {}),
  });
  const statuses = {};
  try {
    const page = context.pages()[0] || await context.newPage();
    page.on('response', (r) => { statuses[r.url()] = r.status(); });
    const consoleLines = [];
    page.on('console', (m) => consoleLines.push(m.text()));
    await page.goto(opts.url, { timeout: timeoutMs, waitUntil: 'load' });
    let result = null;
    if (opts.result) {
      await page.waitForFunction((e) => { const v = eval(e); return v !== undefined && v !== null; },
        opts.result, { timeout: timeoutMs });
      result = await page.evaluate((e) => eval(e), opts.result);
    }
    if (opts.screenshot) await page.screenshot({ path: opts.screenshot });
    const timing = await page.evaluate(() => ({
      navigation: performance.getEntriesByType('navigation').map((e) => ({ name: e.name, protocol: e.nextHopProtocol }))[0],
      resources: performance.getEntriesByType('resource').map((e) => ({ name: e.name, protocol: e.nextHopProtocol })),
    }));
    for (const r of timing.resources) r.status = statuses[r.name];
    const out = {
      ok: true, result, navigation: timing.navigation, resources: timing.resources,
      console: consoleLines, browser: context.browser() ? context.browser().version() : await page.evaluate(() => navigator.userAgent),
    };
    process.stdout.write(JSON.stringify(out) + '\n');
    return 0;
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

main().then((code) => process.exit(code), (err) => {
  process.stdout.write(JSON.stringify({ ok: false, error: String(err && err.stack || err) }) + '\n');
  process.exit(1);
});
