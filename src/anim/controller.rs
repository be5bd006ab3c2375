//! The hero's animation controller: movement state → clip choice, playback rates, transitions,
//! facing, and the pose drawn between two ticks.
//!
//! # What it owns
//! Which clip plays ([`HeroClip`]), chosen every tick from the hero's state, its ticks in that
//! state, its facing and velocity, and the [`MoveEvent`]s of that tick (every tick is fed, not
//! only the last of a frame, so a jump and its landing within one frame both play). It keeps the
//! poses of the last two ticks and blends them by the same `alpha` as the position, so the drawn
//! pose is interpolated exactly like the drawn feet. It reads the simulation's state; the
//! simulation never sees it, and it must never depend on the renderer or a GPU crate.
//!
//! # Choices
//! - **Run rate.** Walk and run share one gait phase (both put the left leg forward at a quarter
//!   cycle) and are blended by ground speed; the phase runs at the ground speed divided by the
//!   planted foot's speed in the clip at that phase, measured from the clips when the controller
//!   is built ([`GaitTable`]). So the feet do not skate: the foot-slide metric ([`foot_slide`]) is
//!   the planted foot's horizontal speed in the world; its mean magnitude stays under
//!   [`FOOT_SLIDE_FRACTION`] of the ground speed at every speed from a walk to the full run
//!   (`tests/it/anim_controller.rs`).
//! - **Transitions.** Every clip change starts a [`DeadBlend`] from the pose as drawn, so a
//!   transition can interrupt any other mid-fade; airborne changes (take-off, rise, fall,
//!   landing) blend in 50 to 100 ms, ground changes in 150 ms (the crouch ↔ stand blend).
//! - **Landing.** Its strength (the weight of the `land` clip over the standing pose, and how long
//!   it is held) grows linearly with the impact speed from [`LAND_SOFT_IMPACT`] to
//!   [`LAND_HARD_IMPACT`].
//! - **Feet on slopes.** While supported on a straight slope, the legs are bent by two-bone IK
//!   ([`super::foot_ik`]) so the feet stand on it; the planting fades in and out with the same
//!   time constant as the turn.
//! - **Facing.** A yaw about the vertical axis that turns through facing the camera (+z), with
//!   an exponential approach ([`TURN_TIME`]); on a ladder the hero turns its back to the camera,
//!   in a wall slide it faces the wall.
use std::collections::BTreeMap;
use std::sync::Arc;

use glam::{DVec2, Mat4, Quat, Vec3};

use super::character::{Character, LEG_JOINTS};
use super::dead_blend::DeadBlend;
use super::error::AnimError;
use super::foot_ik::{plant_feet, Ground, Leg};
use super::gait::sample_gait;
pub use super::gait::{foot_slide, GaitTable};
use super::hero_clips::{HeroClip, HeroClips};
use super::model::Model;
use super::transform::Transform;
use crate::movement::{Hero, MoveEvent, MoveState, Tuning};

/// Ground speed (m/s) below which the hero counts as standing still.
pub const MOVING_SPEED: f64 = 0.15;
/// Ground speed (m/s) up to which the gait is a pure walk.
pub const WALK_SPEED: f64 = 2.0;
/// Ground speed (m/s) from which the gait is a pure run.
pub const RUN_SPEED: f64 = 5.5;
/// Impact speed (m/s) under which a landing plays no landing clip (a step off a kerb).
pub const LAND_SOFT_IMPACT: f64 = 2.0;
/// Impact speed (m/s) of a full-strength landing: about a full jump's (3.2 m at 32 m/s²:
/// 14.3 m/s).
pub const LAND_HARD_IMPACT: f64 = 14.0;
/// Time constant of the facing turn, s: 95 % of a turn in three (0.15 s).
pub const TURN_TIME: f32 = 0.05;
/// Half-life of the dead blend's extrapolated velocity, s.
pub const BLEND_HALFLIFE: f32 = 0.05;
/// Bound on the foot-slide metric as a fraction of the ground speed: the planted foot's
/// horizontal world speed, averaged (as a magnitude) over two seconds of steady motion, at any
/// speed from a slow walk to the tuning's full run: 5 %, i.e. 0.4 m/s at the full 8 m/s run.
/// Scale: the swing foot passes at twice the body's speed, so 5 % is a twentieth of the ground
/// speed where an unmatched cycle skates by about the whole ground speed; the residual comes from
/// the change of feet, where the clips' planted foot nearly stops and the phase speed-up is capped
/// (`gait::MAX_PHASE_SPEEDUP`). Measured: 1–4 % (`tests/it/anim_controller.rs` prints the table). The
/// crouch walk is outside this bound: its keyed stride is too short for the crouch speed and its
/// cycle rate is capped (`gait::MAX_CYCLES_PER_SECOND`), so at 3.5 m/s its feet slide by about half
/// the speed; a longer crouch stride in the model would fix it.
pub const FOOT_SLIDE_FRACTION: f64 = 0.05;
/// Ticks after a `Blocked` event during which standing still against the wall plays `push`.
const PUSH_TICKS: u32 = 8;

