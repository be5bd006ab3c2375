//! The mixer: voices over the decoded bank, three buses (effects, music, master), per-sound voice
//! caps and retrigger limits, seeded variation, constant-power panning, music looping and
//! ducking. Output: interleaved stereo `f32` at [`OUTPUT_RATE`].
//!
//! Deterministic: the same bank, volumes and sequence of [`Cue`]s and [`Mixer::render`] calls give
//! bit-identical samples (the variation RNG is seeded and advanced only by cues, in order; all
//! arithmetic is plain `f32`/`f64` with `audio::dsp`'s functions instead of `libm`'s).
//! Nothing on the render path allocates: voices live in a vector reserved for [`MAX_VOICES`].
use std::sync::Arc;

use super::bank::{Bank, Clip};
use super::dsp::{cos, decay_factor, exp, sin, Rng};
use super::sounds::Sound;

/// Output frames per second (48 kHz: what most devices run at natively, so no device-side
/// resampling).
pub const OUTPUT_RATE: u32 = 48_000;
/// Most voices playing at once (effects and music); a new one beyond it replaces the oldest.
pub const MAX_VOICES: usize = 32;
/// Seed of the variation RNG.
pub const VARIATION_SEED: u64 = 0x7e55_e7a5_0a0d_1e5d;
/// Random pitch variation of each one-shot, ± fraction (±4 %, about ±0.7 semitone: audible as
/// "not the same sample twice", not as a different note).
pub const PITCH_VARIATION: f32 = 0.04;
/// Random gain variation of each one-shot, ± fraction (±10 %, about ±0.8 dB).
pub const GAIN_VARIATION: f32 = 0.10;
/// Music gain while ducked, linear (−8 dB under a loud effect).
pub const DUCK_GAIN: f32 = 0.4;
/// How long the music stays ducked after a loud effect starts, s.
pub const DUCK_HOLD: f64 = 0.25;
/// Time constant of the music gain moving to and from the ducked level, s (fast enough to clear
/// room for a landing, slow enough not to pump audibly).
pub const DUCK_SMOOTHING: f64 = 0.05;
/// Fade applied when a loop stops, s (no click).
pub const LOOP_FADE: f64 = 0.03;
/// How long one music track takes to fade out while the next fades in (a level with other
/// music), s.
pub const MUSIC_CROSSFADE: f64 = 0.6;
/// Output above this level is compressed smoothly towards ±1 instead of clipping (a soft knee;
/// the mix stays below 0 dBFS whatever plays).
pub const LIMIT_KNEE: f32 = 0.8;

/// Per-sound limits: at most `max_voices` playing, and a new cue within `min_retrigger` seconds
/// of the last start is dropped (ten landings in one frame sound like one).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Voices of this sound playing at once; a new one replaces the oldest.
    pub max_voices: usize,
    /// Seconds from one start to the next accepted start.
    pub min_retrigger: f64,
}

/// The limits of each sound (see [`Limits`]). Footsteps 60 ms apart at most (a stride takes
/// 0.17 s at run speed), landings 80 ms, rungs 50 ms (a rung every 87 ms at climb speed); the
/// game's hurt, checkpoint and goal one voice each, 100 ms apart; hits and stomps 30 ms (one
/// swing may hit several enemies in one tick); doors two voices 50 ms apart (a pair of leaves on
/// one switch), crushes two 100 ms apart (a character pinned under a crusher is crushed once a
/// stroke, not every tick).
pub fn limits(sound: Sound) -> Limits {
    let (max_voices, min_retrigger) = match sound {
        Sound::Footstep(_) => (3, 0.06),
        Sound::Jump => (2, 0.08),
        Sound::Land => (2, 0.08),
        Sound::Bonk => (1, 0.10),
        Sound::Rung => (2, 0.05),
        Sound::WallSlide | Sound::Music => (1, 0.0),
        Sound::Hurt | Sound::Goal | Sound::Checkpoint => (1, 0.10),
        Sound::Swing => (2, 0.08),
        Sound::Hit | Sound::Stomp => (3, 0.03),
        Sound::Door => (2, 0.05),
        Sound::Crush => (2, 0.10),
    };
    Limits {
        max_voices,
        min_retrigger,
    }
}

