//! The collision-mesh debug overlay, drawn like the pictures of seed 000: the triangulation,
//! solid and one-way faces, the inflated obstacles, and the hero's face, supporting edge, contacts
//! and collider, for the mesh of the collider in use.
//!
//! Split in two: [`paint_mesh`] (static per mesh: built once per mesh and level, cached on the GPU)
//! and [`paint_hero`] (a handful of shapes, every frame).
use glam::DVec2;

use super::debug_draw::{DebugDraw, Rgba};
use crate::collision::{Aabb, CollisionMesh, EdgeRef, FaceKind, Solidity};
use crate::level::AgentSize;
use crate::movement::{Hero, MoveState};
use crate::sim::Agent;

/// Mesh edges (unconstrained), faint white.
pub const EDGE: Rgba = [1.0, 1.0, 1.0, 0.22];
/// Constraint edges (on inflated outlines or the bounds), orange.
pub const CONSTRAINT: Rgba = [1.0, 0.55, 0.1, 0.85];
/// Solid faces, translucent red.
pub const SOLID_FILL: Rgba = [0.85, 0.1, 0.1, 0.22];
/// One-way faces, translucent yellow.
pub const ONE_WAY_FILL: Rgba = [0.95, 0.85, 0.1, 0.3];
/// Inflated obstacle outlines, magenta.
pub const INFLATED: Rgba = [0.9, 0.2, 0.9, 0.7];
/// The hero's face, green.
pub const HERO_FACE: Rgba = [0.1, 0.95, 0.3, 0.45];
/// The supporting edge, cyan.
pub const SUPPORT: Rgba = [0.1, 0.9, 1.0, 1.0];
/// Contacts, yellow.
pub const CONTACT: Rgba = [1.0, 0.95, 0.2, 1.0];
/// The collider outline, white.
pub const COLLIDER: Rgba = [1.0, 1.0, 1.0, 0.9];

/// Width of mesh lines, m.
const THIN: f64 = 0.025;
/// Width of highlighted lines, m.
const THICK: f64 = 0.07;
/// A blocking edge within this distance of the hero counts as a contact, m (the walk leaves a
/// blocked body exactly on the edge, up to rounding).
pub const CONTACT_DISTANCE: f64 = 1e-6;

/// Which parts of a mesh [`paint_mesh_layers`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeshLayers {
    /// Every triangle's edges (constraint edges highlighted).
    pub triangles: bool,
    /// Solid and one-way faces, filled.
    pub solid: bool,
    /// The inflated obstacles' outlines.
    pub inflated: bool,
}

impl MeshLayers {
    /// Everything.
    pub const ALL: MeshLayers = MeshLayers {
        triangles: true,
        solid: true,
        inflated: true,
    };

    /// Nothing.
    pub const NONE: MeshLayers = MeshLayers {
        triangles: false,
        solid: false,
        inflated: false,
    };

    /// Whether any layer is on.
    pub fn any(self) -> bool {
        self.triangles || self.solid || self.inflated
    }
}

/// Draws a mesh's faces, edges and inflated pieces. Face 0 (outside the hull) is skipped; each
/// shared edge is drawn once.
pub fn paint_mesh(mesh: &CollisionMesh, d: &mut impl DebugDraw) {
    paint_mesh_layers(mesh, MeshLayers::ALL, d)
}

/// Draws the chosen layers of a mesh (see [`paint_mesh`]).
pub fn paint_mesh_layers(mesh: &CollisionMesh, layers: MeshLayers, d: &mut impl DebugDraw) {
    for f in mesh.face_ids() {
        let tri = mesh.triangle(f);
        match mesh.kind(f) {
            FaceKind::Solid if layers.solid => d.triangle(tri, SOLID_FILL),
            FaceKind::OneWay if layers.solid => d.triangle(tri, ONE_WAY_FILL),
            _ => {}
        }
        if !layers.triangles {
            continue;
        }
        let face = mesh.face(f);
        for i in 0..3u8 {
            let other = face.adj[i as usize];
            if other.0 != 0 && other < f {
                continue;
            }
            let e = EdgeRef { face: f, edge: i };
            let (a, b) = mesh.edge_points(e);
            if mesh.is_constraint(e) {
                d.line(a, b, THIN * 1.6, CONSTRAINT);
            } else {
                d.line(a, b, THIN, EDGE);
            }
        }
    }
    if !layers.inflated {
        return;
    }
    for piece in mesh.pieces() {
        let n = piece.points.len();
        let width = if piece.kind == Solidity::OneWay {
            THIN
        } else {
            THIN * 1.3
        };
        for i in 0..n {
            d.line(piece.points[i], piece.points[(i + 1) % n], width, INFLATED);
        }
    }
}

/// Draws the hero's state on `mesh` (the mesh of its collider): its face, the supporting edge with
/// its normal, blocking edges it touches (contacts) and its collider at the drawn position `at`.
pub fn paint_hero(mesh: &CollisionMesh, hero: &Hero, at: DVec2, d: &mut impl DebugDraw) {
    let face = hero.body.face;
    if face.0 != 0 && (face.0 as usize) < mesh.num_faces() {
        d.triangle(mesh.triangle(face), HERO_FACE);
        for e in contacts(mesh, hero) {
            let (a, b) = mesh.edge_points(e);
            let (q, _) = crate::collision::closest_on_segment(hero.body.pos, a, b);
            d.cross(q, 0.15, THICK * 0.7, CONTACT);
            d.line(q, q + mesh.edge_normal(e) * 0.5, THICK * 0.7, CONTACT);
        }
    }
    if let MoveState::Supported { edge, .. } = hero.state {
        let (a, b) = mesh.edge_points(edge);
        d.line(a, b, THICK, SUPPORT);
        let mid = (a + b) / 2.0;
        d.line(
            mid,
            mid + mesh.edge_normal(edge) * 0.6,
            THICK * 0.7,
            SUPPORT,
        );
    }
    let c = mesh.collider();
    for i in 0..c.len() {
        d.line(at + c[i], at + c[(i + 1) % c.len()], THIN * 1.5, COLLIDER);
    }
    d.cross(at, 0.1, THIN * 1.5, COLLIDER);
}

