//! Design warnings: what a valid level may hold that its designer almost surely did not mean.
//! The level loads and plays all the same (these are warnings, not [`super::LevelProblem`]s);
//! `tessera check` prints them and the editor's status bar shows them live.
//!
//! The checks: the spawn inside the goal (the level is complete at its first tick); a checkpoint
//! or the goal that no character's feet can reach (wholly inside solid ground, or floating higher
//! than a jump above every floor); a door's switch that drives nothing (the door starts open and
//! never closes); a patrolling agent whose body starts inside a wall; a signal that no target
//! names. They read the level
//! document and one number of the tuning (the jump height) only: no meshes, no simulation.
use std::fmt;

use glam::DVec2;

use super::document::{Level, PolygonKind};
use crate::collision::Aabb;

/// One design warning: the object it is about and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct DesignWarning {
    /// The object, as messages name it: `goal`, `checkpoint 2`, `door 0`, `agent 1`.
    pub object: String,
    /// What is wrong, and why it matters in play.
    pub message: String,
}

impl fmt::Display for DesignWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.object, self.message)
    }
}

/// Samples per side of a region tested for lying inside solid ground.
const SAMPLES: usize = 5;

/// A body this far inside a wall counts as inside it, m (a body resting against a wall or on a
/// floor touches it without being inside).
const INSIDE: f64 = 0.01;

/// The design warnings of `level`, in the order of its fields; `jump_height` is the tuning's
/// (the level's overrides applied), m.
pub fn design_warnings(level: &Level, jump_height: f64) -> Vec<DesignWarning> {
    let mut out = Vec::new();
    let mut warn = |object: String, message: String| out.push(DesignWarning { object, message });
    if let Some(g) = level.goal {
        if g.contains(level.spawn) {
            warn(
                "goal".into(),
                format!(
                    "{} covers the spawn ({}, {}): the level is complete at its first tick",
                    region(&g),
                    level.spawn.x,
                    level.spawn.y
                ),
            );
        }
    }
    let top_down = level.tuning.top_down == Some(true);
    let regions = level
        .checkpoints
        .iter()
        .enumerate()
        .map(|(i, r)| (format!("checkpoint {i}"), *r))
        .chain(level.goal.map(|g| ("goal".to_string(), g)));
    for (name, r) in regions {
        if inside_solid(level, &r) {
            warn(
                name,
                format!(
                    "{} lies inside solid ground: no character's feet can reach it",
                    region(&r)
                ),
            );
        } else if !top_down && !near_a_floor(level, &r, jump_height) {
            warn(
                name,
                format!(
                    "{} floats higher than a jump ({jump_height} m) above every floor: no \
                     character's feet can reach it",
                    region(&r)
                ),
            );
        }
    }
    for (i, d) in level.doors.iter().enumerate() {
        if d.switch.is_some() && d.open && d.close_after.is_none() {
            warn(
                format!("door {i}"),
                "its switch drives nothing: the door starts open and never closes".into(),
            );
        }
    }
    for (i, a) in level.agents.iter().enumerate() {
        let (Some(_), Some((w, h))) = (a.patrol, a.size.box_size()) else {
            continue;
        };
        let body = Aabb {
            min: a.spawn + DVec2::new(-w / 2.0 + INSIDE, INSIDE),
            max: a.spawn + DVec2::new(w / 2.0 - INSIDE, h - INSIDE),
        };
        if let Some(p) = level
            .polygons
            .iter()
            .position(|p| p.kind == PolygonKind::Solid && polygon_meets_box(&p.points, &body))
        {
            warn(
                format!("agent {i}"),
                format!(
                    "spawned inside a wall of its patrol: its body at ({}, {}) overlaps polygon {p}",
                    a.spawn.x, a.spawn.y
                ),
            );
        }
    }
    for (i, name) in super::signal::unused_signals(level) {
        warn(
            format!("signal {i}"),
            format!("`{name}` drives nothing: no door, mover or hazard names it"),
        );
    }
    for (object, why) in super::signal::undriven_targets(level) {
        warn(object, why);
    }
    out
}

