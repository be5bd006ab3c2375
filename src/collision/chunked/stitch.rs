//! Stitching built chunks into a chunked mesh's face array.
//!
//! A built chunk's faces go into the mesh's face array, in the slots its old faces freed (or at
//! the end); a border point is one vertex whichever chunk has it; a face edge on a border is
//! linked to the face across it, found by its two vertices among the border edges each chunk
//! keeps (so only the rebuilt chunks' neighbours are read). A border edge that lies on no
//! inflated outline (its source list held only the pseudo-source) stops being a constraint: the
//! walk crosses it like any edge of the triangulation. A freed slot holds [`Face::UNUSED`]
//! (skipped by `face_ids`, never a neighbour, never a seed) until a later chunk fills it; when a
//! third of the array is free it is compacted ([`compact`]).
//!
//! Must never depend on anything outside `collision`.
use glam::DVec2;
use smallvec::SmallVec;

use super::super::build::BuildError;
use super::super::mesh::{CollisionMesh, Face, FaceId, FaceKind, GatedFace, Gates};
use super::super::polygon::{Num, PolygonId};
use super::super::regions::gates_of;
use super::grid::on_boundary;
use super::{Chunking, FastMap, Fresh, BORDER_SOURCE, UNLINKED};

/// Puts the new chunks into the mesh: frees their old faces' slots, writes the new faces into
/// free slots (or at the end), gives a border point one vertex whichever chunk has it, and links
/// faces across chunk borders (to unchanged neighbours and to each other). Compacts the face
/// array when more than a third of it is free.
pub(super) fn install(
    mesh: &mut CollisionMesh,
    chunking: &mut Chunking,
    fresh: Vec<(usize, Fresh)>,
    gates_changed: bool,
) -> Result<(), BuildError> {
    let grid = chunking.grid.clone();
    let rebuilt: FastMap<usize, ()> = fresh.iter().map(|f| (f.0, ())).collect();
    // The freed slots, also as a bitset (the seeds ask it for every cell).
    let mut freed = vec![0u64; mesh.faces.len().div_ceil(64)];
    for &(c, _) in &fresh {
        for f in std::mem::take(&mut chunking.chunks[c].faces) {
            mesh.faces[f as usize] = Face::UNUSED;
            chunking.free.push(f);
            freed[f as usize / 64] |= 1 << (f % 64);
        }
    }
    let bits = |p: DVec2| [p.x.to_bits(), p.y.to_bits()];
    // Border points and edges that unchanged neighbours (diagonal ones share a corner) hold.
    let mut shared: FastMap<[u64; 2], u32> = FastMap::default();
    let mut open: FastMap<[u32; 2], (u32, u8)> = FastMap::default();
    for &(c, _) in &fresh {
        let rect = grid.rect(c);
        for d in grid.neighbours(c, true) {
            if rebuilt.contains_key(&d) {
                continue;
            }
            for &(f, e) in &chunking.chunks[d].border {
                let face = mesh.faces[f as usize];
                let (a, b) = (face.v[e as usize], face.v[(e as usize + 1) % 3]);
                let (pa, pb) = (mesh.vertices[a as usize], mesh.vertices[b as usize]);
                let (ina, inb) = (rect.contains(pa), rect.contains(pb));
                if ina {
                    shared.insert(bits(pa), a);
                }
                if inb {
                    shared.insert(bits(pb), b);
                }
                if ina && inb {
                    open.insert([a, b], (f, e));
                }
            }
        }
    }
    // The gates are numbered afresh only when a gate changed (a scan of every piece).
    let gate_ids = if gates_changed {
        gates_of(&mesh.pieces)
    } else {
        mesh.gates.ids.iter().map(|&(id, _)| (id, true)).collect()
    };
    let was_open = mesh.gates.open_ids();
    let mut gated: Vec<(u32, FaceKind, SmallVec<[PolygonId; 2]>)> = mesh
        .gates
        .faces
        .iter()
        .filter(|g| !mesh.faces[g.face.0 as usize].is_unused())
        .map(|g| {
            let covering = g
                .gates
                .iter()
                .map(|&i| mesh.gates.ids[i as usize].0)
                .collect();
            (g.face.0, g.open_kind, covering)
        })
        .collect();
    let mut new_faces: Vec<u32> = Vec::new();
    let mut vmap: Vec<u32> = Vec::new();
    let mut slots: Vec<u32> = Vec::new();
    for (c, chunk) in fresh {
        let rect = grid.rect(c);
        vmap.clear();
        let mut boundary = Vec::new();
        for &p in &chunk.verts {
            let id = if on_boundary(&rect, p) {
                boundary.push(p);
                let vertices = &mut mesh.vertices;
                *shared.entry(bits(p)).or_insert_with(|| {
                    vertices.push(p);
                    (vertices.len() - 1) as u32
                })
            } else {
                mesh.vertices.push(p);
                (mesh.vertices.len() - 1) as u32
            };
            vmap.push(id);
        }
        let list_map = mesh
            .source_lists
            .append_without(&chunk.lists, BORDER_SOURCE);
        slots.clear();
        for _ in 0..chunk.faces.len() {
            slots.push(chunking.free.pop().unwrap_or_else(|| {
                mesh.faces.push(Face::UNUSED);
                (mesh.faces.len() - 1) as u32
            }));
        }
        let mut border = Vec::new();
        for (lf, face) in chunk.faces.iter().enumerate() {
            let f = slots[lf];
            let mut g = *face;
            g.v = face.v.map(|v| vmap[v as usize]);
            for i in 0..3 {
                if face.constraint & 1 << i != 0 {
                    let l = list_map[face.edge_sources[i] as usize];
                    g.edge_sources[i] = l;
                    if l == u32::MAX {
                        g.constraint &= !(1 << i);
                    }
                }
                if face.adj[i].0 == UNLINKED {
                    border.push((f, i as u8));
                    let (a, b) = (g.v[i], g.v[(i + 1) % 3]);
                    if let Some((h, j)) = open.remove(&[b, a]) {
                        g.adj[i] = FaceId(h);
                        mesh.faces[h as usize].adj[j as usize] = FaceId(f);
                    } else {
                        open.insert([a, b], (f, i as u8));
                        g.adj[i] = FaceId::OUTSIDE;
                    }
                } else {
                    g.adj[i] = FaceId(slots[face.adj[i].0 as usize]);
                }
            }
            mesh.faces[f as usize] = g;
        }
        for (lf, open_kind, covering) in chunk.gated {
            gated.push((slots[lf as usize], open_kind, covering));
        }
        new_faces.extend_from_slice(&slots);
        chunking.chunks[c].faces = slots.clone();
        chunking.chunks[c].border = border;
        chunking.chunks[c].boundary = boundary;
    }
    // What is still open lies on the grid's outer boundary (the hull), or the borders differ.
    let hull = grid.bounds();
    for &[a, b] in open.keys() {
        let (p, q) = (mesh.vertices[a as usize], mesh.vertices[b as usize]);
        let on_hull = |axis: usize, v: f64| p[axis] == v && q[axis] == v;
        if !(on_hull(0, hull.min.x)
            || on_hull(0, hull.max.x)
            || on_hull(1, hull.min.y)
            || on_hull(1, hull.max.y))
        {
            return Err(BuildError::Triangulation(format!(
                "chunk borders do not match near ({}, {})",
                Num(p.x),
                Num(p.y)
            )));
        }
    }
    // The gates: every gated face, numbered by the gates of the pieces now.
    let mut gates = Gates {
        by_gate: vec![Vec::new(); gate_ids.len()],
        ids: gate_ids,
        faces: Vec::new(),
    };
    for (f, open_kind, covering) in gated {
        let n = gates.faces.len() as u32;
        let ids: SmallVec<[u32; 2]> = covering
            .iter()
            .filter_map(|d| gates.ids.iter().position(|g| g.0 == *d))
            .map(|g| g as u32)
            .collect();
        for &g in &ids {
            gates.by_gate[g as usize].push(n);
        }
        gates.faces.push(GatedFace {
            face: FaceId(f),
            open_kind,
            gates: ids,
        });
    }
    mesh.gates = gates;
    for id in was_open {
        mesh.set_gate(id, true);
    }
    // A freed slot filled again holds a new face: a seed there is fine.
    for &f in &new_faces {
        if let Some(w) = freed.get_mut(f as usize / 64) {
            *w &= !(1 << (f % 64));
        }
    }
    mesh.seeds
        .repair(&mesh.vertices, &mesh.faces, &new_faces, &freed);
    if chunking.free.len() * 3 > mesh.faces.len() {
        compact(mesh, chunking);
    }
    Ok(())
}

