#!/usr/bin/env bash
# Runs the whole test suite: installs missing system packages (scripts/setup.sh --test), then
# `cargo test` (debug profile; dependencies are built with opt-level 2, see Cargo.toml), under a
# virtual X display when there is no display. Extra arguments go to `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh --test
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
    exec xvfb-run -a cargo test "$@"
fi
exec cargo test "$@"
