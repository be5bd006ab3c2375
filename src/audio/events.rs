//! Movement events to cues: which sound each event plays, how loud, where.
//!
//! | event | sound |
//! |---|---|
//! | `Footstep { surface }` | the footstep set of the surface's material, at its volume |
//! | `Landed { impact_speed, surface }` | a thump (louder with the impact speed; ducks the music when hard) and a footstep on the surface |
//! | `Jumped`, `AirJumped`, `WallJumped` | the jump (air jumps a little higher, wall jumps a little lower) |
//! | `Bonked` | the bonk (ducks the music) |
//! | `LadderRung`, `GrabbedLadder`, `LeftLadder` | a rung blip (grab and leave softer) |
//! | `WallSlideStarted` / `WallSlideStopped` | the wall-slide loop starts / fades out |
//! | `LeftGround`, `Crouched`, `StoodUp`, `DroppedThrough`, `Blocked`, `SteppedUp`, `SteppedDown` | nothing (the footsteps already carry walking over steps) |
//!
//! The rules of play's events (`sim::PlayEvent`, [`play_cues`]):
//!
//! | event | sound |
//! |---|---|
//! | `Hurt` | the hurt tone (ducks the music) |
//! | `Died` | the hurt tone, lower and louder (ducks the music) |
//! | `Attacked` | the swing |
//! | `EnemyHit`, `Stomped` | the thwack / the boing (a defeat a little lower) |
//! | `Checkpoint` | two rising notes |
//! | `GoalReached` | the rising arpeggio (ducks the music) |
//! | `Respawned` | nothing |
//!
//! The world's events (`sim::WorldEvent`, [`world_cues`]), placed where they happen
//! (`World::event_position`):
//!
//! | event | sound |
//! |---|---|
//! | `DoorOpened` / `DoorClosed` | the door's rumble / the same, lower |
//! | `Crushed` | the crunch (the hero's ducks the music) |
use glam::DVec2;

use super::mixer::{Cue, CueKind};
use super::sounds::Sound;
use crate::collision::PolygonId;
use crate::level::{FootstepSound, Level, Materials};
use crate::movement::MoveEvent;
use crate::sim::{PlayEvent, WorldEvent};

/// Horizontal distance from the listener at which a sound is fully to one side, m (about half
/// the width of the view at the default zoom).
pub const PAN_WIDTH: f64 = 12.0;
/// Distance from the listener within which a sound is at full level, m.
pub const FULL_LEVEL_DISTANCE: f64 = 4.0;
/// Beyond [`FULL_LEVEL_DISTANCE`], the level halves every this many metres further (inverse
/// distance: `1 / (1 + extra / ROLLOFF_DISTANCE)`).
pub const ROLLOFF_DISTANCE: f64 = 10.0;
/// Landing speed (m/s) at which the thump is at full level; softer landings scale down to a
/// quarter. 20 m/s is a fall of about 6 m under the default gravity.
pub const FULL_LANDING_SPEED: f64 = 20.0;
/// Landing speed (m/s) from which the music ducks under the thump.
pub const DUCKING_LANDING_SPEED: f64 = 14.0;

/// Per polygon of the level: its footstep set and volume (from the material table), so no name is
/// looked up on the frame path.
#[derive(Clone, Debug, PartialEq)]
pub struct SoundMap {
    surfaces: Vec<(FootstepSound, f32)>,
    default: (FootstepSound, f32),
    /// The level's music track, 0-based (`Level::music_track`).
    pub music: usize,
}

impl SoundMap {
    /// The map of `level`'s polygons through `materials`.
    pub fn new(materials: &Materials, level: &Level) -> SoundMap {
        let surfaces = level
            .polygons
            .iter()
            .map(|p| {
                let m = materials.get(p.material.as_deref(), p.kind);
                (m.footstep, m.volume)
            })
            .collect();
        let d = &materials.default_solid;
        SoundMap {
            surfaces,
            default: (d.footstep, d.volume),
            music: level.music_track(),
        }
    }

