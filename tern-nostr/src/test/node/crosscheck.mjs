// nostr-tools as an oracle for tern-nostr (NostrToolsCrossCheckTest).
//   node crosscheck.mjs verify     < events.jsonl   -> one {"id":..., "valid":...} per line
//   node crosscheck.mjs generate N                  -> N signed events, one per line
import { createInterface } from 'node:readline';
import { finalizeEvent, generateSecretKey, getEventHash, verifyEvent } from 'nostr-tools/pure';

const mode = process.argv[2];

if (mode === 'verify') {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line) continue;
    const event = JSON.parse(line);
    const id = getEventHash(event);
    process.stdout.write(JSON.stringify({ id, valid: verifyEvent(event) }) + '\n');
  }
} else if (mode === 'generate') {
  const n = Number(process.argv[3] ?? '100');
  // Deterministic content, but covering every character class the escaper treats apart.
  let seed = 12345;
  const rand = (k) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % k; };
  const pieces = ['\n', '\r', '\t', '\b', '\f', '"', '\\', '/', '\u0000', '\u0001', '\u001f', '\u007f',
    '\u2028', '\u2029', 'é', '中', '\u{1F985}', '\uD800', '\uDFFF', ' ', 'a', '<', '&'];
  const text = () => { let s = ''; for (let i = rand(12); i > 0; i--) s += pieces[rand(pieces.length)]; return s; };
  for (let i = 0; i < n; i++) {
    const tags = [];
    for (let t = rand(4); t > 0; t--) tags.push([['t', 'e', 'p', 'd', 'x'][rand(5)], text(), ...(rand(2) ? [text()] : [])]);
    const template = {
      kind: [0, 1, 7, 1059, 10002, 25050, 30023][rand(7)],
      created_at: 1700000000 + rand(100000),
      tags,
      content: text(),
    };
    process.stdout.write(JSON.stringify(finalizeEvent(template, generateSecretKey())) + '\n');
  }
} else {
  console.error('usage: crosscheck.mjs verify|generate N');
  process.exit(2);
}
