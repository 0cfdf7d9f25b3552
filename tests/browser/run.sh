#!/usr/bin/env bash
# Tests ransom's web page in a real headless browser (Debian's chromium,
# driven by playwright-core): starts `ransom serve` on a free loopback port,
# runs page.test.mjs against it and writes target/browser/hostage-mate.png
# (and -explorer.png, -phone.png). The server reads a store made here:
# 1.e4 proved, and a search of 1.b4 stopped with its checkpoint.
# Usage (from anywhere): bash tests/browser/run.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

if ! command -v chromium >/dev/null; then
  echo "installing Debian's chromium (needs root)" >&2
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if ! command -v node >/dev/null; then
  echo "node is needed (Node.js 18 or newer)" >&2
  exit 1
fi
(cd "$here" && npm ci --no-audit --no-fund --silent)
(cd "$root" && cargo build --release --quiet)

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
out="$root/target/browser"
mkdir -p "$out"
proofs="$(mktemp -d)"
store="$proofs/store"
"$root/target/release/ransom" prove e4 --store "$store" --no-tablebases --no-write --quiet >/dev/null
# Stopped at its budget: the checkpoint stays for the explorer to show.
"$root/target/release/ransom" prove b4 --store "$store" --no-tablebases --no-write --quiet \
  --max-nodes 300000 --leaf-nodes 20000 >/dev/null || true
"$root/target/release/ransom" serve --bind "127.0.0.1:$port" \
  --tablebases "$root/tablebases" --puzzles "$root/puzzles" --proofs "$proofs" \
  --store "$store" >"$out/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$proofs"' EXIT
up=0
for _ in $(seq 100); do
  if curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1; then up=1; break; fi
  sleep 0.1
done
if [ "$up" != 1 ]; then
  echo "the server did not start; its log:" >&2
  cat "$out/serve.log" >&2
  exit 1
fi
node "$here/page.test.mjs" "http://127.0.0.1:$port/" "$out/hostage-mate.png"
