//! Movers in the editor: the pieces are the body (picked by their inside), the path's offsets
//! (or the track's keys) are nodes drawn from the pieces' centre ([`ObjectKind::NODES`]:
//! selected, dragged, inserted with Ctrl on a segment, deleted); the panel edits a track's repeat
//! and delay and the selected key's angle, hold and leg, and turns a path into a track; the
//! selected mover's piece corners are handles that reshape it (the level's rules keep each piece
//! strictly convex). Drawn with its path, its
//! pivot and turning circle when it turns, ghosts at its nodes when selected, and its pose at
//! the view's preview time.
use glam::DVec2;

use super::{Colour, DrawState, ObjectKind, PanelAsks, PanelUi, Part, Pen, Place, Placement};
use crate::collision::Aabb;
use crate::editor::objects::rect_points;
use crate::editor::ops::EditError;
use crate::editor::session::closest_on_segment;
use crate::level::validate::check_movers;
use crate::level::{
    Level, LevelMover, MoverEase, MoverMode, Track, TrackEase, TrackKey, TrackRepeat,
};

/// Movers at rest and their paths.
pub const MOVER: Colour = Colour::Rgba([190, 150, 255, 255]);
/// A mover at the other nodes of its path, and at the previewed time.
pub const GHOST: Colour = Colour::Rgba([110, 90, 150, 110]);

/// The first offset a new mover's path gets besides `(0, 0)`: 4 m to the right, a bridge. The
/// designer drags it where it should go.
pub const NEW_MOVER_TRAVEL: DVec2 = DVec2::new(4.0, 0.0);
/// A new mover's period, s.
pub const NEW_MOVER_PERIOD: f64 = 3.0;

/// The mover kind.
pub struct Mover;

/// A new mover: one rectangular piece over `r`, a path from its rest pose to
/// [`NEW_MOVER_TRAVEL`] and back in [`NEW_MOVER_PERIOD`] seconds, eased.
pub fn new_mover(r: Aabb) -> LevelMover {
    LevelMover {
        pieces: vec![rect_points(r)],
        path: vec![DVec2::ZERO, NEW_MOVER_TRAVEL],
        period: NEW_MOVER_PERIOD,
        mode: MoverMode::PingPong,
        ease: MoverEase::Smooth,
        ..Default::default()
    }
}

/// The point a mover's path is drawn from: the centre of its pieces' box at rest.
pub fn mover_anchor(m: &LevelMover) -> DVec2 {
    Aabb::from_points(m.pieces.iter().flatten().copied()).centre()
}

/// Where each of a mover's path nodes (or track keys) is drawn: its anchor moved by the offset.
pub fn path_points(m: &LevelMover) -> Vec<DVec2> {
    let a = mover_anchor(m);
    m.stops().into_iter().map(|o| a + o).collect()
}

/// The fields of the shorthand motion, which a mover with a track leaves out.
const SHORTHAND_FIELDS: [&str; 5] = ["period", "mode", "ease", "spin", "swing"];

/// The panel's list of a shorthand path's nodes, its buttons, and the offer of a track.
fn path_panel(m: &mut LevelMover, node: Option<usize>, ui: &mut dyn PanelUi, asks: &mut PanelAsks) {
    ui.text("path (offsets from where it is drawn)");
    for (k, o) in m.path.iter_mut().enumerate() {
        let (picked, _) = ui.point_row(&format!("node {k}"), node == Some(k), o);
        if picked {
            asks.pick_node = Some(k);
        }
    }
    let buttons: &[&str] = if node.is_some() {
        &["Add node", "Delete node"]
    } else {
        &["Add node"]
    };
    match ui.row(None, buttons, None) {
        Some(0) => {
            let last = m.path.last().copied().unwrap_or_default();
            m.path.push(last + DVec2::new(1.0, 0.0));
        }
        Some(_) => asks.delete_node = true,
        None => {}
    }
    ui.text("Drag a node in the view; Ctrl-click the path adds one.");
    if let Some(track) = shorthand_track(m) {
        let hover = "The same motion as keys: then each key can hold, and each leg have its own \
                     time or speed and easing";
        if ui.row(None, &["Use a track"], Some(hover)).is_some() {
            *m = LevelMover {
                track: Some(track),
                path: Vec::new(),
                period: 0.0,
                mode: MoverMode::default(),
                ease: MoverEase::default(),
                ..m.clone()
            };
        }
    }
}

