//! `tessera` / `tessera play`: play a level in a window.
use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::TypedValueParser;
use clap::Args;
use tessera::app::{run_game, GameOptions};
use tessera::render::Msaa;

/// Arguments of `tessera play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The level file to play on its own (a sandbox, or one level of the campaign); without it
    /// (and without --editor or --replay) the game starts at the campaign's title screen
    /// (levels/campaign.ron in the data directory), else plays levels/default.ron.
    #[arg(long, value_name = "FILE")]
    pub level: Option<PathBuf>,
    /// Play this campaign file from its title screen (default: levels/campaign.ron when no
    /// --level, --editor or --replay is given).
    #[arg(long, value_name = "FILE", conflicts_with = "level")]
    pub campaign: Option<PathBuf>,
    /// A tuning file; default: assets/tuning.ron in the data directory if it exists, else the
    /// built-in defaults.
    #[arg(long, value_name = "FILE")]
    pub tuning: Option<PathBuf>,
    /// A key/gamepad bindings file; default: the bindings chosen in game (the user's config
    /// directory), else assets/bindings.ron in the data directory if present.
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
    /// Write each frame's times (since the previous frame, and its simulation, UI, render and
    /// present parts) to this file, one line a frame (benches/editor_frames.sh reads it).
    #[arg(long, value_name = "FILE")]
    pub frame_log: Option<PathBuf>,
    /// Do not wait for the display's vertical blank.
    #[arg(long)]
    pub no_vsync: bool,
    /// Multisampling: auto (4× on a GPU, none on a CPU rasteriser such as lavapipe, where 4× MSAA
    /// alone costs about 15 ms a frame), or force 4 (smooth edges) or 1 (faster).
    #[arg(long, value_name = "auto|1|4", default_value = "auto", value_parser = clap::builder::PossibleValuesParser::new(["auto", "1", "4"]).map(|s| s.parse::<Msaa>().unwrap_or_default()))]
    pub msaa: Msaa,
    /// Draw the hero with this character (assets/characters/*.ron) instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub character: Option<PathBuf>,
    /// Start with the level editor open (Tab closes and opens it).
    #[arg(long)]
    pub editor: bool,
    /// Window size in logical pixels, WIDTHxHEIGHT.
    #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = parse_size)]
    pub size: (u32, u32),
}

impl Default for PlayArgs {
    fn default() -> Self {
        PlayArgs {
            level: None,
            campaign: None,
            tuning: None,
            bindings: None,
            replay: None,
            record: None,
            exit_after: None,
            frame_log: None,
            no_vsync: false,
            msaa: Msaa::Auto,
            editor: false,
            character: None,
            size: (1280, 720),
        }
    }
}

/// Plays until the window closes (or `--exit-after` passes).
pub fn play(data_dir: Option<PathBuf>, args: &PlayArgs) -> anyhow::Result<ExitCode> {
    let mut opts = GameOptions {
        data_dir,
        level: args.level.clone(),
        ..GameOptions::default()
    };
    opts.tuning = args.tuning.clone();
    opts.bindings = args.bindings.clone();
    opts.replay = args.replay.clone();
    opts.record = args.record.clone();
    opts.exit_after = args.exit_after;
    opts.frame_log = args.frame_log.clone();
    opts.vsync = !args.no_vsync;
    opts.window_size = args.size;
    opts.msaa = args.msaa;
    opts.editor = args.editor;
    opts.character = args.character.clone();
    opts.campaign = args.campaign.clone().or_else(|| {
        let plain = args.level.is_none() && !args.editor && args.replay.is_none();
        let default = std::path::Path::new(tessera::level::campaign::CAMPAIGN_FILE);
        (plain
            && opts
                .data()
                .find_optional(tessera::level::campaign::CAMPAIGN_FILE)
                .is_some())
        .then(|| default.to_path_buf())
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Wrapper {
        #[command(flatten)]
        play: PlayArgs,
    }

    fn parse(args: &[&str]) -> Result<PlayArgs, clap::Error> {
        Wrapper::try_parse_from(std::iter::once("play").chain(args.iter().copied())).map(|w| w.play)
    }

    #[test]
    fn msaa_defaults_to_auto_and_accepts_1_and_4() {
        assert_eq!(parse(&[]).unwrap().msaa, Msaa::Auto);
        assert_eq!(PlayArgs::default().msaa, Msaa::Auto);
        assert_eq!(parse(&["--msaa", "auto"]).unwrap().msaa, Msaa::Auto);
        assert_eq!(parse(&["--msaa", "1"]).unwrap().msaa, Msaa::Samples(1));
        assert_eq!(parse(&["--msaa", "4"]).unwrap().msaa, Msaa::Samples(4));
        for bad in ["2", "8", "0", "", "fast"] {
            assert!(parse(&["--msaa", bad]).is_err(), "{bad:?}");
        }
    }
}
