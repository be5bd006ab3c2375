//! The view: what the front end keeps about the simulation in order to draw it, and nothing that
//! draws.
//!
//! # What it owns
//! - The following camera ([`camera`]: dead zone, look-ahead, smoothing, bounds).
//! - The hero's animation ([`crate::anim::HeroAnimator`]), advanced once per tick by
//!   [`View::after_tick`] from the tick's state and events.
//! - Step smoothing ([`StepSmoothing`]): the drawn height of steps caught up over a few ticks.
//! - How far open each door is drawn, sliding over a few ticks ([`doors`]).
//! - Which of the level's signs are shown near the hero, faded in and out ([`signs`]).
//! - The blend between the last two ticks (`alpha`), the time shown, and the overlay toggle.
//! - How a death and a respawn look: the camera stops at the level's bottom edge when the hero
//!   falls below it ([`level_bottom`]), the frame fades to black over the end of the respawn
//!   delay and back in after the respawn ([`View::fade`], [`RESPAWN_FADE_TICKS`]), and the
//!   respawned hero is drawn in a fresh pose with the camera on it at once: no frame shows the
//!   death pose at the respawn point or the camera sliding there.
//!
//! Each frame, [`View::snapshot`] hands the renderer one [`Snapshot`]: the renderer reads the
//! snapshot and the world, never this state. The game window (`app::game`) and offscreen
//! rendering (`render::headless`, `tessera render`, the golden images) drive the same `View`, so
//! a still shot and a frame of the game pose the hero and place the camera by the same code.
//!
//! # Must never depend on
//! wgpu, winit, gilrs, egui, rodio or image, and no front-end module but `anim` (checked by
//! `tests/it/layering.rs`): it is plain state, tested without a window or a GPU. The simulation
//! never depends on it; it reads the world and its events after each tick.
pub mod camera;
pub mod cast;
pub mod doors;
pub mod signs;

use glam::DVec2;

use crate::anim::{AnimInput, Cue, HeroAnimator};
use crate::movement::MoveEvent;
use crate::sim::World;

pub use camera::{CameraConfig, CameraRig, CameraView, FollowTarget};
pub use cast::{Cast, CastError, Member, DEFEATED_BLINK_TICKS, DEFEATED_SHOWN_TICKS};
pub use doors::{DoorMotion, DOOR_MOTION_TICKS};
pub use signs::{Signs, SIGN_FADE_TICKS, SIGN_NEAR};

/// Fraction of a step's height still to be drawn after each tick: a step-up is drawn rising over
/// about four ticks (after 4 ticks, 33 ms, 9 % is left; after 8, 1 %) instead of in one.
pub const STEP_SMOOTHING_KEEP: f64 = 0.55;
/// Ticks the frame takes to fade to black before a respawn, and back after it (0.15 s): short
/// enough to fit the shortest respawn delay worth a fade, long enough to read as a cut.
pub const RESPAWN_FADE_TICKS: u32 = 18;

/// Offsets smaller than this (m, a hundredth of a millimetre) are dropped.
const STEP_SMOOTHING_MIN: f64 = 1e-5;

/// The doors of `world` drawn where they are: a view made on a world with an open door draws it
/// open from the first frame.
fn door_motion_at(world: &World) -> DoorMotion {
    let mut doors = DoorMotion::default();
    doors.after_tick(world.doors().iter().map(|d| d.open));
    doors
}

/// Smooths the drawn height of steps (`MoveEvent::SteppedUp` / `SteppedDown`): the simulation
/// moves the feet onto the step within one tick; the hero and the camera are drawn that much lower
/// (or higher) and catch up over a few ticks. Updated once per tick from the tick's events and
/// interpolated between ticks like the position, so the drawn height is continuous. Front-end state
/// only: the simulation never sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepSmoothing {
    prev: f64,
    now: f64,
}

impl StepSmoothing {
    /// After a tick with these events.
    pub fn tick(&mut self, events: &[MoveEvent]) {
        self.prev = self.now;
        let mut off = self.now * STEP_SMOOTHING_KEEP;
        for e in events {
            match *e {
                MoveEvent::SteppedUp { height } => off -= height,
                MoveEvent::SteppedDown { height } => off += height,
                _ => {}
            }
        }
        self.now = if off.abs() < STEP_SMOOTHING_MIN {
            0.0
        } else {
            off
        };
    }

