//! The level document: what a level file holds, field for field.
//!
//! Coordinates are metres, x right, y up. Points are RON tuples `(x, y)`.
use glam::DVec2;
use serde::{Deserialize, Serialize};

use super::fields::{choices, object_fields, Choice, Widget};
use super::objects::LevelObjects;
use super::sign::LevelSign;
use super::signal::{LevelSignal, MoverStart};
use super::track::Track;
use super::validate::{MAX_MOVER_PERIOD, MAX_MOVER_SPIN};
use crate::collision::{Aabb, PolygonId, Solidity, SourcePolygon};
use crate::movement::TuningOverrides;

/// A level: obstacles, ladders, where the hero starts, and what the camera may show.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Shown in the window title and the editor.
    pub name: String,
    /// Obstacles, each a simple polygon (convex or concave, either orientation). A polygon's index
    /// in this list is its [`PolygonId`] everywhere (meshes, contacts, error messages).
    pub polygons: Vec<LevelPolygon>,
    /// Climbable rectangles.
    #[serde(default)]
    pub ladders: Vec<Ladder>,
    /// Doors: polygons that block while closed and open when the hero steps into their switch;
    /// none by default. Door `i` is polygon `polygons.len() + i` of the collision meshes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub doors: Vec<LevelDoor>,
    /// Characters other than the hero, each on the meshes of its size class; none by default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<LevelAgent>,
    /// Moving platforms: convex pieces moved along a path every tick; none by default.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub movers: Vec<LevelMover>,
    /// Where the hero's feet start. Inside solid geometry it is moved to the nearest free point,
    /// with a warning.
    pub spawn: DVec2,
    /// Checkpoints: regions that, when the hero's feet enter one, become where it respawns after
    /// a death (`sim::play`); none by default (it respawns at `spawn`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checkpoints: Vec<Aabb>,
    /// The goal: a region that completes the level when the hero's feet enter it; `None` (the
    /// default): a level with no end (a sandbox).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<Aabb>,
    /// Whether a death puts the agents (enemies included, defeated ones back), the doors, the
    /// hazards, the signals and the movers that signals drive as the level starts them
    /// (`sim::signals`: one rule); `false` (the default): they keep their state. A mover nothing
    /// drives always keeps its time.
    #[serde(default, skip_serializing_if = "is_default")]
    pub reset_on_death: bool,
    /// Which of the game's music tracks plays while this level is played, 1 to
    /// [`MUSIC_TRACKS`]; `None` (the default): track 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub music: Option<u32>,
    /// The region the camera may show; `None`: follow the hero without limits.
    #[serde(default)]
    pub camera_bounds: Option<Aabb>,
    /// Where the hero's feet may go (everything outside is solid); `None`: the box around every
    /// polygon, every ladder and the spawn point, grown by 10 m on each side
    /// (`sim::world::automatic_bounds`).
    #[serde(default)]
    pub bounds: Option<Aabb>,
    /// Tuning fields this level changes (e.g. `top_down: Some(true)`); empty by default.
    #[serde(default, skip_serializing_if = "is_default")]
    pub tuning: TuningOverrides,
    /// Signs: texts shown in the world when the hero is near, naming the player's keys
    /// ([`LevelSign`]); none by default. Drawing only: the simulation never reads them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signs: Vec<LevelSign>,
    /// Named signals and their sources (`level::signal`): doors and movers act on them by name.
    /// Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signals: Vec<LevelSignal>,
    /// The objects people expect, made of movers, doors and signals (`level::objects`: falling
    /// platforms, crumbling blocks, zip movers, crushers, timed doors), one list per kind.
    /// Default: none.
    #[serde(default, skip_serializing_if = "LevelObjects::is_empty")]
    pub objects: LevelObjects,
}

/// How many music tracks the game ships (`assets/sounds/music_1.wav` to `music_4.wav`); a
/// level's [`Level::music`] chooses one.
pub const MUSIC_TRACKS: u32 = 4;

