//! Region classification, the build's last stage: faces joined across non-constraint edges form
//! regions, and each region is classified by one point.
//!
//! Every part of the boundary between free (or one-way) space and the inside of a solid piece
//! lies on a kept constraint edge (a buried edge is interior to a solid piece), so a region is
//! wholly solid, wholly one-way or wholly free: one point test per region (at the centroid of its
//! largest triangle, far from any edge) classifies it. A region inside a gate's pieces (and no
//! solid one) is solid while the gate is closed and becomes a gated face ([`Gates`]): opening
//! the gate gives it the kind it has without the gate.
//!
//! Run by `build::triangulate` for a whole build and for each chunk of a chunked one.
//!
//! Must never depend on anything outside `collision`.
use glam::DVec2;
use smallvec::SmallVec;

use super::grid::{inside_or_on, PieceGrid};
use super::mesh::{Face, FaceId, FaceKind, GatedFace, Gates, InflatedPiece};
use super::polygon::{PolygonId, Solidity};
use super::predicates::{cross, Aabb};

/// One gate per gate polygon, in the order of its first piece, each closed: what
/// [`classify_regions`] numbers the gates by.
pub(super) fn gates_of(pieces: &[InflatedPiece]) -> Vec<(PolygonId, bool)> {
    let mut gate_ids: Vec<(PolygonId, bool)> = Vec::new();
    for p in pieces.iter().filter(|p| p.kind == Solidity::Gate) {
        if !gate_ids.iter().any(|&(d, _)| d == p.source) {
            gate_ids.push((p.source, true));
        }
    }
    gate_ids
}

/// Groups faces into regions across non-constraint edges and classifies each region by one point.
///
/// Regions are found with a union-find over face indices, in one sequential pass over the faces
/// (a flood fill jumps around the face array, which at 100 000 faces is out of cache). A region's
/// root is its smallest face index, so regions are numbered in the order of their first face.
/// Its representative point is the centroid of its largest triangle (the first, by index, of
/// equal ones).
pub(super) fn classify_regions(
    faces: &mut [Face],
    vertices: &[DVec2],
    pieces: &[InflatedPiece],
    grid: &PieceGrid,
    inner: Aabb,
    gate_ids: Vec<(PolygonId, bool)>,
) -> Gates {
    let mut gated: Vec<(u32, FaceKind, SmallVec<[u32; 2]>)> = Vec::new();
    // `parent[f]`: a face of the same region with a smaller or equal index; roots point to
    // themselves. Path halving keeps the chains short.
    let mut parent: Vec<u32> = (0..faces.len() as u32).collect();
    let find = |parent: &mut [u32], mut x: u32| {
        while parent[x as usize] != x {
            let up = parent[parent[x as usize] as usize];
            parent[x as usize] = up;
            x = up;
        }
        x
    };
    for (fi, f) in faces.iter().enumerate().skip(1) {
        for i in 0..3 {
            let g = f.adj[i].0;
            if f.constraint & (1 << i) == 0 && g != 0 && g as usize > fi {
                let (a, b) = (find(&mut parent, fi as u32), find(&mut parent, g));
                if a != b {
                    parent[a.max(b) as usize] = a.min(b);
                }
            }
        }
    }
    // Number the regions (region 0: the outside face) and find each one's largest triangle. The
    // region numbers are only needed here: the mesh keeps each face's kind.
    let mut kinds = vec![FaceKind::Solid];
    let mut region = vec![0u32; faces.len()];
    let mut best: Vec<(f64, u32)> = vec![(f64::INFINITY, 0)];
    for fi in 1..faces.len() {
        let root = find(&mut parent, fi as u32) as usize;
        let r = if root == fi {
            kinds.push(FaceKind::Free);
            best.push((f64::NEG_INFINITY, fi as u32));
            (kinds.len() - 1) as u32
        } else {
            region[root]
        };
        region[fi] = r;
        let f = &faces[fi];
        let [a, b, c] = f.v.map(|v| vertices[v as usize]);
        let area = cross(b - a, c - a);
        if area > best[r as usize].0 {
            best[r as usize] = (area, fi as u32);
        }
    }
    for (r, &(_, fi)) in best.iter().enumerate().skip(1) {
        let [a, b, c] = faces[fi as usize].v.map(|v| vertices[v as usize]);
        let rep = (a + b + c) / 3.0;
        // `rep` is inside a face, so off every kept constraint edge, but it can lie exactly on
        // a piece outline that was left out (buried, dangling or a junction's), e.g. on the line
        // where two stacked tiles' pieces meet: such an outline has solid space on both sides,
        // so a point on it is solid. Hence closed containment; a strict test finds it in no piece
        // and calls the region free (the unsafe side: bodies could then enter solid faces).
        let (mut solid, mut one_way) = (!inner.contains_strictly(rep), false);
        let mut covering: SmallVec<[u32; 2]> = SmallVec::new();
        for e in grid.candidates(rep) {
            let piece = &pieces[e.piece as usize];
            if e.aabb.contains(rep) && inside_or_on(&piece.points, rep) {
                match e.kind {
                    Solidity::Solid => solid = true,
                    Solidity::OneWay => one_way = true,
                    // Passable polygons make no pieces (`inflate_all`).
                    Solidity::Passable => {}
                    Solidity::Gate => {
                        let g = gate_ids
                            .iter()
                            .position(|&(d, _)| d == piece.source)
                            .expect("every gate piece is numbered")
                            as u32;
                        if !covering.contains(&g) {
                            covering.push(g);
                        }
                    }
                }
            }
        }
        let open_kind = if one_way {
            FaceKind::OneWay
        } else {
            FaceKind::Free
        };
        kinds[r] = if solid || !covering.is_empty() {
            FaceKind::Solid
        } else {
            open_kind
        };
        if !solid && !covering.is_empty() {
            covering.sort_unstable();
            gated.push((r as u32, open_kind, covering));
        }
    }
    for (f, &r) in faces.iter_mut().zip(&region) {
        f.kind = kinds[r as usize];
    }
    // Every gate starts closed (its faces solid); the caller opens the gates that start open.
    let mut gates = Gates {
        by_gate: vec![Vec::new(); gate_ids.len()],
        ids: gate_ids,
        faces: Vec::new(),
    };
    if !gated.is_empty() {
        let mut of_region = vec![u32::MAX; kinds.len()];
        for (i, (r, _, _)) in gated.iter().enumerate() {
            of_region[*r as usize] = i as u32;
        }
        for (fi, &r) in region.iter().enumerate() {
            let i = of_region[r as usize];
            if i == u32::MAX {
                continue;
            }
            let (_, open_kind, covering) = &gated[i as usize];
            let n = gates.faces.len() as u32;
            for &g in covering {
                gates.by_gate[g as usize].push(n);
            }
            gates.faces.push(GatedFace {
                face: FaceId(fi as u32),
                open_kind: *open_kind,
                gates: covering.clone(),
            });
        }
    }
    gates
}
