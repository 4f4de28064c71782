#!/usr/bin/env bash
# JMH, SharedBodyServingBenchmark with -prof gc: one buffer against a composite of views of 6 and 30 chunks.
set -euo pipefail
branch_root="$1"
raw="$branch_root/bench/results/origin/2026-12-02-media-offheap-raw"
cat /proc/loadavg > "$raw/jmh-load-before.txt"
"$JAVA_HOME/bin/java" -jar "$branch_root/tern-bench/target/tern-bench-jmh.jar" SharedBodyServingBenchmark \
  -p bodyBytes=65536,1048576 -p protocol=http1 -p chunks=1,6,30 -prof gc -rf json -rff "$raw/jmh-shared-body-chunks.json" \
  > "$raw/jmh-shared-body-chunks.txt" 2>&1
cat /proc/loadavg > "$raw/jmh-load-after.txt"