impl Level {
    /// A level named `name` with nothing in it: no polygons, ladders, doors, agents, movers,
    /// checkpoints or goal, the spawn at the origin, and every optional field at its default
    /// (what a level file that names only these fields gives). Code that builds a level writes
    /// the fields it sets and takes the rest from here:
    /// `Level { polygons, spawn, ..Level::empty("name") }`.
    pub fn empty(name: impl Into<String>) -> Level {
        Level {
            name: name.into(),
            polygons: Vec::new(),
            ladders: Vec::new(),
            doors: Vec::new(),
            agents: Vec::new(),
            movers: Vec::new(),
            spawn: DVec2::ZERO,
            checkpoints: Vec::new(),
            goal: None,
            reset_on_death: false,
            music: None,
            camera_bounds: None,
            bounds: None,
            tuning: TuningOverrides::default(),
            signs: Vec::new(),
            signals: Vec::new(),
            objects: LevelObjects::default(),
        }
    }

    /// The music track this level plays, 0-based (`music: Some(2)` is 1; none is 0).
    pub fn music_track(&self) -> usize {
        self.music.map_or(0, |m| m.saturating_sub(1) as usize)
    }
}

/// What a level polygon is: the level's word for it, written in the file as `kind`. The
/// collision core sees only its [`Solidity`] ([`PolygonKind::solidity`]); the rules of play
/// (`sim::play`) read the hazards.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PolygonKind {
    /// Blocks from every side.
    #[default]
    Solid,
    /// Blocks only bodies coming down onto its top edges; passable from below and the sides.
    OneWay,
    /// Not an obstacle: bodies move through it. A character whose collider overlaps it with
    /// positive area is hurt (spikes, lava; `sim::play`).
    Hazard,
}

impl PolygonKind {
    /// How the collision core treats the polygon: a hazard blocks nothing
    /// ([`Solidity::Passable`]).
    pub fn solidity(self) -> Solidity {
        match self {
            PolygonKind::Solid => Solidity::Solid,
            PolygonKind::OneWay => Solidity::OneWay,
            PolygonKind::Hazard => Solidity::Passable,
        }
    }
}

/// One obstacle of a level.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelPolygon {
    /// Vertices in order, either orientation, without repeating the first at the end.
    pub points: Vec<DVec2>,
    /// `solid` (default), `one_way` (blocks only from above) or `hazard` (blocks nothing; hurts
    /// the hero when its collider overlaps it: spikes, lava).
    #[serde(default, skip_serializing_if = "is_default")]
    pub kind: PolygonKind,
    /// Surface material for the renderer and footstep sounds (`"stone"`, `"wood"`, `"grass"`,
    /// `"metal"`, ...). Unknown names fall back to a neutral look and sound.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub material: Option<String>,
    /// Fill colour, linear RGB, each component in `[0, 1]`; `None`: the material's colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<[f32; 3]>,
    /// A hazard only: whether it starts off (harming nobody until a signal turns it on).
    /// Default: on, as every hazard before signals.
    #[serde(default, skip_serializing_if = "is_default")]
    pub off: bool,
    /// A hazard only: signals that turn it on (`level::signal`). Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_on: Vec<String>,
    /// A hazard only: signals that turn it off. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub off_on: Vec<String>,
    /// A hazard only: signals that turn it off if on and on if off. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub toggle_on: Vec<String>,
    /// A hazard only: how it is drawn, `spikes` (the default), `lava` or `saw`. Drawing only:
    /// every look hurts by the polygon's outline alone, by the same rule.
    #[serde(default, skip_serializing_if = "is_default")]
    pub look: HazardLook,
}

/// How a hazard polygon is drawn ([`LevelPolygon::look`]): the view's alone, the rules of play
/// never read it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HazardLook {
    /// Steel spikes along its exposed edges (sunk into its bed while it is off).
    #[default]
    Spikes,
    /// A glowing surface of molten rock over its front and top, no spikes (a dark crust while
    /// it is off).
    Lava,
    /// Round saw blades standing half out of its top edges (sunk while it is off).
    Saw,
}

impl HazardLook {
    /// Its name in a level file.
    pub fn name(self) -> &'static str {
        match self {
            HazardLook::Spikes => "spikes",
            HazardLook::Lava => "lava",
            HazardLook::Saw => "saw",
        }
    }
}