    /// The drawn height offset at blend `alpha` between the last two ticks.
    pub fn offset(&self, alpha: f64) -> f64 {
        let a = alpha.clamp(0.0, 1.0);
        self.prev + (self.now - self.prev) * a
    }
}

/// Advances the hero's animation by the tick `world` just ran: its state after the tick, the
/// tick's events, and the rules of play's (an attack swung or a hit taken starts its clip over
/// the upper body; dead, the death clip plays until the respawn). Call after every
/// [`World::step`], so no tick's events are missed ([`View::after_tick`] does).
pub fn animate(hero: &mut HeroAnimator, world: &World) {
    use crate::sim::PlayEvent;
    let mut input = anim_input(world, world.hero());
    input.dead = world.play().is_dead();
    input.cue = world.play_events().iter().find_map(|e| match e {
        PlayEvent::Attacked => Some(Cue::Attack),
        PlayEvent::Hurt { .. } => Some(Cue::Hurt),
        _ => None,
    });
    hero.tick(&input, &world.last_report().events, crate::sim::DT);
}

/// What the controller reads of any character moved by the state machine (the hero or an
/// agent) after a tick of `world`: `mover`'s state and the ground under it; the rules of play's
/// fields (`cue`, `dead`, `charging`) left for the caller.
pub fn anim_input(world: &World, mover: &crate::movement::Hero) -> AnimInput {
    let mut input = AnimInput::from_hero(mover, world.tuning());
    input.ground = ground_under(world, mover);
    input
}

/// The straight ground `mover` stands on: the slope of its support edge (the collision mesh's
/// edges run parallel to the level's surfaces) and the half width of the collider's flat bottom.
fn ground_under(world: &World, mover: &crate::movement::Hero) -> Option<crate::anim::Ground> {
    let crate::movement::MoveState::Supported { edge, .. } = mover.state else {
        return None;
    };
    let mesh = world.collision().mesh(mover.collider);
    let (a, b) = mesh.edge_points(edge);
    let d = b - a;
    if d.x.abs() < 1e-9 {
        return None;
    }
    let c = mesh.collider();
    let lo = c.iter().fold(f64::MAX, |m, p| m.min(p.x));
    let hi = c.iter().fold(f64::MIN, |m, p| m.max(p.x));
    Some(crate::anim::Ground {
        slope: d.y / d.x,
        half_width: (hi - lo) / 2.0,
    })
}

/// The hero's drawn position: the blend of its positions before and after the last tick.
pub fn interpolated_hero(world: &World, alpha: f64) -> DVec2 {
    world
        .prev_pos()
        .lerp(world.hero().body.pos, alpha.clamp(0.0, 1.0))
}

/// What the camera should follow this frame: the hero's drawn position, `step_offset` (m) added
/// to its height (see [`StepSmoothing`]), held at the level's bottom edge ([`level_bottom`])
/// while the hero is off the ground below it: falling into a pit, or dead there, the camera
/// stops at the edge instead of following the hero down past everything the level holds.
pub fn follow_target(world: &World, alpha: f64, step_offset: f64) -> FollowTarget {
    let h = world.hero();
    let mut target = FollowTarget {
        pos: interpolated_hero(world, alpha) + DVec2::new(0.0, step_offset),
        vel: h.vel,
        facing: h.facing,
    };
    if (!h.grounded() || world.play().is_dead()) && target.pos.y < level_bottom(world) {
        target.pos.y = level_bottom(world);
        target.vel.y = 0.0;
    }
    target
}

/// The level's bottom edge: the lowest point of everything it holds (polygons, doors, movers'
/// paths, ladders, agents and the spawn; `sim::world::automatic_bounds` without its margin).
/// Below it there is nothing to stand on, only the pit.
pub fn level_bottom(world: &World) -> f64 {
    crate::sim::world::automatic_bounds(&world.level()).min.y
        + crate::sim::world::AUTO_BOUNDS_MARGIN
}