/// Drops the face array's free slots and the vertices no face uses, renumbering what refers
/// to them (neighbours, chunks, gates, seeds).
fn compact(mesh: &mut CollisionMesh, chunking: &mut Chunking) {
    let mut map = vec![0u32; mesh.faces.len()];
    let mut faces = Vec::with_capacity(mesh.faces.len() - chunking.free.len());
    faces.push(Face::UNUSED);
    for (f, face) in mesh.faces.iter().enumerate().skip(1) {
        if !face.is_unused() {
            map[f] = faces.len() as u32;
            faces.push(*face);
        }
    }
    let mut used = vec![u32::MAX; mesh.vertices.len()];
    let mut vertices = Vec::with_capacity(mesh.vertices.len());
    for face in faces.iter_mut().skip(1) {
        face.adj = face.adj.map(|g| FaceId(map[g.0 as usize]));
        for v in &mut face.v {
            if used[*v as usize] == u32::MAX {
                used[*v as usize] = vertices.len() as u32;
                vertices.push(mesh.vertices[*v as usize]);
            }
            *v = used[*v as usize];
        }
    }
    for chunk in &mut chunking.chunks {
        for f in &mut chunk.faces {
            *f = map[*f as usize];
        }
        for (f, _) in &mut chunk.border {
            *f = map[*f as usize];
        }
    }
    for g in &mut mesh.gates.faces {
        g.face = FaceId(map[g.face.0 as usize]);
    }
    mesh.seeds.renumber(&map);
    mesh.faces = faces;
    mesh.vertices = vertices;
    chunking.free.clear();
}
