#!/usr/bin/env bash
# Runs the whole test suite: installs missing system packages (scripts/setup.sh --test), then
# `cargo test` (debug profile; dependencies are built with opt-level 1, see Cargo.toml), under a
# virtual X display when there is no display. Extra arguments go to `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --test
# Without a usable XDG_RUNTIME_DIR, Mesa's Vulkan device-selection layer makes libwayland print
# "XDG_RUNTIME_DIR is invalid or not set" on every adapter enumeration; the binary turns the layer
# off itself in that case (src/main.rs), and this does the same for the in-process render tests.
if [ -z "${XDG_RUNTIME_DIR:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    export NODEVICE_SELECT="${NODEVICE_SELECT:-1}"
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
    exec xvfb-run -a cargo test "$@"
fi
exec cargo test "$@"