/// Bus volumes, linear, 0 to 1 (from the settings file).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Volumes {
    /// Everything.
    pub master: f32,
    /// The music bus.
    pub music: f32,
    /// The effects bus.
    pub effects: f32,
}

impl Default for Volumes {
    fn default() -> Self {
        Volumes {
            master: 0.8,
            music: 0.6,
            effects: 1.0,
        }
    }
}

/// What a cue does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CueKind {
    /// Play once.
    OneShot,
    /// Start the sound's loop (nothing if it is already playing).
    StartLoop,
    /// Fade the sound's loop out.
    StopLoop,
}

/// A request to the mixer: one sound, placed and scaled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cue {
    /// The sound.
    pub sound: Sound,
    /// What to do with it.
    pub kind: CueKind,
    /// Gain before the buses, linear.
    pub gain: f32,
    /// Pitch factor before the random variation (1: as recorded).
    pub pitch: f32,
    /// Stereo position, −1 (left) to 1 (right).
    pub pan: f32,
    /// Whether the music ducks under it.
    pub duck: bool,
}

#[derive(Clone, Copy, Debug)]
struct Voice {
    sound: Sound,
    variation: usize,
    /// Read position in the clip, in clip frames.
    pos: f64,
    /// Clip frames per output frame.
    step: f64,
    gain_l: f32,
    gain_r: f32,
    looping: bool,
    music: bool,
    /// 1 while playing; falls to 0 while a loop fades out.
    fade: f32,
    fading: bool,
    /// Output frame it started on (oldest is replaced first).
    started: u64,
}

/// The mixer (see the module docs).
pub struct Mixer {
    bank: Arc<Bank>,
    voices: Vec<Voice>,
    rng: Rng,
    round_robin: Vec<usize>,
    last_start: Vec<Option<u64>>,
    volumes: Volumes,
    /// Output frames rendered so far.
    clock: u64,
    duck_until: u64,
    music_gain: f32,
    duck_k: f32,
    fade_step: f32,
    /// The fade step of music voices ([`MUSIC_CROSSFADE`]).
    music_fade_step: f32,
    /// Whether this mixer plays music at all.
    music_on: bool,
    /// Cues dropped by the retrigger limit, for tests and diagnostics.
    dropped: u64,
}

/// The variation of [`Sound::Music`] that plays track `track`: itself, or past the last track the
/// first.
fn music_variation(track: usize) -> usize {
    if track < Sound::Music.variations() {
        track
    } else {
        0
    }
}

/// Constant-power pan: gains (left, right) for a position in [−1, 1].
pub fn pan_gains(pan: f32) -> (f32, f32) {
    let a = (pan.clamp(-1.0, 1.0) as f64 + 1.0) * std::f64::consts::FRAC_PI_4;
    (cos(a) as f32, sin(a) as f32)
}

impl Mixer {
    /// A mixer over `bank`; with `music`, the music loop starts at once.
    pub fn new(bank: Arc<Bank>, volumes: Volumes, music: bool) -> Mixer {
        let n = Sound::all().len();
        let mut m = Mixer {
            bank,
            voices: Vec::with_capacity(MAX_VOICES),
            rng: Rng::new(VARIATION_SEED),
            round_robin: vec![0; n],
            last_start: vec![None; n],
            volumes,
            clock: 0,
            duck_until: 0,
            music_gain: 1.0,
            duck_k: 1.0 - decay_factor(DUCK_SMOOTHING, OUTPUT_RATE as f64) as f32,
            fade_step: 1.0 / (LOOP_FADE * OUTPUT_RATE as f64) as f32,
            music_fade_step: 1.0 / (MUSIC_CROSSFADE * OUTPUT_RATE as f64) as f32,
            music_on: music,
            dropped: 0,
        };
        if music {
            m.start_voice(Sound::Music, 0, 1.0, 1.0, 1.0, true, true);
        }
        m
    }

