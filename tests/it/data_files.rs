//! One data path and one tuning policy for every command: a tuning value edited in a copy of the
//! data directory has the same effect in `tessera sim`, in offscreen rendering
//! (`render::world_at_frame`, what `tessera render` draws) and on the play path (`app::load_game`
//! and `Game`), and the binary finds its data from any working directory.
use std::path::{Path, PathBuf};
use std::time::Duration;

use tessera::app::{load_game, GameOptions};
use tessera::level::DataDir;
use tessera::render::world_at_frame;
use tessera::sim::{WorldFiles, TICK_HZ};

use crate::common::{succeeds, tessera_command};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A copy of the shipped data directory (`assets/`, `levels/`) in a fresh scratch directory.
fn copy_of_data(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-data-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    for sub in ["assets", "levels"] {
        copy_dir(&root().join(sub), &d.join(sub));
    }
    d
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Two seconds of running right on the flat tiles level, as a replay file in `dir`.
const RUN: &str = "(segments: [(from: 0, to: 240, move: (1.0, 0.0), jump: false, crouch: false)])";
const LEVEL: &str = "levels/test/flat_tiles.ron";
const TICKS: u64 = 240;

/// Sets `run_speed` in the copy's `assets/tuning.ron` (the shipped file sets every field).
fn set_run_speed(data: &Path, speed: f64) {
    let path = data.join("assets/tuning.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let (before, after) = text
        .split_once("run_speed:")
        .expect("the shipped file sets run_speed");
    let rest = &after[after.find(',').unwrap()..];
    std::fs::write(&path, format!("{before}run_speed: {speed}{rest}")).unwrap();
}

/// The hero's x after the run, by `tessera sim` started in `/` with `--data-dir` (read exactly
/// from the last line of its trace: JSON numbers round-trip).
fn sim_x(data: &Path) -> f64 {
    let trace = data.join("trace.jsonl");
    succeeds(
        tessera_command()
            .args(["--data-dir", data.to_str().unwrap(), "sim"])
            .args(["--level", LEVEL, "--replay", "run.ron", "--trace"])
            .arg(&trace)
            .current_dir("/"),
    );
    let text = std::fs::read_to_string(&trace).unwrap();
    assert_eq!(text.lines().count() as u64, TICKS);
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    last["pos"][0].as_f64().unwrap()
}

fn files(data: &Path) -> WorldFiles {
    WorldFiles {
        level: Some(data.join(LEVEL)),
        replay: Some(data.join("run.ron")),
        ..WorldFiles::new(DataDir::at(data))
    }
}

/// The hero's x after the run, on the render path.
fn render_x(data: &Path) -> f64 {
    world_at_frame(&files(data), Some(TICKS))
        .unwrap()
        .hero()
        .body
        .pos
        .x
}

/// The hero's x after the run, on the play path: the game loaded as `tessera play` loads it, fed
/// one tick of wall time per frame.
fn play_x(data: &Path) -> f64 {
    let opts = GameOptions {
        data_dir: Some(data.to_path_buf()),
        level: Some(data.join(LEVEL)),
        replay: Some(data.join("run.ron")),
        ..GameOptions::default()
    };
    let (mut game, level) = load_game(&opts).unwrap();
    assert_eq!(level, data.join(LEVEL));
    let tick = Duration::from_secs_f64(1.0 / f64::from(TICK_HZ));
    while game.world().frame() < TICKS {
        game.frame(tick, 16.0 / 9.0);
    }
    assert_eq!(game.world().frame(), TICKS);
    game.world().hero().body.pos.x
}

#[test]
fn an_edited_tuning_file_changes_sim_render_and_play_alike() {
    let data = copy_of_data("tuning");
    std::fs::write(data.join("run.ron"), RUN).unwrap();
    let shipped = (sim_x(&data), render_x(&data), play_x(&data));
    assert_eq!(shipped.0.to_bits(), shipped.1.to_bits(), "{shipped:?}");
    assert_eq!(shipped.0.to_bits(), shipped.2.to_bits(), "{shipped:?}");

    set_run_speed(&data, 4.0);
    let edited = (sim_x(&data), render_x(&data), play_x(&data));
    assert_eq!(edited.0.to_bits(), edited.1.to_bits(), "{edited:?}");
    assert_eq!(edited.0.to_bits(), edited.2.to_bits(), "{edited:?}");
    // Two seconds at 4 m/s instead of the shipped 8: about half as far (the ramp-up differs).
    assert!(
        edited.0 < shipped.0 - 5.0,
        "run_speed 4 must run less far: {edited:?} vs {shipped:?}"
    );
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn without_a_tuning_file_every_path_uses_the_defaults() {
    let data = copy_of_data("no-tuning");
    std::fs::write(data.join("run.ron"), RUN).unwrap();
    let with_file = render_x(&data);
    std::fs::remove_file(data.join("assets/tuning.ron")).unwrap();
    // The shipped file is the defaults.
    assert_eq!(render_x(&data).to_bits(), with_file.to_bits());
    assert_eq!(sim_x(&data).to_bits(), with_file.to_bits());
    assert_eq!(play_x(&data).to_bits(), with_file.to_bits());
    std::fs::remove_dir_all(&data).unwrap();
}

#[test]
fn the_binary_finds_its_data_from_any_working_directory() {
    // TESSERA_DATA names the data directory; the default level comes from it.
    let data = copy_of_data("env");
    let stdout = succeeds(
        tessera_command()
            .args(["sim", "--frames", "10"])
            .env("TESSERA_DATA", &data)
            .current_dir("/"),
    );
    let expected = format!("level:    {}", data.join("levels/default.ron").display());
    assert!(stdout.contains(&expected), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "tuning:   {}",
            data.join("assets/tuning.ron").display()
        )),
        "{stdout}"
    );

    // Without either, a development build falls back to the crate's directory.
    succeeds(
        tessera_command()
            .args(["check", "levels/test/one_way.ron"])
            .env_remove("TESSERA_DATA")
            .current_dir("/"),
    );

    // A data directory without the default level: the error names every place looked in.
    std::fs::remove_file(data.join("levels/default.ron")).unwrap();
    let out = tessera_command()
        .args(["sim", "--frames", "10"])
        .env("TESSERA_DATA", &data)
        .current_dir("/")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.starts_with("error: levels/default.ron: not found; looked for "),
        "{stderr}"
    );
    assert!(
        stderr.contains(&data.join("levels/default.ron").display().to_string()),
        "{stderr}"
    );
    std::fs::remove_dir_all(&data).unwrap();
}

/// The renderer draws with the built-in material table and the audio loads the data directory's
/// `assets/materials.ron`: found through the same resolver, they are the same table, and every
/// material a shipped level names is in it.
#[test]
fn the_renderer_and_the_audio_share_one_material_table() {
    let data = DataDir::at(root());
    let path = data.find(tessera::level::MATERIALS_FILE).unwrap();
    let file = tessera::level::load_materials(&path).unwrap();
    assert_eq!(&file, tessera::level::Materials::builtin());
    let level = tessera::level::load_level(root().join("levels/default.ron")).unwrap();
    for p in &level.polygons {
        if let Some(name) = &p.material {
            assert!(file.materials.contains_key(name), "{name} not in {path:?}");
        }
    }
}
