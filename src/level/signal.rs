//! Signals: named events a level's sources fire and its targets act on, as plain data.
//!
//! A level's `signals` list names each signal and its source (a region a character enters,
//! leaves or occupies; a character standing on a mover; a timer; a delay after another signal;
//! the level's start; a checkpoint reached; an enemy defeated, or the last of them; a mover's
//! clock stopping at its end or its track reaching a key). Targets name the signals they act
//! on: a door's `open_on`, `close_on`, `toggle_on`; a mover's `start_on`, `stop_on`,
//! `reverse_on`, `return_on`, `restart_on` (and its `start`: running or stopped); a hazard
//! polygon's `on_on`, `off_on`, `toggle_on` (and its `off`: it starts off). The simulation
//! evaluates them (`sim::signals`); this module owns the data, the rules a level's signals keep
//! ([`check_signals`]: no empty or duplicate name, no source naming what does not exist, no
//! target naming a signal no source defines, no hazard field on a polygon that is not a
//! hazard, no loop that would never settle) and the design checks that every signal drives
//! something ([`unused_signals`]) and every target is driven ([`undriven_targets`]).
//!
//! # Loops: the rule
//! A loop is a target acting on what its own signal's source reads. In a tick (`sim::signals`)
//! the sources are evaluated once, after the characters moved; the doors and hazards act on
//! what fired, then the movers' clocks, which move from the next tick on. So no signal fires
//! twice in a tick, and a loop can only make one fire again in a later tick. The sources read
//! the characters (regions, `stood_on`), the clock (timers, `level_start`), the rules of play
//! (checkpoints, `defeated`), the movers' clocks (`mover_end`, `track_key`) and other signals
//! (`after`); none reads a door or a hazard, so no loop runs through one. Of the loops left,
//! two would never settle, and `check_signals` refuses them, naming both ends:
//! - **A loop of delays**: `after` sources each waiting on the next, back to the first. None
//!   has a source outside the loop, so none can ever fire.
//! - **A mover reversed at its own key**: a `track_key(mover: m, ...)` signal, directly or
//!   through delays, in mover `m`'s `reverse_on`. Reversed as it arrives, its clock passes the
//!   key again on the way back and it reverses again: every tick when the key falls between
//!   two ticks (which a level's times cannot promise it does not), a jitter about the key
//!   for ever. A `ping_pong` track is the way to write that motion.
//!
//! Every other loop settles or repeats at its track's pace (a `mover_end` that restarts or
//! reverses its mover runs the track again; one that starts or stops it, or a `track_key` that
//! starts, stops or returns it, changes nothing after its first firing). A loop through two
//! movers (each reversed at the other's key) jitters only if both arrive in the same tick, and
//! one through the characters (a door that closes on the region that opens it) depends on
//! where they go: neither is refused, since neither must fail to settle.
//!
//! Every field is optional with a default, so a level without signals reads and writes as it
//! did before signals existed.
//!
//! # Must never depend on
//! The simulation, the editor, or any window, GPU or audio crate.
use serde::{Deserialize, Serialize};

use super::document::{Level, PolygonKind};
use super::error::LevelProblem;
use super::validate::box_problem;
use crate::collision::Aabb;

/// The most signals a level may hold.
pub const MAX_SIGNALS: usize = 1024;

/// The longest timer a level may set, s (a day).
pub const MAX_TIMER: f64 = 86_400.0;

/// A named signal and what fires it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelSignal {
    /// The name targets use (`open_on: ["lift"]`); unique in the level, not empty.
    pub name: String,
    /// What fires it.
    pub source: SignalSource,
}