/// `min (x, y) max (x, y)`, as the level's messages write a region.
fn region(r: &Aabb) -> String {
    format!(
        "the region min ({}, {}) max ({}, {})",
        r.min.x, r.min.y, r.max.x, r.max.y
    )
}

/// Whether every sample point of `r` lies inside some solid polygon.
fn inside_solid(level: &Level, r: &Aabb) -> bool {
    let n = SAMPLES - 1;
    (0..=n).all(|i| {
        (0..=n).all(|j| {
            let t = DVec2::new(i as f64 / n as f64, j as f64 / n as f64);
            let p = r.min + (r.max - r.min) * t;
            level
                .polygons
                .iter()
                .any(|poly| poly.kind == PolygonKind::Solid && point_in_polygon(&poly.points, p))
        })
    })
}

/// Whether something to stand on or climb (a polygon's edge that is not a hazard's, a mover's
/// piece anywhere along its path, a ladder, the bottom of explicit bounds) comes within a jump
/// below `r`, within a jump's height sideways of it (a jump carries the feet sideways too).
fn near_a_floor(level: &Level, r: &Aabb, jump: f64) -> bool {
    let (x0, x1) = (r.min.x - jump, r.max.x + jump);
    let (y0, y1) = (r.min.y - jump, r.max.y);
    let reaches = |a: DVec2, b: DVec2| -> bool {
        let (lo, hi) = if a.x <= b.x { (a, b) } else { (b, a) };
        let (cx0, cx1) = (lo.x.max(x0), hi.x.min(x1));
        if cx0 > cx1 {
            return false;
        }
        let y_at = |x: f64| {
            if hi.x == lo.x {
                None
            } else {
                Some(lo.y + (hi.y - lo.y) * (x - lo.x) / (hi.x - lo.x))
            }
        };
        let (ya, yb) = match (y_at(cx0), y_at(cx1)) {
            (Some(ya), Some(yb)) => (ya, yb),
            // A vertical edge: its whole height.
            _ => (lo.y, hi.y),
        };
        ya.min(yb) <= y1 && ya.max(yb) >= y0
    };
    let edges = |pts: &[DVec2], offset: DVec2| -> bool {
        (0..pts.len()).any(|k| reaches(pts[k] + offset, pts[(k + 1) % pts.len()] + offset))
    };
    level
        .polygons
        .iter()
        .filter(|p| p.kind != PolygonKind::Hazard)
        .any(|p| edges(&p.points, DVec2::ZERO))
        || level.doors.iter().any(|d| edges(&d.points, DVec2::ZERO))
        || level.movers.iter().any(|m| {
            m.stops()
                .into_iter()
                .any(|o| m.pieces.iter().any(|piece| edges(piece, o)))
        })
        || level
            .ladders
            .iter()
            .any(|l| l.max.x >= x0 && l.min.x <= x1 && l.max.y >= y0 && l.min.y <= y1)
        || level.bounds.is_some_and(|b| b.min.y >= y0 && b.min.y <= y1)
}