    /// The footstep set and volume of a surface (the solid default for none or an unknown id).
    pub fn surface(&self, s: Option<PolygonId>) -> (FootstepSound, f32) {
        s.and_then(|id| self.surfaces.get(id.0 as usize))
            .copied()
            .unwrap_or(self.default)
    }
}

/// Stereo position and distance gain of a sound at `source` heard from `listener`.
pub fn place(source: DVec2, listener: DVec2) -> (f32, f32) {
    let d = source - listener;
    let pan = (d.x / PAN_WIDTH).clamp(-1.0, 1.0) as f32;
    let extra = (d.length() - FULL_LEVEL_DISTANCE).max(0.0);
    (pan, (1.0 / (1.0 + extra / ROLLOFF_DISTANCE)) as f32)
}

fn one_shot(sound: Sound, gain: f32, pitch: f32) -> Cue {
    Cue {
        sound,
        kind: CueKind::OneShot,
        gain,
        pitch,
        pan: 0.0,
        duck: false,
    }
}

/// The cues of one event at `source` heard from `listener`, appended to `out`.
pub fn cues(map: &SoundMap, e: &MoveEvent, source: DVec2, listener: DVec2, out: &mut Vec<Cue>) {
    let first = out.len();
    match *e {
        MoveEvent::Footstep { surface } => {
            let (set, vol) = map.surface(surface);
            out.push(one_shot(Sound::Footstep(set), vol, 1.0));
        }
        MoveEvent::Landed {
            impact_speed,
            surface,
        } => {
            let k = (impact_speed / FULL_LANDING_SPEED).clamp(0.25, 1.0) as f32;
            out.push(Cue {
                duck: impact_speed >= DUCKING_LANDING_SPEED,
                ..one_shot(Sound::Land, k, 1.0)
            });
            let (set, vol) = map.surface(surface);
            out.push(one_shot(Sound::Footstep(set), 0.8 * vol, 0.95));
        }
        MoveEvent::Jumped => out.push(one_shot(Sound::Jump, 0.8, 1.0)),
        MoveEvent::AirJumped => out.push(one_shot(Sound::Jump, 0.7, 1.15)),
        MoveEvent::WallJumped => out.push(one_shot(Sound::Jump, 0.8, 0.92)),
        MoveEvent::Bonked => out.push(Cue {
            duck: true,
            ..one_shot(Sound::Bonk, 0.9, 1.0)
        }),
        MoveEvent::LadderRung => out.push(one_shot(Sound::Rung, 1.0, 1.0)),
        MoveEvent::GrabbedLadder | MoveEvent::LeftLadder => {
            out.push(one_shot(Sound::Rung, 0.7, 0.85))
        }
        MoveEvent::WallSlideStarted => out.push(Cue {
            kind: CueKind::StartLoop,
            ..one_shot(Sound::WallSlide, 0.8, 1.0)
        }),
        MoveEvent::WallSlideStopped => out.push(Cue {
            kind: CueKind::StopLoop,
            ..one_shot(Sound::WallSlide, 0.0, 1.0)
        }),
        MoveEvent::LeftGround
        | MoveEvent::Boarded { .. }
        | MoveEvent::Crouched
        | MoveEvent::StoodUp
        | MoveEvent::DroppedThrough
        | MoveEvent::Blocked { .. }
        | MoveEvent::SteppedUp { .. }
        | MoveEvent::SteppedDown { .. } => {}
    }
    let (pan, gain) = place(source, listener);
    for c in &mut out[first..] {
        c.pan = pan;
        c.gain *= gain;
    }
}

