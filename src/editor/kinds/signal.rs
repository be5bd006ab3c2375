//! The level's signals (`level::signal`) in the editor: each named signal is an object. A
//! `region` source is its box: placed by dragging a box with the Signal tool, moved by its
//! outline and resized by its corners, snapped to the grid. Every other source is a small
//! marker at what it reads ([`source_point`]: the mover, the checkpoint, the track's key); a
//! source that reads no place (a timer, the level's start, a delay after another signal) sits
//! above the first door or mover it acts on (several stacked), or, acting on nothing yet, in a
//! column above the spawn. Each signal's link handle ([`Part::Link`], a dot on its
//! box's top edge or beside its marker) is what a drag onto a door or a mover links it from; the
//! lines from source to target are the view's (`editor::objects::links`).
//!
//! Its panel edits its name (a rename renames every use, one undoable edit:
//! `Edit::RenameSignal`, `editor::ops::signals`), the kind of its source and the source's
//! fields.
//!
//! The check is the level's own (`level::signal::check_signals`) on the level with the new
//! list: a signal a target still names is not deleted (the reason names the target).
//!
//! Must never depend on another kind, the session or the UI.
use glam::DVec2;

use super::region::hero_box;
use super::Placement;
use super::{BodyPick, Colour, DrawState, ObjectKind, PanelAsks, PanelUi, Part, Pen, Place};
use crate::collision::Aabb;
use crate::editor::objects::rect_points;
use crate::editor::ops::EditError;
use crate::level::fields::{Choice, FieldDef, FieldMut, ObjectField, Widget};
use crate::level::signal::{check_signals, MAX_TIMER};
use crate::level::{Level, LevelSignal, RegionEdge, SignalSource, SignalWho};

/// Signals' colour, and the lines from their sources to their targets.
pub const SIGNAL: Colour = Colour::Rgba([110, 220, 240, 255]);

/// Half the side of a marker's square, m.
const MARKER: f64 = 0.2;
/// How far right of its marker a marker's link handle is, m.
const HANDLE_OFFSET: f64 = 0.5;
/// The vertical step between markers at one place, and in the list above the spawn, m.
const STACK: f64 = 0.7;
/// How far above the spawn the list of placeless sources that act on nothing starts, m.
const LIST_ABOVE_SPAWN: f64 = 4.0;
/// How far above its first target a placeless source's marker is, m.
const TARGET_GAP: f64 = 0.5;
/// How far above a `defeated` agent's spawn (its feet) its marker sits, m: over a medium head.
const AGENT_HEAD: f64 = 2.0;

/// The signal kind.
pub struct Signal;

/// Where `source` is in the level: the place its marker sits at (a region's top centre, the top
/// of the mover, checkpoint or the mover at a track's key); `None` for a source that reads no
/// place (a timer, the level's start, a delay), whose marker goes above its first target. One
/// arm per source.
pub fn source_point(level: &Level, source: &SignalSource) -> Option<DVec2> {
    let top = |r: Aabb| DVec2::new(r.centre().x, r.max.y);
    let mover_top = |n: usize, at: Option<usize>| {
        let m = level.movers.get(n)?;
        let offset = match at {
            Some(k) => m.stops().get(k).copied().unwrap_or_default(),
            None => DVec2::ZERO,
        };
        Some(top(Aabb::from_points(m.pieces.iter().flatten().copied())) + offset)
    };
    match source {
        SignalSource::Region { area, .. } => Some(top(*area)),
        SignalSource::Checkpoint(n) => level.checkpoints.get(*n).copied().map(top),
        SignalSource::StoodOn { mover, .. } => mover_top(*mover, None),
        SignalSource::MoverEnd(n) => {
            let last = level
                .movers
                .get(*n)
                .map(|m| m.stops().len().saturating_sub(1));
            mover_top(*n, last)
        }
        SignalSource::TrackKey { mover, key } => mover_top(*mover, Some(*key)),
        SignalSource::Defeated(n) => level
            .agents
            .get(*n)
            .map(|a| a.spawn + DVec2::Y * AGENT_HEAD),
        SignalSource::Timer { .. }
        | SignalSource::LevelStart
        | SignalSource::After { .. }
        | SignalSource::DefeatedAll => None,
    }
}

