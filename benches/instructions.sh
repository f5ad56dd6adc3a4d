#!/usr/bin/env bash
# Instructions, not seconds: what the opponent costs, counted by
# cachegrind (`valgrind --tool=cachegrind --cache-sim=no`), so a busy
# machine measures the same as an idle one.
#
#   benches/instructions.sh            instructions per Guilford self-play
#                                      game and per unit-bound
#   benches/instructions.sh growth     and per unit-bound with 50 and 200
#                                      units a side (scripts/gen-armies.sh),
#                                      their ratio and the exponent
#   benches/instructions.sh randomplay instructions per `legal_actions` call
#                                      in random legal play of Guilford
#                                      (callgrind, counting only inside
#                                      `legal_actions`), and per game
#   benches/instructions.sh parts      where a Guilford self-play game's
#                                      instructions go (callgrind): the
#                                      route searches and string pulling,
#                                      the cells units block for them, the
#                                      rules' checks of the opponent's
#                                      moves, reading the map, the rest
#
# Each figure is the difference between two runs of examples/selfplay that
# differ only in the games played (the later games), so loading and the
# first game's one-off work are left out. SELFPLAY=path measures another
# build of the example (a before-and-after comparison); RANDOMPLAY=path
# the same for examples/randomplay.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# built NAME GIVEN: GIVEN if set, else examples/NAME built for release.
built() {
    if [ -n "$2" ]; then
        echo "$2"
        return
    fi
    cargo build --release --quiet --example "$1"
    echo "target/release/examples/$1"
}

if [ "${1:-}" = randomplay ]; then
    RANDOMPLAY=$(built randomplay "${RANDOMPLAY:-}")
    # random GAMES: prints "in-legal-actions total calls" of one run.
    random() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null \
            --toggle-collect='*::legal_actions' \
            "$RANDOMPLAY" guilford "$1" >"$work/out" 2>"$work/err"
        local listing total calls
        listing=$(sed -n 's/.*Collected : *//p' "$work/err" | tr -d ,)
        calls=$(sed -n 's/.* \([0-9]*\) legal_actions calls.*/\1/p' "$work/out")
        valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
            "$RANDOMPLAY" guilford "$1" >"$work/out" 2>"$work/err"
        total=$(sed -n 's/.*I *refs: *//p' "$work/err" | tr -d ,)
        echo "$listing $total $calls"
    }
    read -r -a a <<<"$(random 2)"
    read -r -a b <<<"$(random 12)"
    awk -v l="$((b[0] - a[0]))" -v t="$((b[1] - a[1]))" -v c="$((b[2] - a[2]))" 'BEGIN {
        printf "guilford random legal play: %.1f k instructions a legal_actions call, %.1f k a call all told, %.1f M a game (games 2..12, %d calls)\n", l / c / 1e3, t / c / 1e3, t / 10 / 1e6, c
    }'
    exit 0
fi
SELFPLAY=$(built selfplay "${SELFPLAY:-}")

if [ "${1:-}" = parts ]; then
    # parts GAMES: prints the total and each part's inclusive count.
    parts() {
        valgrind --tool=callgrind --callgrind-out-file="$work/cg" \
            "$SELFPLAY" guilford "$1" >/dev/null 2>"$work/err"
        callgrind_annotate --inclusive=yes --threshold=100 "$work/cg" >"$work/ann" 2>/dev/null
        local total
        total=$(sed -n 's/ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p' "$work/ann" | tr -d ,)
        printf '%s' "$total"
        # The first line naming each function (its inclusive count).
        for name in 'Battlefield>::route_within ' 'UnitMemo::blocked_for ' \
            'awi::act::lawful ' 'Opponent>::read_measuring '; do
            grep -F "$name" "$work/ann" | head -1 | awk '{ gsub(",", "", $1); printf " %s", $1 }'
        done
        echo
    }
    read -r -a a <<<"$(parts 2)"
    read -r -a b <<<"$(parts 22)"
    awk -v t="$((b[0] - a[0]))" -v r="$((b[1] - a[1]))" -v c="$((b[2] - a[2]))" \
        -v l="$((b[3] - a[3]))" -v m="$((b[4] - a[4]))" 'BEGIN {
        g = 20
        printf "guilford self-play, a game (games 3..22): %.2f M instructions\n", t / g / 1e6
        printf "  routes (search, string pulling)      %6.2f M  %3.0f%%\n", r / g / 1e6, 100 * r / t
        printf "  cells units block, for the routes    %6.2f M  %3.0f%%\n", c / g / 1e6, 100 * c / t
        printf "  the rules checking the moves         %6.2f M  %3.0f%%\n", l / g / 1e6, 100 * l / t
        printf "  reading the map                      %6.2f M  %3.0f%%\n", m / g / 1e6, 100 * m / t
        rest = t - r - c - l - m
        printf "  the rest                             %6.2f M  %3.0f%%\n", rest / g / 1e6, 100 * rest / t
    }'
    exit 0
fi
# run SCENARIO GAMES: prints "instructions unit-bounds" of one run.
run() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
        "$SELFPLAY" "$1" "$2" >"$work/out" 2>"$work/err"
    local instructions unit_bounds
    instructions=$(sed -n 's/.*I *refs: *//p' "$work/err" | tr -d ,)
    unit_bounds=$(sed -n 's/.*unit-bounds \([0-9]*\).*/\1/p' "$work/out")
    echo "$instructions $unit_bounds"
}

# measure SCENARIO FROM TO: prints "per-game per-unit-bound" over games FROM..TO.
measure() {
    local a b
    read -r -a a <<<"$(run "$1" "$2")"
    read -r -a b <<<"$(run "$1" "$3")"
    awk -v i="$((b[0] - a[0]))" -v u="$((b[1] - a[1]))" -v g="$(($3 - $2))" \
        'BEGIN { printf "%.0f %.0f\n", i / g, i / u }'
}

read -r per_game per_bound <<<"$(measure guilford 2 22)"
awk -v g="$per_game" -v b="$per_bound" 'BEGIN {
    printf "guilford self-play: %.2f M instructions a game, %.0f k a unit-bound (games 2..22)\n", g / 1e6, b / 1e3
}'

if [ "${1:-}" = growth ]; then
    scripts/gen-armies.sh 50 >"$work/armies-50.yaml"
    scripts/gen-armies.sh 200 >"$work/armies-200.yaml"
    read -r _ small <<<"$(measure "$work/armies-50.yaml" 1 2)"
    read -r _ large <<<"$(measure "$work/armies-200.yaml" 1 2)"
    awk -v s="$small" -v l="$large" 'BEGIN {
        printf "50 a side: %.0f k instructions a unit-bound; 200 a side: %.0f k (game 1)\n", s / 1e3, l / 1e3
        printf "200/50: %.2fx, exponent %.2f (a unit-bound costs N^%.2f)\n", l / s, log(l / s) / log(4), log(l / s) / log(4)
    }'
fi
