//! The one validator of a level: every rule a level file must keep that is checkable without
//! building a mesh, each problem a [`LevelProblem`] naming its culprit. [`Level::validate`] runs
//! them all in file order, first problem wins, on load (so `tessera check`) and before save, so a
//! level on disk always loads. The editor checks each edit with the same functions on the part
//! it touches ([`check_polygon`], [`check_ladder`], [`check_agents`], [`Level::check_doors`],
//! ...) and wraps the problem in its own error, so an edit is refused with the message a load of
//! the result would give, and a valid level stays valid.
//!
//! What is left to the simulation: whether the polygons triangulate (they do whenever they
//! validate, barring a bug) and whether the spawn point is free (moved with a warning if not).
//! What is left to the editor: rules for edits only (two vertices closer than its tolerance, an
//! agent placed inside a rock), which a file may break and still load.
//!
//! # Must never depend on
//! The editor, the simulation, or any window, GPU or audio crate: it reads `collision` (polygon
//! validation, convex pieces) and `movement` (tuning ranges) only.
use glam::DVec2;

use super::document::{
    polygon_id, Ladder, Level, LevelAgent, LevelDoor, LevelMover, LevelPolygon, MUSIC_TRACKS,
};
use super::error::LevelProblem;
use super::limits::{check_limits, check_mover_size, LimitExceeded, MAX_AGENTS, MAX_MOVERS};
use super::track::track_problem;
use crate::collision::{validate_polygon, Aabb, Num, MAX_COORDINATE};
use crate::movement::{Tuning, TuningOverrides};

impl Level {
    /// Checks the limits of [`super::limits`] first, then polygons (via
    /// `collision::validate_polygon`), colours, ladders, the music track, the spawn point, the
    /// doors, the agents, the checkpoints and the goal (regions inside the bounds), the movers,
    /// both bounds, the tuning overrides applied to `Tuning::default()`, the signs, and the signals
    /// (`level::signal::check_signals`).
    pub fn validate(&self) -> Result<(), LevelProblem> {
        // First the counts (O(polygons)), so that the validation's own work is bounded.
        check_limits(self).map_err(LevelProblem::Limit)?;
        for (i, p) in self.polygons.iter().enumerate() {
            check_polygon(i, p)?;
        }
        for (i, l) in self.ladders.iter().enumerate() {
            check_ladder(i, l)?;
        }
        check_music(self.music)?;
        check_spawn(self.spawn)?;
        self.check_doors(&self.doors)?;
        check_agents(&self.agents)?;
        for (i, c) in self.checkpoints.iter().enumerate() {
            check_checkpoint(i, c, self.bounds)?;
        }
        check_goal(self.goal.as_ref(), self.bounds)?;
        check_movers(&self.movers, self.bounds)?;
        check_bounds("camera_bounds", self.camera_bounds.as_ref())?;
        check_bounds("bounds", self.bounds.as_ref())?;
        check_tuning(&self.tuning)?;
        super::sign::check_signs(&self.signs)?;
        if !self.objects.is_empty() {
            // The objects' own rules, then what they make, checked as the level's own parts
            // are (the expanded level has no objects: no recursion).
            self.objects.check()?;
            return self.played().validate();
        }
        super::signal::check_signals(self)
    }

    /// Checks `doors` as this level's doors: each door's outline, switch and timer
    /// ([`Level::door_problem`]), then that no two overlap ([`doors_overlap`]). Door `i` is
    /// polygon `polygons.len() + i` of the meshes; the counts are [`super::limits`]'.
    pub fn check_doors(&self, doors: &[LevelDoor]) -> Result<(), LevelProblem> {
        for (i, d) in doors.iter().enumerate() {
            if let Some(why) = self.door_problem(i, d) {
                return Err(LevelProblem::Door { index: i, why });
            }
        }
        match doors_overlap(doors) {
            Some((i, j)) => Err(LevelProblem::Door {
                index: i,
                why: format!("its outline overlaps door {j}'s"),
            }),
            None => Ok(()),
        }
    }