/// The box of the first door, else mover, acting on signal `name`: a placeless source's marker
/// goes above it (a new kind of target not listed here leaves its sources in the list above the
/// spawn).
fn first_target(level: &Level, name: &str) -> Option<Aabb> {
    let uses =
        |fields: &[(&str, &[String])]| fields.iter().any(|(_, n)| n.iter().any(|x| x == name));
    let doors = level
        .doors
        .iter()
        .filter(|d| uses(&d.signal_fields()))
        .map(|d| Aabb::from_points(d.points.iter().copied()));
    let mut movers = level
        .movers
        .iter()
        .filter(|m| uses(&m.signal_fields()))
        .map(|m| Aabb::from_points(m.pieces.iter().flatten().copied()));
    doors.chain(&mut movers).next()
}

/// Where the marker of a signal that is not a region is: at its [`source_point`]; for a
/// placeless source above its first target, or with none in the list above the spawn; moved up
/// past the markers of earlier signals at the same place.
fn marker_point(level: &Level, s: &LevelSignal) -> DVec2 {
    let placeless = |o: &LevelSignal| {
        first_target(level, &o.name).map_or(level.spawn + DVec2::Y * LIST_ABOVE_SPAWN, |b| {
            DVec2::new(b.centre().x, b.max.y + TARGET_GAP)
        })
    };
    // A marker at a place is stacked with the others at that place, a placeless one with the
    // placeless ones over the same target (each compared only with its own sort: a placeless
    // one's place costs a walk over the targets).
    let anchored = source_point(level, &s.source);
    let at = anchored.unwrap_or_else(|| placeless(s));
    let index = level.signal_index(&s.name).unwrap_or(level.signals.len());
    let before = level.signals[..index]
        .iter()
        .filter(|o| !matches!(o.source, SignalSource::Region { .. }))
        .filter(|o| match (anchored, source_point(level, &o.source)) {
            (Some(_), Some(q)) => q == at,
            (None, None) => placeless(o) == at,
            _ => false,
        })
        .count();
    at + DVec2::Y * (STACK * before as f64 + MARKER)
}

/// A short description of `source` for its label (`timer at 1 s`).
pub fn describe(source: &SignalSource) -> String {
    let edge = |on: &RegionEdge| match on {
        RegionEdge::Enter => "enter",
        RegionEdge::Leave => "leave",
        RegionEdge::Occupied => "occupied",
    };
    match source {
        SignalSource::Region { on, .. } => format!("region ({})", edge(on)),
        SignalSource::Timer { at, every } => match (at, every) {
            (Some(a), Some(e)) => format!("timer at {a} s, every {e} s"),
            (Some(a), None) => format!("timer at {a} s"),
            (None, Some(e)) => format!("timer every {e} s"),
            (None, None) => "timer".into(),
        },
        SignalSource::LevelStart => "level start".into(),
        SignalSource::Checkpoint(n) => format!("checkpoint {n}"),
        SignalSource::MoverEnd(n) => format!("mover {n} ends"),
        SignalSource::StoodOn { mover, on, .. } => format!("stood on mover {mover} ({})", edge(on)),
        SignalSource::TrackKey { mover, key } => format!("mover {mover} at key {key}"),
        SignalSource::After { signal, seconds } => format!("{seconds} s after `{signal}`"),
        SignalSource::Defeated(n) => format!("agent {n} defeated"),
        SignalSource::DefeatedAll => "every enemy defeated".into(),
    }
}

/// The first name `signal N` the level does not use.
fn free_name(level: &Level, list: &[LevelSignal]) -> String {
    (1..)
        .map(|n| format!("signal {n}"))
        .find(|n| level.signal_index(n).is_none() && !list.iter().any(|s| s.name == *n))
        .expect("a free name among unboundedly many")
}

fn region(area: Aabb) -> SignalSource {
    SignalSource::Region {
        area,
        who: SignalWho::default(),
        on: RegionEdge::default(),
    }
}