/// What fires a signal. A signal fires on the ticks its source says, and is otherwise quiet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum SignalSource {
    /// A box a character's feet are in: fires the tick `who` enters it, the tick it leaves it,
    /// or every tick it is occupied (`on`).
    Region {
        /// The box.
        area: Aabb,
        /// Whose feet count. Default: the hero's.
        #[serde(default)]
        who: SignalWho,
        /// When it fires. Default: on entering.
        #[serde(default)]
        on: RegionEdge,
    },
    /// A clock counted from the level's start (and from a `reset_on_death` respawn): `at` fires
    /// once that many seconds in; `every` fires every that many seconds (not at 0); both: first
    /// at `at`, then every `every` after it (a schedule with an offset).
    Timer {
        /// Seconds from the start, once.
        #[serde(default)]
        at: Option<f64>,
        /// Seconds between firings.
        #[serde(default)]
        every: Option<f64>,
    },
    /// Fires in the level's first tick (and the first after a `reset_on_death` respawn).
    LevelStart,
    /// Fires the tick the hero reaches checkpoint `n` (index in the level's `checkpoints`).
    Checkpoint(usize),
    /// Fires the tick mover `n`'s clock stops: a `once` track reaching its end, a `return`
    /// reaching its start, or a `stop_on` signal.
    MoverEnd(usize),
    /// A character standing on mover `mover` (riding it: its support, not a box): fires the
    /// tick `who` steps on it, the tick the last steps off, or every tick one stands on it
    /// (`on`).
    StoodOn {
        /// Index in the level's `movers`.
        mover: usize,
        /// Who counts. Default: the hero.
        #[serde(default)]
        who: SignalWho,
        /// When it fires. Default: on stepping on.
        #[serde(default)]
        on: RegionEdge,
    },
    /// Fires the tick mover `mover`'s track arrives at key `key` (the end of the leg into it;
    /// for a `loop`'s first key, the end of each round; `sim::track`). The mover has a track.
    TrackKey {
        /// Index in the level's `movers`.
        mover: usize,
        /// Index in its track's `keys`.
        key: usize,
    },
    /// Fires the tick after the rules of play defeated agent `n` (index in the level's
    /// `agents`; an enemy, which a stomp or the attack can defeat): as a checkpoint's, in the
    /// tick after, since the rules of play run after the signals. A `reset_on_death` respawn
    /// puts the agents back undefeated, so it can fire again.
    Defeated(usize),
    /// Fires the tick after the rules of play defeated the last of the level's enemies still
    /// standing (the level has at least one; agents that are not enemies do not count).
    DefeatedAll,
    /// Fires `seconds` after signal `signal` fired (rounded to the tick, at least one): a
    /// delay. While it waits, further firings of `signal` are ignored (one in the tick it
    /// fires starts a new wait).
    After {
        /// The signal it waits on (by name).
        signal: String,
        /// Seconds, from one tick to [`MAX_TIMER`].
        seconds: f64,
    },
}

/// Whose feet a region counts (or who a `stood_on` counts).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SignalWho {
    /// The hero's (the default).
    #[default]
    Hero,
    /// Any agent's.
    Agent,
    /// The hero's or any agent's.
    Any,
}

/// When a region fires.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RegionEdge {
    /// The tick one it counts is in it and none was the tick before (the default).
    #[default]
    Enter,
    /// The tick none it counts is in it and one was the tick before.
    Leave,
    /// Every tick one it counts is in it.
    Occupied,
}

/// How a mover's clock starts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoverStart {
    /// Running from the level's first tick (the default: every mover before signals).
    #[default]
    Running,
    /// Stopped at its start until a signal starts it.
    Stopped,
}

impl Level {
    /// The index of the signal named `name`.
    pub fn signal_index(&self, name: &str) -> Option<usize> {
        self.signals.iter().position(|s| s.name == name)
    }

    /// Every target's signal names: `(object, field, name)`, doors, movers, then hazard
    /// polygons in the level's order, each object's fields in file order (`door 2`, `open_on`,
    /// `lift`).
    pub fn signal_uses(&self) -> Vec<(String, &'static str, &str)> {
        let mut out = Vec::new();
        for (i, d) in self.doors.iter().enumerate() {
            for (field, names) in d.signal_fields() {
                out.extend(
                    names
                        .iter()
                        .map(|n| (format!("door {i}"), field, n.as_str())),
                );
            }
        }
        for (i, m) in self.movers.iter().enumerate() {
            for (field, names) in m.signal_fields() {
                out.extend(
                    names
                        .iter()
                        .map(|n| (format!("mover {i}"), field, n.as_str())),
                );
            }
        }
        for (i, p) in self.polygons.iter().enumerate() {
            for (field, names) in p.signal_fields() {
                out.extend(
                    names
                        .iter()
                        .map(|n| (format!("polygon {i}"), field, n.as_str())),
                );
            }
        }
        out
    }
}

