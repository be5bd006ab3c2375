#!/usr/bin/env bash
# Frame times of scripted edits in the real editor window (issue 55, goal 3: p99 ≤ 33 ms and
# no frame over 100 ms outside a level load on the default level; p99 ≤ 50 ms on 10 000 tiles).
#
#   benches/editor_frames.sh [LEVEL...]     # default: levels/default.ron 10k (10k: a 10 000-tile level)
#   TESSERA_BIN=target/debug/tessera benches/editor_frames.sh levels/default.ron
#
# Plays `tessera play --editor --level LEVEL --frame-log FILE` at 1280×720 on its own Xvfb display
# (lavapipe when no GPU), waits for the window, then drives it with real X events (xdotool) through
# benches/editor_session.steps: boxes drawn and dragged about, a floor dragged, duplicate, copy,
# paste, undo, a pan. Prints, per level, the frame intervals' p50, p99 and max over the scripted edits
# (the frames of the first SKIP seconds, default 4, are the level's load, the window's first
# frames and the shaders' compilation: left out), the frames over 33 and 100 ms, and the five
# slowest with their parts (simulation, UI pass, 3D frame, GPU + present; `level_changed` 1 when
# the frame took an edited level's geometry). The 10 000-tile level is written to a temporary
# folder: 10 000 unit tiles on distinct cells of a 200 × 200 grid (25 % full, a fixed shuffle)
# above a floor, the benches' scatter. Needs xvfb, xdotool and awk; user files go to a temporary
# folder. The machine's load average is printed before and after. KEEP_LOG=PREFIX keeps each
# level's frame log and game log as PREFIX.LEVEL.txt and .log.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${TESSERA_BIN:-./target/release/tessera}
[[ -x $bin ]] || { echo "no $bin: build it, or set TESSERA_BIN" >&2; exit 1; }
skip=${SKIP:-4}
steps=benches/editor_session.steps
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The 10 000-tile level.
awk 'BEGIN {
    srand(7); side = 200; n = 10000
    for (i = 0; i < side * side; i++) cell[i] = i
    for (i = 0; i < n; i++) { j = i + int(rand() * (side * side - i)); t = cell[i]; cell[i] = cell[j]; cell[j] = t }
    printf "(name: \"scatter 10k\", spawn: (-3.0, 0.0), polygons: [\n"
    printf "  (points: [(-10.0, -1.0), (210.0, -1.0), (210.0, 0.0), (-10.0, 0.0)]),\n"
    for (i = 0; i < n; i++) {
        x = cell[i] % side; y = int(cell[i] / side) + 6
        printf "  (points: [(%d.0, %d.0), (%d.0, %d.0), (%d.0, %d.0), (%d.0, %d.0)]),\n", x, y, x + 1, y, x + 1, y + 1, x, y + 1
    }
    printf "])\n"
}' >"$work/scatter10k.ron"
levels=()
for l in "${@:-levels/default.ron 10k}"; do
    for w in $l; do [[ $w == 10k ]] && levels+=("$work/scatter10k.ron") || levels+=("$w"); done
