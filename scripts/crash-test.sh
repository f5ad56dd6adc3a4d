#!/usr/bin/env bash
# The crash test: kill -9 `foe play guilford` and `foe companion`
# games N times at random moments after an acknowledged line, then check
# that each autosave parses, holds every acknowledged action, resumes, and
# leaves no temporary file once the resumed game has written.
#
#   scripts/crash-test.sh [KILLS] [SEED]      (default 200 kills, seed 1)
#
# Built with the `soak` profile: release speed with overflow checks.
set -euo pipefail
cd "$(dirname "$0")/.."
kills="${1:-200}"
seed="${2:-1}"
cargo build --quiet --profile soak --example crash
exec target/soak/examples/crash --kills "$kills" --seed "$seed"