/// How long (s) a clip over the upper body ([`HeroClip::upper_body`]) takes to fade in: about
/// six ticks, so an attack's wind-up starts from the arms' swing without a pop.
pub const UPPER_FADE_IN: f32 = 0.05;
/// The fraction of such a clip over which it fades out at its end, back to the legs' clip's
/// arms.
pub const UPPER_FADE_OUT: f32 = 0.35;

/// A cue from the rules of play, on the tick it happens: it starts a clip over the upper body
/// while the legs go on with their own clip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cue {
    /// The character swung its attack: `attack`.
    Attack,
    /// The character was hit and lives on: `hurt`.
    Hurt,
}

impl Cue {
    /// The clip it starts.
    pub fn clip(self) -> HeroClip {
        match self {
            Cue::Attack => HeroClip::Attack,
            Cue::Hurt => HeroClip::Hurt,
        }
    }
}

/// What the controller reads from the movement each tick: the hero's state reduced to the few
/// numbers animation needs (tests build it directly).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AnimInput {
    /// The movement state.
    pub state: MoveState,
    /// Ticks spent in the state (0 on the tick it was entered).
    pub ticks_in_state: u32,
    /// +1 facing right, −1 left.
    pub facing: f64,
    /// Velocity, m/s.
    pub vel: DVec2,
    /// Whether the crouching collider is in use.
    pub crouched: bool,
    /// The tuning's climbing speed, m/s (the climb clip's rate is 1 at this speed).
    pub climb_speed: f64,
    /// The straight ground under the hero while supported (the feet are planted on it), if
    /// known: [`AnimInput::from_hero`] leaves it out; the renderer's `view::animate`
    /// reads it from the collision mesh.
    pub ground: Option<Ground>,
    /// What the rules of play cued this tick (the view reads the world's play events).
    pub cue: Option<Cue>,
    /// Dead (the hero waiting to respawn, a defeated enemy): `death` plays, then holds its end.
    pub dead: bool,
    /// Charging (a brute): `charge` plays in place of the walk and the run, timed like the run.
    pub charging: bool,
}

impl AnimInput {
    /// The input for the hero as it is after a tick.
    pub fn from_hero(hero: &Hero, tuning: &Tuning) -> AnimInput {
        AnimInput {
            state: hero.state,
            ticks_in_state: hero.ticks_in_state,
            facing: hero.facing,
            vel: hero.vel,
            crouched: hero.crouching(),
            climb_speed: tuning.climb_speed,
            ground: None,
            cue: None,
            dead: false,
            charging: false,
        }
    }

    /// Speed along the ground (or in the plane, top-down), m/s.
    fn ground_speed(&self) -> f64 {
        match self.state {
            MoveState::Supported { speed, .. } | MoveState::Riding { speed, .. } => speed.abs(),
            _ => self.vel.length(),
        }
    }
}

/// How a character's gaits are timed when they are not measured from its feet: the ground speed
/// (m/s) at which the walk, the run and the crouch walk play at their keyed rate.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Locomotion {
    /// Walk, run, crouch walk: given (a character file's `speeds`, or its clips' root motion),
    /// else measured from the feet, else [`Locomotion::DEFAULT_SPEEDS`].
    pub speeds: [Option<f32>; 3],
}

impl Locomotion {
    /// The speeds used for a model without leg joints when none is given: a brisk walk, a run
    /// and a crouch walk, m/s.
    pub const DEFAULT_SPEEDS: [f32; 3] = [1.5, 4.5, 1.0];
    /// The roles whose speed may be given, in [`Locomotion::speeds`] order.
    pub const ROLES: [HeroClip; 3] = [HeroClip::Walk, HeroClip::Run, HeroClip::CrouchWalk];
}

/// Which joints a clip over the upper body moves (see `HeroAnimator::upper`): every joint but
/// the roots and, with `legs` known, each thigh and its descendants.
fn upper_body(skeleton: &super::skeleton::Skeleton, legs: Option<&[Leg; 2]>) -> Vec<bool> {
    let mut upper = vec![true; skeleton.len()];
    for &j in &skeleton.order {
        let j = usize::from(j);
        let thigh = legs.is_some_and(|l| l.iter().any(|leg| leg.thigh == j));
        upper[j] = match skeleton.parents[j] {
            None => false,
            Some(_) if thigh => false,
            Some(p) => upper[usize::from(p)] || skeleton.parents[usize::from(p)].is_none(),
        };
    }
    upper
}