/// An agent's body colour by size class (linear RGB, opaque): small ones rust red, medium ones
/// amber, large ones plum, hero-sized ones teal, so sizes read at a glance.
pub fn agent_colour(size: AgentSize) -> Rgba {
    match size {
        AgentSize::Small => [0.55, 0.12, 0.06, 1.0],
        AgentSize::Medium => [0.75, 0.42, 0.05, 1.0],
        AgentSize::Large => [0.32, 0.10, 0.36, 1.0],
        AgentSize::Hero => [0.05, 0.40, 0.40, 1.0],
    }
}

/// Draws an agent at its feet point `at`: its collider filled in its size class's colour (a fan
/// of the convex collider), a dark outline, and an eye on the side it faces. Agents are drawn this
/// way until they have models of their own.
pub fn paint_agent(mesh: &CollisionMesh, agent: &Agent, at: DVec2, d: &mut impl DebugDraw) {
    let c = mesh.collider();
    if c.len() < 3 {
        return;
    }
    let fill = agent_colour(agent.size);
    for i in 1..c.len() - 1 {
        d.triangle([at + c[0], at + c[i], at + c[i + 1]], fill);
    }
    let dark = [0.04, 0.03, 0.03, 1.0];
    for i in 0..c.len() {
        d.line(at + c[i], at + c[(i + 1) % c.len()], 0.04, dark);
    }
    let Aabb { min: lo, max: hi } = Aabb::from_points(c.iter().copied());
    let eye = at
        + DVec2::new(
            0.5 * (lo.x + hi.x) + agent.mover.facing * 0.3 * (hi.x - lo.x),
            lo.y + 0.75 * (hi.y - lo.y),
        );
    let r = 0.06 * (hi.x - lo.x).min(hi.y - lo.y) + 0.02;
    d.triangle(
        [
            eye + DVec2::new(-r, -r),
            eye + DVec2::new(r, -r),
            eye + DVec2::new(0.0, r),
        ],
        [0.95, 0.92, 0.7, 1.0],
    );
}

/// The F3 overlay's colour for the movers inflated by the hero's collider in use.
pub const MOVER_INFLATION_HERO: Rgba = [0.95, 0.45, 0.85, 0.9];
/// The F3 overlay's colours for the movers inflated by the agents' size classes (collider ids 2,
/// 3, 4: the classes in use, in `AgentSize::ALL`'s order), fainter than the hero's.
pub const MOVER_INFLATION_CLASSES: [Rgba; 3] = [
    [0.45, 0.85, 0.95, 0.6],
    [0.95, 0.85, 0.35, 0.6],
    [0.55, 0.95, 0.45, 0.6],
];

/// Draws the inflation of every mover by one collider (the F3 overlay): where that collider's
/// feet cannot go, outlined in `colour`, at the movers' drawn poses (a turning mover's
/// inflation at its drawn angle, so the outline turns with the mover between ticks).
pub fn paint_mover_inflations(
    movers: &crate::collision::Movers,
    collider: usize,
    poses: impl Iterator<Item = crate::collision::Pose>,
    colour: Rgba,
    d: &mut impl DebugDraw,
) {
    let mut outline = |verts: &[DVec2], o: DVec2| {
        let n = verts.len();
        for i in 0..n {
            d.line(verts[i] + o, verts[(i + 1) % n] + o, 0.02, colour);
        }
    };
    for (m, pose) in poses.enumerate() {
        let m = m as u32;
        match movers.inflation_at(m, collider, pose.angle) {
            Some(turned) => turned.iter().for_each(|v| outline(v, pose.offset)),
            None => movers
                .pieces(m, collider)
                .iter()
                .for_each(|p| outline(&p.verts, pose.offset)),
        }
    }
}

/// A checkpoint's region outline in the debug overlay.
pub const CHECKPOINT: Rgba = [0.55, 0.6, 0.55, 1.0];
/// The outline of the checkpoint the hero respawns at.
pub const CHECKPOINT_REACHED: Rgba = [0.3, 0.85, 0.4, 1.0];
/// The goal's region outline.
pub const GOAL: Rgba = [1.0, 0.8, 0.1, 1.0];

/// A region's outline (a checkpoint, the goal), thin and half transparent in `colour`: the
/// debug overlay's; play draws them as objects (`render::marker_mesh`).
pub fn paint_region(b: &Aabb, colour: Rgba, d: &mut impl DebugDraw) {
    let faint = [colour[0], colour[1], colour[2], 0.6];
    let corners = b.corners();
    for i in 0..4 {
        d.line(corners[i], corners[(i + 1) % 4], 0.04, faint);
    }
}

/// Blocking edges of the hero's face that its position touches.
pub fn contacts(mesh: &CollisionMesh, hero: &Hero) -> Vec<EdgeRef> {
    let opts = hero.move_options();
    (0..3u8)
        .map(|i| EdgeRef {
            face: hero.body.face,
            edge: i,
        })
        .filter(|&e| {
            let (a, b) = mesh.edge_points(e);
            let (q, _) = crate::collision::closest_on_segment(hero.body.pos, a, b);
            mesh.blocks(e, opts) && q.distance(hero.body.pos) <= CONTACT_DISTANCE
        })
        .collect()
}
