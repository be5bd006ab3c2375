//! Device output: the [`Mixer`] runs inside a rodio `Source` on the audio thread, fed with cues
//! from the game thread through a bounded channel (`try_send`: the game loop never blocks; a
//! full channel drops the cue and counts it).
//!
//! No device: [`GameAudio`] still maps every event to cues and counts them (the same accounting),
//! plays nothing, and logs one line. Device lost (rodio's error callback reports a stream error):
//! the game keeps running silently and [`GameAudio::frame`] looks for the default device again,
//! with a back-off ([`RetryBackoff`]: after 2 s, then twice as long each time, at most every
//! [`RECONNECT_MAX`]); a failed attempt logs at debug level only. A reopened device starts a fresh
//! mixer (the music restarts).
//!
//! # ALSA's own messages
//! Without a sound card, opening ALSA's default device makes alsa-lib print its errors to stderr
//! (`ALSA lib confmisc.c:855:(parse_card) cannot find card '0'` and seven more lines), at start and
//! at every attempt. The game's own line (`no audio device (...): running without sound`) says all
//! that matters, so every attempt to open a device runs inside [`quiet_alsa`]: alsa-lib's
//! *thread-local* error handler (`snd_lib_error_set_local`, which the default global handler
//! defers to) is pointed at a memory buffer through the `alsa` crate's safe
//! `alsa::Output::local_error_handler` (the crate is already in the tree through cpal), and what
//! it caught is logged at debug level (`RUST_LOG=tessera=debug` shows it). Why this way:
//! - no `unsafe` here: the global handler (`snd_lib_error_set_handler`) takes a C-variadic
//!   function, which stable Rust cannot define (it would need a transmuted non-variadic function
//!   or a C shim); the thread-local handler takes a `va_list` and the `alsa` crate defines it;
//! - it is scoped to the thread that opens devices: cpal opens the PCM on the calling thread (the
//!   game's), while its stream thread only plays into an open device, so ALSA's messages about a
//!   device that fails while playing still reach stderr.
//!
//! Latency from an event to its first sample: the cue is sent at the end of the frame whose tick
//! made it, and the source picks up cues at the start of each [`BLOCK_FRAMES`] block, so at most
//! one block plus the device's buffer plus one frame.
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::Arc;
use std::time::{Duration, Instant};

use glam::DVec2;

use super::bank::Bank;
use super::events::{cues, SoundMap};
use super::mixer::{Cue, Mixer, Volumes, OUTPUT_RATE};
use crate::movement::MoveEvent;

/// Frames the source renders at a time (5.3 ms at 48 kHz): the granularity at which cues are
/// picked up on the audio thread.
pub const BLOCK_FRAMES: usize = 256;
/// Cues that may wait in the channel (far more than one frame makes: 8 ticks of events).
pub const CHANNEL_CAPACITY: usize = 256;
/// How long after a failed open (or a lost device) the device is first looked for again.
pub const RECONNECT_INTERVAL: Duration = Duration::from_secs(2);
/// The longest wait between two attempts to open a device (the back-off stops doubling there).
pub const RECONNECT_MAX: Duration = Duration::from_secs(32);

/// When to look for a device again: [`RECONNECT_INTERVAL`] after the first failure, then twice as
/// long after each further one, at most [`RECONNECT_MAX`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryBackoff {
    next: Duration,
}

impl Default for RetryBackoff {
    fn default() -> Self {
        RetryBackoff {
            next: RECONNECT_INTERVAL,
        }
    }
}

impl RetryBackoff {
    /// The wait before the next attempt; the one after it is longer.
    pub fn next_wait(&mut self) -> Duration {
        let wait = self.next;
        self.next = (self.next * 2).min(RECONNECT_MAX);
        wait
    }
}

/// Runs `open` with ALSA's error messages on this thread caught instead of printed, and logs what
/// was caught at debug level (see the module docs).
#[cfg(target_os = "linux")]
pub fn quiet_alsa<T>(open: impl FnOnce() -> T) -> T {
    // A fresh buffer each time (the previous one is dropped): nothing accumulates.
    let caught = alsa::Output::local_error_handler();
    let r = open();
    match caught {
        Ok(buf) => {
            let text = buf.borrow().to_string();
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                log::debug!("alsa: {line}");
            }
        }
        Err(e) => log::debug!("alsa: cannot catch its messages: {e}"),
    }
    r
}

