#!/usr/bin/env bash
# The opponent's plan rules, measured: for every shipped scenario, the
# outcome shares with the rules as tables/opponent.yaml sets them (the
# default), with all of them off (pure Lone Warrior), and with each rule
# switched alone: off if it is on by default, on if it is off. Prints a
# Markdown table for the README ("The opponent's plan").
#
#   scripts/plan-effects.sh [GAMES [SCENARIO...]]
#                   (default 1000 games a cell, the four scenarios below)
set -euo pipefail
cd "$(dirname "$0")/.."
games="${1:-1000}"
shift || true
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(guilford guilford-rv learning monongahela)
cargo build --release --quiet
foe=target/release/foe
rules=(advance-on-objective close-to-range general-leads cavalry-reserve press-home stand-off focus-fire fire-on-objective hold-the-line fall-back counter-attack)

# "first wins / second wins / draws" as whole percentages of one run.
shares() {
    "$foe" simulate "$@" --games "$games" --json |
        python3 -c '
import json, sys
report = json.load(sys.stdin)
agg, sides = report["aggregate"], report["labels"]["sides"]
games = agg["games"]
wins = agg["wins"]
cells = [f"{100 * wins[i] / games:.1f}" for i in range(len(sides))]
draws = agg["draws"]
cells.append(f"{100 * draws / games:.1f}")
print(" / ".join(cells))'
}

# "true" or "false": whether RULE is on in tables/opponent.yaml.
default_on() {
    awk -v rule="  $1:" '$0 == rule { found = 1; next } found && $1 == "on:" { print $2; exit }' \
        tables/opponent.yaml
}

for scenario in "${scenarios[@]}"; do
    sides=$("$foe" simulate "$scenario" --games 1 --json |
        python3 -c 'import json,sys; print(" / ".join(json.load(sys.stdin)["labels"]["sides"]))')
    echo
    echo "**$scenario** ($games games a row; % $sides wins / draws)"
    echo
    echo "| opponent rules | outcome |"
    echo "|---|---|"
    echo "| as shipped (default) | $(shares "$scenario") |"
    echo "| all off (pure Lone Warrior) | $(shares "$scenario" --rule all=off) |"
    for rule in "${rules[@]}"; do
        if [ "$(default_on "$rule")" = true ]; then
            echo "| \`$rule\` off | $(shares "$scenario" --rule "$rule=off") |"
        else
            echo "| \`$rule\` on | $(shares "$scenario" --rule "$rule=on") |"
        fi
    done
done
