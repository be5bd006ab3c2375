//! The figures' bodies: a box per body part on its bone, the hero's and the enemies' parts, and
//! the skinned mesh they make (flat normals, two-bone blends near the parent joint), optionally
//! subdivided.
//!
//! Pure data and arithmetic: depends on nothing outside this crate.
use super::skeleton::*;
use super::Figure;

// Linear colours.
pub(crate) const SKIN: [f64; 3] = [0.80, 0.52, 0.36];
pub(crate) const SHIRT: [f64; 3] = [0.08, 0.30, 0.62];
pub(crate) const TROUSERS: [f64; 3] = [0.20, 0.17, 0.12];
pub(crate) const BOOTS: [f64; 3] = [0.06, 0.04, 0.03];
pub(crate) const HAIR: [f64; 3] = [0.12, 0.06, 0.02];
pub(crate) const EYES: [f64; 3] = [0.02, 0.02, 0.03];

/// The face of a part that is blended with the parent bone.
#[derive(Clone, Copy)]
pub(crate) enum Near {
    /// The top face (y max).
    Top,
    /// The bottom face (y min).
    Bottom,
    /// The back face (x min).
    Back,
    /// Not blended.
    None,
}

/// One body part: an axis-aligned box in the rest pose.
pub(crate) struct Part {
    pub(crate) bone: usize,
    pub(crate) near: Near,
    pub(crate) lo: [f64; 3],
    pub(crate) hi: [f64; 3],
    pub(crate) colour: [f64; 3],
}

pub(crate) fn part(bone: usize, near: Near, lo: [f64; 3], hi: [f64; 3], colour: [f64; 3]) -> Part {
    Part {
        bone,
        near,
        lo,
        hi,
        colour,
    }
}

/// Mirrors a right-side box to the left (z → −z).
pub(crate) fn left(lo: [f64; 3], hi: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    ([lo[0], lo[1], -hi[2]], [hi[0], hi[1], -lo[2]])
}

pub(crate) type SidePart = (usize, usize, Near, [f64; 3], [f64; 3], [f64; 3]);

pub(crate) fn parts() -> Vec<Part> {
    let mut v = vec![
        part(
            HIPS,
            Near::None,
            [-0.12, 0.82, -0.17],
            [0.12, 1.02, 0.17],
            TROUSERS,
        ),
        part(
            SPINE,
            Near::Bottom,
            [-0.11, 1.02, -0.16],
            [0.11, 1.22, 0.16],
            SHIRT,
        ),
        part(
            CHEST,
            Near::Bottom,
            [-0.13, 1.22, -0.2],
            [0.13, 1.46, 0.2],
            SHIRT,
        ),
        part(
            NECK,
            Near::Bottom,
            [-0.05, 1.46, -0.05],
            [0.05, 1.56, 0.05],
            SKIN,
        ),
        part(
            HEAD,
            Near::None,
            [-0.11, 1.56, -0.1],
            [0.12, 1.78, 0.1],
            SKIN,
        ),
        part(
            HEAD,
            Near::None,
            [-0.125, 1.71, -0.105],
            [0.08, 1.8, 0.105],
            HAIR,
        ),
        part(
            HEAD,
            Near::None,
            [0.12, 1.65, -0.07],
            [0.13, 1.68, 0.07],
            EYES,
        ),
    ];
    // Right side boxes (bone, its left twin, blended face, min, max, colour), mirrored.
    let side: [SidePart; 8] = [
        (
            SHOULDER_R,
            SHOULDER_L,
            Near::Bottom,
            [-0.1, 1.36, 0.2],
            [0.1, 1.46, 0.25],
            SHIRT,
        ),
        (
            UPPER_ARM_R,
            UPPER_ARM_L,
            Near::Top,
            [-0.055, 1.14, 0.24],
            [0.055, 1.46, 0.34],
            SHIRT,
        ),
        (
            FOREARM_R,
            FOREARM_L,
            Near::Top,
            [-0.045, 0.88, 0.245],
            [0.045, 1.14, 0.335],
            SKIN,
        ),
        (
            HAND_R,
            HAND_L,
            Near::Top,
            [-0.04, 0.78, 0.255],
            [0.05, 0.88, 0.325],
            SKIN,
        ),
        (
            THIGH_R,
            THIGH_L,
            Near::Top,
            [-0.075, 0.5, 0.02],
            [0.075, 0.9, 0.165],
            TROUSERS,
        ),
        (
            SHIN_R,
            SHIN_L,
            Near::Top,
            [-0.065, 0.1, 0.03],
            [0.065, 0.5, 0.155],
            TROUSERS,
        ),
        (
            FOOT_R,
            FOOT_L,
            Near::Top,
            [-0.075, 0.0, 0.025],
            [0.12, 0.1, 0.16],
            BOOTS,
        ),
        (
            TOE_R,
            TOE_L,
            Near::Back,
            [0.12, 0.0, 0.03],
            [0.2, 0.07, 0.155],
            BOOTS,
        ),
    ];
    for &(right, left_bone, near, lo, hi, colour) in &side {
        v.push(part(right, near, lo, hi, colour));
        let (llo, lhi) = left(lo, hi);
        v.push(part(left_bone, near, llo, lhi, colour));
    }
    v
}