impl ObjectKind for Signal {
    type Item = LevelSignal;
    const NAME: &'static str = "signal";
    const BODY_PICK: BodyPick = BodyPick::Outline;
    const PLACE: Option<Place> = Some(Place::Drag);
    const TOOL: (&'static str, &'static str) = (
        "Signal",
        "Drag a rectangle: a region signal (the hero entering it fires it); then drag from its \
         handle (the dot on its top edge) onto a door or a mover to link them",
    );

    fn list(level: &Level) -> &[LevelSignal] {
        &level.signals
    }

    /// A region signal on the dragged box, with a free name (none at a point: the left panel's
    /// "add at the hero" is for the places the hero reaches, a checkpoint, the goal).
    fn placed(level: &Level, at: Placement) -> Option<LevelSignal> {
        match at {
            Placement::Box(area) => Some(LevelSignal {
                name: free_name(level, &[]),
                source: region(area),
            }),
            Placement::At(_) => None,
        }
    }

    fn replace(level: &mut Level, items: Vec<LevelSignal>) -> Vec<LevelSignal> {
        std::mem::replace(&mut level.signals, items)
    }

    fn check(level: &Level, list: &[LevelSignal], _strict: bool) -> Result<(), EditError> {
        let mut l = level.clone();
        l.signals = list.to_vec();
        Ok(check_signals(&l)?)
    }

    fn body(level: &Level, s: &LevelSignal) -> Vec<Vec<DVec2>> {
        match &s.source {
            SignalSource::Region { area, .. } => vec![rect_points(*area)],
            _ => {
                let at = marker_point(level, s);
                vec![rect_points(Aabb {
                    min: at - DVec2::splat(MARKER),
                    max: at + DVec2::splat(MARKER),
                })]
            }
        }
    }

    /// A region's lower-left corner; a marker is where its source is and is not dragged.
    fn anchor(s: &LevelSignal) -> Option<DVec2> {
        match &s.source {
            SignalSource::Region { area, .. } => Some(area.min),
            _ => None,
        }
    }

    fn translated(s: &LevelSignal, delta: DVec2) -> LevelSignal {
        let mut s = s.clone();
        if let SignalSource::Region { area, .. } = &mut s.source {
            area.min += delta;
            area.max += delta;
        }
        s
    }

    /// A drag of the body moves a region; a corner moves that corner, the opposite one stays.
    fn moved(s: &LevelSignal, part: Part, delta: DVec2) -> LevelSignal {
        match part {
            Part::Body => Self::translated(s, delta),
            Part::Corner(k) => {
                let mut s = s.clone();
                if let SignalSource::Region { area, .. } = &mut s.source {
                    let c = rect_points(*area);
                    if let (Some(&q), Some(&o)) = (c.get(k), c.get((k + 2) % 4)) {
                        *area = Aabb::from_points([q + delta, o]);
                    }
                }
                s
            }
            Part::Handle(_) | Part::Region | Part::Link => s.clone(),
        }
    }

    fn corners(s: &LevelSignal) -> Vec<DVec2> {
        match &s.source {
            SignalSource::Region { area, .. } => rect_points(*area),
            _ => Vec::new(),
        }
    }

    fn signal_name(s: &LevelSignal) -> Option<&str> {
        Some(&s.name)
    }

    /// A region's top centre; beside a marker.
    fn link_point(level: &Level, s: &LevelSignal) -> Option<DVec2> {
        Some(match &s.source {
            SignalSource::Region { area, .. } => DVec2::new(area.centre().x, area.max.y),
            _ => marker_point(level, s) + DVec2::X * HANDLE_OFFSET,
        })
    }

    /// A delay's `after` (the view draws it as a link from the signal waited on; a drag does
    /// not make one: the panel picks it).
    fn signal_fields(s: &LevelSignal) -> Vec<(&'static str, &[String])> {
        match &s.source {
            SignalSource::After { signal, .. } => vec![("after", std::slice::from_ref(signal))],
            _ => Vec::new(),
        }
    }