    /// Plays music track `track` (0-based, one per variation of [`Sound::Music`]; past the last,
    /// the first): the track already playing goes on; any other fades out over
    /// [`MUSIC_CROSSFADE`] while this one fades in from its start. Nothing for a mixer without
    /// music.
    pub fn set_music(&mut self, track: usize) {
        if !self.music_on {
            return;
        }
        let track = music_variation(track);
        let mut playing = false;
        for v in self.voices.iter_mut().filter(|v| v.music) {
            if v.variation == track && !v.fading {
                playing = true;
            } else {
                v.fading = true;
            }
        }
        if !playing {
            self.start_voice(Sound::Music, track, 1.0, 1.0, 0.0, true, true);
        }
    }

    /// This mixer with its music on track `track` from the start (no fade: nothing has played
    /// yet; past the last track, the first).
    pub fn starting_track(mut self, track: usize) -> Mixer {
        let track = music_variation(track);
        let rate = self.bank.clip(Sound::Music, track).rate;
        for v in self.voices.iter_mut().filter(|v| v.music) {
            v.variation = track;
            v.step = rate / OUTPUT_RATE as f64;
        }
        self
    }

    /// The music track playing (not fading out), if any.
    pub fn music_track(&self) -> Option<usize> {
        self.voices
            .iter()
            .find(|v| v.music && !v.fading)
            .map(|v| v.variation)
    }

    /// Changes the bus volumes (each clamped to 0..=1).
    pub fn set_volumes(&mut self, v: Volumes) {
        let c = |x: f32| {
            if x.is_finite() {
                x.clamp(0.0, 1.0)
            } else {
                0.0
            }
        };
        self.volumes = Volumes {
            master: c(v.master),
            music: c(v.music),
            effects: c(v.effects),
        };
    }

    /// The bus volumes.
    pub fn volumes(&self) -> Volumes {
        self.volumes
    }

    /// Voices playing (music included).
    pub fn active_voices(&self) -> usize {
        self.voices.len()
    }

    /// Voices of `sound` playing.
    pub fn voices_of(&self, sound: Sound) -> usize {
        self.voices.iter().filter(|v| v.sound == sound).count()
    }

    /// Cues dropped by the retrigger limit so far.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Output frames rendered so far.
    pub fn clock(&self) -> u64 {
        self.clock
    }

    /// Applies a cue now (at the next rendered frame).
    pub fn cue(&mut self, c: &Cue) {
        let s = c.sound;
        match c.kind {
            CueKind::StopLoop => {
                for v in self.voices.iter_mut().filter(|v| v.sound == s && v.looping) {
                    v.fading = true;
                }
            }
            CueKind::StartLoop => {
                if let Some(v) = self.voices.iter_mut().find(|v| v.sound == s) {
                    v.fading = false;
                    v.fade = v.fade.max(0.0);
                    return;
                }
                let (l, r) = pan_gains(c.pan);
                self.start_voice(s, 0, c.gain * l, c.gain * r, 0.0, true, false);
                if let Some(v) = self.voices.last_mut() {
                    v.step *= c.pitch as f64;
                }
            }
            CueKind::OneShot => {
                let lim = limits(s);
                let i = s.index();
                let min = (lim.min_retrigger * OUTPUT_RATE as f64) as u64;
                if let Some(t) = self.last_start[i] {
                    if self.clock - t < min {
                        self.dropped += 1;
                        return;
                    }
                }
                self.last_start[i] = Some(self.clock);
                let variation = self.round_robin[i];
                self.round_robin[i] = (variation + 1) % s.variations();
                let pitch = c.pitch * (1.0 + PITCH_VARIATION * self.rng.signed() as f32);
                let gain = c.gain * (1.0 + GAIN_VARIATION * self.rng.signed() as f32);
                while self.voices_of(s) >= lim.max_voices {
                    self.remove_oldest(|v| v.sound == s);
                }
                let (l, r) = pan_gains(c.pan);
                self.start_voice(s, variation, gain * l, gain * r, 1.0, false, false);
                if let Some(v) = self.voices.last_mut() {
                    v.step *= pitch as f64;
                }
                if c.duck {
                    self.duck_until = self.clock + (DUCK_HOLD * OUTPUT_RATE as f64) as u64;
                }
            }
        }
    }