    /// Checks that the checkpoints, the goal and the movers' paths lie inside `bounds` (level
    /// bounds about to be set; `None`, automatic bounds, holds everything).
    pub fn check_inside(&self, bounds: Option<Aabb>) -> Result<(), LevelProblem> {
        for (i, c) in self.checkpoints.iter().enumerate() {
            check_checkpoint(i, c, bounds)?;
        }
        check_goal(self.goal.as_ref(), bounds)?;
        for (i, m) in self.movers.iter().enumerate() {
            if let Some(why) = mover_outside(m, bounds) {
                return Err(LevelProblem::Mover { index: i, why });
            }
        }
        Ok(())
    }

    /// Why door `i` would be unusable as `d`, or `None`: a valid polygon, a valid switch region,
    /// a positive `close_after`.
    pub(crate) fn door_problem(&self, i: usize, d: &LevelDoor) -> Option<String> {
        let id = self.door_id(i);
        if let Err(e) = validate_polygon(id, &d.points) {
            // The geometry error names the door's polygon id; say "door i" instead.
            let text = e.to_string();
            let prefix = format!("polygon {}: ", id.0);
            Some(text.strip_prefix(&prefix).unwrap_or(&text).to_string())
        } else if let Some(why) = d.switch.as_ref().and_then(box_problem) {
            Some(format!("switch: {why}"))
        } else {
            d.close_after
                .filter(|t| !(t.is_finite() && *t > 0.0))
                .map(|t| {
                    format!(
                        "close_after {} must be a positive number of seconds",
                        Num(t)
                    )
                })
        }
    }
}

/// Checks polygon `index`'s outline (`collision::validate_polygon`).
pub fn check_outline(index: usize, points: &[DVec2]) -> Result<(), LevelProblem> {
    validate_polygon(polygon_id(index), points).map_err(LevelProblem::Polygon)
}

/// Checks polygon `index`'s colour: every component in `[0, 1]`.
pub fn check_colour(index: usize, colour: Option<[f32; 3]>) -> Result<(), LevelProblem> {
    match colour {
        Some(c) if !c.iter().all(|v| (0.0..=1.0).contains(v)) => {
            Err(LevelProblem::Colour { index, colour: c })
        }
        _ => Ok(()),
    }
}

/// Checks polygon `index`: its outline, then its colour, then that a look other than the
/// default is a hazard's.
pub fn check_polygon(index: usize, p: &LevelPolygon) -> Result<(), LevelProblem> {
    check_outline(index, &p.points)?;
    check_colour(index, p.colour)?;
    if p.kind != crate::level::PolygonKind::Hazard && p.look != crate::level::HazardLook::default()
    {
        return Err(LevelProblem::HazardLook {
            index,
            look: p.look,
        });
    }
    Ok(())
}

/// Checks ladder `index`: a proper box ([`box_problem`]).
pub fn check_ladder(index: usize, l: &Ladder) -> Result<(), LevelProblem> {
    match box_problem(&l.aabb()) {
        Some(why) => Err(LevelProblem::Ladder { index, why }),
        None => Ok(()),
    }
}

/// Checks the music track: 1 to [`MUSIC_TRACKS`], or `None` (the default).
pub fn check_music(music: Option<u32>) -> Result<(), LevelProblem> {
    match music.filter(|t| !(1..=MUSIC_TRACKS).contains(t)) {
        Some(track) => Err(LevelProblem::Music { track }),
        None => Ok(()),
    }
}

/// Checks the spawn point: finite and within the coordinate range.
pub fn check_spawn(spawn: DVec2) -> Result<(), LevelProblem> {
    if in_range(spawn) {
        Ok(())
    } else {
        Err(LevelProblem::Spawn {
            x: spawn.x,
            y: spawn.y,
        })
    }
}

/// Checks `camera_bounds` or `bounds` (`field`): a proper box when set.
pub fn check_bounds(field: &'static str, b: Option<&Aabb>) -> Result<(), LevelProblem> {
    match b.and_then(box_problem) {
        Some(why) => Err(LevelProblem::Bounds { field, why }),
        None => Ok(()),
    }
}