/// Turns the movement into a pose every tick and draws it between ticks. Every buffer is sized
/// when built; ticking and drawing allocate nothing.
#[derive(Clone, Debug)]
pub struct HeroAnimator {
    /// Shared by the clones of an animator (a level's agents drawn with one character).
    model: Arc<Model>,
    clips: HeroClips,
    gait: GaitTable,
    current: HeroClip,
    /// Time in the current clip (s; for the gaits, unused: see `phase`).
    clip_time: f32,
    /// Gait phase in `[0, 1)`, shared by walk and run.
    phase: f64,
    /// Walk → run blend weight.
    run_weight: f64,
    land_strength: f64,
    ticks_since_blocked: u32,
    yaw_prev: f32,
    yaw_now: f32,
    pose_prev: Vec<Transform>,
    pose_now: Vec<Transform>,
    scratch: Vec<Transform>,
    drawn: Vec<Transform>,
    blend: DeadBlend,
    /// The leg joints foot planting bends (`None`: the model has none named so, no planting).
    legs: Option<[Leg; 2]>,
    /// The joints a clip over the upper body moves: all but the skeleton's roots and the legs
    /// (each thigh and every joint under it).
    upper: Vec<bool>,
    /// The clip playing over the upper body and its time (s), if any.
    layer: Option<(HeroClip, f32)>,
    /// Foot planting: weight, slope (model frame) and drop of the ground at the feet, each
    /// approaching its target with [`TURN_TIME`] so a new slope never pops the legs.
    plant: [f32; 3],
    world: Vec<Mat4>,
    ticks: u64,
}

impl HeroAnimator {
    /// A controller for `model`, standing idle facing right. Fails naming the first clip the
    /// controller needs that the model lacks.
    pub fn new(model: Model) -> Result<HeroAnimator, AnimError> {
        let clips = HeroClips::find(&model)?;
        HeroAnimator::with_clips(model, clips, &BTreeMap::new(), &Locomotion::default())
    }

    /// A controller for a character ([`super::character`]): its model, its clip for every role,
    /// its leg joints' names and its locomotion speeds.
    pub fn for_character(c: &Character) -> Result<HeroAnimator, AnimError> {
        HeroAnimator::with_clips(c.model.clone(), c.clips, &c.joints, &c.locomotion)
    }