impl Level {
    /// Every target's list of signal names, to change (the editor's rename of a signal): the
    /// same fields, in the same order, as [`Level::signal_uses`].
    pub fn signal_uses_mut(&mut self) -> impl Iterator<Item = &mut Vec<String>> {
        let doors = self.doors.iter_mut().flat_map(|d| d.signal_fields_mut());
        let movers = self.movers.iter_mut().flat_map(|m| m.signal_fields_mut());
        let hazards = self.polygons.iter_mut().flat_map(|p| p.signal_fields_mut());
        doors.chain(movers).chain(hazards).map(|(_, names)| names)
    }
}

/// Checks the level's signals: each a name (not empty, unique) and a source that names only
/// what exists (a proper box, one timer of a positive time, a checkpoint or mover of the
/// level); then that every target's signal names one the level defines.
pub fn check_signals(level: &Level) -> Result<(), LevelProblem> {
    let bad = |index: usize, why: String| Err(LevelProblem::Signal { index, why });
    if level.signals.len() > MAX_SIGNALS {
        return bad(
            MAX_SIGNALS,
            format!(
                "{} signals, more than the limit of {MAX_SIGNALS}",
                level.signals.len()
            ),
        );
    }
    for (i, s) in level.signals.iter().enumerate() {
        if s.name.trim().is_empty() {
            return bad(i, "its name is empty".into());
        }
        if let Some(j) = level.signals[..i].iter().position(|o| o.name == s.name) {
            return bad(
                i,
                format!(
                    "its name `{}` is signal {j}'s too: names are unique",
                    s.name
                ),
            );
        }
        if let Some(why) = source_problem(level, &s.source) {
            return bad(i, format!("`{}`: {why}", s.name));
        }
    }
    for (i, p) in level.polygons.iter().enumerate() {
        if p.kind != PolygonKind::Hazard && p.is_switched() {
            let field = if p.off {
                "off"
            } else {
                p.signal_fields()
                    .iter()
                    .find(|(_, n)| !n.is_empty())
                    .map_or("off", |(f, _)| f)
            };
            return Err(LevelProblem::SignalTarget {
                object: format!("polygon {i}"),
                why: format!("{field} is for a hazard, and this polygon is not one"),
            });
        }
    }
    for (object, field, name) in level.signal_uses() {
        if level.signal_index(name).is_none() {
            return Err(LevelProblem::SignalTarget {
                object,
                why: format!("{field} names signal `{name}`, which no source defines"),
            });
        }
    }
    check_loops(level)
}

/// The loops that would never settle (the rule in the module docs): a loop of delays, and a
/// mover reversed by its own track's arrival at a key (directly or after delays).
fn check_loops(level: &Level) -> Result<(), LevelProblem> {
    let n = level.signals.len();
    let waits_on = |i: usize| match &level.signals[i].source {
        SignalSource::After { signal, .. } => level.signal_index(signal),
        _ => None,
    };
    for i in 0..n {
        let Some(first) = waits_on(i) else {
            continue;
        };
        // At most n steps from i: back at i within them, i is on a loop of delays.
        let mut at = first;
        for _ in 0..n {
            if at == i {
                return Err(LevelProblem::Signal {
                    index: i,
                    why: format!(
                        "`{}`: after waits on `{}`, which waits (through delays) on `{}`: a loop \
                         of delays, none of which can ever fire",
                        level.signals[i].name, level.signals[first].name, level.signals[i].name
                    ),
                });
            }
            match waits_on(at) {
                Some(next) => at = next,
                None => break,
            }
        }
    }
    for (m, mover) in level.movers.iter().enumerate() {
        for name in &mover.reverse_on {
            // No loop of delays is left: the chain ends at a source that is not a delay.
            let mut at = level.signal_index(name);
            while let Some(next) = at.and_then(waits_on) {
                at = Some(next);
            }
            let Some(root) = at else { continue };
            if let SignalSource::TrackKey { mover, key } = level.signals[root].source {
                if mover == m {
                    return Err(LevelProblem::SignalTarget {
                        object: format!("mover {m}"),
                        why: format!(
                            "reverse_on names `{name}`, which fires when mover {m}'s own track \
                             reaches key {key} (signal {root}, `{}`): reversed there it passes \
                             the key again and reverses again, for ever; use a ping_pong track",
                            level.signals[root].name
                        ),
                    });
                }
            }
        }
    }
    Ok(())
}

