//! The objects people expect (a falling platform, a crumbling block, a zip mover, a triggered
//! crusher, a timed door), by registration: each is one file here with its level data and an
//! `impl` of [`Composite`], and one line `module::Type` in the list of [`object_kinds!`] at the
//! end of this file. A level holds them in its `objects` field, one list per kind named after its
//! module (`objects: (falling_platform: [(block: (min: (0, 2), max: (2, 2.5)))])`).
//!
//! # What an object is
//! Not new code in the simulation: each expands ([`Composite::expand`]) into the ordinary parts
//! a level already has, movers with tracks, doors, and the signals that drive them. The level
//! the world plays is the document with its objects expanded ([`Level::played`]): their movers,
//! doors and signals appended after the level's own, kind by kind in the list's order, each
//! kind's objects in their order, so the level's own movers, doors and signals keep their
//! indices (and their clocks, and a level without objects its pinned hashes). An object's
//! signals are named `"<kind> <index>: <what>"` (`"falling platform 0: stood"`): a level's own
//! targets may name them.
//!
//! # Its checks
//! [`Composite::problem`] says in one line why an object is unusable (`falling platform 1: its
//! shake, -1 s, must be from 0.05 to 60 s`); [`Level::validate`] runs them before it validates
//! the expanded level (what the objects make is then checked as any mover, door or signal is).
//!
//! # Adding an object
//! One file here with its data (an [`object_fields!`] struct: the editor's panel comes from its
//! field definitions) and its `impl Composite`, and one line in the list. The editor places and
//! edits every registered object through one generic kind (`editor::kinds::composite`), and
//! the renderer draws what it expands into: nothing else names it.
//!
//! # Must never depend on
//! The simulation, the editor, or any window, GPU or audio crate.
use std::borrow::Cow;
use std::fmt::Debug;

use glam::DVec2;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::document::Level;
use super::error::LevelProblem;
use super::fields::{choices, ObjectField};
use super::signal::{LevelSignal, RegionEdge, SignalSource, SignalWho};
use super::track::{Track, TrackEase, TrackKey, TrackRepeat};
use super::LevelMover;
use crate::collision::Aabb;

/// A kind's list in the level's objects: given by [`registry!`] for every kind in its list.
pub trait Listed: Sized {
    /// Its list in the level's objects.
    fn list(objects: &LevelObjects) -> &[Self];

    /// Its list in the level's objects, to change.
    fn list_mut(objects: &mut LevelObjects) -> &mut Vec<Self>;
}

/// One kind of level object made of movers, doors and signals (see the module docs).
pub trait Composite:
    Listed + Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The kind's name in messages, signal names and the editor (`"falling platform"`).
    const NAME: &'static str;

    /// Why it is unusable, in one line (without its name: the caller says which object), or
    /// `None`.
    fn problem(&self) -> Option<String>;

    /// Appends what it is made of to `level` (movers, doors, signals, each after what is
    /// there), its signals named `"{name}: <what>"`.
    fn expand(&self, name: &str, level: &mut Level);

    /// Its box, m: what the editor picks and draws, and what a paste places.
    fn area(&self) -> Aabb;

    /// Its box, to move or reshape: everything of an object is placed from it.
    fn block_mut(&mut self) -> &mut Aabb;

    /// It moved by `delta`, everything of it along.
    fn translated(&self, delta: DVec2) -> Self {
        let mut moved = self.clone();
        let b = moved.block_mut();
        b.min += delta;
        b.max += delta;
        moved
    }

    /// A new one with its box's bottom centre at `at` (the editor's click), with the kind's
    /// defaults.
    fn placed(at: DVec2) -> Self;

    /// Its fields for the editor's panel (its [`object_fields!`] definitions).
    fn fields_mut(&mut self) -> Vec<ObjectField<'_>>;

    /// One for the editor's tests: valid on its own over solid ground from x = -10 to 10 (top
    /// y = 0), clear of it, and beside every other kind's example (doors may not overlap).
    fn example() -> Self {
        Self::placed(DVec2::new(4.0, 1.0))
    }
}

/// The name of object `index` of kind `K` in messages and signal names (`"zip mover 2"`).
pub fn object_name<K: Composite>(index: usize) -> String {
    format!("{} {index}", K::NAME)
}

/// The signal named `"{object}: {what}"` with `source`, appended to `level`; returns its name.
pub fn add_signal(level: &mut Level, object: &str, what: &str, source: SignalSource) -> String {
    let name = format!("{object}: {what}");
    level.signals.push(LevelSignal {
        name: name.clone(),
        source,
    });
    name
}

/// A block's outline: its box's corners, counter-clockwise from the lower left.
pub fn block_outline(b: Aabb) -> Vec<DVec2> {
    vec![
        b.min,
        DVec2::new(b.max.x, b.min.y),
        b.max,
        DVec2::new(b.min.x, b.max.y),
    ]
}

