#!/usr/bin/env python3
"""Per-viewer figures of the muxed-vs-separate runs, normalised per second of media delivered.

The machine was saturated during these runs (load ~19 on 2 CPUs): the ffmpeg publisher ran at
17-47 % of real time (edge_media_seconds_per_second), so per wall second figures measure the
publisher. Media-bound requests (segments, parts, and the blocking reloads that wait for them)
scale with the edge; plain classic reloads run on the viewer's wall-clock timer. Usage:
bench/results/origin-muxed/normalize.py bench/results/origin-muxed/r*.jsonl
"""
import json
import statistics
import sys

rows = []
for path in sys.argv[1:]:
    for line in open(path):
        d = json.loads(line)
        media_s = d["measured_seconds"] * d["edge_media_seconds_per_second"]
        v = d["viewers"]
        media_requests = sum(d.get(k + "_requests", 0) or 0 for k in ("segment", "part", "hinted_part", "blocking_playlist"))
        rows.append({
            "file": path.rsplit("/", 1)[-1],
            "mode": d["mode"],
            "renditions": "muxed" if "muxed" in path.rsplit("/", 1)[-1] else "separate",
            "rendition_count": d["renditions"],
            "edge": d["edge_media_seconds_per_second"],
            "req_per_viewer_media_s": d["requests"] / v / media_s,
            "media_req_per_viewer_media_s": media_requests / v / media_s,
            "cpu_us_per_viewer_media_s": d["server_cpu_seconds"] * 1e6 / v / media_s,
            "cpu_us_per_request": d["server_cpu_us_per_request"],
            "rss_peak_mib": d["server_rss_peak_bytes"] / 2**20,
            "errors": d["errors"],
        })

print("| run | mode | renditions | edge (media s/s) | requests / viewer / media s | media requests / viewer / media s | server CPU µs / viewer / media s | CPU µs / request | peak RSS MiB | errors |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    print(f"| {r['file']} | {r['mode']} | {r['renditions']} | {r['edge']:.3f} | {r['req_per_viewer_media_s']:.2f} | {r['media_req_per_viewer_media_s']:.2f} | {r['cpu_us_per_viewer_media_s']:.0f} | {r['cpu_us_per_request']:.0f} | {r['rss_peak_mib']:.1f} | {r['errors']} |")
print()
print("| mode | muxed / separate: requests per viewer | media requests per viewer | CPU per viewer | CPU per request |")
print("|---|---|---|---|---|")
for mode in ("classic", "ll"):
    def med(ren, key):
        vals = [r[key] for r in rows if r["mode"] == mode and r["renditions"] == ren]
        return statistics.median(vals) if vals else float("nan")
    ratios = [med("muxed", k) / med("separate", k) for k in ("req_per_viewer_media_s", "media_req_per_viewer_media_s", "cpu_us_per_viewer_media_s", "cpu_us_per_request")]
    print(f"| {mode} | " + " | ".join(f"{x:.2f}" for x in ratios) + " |")
