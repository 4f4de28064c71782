// Parses each playlist file named on the command line with hls-parser in strict mode (any
// violation it knows of throws) and prints one JSON line per file: a summary, or the error.
'use strict';
const fs = require('fs');
const HLS = require('hls-parser');

HLS.setOptions({strictMode: true});

for (const file of process.argv.slice(2)) {
  try {
    const p = HLS.parse(fs.readFileSync(file, 'utf8'));
    const out = {file, ok: true, master: p.isMasterPlaylist, version: p.version ?? null};
    if (p.isMasterPlaylist) {
      out.variants = p.variants.map(v => ({
        uri: v.uri, bandwidth: v.bandwidth, averageBandwidth: v.averageBandwidth ?? null,
        codecs: v.codecs, resolution: v.resolution ?? null, frameRate: v.frameRate ?? null,
        audio: v.audio.map(a => ({groupId: a.groupId, uri: a.uri ?? null, channels: a.channels ?? null})),
      }));
    } else {
      out.targetDuration = p.targetDuration;
      out.mediaSequence = p.mediaSequenceBase ?? 0;
      out.discontinuitySequence = p.discontinuitySequenceBase ?? 0;
      out.endlist = p.endlist;
      out.skip = p.skip;
      out.partTarget = p.partTargetDuration ?? null;
      out.lowLatency = p.lowLatencyCompatibility ?? null;
      out.segments = p.segments.filter(s => s.uri).length;
      out.parts = p.segments.reduce((n, s) => n + s.parts.filter(x => !x.hint).length, 0);
      out.hints = p.segments.reduce((n, s) => n + s.parts.filter(x => x.hint).length, 0);
      out.discontinuities = p.segments.filter(s => s.discontinuity).length;
      out.programDateTimes = p.segments.filter(s => s.programDateTime).length;
      out.dateRanges = p.dateRanges.length;
      out.renditionReports = p.renditionReports.map(r => ({uri: r.uri, lastMSN: r.lastMSN, lastPart: r.lastPart}));
    }
    console.log(JSON.stringify(out));
  } catch (e) {
    console.log(JSON.stringify({file, ok: false, error: String(e && e.message || e)}));
  }
}