impl LevelPolygon {
    /// Its signal fields (a hazard's), in file order: `(field, signal names)`.
    pub fn signal_fields(&self) -> [(&'static str, &[String]); 3] {
        [
            ("on_on", &self.on_on),
            ("off_on", &self.off_on),
            ("toggle_on", &self.toggle_on),
        ]
    }

    /// [`LevelPolygon::signal_fields`], to change (the editor's rename of a signal).
    pub fn signal_fields_mut(&mut self) -> [(&'static str, &mut Vec<String>); 3] {
        [
            ("on_on", &mut self.on_on),
            ("off_on", &mut self.off_on),
            ("toggle_on", &mut self.toggle_on),
        ]
    }

    /// Whether signals switch it or it starts off: a hazard whose on or off is state (in the
    /// state hash, the trace and a `reset_on_death`), drawn by the view as it is now.
    pub fn is_switched(&self) -> bool {
        self.off || self.signal_fields().iter().any(|(_, n)| !n.is_empty())
    }
}

/// A climbable rectangle: the hero grabs it when its feet are inside.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ladder {
    /// Lower-left corner.
    pub min: DVec2,
    /// Upper-right corner.
    pub max: DVec2,
}

object_fields! {
/// A door: a polygon that blocks from every side while closed and is not there while open.
/// Opening or closing it re-meshes nothing (its outline is triangulated with the level; see
/// `collision::CollisionMesh::set_gate`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelDoor {
    /// Vertices in order, either orientation (as a polygon's).
    pub points: Vec<DVec2> => ("outline", Widget::Custom),
    /// Whether it starts open. Default: closed.
    #[serde(default, skip_serializing_if = "is_default")]
    pub open: bool => ("starts open", Widget::Flag),
    /// A region: the door opens when the hero's feet enter it, and stays open. `None`: only a
    /// script or the simulation's API opens it (`sim::World::set_door`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switch: Option<Aabb> => ("switch", Widget::Custom),
    /// Seconds it stays open after opening, then closes; `None` (the default): stays open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub close_after: Option<f64> => (
        "closes after",
        Widget::Optional {
            min: 0.1,
            max: 3600.0,
            unit: "s",
            speed: 0.05,
            default: 2.0,
        }
    ),
    /// Signals that open it (`level::signal`). Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open_on: Vec<String> => ("opens on", Widget::Custom),
    /// Signals that close it. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub close_on: Vec<String> => ("closes on", Widget::Custom),
    /// Signals that open it if closed and close it if open. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub toggle_on: Vec<String> => ("toggles on", Widget::Custom),
}
}