/// Runs `open` (no ALSA on this platform).
#[cfg(not(target_os = "linux"))]
pub fn quiet_alsa<T>(open: impl FnOnce() -> T) -> T {
    open()
}

enum Msg {
    Cue(Cue),
    Volumes(Volumes),
    Music(usize),
}

/// The mixer as a rodio source: pulls cues at each block boundary, renders a block, hands out
/// its samples.
pub struct MixerSource {
    mixer: Mixer,
    rx: Receiver<Msg>,
    block: Vec<f32>,
    at: usize,
    /// Samples handed to the device so far (for the latency measurement).
    played: Arc<AtomicU64>,
}

impl MixerSource {
    fn fill(&mut self) {
        while let Ok(m) = self.rx.try_recv() {
            match m {
                Msg::Cue(c) => self.mixer.cue(&c),
                Msg::Volumes(v) => self.mixer.set_volumes(v),
                Msg::Music(t) => self.mixer.set_music(t),
            }
        }
        self.mixer.render(&mut self.block);
        self.at = 0;
    }
}

impl Iterator for MixerSource {
    type Item = rodio::Sample;
    fn next(&mut self) -> Option<rodio::Sample> {
        if self.at >= self.block.len() {
            self.fill();
        }
        let s = self.block[self.at];
        self.at += 1;
        self.played.fetch_add(1, Ordering::Relaxed);
        Some(s)
    }
}

impl rodio::Source for MixerSource {
    fn current_span_len(&self) -> Option<usize> {
        None
    }
    fn channels(&self) -> rodio::ChannelCount {
        rodio::ChannelCount::MIN.saturating_add(1)
    }
    fn sample_rate(&self) -> rodio::SampleRate {
        rodio::SampleRate::MIN.saturating_add(OUTPUT_RATE - 1)
    }
    fn total_duration(&self) -> Option<Duration> {
        None
    }
}

/// An open device: the rodio sink and the sending end of the cue channel.
struct Output {
    _sink: rodio::MixerDeviceSink,
    tx: SyncSender<Msg>,
    lost: Arc<AtomicBool>,
    played: Arc<AtomicU64>,
}

fn open(bank: &Arc<Bank>, volumes: Volumes, music: bool, track: usize) -> Result<Output, String> {
    let lost = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&lost);
    let mut sink = quiet_alsa(|| {
        rodio::DeviceSinkBuilder::from_default_device()
            .map_err(|e| e.to_string())?
            .with_error_callback(move |e| {
                log::warn!("audio device error: {e}");
                flag.store(true, Ordering::Relaxed);
            })
            .open_stream()
            .map_err(|e| e.to_string())
    })?;
    sink.log_on_drop(false);
    let (tx, rx) = sync_channel(CHANNEL_CAPACITY);
    let played = Arc::new(AtomicU64::new(0));
    sink.mixer().add(MixerSource {
        mixer: Mixer::new(Arc::clone(bank), volumes, music).starting_track(track),
        rx,
        block: vec![0.0; 2 * BLOCK_FRAMES],
        at: 2 * BLOCK_FRAMES,
        played: Arc::clone(&played),
    });
    Ok(Output {
        _sink: sink,
        tx,
        lost,
        played,
    })
}

/// The game's sound: event mapping on the game thread, the mixer on the device (or nothing).
pub struct GameAudio {
    bank: Arc<Bank>,
    map: SoundMap,
    volumes: Volumes,
    music: bool,
    output: Option<Output>,
    retry_at: Option<Instant>,
    backoff: RetryBackoff,
    cues: Vec<Cue>,
    /// Cues made so far (device or not).
    pub cues_made: u64,
    /// Cues dropped because the channel was full or the device gone.
    pub cues_dropped: u64,
}