/// The cues of one rules-of-play event at `source` (the hero) heard from `listener`, appended to
/// `out`.
pub fn play_cues(e: &PlayEvent, source: DVec2, listener: DVec2, out: &mut Vec<Cue>) {
    let first = out.len();
    let ducked = |c: Cue| Cue { duck: true, ..c };
    match *e {
        PlayEvent::Hurt { .. } => out.push(ducked(one_shot(Sound::Hurt, 0.9, 1.0))),
        PlayEvent::Died { .. } => out.push(ducked(one_shot(Sound::Hurt, 1.0, 0.75))),
        PlayEvent::Attacked => out.push(one_shot(Sound::Swing, 0.8, 1.0)),
        PlayEvent::EnemyHit { defeated, .. } => {
            out.push(one_shot(Sound::Hit, 1.0, if defeated { 0.85 } else { 1.0 }))
        }
        PlayEvent::Stomped { defeated, .. } => out.push(one_shot(
            Sound::Stomp,
            0.9,
            if defeated { 0.9 } else { 1.0 },
        )),
        PlayEvent::Checkpoint { .. } => out.push(one_shot(Sound::Checkpoint, 0.8, 1.0)),
        PlayEvent::GoalReached => out.push(ducked(one_shot(Sound::Goal, 1.0, 1.0))),
        PlayEvent::Respawned | PlayEvent::Returned { .. } => {}
    }
    let (pan, gain) = place(source, listener);
    for c in &mut out[first..] {
        c.pan = pan;
        c.gain *= gain;
    }
}