impl LevelDoor {
    /// Its signal fields, in file order: `(field, signal names)`.
    pub fn signal_fields(&self) -> [(&'static str, &[String]); 3] {
        [
            ("open_on", &self.open_on),
            ("close_on", &self.close_on),
            ("toggle_on", &self.toggle_on),
        ]
    }

    /// [`LevelDoor::signal_fields`], to change (the editor links and unlinks signals).
    pub fn signal_fields_mut(&mut self) -> [(&'static str, &mut Vec<String>); 3] {
        [
            ("open_on", &mut self.open_on),
            ("close_on", &mut self.close_on),
            ("toggle_on", &mut self.toggle_on),
        ]
    }
}

object_fields! {
/// A moving platform: solid convex pieces, drawn where the level file places them, moved along a
/// path of offsets from there as a pure function of time (`sim::movers`): the same tick gives the
/// same pose, so replays and traces stay bit-identical. Characters ride it, are pushed by it and
/// can be crushed by it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelMover {
    /// Convex polygons (either orientation), in the level's coordinates at the mover's rest
    /// pose, where offset `(0, 0)` puts it.
    pub pieces: Vec<Vec<DVec2>> => ("pieces", Widget::Custom),
    /// Its motion as keys, holds and legs (`level::track`): `None` (the default) for the
    /// shorthand of `path`, `period`, `mode`, `ease`, `spin` and `swing` below, which a mover with
    /// a track leaves out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub track: Option<Track> => ("track", Widget::Custom),
    /// Offsets from the rest pose it passes through, in order (at least two); the first is where
    /// it starts. Shorthand: none with a `track`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<DVec2> => ("path", Widget::Custom),
    /// Seconds from the first offset to the last. Shorthand: none with a `track`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub period: f64 => (
        "period",
        Widget::Number {
            min: 0.1,
            max: MAX_MOVER_PERIOD,
            unit: "s",
            speed: 0.05,
        }
    ),
    /// `ping_pong` (default: there and back) or `loop` (the last offset back to the first, then
    /// again).
    #[serde(default, skip_serializing_if = "is_default")]
    pub mode: MoverMode => ("mode", Widget::Choice),
    /// `smooth` (default: eases out of and into each offset of the path, stopping there) or
    /// `linear` (constant speed along the whole path).
    #[serde(default, skip_serializing_if = "is_default")]
    pub ease: MoverEase => ("ease", Widget::Choice),
    /// `true`: it blocks only from above, as a `one_way` polygon does: a character jumps up
    /// through it and walks through its sides, lands on its top going down (relative to the
    /// mover) and drops through it with down and jump. It never pushes or crushes; rising into a
    /// character that stood or fell above its top, it lifts it onto the top. Default `false`:
    /// solid from every side.
    #[serde(default, skip_serializing_if = "is_default")]
    pub one_way: bool => ("one-way", Widget::Flag),
    /// Turning speed, radians per second, counter-clockwise positive: the mover turns about its
    /// pivot at this rate for ever (a windmill, a turning bar). Default 0. A turning one-way
    /// mover's rising side lifts a character standing or falling just above it, as a lift does.
    #[serde(default, skip_serializing_if = "is_default")]
    pub spin: f64 => (
        "spin",
        Widget::Number {
            min: -MAX_MOVER_SPIN,
            max: MAX_MOVER_SPIN,
            unit: "rad/s",
            speed: 0.01,
        }
    ),
    /// Swing amplitude, radians: the mover rocks about its pivot as `swing · sin(2π t / period)`
    /// (a seesaw, a pendulum), with the path's period, on top of its spin. Default 0.
    #[serde(default, skip_serializing_if = "is_default")]
    pub swing: f64 => (
        "swing",
        Widget::Number {
            min: -std::f64::consts::PI,
            max: std::f64::consts::PI,
            unit: "rad",
            speed: 0.005,
        }
    ),
    /// Where it turns about, from the centre of its pieces' box at the rest pose, m (carried
    /// along the path with it). Default `(0, 0)`: the centre. Only used when it spins or swings.
    #[serde(default, skip_serializing_if = "is_default")]
    pub pivot: DVec2 => ("pivot", Widget::Point),
    /// `running` (the default: its clock runs from the level's first tick) or `stopped` (at its
    /// start until a signal starts it).
    #[serde(default, skip_serializing_if = "is_default")]
    pub start: MoverStart => ("start", Widget::Choice),
    /// Signals that start its clock (forwards, from where it is). Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub start_on: Vec<String> => ("starts on", Widget::Custom),
    /// Signals that stop its clock where it is. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop_on: Vec<String> => ("stops on", Widget::Custom),
    /// Signals that run its clock the other way from where it is. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reverse_on: Vec<String> => ("reverses on", Widget::Custom),
    /// Signals that run its clock back to its start, where it stops. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub return_on: Vec<String> => ("returns on", Widget::Custom),
    /// Signals that put its clock back to its start, running. Default: none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub restart_on: Vec<String> => ("restarts on", Widget::Custom),
}
}

impl LevelMover {
    /// Its signal fields, in file order: `(field, signal names)`.
    pub fn signal_fields(&self) -> [(&'static str, &[String]); 5] {
        [
            ("start_on", &self.start_on),
            ("stop_on", &self.stop_on),
            ("reverse_on", &self.reverse_on),
            ("return_on", &self.return_on),
            ("restart_on", &self.restart_on),
        ]
    }

    /// [`LevelMover::signal_fields`], to change (the editor links and unlinks signals).
    pub fn signal_fields_mut(&mut self) -> [(&'static str, &mut Vec<String>); 5] {
        [
            ("start_on", &mut self.start_on),
            ("stop_on", &mut self.stop_on),
            ("reverse_on", &mut self.reverse_on),
            ("return_on", &mut self.return_on),
            ("restart_on", &mut self.restart_on),
        ]
    }

    /// Whether signals drive its clock, or it starts stopped: then `reset_on_death` puts its
    /// clock back as the level starts it (a mover nothing drives keeps its time).
    pub fn is_driven(&self) -> bool {
        self.start == MoverStart::Stopped || self.signal_fields().iter().any(|(_, n)| !n.is_empty())
    }
    /// Whether it turns (a spin or a swing, or a track with an angle).
    pub fn turns(&self) -> bool {
        self.spin != 0.0 || self.swing != 0.0 || self.track.as_ref().is_some_and(Track::turns)
    }

    /// The offsets it is placed at on its way: its track's keys, or its path.
    pub fn stops(&self) -> Vec<DVec2> {
        match &self.track {
            Some(t) => t.keys.iter().map(|k| k.offset).collect(),
            None => self.path.clone(),
        }
    }

    /// Whether it gives any field of the shorthand (`path`, `period`, `mode`, `ease`, `spin`,
    /// `swing`) other than its default.
    pub fn has_shorthand(&self) -> bool {
        !self.path.is_empty()
            || self.period != 0.0
            || self.mode != MoverMode::default()
            || self.ease != MoverEase::default()
            || self.spin != 0.0
            || self.swing != 0.0
    }

    /// The point it turns about, in the level's coordinates at the rest pose: the centre of its
    /// pieces' box moved by `pivot`.
    pub fn pivot_point(&self) -> DVec2 {
        let b = crate::collision::Aabb::from_points(self.pieces.iter().flatten().copied());
        (b.min + b.max) * 0.5 + self.pivot
    }

    /// The radius of the circle its farthest point sweeps about [`LevelMover::pivot_point`], m.
    pub fn turning_radius(&self) -> f64 {
        let c = self.pivot_point();
        self.pieces
            .iter()
            .flatten()
            .map(|p| p.distance(c))
            .fold(0.0, f64::max)
    }
}

/// How a mover repeats its path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoverMode {
    /// There and back again.
    #[default]
    PingPong,
    /// From the last offset straight back to the first, and on.
    Loop,
}

/// How a mover's speed varies along its path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoverEase {
    /// Each leg between two offsets eases in and out (smoothstep), stopping at every offset.
    #[default]
    Smooth,
    /// Constant speed, each leg timed by its length.
    Linear,
}