    /// A pasted signal gets a free name (names are unique).
    fn fresh(level: &Level, s: LevelSignal) -> LevelSignal {
        if level.signal_index(&s.name).is_none() {
            return s;
        }
        LevelSignal {
            name: free_name(level, &[]),
            ..s
        }
    }

    fn draw(level: &Level, s: &LevelSignal, state: DrawState, pen: &mut dyn Pen) {
        let (c, width) = if state.selected {
            (Colour::Selected, 2.5)
        } else {
            (SIGNAL, 1.5)
        };
        let text = format!("{}: {}", s.name, describe(&s.source));
        match &s.source {
            SignalSource::Region { area, .. } => {
                pen.rect(*area, width, c);
                pen.label(DVec2::new(area.centre().x, area.max.y), &text, c);
                if state.selected {
                    // Its corners: dragged, they resize it.
                    for q in rect_points(*area) {
                        pen.square(q, 7.0, 1.5, c);
                    }
                }
            }
            _ => {
                let at = marker_point(level, s);
                pen.square(at, 9.0, width, c);
                pen.label(at, &text, c);
            }
        }
        if let Some(h) = Self::link_point(level, s) {
            pen.dot(h, 4.0, SIGNAL);
            pen.ring(h, 6.0, 1.0, c);
        }
    }

    fn panel(
        level: &Level,
        s: &mut LevelSignal,
        _node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> PanelAsks {
        let near = Self::link_point(level, s).unwrap_or(level.spawn);
        let mut kind = source_kind(&s.source);
        ui.fields(
            "signal",
            vec![
                ObjectField {
                    def: &NAME,
                    value: FieldMut::Text(&mut s.name),
                },
                ObjectField {
                    def: &SOURCE,
                    value: FieldMut::Choice(&mut Pick(SOURCE_KINDS, &mut kind)),
                },
            ],
            near,
        );
        s.name.retain(|c| c != '\n' && c != '\r');
        if kind != source_kind(&s.source) {
            s.source = new_source(level, kind, near, &s.name);
        }
        let own = s.name.clone();
        if let SignalSource::After { signal, .. } = &mut s.source {
            next_signal(level, &own, signal, ui);
        }
        source_panel(&mut s.source, near, ui);
        ui.text(
            "Drag from its handle (the dot) onto a door or a mover to link it; the target's panel \
             changes the action or unlinks it.",
        );
        PanelAsks::default()
    }

    fn example() -> LevelSignal {
        LevelSignal {
            name: "example".into(),
            source: region(Aabb {
                min: DVec2::new(-6.0, 0.0),
                max: DVec2::new(-5.0, 2.0),
            }),
        }
    }
}

/// One of a fixed list of names, as an index (the panel's choices of a source's kind, who and
/// when).
struct Pick<'a>(&'static [&'static str], &'a mut usize);

impl Choice for Pick<'_> {
    fn names(&self) -> &'static [&'static str] {
        self.0
    }
    fn index(&self) -> usize {
        *self.1
    }
    fn set_index(&mut self, i: usize) {
        if i < self.0.len() {
            *self.1 = i;
        }
    }
}

/// The kinds of source, in the order the panel lists them.
pub const SOURCE_KINDS: &[&str] = &[
    "region",
    "timer",
    "level start",
    "checkpoint",
    "mover end",
    "stood on",
    "track key",
    "after",
    "defeated",
    "all defeated",
];

/// The index of `source`'s kind in [`SOURCE_KINDS`].
fn source_kind(source: &SignalSource) -> usize {
    match source {
        SignalSource::Region { .. } => 0,
        SignalSource::Timer { .. } => 1,
        SignalSource::LevelStart => 2,
        SignalSource::Checkpoint(_) => 3,
        SignalSource::MoverEnd(_) => 4,
        SignalSource::StoodOn { .. } => 5,
        SignalSource::TrackKey { .. } => 6,
        SignalSource::After { .. } => 7,
        SignalSource::Defeated(_) => 8,
        SignalSource::DefeatedAll => 9,
    }
}

