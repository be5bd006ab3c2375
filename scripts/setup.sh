#!/usr/bin/env bash
# Installs the Debian/Ubuntu packages Tessera needs, only those missing (apt-get, with sudo when
# not root). Safe to run again: with everything present it only checks and exits.
#
#   scripts/setup.sh          to build and play: pkg-config libasound2-dev libudev-dev (build:
#                             ALSA for audio, udev for gamepads), libvulkan1 mesa-vulkan-drivers
#                             (the Vulkan loader and Mesa's drivers, for the window)
#   scripts/setup.sh --test   the above plus xvfb xauth xdotool (a virtual X display and real X
#                             input events for window tests;
#                             rendering tests run on Mesa's lavapipe software Vulkan driver),
#                             sox (loudness check of the offline audio render) and valgrind (the
#                             instruction-count gate, benches/instruction_gate.sh)
#   scripts/setup.sh --windows  the above (--test) plus the Windows cross build of scripts/dist and
#                             its check under wine (Debian 12, bookworm-security): rustc-web
#                             cargo-web rust-web-src libstd-rust-web-dev gcc-mingw-w64-x86-64 wine
#                             wine64
set -euo pipefail

packages=(pkg-config libasound2-dev libudev-dev libvulkan1 mesa-vulkan-drivers)
case "${1:-}" in
    --test) packages+=(xvfb xauth sox xdotool valgrind) ;;
    --windows)
        packages+=(xvfb xauth sox xdotool valgrind rustc-web cargo-web rust-web-src
            libstd-rust-web-dev gcc-mingw-w64-x86-64 wine wine64)
        ;;
    "") ;;
    *) echo "usage: $0 [--test | --windows]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: please install these packages (or your system's equivalents): ${missing[*]}" >&2
    exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null 2>&1; then
        echo "setup: not root and no sudo; as root run: apt-get install ${missing[*]}" >&2
        exit 1
    fi
    sudo=(sudo)
fi
echo "setup: installing ${missing[*]}" >&2
"${sudo[@]}" apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y -q --no-install-recommends "${missing[@]}"