    /// A controller playing `clips` of `model`; `joints` maps the controller's leg joint names
    /// (`thigh.L`, `shin.L`, `foot.L`, and `.R`) to the model's where they differ.
    ///
    /// With all six leg joints the feet are planted on slopes and the gaits are timed by the
    /// planted foot (measured from the clips), unless `locomotion` gives a clip's speed. A model
    /// without them (and no `joints` naming any) is animated without foot planting, each gait
    /// timed by its speed in `locomotion` (or [`Locomotion::DEFAULT_SPEEDS`]). A `joints` entry
    /// naming a joint the model lacks is an error.
    pub fn with_clips(
        model: Model,
        clips: HeroClips,
        joints: &BTreeMap<String, String>,
        locomotion: &Locomotion,
    ) -> Result<HeroAnimator, AnimError> {
        let find = |name: &'static str| {
            let in_model = joints.get(name).map_or(name, String::as_str);
            model.skeleton.joint(in_model).ok_or(in_model)
        };
        let names = LEG_JOINTS;
        let found: Vec<Result<usize, &str>> = names.iter().map(|&n| find(n)).collect();
        let legs = match found.iter().position(Result::is_err) {
            None => {
                let j = |k: usize| found[k].unwrap_or(0);
                Some([
                    Leg {
                        thigh: j(0),
                        shin: j(1),
                        foot: j(2),
                    },
                    Leg {
                        thigh: j(3),
                        shin: j(4),
                        foot: j(5),
                    },
                ])
            }
            Some(_) if joints.is_empty() => None,
            Some(k) => {
                let in_model = found[k].err().unwrap_or("");
                return Err(AnimError::MissingSkin(format!(
                    "the skeleton has no `{in_model}` joint (the character's `{}`)",
                    names[k]
                )));
            }
        };
        let feet = legs.map(|l| [l[0].foot, l[1].foot]);
        let (walk, run) = (clips.get(HeroClip::Walk), clips.get(HeroClip::Run));
        let crouch = clips.get(HeroClip::CrouchWalk);
        let gait = match feet {
            Some(feet) if locomotion.speeds == [None; 3] => {
                GaitTable::measured(&model, [walk, run, crouch], feet)
            }
            _ => {
                let speed =
                    |k: usize| locomotion.speeds[k].unwrap_or(Locomotion::DEFAULT_SPEEDS[k]);
                GaitTable::even(&model, [walk, run, crouch], std::array::from_fn(speed))
            }
        };
        let n = model.skeleton.len();
        let rest = model.skeleton.rest.clone();
        let upper = upper_body(&model.skeleton, legs.as_ref());
        let mut a = HeroAnimator {
            clips,
            gait,
            current: HeroClip::Idle,
            clip_time: 0.0,
            phase: 0.0,
            run_weight: 0.0,
            land_strength: 0.0,
            ticks_since_blocked: u32::MAX,
            yaw_prev: 0.0,
            yaw_now: 0.0,
            pose_prev: rest.clone(),
            pose_now: rest.clone(),
            scratch: rest.clone(),
            drawn: rest,
            blend: DeadBlend::new(n, BLEND_HALFLIFE),
            legs,
            upper,
            layer: None,
            plant: [0.0; 3],
            world: vec![Mat4::IDENTITY; n],
            ticks: 0,
            model: Arc::new(model),
        };
        a.sample_current();
        a.pose_prev.copy_from_slice(&a.pose_now);
        Ok(a)
    }

    /// A controller for the embedded hero model ([`super::builtin_hero`]).
    ///
    /// # Panics
    /// Never in practice: the embedded model has every clip (tested).
    pub fn builtin() -> HeroAnimator {
        HeroAnimator::new(super::builtin_hero().clone())
            .expect("the embedded hero model has every clip the controller needs (tested)")
    }

    /// The model drawn.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// The clip playing (for a gait: the walk or the run, whichever weighs more).
    pub fn clip(&self) -> HeroClip {
        match self.current {
            HeroClip::Walk | HeroClip::Run if self.run_weight >= 0.5 => HeroClip::Run,
            HeroClip::Walk | HeroClip::Run => HeroClip::Walk,
            c => c,
        }
    }

    /// The strength of the landing playing (0 when none), in `[0, 1]`.
    pub fn land_strength(&self) -> f64 {
        self.land_strength
    }

    /// Holds the pose of the model's clip `clip` at `time` s (clamped to the clip), facing right,
    /// as the last two ticks' pose: for stills of one clip (`tessera model --sheet`), not play.
    pub fn show_clip(&mut self, clip: usize, time: f32) {
        let Some(c) = self.model.clips.get(clip) else {
            return;
        };
        self.pose_now.copy_from_slice(&self.model.skeleton.rest);
        c.sample_into(time.clamp(0.0, c.duration), &mut self.pose_now);
        self.pose_prev.copy_from_slice(&self.pose_now);
        self.drawn.copy_from_slice(&self.pose_now);
        self.yaw_prev = self.yaw_now;
    }

    /// Whether the feet are planted on slopes (the model has the six leg joints).
    pub fn plants_feet(&self) -> bool {
        self.legs.is_some()
    }

    /// The gaits' planted-foot speeds: measured from the clips, or even from given speeds.
    pub fn gait(&self) -> &GaitTable {
        &self.gait
    }

    /// The walk → run blend weight.
    pub fn run_weight(&self) -> f64 {
        self.run_weight
    }

    /// Whether a transition is still fading in.
    pub fn blending(&self) -> bool {
        self.blend.active()
    }

    /// Advances one tick of `dt` s: the hero as it is after the tick and that tick's events.
    pub fn tick(&mut self, input: &AnimInput, events: &[MoveEvent], dt: f64) {
        self.ticks += 1;
        let dtf = dt as f32;
        self.ticks_since_blocked = self.ticks_since_blocked.saturating_add(1);
        let mut jumped = false;
        let mut landed = None;
        for e in events {
            match *e {
                MoveEvent::Jumped | MoveEvent::AirJumped | MoveEvent::WallJumped => jumped = true,
                MoveEvent::Landed { impact_speed, .. } => landed = Some(impact_speed),
                MoveEvent::Blocked { normal } if normal[1].abs() < 0.5 => {
                    self.ticks_since_blocked = 0
                }
                _ => {}
            }
        }
        let speed = input.ground_speed();
        let next = if input.dead {
            HeroClip::Death
        } else {
            self.choose(input, speed, jumped, landed)
        };
        let restart = !input.dead && (jumped || landed.is_some());
        let group = |c: HeroClip| match c {
            HeroClip::Walk | HeroClip::Run => HeroClip::Run,
            c => c,
        };
        if input.dead {
            self.layer = None;
        } else if let Some(cue) = input.cue {
            self.layer = Some((cue.clip(), 0.0));
        }
        if group(next) != group(self.current) || (restart && next == self.current) {
            self.blend
                .start(&self.pose_now, &self.pose_prev, dtf, Self::blend_time(next));
            let gait = |c: HeroClip| {
                matches!(
                    c,
                    HeroClip::Walk | HeroClip::Run | HeroClip::CrouchWalk | HeroClip::Charge
                )
            };
            if gait(next) && !gait(self.current) {
                // Gaits start with the left leg passing under the body; a gait → gait change
                // (run ↔ crouch walk) keeps its phase.
                self.phase = 0.0;
            }
            self.clip_time = 0.0;
            self.current = next;
        }
        // Advance the clock of the clip playing.
        match self.current {
            HeroClip::Walk | HeroClip::Run => {
                self.run_weight = ((speed - WALK_SPEED) / (RUN_SPEED - WALK_SPEED)).clamp(0.0, 1.0);
                self.phase = self
                    .gait
                    .advance(false, self.run_weight, self.phase, speed, dt);
            }
            HeroClip::CrouchWalk => {
                self.phase = self.gait.advance(true, 0.0, self.phase, speed, dt);
            }
            HeroClip::Charge => {
                self.phase = self.gait.advance(false, 1.0, self.phase, speed, dt);
            }
            HeroClip::Climb => {
                let rate = input.vel.y.abs() / input.climb_speed.max(1e-3);
                self.clip_time += dtf * rate as f32;
            }
            _ => self.clip_time += dtf,
        }
        std::mem::swap(&mut self.pose_prev, &mut self.pose_now);
        self.sample_current();
        self.blend.advance(dtf);
        self.blend.apply(&mut self.pose_now);
        self.apply_layer(dtf);
        self.plant_feet(input, dtf);
        self.turn(input, dtf);
    }

    /// The clip for this tick.
    fn choose(
        &mut self,
        input: &AnimInput,
        speed: f64,
        jumped: bool,
        landed: Option<f64>,
    ) -> HeroClip {
        if jumped {
            return HeroClip::JumpTakeoff;
        }
        match input.state {
            MoveState::Climbing { .. } => HeroClip::Climb,
            MoveState::WallSlide { .. } => HeroClip::WallSlide,
            MoveState::Airborne => {
                let takeoff = self.clips.get(HeroClip::JumpTakeoff);
                if self.current == HeroClip::JumpTakeoff
                    && self.clip_time < self.model.clips[takeoff].duration
                {
                    HeroClip::JumpTakeoff
                } else if input.vel.y > 0.0 {
                    HeroClip::Rise
                } else {
                    HeroClip::Fall
                }
            }
            MoveState::Supported { .. } | MoveState::Riding { .. } | MoveState::TopDown => {
                if let Some(impact) = landed {
                    self.land_strength = ((impact - LAND_SOFT_IMPACT)
                        / (LAND_HARD_IMPACT - LAND_SOFT_IMPACT))
                        .clamp(0.0, 1.0);
                    if self.land_strength > 0.0 {
                        return HeroClip::Land;
                    }
                }
                if self.current == HeroClip::Land {
                    let land = &self.model.clips[self.clips.get(HeroClip::Land)];
                    // Held for 40 % to 100 % of the clip by strength; cut to 0.1 s into a run.
                    let mut hold = land.duration * (0.4 + 0.6 * self.land_strength as f32);
                    if speed > WALK_SPEED {
                        hold = hold.min(0.1);
                    }
                    if self.clip_time < hold {
                        return HeroClip::Land;
                    }
                }
                self.land_strength = 0.0;
                let moving = speed > MOVING_SPEED;
                if input.charging && moving && !input.crouched {
                    return HeroClip::Charge;
                }
                match (input.crouched, moving) {
                    (true, true) => HeroClip::CrouchWalk,
                    (true, false) => HeroClip::CrouchIdle,
                    (false, true) if speed < RUN_SPEED => HeroClip::Walk,
                    (false, true) => HeroClip::Run,
                    (false, false) if self.ticks_since_blocked < PUSH_TICKS => HeroClip::Push,
                    (false, false) => HeroClip::Idle,
                }
            }
        }
    }

    /// Fade-in time of a transition into `clip`, s.
    fn blend_time(clip: HeroClip) -> f32 {
        match clip {
            HeroClip::JumpTakeoff | HeroClip::Land => 0.05,
            HeroClip::Rise | HeroClip::Fall | HeroClip::WallSlide | HeroClip::Death => 0.1,
            _ => 0.15,
        }
    }

    /// Samples the current clip at its clock into `pose_now` (before the dead blend).
    fn sample_current(&mut self) {
        let get = |c| self.clips.get(c);
        match self.current {
            HeroClip::Walk | HeroClip::Run => sample_gait(
                &self.model,
                get(HeroClip::Walk),
                get(HeroClip::Run),
                self.run_weight as f32,
                self.phase as f32,
                &mut self.pose_now,
                &mut self.scratch,
            ),
            HeroClip::CrouchWalk | HeroClip::Charge => {
                let c = get(self.current);
                sample_gait(
                    &self.model,
                    c,
                    c,
                    0.0,
                    self.phase as f32,
                    &mut self.pose_now,
                    &mut self.scratch,
                );
            }
            HeroClip::Land => {
                // The landing over the standing pose, weighted by its strength.
                let (idle, land) = (get(HeroClip::Idle), get(HeroClip::Land));
                self.pose_now.copy_from_slice(&self.model.skeleton.rest);
                self.model.clips[idle].sample_into(0.0, &mut self.pose_now);
                self.scratch.copy_from_slice(&self.model.skeleton.rest);
                self.model.clips[land].sample_into(self.clip_time, &mut self.scratch);
                let w = self.land_strength as f32;
                for (o, s) in self.pose_now.iter_mut().zip(self.scratch.iter()) {
                    *o = o.blend(s, w);
                }
            }
            c => {
                let clip = &self.model.clips[get(c)];
                let t = if c.looping() {
                    clip.wrap(self.clip_time)
                } else {
                    self.clip_time.min(clip.duration)
                };
                self.pose_now.copy_from_slice(&self.model.skeleton.rest);
                clip.sample_into(t, &mut self.pose_now);
            }
        }
    }

    /// Blends the clip playing over the upper body ([`HeroClip::upper_body`]) into `pose_now`'s
    /// upper joints, fading in over [`UPPER_FADE_IN`] and out over the last [`UPPER_FADE_OUT`] of
    /// the clip, and advances its time; it ends at the clip's end.
    fn apply_layer(&mut self, dt: f32) {
        let Some((role, t)) = self.layer else {
            return;
        };
        let clip = &self.model.clips[self.clips.get(role)];
        if t >= clip.duration {
            self.layer = None;
            return;
        }
        let fade_out = (UPPER_FADE_OUT * clip.duration).max(1e-3);
        let w = (t / UPPER_FADE_IN)
            .min((clip.duration - t) / fade_out)
            .clamp(0.0, 1.0);
        self.scratch.copy_from_slice(&self.model.skeleton.rest);
        clip.sample_into(t, &mut self.scratch);
        for ((o, s), upper) in self
            .pose_now
            .iter_mut()
            .zip(self.scratch.iter())
            .zip(&self.upper)
        {
            if *upper {
                *o = o.blend(s, w);
            }
        }
        self.layer = Some((role, t + dt));
    }

    /// The clip playing over the upper body, if any.
    pub fn layer(&self) -> Option<HeroClip> {
        self.layer.map(|(c, _)| c)
    }

    /// Plants the feet on the ground under the hero while supported ([`super::foot_ik`]).
    fn plant_feet(&mut self, input: &AnimInput, dt: f32) {
        let target = match (input.state, input.ground) {
            (MoveState::Supported { .. }, Some(g)) if !input.dead => [
                1.0,
                (g.slope * input.facing.signum()) as f32,
                (g.half_width * g.slope.abs()) as f32,
            ],
            _ => [0.0, self.plant[1], self.plant[2]],
        };
        let k = 1.0 - (-dt / TURN_TIME).exp();
        for (p, t) in self.plant.iter_mut().zip(target) {
            *p += (t - *p) * k;
        }
        let [weight, slope, drop] = self.plant;
        if let Some(legs) = self.legs {
            plant_feet(
                &self.model.skeleton,
                &mut self.pose_now,
                legs,
                slope,
                drop,
                weight,
                &mut self.world,
            );
        }
    }

    /// Turns towards the facing the state asks for.
    fn turn(&mut self, input: &AnimInput, dt: f32) {
        use std::f32::consts::{FRAC_PI_2, PI, TAU};
        let facing = match input.state {
            MoveState::WallSlide { normal_x } => -normal_x,
            _ => input.facing,
        };
        // Yaw 0 faces +x, −π faces −x; both turns pass −π/2, facing the camera (+z).
        let mut target = if facing < 0.0 { -PI } else { 0.0 };
        if matches!(input.state, MoveState::Climbing { .. }) {
            // Back to the camera: +π/2 or its equivalent −3π/2, whichever is nearer.
            target = if self.yaw_now < -PI / 2.0 {
                FRAC_PI_2 - TAU
            } else {
                FRAC_PI_2
            };
        } else if self.yaw_now > 0.0 && target < -FRAC_PI_2 {
            // Coming off a ladder at +π/2 towards the left: turn the short way round.
            target = PI;
        } else if self.yaw_now < -PI && target == 0.0 {
            target = -TAU;
        }
        self.yaw_prev = self.yaw_now;
        let k = 1.0 - (-dt / TURN_TIME).exp();
        self.yaw_now += (target - self.yaw_now) * k;
        if (target - self.yaw_now).abs() < 1e-4 {
            self.yaw_now = target;
        }
        // Keep the angle in (−2π, 2π] at rest so the rules above stay valid.
        if self.yaw_now == self.yaw_prev && self.yaw_now.abs() > PI + 1e-3 {
            let wrapped = self.yaw_now.rem_euclid(TAU);
            let wrapped = if wrapped > PI { wrapped - TAU } else { wrapped };
            self.yaw_now = wrapped;
            self.yaw_prev = wrapped;
        }
    }

    /// The facing yaw (radians about +y) drawn at blend `alpha` between the last two ticks.
    pub fn yaw(&self, alpha: f64) -> f32 {
        let a = alpha.clamp(0.0, 1.0) as f32;
        self.yaw_prev + (self.yaw_now - self.yaw_prev) * a
    }

    /// The model → world transform for feet drawn at `feet` (m) and blend `alpha`.
    pub fn root(&self, feet: DVec2, alpha: f64) -> Mat4 {
        Mat4::from_rotation_translation(
            Quat::from_rotation_y(self.yaw(alpha)),
            Vec3::new(feet.x as f32, feet.y as f32, 0.0),
        )
    }

    /// The local pose drawn at blend `alpha` between the last two ticks (like the position).
    pub fn pose(&mut self, alpha: f64) -> &[Transform] {
        let a = alpha.clamp(0.0, 1.0) as f32;
        for ((d, p), n) in self
            .drawn
            .iter_mut()
            .zip(&self.pose_prev)
            .zip(&self.pose_now)
        {
            *d = p.blend(n, a);
        }
        &self.drawn
    }

    /// The skinning palette for feet drawn at `feet` and blend `alpha`, written into `out`
    /// (one matrix per joint; no allocation).
    pub fn palette(&mut self, feet: DVec2, alpha: f64, out: &mut [glam::Mat4]) {
        let root = self.root(feet, alpha);
        self.pose(alpha);
        self.model.skeleton.palette(root, &self.drawn, out);
    }

    /// The pose drawn at blend `alpha` written into `pose` (one transform per joint), and the
    /// skinning palette for feet drawn at `feet` into `out`: the renderer's per-frame call, with
    /// buffers it owns (no allocation).
    pub fn palette_into(
        &self,
        feet: DVec2,
        alpha: f64,
        pose: &mut [Transform],
        out: &mut [glam::Mat4],
    ) {
        let a = alpha.clamp(0.0, 1.0) as f32;
        for ((d, p), n) in pose.iter_mut().zip(&self.pose_prev).zip(&self.pose_now) {
            *d = p.blend(n, a);
        }
        self.model
            .skeleton
            .palette(self.root(feet, alpha), pose, out);
    }

    /// World positions of every joint at feet `feet` and blend `alpha` (tests, measurements;
    /// allocates).
    pub fn joint_positions(&mut self, feet: DVec2, alpha: f64) -> Vec<Vec3> {
        let root = self.root(feet, alpha);
        self.pose(alpha);
        self.model.skeleton.joint_positions(root, &self.drawn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anim::HERO_GLB;

    fn input(state: MoveState, facing: f64, vel: DVec2) -> AnimInput {
        AnimInput {
            state,
            ticks_in_state: 0,
            facing,
            vel,
            crouched: false,
            climb_speed: 4.0,
            ground: None,
            cue: None,
            dead: false,
            charging: false,
        }
    }

    fn animator() -> HeroAnimator {
        HeroAnimator::new(Model::from_glb(HERO_GLB).unwrap()).unwrap()
    }

    #[test]
    fn turning_left_passes_the_camera_and_settles_within_a_quarter_second() {
        use std::f32::consts::{FRAC_PI_2, PI};
        let mut a = animator();
        let left = input(MoveState::TopDown, -1.0, DVec2::ZERO);
        let mut yaws = vec![a.yaw(1.0)];
        for _ in 0..30 {
            a.tick(&left, &[], 1.0 / 120.0);
            yaws.push(a.yaw(1.0));
        }
        // Monotonic from 0 to −π, through −π/2 (facing the camera, +z).
        assert!(yaws.windows(2).all(|w| w[1] <= w[0]));
        assert!(yaws.iter().any(|&y| (y + FRAC_PI_2).abs() < 0.3));
        // After 30 ticks (5 time constants) less than 1 % of the half turn is left.
        assert!((yaws[30] + PI).abs() < 0.01 * PI, "{}", yaws[30]);
        // Drawn between ticks like the position: alpha blends the last two yaws.
        let mid = a.yaw(0.5);
        assert!(mid <= a.yaw(0.0) && mid >= a.yaw(1.0));
    }

    /// Two animators running side by side (TopDown keeps the gait going without ground), the
    /// second cued to attack on the 30th tick: the legs and hips stay identical, the arms differ
    /// while the swing plays, and after it both animators pose the same again.
    #[test]
    fn the_attack_plays_over_the_upper_body_and_the_legs_keep_their_gait() {
        let (mut plain, mut swinging) = (animator(), animator());
        let run = input(MoveState::TopDown, 1.0, DVec2::new(6.0, 0.0));
        let upper = plain.upper.clone();
        let names = &plain.model().skeleton.names;
        let arm = names.iter().position(|n| n == "upper_arm.R").unwrap();
        assert!(upper[arm] && upper[names.iter().position(|n| n == "head").unwrap()]);
        for leg in ["hips", "thigh.L", "shin.L", "foot.R", "toe.R"] {
            assert!(
                !upper[names.iter().position(|n| n == leg).unwrap()],
                "{leg}"
            );
        }
        let mut differed = 0;
        for tick in 0..120 {
            let mut cued = run;
            cued.cue = (tick == 30).then_some(Cue::Attack);
            plain.tick(&run, &[], 1.0 / 120.0);
            swinging.tick(&cued, &[], 1.0 / 120.0);
            let (a, b) = (plain.pose(1.0).to_vec(), swinging.pose(1.0).to_vec());
            for j in (0..a.len()).filter(|&j| !upper[j]) {
                assert_eq!(a[j], b[j], "joint {j} at tick {tick}");
            }
            if a[arm].r.dot(b[arm].r).abs() < 0.99 {
                differed += 1;
            }
            assert_eq!(
                swinging.layer().is_some(),
                (30..=70).contains(&tick),
                "{tick}"
            );
            if tick > 70 {
                assert_eq!(a, b, "tick {tick}");
            }
        }
        // The punch reads: the arm is well away from the run's swing for most of the 0.34 s.
        assert!(differed > 20, "{differed}");
    }

    #[test]
    fn dead_plays_the_death_clip_held_at_its_end_and_a_respawn_stands_up() {
        let mut a = animator();
        let mut dead = input(MoveState::Airborne, 1.0, DVec2::ZERO);
        dead.dead = true;
        dead.cue = Some(Cue::Hurt);
        for _ in 0..120 {
            a.tick(&dead, &[], 1.0 / 120.0);
        }
        assert_eq!(a.clip(), HeroClip::Death);
        assert_eq!(a.layer(), None, "no clip over a dead body");
        let hips = a.pose(1.0)[0];
        assert!(hips.t.y < 0.3, "lying: hips at {}", hips.t.y);
        a.tick(&dead, &[], 1.0 / 120.0);
        assert_eq!(a.pose(1.0)[0], hips, "held");
        let alive = input(MoveState::TopDown, 1.0, DVec2::ZERO);
        for _ in 0..60 {
            a.tick(&alive, &[], 1.0 / 120.0);
        }
        assert_eq!(a.clip(), HeroClip::Idle);
        assert!(a.pose(1.0)[0].t.y > 0.9);
    }

    #[test]
    fn a_charge_plays_the_charge_clip_on_the_runs_phase() {
        let (mut run, mut charge) = (animator(), animator());
        let running = input(MoveState::TopDown, 1.0, DVec2::new(8.0, 0.0));
        let mut charging = running;
        charging.charging = true;
        for _ in 0..50 {
            run.tick(&running, &[], 1.0 / 120.0);
            charge.tick(&charging, &[], 1.0 / 120.0);
        }
        assert_eq!(run.clip(), HeroClip::Run);
        assert_eq!(charge.clip(), HeroClip::Charge);
        assert_eq!(run.phase, charge.phase, "timed like the run");
        // The same legs, the head lower.
        let names = &run.model().skeleton.names;
        let shin = names.iter().position(|n| n == "shin.L").unwrap();
        assert!(run.pose(1.0)[shin].r.dot(charge.pose(1.0)[shin].r).abs() > 0.9999);
        let head = |a: &mut HeroAnimator| a.joint_positions(DVec2::ZERO, 1.0)[4];
        let (low, high) = (head(&mut charge), head(&mut run));
        assert!(
            low.y < high.y - 0.05 && low.x > high.x + 0.1,
            "{low} {high}"
        );
    }

    #[test]
    fn on_a_ladder_the_hero_turns_its_back_and_climbs_at_the_climbing_speed_rate() {
        let mut a = animator();
        let climb = input(MoveState::Climbing { ladder: 0 }, 1.0, DVec2::new(0.0, 4.0));
        for _ in 0..60 {
            a.tick(&climb, &[MoveEvent::GrabbedLadder], 1.0 / 120.0);
        }
        assert_eq!(a.clip(), HeroClip::Climb);
        assert!((a.yaw(1.0) - std::f32::consts::FRAC_PI_2).abs() < 0.01);
        // Back to the camera: the model's +x (its front) points into the screen (−z).
        let front = a.root(DVec2::ZERO, 1.0).transform_vector3(Vec3::X);
        assert!(front.z < -0.99, "{front}");
        // Holding still on the ladder freezes the climb cycle.
        let still = input(MoveState::Climbing { ladder: 0 }, 1.0, DVec2::ZERO);
        a.tick(&still, &[], 1.0 / 120.0);
        let before = a.pose(1.0).to_vec();
        a.tick(&still, &[], 1.0 / 120.0);
        assert_eq!(before, a.pose(1.0).to_vec());
    }

    #[test]
    fn the_drawn_pose_blends_the_last_two_ticks_like_the_position() {
        let mut a = animator();
        let run = input(MoveState::TopDown, 1.0, DVec2::new(6.0, 0.0));
        for _ in 0..30 {
            a.tick(&run, &[], 1.0 / 120.0);
        }
        let before = a.pose(1.0).to_vec();
        a.tick(&run, &[], 1.0 / 120.0);
        let after = a.pose(1.0).to_vec();
        // Alpha 0 is the previous tick's pose, alpha 1 this tick's, between them a blend.
        assert_eq!(a.pose(0.0).to_vec(), before);
        let mid = a.pose(0.5).to_vec();
        for j in 0..mid.len() {
            let expected = before[j].blend(&after[j], 0.5);
            assert!(mid[j].t.abs_diff_eq(expected.t, 1e-6));
            assert!(mid[j].r.abs_diff_eq(expected.r, 1e-6));
        }
        // The renderer's buffer-filling call draws the same pose.
        let joints = a.model().skeleton.len();
        let (mut pose, mut out) = (vec![Transform::IDENTITY; joints], vec![Mat4::ZERO; joints]);
        a.palette_into(DVec2::new(1.0, 2.0), 0.5, &mut pose, &mut out);
        assert_eq!(pose, mid);
    }

    #[test]
    fn a_missing_clip_is_named() {
        let mut m = Model::from_glb(HERO_GLB).unwrap();
        let i = m.clip("wall_slide").unwrap();
        m.clips[i].name = "slide".into();
        let e = HeroAnimator::new(m).unwrap_err();
        assert_eq!(
            e.to_string(),
            "missing clip `wall_slide` (the hero's animation controller needs it)"
        );
    }
}