/// Vertex data of the skinned mesh.
#[derive(Default)]
pub(crate) struct Mesh {
    pub(crate) positions: Vec<[f32; 3]>,
    pub(crate) normals: Vec<[f32; 3]>,
    pub(crate) colours: Vec<[f32; 3]>,
    pub(crate) joints: Vec<[u8; 4]>,
    pub(crate) weights: Vec<[f32; 4]>,
    pub(crate) indices: Vec<u16>,
}

pub(crate) fn build_mesh() -> Mesh {
    mesh_of(parts())
}

pub(crate) fn mesh_of(parts: Vec<Part>) -> Mesh {
    let mut m = Mesh::default();
    for p in parts {
        for axis in 0..3 {
            for side in 0..2 {
                let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
                let mut normal = [0.0f64; 3];
                normal[axis] = if side == 1 { 1.0 } else { -1.0 };
                let pick = |i: usize, u: usize| if u == 1 { p.hi[i] } else { p.lo[i] };
                let mut corners = [[0.0f64; 3]; 4];
                for (k, (ub, uc)) in [(0, 0), (1, 0), (1, 1), (0, 1)].into_iter().enumerate() {
                    corners[k][axis] = pick(axis, side);
                    corners[k][b] = pick(b, ub);
                    corners[k][c] = pick(c, uc);
                }
                // Counter-clockwise seen from outside: (c1 − c0) × (c2 − c0) along the normal.
                let e1 = sub(corners[1], corners[0]);
                let e2 = sub(corners[2], corners[0]);
                if dot(cross(e1, e2), normal) < 0.0 {
                    corners.swap(1, 3);
                }
                let base = m.positions.len() as u16;
                for q in corners {
                    let blended = match p.near {
                        Near::Top => q[1] == p.hi[1],
                        Near::Bottom => q[1] == p.lo[1],
                        Near::Back => q[0] == p.lo[0],
                        Near::None => false,
                    };
                    m.positions.push(f32x3(q));
                    m.normals.push(f32x3(normal));
                    m.colours.push(f32x3(p.colour));
                    match (blended, PARENTS[p.bone]) {
                        (true, Some(parent)) => {
                            m.joints.push([p.bone as u8, parent as u8, 0, 0]);
                            m.weights.push([0.75, 0.25, 0.0, 0.0]);
                        }
                        _ => {
                            m.joints.push([p.bone as u8, 0, 0, 0]);
                            m.weights.push([1.0, 0.0, 0.0, 0.0]);
                        }
                    }
                }
                m.indices
                    .extend_from_slice(&[base, base + 1, base + 2, base, base + 2, base + 3]);
            }
        }
    }
    m
}

pub(crate) fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(crate) fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(crate) fn f32x3(v: [f64; 3]) -> [f32; 3] {
    [v[0] as f32, v[1] as f32, v[2] as f32]
}

/// Rounds to micrometres, so that JSON numbers read as written (0.07, not 0.0699999…).
pub(crate) fn round6(x: f64) -> f64 {
    let r = (x * 1e6).round() / 1e6;
    if r == 0.0 {
        0.0
    } else {
        r
    }
}