    fn remove_oldest(&mut self, pred: impl Fn(&Voice) -> bool) {
        let oldest = (0..self.voices.len())
            .filter(|&i| pred(&self.voices[i]))
            .min_by_key(|&i| self.voices[i].started);
        if let Some(i) = oldest {
            self.voices.remove(i);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn start_voice(
        &mut self,
        sound: Sound,
        variation: usize,
        gain_l: f32,
        gain_r: f32,
        fade: f32,
        looping: bool,
        music: bool,
    ) {
        if self.voices.len() >= MAX_VOICES {
            self.remove_oldest(|v| !v.music);
        }
        let clip = self.bank.clip(sound, variation);
        self.voices.push(Voice {
            sound,
            variation,
            pos: 0.0,
            step: clip.rate / OUTPUT_RATE as f64,
            gain_l,
            gain_r,
            looping,
            music,
            fade,
            fading: false,
            started: self.clock,
        });
    }

    /// Renders `out.len() / 2` stereo frames (interleaved left, right) and advances the clock.
    pub fn render(&mut self, out: &mut [f32]) {
        out.fill(0.0);
        let frames = out.len() / 2;
        // Music bus gain per frame (ducking), computed first so voices can be mixed one by one.
        let fx = self.volumes.effects * self.volumes.master;
        let mus = self.volumes.music * self.volumes.master;
        let bank = Arc::clone(&self.bank);
        let start_clock = self.clock;
        let (duck_until, duck_k) = (self.duck_until, self.duck_k);
        let mut music_gain_end = self.music_gain;
        for v in self.voices.iter_mut() {
            let clip = bank.clip(v.sound, v.variation);
            let mut g = self.music_gain;
            let fade_step = if v.music {
                self.music_fade_step
            } else {
                self.fade_step
            };
            for f in 0..frames {
                if v.looping && !v.fading && v.fade < 1.0 {
                    v.fade = (v.fade + fade_step).min(1.0);
                }
                let s = if v.music {
                    let target = if start_clock + (f as u64) < duck_until {
                        DUCK_GAIN
                    } else {
                        1.0
                    };
                    g += (target - g) * duck_k;
                    read(clip, v.pos, true) * mus * g
                } else {
                    read(clip, v.pos, v.looping) * fx
                };
                if v.fading {
                    v.fade = (v.fade - fade_step).max(0.0);
                }
                let s = s * v.fade;
                out[2 * f] += s * v.gain_l;
                out[2 * f + 1] += s * v.gain_r;
                v.pos += v.step;
                let len = clip.data.len() as f64;
                if v.looping && v.pos >= len {
                    v.pos -= len;
                }
            }
            if v.music {
                music_gain_end = g;
            }
        }
        self.music_gain = music_gain_end;
        self.voices.retain(|v| {
            let len = bank.clip(v.sound, v.variation).data.len() as f64;
            !(v.fading && v.fade <= 0.0) && (v.looping || v.pos < len)
        });
        for x in out.iter_mut() {
            *x = limit(*x);
        }
        self.clock += frames as u64;
    }
}

/// The clip's value at fractional position `pos` (linear interpolation; across the loop point
/// for loops, silence past the end otherwise).
#[inline]
fn read(clip: &Clip, pos: f64, looping: bool) -> f32 {
    let n = clip.data.len();
    let i = pos as usize;
    if i >= n {
        return 0.0;
    }
    let t = (pos - i as f64) as f32;
    let a = clip.data[i];
    let b = if i + 1 < n {
        clip.data[i + 1]
    } else if looping {
        clip.data[0]
    } else {
        0.0
    };
    a + (b - a) * t
}

/// The output limiter: identity below [`LIMIT_KNEE`], then a smooth curve that approaches ±1 and
/// never reaches it.
#[inline]
pub fn limit(x: f32) -> f32 {
    let a = x.abs();
    if a <= LIMIT_KNEE {
        return x;
    }
    let room = 1.0 - LIMIT_KNEE;
    let over = (a - LIMIT_KNEE) / room;
    // 1 − e^(−over) rises with slope 1 from 0 towards 1: continuous in value and slope at the knee.
    let y = LIMIT_KNEE + room * (1.0 - exp(-over as f64) as f32);
    y.min(0.999_969).copysign(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::FootstepSound;

    fn bank() -> Arc<Bank> {
        static B: std::sync::OnceLock<Arc<Bank>> = std::sync::OnceLock::new();
        B.get_or_init(|| {
            let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(super::super::bank::SOUNDS_DIR);
            Arc::new(Bank::load(&dir).unwrap())
        })
        .clone()
    }

    fn shot(sound: Sound, gain: f32) -> Cue {
        Cue {
            sound,
            kind: CueKind::OneShot,
            gain,
            pitch: 1.0,
            pan: 0.0,
            duck: false,
        }
    }

    fn peak(buf: &[f32]) -> f32 {
        buf.iter().fold(0.0f32, |m, x| m.max(x.abs()))
    }

    #[test]
    fn ten_landings_at_once_play_as_one() {
        let mut one = Mixer::new(bank(), Volumes::default(), false);
        let mut ten = Mixer::new(bank(), Volumes::default(), false);
        one.cue(&shot(Sound::Land, 0.5));
        for _ in 0..10 {
            ten.cue(&shot(Sound::Land, 0.5));
        }
        assert_eq!(ten.voices_of(Sound::Land), 1);
        assert_eq!(ten.dropped(), 9);
        let (mut a, mut b) = (vec![0.0; 4800], vec![0.0; 4800]);
        one.render(&mut a);
        ten.render(&mut b);
        assert_eq!(a, b, "the nine extra landings changed the sound");
    }

    #[test]
    fn the_voice_cap_replaces_the_oldest() {
        let mut m = Mixer::new(bank(), Volumes::default(), false);
        // Metal steps ring for 0.22 s: more than `max_voices` retrigger gaps.
        let set = Sound::Footstep(FootstepSound::Metal);
        let cap = limits(set).max_voices;
        let gap = (limits(set).min_retrigger * OUTPUT_RATE as f64) as usize + 1;
        let mut buf = vec![0.0; 2 * gap];
        for _ in 0..cap + 3 {
            m.cue(&shot(set, 1.0));
            assert!(m.voices_of(set) <= cap);
            m.render(&mut buf);
        }
        assert_eq!(m.dropped(), 0);
        assert_eq!(m.voices_of(set), cap);
        // Everything ends: one-shots are removed when they finish.
        let mut long = vec![0.0; 2 * OUTPUT_RATE as usize];
        m.render(&mut long);
        assert_eq!(m.active_voices(), 0);
    }

    #[test]
    fn round_robin_and_variation_are_deterministic() {
        let run = || {
            let mut m = Mixer::new(bank(), Volumes::default(), true);
            let mut out = Vec::new();
            let mut buf = vec![0.0; 2 * 6000];
            for i in 0..12 {
                m.cue(&shot(Sound::Footstep(FootstepSound::Stone), 1.0));
                if i % 3 == 0 {
                    m.cue(&Cue {
                        duck: true,
                        ..shot(Sound::Land, 1.0)
                    });
                }
                m.render(&mut buf);
                out.extend_from_slice(&buf);
            }
            out
        };
        let (a, b) = (run(), run());
        assert!(a == b);
        // Consecutive footsteps are not the same samples (round robin and variation).
        let mut m = Mixer::new(bank(), Volumes::default(), false);
        let (mut x, mut y) = (vec![0.0; 2 * 6000], vec![0.0; 2 * 6000]);
        m.cue(&shot(Sound::Footstep(FootstepSound::Stone), 1.0));
        m.render(&mut x);
        m.cue(&shot(Sound::Footstep(FootstepSound::Stone), 1.0));
        m.render(&mut y);
        assert!(x != y);
    }

    #[test]
    fn panning_is_constant_power_and_sided() {
        for p in [-1.0f32, -0.5, 0.0, 0.3, 1.0] {
            let (l, r) = pan_gains(p);
            assert!((l * l + r * r - 1.0).abs() < 1e-6);
        }
        let (l, r) = pan_gains(-1.0);
        assert!(l > 0.999 && r.abs() < 1e-6);
    }

    #[test]
    fn music_loops_and_ducks_under_loud_effects() {
        let mut m = Mixer::new(bank(), Volumes::default(), true);
        let music = bank().clip(Sound::Music, 0).clone();
        let len = music.data.len() as f64 * OUTPUT_RATE as f64 / music.rate;
        let mut buf = vec![0.0; 2 * (len as usize + 4800)];
        m.render(&mut buf);
        assert_eq!(m.voices_of(Sound::Music), 1, "the music stopped at its end");
        // Same phrase on the second pass: the loop restarts where it began.
        let quiet = |m: &mut Mixer, duck: bool| {
            let mut a = vec![0.0; 2 * 2400];
            m.render(&mut a);
            if duck {
                m.cue(&Cue {
                    duck: true,
                    ..shot(Sound::Rung, 0.0)
                });
            }
            let mut b = vec![0.0; 2 * 9600];
            m.render(&mut b);
            // After three smoothing time constants.
            peak(&b[2 * 7200..])
        };
        let mut a = Mixer::new(bank(), Volumes::default(), true);
        let mut b = Mixer::new(bank(), Volumes::default(), true);
        let plain = quiet(&mut a, false);
        let ducked = quiet(&mut b, true);
        assert!(ducked < 0.7 * plain, "{ducked} vs {plain}");
    }

    /// A level with other music: the old track fades out over the crossfade while the new one
    /// fades in from its start; then only the new one plays. The same track again changes
    /// nothing, and a mixer without music stays silent.
    #[test]
    fn another_music_track_crossfades_in() {
        let mut m = Mixer::new(bank(), Volumes::default(), true).starting_track(2);
        assert_eq!(m.music_track(), Some(2));
        let mut buf = vec![0.0; 2 * 4800];
        m.render(&mut buf);
        m.set_music(2);
        assert_eq!(m.voices_of(Sound::Music), 1, "the same track goes on");
        m.set_music(1);
        assert_eq!(m.music_track(), Some(1));
        assert_eq!(m.voices_of(Sound::Music), 2, "both during the crossfade");
        // Half-way through the crossfade both still play; after it only the new one.
        let half = (MUSIC_CROSSFADE * 0.5 * OUTPUT_RATE as f64) as usize;
        let mut a = vec![0.0; 2 * half];
        m.render(&mut a);
        assert_eq!(m.voices_of(Sound::Music), 2);
        let mut b = vec![0.0; 2 * (half + 480)];
        m.render(&mut b);
        assert_eq!(m.voices_of(Sound::Music), 1);
        assert_eq!(m.music_track(), Some(1));
        assert!(peak(&b) > 0.05, "the new track plays");
        // A track past the last plays the first.
        m.set_music(99);
        assert_eq!(m.music_track(), Some(0));
        let mut silent = Mixer::new(bank(), Volumes::default(), false);
        silent.set_music(3);
        assert_eq!(silent.voices_of(Sound::Music), 0);
    }

    #[test]
    fn the_limiter_never_reaches_full_scale() {
        for x in [0.0f32, 0.5, 0.8, 0.9, 1.0, 3.0, 100.0, -50.0] {
            let y = limit(x);
            assert!(
                y.abs() < 1.0 && y.abs() <= x.abs() && y * x >= 0.0,
                "{x} -> {y}"
            );
        }
        assert!((limit(0.81) - 0.81).abs() < 1e-3);
        let mut m = Mixer::new(
            bank(),
            Volumes {
                master: 1.0,
                music: 1.0,
                effects: 1.0,
            },
            true,
        );
        for s in Sound::all().into_iter().filter(|s| !s.looping()) {
            m.cue(&shot(s, 8.0));
        }
        let mut buf = vec![0.0; 2 * 4800];
        m.render(&mut buf);
        assert!(peak(&buf) < 1.0);
    }
}
