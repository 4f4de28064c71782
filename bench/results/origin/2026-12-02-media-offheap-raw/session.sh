#!/usr/bin/env bash
# One locked session (flock /work/helpers/bench.lock): main and this branch alternating, a fresh
# server each run, the branch's runner and generator for both (main differs from the branch's
# base only in tern-bench). Usage: session.sh MAIN_ROOT BRANCH_ROOT RUN...
# RUN is NAME:TREE:CELL[:XMX] with TREE main|branch, CELL ll|c4000.
set -euo pipefail
main_root="$1"; branch_root="$2"; shift 2
raw="$branch_root/bench/results/origin/2026-12-02-media-offheap-raw"
for spec in "$@"; do
  IFS=: read -r name tree cell xmx <<<"$spec"
  root="$main_root"; [[ "$tree" == branch ]] && root="$branch_root"
  dir="$raw/$name"; mkdir -p "$dir"
  opts="-Xlog:gc:file=$dir/gc-%p.log"
  [[ -n "${xmx:-}" ]] && opts="$opts -Xmx$xmx"
  case "$cell" in
    ll) cellargs=(--modes ll --measure-seconds 150) ;;
    c4000) cellargs=(--modes classic --viewers 4000 --measure-seconds 30) ;;
  esac
  cat /proc/loadavg > "$dir/load-before.txt"
  echo "== $name ($tree, $cell, TERN_JAVA_OPTS=$opts) load $(cat /proc/loadavg)"
  TERN_JAVA_OPTS="$opts" timeout 900 "$branch_root/bench/origin/run" --no-build --quick --servers tern \
    "${cellargs[@]}" --no-tern-snapshot --tern-command "$root/tern origin" --out "$dir" --name "media-offheap-$name" > "$dir/runner.log" 2>&1 || echo "run $name failed: $?"
  cat /proc/loadavg > "$dir/load-after.txt"
  tail -3 "$dir/runner.log"
done