/// The targets no source drives: `(object, why)` for a mover that starts stopped with nothing
/// to start it (no `start_on`, `restart_on` or `reverse_on`) and a hazard that starts off with
/// nothing to turn it on (no `on_on` or `toggle_on`), in the level's order (a design warning:
/// it never moves, it never harms). A closed door with nothing to open it is no warning: a
/// script may open it (`sim::World::set_door`).
pub fn undriven_targets(level: &Level) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, m) in level.movers.iter().enumerate() {
        if m.start == MoverStart::Stopped
            && m.start_on.is_empty()
            && m.restart_on.is_empty()
            && m.reverse_on.is_empty()
        {
            out.push((
                format!("mover {i}"),
                "starts stopped and no signal starts it (start_on, restart_on, reverse_on): it \
                 never moves"
                    .to_string(),
            ));
        }
    }
    for (i, p) in level.polygons.iter().enumerate() {
        if p.kind == PolygonKind::Hazard && p.off && p.on_on.is_empty() && p.toggle_on.is_empty() {
            out.push((
                format!("polygon {i}"),
                "a hazard that starts off and that no signal turns on (on_on, toggle_on): it \
                 never harms"
                    .to_string(),
            ));
        }
    }
    out
}

/// Why a signal's source is unusable, or `None`.
fn source_problem(level: &Level, source: &SignalSource) -> Option<String> {
    let seconds = |what: &str, t: f64, min: f64| {
        (!(t.is_finite() && t >= min && t <= MAX_TIMER))
            .then(|| format!("timer {what}: {t} s must be from {min} to {MAX_TIMER} s"))
    };
    match source {
        SignalSource::Region { area, .. } => box_problem(area).map(|w| format!("region {w}")),
        SignalSource::Timer { at, every } => match (at, every) {
            (Some(t), None) => seconds("at", *t, 0.0),
            (None, Some(t)) => seconds("every", *t, 1.0 / 120.0),
            (Some(a), Some(e)) => {
                seconds("at", *a, 0.0).or_else(|| seconds("every", *e, 1.0 / 120.0))
            }
            (None, None) => Some("a timer has `at`, `every` or both".into()),
        },
        SignalSource::LevelStart => None,
        SignalSource::Defeated(n) => match level.agents.get(*n) {
            None => Some(format!(
                "agent {n} does not exist (the level has {})",
                level.agents.len()
            )),
            Some(a) if !a.kind.is_enemy() => Some(format!(
                "agent {n} ({}) is no enemy: it cannot be defeated",
                a.kind.name()
            )),
            Some(_) => None,
        },
        SignalSource::DefeatedAll => (!level.agents.iter().any(|a| a.kind.is_enemy()))
            .then(|| "defeated_all: the level has no enemy to defeat".to_string()),
        SignalSource::Checkpoint(n) => (*n >= level.checkpoints.len()).then(|| {
            format!(
                "checkpoint {n} does not exist (the level has {})",
                level.checkpoints.len()
            )
        }),
        SignalSource::TrackKey { mover, key } => match level.movers.get(*mover) {
            None => Some(format!(
                "mover {mover} does not exist (the level has {})",
                level.movers.len()
            )),
            Some(m) => match &m.track {
                None => Some(format!("mover {mover} has no track, so no key {key}")),
                Some(t) if *key >= t.keys.len() => Some(format!(
                    "mover {mover}'s track has no key {key} (it has {})",
                    t.keys.len()
                )),
                Some(_) => None,
            },
        },
        SignalSource::After { signal, seconds: t } => {
            seconds("after", *t, 1.0 / 120.0).or_else(|| {
                level
                    .signal_index(signal)
                    .is_none()
                    .then(|| format!("after names signal `{signal}`, which no source defines"))
            })
        }
        SignalSource::MoverEnd(n) | SignalSource::StoodOn { mover: n, .. } => {
            (*n >= level.movers.len()).then(|| {
                format!(
                    "mover {n} does not exist (the level has {})",
                    level.movers.len()
                )
            })
        }
    }
}