/// The cues of one world event at `source` (where it happened) heard from `listener`, appended
/// to `out`.
pub fn world_cues(e: &WorldEvent, source: DVec2, listener: DVec2, out: &mut Vec<Cue>) {
    let first = out.len();
    match *e {
        WorldEvent::DoorOpened { .. } => out.push(one_shot(Sound::Door, 0.8, 1.0)),
        WorldEvent::DoorClosed { .. } => out.push(one_shot(Sound::Door, 0.8, 0.8)),
        WorldEvent::Crushed { agent } => out.push(Cue {
            duck: agent.is_none(),
            ..one_shot(Sound::Crush, 1.0, 1.0)
        }),
    }
    let (pan, gain) = place(source, listener);
    for c in &mut out[first..] {
        c.pan = pan;
        c.gain *= gain;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::LevelPolygon;

    #[test]
    fn every_world_event_has_its_sound_where_it_happens() {
        let cue = |e: WorldEvent, at: DVec2| {
            let mut out = Vec::new();
            world_cues(&e, at, DVec2::ZERO, &mut out);
            assert_eq!(out.len(), 1, "{e:?}");
            out[0]
        };
        let open = cue(WorldEvent::DoorOpened { door: 0 }, DVec2::ZERO);
        let shut = cue(WorldEvent::DoorClosed { door: 0 }, DVec2::ZERO);
        assert_eq!((open.sound, shut.sound), (Sound::Door, Sound::Door));
        assert!(shut.pitch < open.pitch);
        let hero = cue(WorldEvent::Crushed { agent: None }, DVec2::ZERO);
        let other = cue(
            WorldEvent::Crushed { agent: Some(0) },
            DVec2::new(-8.0, 0.0),
        );
        assert_eq!((hero.sound, other.sound), (Sound::Crush, Sound::Crush));
        assert!(hero.duck && !other.duck);
        assert!(
            other.pan < 0.0 && other.gain < hero.gain,
            "to the left, farther"
        );
    }

    #[test]
    fn every_play_event_but_the_respawn_has_its_sound() {
        let sound = |e: PlayEvent| {
            let mut out = Vec::new();
            play_cues(&e, DVec2::ZERO, DVec2::ZERO, &mut out);
            out.first().map(|c| c.sound)
        };
        assert_eq!(sound(PlayEvent::Hurt { health: 2 }), Some(Sound::Hurt));
        assert_eq!(
            sound(PlayEvent::Died {
                cause: crate::sim::DeathCause::Pit
            }),
            Some(Sound::Hurt)
        );
        assert_eq!(sound(PlayEvent::Attacked), Some(Sound::Swing));
        assert_eq!(
            sound(PlayEvent::EnemyHit {
                agent: 0,
                defeated: true
            }),
            Some(Sound::Hit)
        );
        assert_eq!(
            sound(PlayEvent::Stomped {
                agent: 0,
                defeated: false
            }),
            Some(Sound::Stomp)
        );
        assert_eq!(
            sound(PlayEvent::Checkpoint { index: 1 }),
            Some(Sound::Checkpoint)
        );
        assert_eq!(sound(PlayEvent::GoalReached), Some(Sound::Goal));
        assert_eq!(sound(PlayEvent::Respawned), None);
    }

    fn map() -> SoundMap {
        let mut grass = LevelPolygon::solid(vec![]);
        grass.material = Some("grass".into());
        let mut metal = LevelPolygon::solid(vec![]);
        metal.material = Some("metal".into());
        let level = Level {
            polygons: vec![grass, metal, LevelPolygon::solid(vec![])],
            ..Level::empty("x")
        };
        SoundMap::new(&Materials::default(), &level)
    }

    fn sounds(e: MoveEvent) -> Vec<Cue> {
        let mut out = Vec::new();
        cues(&map(), &e, DVec2::ZERO, DVec2::ZERO, &mut out);
        out
    }

    #[test]
    fn footsteps_take_the_surface_material() {
        let c = sounds(MoveEvent::Footstep {
            surface: Some(PolygonId(0)),
        });
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].sound, Sound::Footstep(FootstepSound::Soft));
        assert_eq!(c[0].gain, 0.8);
        let c = sounds(MoveEvent::Footstep {
            surface: Some(PolygonId(1)),
        });
        assert_eq!(c[0].sound, Sound::Footstep(FootstepSound::Metal));
        for s in [None, Some(PolygonId(2)), Some(PolygonId(99))] {
            let c = sounds(MoveEvent::Footstep { surface: s });
            assert_eq!(c[0].sound, Sound::Footstep(FootstepSound::Stone), "{s:?}");
        }
    }

    #[test]
    fn every_event_has_its_sound() {
        let land = |v: f64| MoveEvent::Landed {
            impact_speed: v,
            surface: Some(PolygonId(0)),
        };
        let hard = sounds(land(20.0));
        let soft = sounds(land(3.0));
        assert_eq!(hard[0].sound, Sound::Land);
        assert!(hard[0].duck && !soft[0].duck && hard[0].gain > soft[0].gain);
        assert_eq!(hard[1].sound, Sound::Footstep(FootstepSound::Soft));
        let first = |e| sounds(e).first().map(|c| (c.sound, c.kind));
        assert_eq!(
            first(MoveEvent::Jumped),
            Some((Sound::Jump, CueKind::OneShot))
        );
        assert_eq!(
            first(MoveEvent::WallJumped),
            Some((Sound::Jump, CueKind::OneShot))
        );
        assert_eq!(
            first(MoveEvent::Bonked),
            Some((Sound::Bonk, CueKind::OneShot))
        );
        assert_eq!(
            first(MoveEvent::LadderRung),
            Some((Sound::Rung, CueKind::OneShot))
        );
        assert_eq!(
            first(MoveEvent::WallSlideStarted),
            Some((Sound::WallSlide, CueKind::StartLoop))
        );
        assert_eq!(
            first(MoveEvent::WallSlideStopped),
            Some((Sound::WallSlide, CueKind::StopLoop))
        );
        assert_eq!(first(MoveEvent::Crouched), None);
    }

    #[test]
    fn placement_pans_by_side_and_fades_with_distance() {
        let (p, g) = place(DVec2::new(-30.0, 0.0), DVec2::ZERO);
        assert_eq!(p, -1.0);
        assert!((g - 1.0 / 3.6).abs() < 1e-6);
        let (p, g) = place(DVec2::new(3.0, 0.0), DVec2::ZERO);
        assert_eq!((p, g), (0.25, 1.0));
    }
}