object_fields! {
/// A character other than the hero: what it does, its size, and where it starts. It moves by the
/// hero's state machine and the level's tuning, on the collision meshes of its size class.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelAgent {
    /// What it does every tick: `patrol` (walks at half the run speed, turning at walls and at
    /// ledges it would fall from) or `idle` (stands).
    pub kind: AgentKind => ("kind", Widget::Choice),
    /// Its colliders: `small` (0.6 × 0.5 m), `medium` (0.8 × 1.2 m), `large` (1.2 × 2.2 m), or
    /// `hero` (the hero's standing and crouching colliders of the tuning in effect).
    pub size: AgentSize => ("size", Widget::Choice),
    /// Where its feet start. Inside solid geometry for its size it is moved to the nearest free
    /// point, with a warning, as the hero's spawn is.
    pub spawn: DVec2 => ("feet", Widget::Point),
    /// Which way it first faces and walks: `1` right (the default), `-1` left.
    #[serde(default = "facing_right", skip_serializing_if = "is_facing_right")]
    pub facing: f64 => ("facing", Widget::Facing),
    /// The character file it is drawn with (`assets/characters/*.ron`, the format of
    /// `tessera play --character`), relative to the level file's folder, else to the data
    /// directory (`view::Cast::load`); `None` (the default):
    /// drawn as its collider's outline. Drawing only: the simulation never reads it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character: Option<String> => ("drawn with", Widget::Custom),
    /// The stretch of level x (m) it patrols, `(left, right)` with `left < right` and its spawn's
    /// x between them: walking, it turns as it reaches either end, as at a wall (braking in time,
    /// so its feet stay within the range), and walks back into the range from wherever a charge
    /// or a knock took it. For the kinds that walk (`patrol`, `crawler`, `brute`'s walk; a
    /// brute's charge is not held to it). While it rides a mover the range is in the mover's
    /// frame (level x at the mover's rest pose, where the editor draws it), so it rides along.
    /// `None` (the default): the whole ground it can walk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patrol: Option<[f64; 2]> => ("patrol range", Widget::XRange { half_width: 3.0 }),
}
}

/// What an agent does every tick (its behaviour, `sim::agents`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentKind {
    /// Stands where it is.
    Idle,
    /// Walks along the ground at half the run speed, turning at walls and at ledges.
    Patrol,
    /// An enemy that patrols as `patrol` does; touching it hurts the hero, a stomp or one hit
    /// defeats it. Meant for the `small` size class.
    Crawler,
    /// An enemy that hops towards the hero when it sees it (a ray on its mesh, blocked by
    /// solids) within [`SIGHT_RANGE`](crate::sim::agents::SIGHT_RANGE); touching it hurts, a stomp
    /// or two hits defeat it. Meant for the `medium` size class.
    Hopper,
    /// An enemy that walks slowly and charges at full run speed when it sees the hero at its own
    /// height; a wall it charges into stuns it. Touching it hurts; stomps bounce off it, three
    /// hits defeat it. Meant for the `large` size class.
    Brute,
}

