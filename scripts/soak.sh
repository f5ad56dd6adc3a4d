#!/usr/bin/env bash
# The soak runner: `foe play` and `foe companion` sessions fed
# random and adversarial lines, each then resumed, and random legal play on
# the library with the rules invariants checked after every action, on two
# threads, for SECONDS (default 600). Prints sessions, lines, actions,
# panics, violations and hangs; failing sessions are kept in
# target/soak-failures and replay with `--seed SEED --session N`.
#
#   scripts/soak.sh [SECONDS] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
seed="${2:-14}"
cargo build --quiet --profile soak --example soak
exec target/soak/examples/soak --seconds "$seconds" --seed "$seed"