/// `p` widened (x and z, about its centre) by `w`, its colour replaced by `c`.
pub(crate) fn reshaped(p: &Part, w: f64, c: [f64; 3]) -> Part {
    let mid = |i: usize| 0.5 * (p.lo[i] + p.hi[i]);
    let lo = [
        mid(0) + (p.lo[0] - mid(0)) * w,
        p.lo[1],
        mid(2) + (p.lo[2] - mid(2)) * w,
    ];
    let hi = [
        mid(0) + (p.hi[0] - mid(0)) * w,
        p.hi[1],
        mid(2) + (p.hi[2] - mid(2)) * w,
    ];
    part(p.bone, p.near, lo.map(round6), hi.map(round6), c)
}

/// A box on `bone` over the spans `x` and `y`, centred `z` to either side of the middle and `half`
/// deep each way, and its mirror image: the left (−z) one first (horns, ears, shoulder pads).
pub(crate) fn side_pair(
    bone: usize,
    x: [f64; 2],
    y: [f64; 2],
    z: f64,
    half: f64,
    colour: [f64; 3],
) -> [Part; 2] {
    [-1.0, 1.0].map(|s: f64| {
        part(
            bone,
            Near::None,
            [x[0], y[0], s * z - half],
            [x[1], y[1], s * z + half],
            colour,
        )
    })
}

/// The boxes of `figure`: the hero's, each widened and recoloured by the figure's rule for its
/// bone and colour, plus the figure's own extra boxes (horns, ears, a shell).
pub(crate) fn figure_parts(figure: Figure) -> Vec<Part> {
    let hero = parts();
    if figure == Figure::Hero {
        return hero;
    }
    let is = |p: &Part, bones: &[usize]| bones.contains(&p.bone);
    let arms = [
        SHOULDER_L,
        UPPER_ARM_L,
        FOREARM_L,
        SHOULDER_R,
        UPPER_ARM_R,
        FOREARM_R,
    ];
    let hands = [HAND_L, HAND_R];
    let legs = [THIGH_L, SHIN_L, THIGH_R, SHIN_R];
    let feet = [FOOT_L, TOE_L, FOOT_R, TOE_R];
    let torso = [HIPS, SPINE, CHEST];
    let mut v: Vec<Part> = Vec::with_capacity(hero.len() + 6);
    match figure {
        Figure::Hero => unreachable!(),
        Figure::Crawler => {
            let (shell, body, claw, eye) = (
                [0.42, 0.05, 0.03],
                [0.22, 0.10, 0.06],
                [0.08, 0.05, 0.04],
                [0.95, 0.85, 0.10],
            );
            for p in &hero {
                v.push(if p.colour == EYES {
                    reshaped(p, 1.6, eye)
                } else if p.colour == HAIR {
                    reshaped(p, 1.2, shell)
                } else if p.bone == HEAD || p.bone == NECK {
                    reshaped(p, 1.5, body)
                } else if is(p, &torso) {
                    reshaped(p, 1.7, shell)
                } else if is(p, &hands) || is(p, &feet) {
                    reshaped(p, 1.5, claw)
                } else {
                    reshaped(p, 1.2, body)
                });
            }
            // Two horns, and a shell plate over the back.
            v.extend(side_pair(
                HEAD,
                [-0.02, 0.05],
                [1.78, 1.92],
                0.09,
                0.025,
                shell,
            ));
            v.push(part(
                CHEST,
                Near::None,
                [-0.24, 1.0, -0.3],
                [-0.13, 1.5, 0.3],
                shell,
            ));
        }
        Figure::Hopper => {
            let (skin, belly, dark, eye) = (
                [0.12, 0.45, 0.10],
                [0.70, 0.78, 0.45],
                [0.05, 0.18, 0.04],
                [0.90, 0.30, 0.05],
            );
            for p in &hero {
                v.push(if p.colour == EYES {
                    reshaped(p, 1.4, eye)
                } else if p.colour == HAIR {
                    reshaped(p, 1.0, dark)
                } else if p.bone == CHEST || p.bone == SPINE {
                    reshaped(p, 0.85, belly)
                } else if is(p, &feet) {
                    let mut f = reshaped(p, 1.0, dark);
                    // Long feet: the toes reach further forward.
                    f.hi[0] = round6(f.hi[0] + 0.06);
                    f
                } else if is(p, &legs) || is(p, &arms) {
                    reshaped(p, 0.7, skin)
                } else {
                    reshaped(p, 1.0, skin)
                });
            }
            // Two tall ears.
            v.extend(side_pair(
                HEAD,
                [-0.06, -0.01],
                [1.78, 2.02],
                0.06,
                0.02,
                skin,
            ));
        }
        Figure::Brute => {
            let (skin, cloth, iron, eye) = (
                [0.34, 0.30, 0.40],
                [0.22, 0.12, 0.10],
                [0.10, 0.10, 0.12],
                [0.95, 0.15, 0.05],
            );
            for p in &hero {
                v.push(if p.colour == EYES {
                    reshaped(p, 1.0, eye)
                } else if p.colour == HAIR {
                    reshaped(p, 0.9, iron)
                } else if p.bone == HEAD {
                    reshaped(p, 0.85, skin)
                } else if p.bone == CHEST || is(p, &arms) {
                    reshaped(p, if p.bone == CHEST { 1.9 } else { 1.7 }, skin)
                } else if is(p, &hands) {
                    reshaped(p, 2.2, skin)
                } else if is(p, &feet) {
                    reshaped(p, 1.4, iron)
                } else if is(p, &torso) {
                    reshaped(p, 1.5, cloth)
                } else {
                    reshaped(p, 1.3, cloth)
                });
            }
            // Shoulder pads.
            v.extend(side_pair(
                CHEST,
                [-0.16, 0.16],
                [1.42, 1.52],
                0.32,
                0.1,
                iron,
            ));
        }
    }
    v
}

