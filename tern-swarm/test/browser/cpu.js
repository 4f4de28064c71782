// Page CPU and latency with the swarm against plain hls.js over HTTP, in headless Chromium: four
// pages of the stand-in origin's stream, the two modes alternating, `repeats` runs of each. Not a
// test (timings depend on the machine): `node test/browser/cpu.js [repeats]` prints one JSON line
// per run and the medians. Counted from the moment every page has played 3 s to the end of the
// run: CPU of the whole Chromium process tree (/proc) and of each page's main thread (CDP
// TaskDuration), and hls.js's latency estimate (live edge to playhead).
import { playPages, removeMedia } from './pages.js';

const repeats = Number(process.argv[2] ?? 3);
if (!(repeats >= 1 && repeats <= 20)) throw new Error(`repeats must be 1..20: ${process.argv[2]}`);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const runs = { http: [], swarm: [] };
try {
  for (let r = 0; r < repeats; r++) {
    for (const mode of r % 2 === 0 ? ['http', 'swarm'] : ['swarm', 'http']) {
      const query = mode === 'http' ? '?swarm=0' : '';
      const states = await playPages({ queries: [query, query, query, query], playSeconds: 14 });
      const { wallSeconds, treeSeconds, pageTaskSeconds } = states.cpu;
      const run = {
        mode,
        wallSeconds,
        treeCpuPerSecond: treeSeconds / wallSeconds,
        pageTaskPerSecond: pageTaskSeconds.reduce((a, b) => a + b, 0) / pageTaskSeconds.length / wallSeconds,
        stalls: states.map((s) => s.stalls),
        offload: states.steady?.offload ?? 0,
        latencySeconds: states.latency?.median ?? NaN,
      };
      runs[mode].push(run);
      console.log(JSON.stringify(run));
    }
  }
} finally {
  removeMedia();
}
const summary = {};
for (const key of ['treeCpuPerSecond', 'pageTaskPerSecond', 'latencySeconds']) {
  const http = median(runs.http.map((r) => r[key]));
  const swarm = median(runs.swarm.map((r) => r[key]));
  summary[key] = { http, swarm, ratio: swarm / http, difference: swarm - http };
}
console.log(JSON.stringify({ repeats, summary }));