done

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for level in "${levels[@]}"; do
    cp "$level" "$work/level.ron"
    log="$work/frames.txt"
    disp=:$((90 + RANDOM % 400))
    Xvfb "$disp" -screen 0 1280x720x24 -nolisten tcp >/dev/null 2>&1 &
    xvfb=$!
    sleep 1
    DISPLAY=$disp TESSERA_USER_DIR="$work/user" "$bin" play --level "$work/level.ron" --editor \
        --frame-log "$log" >"$work/game.log" 2>&1 &
    game=$!
    win=""
    for _ in $(seq 1 120); do
        sleep 1
        win=$(DISPLAY=$disp xdotool search --name . 2>/dev/null | head -1 || true)
        [[ -n $win ]] && break
        kill -0 "$game" 2>/dev/null || { cat "$work/game.log" >&2; exit 1; }
    done
    [[ -n $win ]] || { echo "no window after 120 s" >&2; exit 1; }
    export DISPLAY=$disp
    # Until the first frames are in the log (the level's load and the window's first frames).
    for _ in $(seq 1 120); do [[ $(wc -l <"$log") -gt 2 ]] && break; sleep 0.5; done
    sleep "$skip"
    xdotool windowactivate --sync "$win" 2>/dev/null || true
    xdotool windowfocus "$win"
    while IFS= read -r line || [[ -n $line ]]; do
        read -r cmd a b c d e <<<"$line" || true
        case "$cmd" in
        "" | "#"*) continue ;;
        key) read -r -a ks <<<"${line#key }"; xdotool key "${ks[@]}"; sleep 0.3 ;;
        click) xdotool mousemove --sync "$a" "$b"; sleep 0.2; xdotool click 1; sleep 0.3 ;;
        move) xdotool mousemove --sync "$a" "$b"; sleep 0.2 ;;
        # drag X1 Y1 X2 Y2 [N]: press, move there in N steps (default 30) 1/30 s apart, release.
        drag)
            n=${e:-30}
            xdotool mousemove --sync "$a" "$b"; sleep 0.3; xdotool mousedown 1; sleep 0.2
            for ((k = 1; k <= n; k++)); do
                xdotool mousemove $((a + (c - a) * k / n)) $((b + (d - b) * k / n)); sleep 0.033
            done
            sleep 0.2; xdotool mouseup 1; sleep 0.3 ;;
        # pan X1 Y1 X2 Y2: the same with the middle button.
        pan)
            xdotool mousemove --sync "$a" "$b"; sleep 0.3; xdotool mousedown 2; sleep 0.2
            for ((k = 1; k <= 30; k++)); do
                xdotool mousemove $((a + (c - a) * k / 30)) $((b + (d - b) * k / 30)); sleep 0.033
            done
            sleep 0.2; xdotool mouseup 2; sleep 0.3 ;;
        sleep) sleep "$a" ;;
        *) echo "unknown step: $line" >&2; exit 2 ;;
        esac
        kill -0 "$game" 2>/dev/null || { echo "the game exited at: $line" >&2; cat "$work/game.log" >&2; exit 1; }
    done <"$steps"
    sleep 1
    kill "$game"; wait "$game" 2>/dev/null || true
    kill "$xvfb"; wait "$xvfb" 2>/dev/null || true
    # Columns: t_s interval_ms sim_ms ui_ms render_ms present_ms ticks editing level_changed.
    # A line's interval is the time since the previous frame began: the previous frame's
    # length, so it is paired with the previous line's time and parts.
    awk -v skip="$skip" '/^#/ { next } start == "" { start = $1 }
        prev != "" { split(prev, q, " "); if (q[1] - start >= skip) print q[1], $2, q[3], q[4], q[5], q[6], q[7], q[8], q[9] }
        { prev = $0 }' "$log" | sort -g -k2 >"$work/sorted.txt"
    n=$(wc -l <"$work/sorted.txt")
    [[ $n -gt 0 ]] || { echo "$(basename "$level"): no frames after ${skip} s" >&2; exit 1; }
    at() { sed -n "$1p" "$work/sorted.txt" | cut -d' ' -f2; }
    p99=$((n * 99 / 100 + 1)); [[ $p99 -gt $n ]] && p99=$n
    printf '%s: %d frames, p50 %s ms, p99 %s ms, max %s ms; over 33 ms: %d, over 100 ms: %d\n' \
        "$(basename "$level")" "$n" "$(at $((n / 2 + 1)))" "$(at $p99)" "$(at "$n")" \
        "$(awk '$2 > 33' "$work/sorted.txt" | wc -l)" "$(awk '$2 > 100' "$work/sorted.txt" | wc -l)"
    tail -5 "$work/sorted.txt" | sort -g -r -k2 | awk '{ printf "  slow: t %.2f s, %.1f ms (sim %.1f, ui %.1f, render %.1f, present %.1f; ticks %d, level_changed %d)\n", $1, $2, $3, $4, $5, $6, $7, $9 }'
    if [[ -n ${KEEP_LOG:-} ]]; then
        cp "$log" "$KEEP_LOG.$(basename "$level").txt"
        cp "$work/game.log" "$KEEP_LOG.$(basename "$level").log"
    fi
    rm -rf "$work/user"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
