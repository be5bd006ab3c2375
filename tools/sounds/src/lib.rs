//! The sound generator: every shipped sound (`assets/sounds/*.wav`) synthesised from code with
//! fixed-seed noise, so the files are reproducible and reviewable as code. After changing this
//! crate, `cargo run -p tessera-sounds` rewrites the files (commit the result);
//! `cargo run -p tessera-sounds -- --check` and `tests/it/sound_generator.rs` fail whenever a
//! committed file is not what it builds.
//!
//! A tool, not part of the game: the game only reads the committed files (`tessera::audio::bank`)
//! and synthesises nothing at run time. It depends on the library for what the files are (the
//! catalogue `tessera::audio::Sound`, the footstep sets, the number of music tracks), the WAV
//! encoder and the deterministic arithmetic; nothing in the library depends on it.
//!
//! Format: mono, 16-bit, [`RATE`] Hz (small files; the mixer resamples). Effects peak at
//! [`EFFECT_PEAK`], the music at [`MUSIC_PEAK`], leaving the mixer headroom.
pub mod dsp;

use dsp::{db, one_pole, pow, seed_of};
use tessera::audio::dsp::{decay_factor, sin, Rng, TAU};
use tessera::audio::{bank::SOUNDS_DIR, wav, Sound};
use tessera::level::FootstepSound;

/// Sample rate of the generated files, Hz (22.05 kHz: footsteps and blips have little above
/// 10 kHz, and it halves the files).
pub const RATE: u32 = 22_050;
/// Peak level of effects, linear (−3 dBFS).
pub const EFFECT_PEAK: f64 = 0.708;
/// Peak level of the music, linear (−6 dBFS: it plays under everything).
pub const MUSIC_PEAK: f64 = 0.5;
/// Music tempo of the first track, beats per minute.
pub const MUSIC_BPM: f64 = 120.0;
/// Music length, beats (two bars of 4/4: a 4 s loop at 120 bpm).
pub const MUSIC_BEATS: usize = 8;

/// One music track: a loop of four chords, two beats each, over a bass of their roots and a
/// sixteenth-note arpeggio of their tones.
struct Track {
    /// Tempo, beats per minute.
    bpm: f64,
    /// The four chords, MIDI note numbers (root, third, fifth).
    chords: [[i32; 3]; 4],
    /// Which chord tone each sixteenth of a chord's two beats plays (0 root, 1 third, 2 fifth).
    arpeggio: [usize; 8],
    /// The arpeggio's octave above the chord, in semitones.
    lift: i32,
}

/// The tracks a level chooses from (`Level::music`), in order: `music_1.wav` to `music_4.wav`.
/// 1, the sampler and the first level: A minor, F, C, G at 120 bpm, unhurried. 2, moving
/// parts: D minor, B♭, F, C at 132 bpm, a rocking arpeggio. 3, doors and foes: E minor, C, A
/// minor, B at 108 bpm, the arpeggio low and insistent. 4, all together: G, D, E minor, C at
/// 140 bpm, bright and high.
const TRACKS: [Track; tessera::level::document::MUSIC_TRACKS as usize] = [
    Track {
        bpm: MUSIC_BPM,
        chords: [[57, 60, 64], [53, 57, 60], [48, 52, 55], [55, 59, 62]],
        arpeggio: [0, 1, 2, 1, 0, 2, 1, 2],
        lift: 12,
    },
    Track {
        bpm: 132.0,
        chords: [[50, 53, 57], [46, 50, 53], [53, 57, 60], [48, 52, 55]],
        arpeggio: [0, 2, 1, 2, 0, 2, 1, 2],
        lift: 12,
    },
    Track {
        bpm: 108.0,
        chords: [[52, 55, 59], [48, 52, 55], [45, 48, 52], [47, 51, 54]],
        arpeggio: [0, 0, 1, 0, 2, 0, 1, 2],
        lift: 0,
    },
    Track {
        bpm: 140.0,
        chords: [[55, 59, 62], [50, 54, 57], [52, 55, 59], [48, 52, 55]],
        arpeggio: [0, 1, 2, 0, 1, 2, 1, 0],
        lift: 24,
    },
];

const SR: f64 = RATE as f64;

fn samples(secs: f64) -> usize {
    (secs * SR).round() as usize
}

/// One-pole low-pass then high-pass over noise, with an attack and an exponential decay.
struct Burst {
    secs: f64,
    lp: f64,
    hp: f64,
    attack: f64,
    tau: f64,
}