/// Checks checkpoint `index`: a proper box inside the level's `bounds` when it has them.
pub fn check_checkpoint(index: usize, c: &Aabb, bounds: Option<Aabb>) -> Result<(), LevelProblem> {
    match region_problem(c, bounds) {
        Some(why) => Err(LevelProblem::Checkpoint { index, why }),
        None => Ok(()),
    }
}

/// Checks the goal region: a proper box inside the level's `bounds` when it has them.
pub fn check_goal(goal: Option<&Aabb>, bounds: Option<Aabb>) -> Result<(), LevelProblem> {
    match goal.and_then(|g| region_problem(g, bounds)) {
        Some(why) => Err(LevelProblem::Goal { why }),
        None => Ok(()),
    }
}

/// Checks a list of agents: at most [`MAX_AGENTS`], each usable ([`agent_problem`]).
pub fn check_agents(agents: &[LevelAgent]) -> Result<(), LevelProblem> {
    if agents.len() > MAX_AGENTS {
        return Err(LevelProblem::Limit(LimitExceeded::Agents {
            count: agents.len(),
        }));
    }
    for (i, a) in agents.iter().enumerate() {
        if let Some(why) = agent_problem(a) {
            return Err(LevelProblem::Agent { index: i, why });
        }
    }
    Ok(())
}

/// Checks a list of movers: at most [`MAX_MOVERS`], each within the size limits, usable
/// ([`mover_problem`]) and, when the level has `bounds`, inside them along its whole path
/// ([`mover_outside`]).
pub fn check_movers(movers: &[LevelMover], bounds: Option<Aabb>) -> Result<(), LevelProblem> {
    if movers.len() > MAX_MOVERS {
        return Err(LevelProblem::Limit(LimitExceeded::Movers {
            count: movers.len(),
        }));
    }
    for (i, m) in movers.iter().enumerate() {
        check_mover_size(i, m).map_err(LevelProblem::Limit)?;
        if let Some(why) = mover_problem(m).or_else(|| mover_outside(m, bounds)) {
            return Err(LevelProblem::Mover { index: i, why });
        }
    }
    Ok(())
}

/// Checks the tuning overrides: applied to `Tuning::default()`, every value in range.
pub fn check_tuning(overrides: &TuningOverrides) -> Result<(), LevelProblem> {
    Tuning::default()
        .with_overrides(overrides)
        .validate()
        .map_err(LevelProblem::Tuning)
}

/// Why a checkpoint or goal region is unusable, or `None`: a proper box, inside `bounds` when
/// the level has them.
fn region_problem(b: &Aabb, bounds: Option<Aabb>) -> Option<String> {
    box_problem(b).or_else(|| {
        let outside = bounds.filter(|o| !(o.contains(b.min) && o.contains(b.max)));
        outside.map(|o| {
            format!(
                "the region min ({}, {}) max ({}, {}) must lie inside the level's bounds min ({}, {}) max ({}, {})",
                Num(b.min.x), Num(b.min.y), Num(b.max.x), Num(b.max.y),
                Num(o.min.x), Num(o.min.y), Num(o.max.x), Num(o.max.y)
            )
        })
    })
}

/// Why an agent is unusable, or `None`: a spawn in range, a facing of 1 or -1, a patrol range
/// around its spawn.
pub(crate) fn agent_problem(a: &LevelAgent) -> Option<String> {
    if !in_range(a.spawn) {
        Some(format!(
            "spawn ({}, {}) must be finite and within ±1e7 m",
            Num(a.spawn.x),
            Num(a.spawn.y)
        ))
    } else if a.facing != 1.0 && a.facing != -1.0 {
        Some(format!(
            "facing {} must be 1 (right) or -1 (left)",
            Num(a.facing)
        ))
    } else if let Some([left, right]) = a.patrol {
        if !(in_range(DVec2::new(left, 0.0)) && in_range(DVec2::new(right, 0.0))) || left >= right {
            Some(format!(
                "patrol range ({}, {}) must be two finite x coordinates within ±1e7 m, the left \
                 one first",
                Num(left),
                Num(right)
            ))
        } else if !(left..=right).contains(&a.spawn.x) {
            Some(format!(
                "spawn x {} must lie in its patrol range ({}, {})",
                Num(a.spawn.x),
                Num(left),
                Num(right)
            ))
        } else {
            None
        }
    } else {
        None
    }
}

