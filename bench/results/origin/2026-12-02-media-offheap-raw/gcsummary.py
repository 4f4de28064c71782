#!/usr/bin/env python3
"""Summarises the server's GC log of each run dir: heap after young GCs over time, full GCs, pauses."""
import glob, os, re, sys
line = re.compile(r"\[(\d+\.\d+)s\].*GC\(\d+\) Pause (Young|Full) \(([^)]*)\) (\d+)M->(\d+)M\((\d+)M\) (\d+\.\d+)ms")
for d in sys.argv[1:]:
    logs = sorted(glob.glob(os.path.join(d, "gc-*.log")), key=os.path.getsize)
    if not logs:
        continue
    ev = [(float(m[1]), m[2], int(m[4]), int(m[5]), int(m[6]), float(m[7]))
          for m in map(line.search, open(logs[-1])) if m]
    young = [e for e in ev if e[1] == "Young"]
    full = [e for e in ev if e[1] == "Full"]
    marks = []
    for t in (30, 60, 90, 120, 150, 180):
        before = [e for e in young if e[0] <= t]
        if before and before[-1][0] > t - 30:
            e = before[-1]
            marks.append(f"{e[0]:.0f}s {e[2]}M->{e[3]}M({e[4]}M)")
    pauses = sorted(e[5] for e in young)
    p = lambda q: pauses[min(len(pauses) - 1, int(q * len(pauses)))] if pauses else 0
    print(f"{os.path.basename(d)}: {len(young)} young GCs (p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms), "
          f"{len(full)} full GCs ({sum(e[5] for e in full):.0f} ms); after young GCs: " + "; ".join(marks)
          + (f"; last {young[-1][0]:.0f}s {young[-1][2]}M->{young[-1][3]}M({young[-1][4]}M)" if young else ""))
