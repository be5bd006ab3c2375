#!/usr/bin/env bash
# Frame rate of the real game on lavapipe under Xvfb, interleaved A/B runs.
#
#   benches/fps.sh [ROUNDS] [-- ARGS...]          # e.g. benches/fps.sh 5 -- --msaa 4
#   benches/fps.sh 3 -- --editor                  # the editor's row: the editor open throughout
#   FPS_CONFIGS="A=ENV… ;B=ENV…" benches/fps.sh    # compare environments, one run each per round
#   TESSERA_BIN=/tmp/old/tessera benches/fps.sh    # another build (or TESSERA_BIN=… inside a config)
#   FPS_PLAY="--level benches/crowd/crowd.ron" benches/fps.sh   # 20 characters of 9 936 triangles
#
# Plays the default level's tour replay (or the `play` arguments in FPS_PLAY) for 6 s at 1280×720
# without vsync, ROUNDS times (default 4) per configuration, configurations interleaved so load
# changes hit all of them alike. Prints, per run, the game's own `fps` figure and the CPU time per
# frame of the game and the X server (user + system, all threads; steal time on a shared VM does
# not count in it), then the median of each. Needs a release build (`cargo build --release`),
# xvfb-run and Mesa's lavapipe.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=4
if [[ $# -gt 0 && $1 != -- ]]; then
    rounds=$1
    shift
fi
[[ ${1:-} == -- ]] && shift
extra=("$@")
bin=${TESSERA_BIN:-./target/release/tessera}
[[ -x $bin ]] || { echo "no $bin: run cargo build --release first" >&2; exit 1; }
read -r -a play <<<"${FPS_PLAY:---replay levels/replays/default_tour.ron}"
IFS=';' read -r -a configs <<<"${FPS_CONFIGS:-default=}"
declare -A fps cpu
for ((r = 1; r <= rounds; r++)); do
    for c in "${configs[@]}"; do
        name=${c%%=*}
        envs=${c#*=}
        log=$(mktemp)
        b=$(sed -nE 's/.*TESSERA_BIN=([^ ]+).*/\1/p' <<<"$envs")
        # shellcheck disable=SC2086
        env RUST_LOG=info $envs /usr/bin/time -f "cpu %U %S" xvfb-run -a -s "-screen 0 1280x720x24" \
            "${b:-$bin}" play "${play[@]}" --exit-after 6 --no-vsync \
            "${extra[@]}" >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
        line=$(grep -E "frames and .* fps$" "$log" | tail -1)
        frames=$(sed -E 's/.* ([0-9]+) frames and .*/\1/' <<<"$line")
        f=$(sed -E 's/.*: ([0-9.]+) fps$/\1/' <<<"$line")
        read -r u s < <(grep -E "^cpu " "$log" | tail -1 | cut -d' ' -f2-)
        ms=$(awk -v u="$u" -v s="$s" -v n="$frames" 'BEGIN { printf "%.1f", (u + s) * 1000 / n }')
        echo "round $r $name: $f fps, $ms ms CPU per frame (load $(cut -d' ' -f1 /proc/loadavg))"
        fps[$name]+="$f "
        cpu[$name]+="$ms "
        rm -f "$log"
    done
done
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
for c in "${configs[@]}"; do
    name=${c%%=*}
    echo "median $name: $(median <<<"${fps[$name]}") fps, $(median <<<"${cpu[$name]}") ms CPU per frame"
done
