//! `tessera check FILE...`: validate data files, detecting each file's kind from its content.
use std::path::Path;
use std::process::ExitCode;

use tessera::level::{
    design_warnings, parse_level, parse_ron, parse_tuning, read_text, resolve_tuning, DataDir,
};
use tessera::movement::Tuning;
use tessera::sim::{build_world, parse_replay};

/// What a data file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Kind {
    /// Detect from the content: `polygons` → level, `segments` → replay, `model` → character,
    /// `levels` → campaign, else tuning.
    Auto,
    /// A level (levels/*.ron).
    Level,
    /// A replay (input script).
    Replay,
    /// A movement tuning file (assets/tuning.ron).
    Tuning,
    /// A character file (assets/characters/*.ron): its model is loaded and every role resolved.
    Character,
    /// A campaign (levels/campaign.ron): every level it lists loads and has a goal.
    Campaign,
}

/// Checks `files` in order; prints `ok: FILE (...)` for each good one and fails on the first bad
/// one.
pub fn run(
    data: &DataDir,
    files: &[std::path::PathBuf],
    kind: Kind,
    tuning: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let (tuning, _) = resolve_tuning(data, tuning)?;
    for path in files {
        let path = &data.user_file(path);
        let what = check_file(data, path, kind, &tuning)?;
        println!("ok: {} ({what})", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Validates one file; returns a short description of what it holds.
fn check_file(data: &DataDir, path: &Path, kind: Kind, tuning: &Tuning) -> anyhow::Result<String> {
    let text = read_text(path)?;
    let kind = match kind {
        Kind::Auto => detect(path, &text)?,
        k => k,
    };
    match kind {
        Kind::Level => {
            let level = parse_level(path, &text)?;
            let world = build_world(path, &level, tuning)?;
            for w in world.warnings() {
                eprintln!("warning: {}: {w}", path.display());
            }
            // Design mistakes: the level loads and plays, but not as meant.
            for w in design_warnings(&level, world.tuning().jump_height) {
                eprintln!("warning: {}: {w}", path.display());
            }
            // The agents' character files load and can play, as `play` would find them.
            let cast = tessera::view::Cast::load(&world, path, data)?;
            let mut summary = format!(
                "level \"{}\": {} polygons, {} ladders",
                level.name,
                level.polygons.len(),
                level.ladders.len()
            );
            // Doors and agents only where a level has them (older summaries stay as they were).
            for (n, what) in [
                (level.doors.len(), "doors"),
                (level.movers.len(), "movers"),
                (level.agents.len(), "agents"),
            ] {
                if n > 0 {
                    summary.push_str(&format!(", {n} {what}"));
                }
            }
            let files = cast.files().count();
            if files > 0 {
                summary.push_str(&format!(
                    " ({} drawn with {files} character file{})",
                    cast.members().count(),
                    if files == 1 { "" } else { "s" }
                ));
            }
            Ok(summary)
        }
        Kind::Replay => {
            let replay = parse_replay(path, &text)?;
            Ok(format!(
                "replay: {} frames, {} segments",
                replay.len(),
                replay.segments.len()
            ))
        }
        Kind::Character => {
            let c = tessera::anim::load_character(path)?;
            tessera::anim::HeroAnimator::for_character(&c)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            for n in c.model.notes.iter().chain(&c.notes) {
                eprintln!("warning: {}: {n}", path.display());
            }
            let fallbacks = c.mapping.iter().filter(|m| m.fallback.is_some()).count();
            Ok(format!(
                "character: {}, {} joints, {} clips, {fallbacks} roles falling back",
                c.model_path.display(),
                c.model.skeleton.len(),
                c.model.clips.len()
            ))
        }
        Kind::Campaign => {
            let c = tessera::level::campaign::Campaign::load(path)?;
            Ok(format!(
                "campaign \"{}\": {} levels",
                c.name,
                c.levels.len()
            ))
        }
        Kind::Tuning | Kind::Auto => {
            parse_tuning(path, &text)?;
            Ok("tuning".to_string())
        }
    }
}

/// The kind of a file from its top-level fields. Syntax errors are reported here, with position.
fn detect(path: &Path, text: &str) -> anyhow::Result<Kind> {
    let value: ron::Value = parse_ron(path, text)?;
    let has = |field: &str| match &value {
        ron::Value::Map(m) => m.get(&ron::Value::String(field.to_string())).is_some(),
        _ => false,
    };
    Ok(if has("polygons") {
        Kind::Level
    } else if has("segments") {
        Kind::Replay
    } else if has("model") {
        Kind::Character
    } else if has("levels") {
        Kind::Campaign
    } else {
        Kind::Tuning
    })
}
