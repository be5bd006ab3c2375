#!/usr/bin/env python3
"""Writes a level with one long concave outline, for timing the mesh build with `tessera check`.

    scripts/gen-outline.py comb|blob N OUT.ron

The outlines are those of the `long_outline` group of `benches/collision.rs` (same SplitMix64
generator and seed, so the same points): `comb` is a strip 1 m high with (N - 2) / 4 teeth
(widths and gaps 0.25 or 0.5 m, heights 0.5 to 3 m in 0.25 m steps; a notch at the right end
when 4 divides N); `blob` is N points 0.5 m apart on a circle with +-0.5 m of radius noise. Below
the outline, a floor slab 2 m under its box; automatic bounds; the spawn on the floor.

    /usr/bin/time -v target/release/tessera check OUT.ron   # wall time and maximum RSS
    RUST_LOG=tessera::collision=debug target/release/tessera check OUT.ron   # time per stage
"""
import math
import sys

SEED = 0x7E55_E4A0_2D00_0003
MASK = (1 << 64) - 1


class Rng:
    def __init__(self, seed):
        self.s = seed

    def next_u64(self):
        self.s = (self.s + 0x9E37_79B9_7F4A_7C15) & MASK
        z = self.s
        z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & MASK
        return z ^ (z >> 31)

    def below(self, n):
        return self.next_u64() % n

    def unit(self):
        return (self.next_u64() >> 11) / float(1 << 53)


def comb(n):
    assert n >= 6 and n % 2 == 0
    rng = Rng(SEED)
    profile = []
    x = 0.0
    for _ in range((n - 2) // 4):
        w = 0.25 * (1 + rng.below(2))
        g = 0.25 * (1 + rng.below(2))
        h = 0.5 + 0.25 * rng.below(11)
        profile.append([x, x + w, 1.0 + h])
        x += w
        profile.append([x, x + g, 1.0])
        x += g
    pts = [(0.0, 0.0), (x, 0.0)]
    if n % 4 == 0:
        pts += [(x, 0.5), (x - 0.125, 0.5)]
        profile[-1][1] = x - 0.125
    for start, end, level in reversed(profile):
        pts.append((end, level))
        pts.append((start, level))
    assert len(pts) == n
    return pts


def blob(n):
    rng = Rng(SEED)
    r0 = n * 0.5 / math.tau
    pts = []
    for i in range(n):
        t = math.tau * i / n
        r = r0 + rng.unit() - 0.5
        pts.append((r * math.cos(t), r * math.sin(t)))
    return pts


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in ("comb", "blob"):
        sys.exit(__doc__)
    shape, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    pts = comb(n) if shape == "comb" else blob(n)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, x1, y0 = min(xs) - 5.0, max(xs) + 5.0, min(ys)
    floor = [(x0, y0 - 3.0), (x1, y0 - 3.0), (x1, y0 - 2.0), (x0, y0 - 2.0)]
    fmt = lambda ps: ", ".join("(%r, %r)" % p for p in ps)
    with open(out, "w") as f:
        f.write("(\n    name: \"%s %d\",\n    polygons: [\n" % (shape, n))
        f.write("        (points: [%s]),\n" % fmt(pts))
        f.write("        (points: [%s]),\n" % fmt(floor))
        f.write("    ],\n    spawn: (%r, %r),\n)\n" % (x0 + 1.0, y0 - 2.0))


if __name__ == "__main__":
    main()