/// Everything a frame is drawn from besides the world: what the renderer reads.
#[derive(Clone, Copy, Debug)]
pub struct Snapshot<'a> {
    /// Blend between the previous and the current tick, `[0, 1]`.
    pub alpha: f64,
    /// Seconds shown since start (for shader animation).
    pub time: f32,
    /// Whether to draw the collision overlay.
    pub overlay: bool,
    /// Added to the hero's drawn height, m: [`StepSmoothing::offset`] (0 for a still shot).
    pub step_offset: f64,
    /// The hero's animation (its pose is drawn at `alpha` like its position).
    pub hero: &'a HeroAnimator,
    /// The agents drawn with a character, and their animation.
    pub cast: &'a Cast,
    /// The camera the frame is seen by.
    pub camera: &'a CameraRig,
    /// The level's signs shown, and their texts.
    pub signs: &'a Signs,
    /// How far open each door is drawn.
    pub doors: &'a DoorMotion,
}

impl<'a> Snapshot<'a> {
    /// The same frame seen by another camera (the editor's free camera).
    pub fn seen_by(self, camera: &'a CameraRig) -> Snapshot<'a> {
        Snapshot { camera, ..self }
    }
}

/// The front end's state of one world's view: camera, hero animation, step smoothing, blend and
/// overlay. Fed after every tick ([`View::after_tick`]) and once per rendered frame
/// ([`View::frame`]); read by [`View::snapshot`].
pub struct View {
    camera: CameraRig,
    hero: HeroAnimator,
    /// The hero's animator as made, standing idle: the respawned hero starts from it.
    fresh_hero: HeroAnimator,
    /// Ticks since the last respawn (`None`: none yet), for the fade back in.
    since_respawn: Option<u32>,
    /// The camera moves straight to the hero on the next frame (after a respawn).
    snap_pending: bool,
    cast: Cast,
    step_smoothing: StepSmoothing,
    /// The signs shown near the hero ([`signs`]).
    signs: Signs,
    /// How far open each door is drawn ([`doors`]).
    doors: DoorMotion,
    alpha: f64,
    time: f64,
    overlay: bool,
}

impl View {
    /// A view of `world` with the built-in hero, the camera settled on the hero for a target of
    /// this `aspect` ratio, and nothing to blend (alpha 1).
    pub fn new(world: &World, config: CameraConfig, aspect: f64) -> View {
        View::with_hero(world, config, aspect, HeroAnimator::builtin())
    }

    /// [`View::new`] with another hero: a character's animator
    /// ([`HeroAnimator::for_character`]).
    pub fn with_hero(world: &World, config: CameraConfig, aspect: f64, hero: HeroAnimator) -> View {
        let camera = CameraRig::new(
            config,
            follow_target(world, 1.0, 0.0),
            world.level().camera_bounds,
            aspect,
        );
        View {
            camera,
            fresh_hero: hero.clone(),
            hero,
            since_respawn: None,
            snap_pending: false,
            cast: Cast::default(),
            step_smoothing: StepSmoothing::default(),
            signs: Signs::default(),
            doors: door_motion_at(world),
            alpha: 1.0,
            time: 0.0,
            overlay: false,
        }
    }

    /// The agents of the world drawn with their characters (loaded by [`Cast::load`]); without
    /// one, every agent is drawn as its outline.
    pub fn set_cast(&mut self, cast: Cast) {
        self.cast = cast;
    }

    /// After each tick of `world`: the hero's and the agents' animation and the step smoothing
    /// take its state and events.
    /// A respawn starts the hero's animation afresh and moves the camera to it on the next
    /// frame.
    pub fn after_tick(&mut self, world: &World) {
        if world
            .play_events()
            .contains(&crate::sim::PlayEvent::Respawned)
        {
            self.hero = self.fresh_hero.clone();
            self.since_respawn = Some(0);
            self.snap_pending = true;
        } else if let Some(n) = &mut self.since_respawn {
            *n = n.saturating_add(1);
        }
        animate(&mut self.hero, world);
        self.cast.after_tick(world);
        self.step_smoothing.tick(&world.last_report().events);
        self.signs
            .after_tick(&world.level().signs, world.hero().body.pos);
        self.doors.after_tick(world.doors().iter().map(|d| d.open));
    }

    /// Once per rendered frame that ran the simulation: `alpha` is the blend between the last
    /// two ticks, `dt` the frame's wall time (s); the camera follows the hero's drawn position.
    pub fn frame(&mut self, world: &World, alpha: f64, dt: f64, aspect: f64) {
        self.alpha = alpha;
        self.time += dt;
        let target = follow_target(world, alpha, self.step_smoothing.offset(alpha));
        if std::mem::take(&mut self.snap_pending) {
            self.camera
                .snap(target, world.level().camera_bounds, aspect);
        } else {
            self.camera
                .update(target, dt, world.level().camera_bounds, aspect);
        }
    }