/// The panel's part for a track: its repeat and delay, its keys (each selectable, the selected
/// one's hold, angle and leg editable), and the buttons that add and delete keys.
fn track_panel(
    track: &mut Track,
    node: Option<usize>,
    anchor: DVec2,
    ui: &mut dyn PanelUi,
    asks: &mut PanelAsks,
) {
    ui.fields("track", track.fields_mut(), anchor);
    ui.text("keys (offsets from where it is drawn; each key's leg goes to the next)");
    for (k, key) in track.keys.iter_mut().enumerate() {
        let (picked, _) = ui.point_row(&format!("key {k}"), node == Some(k), &mut key.offset);
        if picked {
            asks.pick_node = Some(k);
        }
        if node == Some(k) {
            ui.fields(&format!("key {k}"), key.fields_mut(), anchor);
        }
    }
    let buttons: &[&str] = if node.is_some() {
        &["Add key", "Delete key"]
    } else {
        &["Add key"]
    };
    match ui.row(None, buttons, None) {
        Some(0) => {
            if let Some(last) = track.keys.last_mut() {
                // The last key's leg now runs: timed if it was not.
                if last.time.is_none() && last.speed.is_none() {
                    last.time = Some(1.0);
                }
                let mut key = last.clone();
                key.offset += DVec2::new(1.0, 0.0);
                track.keys.push(key);
            }
        }
        Some(_) => asks.delete_node = true,
        None => {}
    }
    ui.text("Select a key to set its hold and its leg; drag keys in the view.");
}

