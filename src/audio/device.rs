//! Device output: the [`Mixer`] runs inside a rodio `Source` on the audio thread, fed with cues
//! from the game thread through a bounded channel (`try_send`: the game loop never blocks; a
//! full channel drops the cue and counts it).
//!
//! No device: [`GameAudio`] still maps every event to cues and counts them (the same accounting),
//! plays nothing, and logs one line. Device lost (rodio's error callback reports a stream error):
//! the game keeps running silently and [`GameAudio::frame`] tries to reopen the default device
//! every [`RECONNECT_INTERVAL`]; a reopened device starts a fresh mixer (the music restarts).
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
/// How often a lost or missing device is looked for again.
pub const RECONNECT_INTERVAL: Duration = Duration::from_secs(2);

enum Msg {
    Cue(Cue),
    Volumes(Volumes),
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

fn open(bank: &Arc<Bank>, volumes: Volumes, music: bool) -> Result<Output, String> {
    let lost = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&lost);
    let mut sink = rodio::DeviceSinkBuilder::from_default_device()
        .map_err(|e| e.to_string())?
        .with_error_callback(move |e| {
            log::warn!("audio device error: {e}");
            flag.store(true, Ordering::Relaxed);
        })
        .open_stream()
        .map_err(|e| e.to_string())?;
    sink.log_on_drop(false);
    let (tx, rx) = sync_channel(CHANNEL_CAPACITY);
    let played = Arc::new(AtomicU64::new(0));
    sink.mixer().add(MixerSource {
        mixer: Mixer::new(Arc::clone(bank), volumes, music),
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
    cues: Vec<Cue>,
    /// Cues made so far (device or not).
    pub cues_made: u64,
    /// Cues dropped because the channel was full or the device gone.
    pub cues_dropped: u64,
}

impl GameAudio {
    /// Opens the default device; without one, runs silently (one log line) and keeps counting.
    pub fn new(bank: Arc<Bank>, map: SoundMap, volumes: Volumes, music: bool) -> GameAudio {
        let output = match open(&bank, volumes, music) {
            Ok(o) => Some(o),
            Err(e) => {
                log::warn!("no audio device ({e}): running without sound");
                None
            }
        };
        GameAudio {
            retry_at: output
                .is_none()
                .then(|| Instant::now() + RECONNECT_INTERVAL),
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

    /// Replaces the level's surface map (after a level swap).
    pub fn set_map(&mut self, map: SoundMap) {
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
    pub fn frame(&mut self, events: &[(u64, MoveEvent)], hero: DVec2, camera: DVec2) {
        if self
            .output
            .as_ref()
            .is_some_and(|o| o.lost.load(Ordering::Relaxed))
        {
            log::warn!("audio device lost: running without sound, retrying");
            self.output = None;
            self.retry_at = Some(Instant::now() + RECONNECT_INTERVAL);
        }
        if self.output.is_none() && self.retry_at.is_some_and(|t| Instant::now() >= t) {
            match open(&self.bank, self.volumes, self.music) {
                Ok(o) => {
                    log::info!("audio device opened");
                    self.output = Some(o);
                    self.retry_at = None;
                }
                Err(_) => self.retry_at = Some(Instant::now() + RECONNECT_INTERVAL),
            }
        }
        self.cues.clear();
        for (_, e) in events {
            cues(&self.map, e, hero, camera, &mut self.cues);
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