/// The signals no target uses: `(index, name)`, in the level's order (a design warning: the
/// signal fires and nothing happens).
pub fn unused_signals(level: &Level) -> Vec<(usize, &str)> {
    let uses = level.signal_uses();
    level
        .signals
        .iter()
        .enumerate()
        .filter(|(_, s)| {
            !uses.iter().any(|(_, _, n)| *n == s.name)
                && !level.signals.iter().any(
                    |o| matches!(&o.source, SignalSource::After { signal, .. } if *signal == s.name),
                )
        })
        .map(|(i, s)| (i, s.name.as_str()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(signals: &str, doors: &str) -> Result<Level, String> {
        crate::level::parse_level(
            std::path::Path::new("s.ron"),
            &format!(
                "(name: \"s\", polygons: [], spawn: (0.0, 0.0), checkpoints: [(min: (0.0, 0.0), \
                 max: (1.0, 1.0))], doors: [{doors}], signals: [{signals}])"
            ),
        )
        .map_err(|e| e.to_string())
    }

    const DOOR: &str = "(points: [(3.0, 0.0), (4.0, 0.0), (4.0, 2.0), (3.0, 2.0)]";

    #[test]
    fn every_source_reads_and_a_used_signal_validates() {
        let l = level(
            "(name: \"a\", source: region(area: (min: (0.0, 0.0), max: (1.0, 1.0)), who: any, \
             on: leave)), (name: \"b\", source: timer(at: 2.0)), (name: \"c\", source: \
             timer(every: 0.5)), (name: \"d\", source: level_start), (name: \"e\", source: \
             checkpoint(0))",
            &format!(
                "{DOOR}, open_on: [\"a\", \"b\"], close_on: [\"c\"], toggle_on: [\"d\", \"e\"])"
            ),
        )
        .unwrap();
        assert_eq!(l.signals.len(), 5);
        assert!(unused_signals(&l).is_empty());
        assert_eq!(l.signal_index("c"), Some(2));
    }

    #[test]
    fn a_dangling_name_names_both_ends() {
        let e = level(
            "(name: \"a\", source: level_start)",
            &format!("{DOOR}, open_on: [\"lift\"])"),
        )
        .unwrap_err();
        assert!(
            e.contains("door 0: open_on names signal `lift`, which no source defines"),
            "{e}"
        );
    }

    #[test]
    fn bad_sources_and_duplicate_names_are_refused() {
        let cases = [
            (
                "(name: \"a\", source: level_start), (name: \"a\", source: level_start)",
                "unique",
            ),
            ("(name: \" \", source: level_start)", "name is empty"),
            ("(name: \"a\", source: timer())", "`at`, `every` or both"),
            (
                "(name: \"a\", source: timer(at: -1.0, every: 2.0))",
                "timer at",
            ),
            ("(name: \"a\", source: timer(every: 0.0))", "timer every"),
            (
                "(name: \"a\", source: checkpoint(3))",
                "checkpoint 3 does not exist",
            ),
            (
                "(name: \"a\", source: mover_end(0))",
                "mover 0 does not exist",
            ),
            (
                "(name: \"a\", source: stood_on(mover: 2, who: any))",
                "mover 2 does not exist",
            ),
            (
                "(name: \"a\", source: defeated(1))",
                "`a`: agent 1 does not exist (the level has 0)",
            ),
            (
                "(name: \"a\", source: defeated_all)",
                "the level has no enemy to defeat",
            ),
            (
                "(name: \"a\", source: track_key(mover: 0, key: 0))",
                "mover 0 does not exist",
            ),
            (
                "(name: \"a\", source: after(signal: \"b\", seconds: 1.0))",
                "`a`: after names signal `b`, which no source defines",
            ),
            (
                "(name: \"a\", source: after(signal: \"a\", seconds: 0.0))",
                "timer after: 0 s",
            ),
        ];
        for (signals, want) in cases {
            let e = level(signals, "").unwrap_err();
            assert!(e.contains("signal ") && e.contains(want), "{signals}: {e}");
        }
    }

    /// A level with `signals`, one mover on a two-key track with `fields`, and `polygons`.
    fn with_mover(signals: &str, fields: &str, polygons: &str) -> Result<Level, String> {
        crate::level::parse_level(
            std::path::Path::new("s.ron"),
            &format!(
                "(name: \"s\", polygons: [{polygons}], spawn: (0.0, 0.0), movers: [(pieces: \
                 [[(0.0, 5.0), (1.0, 5.0), (1.0, 6.0), (0.0, 6.0)]], track: (keys: [(offset: \
                 (0.0, 0.0), time: 1.0), (offset: (2.0, 0.0))], repeat: once){fields})], \
                 signals: [{signals}])"
            ),
        )
        .map_err(|e| e.to_string())
    }

    #[test]
    fn loops_that_never_settle_are_refused_naming_both_ends() {
        let e = with_mover(
            "(name: \"a\", source: after(signal: \"b\", seconds: 1.0)), (name: \"b\", \
             source: after(signal: \"a\", seconds: 1.0))",
            ", start_on: [\"a\"]",
            "",
        )
        .unwrap_err();
        assert!(
            e.contains("signal 0: `a`: after waits on `b`, which waits (through delays) on `a`"),
            "{e}"
        );
        let e = with_mover(
            "(name: \"key\", source: track_key(mover: 0, key: 1)), (name: \"later\", source: \
             after(signal: \"key\", seconds: 0.5))",
            ", reverse_on: [\"later\"]",
            "",
        )
        .unwrap_err();
        assert!(
            e.contains(
                "mover 0: reverse_on names `later`, which fires when mover 0's own track \
                 reaches key 1 (signal 0, `key`)"
            ),
            "{e}"
        );
        // What settles is not a loop to refuse: a mover stopped at its own key (the zip
        // mover's), reversed at its own end (it runs the track again), a delay chain that ends.
        for (signals, fields) in [
            (
                "(name: \"k\", source: track_key(mover: 0, key: 1))",
                ", stop_on: [\"k\"]",
            ),
            (
                "(name: \"e\", source: mover_end(0))",
                ", reverse_on: [\"e\"], restart_on: [\"e\"]",
            ),
            (
                "(name: \"a\", source: after(signal: \"b\", seconds: 1.0)), (name: \"b\", \
                 source: level_start)",
                ", start_on: [\"a\"]",
            ),
        ] {
            with_mover(signals, fields, "").unwrap_or_else(|e| panic!("{fields}: {e}"));
        }
    }

    #[test]
    fn hazard_fields_belong_to_hazards() {
        let e = with_mover(
            "(name: \"a\", source: level_start)",
            ", start_on: [\"a\"]",
            "(points: [(5.0, 0.0), (6.0, 0.0), (6.0, 1.0)], on_on: [\"a\"])",
        )
        .unwrap_err();
        assert!(
            e.contains("polygon 0: on_on is for a hazard, and this polygon is not one"),
            "{e}"
        );
    }

    #[test]
    fn a_target_nothing_drives_is_found() {
        let hazard = "(points: [(5.0, 0.0), (6.0, 0.0), (6.0, 1.0)], kind: hazard, off: true)";
        let l = with_mover("", ", start: stopped", hazard).unwrap();
        let found: Vec<String> = undriven_targets(&l).into_iter().map(|(o, _)| o).collect();
        assert_eq!(found, ["mover 0", "polygon 0"]);
        let l = with_mover(
            "(name: \"a\", source: level_start)",
            ", start: stopped, restart_on: [\"a\"]",
            &hazard.replace("off: true", "off: true, toggle_on: [\"a\"]"),
        )
        .unwrap();
        assert!(undriven_targets(&l).is_empty());
    }

    /// A rename (the editor's) reaches every use `check` reads: the changeable fields are the
    /// read ones, door, mover and hazard alike.
    #[test]
    fn the_uses_to_change_are_the_uses_read() {
        let hazard = "(points: [(5.0, 0.0), (6.0, 0.0), (6.0, 1.0)], kind: hazard, off_on: \
                      [\"a\"], toggle_on: [\"a\", \"a\"])";
        let mut l = with_mover(
            "(name: \"a\", source: level_start)",
            ", stop_on: [\"a\"]",
            hazard,
        )
        .unwrap();
        assert_eq!(l.signal_uses().len(), 4);
        for names in l.signal_uses_mut() {
            names.iter_mut().for_each(|n| *n = "b".into());
        }
        assert!(l.signal_uses().iter().all(|(_, _, n)| *n == "b"));
    }

    #[test]
    fn a_signal_nothing_uses_is_found() {
        let l = level(
            "(name: \"a\", source: level_start), (name: \"b\", source: level_start)",
            &format!("{DOOR}, close_on: [\"b\"])"),
        )
        .unwrap();
        assert_eq!(unused_signals(&l), vec![(0, "a")]);
    }
}