impl AgentKind {
    /// Whether touching it hurts the hero (and the hero's attacks and stomps hit it).
    pub fn is_enemy(self) -> bool {
        matches!(
            self,
            AgentKind::Crawler | AgentKind::Hopper | AgentKind::Brute
        )
    }

    /// Whether it walks a patrol (so a patrol range applies: [`LevelAgent::patrol`]).
    pub fn patrols(self) -> bool {
        matches!(
            self,
            AgentKind::Patrol | AgentKind::Crawler | AgentKind::Brute
        )
    }

    /// The hits it takes before it is defeated (0: it cannot be hurt).
    pub fn health(self) -> u32 {
        match self {
            AgentKind::Idle | AgentKind::Patrol => 0,
            AgentKind::Crawler => 1,
            AgentKind::Hopper => 2,
            AgentKind::Brute => 3,
        }
    }

    /// Whether a stomp hurts it (as a hit of the attack does: a crawler is defeated, a hopper
    /// loses one of its two); a brute only bounces the hero off.
    pub fn stompable(self) -> bool {
        matches!(self, AgentKind::Crawler | AgentKind::Hopper)
    }

    /// Its name in a level file (the list `choices!` gives below).
    pub fn name(self) -> &'static str {
        self.names()[self.index()]
    }
}

/// An agent's size class: which colliders (and so which collision meshes) it moves with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AgentSize {
    /// 0.6 × 0.5 m (a crawler).
    Small,
    /// 0.8 × 1.2 m.
    Medium,
    /// 1.2 × 2.2 m (a brute: it cannot go where the hero crouches).
    Large,
    /// The hero's colliders, standing and crouching.
    Hero,
}

impl AgentSize {
    /// Every size class, in the order their meshes are built.
    pub const ALL: [AgentSize; 4] = [
        AgentSize::Hero,
        AgentSize::Small,
        AgentSize::Medium,
        AgentSize::Large,
    ];

    /// Width and height (m) of the class's box collider; `None` for [`AgentSize::Hero`], whose
    /// colliders are the tuning's.
    pub fn box_size(self) -> Option<(f64, f64)> {
        match self {
            AgentSize::Small => Some((0.6, 0.5)),
            AgentSize::Medium => Some((0.8, 1.2)),
            AgentSize::Large => Some((1.2, 2.2)),
            AgentSize::Hero => None,
        }
    }

    /// The name written in level files (the list `choices!` gives below).
    pub fn name(self) -> &'static str {
        self.names()[self.index()]
    }
}

// The file's enums as editor choices. For `AgentKind` and `AgentSize` these are also their names
// in the file (`name()`); the movers' display names differ from the file's (`ping_pong`).
choices! {
    AgentKind => [
        AgentKind::Crawler => "crawler",
        AgentKind::Hopper => "hopper",
        AgentKind::Brute => "brute",
        AgentKind::Patrol => "patrol",
        AgentKind::Idle => "idle",
    ];
    AgentSize => [
        AgentSize::Small => "small",
        AgentSize::Medium => "medium",
        AgentSize::Large => "large",
        AgentSize::Hero => "hero",
    ];
    MoverMode => [MoverMode::PingPong => "ping-pong", MoverMode::Loop => "loop"];
    MoverEase => [MoverEase::Smooth => "smooth", MoverEase::Linear => "linear"];
    MoverStart => [MoverStart::Running => "running", MoverStart::Stopped => "stopped"];
}

fn facing_right() -> f64 {
    1.0
}

fn is_facing_right(f: &f64) -> bool {
    *f == 1.0
}

pub(crate) fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

impl LevelPolygon {
    /// A solid polygon with no material or colour.
    pub fn solid(points: Vec<DVec2>) -> Self {
        LevelPolygon {
            points,
            kind: PolygonKind::Solid,
            material: None,
            colour: None,
            off: false,
            on_on: Vec::new(),
            off_on: Vec::new(),
            toggle_on: Vec::new(),
            look: HazardLook::Spikes,
        }
    }
}

impl Ladder {
    /// The ladder as a box.
    pub fn aabb(&self) -> Aabb {
        Aabb {
            min: self.min,
            max: self.max,
        }
    }
}