/// A new source of kind `kind` (an index in [`SOURCE_KINDS`]) for the signal named `name`: a
/// region at `near`, a timer at 1 s, the first checkpoint or mover, a second after another
/// signal (the level's rules refuse one that names what the level lacks, with the reason).
fn new_source(level: &Level, kind: usize, near: DVec2, name: &str) -> SignalSource {
    match kind {
        0 => region(hero_box(near)),
        1 => SignalSource::Timer {
            at: Some(1.0),
            every: None,
        },
        2 => SignalSource::LevelStart,
        3 => SignalSource::Checkpoint(0),
        4 => SignalSource::MoverEnd(0),
        5 => SignalSource::StoodOn {
            mover: 0,
            who: SignalWho::default(),
            on: RegionEdge::default(),
        },
        6 => SignalSource::TrackKey { mover: 0, key: 0 },
        8 => SignalSource::Defeated(0),
        9 => SignalSource::DefeatedAll,
        _ => SignalSource::After {
            signal: level
                .signals
                .iter()
                .map(|s| s.name.clone())
                .find(|n| n != name)
                .unwrap_or_default(),
            seconds: 1.0,
        },
    }
}

/// The row of the signal a delay waits on: its name, and a button that picks the next of the
/// level's signals (other than `own`, the delay's own name).
fn next_signal(level: &Level, own: &str, signal: &mut String, ui: &mut dyn PanelUi) {
    let text = format!("after `{signal}`");
    let hover = "The signal it waits on: the button picks the next of the level's signals";
    if ui.row(Some(&text), &["next signal"], Some(hover)).is_none() {
        return;
    }
    let names: Vec<&str> = level
        .signals
        .iter()
        .map(|o| o.name.as_str())
        .filter(|n| *n != own)
        .collect();
    if !names.is_empty() {
        let at = names
            .iter()
            .position(|n| n == signal)
            .map_or(0, |i| (i + 1) % names.len());
        *signal = names[at].to_string();
    }
}

/// The fields of `source` (who, when, times, indices, the delay's seconds).
fn source_panel(source: &mut SignalSource, near: DVec2, ui: &mut dyn PanelUi) {
    let mut fields = Vec::new();
    let (mut who, mut on, mut index, mut key) = (None, None, None, None);
    match source {
        SignalSource::Region {
            area,
            who: w,
            on: o,
        } => {
            fields.push(point(&MIN, &mut area.min));
            fields.push(point(&MAX, &mut area.max));
            who = Some(w);
            on = Some(o);
        }
        SignalSource::StoodOn {
            mover,
            who: w,
            on: o,
        } => {
            index = Some((&MOVER, mover));
            who = Some(w);
            on = Some(o);
        }
        SignalSource::Timer { at, every } => {
            fields.push(ObjectField {
                def: &AT,
                value: FieldMut::Optional(at),
            });
            fields.push(ObjectField {
                def: &EVERY,
                value: FieldMut::Optional(every),
            });
        }
        SignalSource::Checkpoint(n) => index = Some((&CHECKPOINT, n)),
        SignalSource::Defeated(n) => index = Some((&AGENT, n)),
        SignalSource::MoverEnd(n) => index = Some((&MOVER, n)),
        SignalSource::TrackKey { mover, key: k } => {
            index = Some((&MOVER, mover));
            key = Some(k);
        }
        SignalSource::After { seconds, .. } => {
            fields.push(ObjectField {
                def: &SECONDS,
                value: FieldMut::Number(seconds),
            });
        }
        SignalSource::LevelStart => {}
        SignalSource::DefeatedAll => {
            ui.text("fires the tick after the last of the level's enemies is defeated");
            return;
        }
    }
    let (mut w, mut o) = (
        who.as_deref().map_or(0, |w| *w as usize),
        on.as_deref().map_or(0, |o| *o as usize),
    );
    let mut n = index.as_ref().map_or(0.0, |(_, n)| **n as f64);
    let mut k = key.as_deref().map_or(0.0, |k| *k as f64);
    let mut who_choice = Pick(WHO_NAMES, &mut w);
    let mut on_choice = Pick(ON_NAMES, &mut o);
    if who.is_some() {
        fields.push(ObjectField {
            def: &WHO,
            value: FieldMut::Choice(&mut who_choice),
        });
        fields.push(ObjectField {
            def: &ON,
            value: FieldMut::Choice(&mut on_choice),
        });
    }
    if let Some(def) = index.as_ref().map(|(d, _)| *d) {
        fields.push(ObjectField {
            def,
            value: FieldMut::Number(&mut n),
        });
    }
    if key.is_some() {
        fields.push(ObjectField {
            def: &KEY,
            value: FieldMut::Number(&mut k),
        });
    }
    if fields.is_empty() {
        ui.text("fires in the level's first tick (and after a reset_on_death respawn)");
        return;
    }
    if ui.fields("signal source", fields, near) {
        if let Some(who) = who {
            *who = [SignalWho::Hero, SignalWho::Agent, SignalWho::Any][w.min(2)];
        }
        if let Some(on) = on {
            *on = [RegionEdge::Enter, RegionEdge::Leave, RegionEdge::Occupied][o.min(2)];
        }
        if let Some((_, index)) = index {
            *index = n.round().max(0.0) as usize;
        }
        if let Some(key) = key {
            *key = k.round().max(0.0) as usize;
        }
    }
}

