#!/usr/bin/env bash
# What the request log costs `ransom serve`: the server's CPU time per
# request (user + system, from /proc) under wrk, with the log off
# (RUST_LOG=off), as text, and as JSON lines (--log-format json), the modes
# interleaved over several rounds; prints the median of each mode.
# CPU per request is steadier than requests/s on a shared machine; the
# server runs on core 0 and wrk on core 1 (taskset).
#
#   bash tests/load/log_cost.sh [ROUNDS] [SECONDS] [PATH]
#
# Needs wrk (apt-get install wrk) and a release build (cargo build --release).
set -euo pipefail
rounds=${1:-5}
seconds=${2:-4}
path=${3:-/health}
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=$root/target/release/ransom
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
[ -x "$bin" ] || { echo "$bin is missing: cargo build --release" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))

run() { # mode -> "cpu_us_per_request requests_per_s"
  local mode=$1 filter="" format=text
  case $mode in off) filter=off ;; json) format=json ;; esac
  RUST_LOG=$filter taskset -c 0 "$bin" serve --bind "127.0.0.1:$port" \
    --tablebases "$root/tablebases" --proofs "$work/proofs" --puzzles "$work/none" \
    --log-format "$format" 2>"$work/log-$mode" &
  local pid=$!
  for _ in $(seq 50); do
    curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    sleep 0.1
  done
  local t0 t1 out
  t0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  out=$(taskset -c 1 wrk -t1 -c8 -d"${seconds}s" "http://127.0.0.1:$port$path")
  t1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  local n rps ticks
  n=$(awk '/requests in/ {print $1}' <<<"$out")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  ticks=$(getconf CLK_TCK)
  awk -v a="$t0" -v b="$t1" -v n="$n" -v t="$ticks" -v r="$rps" \
    'BEGIN { printf "%.1f %.0f\n", (b - a) / t * 1e6 / n, r }'
}

declare -A cpu rate
for round in $(seq "$rounds"); do
  for mode in off text json; do
    read -r c r < <(run "$mode")
    cpu[$mode]+="$c "
    rate[$mode]+="$r "
    echo "round $round $mode: ${c} µs CPU per request, ${r} requests/s" >&2
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
echo "path $path, $rounds rounds of ${seconds} s (median):"
for mode in off text json; do
  printf '  %-4s %6s µs CPU per request  %7s requests/s\n' "$mode" \
    "$(median <<<"${cpu[$mode]}")" "$(median <<<"${rate[$mode]}")"
done
