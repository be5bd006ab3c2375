//! `tessera` / `tessera play`: play a level in a window.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::TypedValueParser;
use clap::Args;
use tessera::app::{run_game, GameOptions};
use tessera::level::DEFAULT_LEVEL_PATH;

/// Arguments of `tessera play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The level file.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_LEVEL_PATH)]
    pub level: PathBuf,
    /// A tuning file; default: the shipped defaults.
    #[arg(long, value_name = "FILE")]
    pub tuning: Option<PathBuf>,
    /// A key/gamepad bindings file; default: assets/bindings.ron if present.
    #[arg(long, value_name = "FILE")]
    pub bindings: Option<PathBuf>,
    /// Play this input script from the first tick (live input takes over at its end).
    #[arg(long, value_name = "FILE")]
    pub replay: Option<PathBuf>,
    /// Save the actions of every tick played to this replay file on exit.
    #[arg(long, value_name = "FILE")]
    pub record: Option<PathBuf>,
    /// Quit cleanly after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub exit_after: Option<f64>,
    /// Do not wait for the display's vertical blank.
    #[arg(long)]
    pub no_vsync: bool,
    /// Multisampling: 4 (smooth edges, the default) or 1 (much faster on software Vulkan).
    #[arg(long, value_name = "1|4", default_value_t = 4, value_parser = clap::builder::PossibleValuesParser::new(["1", "4"]).map(|s| s.parse::<u32>().unwrap_or(4)))]
    pub msaa: u32,
    /// Window size in logical pixels, WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
}

impl Default for PlayArgs {
    fn default() -> Self {
        PlayArgs {
            level: DEFAULT_LEVEL_PATH.into(),
            tuning: None,
            bindings: None,
            replay: None,
            record: None,
            exit_after: None,
            no_vsync: false,
            msaa: 4,
            size: (1280, 720),
        }
    }
}

/// Plays until the window closes (or `--exit-after` passes).
pub fn play(args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let mut opts = GameOptions::new(&args.level);
    opts.tuning = args.tuning.clone();
    opts.bindings = args.bindings.clone();
    opts.replay = args.replay.clone();
    opts.record = args.record.clone();
    opts.exit_after = args.exit_after;
    opts.vsync = !args.no_vsync;
    opts.window_size = args.size;
    opts.msaa = args.msaa;
    run_game(opts)?;
    Ok(ExitCode::SUCCESS)
}

/// Parses `WIDTHxHEIGHT` (each 1..=16384).
pub fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected WIDTHxHEIGHT, got `{s}`"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=16384).contains(n))
    };
    match (parse(w), parse(h)) {
        (Some(w), Some(h)) => Ok((w, h)),
        _ => Err(format!(
            "expected WIDTHxHEIGHT with sizes from 1 to 16384, got `{s}`"
        )),
    }
}