/// The shorthand's motion of `m` as a track (the same legs, timed as the path times them, the
/// same easing and repeat), or `None` for a mover that turns or has a leg of no length.
pub fn shorthand_track(m: &LevelMover) -> Option<Track> {
    if m.track.is_some() || m.turns() || m.path.len() < 2 {
        return None;
    }
    let path = crate::sim::movers::Path::new(m);
    let n = m.path.len();
    let looped = m.mode == MoverMode::Loop;
    let ease = match m.ease {
        MoverEase::Smooth => TrackEase::Smooth,
        MoverEase::Linear => TrackEase::Linear,
    };
    let keys = (0..n)
        .map(|k| {
            let end = match (k + 1 < n, looped) {
                (true, _) => Some(path.node_time(k + 1)),
                (false, true) => Some(m.period),
                (false, false) => None,
            };
            let time = end.map(|e| e - path.node_time(k));
            if time.is_some_and(|t| t <= 0.0) {
                return None;
            }
            Some(TrackKey {
                time,
                ease,
                ..TrackKey::timed(m.path[k], 0.0, 0.0)
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some(Track {
        keys,
        repeat: if looped {
            TrackRepeat::Loop
        } else {
            TrackRepeat::PingPong
        },
        delay: 0.0,
    })
}

/// Corner `k` of the pieces taken in order: `(piece, corner)`.
fn corner_at(m: &LevelMover, k: usize) -> Option<(usize, usize)> {
    let mut k = k;
    for (piece, points) in m.pieces.iter().enumerate() {
        if k < points.len() {
            return Some((piece, k));
        }
        k -= points.len();
    }
    None
}

impl ObjectKind for Mover {
    type Item = LevelMover;
    const NAME: &'static str = "mover";
    const NODES: bool = true;
    const PLACE: Option<Place> = Some(Place::Drag);
    const GROWS: bool = true;
    const TOOL: (&'static str, &'static str) = (
        "Mover",
        "Drag a rectangle: a new moving platform; Shift-drag adds a piece to the selected mover",
    );

    fn list(level: &Level) -> &[LevelMover] {
        &level.movers
    }

    /// A dragged box becomes a new mover ([`new_mover`]; its nodes drag with Select).
    fn placed(_level: &Level, at: Placement) -> Option<LevelMover> {
        match at {
            Placement::Box(r) => Some(new_mover(r)),
            Placement::At(_) => None,
        }
    }

    /// A Shift-drag adds the box as another piece, its path unchanged.
    fn with_box(m: &LevelMover, r: Aabb) -> Option<LevelMover> {
        let mut m = m.clone();
        m.pieces.push(rect_points(r));
        Some(m)
    }

    fn replace(level: &mut Level, items: Vec<LevelMover>) -> Vec<LevelMover> {
        std::mem::replace(&mut level.movers, items)
    }

    fn check(level: &Level, movers: &[LevelMover], _strict: bool) -> Result<(), EditError> {
        Ok(check_movers(movers, level.bounds)?)
    }

    fn body(_level: &Level, m: &LevelMover) -> Vec<Vec<DVec2>> {
        m.pieces.clone()
    }

    fn anchor(m: &LevelMover) -> Option<DVec2> {
        m.pieces.first()?.first().copied()
    }

    /// The pieces move; the path is relative, so it goes along unchanged.
    fn translated(m: &LevelMover, delta: DVec2) -> LevelMover {
        let mut m = m.clone();
        for q in m.pieces.iter_mut().flatten() {
            *q += delta;
        }
        m
    }

    /// A node moves its offset; a corner reshapes its piece (refused by the level's rules when
    /// the piece stops being strictly convex: the drag then stops at its last valid shape).
    fn moved(m: &LevelMover, part: Part, delta: DVec2) -> LevelMover {
        match part {
            Part::Body => Self::translated(m, delta),
            Part::Handle(k) => {
                let mut m = m.clone();
                let offset = match &mut m.track {
                    Some(t) => t.keys.get_mut(k).map(|key| &mut key.offset),
                    None => m.path.get_mut(k),
                };
                if let Some(o) = offset {
                    *o += delta;
                }
                m
            }
            Part::Corner(k) => {
                let mut m = m.clone();
                if let Some((piece, corner)) = corner_at(&m, k) {
                    m.pieces[piece][corner] += delta;
                }
                m
            }
            Part::Region | Part::Link => m.clone(),
        }
    }

    fn handles(m: &LevelMover) -> Vec<DVec2> {
        path_points(m)
    }

    fn with_node(m: &LevelMover, segment: usize, at: DVec2) -> Option<LevelMover> {
        let mut m = m.clone();
        let offset = at - mover_anchor(&m);
        if let Some(t) = &mut m.track {
            // The new key takes the leg, hold and angle of the key before it.
            let at = (segment + 1).min(t.keys.len());
            let mut key = t.keys.get(segment).or(t.keys.last()).cloned()?;
            key.offset = offset;
            t.keys.insert(at, key);
            return Some(m);
        }
        m.path.insert((segment + 1).min(m.path.len()), offset);
        Some(m)
    }

    fn without_node(m: &LevelMover, k: usize) -> Option<LevelMover> {
        let mut m = m.clone();
        if let Some(t) = &mut m.track {
            if k >= t.keys.len() {
                return None;
            }
            t.keys.remove(k);
            return Some(m);
        }
        (k < m.path.len()).then(|| {
            m.path.remove(k);
            m
        })
    }

    fn corners(m: &LevelMover) -> Vec<DVec2> {
        m.pieces.iter().flatten().copied().collect()
    }

    /// Adds `at` into the piece edge nearest to it, between that edge's ends (refused by the
    /// level's rules unless the piece stays strictly convex: a point outside the piece, beyond
    /// that edge).
    fn with_corner(m: &LevelMover, at: DVec2) -> Option<LevelMover> {
        let mut best: Option<(f64, usize, usize)> = None;
        for (k, points) in m.pieces.iter().enumerate() {
            let n = points.len();
            for e in 0..n {
                let d = closest_on_segment(points[e], points[(e + 1) % n], at).distance(at);
                if best.is_none_or(|(b, _, _)| d < b) {
                    best = Some((d, k, e));
                }
            }
        }
        let (_, k, e) = best?;
        let mut m = m.clone();
        m.pieces[k].insert(e + 1, at);
        Some(m)
    }

    fn without_corner(m: &LevelMover, k: usize) -> Result<LevelMover, &'static str> {
        let (piece, corner) = corner_at(m, k).ok_or("there is no such corner")?;
        if m.pieces[piece].len() <= 3 {
            return Err("a piece keeps at least three corners");
        }
        let mut m = m.clone();
        m.pieces[piece].remove(corner);
        Ok(m)
    }

    fn period(m: &LevelMover) -> Option<f64> {
        if let Some(t) = &m.track {
            return Some(t.delay + crate::sim::track::TrackPath::new(t).cycle());
        }
        Some(match m.mode {
            MoverMode::PingPong => 2.0 * m.period,
            MoverMode::Loop => m.period,
        })
    }

    fn draw(_level: &Level, m: &LevelMover, state: DrawState, pen: &mut dyn Pen) {
        let selected = state.selected;
        let (c, width) = if selected {
            (Colour::Selected, 2.5)
        } else {
            (MOVER, 1.5)
        };
        for piece in &m.pieces {
            pen.outline(piece, width, c);
        }
        if m.one_way {
            pen.label(mover_anchor(m), "one-way", c);
        }
        if m.turns() {
            // The point it turns about: a ring with a cross, and the circle its farthest point
            // sweeps (what must fit in the level's bounds).
            let pivot = m.pivot_point();
            pen.ring(pivot, 5.0, 1.5, c);
            pen.cross(pivot, 7.0, 1.0, c);
            let r = m.turning_radius();
            let circle: Vec<DVec2> = (0..48)
                .map(|k| {
                    let a = std::f64::consts::TAU * k as f64 / 48.0;
                    pivot + DVec2::new(a.cos(), a.sin()) * r
                })
                .collect();
            pen.outline(&circle, 1.0, GHOST);
        }
        let nodes = path_points(m);
        for w in nodes.windows(2) {
            pen.line(w[0], w[1], 1.5, c);
        }
        let loops = match &m.track {
            Some(t) => t.repeat == crate::level::TrackRepeat::Loop,
            None => m.mode == MoverMode::Loop,
        };
        if loops {
            if let (Some(&a), Some(&b)) = (nodes.last(), nodes.first()) {
                pen.line(a, b, 1.0, GHOST);
            }
        }
        // Ghosts: at each node of its path when selected, turned as it is when it first gets
        // there, and at the previewed time.
        let mut ghosts = Vec::new();
        if selected {
            // The corners: handles that reshape its pieces.
            for q in m.pieces.iter().flatten() {
                pen.square(*q, 7.0, 1.5, c);
            }
            let at_nodes = crate::sim::movers::node_poses(m).into_iter().skip(1);
            ghosts.extend(at_nodes.map(|pose| (pose, 1.0)));
        }
        if let Some(t) = state.time {
            ghosts.push((crate::sim::movers::pose_at(m, t), 2.0));
        }
        let pivot = m.pivot_point();
        for (pose, width) in ghosts {
            for piece in &m.pieces {
                let moved: Vec<DVec2> = piece.iter().map(|&q| pose.place(q, pivot)).collect();
                pen.outline(&moved, width, GHOST);
            }
        }
        for (k, &q) in nodes.iter().enumerate() {
            if selected && state.node == Some(k) {
                pen.dot(q, 5.0, Colour::Selected);
            } else {
                pen.ring(q, 4.0, 1.5, c);
            }
        }
    }

    fn panel(
        _level: &Level,
        m: &mut LevelMover,
        node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> PanelAsks {
        let mut asks = PanelAsks::default();
        let anchor = mover_anchor(m);
        // A mover with a track shows the track's fields instead of the shorthand's.
        let hidden: &[&str] = if m.track.is_some() {
            &SHORTHAND_FIELDS
        } else {
            &[]
        };
        let fields = m.fields_mut();
        let fields = fields
            .into_iter()
            .filter(|f| !hidden.contains(&f.def.name))
            .collect();
        ui.fields("mover", fields, anchor);
        if let Some(track) = &mut m.track {
            track_panel(track, node, anchor, ui, &mut asks);
        } else {
            path_panel(m, node, ui, &mut asks);
        }
        ui.text(
            "Drag a corner to reshape a piece (it stays convex); Ctrl-click beside it adds one, \
             on it removes it.",
        );
        let count = format!(
            "{} piece{}",
            m.pieces.len(),
            if m.pieces.len() == 1 { "" } else { "s" }
        );
        let remove: &[&str] = if m.pieces.len() > 1 {
            &["Remove last piece"]
        } else {
            &[]
        };
        let hover = "Shift-drag a rectangle with the Mover tool: another piece of this mover";
        if ui.row(Some(&count), remove, Some(hover)).is_some() {
            m.pieces.pop();
        }
        super::links::links_panel(Self::signal_fields_mut(m), ui);
        asks
    }

    fn signal_fields(m: &LevelMover) -> Vec<(&'static str, &[String])> {
        m.signal_fields().into()
    }

    fn signal_fields_mut(m: &mut LevelMover) -> Vec<(&'static str, &mut Vec<String>)> {
        m.signal_fields_mut().into()
    }

    fn example() -> LevelMover {
        new_mover(Aabb {
            min: DVec2::new(-4.0, 2.0),
            max: DVec2::new(-2.0, 2.5),
        })
    }
}

#[cfg(test)]
mod tests {
    use glam::DVec2;

    use super::{new_mover, shorthand_track};
    use crate::collision::Aabb;
    use crate::editor::kinds::{PanelUi, KINDS};
    use crate::level::fields::{FieldMut, ObjectField};
    use crate::level::{Level, LevelMover, LevelPolygon, MoverEase, MoverMode};

    /// A panel that sets every `hold` it is shown to 1.5 s and clicks the button named `click`.
    struct Script {
        click: &'static str,
        holds: usize,
    }

    impl PanelUi for Script {
        fn fields(&mut self, _: &str, fields: Vec<ObjectField<'_>>, _: DVec2) -> bool {
            let mut changed = false;
            for f in fields {
                if let ("hold", FieldMut::Number(v)) = (f.def.name, f.value) {
                    *v = 1.5;
                    self.holds += 1;
                    changed = true;
                }
            }
            changed
        }
        fn text(&mut self, _: &str) {}
        fn row(&mut self, _: Option<&str>, buttons: &[&str], _: Option<&str>) -> Option<usize> {
            buttons.iter().position(|b| *b == self.click)
        }
        fn point_row(&mut self, _: &str, _: bool, _: &mut DVec2) -> (bool, bool) {
            (false, false)
        }
    }

    fn level(m: LevelMover) -> Level {
        let p = DVec2::new;
        Level {
            polygons: vec![LevelPolygon::solid(vec![
                p(-10., -1.),
                p(10., -1.),
                p(10., 0.),
                p(-10., 0.),
            ])],
            movers: vec![m],
            ..Level::empty("t")
        }
    }

    fn mover() -> LevelMover {
        let mut m = new_mover(Aabb {
            min: DVec2::new(-4.0, 2.0),
            max: DVec2::new(-2.0, 2.5),
        });
        m.path.push(DVec2::new(4.0, 3.0));
        m
    }

    /// "Use a track" turns the shorthand into the same motion as keys (to rounding), as one
    /// undoable edit.
    #[test]
    fn the_shorthand_becomes_a_track_with_the_same_motion() {
        for (mode, ease) in [
            (MoverMode::PingPong, MoverEase::Smooth),
            (MoverMode::Loop, MoverEase::Linear),
        ] {
            let m = LevelMover {
                mode,
                ease,
                ..mover()
            };
            let track = shorthand_track(&m).unwrap();
            assert_eq!(track.keys.len(), 3);
            let mut l = level(m.clone());
            let before = l.clone();
            let kind = KINDS.iter().find(|k| k.name() == "mover").unwrap();
            let mut ui = Script {
                click: "Use a track",
                holds: 0,
            };
            let (edit, _) = kind.panel(&l, 0, None, &mut ui);
            let applied = crate::editor::apply(&mut l, &edit.expect("an edit")).unwrap();
            let tracked = &l.movers[0];
            assert_eq!(tracked.track.as_ref(), Some(&track));
            assert!(!tracked.has_shorthand());
            for k in 0..200 {
                let t = k as f64 * 0.173;
                let (a, b) = (
                    crate::sim::movers::offset_at(&m, t),
                    crate::sim::movers::offset_at(tracked, t),
                );
                assert!((a - b).length() < 1e-9, "{mode:?} at {t}: {a} {b}");
            }
            crate::editor::apply(&mut l, &applied.inverse).unwrap();
            assert_eq!(l, before);
        }
    }

    /// A track's selected key shows its hold (and leg) in the panel: set there, it is one edit
    /// of the level, undone by its inverse; the shorthand's fields are not shown.
    #[test]
    fn a_keys_hold_is_edited_in_the_panel_and_undone() {
        let mut m = mover();
        m.track = shorthand_track(&m);
        m.path.clear();
        m.period = 0.0;
        let mut l = level(m);
        l.validate().unwrap();
        let before = l.clone();
        let kind = KINDS.iter().find(|k| k.name() == "mover").unwrap();
        let mut ui = Script {
            click: "",
            holds: 0,
        };
        let (edit, _) = kind.panel(&l, 0, Some(1), &mut ui);
        assert_eq!(ui.holds, 1, "only the selected key's hold is shown");
        let applied = crate::editor::apply(&mut l, &edit.expect("an edit")).unwrap();
        let keys = l.movers[0].track.as_ref().unwrap().keys.clone();
        assert_eq!(
            keys.iter().map(|k| k.hold).collect::<Vec<_>>(),
            [0.0, 1.5, 0.0]
        );
        crate::editor::apply(&mut l, &applied.inverse).unwrap();
        assert_eq!(l, before);
        // The view's handles are the keys.
        let anchor = super::mover_anchor(&l.movers[0]);
        assert_eq!(
            super::path_points(&l.movers[0]),
            keys.iter().map(|k| anchor + k.offset).collect::<Vec<_>>()
        );
    }
}