/// A mover of one block, stopped at its start until `start_on`, on a `loop` track of `keys`,
/// stopped again when its track comes back round to its first key: the shape of every object
/// that runs once when triggered and comes back (a falling platform, a zip mover, a crusher).
/// Appends the mover and its `"{object}: home"` signal (`track_key(mover, 0)`).
pub fn add_round_trip(
    level: &mut Level,
    object: &str,
    block: Aabb,
    keys: Vec<TrackKey>,
    start_on: String,
) {
    let mover = level.movers.len();
    let home = add_signal(
        level,
        object,
        "home",
        SignalSource::TrackKey { mover, key: 0 },
    );
    level.movers.push(LevelMover {
        pieces: vec![block_outline(block)],
        track: Some(Track {
            keys,
            repeat: TrackRepeat::Loop,
            delay: 0.0,
        }),
        start: super::MoverStart::Stopped,
        start_on: vec![start_on],
        stop_on: vec![home],
        ..LevelMover::default()
    });
}

/// A key at `offset` with a leg of `time` seconds eased by `ease`, and a hold of `hold`.
pub fn key(offset: DVec2, hold: f64, time: f64, ease: TrackEase) -> TrackKey {
    TrackKey {
        hold,
        ease,
        ..TrackKey::timed(offset, 0.0, time)
    }
}

/// Why `seconds` (the field `what`) is out of `min..=max`, or `None`.
pub fn seconds_problem(what: &str, seconds: f64, min: f64, max: f64) -> Option<String> {
    (!(seconds.is_finite() && seconds >= min && seconds <= max))
        .then(|| format!("its {what}, {seconds} s, must be from {min} to {max} s"))
}

/// Why `b` is not a block (a box with an inside, finite), or `None`.
pub fn block_problem(b: &Aabb) -> Option<String> {
    super::validate::box_problem(b).map(|w| format!("its block {w}"))
}

/// The source of a character standing on a mover or entering a box over a block: who counts.
pub fn stood(mover: usize, who: SignalWho) -> SignalSource {
    SignalSource::StoodOn {
        mover,
        who,
        on: RegionEdge::Enter,
    }
}

choices! {
    SignalWho => [SignalWho::Hero => "hero", SignalWho::Agent => "agent", SignalWho::Any => "any"];
}

/// Declares the object kinds of the list ([`object_kinds!`]: one line per kind, `module::Type`,
/// the module a file in this folder). Makes [`LevelObjects`] (one list per kind, named after its
/// module), the expansion and the checks.
macro_rules! registry {
    ($($module:ident :: $kind:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// The level's objects, one list per registered kind (each empty by default, and left
        /// out of the file when empty).
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct LevelObjects {
            $(
                #[doc = concat!("The `", stringify!($module), "` objects.")]
                #[serde(default, skip_serializing_if = "Vec::is_empty")]
                pub $module: Vec<$module::$kind>,
            )*
        }

        $(
            impl Listed for $module::$kind {
                fn list(objects: &LevelObjects) -> &[Self] {
                    &objects.$module
                }
                fn list_mut(objects: &mut LevelObjects) -> &mut Vec<Self> {
                    &mut objects.$module
                }
            }
        )*

        impl LevelObjects {
            /// The registered kinds' names, in the list's order.
            pub const NAMES: &'static [&'static str] = &[$(<$module::$kind as Composite>::NAME),*];

            /// Whether there are none.
            pub fn is_empty(&self) -> bool {
                true $(&& self.$module.is_empty())*
            }

            /// How many there are, of every kind.
            pub fn len(&self) -> usize {
                0 $(+ self.$module.len())*
            }

            /// Each object's problem, the first found, in the list's order.
            pub fn check(&self) -> Result<(), LevelProblem> {
                $(
                    for (i, o) in self.$module.iter().enumerate() {
                        if let Some(why) = Composite::problem(o) {
                            return Err(LevelProblem::Object {
                                object: object_name::<$module::$kind>(i),
                                why,
                            });
                        }
                    }
                )*
                Ok(())
            }

            /// Appends every object's parts to `level`, kind by kind in the list's order.
            fn expand_into(&self, level: &mut Level) {
                $(
                    for (i, o) in self.$module.iter().enumerate() {
                        Composite::expand(o, &object_name::<$module::$kind>(i), level);
                    }
                )*
            }
        }
    };
}

impl Level {
    /// The level as the world plays it: this document when it has no objects; else a copy with
    /// every object expanded into movers, doors and signals after the level's own (see the
    /// module docs) and its `objects` list empty.
    pub fn played(&self) -> Cow<'_, Level> {
        if self.objects.is_empty() {
            return Cow::Borrowed(self);
        }
        let mut level = self.clone();
        let objects = std::mem::take(&mut level.objects);
        objects.expand_into(&mut level);
        Cow::Owned(level)
    }
}

/// Hands the list of object kinds (`module::Type, ...`, modules of this folder) to macro `$m`:
/// [`registry!`] here, and the editor's list of kinds (one generic editor kind per object kind).
macro_rules! object_kinds {
    ($m:ident) => {
        $m! {
            // The list. Its order is the order the objects' parts are appended in.
            crumbling_block::CrumblingBlock,
            zip_mover::ZipMover,
            crusher::Crusher,
            timed_door::TimedDoor,
            falling_platform::FallingPlatform,
        }
    };
}
pub(crate) use object_kinds;

object_kinds!(registry);