/// Why mover `m`'s path takes it outside `bounds`, or `None`: every offset of the path must
/// keep the box of its pieces inside the level's bounds (when the level has them; automatic
/// bounds grow around the movers' whole paths).
pub(crate) fn mover_outside(m: &LevelMover, bounds: Option<Aabb>) -> Option<String> {
    let b = bounds?;
    let (k, o) = m.stops().into_iter().enumerate().find(|&(_, o)| {
        let at = turning_box(m, o);
        !(b.contains(at.min) && b.contains(at.max))
    })?;
    Some(format!(
        "{} {k} ({}, {}) takes it outside the level's bounds min ({}, {}) max ({}, {})",
        if m.track.is_some() {
            "track key"
        } else {
            "path offset"
        },
        Num(o.x),
        Num(o.y),
        Num(b.min.x),
        Num(b.min.y),
        Num(b.max.x),
        Num(b.max.y)
    ))
}

/// The first two doors (by the first's index) whose outlines overlap with positive area
/// (touching is allowed: two leaves of one doorway), exactly (`collision::colliders_meet` on their
/// convex pieces). The boxes are swept along x first, so it costs O(n log n) plus the pairs
/// whose boxes overlap.
pub(crate) fn doors_overlap(doors: &[LevelDoor]) -> Option<(usize, usize)> {
    use crate::collision::{colliders_meet, convex_pieces, Meeting};
    let boxes: Vec<Aabb> = doors
        .iter()
        .map(|d| Aabb::from_points(d.points.iter().copied()))
        .collect();
    let mut order: Vec<usize> = (0..doors.len()).collect();
    order.sort_by(|&a, &b| boxes[a].min.x.total_cmp(&boxes[b].min.x));
    let mut pieces: Vec<Option<Vec<Vec<DVec2>>>> = vec![None; doors.len()];
    let mut found: Option<(usize, usize)> = None;
    for (k, &a) in order.iter().enumerate() {
        for &b in &order[k + 1..] {
            if boxes[b].min.x >= boxes[a].max.x {
                break;
            }
            if !boxes[a].overlaps(&boxes[b]) {
                continue;
            }
            for i in [a, b] {
                if pieces[i].is_none() {
                    pieces[i] = Some(convex_pieces(&doors[i].points).unwrap_or_default());
                }
            }
            let (pa, pb) = (pieces[a].as_ref().unwrap(), pieces[b].as_ref().unwrap());
            let meet = pa.iter().any(|p| {
                pb.iter()
                    .any(|q| colliders_meet(p, DVec2::ZERO, q, DVec2::ZERO) == Meeting::Overlapping)
            });
            if meet {
                let pair = (a.min(b), a.max(b));
                found = Some(found.map_or(pair, |f| f.min(pair)));
            }
        }
    }
    found
}

/// Longest period (s) of a mover's path: a day.
pub const MAX_MOVER_PERIOD: f64 = 86_400.0;
/// Fastest spin (rad/s) of a mover: 10 rad/s, a turn in 0.63 s (a 2 m arm's tip moves 17 cm a
/// tick, less than the smallest size class is wide, so a turning arm cannot step over a
/// character between two ticks).
pub const MAX_MOVER_SPIN: f64 = 10.0;