impl GameAudio {
    /// Opens the default device; without one, runs silently (one log line) and keeps counting.
    pub fn new(bank: Arc<Bank>, map: SoundMap, volumes: Volumes, music: bool) -> GameAudio {
        let output = match open(&bank, volumes, music, map.music) {
            Ok(o) => Some(o),
            Err(e) => {
                log::warn!("no audio device ({e}): running without sound");
                None
            }
        };
        let mut backoff = RetryBackoff::default();
        GameAudio {
            retry_at: output
                .is_none()
                .then(|| Instant::now() + backoff.next_wait()),
            backoff,
            bank,
            map,
            volumes,
            music,
            output,
            cues: Vec::with_capacity(64),
            cues_made: 0,
            cues_dropped: 0,
        }
    }

    /// Audio that never opens a device (tests, `--no-sound`-like uses).
    pub fn silent(bank: Arc<Bank>, map: SoundMap, volumes: Volumes) -> GameAudio {
        GameAudio {
            bank,
            map,
            volumes,
            music: false,
            output: None,
            retry_at: None,
            backoff: RetryBackoff::default(),
            cues: Vec::with_capacity(64),
            cues_made: 0,
            cues_dropped: 0,
        }
    }

    /// Whether a device is playing.
    pub fn playing(&self) -> bool {
        self.output.is_some()
    }

    /// Samples the device has taken from the mixer so far (0 without a device).
    pub fn samples_played(&self) -> u64 {
        self.output
            .as_ref()
            .map_or(0, |o| o.played.load(Ordering::Relaxed))
    }

    /// Replaces the level's surface map and music (after a level swap): another music track
    /// crossfades in.
    pub fn set_map(&mut self, map: SoundMap) {
        if map.music != self.map.music {
            if let Some(o) = &self.output {
                let _ = o.tx.try_send(Msg::Music(map.music));
            }
        }
        self.map = map;
    }

    /// Changes the volumes.
    pub fn set_volumes(&mut self, v: Volumes) {
        self.volumes = v;
        if let Some(o) = &self.output {
            let _ = o.tx.try_send(Msg::Volumes(v));
        }
    }

    /// One frame: the frame's events at `hero`, heard from `camera`, sent to the mixer.
    pub fn frame(
        &mut self,
        events: &[(u64, MoveEvent)],
        play: &[(u64, crate::sim::PlayEvent)],
        world: &[(u64, crate::sim::WorldEvent, DVec2)],
        hero: DVec2,
        camera: DVec2,
    ) {
        if self
            .output
            .as_ref()
            .is_some_and(|o| o.lost.load(Ordering::Relaxed))
        {
            log::warn!("audio device lost: running without sound, retrying");
            self.output = None;
            self.backoff = RetryBackoff::default();
            self.retry_at = Some(Instant::now() + self.backoff.next_wait());
        }
        if self.output.is_none() && self.retry_at.is_some_and(|t| Instant::now() >= t) {
            match open(&self.bank, self.volumes, self.music, self.map.music) {
                Ok(o) => {
                    log::info!("audio device opened");
                    self.output = Some(o);
                    self.retry_at = None;
                }
                Err(e) => {
                    let wait = self.backoff.next_wait();
                    log::debug!("still no audio device ({e}); next look in {wait:?}");
                    self.retry_at = Some(Instant::now() + wait);
                }
            }
        }
        self.cues.clear();
        for (_, e) in events {
            cues(&self.map, e, hero, camera, &mut self.cues);
        }
        for (_, e) in play {
            super::events::play_cues(e, hero, camera, &mut self.cues);
        }
        for (_, e, at) in world {
            super::events::world_cues(e, *at, camera, &mut self.cues);
        }
        self.cues_made += self.cues.len() as u64;
        match &self.output {
            Some(o) => {
                for c in &self.cues {
                    match o.tx.try_send(Msg::Cue(*c)) {
                        Ok(()) => {}
                        Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
                            self.cues_dropped += 1
                        }
                    }
                }
            }
            None => self.cues_dropped += self.cues.len() as u64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_retry_wait_doubles_up_to_its_cap() {
        let mut b = RetryBackoff::default();
        let waits: Vec<u64> = (0..8).map(|_| b.next_wait().as_secs()).collect();
        assert_eq!(waits, vec![2, 4, 8, 16, 32, 32, 32, 32]);
    }
}