fn burst(rng: &mut Rng, b: &Burst) -> Vec<f64> {
    let n = samples(b.secs);
    let (a_lp, a_hp) = (one_pole(b.lp, SR), one_pole(b.hp, SR));
    let k = decay_factor(b.tau, SR);
    let attack = samples(b.attack).max(1);
    let (mut lp, mut hp, mut env) = (0.0, 0.0, 1.0);
    (0..n)
        .map(|i| {
            lp += a_lp * (rng.signed() - lp);
            hp += a_hp * (lp - hp);
            let a = if i < attack {
                i as f64 / attack as f64
            } else {
                1.0
            };
            if i >= attack {
                env *= k;
            }
            (lp - hp) * a * env
        })
        .collect()
}

/// A decaying sine whose pitch glides exponentially from `f0` to `f1` Hz over `secs`.
fn tone(secs: f64, f0: f64, f1: f64, tau: f64) -> Vec<f64> {
    let n = samples(secs);
    let k = decay_factor(tau, SR);
    let (mut phase, mut env) = (0.0, 1.0);
    (0..n)
        .map(|i| {
            let t = i as f64 / n as f64;
            let f = f0 * pow(f1 / f0, t);
            phase += f / SR;
            phase -= phase.floor();
            let v = sin(TAU * phase) * env;
            env *= k;
            v
        })
        .collect()
}