/// Whether `p` lies inside the polygon `pts` (even-odd rule).
fn point_in_polygon(pts: &[DVec2], p: DVec2) -> bool {
    let mut inside = false;
    let n = pts.len();
    for k in 0..n {
        let (a, b) = (pts[k], pts[(k + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if p.x < x {
                inside = !inside;
            }
        }
    }
    inside
}

/// Whether the polygon `pts` and the box `b` overlap: a corner of one inside the other, or an
/// edge of the polygon crossing one of the box's.
fn polygon_meets_box(pts: &[DVec2], b: &Aabb) -> bool {
    let corners = [
        b.min,
        DVec2::new(b.max.x, b.min.y),
        b.max,
        DVec2::new(b.min.x, b.max.y),
    ];
    if pts.iter().any(|&p| b.contains(p)) || corners.iter().any(|&c| point_in_polygon(pts, c)) {
        return true;
    }
    let n = pts.len();
    (0..n).any(|k| {
        let (a, c) = (pts[k], pts[(k + 1) % n]);
        (0..4).any(|e| segments_cross(a, c, corners[e], corners[(e + 1) % 4]))
    })
}

/// Whether the segments `ab` and `cd` cross (proper intersection).
fn segments_cross(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let side = |p: DVec2, q: DVec2, r: DVec2| (q - p).perp_dot(r - p);
    let (d1, d2) = (side(a, b, c), side(a, b, d));
    let (d3, d4) = (side(c, d, a), side(c, d, b));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{LevelAgent, LevelDoor, LevelPolygon};

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<DVec2> {
        vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)]
    }

    fn boxed(x0: f64, y0: f64, x1: f64, y1: f64) -> Aabb {
        Aabb {
            min: p(x0, y0),
            max: p(x1, y1),
        }
    }

    /// A floor from x = -10 to 10 (top at 0) with a wall from x = 4 to 5 up to y = 3.
    fn level() -> Level {
        Level {
            polygons: vec![
                LevelPolygon::solid(rect(-10.0, -2.0, 10.0, 0.0)),
                LevelPolygon::solid(rect(4.0, 0.0, 5.0, 3.0)),
            ],
            spawn: p(0.0, 0.0),
            ..Level::empty("design")
        }
    }

    fn objects(l: &Level) -> Vec<String> {
        design_warnings(l, 3.2)
            .iter()
            .map(|w| w.object.clone())
            .collect()
    }

    #[test]
    fn a_sound_level_has_no_warning_and_each_mistake_is_named() {
        let mut l = level();
        l.goal = Some(boxed(6.0, 0.0, 7.0, 2.5));
        l.checkpoints = vec![boxed(-3.0, 2.0, -2.0, 4.5)];
        assert_eq!(design_warnings(&l, 3.2), vec![]);

        l.goal = Some(boxed(-20.0, -10.0, 20.0, 20.0));
        let w = design_warnings(&l, 3.2);
        assert_eq!(objects(&l), ["goal"]);
        assert!(
            w[0].to_string().contains("covers the spawn (0, 0)"),
            "{}",
            w[0]
        );

        // Inside the floor; floating 10 m up (a jump is 3.2 m).
        l.goal = None;
        l.checkpoints = vec![boxed(-5.0, -1.5, -4.0, -0.5), boxed(-3.0, 10.0, -2.0, 12.0)];
        let w = design_warnings(&l, 3.2);
        assert_eq!(objects(&l), ["checkpoint 0", "checkpoint 1"]);
        assert!(w[0].message.contains("inside solid ground"), "{}", w[0]);
        assert!(
            w[1].message.contains("higher than a jump (3.2 m)"),
            "{}",
            w[1]
        );
        // A higher jump reaches it; a ladder under it too.
        assert!(design_warnings(&l, 12.0).len() == 1);
        l.ladders.push(crate::level::Ladder {
            min: p(-3.0, 0.0),
            max: p(-2.5, 9.0),
        });
        assert_eq!(objects(&l), ["checkpoint 0"]);
        l.checkpoints.clear();

        // A door that starts open and never closes: its switch drives nothing.
        let door = LevelDoor {
            points: rect(-8.0, 0.0, -7.5, 3.0),
            open: true,
            switch: Some(boxed(-6.0, 0.0, -5.0, 1.0)),
            close_after: None,
            open_on: Vec::new(),
            close_on: Vec::new(),
            toggle_on: Vec::new(),
        };
        l.doors = vec![door.clone()];
        assert_eq!(objects(&l), ["door 0"]);
        l.doors[0].close_after = Some(2.0);
        assert_eq!(objects(&l), Vec::<String>::new());

        // A patrolling agent whose body starts in the wall; beside it, none.
        let mut agent: LevelAgent = ron::from_str(
            "(kind: crawler, size: medium, spawn: (4.2, 0.0), patrol: Some((0.0, 4.5)))",
        )
        .unwrap();
        l.agents = vec![agent.clone()];
        let w = design_warnings(&l, 3.2);
        assert_eq!(objects(&l), ["agent 0"]);
        assert!(w[0].message.contains("overlaps polygon 1"), "{}", w[0]);
        agent.spawn = p(3.6, 0.0);
        l.agents = vec![agent];
        assert_eq!(objects(&l), Vec::<String>::new());
    }
}
