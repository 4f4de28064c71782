#!/usr/bin/env bash
# The locked session behind 2026-12-02-levers-tcp.md (run as: flock /work/helpers/bench.lock THIS).
# before = frozen copy of the e0db43c relay build, after = this branch, after2 = after plus the
# temporary -Dtern.relay.flushEvery=N hooks (not on the branch); each is tern + tern-server.jar + lib/.
# One locked session, in order of priority (later steps may be cut by the deadline).
set -u
cd /work/wt/relaytcp
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
B="/tmp/relaytcp/before/tern turn"; A="/tmp/relaytcp/after/tern turn"; A2="/tmp/relaytcp/after2/tern turn"
echo "session start $(date -u +%T) load $(cat /proc/loadavg)"
ab() { # name-suffix, cell options...
  local tag=$1; shift
  for r in 1 2 3; do
    bench/run "$@" --repeats 1 --no-build --no-tern-snapshot --servers tern,coturn --tern-command "$A" --name 2026-12-02-tcp-$tag-after-r$r > /tmp/relaytcp/run-$tag-after-r$r.log 2>&1
    bench/run "$@" --repeats 1 --no-build --no-tern-snapshot --servers tern --tern-command "$B" --name 2026-12-02-tcp-$tag-before-r$r > /tmp/relaytcp/run-$tag-before-r$r.log 2>&1
    echo "$tag r$r done $(date -u +%T) load $(cat /proc/loadavg)"
  done
}
ab small --transports tcp --clients 1,16 --payloads 1200 --relay-threads 1
for v in before after; do
  cmd=$B; [[ $v == after ]] && cmd=$A
  TRANSPORT=tcp CLIENTS=1 PAYLOAD=1200 bench/syscalls 2026-12-02-tcp-syscalls-c1-p1200-tern-$v tern --no-tern-snapshot --tern-command "$cmd" > /tmp/relaytcp/sc-c1-$v.log 2>&1
done
TRANSPORT=tcp CLIENTS=1 PAYLOAD=1200 bench/syscalls 2026-12-02-tcp-syscalls-c1-p1200-coturn coturn > /tmp/relaytcp/sc-c1-coturn.log 2>&1
echo "syscalls c1 done $(date -u +%T) load $(cat /proc/loadavg)"
"$JAVA_HOME/bin/java" -cp tern-bench/target/tern-bench-jmh.jar io.tern.bench.jmh.JmhMain --md bench/results/jmh/2026-12-02-vm-tcp-udpsockets.md -prof gc -rf json -rff bench/results/jmh/2026-12-02-vm-tcp-udpsockets.json UdpSockets -f 1 -wi 2 -i 3 -w 1 -r 1 > /tmp/relaytcp/jmh.log 2>&1
echo "jmh done $(date -u +%T) load $(cat /proc/loadavg)"
ab c128 --transports tcp --clients 128 --payloads 1200 --relay-threads 1
c1=(--transports tcp --clients 1 --payloads 1200 --relay-threads 1 --repeats 1 --no-build --no-tern-snapshot)
for r in 1 2 3; do
  for n in 1 2; do
    TERN_JAVA_OPTS="-Dtern.relay.flushEvery=$n" bench/run "${c1[@]}" --servers tern,coturn --tern-command "$A2" --name 2026-12-02-tcp-flush$n-c1-r$r > /tmp/relaytcp/run-flush$n-r$r.log 2>&1
  done
  echo "flushEvery r$r done $(date -u +%T) load $(cat /proc/loadavg)"
done
ab tls --transports tls --clients 1,16 --payloads 1200 --relay-threads 1
for v in before after; do
  cmd=$B; [[ $v == after ]] && cmd=$A
  TRANSPORT=tcp CLIENTS=128 PAYLOAD=1200 bench/syscalls 2026-12-02-tcp-syscalls-c128-p1200-tern-$v tern --no-tern-snapshot --tern-command "$cmd" > /tmp/relaytcp/sc-$v.log 2>&1
done
echo "session end $(date -u +%T) load $(cat /proc/loadavg)"
