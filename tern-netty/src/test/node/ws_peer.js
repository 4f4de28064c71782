// Node ws peer for tern-websocket interop tests.
//   node ws_peer.js server [--compression]      echo server on 127.0.0.1, prints "PORT <n>"
//   node ws_peer.js client URL [--compression]  exchanges messages with an echo server, prints "OK <extensions>"
'use strict';
const crypto = require('crypto');
const WebSocket = require('ws');

const compression = process.argv.includes('--compression');
// threshold 0: compress every message, so small ones exercise the extension too.
const perMessageDeflate = compression ? { threshold: 0 } : false;

if (process.argv[2] === 'server') {
  const server = new WebSocket.Server({ host: '127.0.0.1', port: 0, perMessageDeflate, maxPayload: 64 << 20 });
  server.on('listening', () => console.log('PORT ' + server.address().port));
  server.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
  process.stdin.on('end', () => process.exit(0));
  process.stdin.resume();
} else {
  const ws = new WebSocket(process.argv[3], { perMessageDeflate, maxPayload: 64 << 20 });
  const text = 'Grüße, κόσμε, 日本 '.repeat(1000);
  const messages = [['hello', false], ['', false], [text, false], [Buffer.from([0, 1, 254, 255]), true],
    [crypto.randomBytes(1 << 20), true]];
  let index = 0;
  const fail = (why) => { console.error(why); process.exit(1); };
  const sendNext = () => {
    const [payload, binary] = messages[index];
    ws.send(payload, { binary });
  };
  ws.on('open', sendNext);
  ws.on('message', (data, isBinary) => {
    const [payload, binary] = messages[index];
    const expected = Buffer.isBuffer(payload) ? payload : Buffer.from(payload, 'utf8');
    if (isBinary !== binary || !expected.equals(data)) fail('mismatch at message ' + index);
    index++;
    if (index < messages.length) sendNext(); else ws.close(1000, 'done');
  });
  ws.on('close', (code) => {
    if (code !== 1000 || index !== messages.length) fail('closed with ' + code + ' after ' + index);
    console.log('OK ' + (ws.extensions || 'none'));
    process.exit(0);
  });
  ws.on('error', (e) => fail(String(e)));
}