    /// How dark the frame is drawn for a death and a respawn, 0 (not at all) to 1 (black): it
    /// darkens over the last [`RESPAWN_FADE_TICKS`] of the respawn delay, is black on the
    /// respawn's tick and clears over as many ticks after it.
    pub fn fade(&self, world: &World) -> f32 {
        let f = RESPAWN_FADE_TICKS as f32;
        if let Some(left) = world.play().dead {
            return (1.0 - left as f32 / f).clamp(0.0, 1.0);
        }
        self.since_respawn
            .map_or(0.0, |n| (1.0 - n as f32 / f).clamp(0.0, 1.0))
    }

    /// A single tick run outside the frame clock (the editor's single step): drawn at its end.
    pub fn stepped(&mut self) {
        self.alpha = 1.0;
    }

    /// Moves the camera straight to the hero (after placing it).
    pub fn snap_camera(&mut self, world: &World, aspect: f64) {
        let target = follow_target(world, 1.0, 0.0);
        self.camera
            .snap(target, world.level().camera_bounds, aspect);
    }

    /// Shows or hides the collision overlay.
    pub fn set_overlay(&mut self, overlay: bool) {
        self.overlay = overlay;
    }

    /// What the renderer draws this frame from.
    pub fn snapshot(&self) -> Snapshot<'_> {
        Snapshot {
            alpha: self.alpha,
            time: self.time as f32,
            overlay: self.overlay,
            step_offset: self.step_smoothing.offset(self.alpha),
            hero: &self.hero,
            cast: &self.cast,
            camera: &self.camera,
            signs: &self.signs,
            doors: &self.doors,
        }
    }

