#!/usr/bin/env node
// hls-parser as a service for Java tests: one JSON request per stdin line, one JSON answer per
// stdout line, so a test parses many playlists with one Node process.
//   in:  {"id": 1, "text": "#EXTM3U\n..."}
//   out: {"id": 1, "ok": true, "playlist": {...hls-parser's object...}}
//        {"id": 1, "ok": false, "error": "..."}          (hls-parser rejected the playlist)
// Parsing is strict: hls-parser throws on what the spec forbids.
'use strict';

const readline = require('node:readline');
const HLS = require('hls-parser');

HLS.setOptions({ strictMode: true, silent: true });

function plain(value) {
  const seen = new WeakSet();
  return JSON.parse(JSON.stringify(value, (key, v) => {
    if (v && typeof v === 'object') {
      if (seen.has(v)) return undefined;
      seen.add(v);
    }
    return v;
  }));
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on('line', (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (err) {
    process.stdout.write(JSON.stringify({ id: null, ok: false, error: 'bad request line: ' + err }) + '\n');
    return;
  }
  try {
    const playlist = HLS.parse(request.text);
    process.stdout.write(JSON.stringify({ id: request.id, ok: true, playlist: plain(playlist) }) + '\n');
  } catch (err) {
    process.stdout.write(JSON.stringify({ id: request.id, ok: false, error: String(err && err.message || err) }) + '\n');
  }
});
