//! The `tessera` command line: play (the default), `render` (offscreen PNG), `sim` (headless run)
//! and `check` (validate data files).
//!
//! This binary is the edge: errors from the library's typed enums are turned into one line on
//! stderr (`error: FILE:LINE:COL: what`) and a non-zero exit status, with `anyhow` used only in the
//! binary. Exit status: 0 success, 1 a command failed (bad file, failed run, no display or GPU),
//! 2 usage errors.
mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