fn point<'a>(def: &'static FieldDef, p: &'a mut DVec2) -> ObjectField<'a> {
    ObjectField {
        def,
        value: FieldMut::Point(p),
    }
}

const WHO_NAMES: &[&str] = &["hero", "agent", "any"];
const ON_NAMES: &[&str] = &["enter", "leave", "occupied"];

const fn def(
    name: &'static str,
    label: &'static str,
    doc: &'static str,
    widget: Widget,
) -> FieldDef {
    FieldDef {
        name,
        label,
        doc,
        widget,
    }
}

const INDEX: Widget = Widget::Number {
    min: 0.0,
    max: 1023.0,
    unit: "",
    speed: 0.05,
};

static NAME: FieldDef = def(
    "name",
    "name",
    "The name targets use; unique in the level. Renaming renames every use.",
    Widget::Text,
);
static SOURCE: FieldDef = def("source", "source", "What fires it.", Widget::Choice);
static MIN: FieldDef = def(
    "min",
    "from",
    "The region's lower-left corner, m.",
    Widget::Point,
);
static MAX: FieldDef = def(
    "max",
    "to",
    "The region's upper-right corner, m.",
    Widget::Point,
);
static WHO: FieldDef = def(
    "who",
    "who",
    "Whose feet count: the hero's, any agent's, or either.",
    Widget::Choice,
);
static ON: FieldDef = def(
    "on",
    "fires on",
    "The tick one enters, the tick the last leaves, or every tick one is there.",
    Widget::Choice,
);
static AT: FieldDef = def(
    "at",
    "at",
    "Seconds from the level's start, once.",
    Widget::Optional {
        min: 0.0,
        max: MAX_TIMER,
        unit: "s",
        speed: 0.05,
        default: 1.0,
    },
);
static EVERY: FieldDef = def(
    "every",
    "every",
    "Seconds between firings (after `at` when both are set).",
    Widget::Optional {
        min: 1.0 / 120.0,
        max: MAX_TIMER,
        unit: "s",
        speed: 0.05,
        default: 2.0,
    },
);
static CHECKPOINT: FieldDef = def(
    "checkpoint",
    "checkpoint",
    "Index in the level's checkpoints.",
    INDEX,
);
static MOVER: FieldDef = def("mover", "mover", "Index in the level's movers.", INDEX);
static AGENT: FieldDef = def(
    "agent",
    "agent",
    "Index in the level's agents (an enemy).",
    INDEX,
);
static KEY: FieldDef = def("key", "key", "Index in the mover's track's keys.", INDEX);
static SECONDS: FieldDef = def(
    "seconds",
    "seconds",
    "How long after that signal it fires.",
    Widget::Number {
        min: 1.0 / 120.0,
        max: MAX_TIMER,
        unit: "s",
        speed: 0.05,
    },
);

#[cfg(test)]
mod tests;