/// Cuts each quad of `m` (four vertices `c0..c3` around it, two triangles `c0 c1 c2`, `c0 c2 c3`,
/// as [`build_mesh`] writes them) into an `n` × `n` grid, bilinearly interpolated.
pub(crate) fn subdivide(m: &Mesh, n: usize) -> Mesh {
    let mut out = Mesh::default();
    for q in (0..m.positions.len()).step_by(4) {
        let bilinear = |v: [[f32; 4]; 4], u: f32, w: f32| {
            std::array::from_fn::<f32, 4, _>(|k| {
                v[0][k] * (1.0 - u) * (1.0 - w)
                    + v[1][k] * u * (1.0 - w)
                    + v[2][k] * u * w
                    + v[3][k] * (1.0 - u) * w
            })
        };
        let corners3 = |a: &[[f32; 3]]| -> [[f32; 4]; 4] {
            std::array::from_fn(|c| {
                let p = a[q + c];
                [p[0], p[1], p[2], 0.0]
            })
        };
        let pos = corners3(&m.positions);
        let weights: [[f32; 4]; 4] = std::array::from_fn(|c| m.weights[q + c]);
        // The corners' joints are [bone, parent] (blended) or [bone, 0] (weight 0 on the second):
        // the blended set serves the whole face, its weights interpolated.
        let joints = (0..4)
            .map(|c| (m.weights[q + c][1], m.joints[q + c]))
            .fold((-1.0f32, [0u8; 4]), |a, b| if b.0 > a.0 { b } else { a })
            .1;
        let base = out.positions.len() as u16;
        for j in 0..=n {
            for i in 0..=n {
                let (u, w) = (i as f32 / n as f32, j as f32 / n as f32);
                let p = bilinear(pos, u, w);
                out.positions.push([p[0], p[1], p[2]]);
                out.normals.push(m.normals[q]);
                out.colours.push(m.colours[q]);
                out.joints.push(joints);
                out.weights.push(bilinear(weights, u, w));
            }
        }
        let at = |i: usize, j: usize| base + (j * (n + 1) + i) as u16;
        for j in 0..n {
            for i in 0..n {
                let (a, b, c, d) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
                out.indices.extend_from_slice(&[a, b, c, a, c, d]);
            }
        }
    }
    out
}
