//! The moves a character makes on the collision world: move-and-slide on the mesh of the
//! collider in use, stopped where it would enter a mover piece, and a move to an exact place.
//!
//! Every move hands its end to [`Hero::apply`] (the one writer of the body); the movement states
//! and the movers' carry and push (`sim::movers`) move only through these.
//!
//! # Must never depend on
//! The movement states or `hero` (they are above it).
use glam::DVec2;

use super::character::{Change, Hero};
use super::env::Env;
use super::state::{MoveState, StepReport};
use crate::collision::{
    Body, CollisionMesh, EdgeRef, FaceKind, Location, MoveOptions, MoveResult, MoverEdge, MoverHit,
};

/// Distance (m) within which a position counts as on a mesh edge when switching meshes: points on
/// an edge may round to the solid side by a few ulps.
pub const ON_EDGE_TOLERANCE: f64 = 1e-9;

impl Hero {
    /// Moves the body by `d` with move-and-slide on the mesh of the collider in use, then stops
    /// it where its path first enters a mover (the movers are frozen while characters step),
    /// counting the contacts into `rep`; the result (contacts, distance travelled) is left in
    /// `res` for the caller's own use (filled in place: returning it by value cost ~5 % of a
    /// step). Returns the mover hit, if any: its contact is not among `res.contacts`, which keeps
    /// the static contacts met before it.
    pub(crate) fn slide(
        &mut self,
        env: &Env,
        d: DVec2,
        opts: MoveOptions,
        rep: &mut StepReport,
        res: &mut MoveResult,
    ) -> Option<MoverHit> {
        let mesh = env.mesh(self.collider);
        *res = MoveResult::at(self.body);
        mesh.move_and_slide_in(res, d, opts);
        let hit = if env.movers.is_empty() {
            None
        } else {
            self.clip_to_movers(env, res)
        };
        rep.contacts += res.contacts.len() + usize::from(hit.is_some());
        // Built field by field (see `Change::Move`).
        self.apply(Change::Move(Body {
            pos: res.body.pos,
            face: res.body.face,
        }));
        hit
    }

    /// Cuts the static move in `res` (from the body's position) where its path, leg by leg
    /// between contacts, first enters a mover piece: the body is left just outside the piece
    /// (`Movers::nudge_out`), on the static mesh (located; where that fails, the move is undone).
    fn clip_to_movers(&self, env: &Env, res: &mut MoveResult) -> Option<MoverHit> {
        let c = self.collider.0 as usize;
        let skip = self.riding_piece();
        let pass = self.move_options().pass_one_way;
        let mut from = self.body.pos;
        let mut travelled = 0.0;
        let legs = res.contacts.len() + 1;
        for k in 0..legs {
            let to = res.contacts.get(k).map_or(res.body.pos, |ct| ct.point);
            let leg = to - from;
            if let Some(hit) = env.movers.first_hit(c, from, leg, skip, pass) {
                let stop = env
                    .movers
                    .nudge_out(hit.at, c, from + leg * hit.t, hit.normal);
                let mesh = env.mesh(self.collider);
                // Located (a point an ulp across a static edge is projected onto it): the place
                // the body ends at is what must be outside every piece.
                match locate_free(mesh, stop) {
                    Some(body) if env.movers.inside(c, body.pos, None).is_none() => {
                        res.body = body;
                        res.travelled = travelled + from.distance(stop);
                    }
                    _ => {
                        res.body = self.body;
                        res.travelled = 0.0;
                    }
                }
                res.contacts.truncate(k);
                return Some(hit);
            }
            // A leg whose end is inside a piece entered it, whatever the clipping's rounding said
            // (a graze of a corner): the move stops at the leg's start, which is outside.
            if let Some((m, p)) = env.movers.inside(c, to, skip) {
                match locate_free(env.mesh(self.collider), from) {
                    Some(body) if env.movers.inside(c, body.pos, None).is_none() => {
                        res.body = body;
                        res.travelled = travelled;
                    }
                    _ => {
                        res.body = self.body;
                        res.travelled = 0.0;
                    }
                }
                res.contacts.truncate(k);
                return Some(MoverHit {
                    at: MoverEdge {
                        mover: m,
                        piece: p,
                        edge: 0,
                    },
                    t: 0.0,
                    normal: -leg.normalize_or_zero(),
                });
            }
            travelled += leg.length();
            from = to;
        }
        // The piece ridden is skipped (the walk runs along it), but a slide along something else
        // (a static ceiling over a slanted top) must not end inside it: the move is undone.
        // An end an ulp inside it (the walk's rounding) is nudged out along the ridden edge's
        // normal; one further in is undone.
        if let MoveState::Riding { on, .. } = self.state {
            let o = env.movers.offset(on.mover);
            let piece = env.movers.piece(on, c);
            if piece.strictly_contains(res.body.pos - o) {
                let n = piece.normal(on.edge as usize);
                let out = env.movers.nudge_out(on, c, res.body.pos, n);
                match locate_free(env.mesh(self.collider), out) {
                    Some(body)
                        if out.distance(res.body.pos) <= 1e-9
                            && env.movers.inside(c, body.pos, None).is_none() =>
                    {
                        res.body = body
                    }
                    _ => {
                        res.body = self.body;
                        res.travelled = 0.0;
                        res.contacts.clear();
                    }
                }
            }
        }
        None
    }

    /// Moves the body to `target` through [`Hero::slide`] and, when it arrives (within a
    /// nanometre, no mover in the way), puts it exactly there (its face located again): the
    /// places the mover code computes (a rider's point, a push's exit) are checked against the
    /// exact inside test before they are handed out, and the walk's rounding would move them by
    /// an ulp. Returns whether it arrived.
    pub(crate) fn move_exactly_to(
        &mut self,
        env: &Env,
        target: DVec2,
        rep: &mut StepReport,
    ) -> bool {
        let mut r = MoveResult::at(self.body);
        let hit = self.slide(
            env,
            target - self.body.pos,
            self.move_options(),
            rep,
            &mut r,
        );
        if hit.is_some() || self.body.pos.distance(target) > 1e-9 {
            return false;
        }
        let c = self.collider.0 as usize;
        if let Location::Free(b) = env.mesh(self.collider).locate(target, Some(self.body.face)) {
            if env.movers.inside(c, target, self.riding_piece()).is_none() {
                self.apply(Change::Move(b));
                return true;
            }
        }
        // Within a nanometre but not exactly there (the target is across a static edge): arrived
        // only if where the walk ended is itself outside every mover.
        env.movers
            .inside(c, self.body.pos, self.riding_piece())
            .is_none()
    }
}

/// Locates `p` on `mesh` as a free body; a point on a blocking edge that rounds into the solid face
/// by up to [`ON_EDGE_TOLERANCE`] counts as on the edge (and is projected onto it).
pub(crate) fn locate_free(mesh: &CollisionMesh, p: DVec2) -> Option<Body> {
    match mesh.locate(p, None) {
        Location::Free(b) => Some(b),
        Location::Solid(f) => (0..3u8).find_map(|i| {
            let e = EdgeRef { face: f, edge: i };
            let g = mesh.face(f).adj[i as usize];
            if mesh.kind(g) == FaceKind::Solid {
                return None;
            }
            let (a, b) = mesh.edge_points(e);
            let (q, _) = crate::collision::closest_on_segment(p, a, b);
            (q.distance(p) <= ON_EDGE_TOLERANCE).then_some(Body { pos: q, face: g })
        }),
        Location::Outside => None,
    }
}