impl Level {
    /// The polygons as the collision core takes them (each kind as its [`Solidity`]); each id is
    /// the polygon's index. The doors follow, as [`Solidity::Gate`] polygons: door `i` has the id
    /// `polygons.len() + i` ([`Level::door_id`]).
    pub fn source_polygons(&self) -> Vec<SourcePolygon> {
        let doors = self.doors.iter().enumerate().map(|(i, d)| SourcePolygon {
            id: self.door_id(i),
            kind: Solidity::Gate,
            points: d.points.clone(),
        });
        self.polygons
            .iter()
            .enumerate()
            .map(|(i, p)| SourcePolygon {
                id: polygon_id(i),
                kind: p.kind.solidity(),
                points: p.points.clone(),
            })
            .chain(doors)
            .collect()
    }

    /// The collision meshes' id of door `index`.
    pub fn door_id(&self, index: usize) -> PolygonId {
        polygon_id(self.polygons.len() + index)
    }
}

/// The id of the polygon at `index`.
///
/// A level with 2³² − 1 polygons would not fit in memory long before this; `PolygonId(u32::MAX)` is
/// reserved for the bounds frame.
pub fn polygon_id(index: usize) -> PolygonId {
    let id = u32::try_from(index).expect("polygon index fits in u32");
    assert_ne!(
        id,
        u32::MAX,
        "polygon index collides with PolygonId::BOUNDS"
    );
    PolygonId(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64) -> Vec<DVec2> {
        vec![
            DVec2::new(x, 0.0),
            DVec2::new(x + 1.0, 0.0),
            DVec2::new(x + 1.0, 1.0),
            DVec2::new(x, 1.0),
        ]
    }

    #[test]
    fn source_polygons_keep_index_kind_and_points() {
        let mut one_way = LevelPolygon::solid(square(5.0));
        one_way.kind = PolygonKind::OneWay;
        let mut hazard = LevelPolygon::solid(square(9.0));
        hazard.kind = PolygonKind::Hazard;
        let level = Level {
            polygons: vec![LevelPolygon::solid(square(0.0)), one_way, hazard],
            doors: vec![LevelDoor {
                points: square(12.0),
                open: false,
                switch: None,
                close_after: None,
                open_on: Vec::new(),
                close_on: Vec::new(),
                toggle_on: Vec::new(),
            }],
            ..Level::empty("t")
        };
        let src = level.source_polygons();
        assert_eq!(src.len(), 4);
        assert_eq!(src[0].id, PolygonId(0));
        assert_eq!(src[1].id, PolygonId(1));
        assert_eq!(src[0].kind, Solidity::Solid);
        assert_eq!(src[1].kind, Solidity::OneWay);
        assert_eq!(src[1].points, square(5.0));
        // The level's hazards and doors are, to the collision core, passable and gates.
        assert_eq!(src[2].kind, Solidity::Passable);
        assert_eq!((src[3].id, src[3].kind), (level.door_id(0), Solidity::Gate));
    }

    #[test]
    fn optional_fields_default_and_unknown_fields_are_refused() {
        let level: Level = ron::from_str(
            "(name: \"m\", polygons: [(points: [(0, 0), (1, 0), (0, 1)])], spawn: (0.5, 2))",
        )
        .unwrap();
        assert_eq!(level.polygons[0].kind, PolygonKind::Solid);
        assert_eq!(level.polygons[0].material, None);
        assert!(level.ladders.is_empty());
        assert_eq!(level.camera_bounds, None);
        assert_eq!(level.tuning, TuningOverrides::default());
        let e = ron::from_str::<Level>("(name: \"m\", polygons: [], spawn: (0, 0), gravity: 3)")
            .unwrap_err();
        assert!(e.to_string().contains("gravity"), "{e}");
        let e = ron::from_str::<LevelPolygon>("(points: [], kind: sticky)").unwrap_err();
        assert!(e.to_string().contains("sticky"), "{e}");
    }

    /// `Level::empty` is the file with only the required fields, so a level built as
    /// `Level { .., ..Level::empty(name) }` has the file's defaults for what it leaves out.
    #[test]
    fn the_empty_level_is_the_file_with_only_the_required_fields() {
        let file: Level = ron::from_str("(name: \"e\", polygons: [], spawn: (0, 0))").unwrap();
        assert_eq!(Level::empty("e"), file);
    }
}
