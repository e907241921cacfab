#!/usr/bin/env bash
# Hostile clients against `uniqcheck serve`, on loopback only, bounded in clients and time (about
# two minutes in all, the big posts' retries included): slow readers, reconnecting slowloris
# clients, 24 concurrent 8 MB posts and a CLI `index` into the served store, with a health
# probe every second. The figures in docs/SERVER.md ("Load and faults") come from this script.
# Usage: server/benches/hostile.sh [--seconds N] [--spread] [--only PHASE] [--bin PATH]
#   --spread: attackers come from 127.0.0.2-127.0.0.17 instead of the probe's own 127.0.0.1
#   --bin: another uniqcheck binary to attack (e.g. an older build, for a before/after)
# Linux only (peak memory is read from /proc). Needs `ulimit -n` above about 1,300.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt 1300 ]; then
  ulimit -n 4096 2>/dev/null || { echo "raise ulimit -n to at least 1300" >&2; exit 1; }
fi
cargo build --release -p uniqcheck-cli --bin uniqcheck --example hostile --quiet
exec timeout 600 ./target/release/examples/hostile "$@"
