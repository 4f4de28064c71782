# Ratios of the five alternating invocations in this directory: python3 ratios.py . (prints the tables of ../SUMMARY.md)
import json, glob, math, statistics as st, sys
files = sorted(glob.glob(sys.argv[1] + "/echo-*.json"))
rows = []
for f in files:
    d = json.load(open(f))
    lat = {(r["server"], r["case"]): r for r in d["latency"]}
    cases = sorted({c for (_, c) in lat})
    out = {"file": f.split("/")[-1], "load": d["loadAverageBefore"] + " → " + d["loadAverageAfter"]}
    for o in ("netty", "jetty"):
        out["p50_" + o] = math.exp(st.mean(math.log(lat[("tern", c)]["p50Us"] / lat[(o, c)]["p50Us"]) for c in cases))
        out["mean_" + o] = math.exp(st.mean(math.log(lat[("tern", c)]["meanUs"] / lat[(o, c)]["meanUs"]) for c in cases))
        out["p99_" + o] = math.exp(st.mean(math.log(lat[("tern", c)]["p99Us"] / lat[(o, c)]["p99Us"]) for c in cases))
    tp = d["throughput"]
    med = lambda s, k: st.median(r[k] for r in tp if r["server"] == s)
    for s in ("tern", "netty", "jetty"):
        out["mps_" + s] = med(s, "messagesPerSecond"); out["mpc_" + s] = med(s, "messagesPerCpuSecond")
    for o in ("netty", "jetty"):
        out["tp_" + o] = out["mps_tern"] / out["mps_" + o]; out["eff_" + o] = out["mpc_tern"] / out["mpc_" + o]
    # per case p50 per server
    out["p50"] = {c: {s: lat[(s, c)]["p50Us"] for s in ("tern", "netty", "jetty")} for c in cases}
    rows.append(out)
print("| invocation | load average before → after | p50 tern÷netty | p50 tern÷jetty | mean tern÷netty | mean tern÷jetty | p99 tern÷netty | p99 tern÷jetty | msg/s tern÷netty | msg/s tern÷jetty | msg/CPU-s tern÷netty | msg/CPU-s tern÷jetty |")
print("|---|---|" + "---|" * 10)
keys = ["p50_netty","p50_jetty","mean_netty","mean_jetty","p99_netty","p99_jetty","tp_netty","tp_jetty","eff_netty","eff_jetty"]
for r in rows:
    print("| " + r["file"] + " | " + r["load"] + " | " + " | ".join("%.2f" % r[k] for k in keys) + " |")
print("| **median of invocations** | | " + " | ".join("**%.2f**" % st.median(r[k] for r in rows) for k in keys) + " |")
print()
print("| invocation | tern msg/s | netty msg/s | jetty msg/s | tern msg/CPU-s | netty msg/CPU-s | jetty msg/CPU-s |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    print("| %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f |" % (r["file"], r["mps_tern"], r["mps_netty"], r["mps_jetty"], r["mpc_tern"], r["mpc_netty"], r["mpc_jetty"]))
print()
cases = sorted(rows[0]["p50"])
print("| case | tern p50 µs | netty p50 µs | jetty p50 µs | tern÷netty | tern÷jetty |")
print("|---|---|---|---|---|---|")
for c in cases:
    t = st.median(r["p50"][c]["tern"] for r in rows); n = st.median(r["p50"][c]["netty"] for r in rows); j = st.median(r["p50"][c]["jetty"] for r in rows)
    print("| %s | %.1f | %.1f | %.1f | %.2f | %.2f |" % (c, t, n, j, t / n, t / j))