    /// The blend between the last two ticks.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// Whether the collision overlay is shown.
    pub fn overlay(&self) -> bool {
        self.overlay
    }
    /// The hero's animation.
    pub fn hero(&self) -> &HeroAnimator {
        &self.hero
    }
    /// The hero's animation, to pose it by hand (stills: [`HeroAnimator::show_clip`]).
    pub fn hero_mut(&mut self) -> &mut HeroAnimator {
        &mut self.hero
    }
    /// How far open each door is drawn.
    pub fn doors(&self) -> &DoorMotion {
        &self.doors
    }
    /// The signs shown near the hero.
    pub fn signs(&self) -> &Signs {
        &self.signs
    }
    /// The signs, to set their texts ([`Signs::set_texts`]).
    pub fn signs_mut(&mut self) -> &mut Signs {
        &mut self.signs
    }
    /// The agents drawn with characters.
    pub fn cast(&self) -> &Cast {
        &self.cast
    }
    /// The following camera.
    pub fn camera(&self) -> &CameraRig {
        &self.camera
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::{Actions, Tuning};

    /// A pit death in a level whose bounds reach 8 m below its floor: the camera stops at the
    /// floor's bottom edge while the hero falls on and lies dead below it, the frame is black on
    /// the respawn's tick, the respawned hero is not in its death pose, and the camera is on it
    /// at once.
    #[test]
    fn a_pit_death_stops_the_camera_at_the_bottom_edge_and_the_respawn_is_a_cut() {
        let level = crate::level::parse_level(
            std::path::Path::new("pit.ron"),
            "(name: \"pit\", polygons: [(points: [(-2.0, -1.0), (4.0, -1.0), (4.0, 0.0), (-2.0, 0.0)])], \
             spawn: (0.0, 0.0), bounds: Some((min: (-3.0, -9.0), max: (40.0, 10.0))), \
             camera_bounds: Some((min: (-3.0, -9.0), max: (40.0, 10.0))))",
        )
        .unwrap();
        let mut world = World::new(&level, &Tuning::default()).unwrap();
        let aspect = 16.0 / 9.0;
        let mut view = View::new(&world, CameraConfig::default(), aspect);
        assert_eq!(level_bottom(&world), -1.0);
        let right = Actions {
            move_axis: DVec2::X,
            ..Default::default()
        };
        let (mut died, mut lowest, mut lowest_hero) = (false, f64::MAX, f64::MAX);
        let c = CameraConfig::default();
        for _ in 0..600 {
            world.step(&right);
            view.after_tick(&world);
            let before = view.camera().focus();
            view.frame(&world, 1.0, 1.0 / 120.0, aspect);
            died |= world.play().is_dead();
            if world
                .play_events()
                .contains(&crate::sim::PlayEvent::Respawned)
            {
                assert!(died);
                assert_eq!(view.fade(&world), 1.0, "black on the respawn's tick");
                assert_ne!(view.hero().clip(), crate::anim::HeroClip::Death);
                // On the respawned hero at once, as a camera made there is, not on its way.
                let focus = view.camera().focus();
                let settled = View::new(&world, c.clone(), aspect).camera().focus();
                assert!(before != focus && focus == settled, "{before} -> {focus}");
                break;
            }
            if died {
                lowest = lowest.min(view.camera().focus().y);
                lowest_hero = lowest_hero.min(world.hero().body.pos.y);
            }
        }
        assert!(died && lowest_hero < -8.5, "{lowest_hero}");
        // The dead zone's half height and the focus height above the stopped target, at most.
        assert!(
            lowest >= -1.0 - c.dead_zone.y + c.focus_height - 1e-9,
            "{lowest}"
        );
        for _ in 0..RESPAWN_FADE_TICKS {
            world.step(&Actions::default());
            view.after_tick(&world);
        }
        assert_eq!(view.fade(&world), 0.0);
    }

    #[test]
    fn a_step_up_is_drawn_continuously_and_caught_up_within_a_few_ticks() {
        let mut s = StepSmoothing::default();
        s.tick(&[]);
        assert_eq!(s.offset(0.5), 0.0);
        // The tick that steps up 0.2 m: at its start the hero is drawn where it was (offset 0),
        // at its end 0.2 m lower than the simulation's feet, i.e. still at the old height.
        s.tick(&[MoveEvent::SteppedUp { height: 0.2 }]);
        assert_eq!(s.offset(0.0), 0.0);
        assert!((s.offset(1.0) + 0.2).abs() < 1e-15);
        let mut last = s.offset(1.0);
        for _ in 0..8 {
            s.tick(&[]);
            // Continuous across the tick boundary, and rising monotonically.
            assert_eq!(s.offset(0.0), last);
            assert!(s.offset(1.0) > last);
            last = s.offset(1.0);
        }
        assert!(last.abs() < 0.2 * 0.01, "{last}");
        for _ in 0..20 {
            s.tick(&[]);
        }
        assert_eq!(s.offset(1.0), 0.0);
    }

    #[test]
    fn steps_down_are_drawn_from_above_and_other_events_change_nothing() {
        let mut s = StepSmoothing::default();
        s.tick(&[MoveEvent::SteppedDown { height: 0.1 }, MoveEvent::Jumped]);
        assert!((s.offset(1.0) - 0.1).abs() < 1e-15);
        let mut t = StepSmoothing::default();
        t.tick(&[MoveEvent::Jumped, MoveEvent::Crouched]);
        assert_eq!(t, StepSmoothing::default());
    }

    /// The snapshot blends the hero between its last two ticks and the camera follows the drawn
    /// position: a view fed tick by tick agrees with the world it was fed.
    #[test]
    fn the_snapshot_follows_the_ticks_and_the_frame_blend() {
        let level = crate::level::parse_level(
            std::path::Path::new("levels/default.ron"),
            include_str!("../../levels/default.ron"),
        )
        .unwrap();
        let mut world = World::new(&level, &Tuning::default()).unwrap();
        let mut view = View::new(&world, CameraConfig::default(), 16.0 / 9.0);
        let start = view.snapshot().camera.focus();
        let right = Actions {
            move_axis: DVec2::X,
            ..Default::default()
        };
        for _ in 0..240 {
            world.step(&right);
            view.after_tick(&world);
        }
        view.frame(&world, 0.25, 2.0, 16.0 / 9.0);
        let s = view.snapshot();
        assert_eq!(s.alpha, 0.25);
        assert_eq!(s.time, 2.0);
        assert!(!s.overlay);
        let drawn = interpolated_hero(&world, 0.25);
        assert!(drawn.x > world.prev_pos().x - 1e-12 && drawn.x <= world.hero().body.pos.x);
        assert!(
            s.camera.focus().x > start.x,
            "the camera followed the hero to the right: {:?} -> {:?}",
            start,
            s.camera.focus()
        );
        view.set_overlay(true);
        assert!(view.snapshot().overlay);
        view.stepped();
        assert_eq!(view.snapshot().alpha, 1.0);
    }
}
