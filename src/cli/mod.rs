//! Command-line arguments and the dispatch to each subcommand.
//!
//! Binary-only code: it may use `anyhow` (the library never does in the simulation layers) and
//! prints to stdout/stderr; everything it does is a thin wrapper over `tessera::level` and
//! `tessera::sim`.
mod check;
mod model;
mod play;
mod sim;
mod solve;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use tessera::level::DataDir;
use tessera::sim::WorldFiles;

pub use check::Kind;

/// Tessera: a 2D side-scroller with arbitrary level geometry.
///
/// Without a subcommand, plays the default level (levels/default.ron).
///
/// Data files (levels/, assets/) are found in: --data-dir or TESSERA_DATA if given, else the
/// executable's directory, then the working directory.
#[derive(Debug, Parser)]
#[command(name = "tessera", version, about)]
pub struct Cli {
    /// The directory holding assets/ and levels/ (default: TESSERA_DATA, else beside the
    /// executable, else the working directory).
    #[arg(long, value_name = "DIR", global = true)]
    data_dir: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play a level in a window (the default command, on levels/default.ron).
    Play(play::PlayArgs),
    /// Render a level offscreen (no window) to a PNG.
    Render {
        /// The level file; default: levels/default.ron in the data directory.
        #[arg(long, value_name = "FILE")]
        level: Option<PathBuf>,
        /// An input script that places the hero (with --frame).
        #[arg(long, value_name = "FILE")]
        replay: Option<PathBuf>,
        /// A tuning file; default: assets/tuning.ron in the data directory if it exists, else the
        /// built-in defaults.
        #[arg(long, value_name = "FILE")]
        tuning: Option<PathBuf>,
        /// The frame of the replay to show; default: the replay's last frame.
        #[arg(long, value_name = "N")]
        frame: Option<u64>,
        /// Image size in pixels, WIDTHxHEIGHT.
        #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = play::parse_size)]
        size: (u32, u32),
        /// The PNG to write.
        #[arg(long, value_name = "shot.png")]
        out: PathBuf,
        /// Draw the hero with this character (assets/characters/*.ron).
        #[arg(long, value_name = "FILE")]
        character: Option<PathBuf>,
    },
    /// Run a level headless and print a summary (frames, final state, contacts, time per step).
    Sim {
        /// The level file; default: levels/default.ron in the data directory.
        #[arg(long, value_name = "FILE")]
        level: Option<PathBuf>,
        /// An input script; without one the hero stands idle.
        #[arg(long, value_name = "FILE")]
        replay: Option<PathBuf>,
        /// A tuning file; default: assets/tuning.ron in the data directory if it exists, else the
        /// built-in defaults.
        #[arg(long, value_name = "FILE")]
        tuning: Option<PathBuf>,
        /// Number of frames (120 per second); default: the replay's length, or 600 without one.
        /// Frames past the end of the replay are idle.
        #[arg(long, value_name = "N")]
        frames: Option<u64>,
        /// Write one JSON line per frame (the state after that frame's input) to this file.
        #[arg(long, value_name = "OUT.jsonl")]
        trace: Option<PathBuf>,
        /// Render the run's sound offline (no device) to this 16-bit stereo 48 kHz WAV, through
        /// the game's mixer: every tick's events, placed at the hero, heard from the hero.
        #[arg(long, value_name = "OUT.wav")]
        audio: Option<PathBuf>,
    },
    /// Search a level for a route from the spawn to the goal under human constraints (inputs
    /// change at most every 4 ticks), print it with each input change's slack, and write it as
    /// a replay. Exit 1 if no route is found (with the furthest point reached), 3 if the level has no goal.
    ///
    /// The budget is counted in simulated ticks, not wall-clock time: one second of budget is
    /// 1 000 000 ticks, so the same level and budget give the same route on every machine.
    Solve {
        /// The level file.
        #[arg(value_name = "LEVEL")]
        level: PathBuf,
        /// Write the route as a replay here.
        #[arg(long, value_name = "REPLAY")]
        out: Option<PathBuf>,
        /// The search's budget in nominal seconds (× 1 000 000 simulated ticks).
        #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
        budget: f64,
        /// A tuning file; default: assets/tuning.ron in the data directory if it exists, else
        /// the built-in defaults.
        #[arg(long, value_name = "FILE")]
        tuning: Option<PathBuf>,
        /// Skip the slack (each input change tried earlier and later).
        #[arg(long)]
        no_slack: bool,
        /// The heuristic's weight: 1 is A* (the fastest route, the most states tried); more
        /// is greedier (a route found sooner, a little slower).
        #[arg(long, value_name = "W", default_value_t = tessera::solve::Config::default().weight)]
        weight: f64,
    },
    /// Describe a skinned model (.glb): mesh parts, joints, clips, which clip plays each role of
    /// the hero's animation controller (with fallbacks), and what the loader changed.
    Model {
        /// The model file.
        #[arg(value_name = "FILE")]
        model: PathBuf,
        /// A character file (assets/characters/*.ron) whose role -> clip map to apply.
        #[arg(long, value_name = "FILE")]
        character: Option<PathBuf>,
        /// Also write a contact sheet: a row per role, its clip at four phases (offscreen).
        #[arg(long, value_name = "OUT.png")]
        sheet: Option<PathBuf>,
    },
    /// Validate level, replay, tuning and character files; stop with an error at the first bad
    /// one.
    ///
    /// The kind of each file is detected from its content: a top-level `polygons` field means a
    /// level, `segments` a replay, `model` a character, anything else a tuning file. Levels are also built into a
    /// simulation world (meshes, spawn point), so warnings such as a moved spawn are printed.
    Check {
        /// The files.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Treat every file as this kind instead of detecting it.
        #[arg(long, value_enum, default_value_t = Kind::Auto)]
        kind: Kind,
        /// Tuning used to build levels; default: assets/tuning.ron in the data directory if it
        /// exists, else the built-in defaults.
        #[arg(long, value_name = "FILE")]
        tuning: Option<PathBuf>,
    },
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    let data = DataDir::resolve(cli.data_dir.as_deref());
    match cli.command {
        None => play::play(cli.data_dir, &play::PlayArgs::default()),
        Some(Command::Play(args)) => play::play(cli.data_dir, &args),
        Some(Command::Render {
            level,
            replay,
            tuning,
            frame,
            size,
            out,
            character,
        }) => {
            let character = character
                .map(|c| tessera::anim::load_character(&data.user_file(&c)))
                .transpose()?;
            let files = WorldFiles {
                data,
                level,
                tuning,
                replay,
            };
            // Signs name the default keyboard keys (a still has no player's bindings).
            let bindings = tessera::input::Bindings::default();
            tessera::render::render_level_to_png_with_signs(
                &files,
                frame,
                size,
                &out,
                character.as_ref(),
                &|t| tessera::input::sign_text(t, &bindings, false),
            )?;
            println!("wrote {}", out.display());
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Sim {
            level,
            replay,
            tuning,
            frames,
            trace,
            audio,
        }) => sim::run(&sim::SimArgs {
            files: WorldFiles {
                data,
                level,
                tuning,
                replay,
            },
            frames,
            trace,
            audio,
        }),
        Some(Command::Solve {
            level,
            out,
            budget,
            tuning,
            no_slack,
            weight,
        }) => solve::run(&solve::SolveArgs {
            files: WorldFiles {
                data,
                level: Some(level),
                tuning,
                replay: None,
            },
            out,
            budget,
            no_slack,
            weight,
        }),
        Some(Command::Check {
            files,
            kind,
            tuning,
        }) => check::run(&data, &files, kind, tuning.as_deref()),
        Some(Command::Model {
            model,
            character,
            sheet,
        }) => model::run(
            &data.user_file(&model),
            character.map(|c| data.user_file(&c)).as_deref(),
            sheet.as_deref(),
        ),
    }
}
