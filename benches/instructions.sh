#!/usr/bin/env bash
# Instructions per move / per step / per build, counted by valgrind's callgrind: a noise-free
# cross-check of the wall-clock ratios in BENCHMARKS.md (the bench machine is shared and noisy).
#
# Usage: benches/instructions.sh [moves|build|cache|all]   (default: all; needs valgrind)
#
# `cache` (not part of `all`) runs the dense moves and the 1 000-agent tick under callgrind's
# cache simulator instead (`--cache-sim=yes`, a fixed 32 KiB 8-way L1 and 8 MiB 16-way last
# level, 64-byte lines; this VM has no hardware counters) and prints, per move or per agent, the
# instructions, data reads, and L1 and last-level data read misses.
#
# Builds the collision bench with symbols into its own target dir ($TESSERA_PROFILE_TARGET,
# default target/profiling; the first build takes ~10 minutes on 2 cores), then runs each
# benchmark for a short while under callgrind, counting only the instructions inside the bench's
# batch function (`--toggle-collect`), and divides by the number of moves it made. The output files
# stay in $OUT (default target/profiling/callgrind) for `callgrind_annotate`.
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
target=${TESSERA_PROFILE_TARGET:-target/profiling}
out=${OUT:-$target/callgrind}
mkdir -p "$out"

CARGO_TARGET_DIR=$target cargo bench --no-run --bench collision --features rapier \
  --config 'profile.bench.strip="none"' \
  --config 'profile.bench.package.tessera.debug="line-tables-only"' >&2
bin=$(ls -t "$target"/release/deps/collision-* | grep -v '\.d$' | head -1)
batch=1000

# calls FILE FUNCTION: how many times FUNCTION was called from a collected caller.
calls() {
  callgrind_annotate --tree=caller --inclusive=yes --threshold=100 "$1" 2>/dev/null |
    awk -v f=":$2" '
      / < / { n = $0; sub(/.*\(/, "", n); sub(/x\).*/, "", n); gsub(",", "", n); pend += n; next }
      /\*  / {
        line = $0; sub(/ \[[^]]*\]$/, "", line)
        if (substr(line, length(line) - length(f) + 1) == f) total += pend
        pend = 0; next
      }
      { pend = 0 }
      END { print total + 0 }'
}

# count GROUP BENCH FUNCTION UNITS_PER_CALL: Ir per unit inside FUNCTION while running GROUP/BENCH.
count() {
  local group=$1 bench=$2 func=$3 units=$4
  local file="$out/${group}.${bench//\//_}.out"
  TESSERA_BENCH_GROUPS=$group valgrind --tool=callgrind --callgrind-out-file="$file" \
    --toggle-collect="$func" "$bin" --bench --profile-time 3 --exact "$group/$bench" \
    >/dev/null 2>&1
  local ir calls
  ir=$(callgrind_annotate "$file" 2>/dev/null | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
  calls=$(calls "$file" "$func")
  awk -v g="$group" -v b="$bench" -v ir="$ir" -v c="$calls" -v u="$units" 'BEGIN {
    printf "%-22s %-32s %12.0f instructions per unit (%d calls of %d units)\n", g, b, ir / (c * u), c, u }'
}

# misses GROUP BENCH FUNCTION UNITS_PER_CALL: simulated cache events per unit inside FUNCTION.
misses() {
  local group=$1 bench=$2 func=$3 units=$4
  local file="$out/cache.${group}.${bench//\//_}.out"
  TESSERA_BENCH_GROUPS=$group valgrind --tool=callgrind --cache-sim=yes \
    --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 --callgrind-out-file="$file" \
    --toggle-collect="$func" "$bin" --bench --profile-time 3 --exact "$group/$bench" \
    >/dev/null 2>&1
  callgrind_annotate "$file" 2>/dev/null | grep "PROGRAM TOTALS" | sed 's/([^)]*)//g' |
    awk -v g="$group" -v b="$bench" -v c="$(calls "$file" "$func")" -v u="$units" '{
      n = split("Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw", ev, " ")
      for (i = 1; i <= n; i++) { x = $i; gsub(",", "", x); v[ev[i]] = (x == ".") ? 0 : x }
      printf "%-18s %-26s per unit: %7.0f instructions, %6.1f data reads, %7.3f L1 and %7.4f LL data read misses\n",
        g, b, v["Ir"] / (c * u), v["Dr"] / (c * u), v["D1mr"] / (c * u), v["DLmr"] / (c * u) }'
}

if [[ $what == cache ]]; then
  misses moves_scatter10k tessera_jumps 'collision::OurJumps::moves' $batch
  misses moves_scatter10k tessera_jumps_on_floor 'collision::OurJumps::moves' $batch
  misses moves_scatter10k tessera_move_and_slide 'collision::OurWalk::moves' $batch
  misses agents tick_with_agents/1000 'tessera::sim::world::World::step' 1000
fi

if [[ $what == moves || $what == all ]]; then
  count moves_floor400 tessera_move_and_slide 'collision::OurFloor::moves' $batch
  count moves_floor400 rapier_move_shape 'collision::RapierFloor::moves' $batch
  count moves_floor400 tessera_hero_step 'collision::HeroRun::steps' $batch
  count moves_scatter10k tessera_move_and_slide 'collision::OurWalk::moves' $batch
  count moves_scatter10k rapier_move_shape 'collision::RapierWalk::moves' $batch
  count moves_scatter10k tessera_hero_step 'collision::HeroRun::steps' $batch
  count moves_scatter10k tessera_hero_step_top_down 'collision::HeroRun::steps' $batch
fi
if [[ $what == build || $what == all ]]; then
  count build build_mesh_stand_box/10000 'tessera::collision::build::build_mesh' 1
  count build build_mesh_crouch_box/10000 'tessera::collision::build::build_mesh' 1
fi