/// Why a mover is unusable, or `None`: pieces of at least three points, finite and in range,
/// each strictly convex (either orientation); either a track ([`track_problem`]) and none of the
/// shorthand, or a path of at least two offsets and a positive finite period of at most
/// [`MAX_MOVER_PERIOD`]; offsets that keep every piece in range.
pub(crate) fn mover_problem(m: &LevelMover) -> Option<String> {
    if m.pieces.is_empty() {
        return Some("it has no pieces".into());
    }
    for (k, piece) in m.pieces.iter().enumerate() {
        if piece.len() < 3 {
            return Some(format!(
                "piece {k} has {} points, at least 3 needed",
                piece.len()
            ));
        }
        if let Some(p) = piece.iter().find(|p| !in_range(**p)) {
            return Some(format!(
                "piece {k}: point ({}, {}) must be finite and within ±1e7 m",
                Num(p.x),
                Num(p.y)
            ));
        }
        let ccw = crate::collision::normalized_ccw(piece);
        if !crate::collision::is_strictly_convex(&ccw) {
            return Some(format!(
                "piece {k} is not convex (split a concave outline into convex pieces)"
            ));
        }
    }
    if let Some(track) = &m.track {
        if m.has_shorthand() {
            return Some(
                "it has a track and the shorthand (path, period, mode, ease, spin, swing): give \
                 one of them"
                    .into(),
            );
        }
        if let Some(why) = track_problem(track) {
            return Some(why);
        }
    } else if m.path.len() < 2 {
        return Some(format!(
            "path has {} offset{}, at least 2 needed",
            m.path.len(),
            if m.path.len() == 1 { "" } else { "s" }
        ));
    }
    let bounds = Aabb::from_points(m.pieces.iter().flatten().copied());
    for o in m.stops() {
        if !in_range(o) || !in_range(bounds.min + o) || !in_range(bounds.max + o) {
            return Some(format!(
                "{} ({}, {}) must be finite and keep the mover within ±1e7 m",
                if m.track.is_some() {
                    "track key offset"
                } else {
                    "path offset"
                },
                Num(o.x),
                Num(o.y)
            ));
        }
    }
    if m.track.is_none()
        && !(m.period.is_finite() && m.period > 0.0 && m.period <= MAX_MOVER_PERIOD)
    {
        return Some(format!(
            "period {} must be a positive number of seconds, at most {MAX_MOVER_PERIOD}",
            Num(m.period)
        ));
    }
    if !(m.spin.is_finite() && m.spin.abs() <= MAX_MOVER_SPIN) {
        return Some(format!(
            "spin {} must be a number of radians per second from -{MAX_MOVER_SPIN} to {MAX_MOVER_SPIN}",
            Num(m.spin)
        ));
    }
    if !(m.swing.is_finite() && m.swing.abs() <= std::f64::consts::PI) {
        return Some(format!(
            "swing {} must be a number of radians from -π to π",
            Num(m.swing)
        ));
    }
    if !in_range(m.pivot_point()) {
        return Some(format!(
            "pivot ({}, {}) must be finite and keep the turning point within ±1e7 m",
            Num(m.pivot.x),
            Num(m.pivot.y)
        ));
    }
    if m.turns() {
        let b = turning_box(m, DVec2::ZERO);
        if !in_range(b.min) || !in_range(b.max) {
            return Some("turning about its pivot takes it beyond ±1e7 m".into());
        }
    }
    None
}

/// The box mover `m` can cover at path offset `o`: its pieces' box, or for a turning mover the
/// box of the circle about its pivot through its farthest point (every angle it may take).
pub(crate) fn turning_box(m: &LevelMover, o: DVec2) -> Aabb {
    let rest = Aabb::from_points(m.pieces.iter().flatten().copied());
    if !m.turns() {
        return Aabb {
            min: rest.min + o,
            max: rest.max + o,
        };
    }
    let (c, r) = (m.pivot_point(), m.turning_radius());
    Aabb {
        min: c + o - DVec2::splat(r),
        max: c + o + DVec2::splat(r),
    }
}

/// Whether `p` is finite and within the coordinate range (±[`MAX_COORDINATE`]).
pub fn in_range(p: DVec2) -> bool {
    p.is_finite() && p.abs().max_element() <= MAX_COORDINATE
}

