# Medians and ratios of the connected-sockets session: python3 THIS bench/results/2026-12-02-connected-c*.jsonl
# (tern = --udp-connected-clients off, tern-connected = on; CPU split into kernel (stime) and user parts).
import json, sys, statistics as st, glob, collections
rows = []
for f in sys.argv[1:]:
    for line in open(f):
        line = line.strip()
        if line:
            r = json.loads(line)
            if r.get('transport', 'udp') == 'udp':
                rows.append(r)
cells = collections.defaultdict(lambda: collections.defaultdict(list))
for r in rows:
    key = (r['clients'], r['payload_bytes'], r['relay_threads'])
    cells[key][r['server']].append(r)
def med(rs, f): return st.median(f(r) for r in rs)
def m(rs):
    pk = lambda r: r['delivered_forwarded_packets']
    return dict(
        pps=med(rs, lambda r: r['packets_per_second']),
        p99=med(rs, lambda r: r['round_trip_p99_us']),
        cpu=med(rs, lambda r: r['server_cpu_seconds'] / pk(r) * 1e6),
        ker=med(rs, lambda r: r['server_system_cpu_seconds'] / pk(r) * 1e6),
        usr=med(rs, lambda r: (r['server_cpu_seconds'] - r['server_system_cpu_seconds']) / pk(r) * 1e6),
        socks=med(rs, lambda r: r['loaded_udp_sockets']),
        sat=sum(1 for r in rs if r.get('generator_saturated')),
        loss=sum(r['loss_or_corruption'] for r in rs), n=len(rs))
print("| cell | server | runs | packets/s | p99 µs | CPU µs/pkt | kernel µs/pkt | user µs/pkt | UDP sockets | sat | loss |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
M = {}
for key in sorted(cells):
    for s in ['tern', 'tern-connected', 'minifwd', 'coturn']:
        if s in cells[key]:
            x = m(cells[key][s]); M[(key, s)] = x
            print(f"| c={key[0]} p={key[1]} rt={key[2]} | {s} | {x['n']} | {x['pps']:.0f} | {x['p99']:.0f} | {x['cpu']:.2f} | {x['ker']:.2f} | {x['usr']:.2f} | {x['socks']:.0f} | {x['sat']} | {x['loss']} |")
print()
print("| cell | on/off pkt/s | on/off CPU | on/off kernel | on/off user | on/off p99 | off/minifwd CPU | on/minifwd CPU | off/coturn CPU | on/coturn CPU | off/coturn p99 | on/coturn p99 | off/coturn pkt/s | on/coturn pkt/s |")
print("|---|" + "---:|" * 14)
for key in sorted(cells):
    g = lambda s: M.get((key, s))
    off, on, fw, co = g('tern'), g('tern-connected'), g('minifwd'), g('coturn')
    if not (off and on): continue
    r = lambda a, b, f: f"{a[f]/b[f]:.2f}" if a and b else "–"
    print(f"| c={key[0]} p={key[1]} rt={key[2]} | {r(on,off,'pps')} | {r(on,off,'cpu')} | {r(on,off,'ker')} | {r(on,off,'usr')} | {r(on,off,'p99')} | {r(off,fw,'cpu')} | {r(on,fw,'cpu')} | {r(off,co,'cpu')} | {r(on,co,'cpu')} | {r(off,co,'p99')} | {r(on,co,'p99')} | {r(off,co,'pps')} | {r(on,co,'pps')} |")
