//! `tessera sim`: run a level headless with a replay, optionally writing the per-frame trace.
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use tessera::level::TuningSource;
use tessera::movement::Actions;
use tessera::sim::{load_world, ReplayDriver, TraceFrame, WorldFiles, TICK_HZ};

/// Frames run without a replay and without `--frames`: five seconds.
const DEFAULT_FRAMES: u64 = 5 * TICK_HZ as u64;

/// The `sim` subcommand's arguments.
#[derive(Debug)]
pub struct SimArgs {
    pub files: WorldFiles,
    pub frames: Option<u64>,
    pub trace: Option<PathBuf>,
    pub audio: Option<PathBuf>,
}

/// Loads everything (so a bad file fails before anything runs), runs, prints the summary.
pub fn run(args: &SimArgs) -> anyhow::Result<ExitCode> {
    let loaded = load_world(&args.files)?;
    let mut world = loaded.world;
    let mut driver = ReplayDriver::new(loaded.replay.as_ref());
    let frames = args
        .frames
        .or((!driver.is_empty()).then(|| driver.len()))
        .unwrap_or(DEFAULT_FRAMES);
    for w in world.warnings() {
        eprintln!("warning: {}: {w}", loaded.level_path.display());
    }
    let mut trace = args.trace.as_deref().map(TraceWriter::create).transpose()?;
    let mut audio = match &args.audio {
        Some(_) => {
            let assets = tessera::audio::AudioAssets::load(&args.files.data)?;
            Some(tessera::audio::offline::OfflineRender::new(
                std::sync::Arc::new(assets.bank),
                tessera::audio::events::SoundMap::new(&assets.materials, &world.level()),
                tessera::audio::mixer::Volumes::default(),
                true,
            ))
        }
        None => None,
    };

    let mut stats = StepStats::default();
    for _ in 0..frames {
        let start = Instant::now();
        driver.step(&mut world, Actions::default());
        stats.add(start.elapsed(), world.hero_contacts_this_step() > 0);
        if let Some(t) = trace.as_mut() {
            t.write(&world.trace_frame())?;
        }
        if let Some(a) = audio.as_mut() {
            let hero = world.hero().body.pos;
            let placed: Vec<_> = world.placed_events().collect();
            a.tick(
                &world.last_report().events,
                world.play_events(),
                &placed,
                hero,
                hero,
            );
        }
    }
    if let (Some(a), Some(path)) = (audio, &args.audio) {
        tessera::audio::offline::write_wav(path, &a.finish())?;
    }
    if let Some(t) = trace {
        t.finish()?;
    }

    let replay_path = args
        .files
        .replay
        .as_deref()
        .map(|p| args.files.data.user_file(p));
    let summary = Summary {
        level: &loaded.level_path,
        level_name: &loaded.level.name,
        polygons: loaded.level.polygons.len(),
        tuning: loaded.tuning_source,
        replay: replay_path.as_deref(),
        frames,
        last: world.trace_frame(),
        play: play_line(&world),
        stats,
        trace: args.trace.as_deref(),
    };
    print!("{summary}");
    Ok(ExitCode::SUCCESS)
}

/// The rules of play's outcome: `goal reached at tick N (T s), deaths D, health H`, or that
/// the goal was not reached (or that the level has none).
fn play_line(world: &tessera::sim::World) -> String {
    let p = world.play();
    let goal = match (world.goal_tick(), world.level().goal) {
        (Some(t), _) => format!(
            "goal reached at tick {t} ({:.3} s)",
            world.play_ticks() as f64 / f64::from(TICK_HZ)
        ),
        (None, Some(_)) => "goal not reached".to_string(),
        (None, None) => "no goal".to_string(),
    };
    format!("{goal}, deaths {}, health {}", p.deaths, p.health)
}

/// Per-step timing and contact counts.
#[derive(Debug, Default)]
struct StepStats {
    steps: u64,
    total: Duration,
    max: Duration,
    contact_frames: u64,
}

impl StepStats {
    fn add(&mut self, took: Duration, contact: bool) {
        self.steps += 1;
        self.total += took;
        self.max = self.max.max(took);
        self.contact_frames += u64::from(contact);
    }
    fn mean_us(&self) -> f64 {
        if self.steps == 0 {
            0.0
        } else {
            self.total.as_secs_f64() * 1e6 / self.steps as f64
        }
    }
}

/// The trace file: one JSON object per line; write errors name the file.
struct TraceWriter {
    path: PathBuf,
    out: BufWriter<File>,
}

impl TraceWriter {
    fn create(path: &Path) -> anyhow::Result<Self> {
        let file = File::create(path)
            .with_context(|| format!("{}: cannot create the trace file", path.display()))?;
        Ok(TraceWriter {
            path: path.to_path_buf(),
            out: BufWriter::new(file),
        })
    }
    fn write(&mut self, frame: &TraceFrame) -> anyhow::Result<()> {
        serde_json::to_writer(&mut self.out, frame)
            .map_err(std::io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"))
            .with_context(|| format!("{}: cannot write the trace", self.path.display()))
    }
    fn finish(mut self) -> anyhow::Result<()> {
        self.out
            .flush()
            .with_context(|| format!("{}: cannot write the trace", self.path.display()))
    }
}

/// What `tessera sim` prints.
struct Summary<'a> {
    level: &'a Path,
    level_name: &'a str,
    polygons: usize,
    tuning: TuningSource,
    replay: Option<&'a Path>,
    frames: u64,
    last: TraceFrame,
    /// The rules of play's outcome.
    play: String,
    stats: StepStats,
    trace: Option<&'a Path>,
}

impl fmt::Display for Summary<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let l = &self.last;
        writeln!(
            f,
            "level:    {} (\"{}\", {} polygons)",
            self.level.display(),
            self.level_name,
            self.polygons
        )?;
        writeln!(f, "tuning:   {}", self.tuning)?;
        match self.replay {
            Some(r) => writeln!(f, "replay:   {}", r.display())?,
            None => writeln!(f, "replay:   none (idle)")?,
        }
        writeln!(
            f,
            "frames:   {} ({:.3} s at {TICK_HZ} Hz)",
            self.frames,
            self.frames as f64 / f64::from(TICK_HZ)
        )?;
        writeln!(f, "position: ({:.6}, {:.6})", l.pos[0], l.pos[1])?;
        writeln!(f, "velocity: ({:.6}, {:.6})", l.vel[0], l.vel[1])?;
        writeln!(
            f,
            "state:    {}{}",
            l.state,
            if l.grounded { " (grounded)" } else { "" }
        )?;
        writeln!(f, "game:     {}", self.play)?;
        writeln!(
            f,
            "contacts: {} of {} frames",
            self.stats.contact_frames, self.frames
        )?;
        writeln!(
            f,
            "step:     mean {:.1} µs, max {:.1} µs",
            self.stats.mean_us(),
            self.stats.max.as_secs_f64() * 1e6
        )?;
        if let Some(t) = self.trace {
            writeln!(f, "trace:    {} ({} lines)", t.display(), self.frames)?;
        }
        Ok(())
    }
}