fn mix_into(a: &mut Vec<f64>, b: &[f64], gain: f64) {
    if a.len() < b.len() {
        a.resize(b.len(), 0.0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y * gain;
    }
}

/// Scales to `peak`, fades the last 2 ms to silence (no click at the end), quantises.
fn finish(mut v: Vec<f64>, peak: f64, fade_out: bool) -> Vec<i16> {
    let max = v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    let g = if max > 0.0 { peak / max } else { 0.0 };
    let n = v.len();
    let fade = if fade_out { samples(0.002).min(n) } else { 0 };
    for (i, x) in v.iter_mut().enumerate() {
        let f = if i + fade >= n && fade > 0 {
            (n - i) as f64 / fade as f64
        } else {
            1.0
        };
        *x *= g * f;
    }
    v.into_iter()
        .map(|x| (x * 32767.0).round().clamp(-32768.0, 32767.0) as i16)
        .collect()
}

fn footstep(set: FootstepSound, rng: &mut Rng) -> Vec<f64> {
    // Each variation differs by ±8 % in its filter cutoffs and ±10 % in length.
    let j = |rng: &mut Rng| 1.0 + 0.08 * rng.signed();
    let l = 1.0 + 0.1 * rng.signed();
    let (secs, lp, hp, attack, tau) = match set {
        FootstepSound::Soft => (0.10, 900.0, 80.0, 0.004, 0.022),
        FootstepSound::Stone => (0.07, 6000.0, 1200.0, 0.0005, 0.010),
        FootstepSound::Wood => (0.10, 2500.0, 200.0, 0.001, 0.015),
        FootstepSound::Metal => (0.09, 8000.0, 1500.0, 0.0005, 0.010),
        FootstepSound::Ice => (0.06, 10000.0, 3500.0, 0.0003, 0.007),
        FootstepSound::Sand => (0.16, 4000.0, 600.0, 0.02, 0.045),
    };
    let b = Burst {
        secs: secs * l,
        lp: lp * j(rng),
        hp: hp * j(rng),
        attack,
        tau,
    };
    let mut v = burst(rng, &b);
    match set {
        FootstepSound::Wood => mix_into(&mut v, &tone(secs * l, 190.0 * j(rng), 150.0, 0.03), 0.5),
        FootstepSound::Metal => {
            let f = 1800.0 * j(rng);
            mix_into(&mut v, &tone(0.22, f, f, 0.07), 0.25);
            mix_into(&mut v, &tone(0.22, f * 1.51, f * 1.51, 0.05), 0.15);
        }
        FootstepSound::Ice => mix_into(&mut v, &tone(secs, 4200.0 * j(rng), 3900.0, 0.01), 0.2),
        FootstepSound::Soft => mix_into(&mut v, &tone(secs, 90.0, 60.0, 0.02), 0.3),
        _ => {}
    }
    v
}

fn music(track: &Track) -> Vec<f64> {
    let beat = samples(60.0 / track.bpm);
    let n = beat * MUSIC_BEATS;
    let mut out = vec![0.0; n];
    let mut rng = Rng::new(seed_of("music"));
    let chords = track.chords;
    let hz = |note: i32| 440.0 * pow(2.0, (note - 69) as f64 / 12.0);
    // Every note is written within its own slot and faded to zero by the slot's end, so the
    // last slot ends in silence and the loop point is seamless.
    let note = |out: &mut [f64], start: usize, len: usize, f: f64, gain: f64, shape: u8| {
        let k = decay_factor(len as f64 / SR * 0.5, SR);
        let fade = samples(0.004).min(len / 2);
        let mut env = 1.0;
        let mut phase = 0.0f64;
        for i in 0..len {
            phase += f / SR;
            phase -= phase.floor();
            let v = match shape {
                // Triangle (bass).
                0 => 1.0 - 4.0 * (phase - 0.5).abs(),
                // Pulse, 25 % duty (lead), softened by its fundamental.
                _ => 0.6 * if phase < 0.25 { 1.0 } else { -0.33 } + 0.4 * sin(TAU * phase),
            };
            let a = (i as f64 / fade as f64).min(1.0) * ((len - i) as f64 / fade as f64).min(1.0);
            out[start + i] += v * env * a * gain;
            env *= k;
        }
    };
    let eighth = beat / 2;
    let sixteenth = beat / 4;
    for (c, chord) in chords.iter().enumerate() {
        let bar_start = c * 2 * beat;
        for e in 0..4 {
            let root = if e % 2 == 0 {
                chord[0] - 24
            } else {
                chord[0] - 12
            };
            note(&mut out, bar_start + e * eighth, eighth, hz(root), 0.5, 0);
        }
        for s in 0..8 {
            let tone = chord[track.arpeggio[s]] + track.lift;
            note(
                &mut out,
                bar_start + s * sixteenth,
                sixteenth,
                hz(tone),
                0.18,
                1,
            );
        }
        // Hi-hat ticks on the off-beat eighths: short high-passed noise.
        for e in [1, 3] {
            let start = bar_start + e * eighth;
            let len = samples(0.03);
            let a = one_pole(7000.0, SR);
            let k = decay_factor(0.008, SR);
            let (mut lp, mut env) = (0.0, 1.0);
            for i in 0..len {
                let x = rng.signed();
                lp += a * (x - lp);
                out[start + i] += (x - lp) * env * 0.12;
                env *= k;
            }
        }
    }
    out
}

/// A seamless loop of filtered noise: `secs` long, its last 50 ms crossfaded into its start.
fn noise_loop(rng: &mut Rng, secs: f64) -> Vec<f64> {
    let n = samples(secs);
    let x = samples(0.05);
    let mut v = burst(
        rng,
        &Burst {
            secs: (n + x) as f64 / SR,
            lp: 1600.0,
            hp: 350.0,
            attack: 0.0,
            tau: 1e9,
        },
    );
    for i in 0..x {
        let t = i as f64 / x as f64;
        v[i] = v[i] * t + v[n + i] * (1.0 - t);
    }
    v.truncate(n);
    v
}

/// The samples of variation `v` of `sound`.
pub fn synthesize(sound: Sound, v: usize) -> Vec<i16> {
    let mut rng = Rng::new(seed_of(&sound.file_name(v)));
    match sound {
        Sound::Footstep(set) => finish(footstep(set, &mut rng), EFFECT_PEAK * db(-4.0), true),
        Sound::Jump => {
            let mut s = tone(0.16, 280.0, 720.0, 0.06);
            let h = tone(0.16, 840.0, 2160.0, 0.04);
            mix_into(&mut s, &h, 0.2);
            finish(s, EFFECT_PEAK * db(-3.0), true)
        }
        Sound::Land => {
            let f = [110.0, 95.0][v % 2];
            let mut s = tone(0.22, f, 42.0, 0.06);
            let b = burst(
                &mut rng,
                &Burst {
                    secs: 0.12,
                    lp: 500.0,
                    hp: 40.0,
                    attack: 0.001,
                    tau: 0.03,
                },
            );
            mix_into(&mut s, &b, 0.8);
            finish(s, EFFECT_PEAK, true)
        }
        Sound::Bonk => {
            let mut s = tone(0.14, 520.0, 240.0, 0.05);
            let b = burst(
                &mut rng,
                &Burst {
                    secs: 0.03,
                    lp: 5000.0,
                    hp: 800.0,
                    attack: 0.0002,
                    tau: 0.006,
                },
            );
            mix_into(&mut s, &b, 0.6);
            finish(s, EFFECT_PEAK * db(-2.0), true)
        }
        Sound::Rung => {
            let f = [880.0, 990.0][v % 2];
            finish(tone(0.07, f, f * 0.94, 0.018), EFFECT_PEAK * db(-8.0), true)
        }
        Sound::WallSlide => finish(noise_loop(&mut rng, 0.6), EFFECT_PEAK * db(-6.0), false),
        Sound::Music => finish(music(&TRACKS[v % TRACKS.len()]), MUSIC_PEAK, false),
        Sound::Hurt => {
            let mut s = tone(0.3, 420.0, 140.0, 0.12);
            let buzz = tone(0.3, 630.0, 210.0, 0.1);
            mix_into(&mut s, &buzz, 0.45);
            finish(s, EFFECT_PEAK * db(-2.0), true)
        }
        Sound::Swing => {
            let b = burst(
                &mut rng,
                &Burst {
                    secs: 0.12,
                    lp: 3500.0,
                    hp: 900.0,
                    attack: 0.03,
                    tau: 0.03,
                },
            );
            finish(b, EFFECT_PEAK * db(-7.0), true)
        }
        Sound::Hit => {
            let mut s = tone(0.12, 190.0, 90.0, 0.035);
            let b = burst(
                &mut rng,
                &Burst {
                    secs: 0.05,
                    lp: 2500.0,
                    hp: 200.0,
                    attack: 0.0005,
                    tau: 0.012,
                },
            );
            mix_into(&mut s, &b, 0.7);
            finish(s, EFFECT_PEAK * db(-1.0), true)
        }
        Sound::Stomp => {
            let mut s = tone(0.2, 180.0, 520.0, 0.07);
            let o = tone(0.2, 360.0, 1040.0, 0.05);
            mix_into(&mut s, &o, 0.25);
            finish(s, EFFECT_PEAK * db(-3.0), true)
        }
        Sound::Checkpoint => {
            let mut s = tone(0.35, 660.0, 660.0, 0.12);
            let mut second = vec![0.0; samples(0.1)];
            second.extend(tone(0.25, 990.0, 990.0, 0.1));
            mix_into(&mut s, &second, 0.9);
            finish(s, EFFECT_PEAK * db(-6.0), true)
        }
        Sound::Goal => {
            let mut s = vec![0.0; samples(0.8)];
            for (k, f) in [523.25, 659.25, 783.99, 1046.5].into_iter().enumerate() {
                let mut note = vec![0.0; samples(0.12 * k as f64)];
                note.extend(tone(0.8 - 0.12 * k as f64, f, f, 0.18));
                mix_into(&mut s, &note, 0.6);
            }
            finish(s, EFFECT_PEAK * db(-4.0), true)
        }
        Sound::Door => {
            let mut s = tone(0.5, 70.0, 55.0, 0.2);
            let grind = burst(
                &mut rng,
                &Burst {
                    secs: 0.45,
                    lp: 900.0,
                    hp: 120.0,
                    attack: 0.05,
                    tau: 0.15,
                },
            );
            mix_into(&mut s, &grind, 0.5);
            finish(s, EFFECT_PEAK * db(-5.0), true)
        }
        Sound::Crush => {
            let mut s = tone(0.35, 90.0, 30.0, 0.09);
            let crunch = burst(
                &mut rng,
                &Burst {
                    secs: 0.25,
                    lp: 3000.0,
                    hp: 150.0,
                    attack: 0.001,
                    tau: 0.05,
                },
            );
            mix_into(&mut s, &crunch, 0.9);
            finish(s, EFFECT_PEAK, true)
        }
    }
}

/// Every sound file: its path in the repository (`assets/sounds/NAME.wav`, the data directory's
/// [`SOUNDS_DIR`]) and its bytes, in the catalogue's order ([`Sound::all`], then variation).
pub fn generated_files() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for s in Sound::all() {
        for v in 0..s.variations() {
            out.push((
                format!("{SOUNDS_DIR}/{}", s.file_name(v)),
                wav::encode(RATE, 1, &synthesize(s, v)),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_are_seamless_and_one_shots_end_in_silence() {
        for s in Sound::all() {
            for v in 0..s.variations() {
                let x = synthesize(s, v);
                let peak = x.iter().map(|&a| (a as i32).abs()).max().unwrap();
                assert!(peak > 8000 && peak < 32767, "{s:?} peak {peak}");
                let (first, last) = (x[0] as i32, *x.last().unwrap() as i32);
                if s.looping() {
                    // The step across the loop point is no bigger than steps inside the sound.
                    let max_step = x
                        .windows(2)
                        .map(|w| (w[1] as i32 - w[0] as i32).abs())
                        .max();
                    assert!((first - last).abs() <= max_step.unwrap(), "{s:?}");
                } else {
                    assert!(last.abs() < 200, "{s:?} ends at {last}");
                }
            }
        }
        for (v, track) in TRACKS.iter().enumerate() {
            let music = synthesize(Sound::Music, v);
            assert_eq!(music.len(), samples(60.0 / track.bpm) * MUSIC_BEATS);
        }
        assert_eq!(TRACKS[0].bpm, MUSIC_BPM);
    }
}
