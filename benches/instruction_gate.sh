#!/usr/bin/env bash
# The instruction-count regression gate (issue 53): counts the instructions of the raw collision
# move and the hero step on the bench levels under valgrind's callgrind and fails when any grows by
# more than 10 % against the committed figures in benches/instruction_counts.txt. Instruction
# counts do not depend on the clock or on other load on the machine, so this gate can run on a
# shared CI machine where wall-clock benchmarks cannot.
#
# Usage: benches/instruction_gate.sh           check against benches/instruction_counts.txt
#        benches/instruction_gate.sh --update  rewrite that file from this run
#
# The counter is benches/instruction_counts.rs (`cargo bench --bench instruction_counts` target,
# harness-less): one process per workload builds its level, then runs a fixed number of moves or
# steps inside one function, `instruction_counts::measured`; callgrind collects only inside it
# (`--toggle-collect`), so the level build, process start and exit are not counted, and the count
# divided by the number of moves is the same on every run of the same binary.
#
# Build: the dev profile with only this package optimised like a release (opt-level 3, no debug
# assertions or overflow checks, no LTO): the dependencies are the ones the test build already
# compiled (the dev profile's, opt-level 1; the collision core uses only inlined code from them:
# glam's arithmetic and `robust`'s predicates, compiled here at opt-level 3; the figures came out
# the same with `robust` itself at opt-level 3), so the gate adds one optimised build of the
# library to CI, not a second build of every dependency. Figures are compared only with figures of
# the same build; they depend on the compiler: after a toolchain update, rerun with --update.
set -euo pipefail
cd "$(dirname "$0")/.."
figures=benches/instruction_counts.txt
tolerance=10 # percent
update=false
case "${1:-}" in
    --update) update=true ;;
    "") ;;
    *) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac
command -v valgrind >/dev/null || { echo "instruction gate: valgrind is needed (scripts/setup.sh --test)" >&2; exit 1; }

opt=(--config 'profile.dev.package.tessera.opt-level=3'
    --config 'profile.dev.package.tessera.debug-assertions=false'
    --config 'profile.dev.package.tessera.overflow-checks=false'
    --config 'profile.dev.package.tessera.codegen-units=16')
export CARGO_INCREMENTAL=0
bin=$(cargo build "${opt[@]}" --bench instruction_counts --message-format=json-render-diagnostics |
    sed -n 's/.*"executable":"\([^"]*instruction_counts[^"]*\)".*/\1/p' | tail -1)
[ -x "$bin" ] || { echo "instruction gate: no instruction_counts executable built" >&2; exit 1; }

out=$(mktemp -d "${TMPDIR:-/tmp}/tessera-instructions.XXXXXX")
trap 'rm -rf "$out"' EXIT

# count WORKLOAD: instructions per move (or step) of WORKLOAD, from callgrind's summary.
count() {
    local units
    units=$("$bin" --units "$1")
    valgrind --tool=callgrind --callgrind-out-file="$out/$1.out" \
        --toggle-collect='instruction_counts::measured' "$bin" "$1" >"$out/$1.log" 2>&1 ||
        { cat "$out/$1.log" >&2; return 1; }
    awk -v u="$units" '/^summary:/ { printf "%.0f\n", $2 / u }' "$out/$1.out"
}

failed=0
new=()
for w in $("$bin" --list); do
    ir=$(count "$w")
    new+=("$w $ir")
    old=$(awk -v w="$w" '$1 == w { print $2 }' "$figures" 2>/dev/null || true)
    if [ -z "$old" ]; then
        printf '%-20s %8d instructions per unit (no committed figure)\n' "$w" "$ir"
        $update || failed=1
        continue
    fi
    verdict=$(awk -v n="$ir" -v o="$old" -v t="$tolerance" 'BEGIN {
        c = 100 * (n - o) / o
        printf "%+6.1f%% %s", c, (c > t) ? "FAIL" : (c < -t) ? "ok (faster: update the figures)" : "ok" }')
    printf '%-20s %8d instructions per unit, committed %8d: %s\n' "$w" "$ir" "$old" "$verdict"
    case "$verdict" in *FAIL*) failed=1 ;; esac
done

if $update; then
    {
        echo "# Instructions per move (raw move) or per step (hero) in benches/instruction_counts.rs,"
        echo "# counted by benches/instruction_gate.sh (callgrind; $(rustc --version | cut -d' ' -f1-2))."
        echo "# The gate fails when one grows by more than $tolerance %. Regenerate: benches/instruction_gate.sh --update"
        printf '%s\n' "${new[@]}"
    } >"$figures"
    echo "instruction gate: wrote $figures"
    exit 0
fi
if [ "$failed" -ne 0 ]; then
    echo "instruction gate: FAILED (more than $tolerance % above $figures, or a workload without a figure)" >&2
    exit 1
fi
echo "instruction gate: passed"
