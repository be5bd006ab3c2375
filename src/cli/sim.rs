//! `tessera sim`: run a level headless with a replay, optionally writing the per-frame trace.
use std::fmt;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context};
use tessera::level::load_level;
use tessera::movement::Actions;
use tessera::sim::{load_replay, TraceFrame, World, TICK_HZ};

use super::tuning;

/// Frames run without a replay and without `--frames`: five seconds.
const DEFAULT_FRAMES: u64 = 5 * TICK_HZ as u64;

/// The `sim` subcommand's arguments.
#[derive(Debug)]
pub struct SimArgs {
    pub level: PathBuf,
    pub replay: Option<PathBuf>,
    pub tuning: Option<PathBuf>,
    pub frames: Option<u64>,
    pub trace: Option<PathBuf>,
}

/// Loads everything (so a bad file fails before anything runs), runs, prints the summary.
pub fn run(args: &SimArgs) -> anyhow::Result<ExitCode> {
    let level = load_level(&args.level)?;
    let (tuning, tuning_source) = tuning::resolve(args.tuning.as_deref())?;
    let replay = args.replay.as_deref().map(load_replay).transpose()?;
    let frames = args
        .frames
        .or(replay.as_ref().map(|r| r.len()))
        .unwrap_or(DEFAULT_FRAMES);
    let mut world =
        World::new(&level, &tuning).map_err(|e| anyhow!("{}: {e}", args.level.display()))?;
    for w in world.warnings() {
        eprintln!("warning: {}: {w}", args.level.display());
    }
    let mut trace = args.trace.as_deref().map(TraceWriter::create).transpose()?;

    let mut actions = replay
        .iter()
        .flat_map(|r| r.iter())
        .chain(std::iter::repeat(Actions::default()));
    let mut stats = StepStats::default();
    for _ in 0..frames {
        let a = actions.next().unwrap_or_default();
        let start = Instant::now();
        world.step(&a);
        stats.add(start.elapsed(), world.hero_contacts_this_step() > 0);
        if let Some(t) = trace.as_mut() {
            t.write(&world.trace_frame())?;
        }
    }
    if let Some(t) = trace {
        t.finish()?;
    }

    let summary = Summary {
        level: &args.level,
        level_name: &level.name,
        polygons: level.polygons.len(),
        tuning: tuning_source,
        replay: args.replay.as_deref(),
        frames,
        last: world.trace_frame(),
        stats,
        trace: args.trace.as_deref(),
    };
    print!("{summary}");
    Ok(ExitCode::SUCCESS)
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
    tuning: String,
    replay: Option<&'a Path>,
    frames: u64,
    last: TraceFrame,
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
