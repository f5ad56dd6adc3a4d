#!/usr/bin/env bash
# Untrusted input, measured: run `foe check` (and a few other
# readers) on every file of the malformed corpus and on generated hostile
# cases, each under /usr/bin/time -v, and print a table of status, wall
# seconds and peak memory. Every hostile case must be refused (status 1),
# and the biggest files foe accepts accepted (status 0), each within
# 2 seconds and 100 MB; the script exits 1 if any is not.
#
#   scripts/malformed-limits.sh            # builds the release binary first
#   FOE=path/to/foe scripts/malformed-limits.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ -z "${FOE:-}" ]]; then
    cargo build --release --quiet
    FOE="$PWD/target/release/foe"
fi
LIMIT_SECONDS=2
LIMIT_MB=100
corpus="$PWD/tests/it/data/malformed"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# --- the generated big cases -------------------------------------------------

scenario_head() { # table-width table-height cell
    printf 'name: big\ntitle: big\nruleset: ohw-awi\ntable: { width: %s, height: %s }\ncell: %s\nturns: 10\nfirst: british\n' "$1" "$2" "$3"
}
scenario_sides() {
    printf 'sides:\n  - name: british\n    edge: south\n    units:\n      - { name: A, troop_type: british-regulars, position: [24, 4] }\n'
    printf '  - name: americans\n    edge: north\n    units:\n      - { name: B, troop_type: continentals, position: [24, 44] }\n'
}
# N polygons of C corners each, of a kind, spread over a 480" table.
polygons() { # count corners kind
    awk -v n="$1" -v c="$2" -v kind="$3" 'BEGIN {
        pi = atan2(0, -1)
        for (p = 0; p < n; p++) {
            printf "  - { kind: %s, polygon: [", kind
            for (i = 0; i < c; i++) {
                r = (i % 2) ? 230 : 190
                printf "%s[%.1f, %.1f]", (i ? ", " : ""), 240 + r * cos(2 * pi * i / c), 240 + r * sin(2 * pi * i / c)
            }
            printf "] }\n"
        }
    }'
}

# 1 MiB of polygons (111 of 1000 corners) on a 480" table, at the finest
# cell foe now allows, and at the cell the hostile tester used (2M cells);
# then as much as foe parses (256 KiB), as woods (drawn: it is within the
# work limit) and as hills (refused: a hill's slope measures every cell
# against every corner).
cut_polygons() { # bytes cell kind file
    {
        scenario_head 480 480 "$2"
        echo "terrain:"
        polygons 111 1000 "$3"
    } >"$work/all.yaml"
    # Cut to size at a whole polygon, then the sides.
    head -c "$1" "$work/all.yaml" | sed '$ d' >"$4"
    scenario_sides >>"$4"
}
cut_polygons 1040000 1.6 woods "$work/polygons-1mib-cell-1.6.yaml"
cut_polygons 1040000 0.34 woods "$work/polygons-1mib-cell-0.34.yaml"
cut_polygons 260000 1.6 woods "$work/polygons-250k-woods.yaml"
cut_polygons 260000 1.6 hill "$work/polygons-250k-hills.yaml"

# The largest table foe builds (90,000 of the 100,000 cells it allows), bare.
{
    scenario_head 480 480 1.6
    scenario_sides
} >"$work/largest-table.yaml"

# An alias bomb: one polygon of 1000 corners named 33,279 times (1 MB),
# and one of the size foe parses (7,000 times).
alias_bomb() { # times file
    {
        scenario_head 480 480 1.6
        printf 'terrain: [{ kind: woods, polygon: &p ['
        awk 'BEGIN { for (i = 0; i < 1000; i++) printf "%s[%d, %d]", (i ? ", " : ""), 10 + i % 400, 10 + (i * 7) % 400 }'
        printf '] }'
        for ((i = 0; i < $1; i++)); do printf ', { kind: woods, polygon: *p }'; done
        printf ']\n'
        scenario_sides
    } >"$2"
}
alias_bomb 33279 "$work/alias-bomb-1mb.yaml"
alias_bomb 7000 "$work/alias-bomb-250k.yaml"

# 2,000 units off the table.
{
    scenario_head 48 48 0.5
    printf 'sides:\n  - name: british\n    edge: south\n    units:\n'
    for ((i = 0; i < 2000; i++)); do
        printf '      - { name: Foot %d, troop_type: british-regulars, position: [%d, 4] }\n' "$i" $((-100 - 10 * i))
    done
    printf '  - name: americans\n    edge: north\n    units:\n      - { name: B, troop_type: continentals, position: [24, 44] }\n'
} >"$work/off-table-2000.yaml"

# A named pipe nobody writes to.
mkfifo "$work/pipe.yaml"

# --- running them -------------------------------------------------------------

failed=0
printf '%-58s %6s %8s %9s  %s\n' "case" "status" "seconds" "max RSS" "verdict"
measure() { # label, expected status, then foe's arguments
    local label="$1" expected="$2"
    shift 2
    local report="$work/time.txt"
    local status=0
    /usr/bin/time -v -o "$report" timeout 30 "$FOE" "$@" >/dev/null 2>&1 || status=$?
    # time reports the command's status; timeout's 124 means it was killed.
    local seconds rss_kb
    seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }' "$report")
    rss_kb=$(awk -F': ' '/Maximum resident set size/ { print $2 }' "$report")
    local verdict="ok"
    if [[ $status -ne $expected ]]; then verdict="FAIL (status)"; fi
    if awk -v s="$seconds" -v l="$LIMIT_SECONDS" 'BEGIN { exit !(s > l) }'; then verdict="FAIL (time)"; fi
    if ((rss_kb > LIMIT_MB * 1024)); then verdict="FAIL (memory)"; fi
    [[ $verdict == ok ]] || failed=1
    printf '%-58s %6s %8.2f %6.1f MB  %s\n' "$label" "$status" "$seconds" "$(awk -v k="$rss_kb" 'BEGIN { print k / 1024 }')" "$verdict"
}

cd "$corpus/scenarios"
for file in *.yaml; do
    measure "corpus: check $file" 1 check "$file"
done
cd "$corpus/tables"
for dir in */; do
    measure "corpus: --tables ${dir%/} check guilford" 1 --tables "${dir%/}" check guilford
done
cd "$work"
for file in polygons-1mib-cell-1.6.yaml polygons-1mib-cell-0.34.yaml polygons-250k-hills.yaml \
    alias-bomb-1mb.yaml alias-bomb-250k.yaml off-table-2000.yaml; do
    measure "generated: check $file ($(($(stat -c %s "$file") / 1024)) KiB)" 1 check "$file"
done
measure "check /dev/zero" 1 check /dev/zero
measure "play /dev/zero" 1 play /dev/zero --no-autosave
measure "companion --army /dev/zero" 1 companion --army /dev/zero
measure "check a named pipe (no writer)" 1 check pipe.yaml
measure "play --resume --autosave a named pipe" 1 play --resume --autosave pipe.yaml
# Accepted, and still within the limits: the biggest foe takes.
for file in polygons-250k-woods.yaml largest-table.yaml; do
    measure "accepted: check $file ($(($(stat -c %s "$file") / 1024)) KiB)" 0 check "$file"
done

exit $failed