/// Why a box is unusable, or `None` if it is fine.
pub(crate) fn box_problem(b: &Aabb) -> Option<String> {
    if !in_range(b.min) || !in_range(b.max) {
        return Some(format!(
            "min ({}, {}) and max ({}, {}) must be finite and within ±1e7 m",
            Num(b.min.x),
            Num(b.min.y),
            Num(b.max.x),
            Num(b.max.y)
        ));
    }
    if !(b.min.x < b.max.x && b.min.y < b.max.y) {
        return Some(format!(
            "min ({}, {}) must be below and left of max ({}, {})",
            Num(b.min.x),
            Num(b.min.y),
            Num(b.max.x),
            Num(b.max.y)
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collision::GeometryError;
    use crate::level::{Ladder, LevelPolygon};

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// Two polygons, a ladder and camera bounds, read as a level file is.
    fn good() -> Level {
        Level {
            polygons: vec![
                LevelPolygon::solid(vec![p(-5., -1.), p(5., -1.), p(5., 0.), p(-5., 0.)]),
                LevelPolygon::solid(vec![p(6., 0.), p(8., 0.), p(7., 1.)]),
            ],
            ladders: vec![Ladder {
                min: p(2., 0.),
                max: p(3., 4.),
            }],
            spawn: p(0., 0.),
            camera_bounds: Some(Aabb {
                min: p(-10., -5.),
                max: p(10., 10.),
            }),
            ..Level::empty("ok")
        }
    }

    #[test]
    fn a_good_level_validates() {
        good().validate().unwrap();
    }

    #[test]
    fn polygon_problems_name_the_index() {
        let mut l = good();
        l.polygons[1].points.truncate(2);
        let e = l.validate().unwrap_err();
        assert!(matches!(
            e,
            LevelProblem::Polygon(GeometryError::TooFewPoints { count: 2, .. })
        ));
        assert!(e.to_string().starts_with("polygon 1: "), "{e}");
    }

    #[test]
    fn a_hazard_look_on_a_polygon_that_is_no_hazard_is_refused() {
        let mut l = good();
        l.polygons[0].look = crate::level::HazardLook::Lava;
        let e = l.validate().unwrap_err();
        assert_eq!(
            e.to_string(),
            "polygon 0: look: lava is for a hazard, and this polygon is not one"
        );
        l.polygons[0].kind = crate::level::PolygonKind::Hazard;
        assert_eq!(l.validate(), Ok(()));
    }

    #[test]
    fn colour_out_of_range_is_refused() {
        let mut l = good();
        l.polygons[0].colour = Some([0.5, 1.5, 0.0]);
        let e = l.validate().unwrap_err();
        assert_eq!(
            e,
            LevelProblem::Colour {
                index: 0,
                colour: [0.5, 1.5, 0.0]
            }
        );
        l.polygons[0].colour = Some([f32::NAN, 0.0, 0.0]);
        assert!(matches!(
            l.validate(),
            Err(LevelProblem::Colour { index: 0, .. })
        ));
    }

    #[test]
    fn ladders_must_be_proper_boxes() {
        let mut l = good();
        l.ladders.push(Ladder {
            min: p(1., 5.),
            max: p(2., 5.),
        });
        let e = l.validate().unwrap_err();
        assert!(e.to_string().starts_with("ladder 1: "), "{e}");
        l.ladders[1].max = p(2., f64::INFINITY);
        assert!(matches!(
            l.validate(),
            Err(LevelProblem::Ladder { index: 1, .. })
        ));
    }

    /// Doors may touch (two leaves of one doorway) but not overlap; the pair named is the first
    /// by index whatever the order along x.
    #[test]
    fn overlapping_doors_are_found_exactly() {
        let door = |x0: f64, x1: f64| LevelDoor {
            points: vec![p(x0, 0.), p(x1, 0.), p(x1, 2.), p(x0, 2.)],
            open: false,
            switch: None,
            close_after: None,
            open_on: Vec::new(),
            close_on: Vec::new(),
            toggle_on: Vec::new(),
        };
        let doors = vec![door(5., 6.), door(1., 2.), door(2., 3.), door(-4., -3.)];
        assert_eq!(doors_overlap(&doors), None, "touching is not overlapping");
        let mut more = doors.clone();
        more.push(door(2.5, 5.5));
        assert_eq!(doors_overlap(&more), Some((0, 4)));
        let mut l = good();
        l.doors = more;
        assert!(matches!(
            l.validate(),
            Err(LevelProblem::Door { index: 0, .. })
        ));
    }

    /// A mover's path must keep its pieces inside explicit bounds at every offset.
    #[test]
    fn a_mover_path_must_stay_inside_the_bounds() {
        let m = LevelMover {
            pieces: vec![vec![p(0., 1.), p(1., 1.), p(1., 1.5), p(0., 1.5)]],
            path: vec![p(0., 0.), p(0., 3.)],
            period: 2.0,
            ..Default::default()
        };
        let inside = Aabb {
            min: p(-1., 0.),
            max: p(2., 4.5),
        };
        assert_eq!(mover_outside(&m, None), None);
        assert_eq!(
            mover_outside(&m, Some(inside)),
            None,
            "its top reaches 4.5 exactly"
        );
        let low = Aabb {
            max: p(2., 4.4),
            ..inside
        };
        let why = mover_outside(&m, Some(low)).unwrap();
        assert!(
            why.starts_with("path offset 1 (0, 3) takes it outside"),
            "{why}"
        );
    }

    /// A turning mover: its spin and swing in range, never one-way, and the whole circle it turns
    /// through inside explicit bounds.
    #[test]
    fn a_turning_mover_is_checked() {
        let m = LevelMover {
            pieces: vec![vec![p(-2., 0.), p(2., 0.), p(2., 0.5), p(-2., 0.5)]],
            path: vec![p(0., 0.), p(0., 0.)],
            period: 2.0,
            spin: 1.5,
            ..Default::default()
        };
        assert_eq!(mover_problem(&m), None);
        assert_eq!(m.pivot_point(), p(0., 0.25));
        let fast = LevelMover {
            spin: 11.0,
            ..m.clone()
        };
        assert!(mover_problem(&fast).unwrap().starts_with("spin 11 must be"));
        let wide = LevelMover {
            swing: 4.0,
            ..m.clone()
        };
        assert!(mover_problem(&wide).unwrap().starts_with("swing 4 must be"));
        // A turning mover may be one-way (a rocking one-way plank).
        let one_way = LevelMover {
            one_way: true,
            ..m.clone()
        };
        assert_eq!(mover_problem(&one_way), None);
        // Turning about (0, 0.25), its far corners are sqrt(4 + 1/16) m away: a box 4 m wide
        // holds it at rest but not turned.
        let rest = Aabb {
            min: p(-2., -0.5),
            max: p(2., 1.),
        };
        let still = LevelMover {
            spin: 0.0,
            ..m.clone()
        };
        assert_eq!(mover_outside(&still, Some(rest)), None);
        assert!(mover_outside(&m, Some(rest)).is_some());
        let room = Aabb {
            min: p(-2.1, -2.),
            max: p(2.1, 2.5),
        };
        assert_eq!(mover_outside(&m, Some(room)), None);
    }

    #[test]
    fn spawn_and_bounds_are_checked() {
        let mut l = good();
        l.spawn = p(f64::NAN, 0.);
        assert!(matches!(l.validate(), Err(LevelProblem::Spawn { .. })));
        let mut l = good();
        l.spawn = p(2e7, 0.);
        assert!(matches!(l.validate(), Err(LevelProblem::Spawn { .. })));
        let mut l = good();
        l.camera_bounds = Some(Aabb {
            min: p(1., 1.),
            max: p(0., 2.),
        });
        let e = l.validate().unwrap_err();
        assert!(
            e.to_string()
                .starts_with("camera_bounds: min (1, 1) must be below"),
            "{e}"
        );
        let mut l = good();
        l.bounds = Some(Aabb {
            min: p(0., 0.),
            max: p(0., 0.),
        });
        assert!(matches!(
            l.validate(),
            Err(LevelProblem::Bounds {
                field: "bounds",
                ..
            })
        ));
    }

    #[test]
    fn tuning_overrides_are_range_checked() {
        let mut l = good();
        l.tuning.jump_cut = Some(2.0);
        let e = l.validate().unwrap_err();
        assert!(e.to_string().contains("jump_cut"), "{e}");
    }
}
