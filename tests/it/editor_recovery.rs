//! Crash safety of the editor: a child process edits a level and autosaves as the editor does
//! (`EditorSession` + `Autosave::tick` every frame), and is killed with SIGKILL at pseudo-random
//! moments, 20 times. After each kill the recovery file must load as a valid level holding every
//! edit made more than `MAX_LOSS` (2 s) before the kill; the next child restores it (as the
//! editor's "recover unsaved work" prompt does) and edits on. `editor_kill` does the same to the
//! game itself, through its window and its prompt.
//!
//! The child is this test run again with `TESSERA_RECOVERY_CHILD` set (run directly, without
//! it, the test is the parent that kills and checks). The child logs each edit's number and
//! wall-clock time with one unbuffered write after the edit is applied; a SIGKILL does not lose
//! written data (the page cache survives the process), so the log is exact.
//!
//! Unix only: the child is stopped with SIGKILL.
#![cfg(unix)]
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use glam::DVec2;
use tessera::editor::recovery::{self, Autosave, MAX_LOSS};
use tessera::editor::{Edit, EditorSession};
use tessera::level::{load_level, save_level, Level, LevelPolygon};

const CHILD_ENV: &str = "TESSERA_RECOVERY_CHILD";

fn base() -> Level {
    let p = DVec2::new;
    Level {
        polygons: vec![LevelPolygon::solid(vec![
            p(-5., -1.),
            p(5., -1.),
            p(5., 0.),
            p(-5., 0.),
        ])],
        spawn: p(0., 1.),
        ..Level::empty("recovery")
    }
}

/// Edit number `k` (1-based): a tile in a row above the floor, and every fifth edit also moves
/// the spawn, so the level after `k` edits is known exactly.
fn edit(k: u64) -> Vec<Edit> {
    let x = (k % 200) as f64 * 0.5 - 50.0;
    let y = 2.0 + (k / 200) as f64 * 0.5;
    let p = DVec2::new;
    let mut v = vec![Edit::AddPolygon {
        polygon: LevelPolygon::solid(vec![
            p(x, y),
            p(x + 0.4, y),
            p(x + 0.4, y + 0.4),
            p(x, y + 0.4),
        ]),
    }];
    if k.is_multiple_of(5) {
        v.push(Edit::MoveSpawn {
            to: p(k as f64 * 0.01, 1.0),
        });
    }
    v
}

/// The level after the first `n` edits.
fn after(n: u64) -> Level {
    let mut level = base();
    for k in 1..=n {
        for e in edit(k) {
            tessera::editor::apply(&mut level, &e).unwrap();
        }
    }
    level
}

/// How many edits a recovered level holds (`None`: it is no prefix of the sequence).
fn edits_in(level: &Level) -> Option<u64> {
    let n = level.polygons.len().checked_sub(1)? as u64;
    (after(n) == *level).then_some(n)
}

fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis()
}

/// The child's part: restores the pending recovery file if there is one, then edits and
/// autosaves until it is killed.
fn edit_until_killed(dir: PathBuf) -> ! {
    let level_path = dir.join("level.ron");
    let rec_dir = dir.join("recovery");
    let mut level = load_level(&level_path).unwrap();
    // Restore unsaved work, as the editor offers to on start.
    if let Some(p) = recovery::pending(&rec_dir, Some(&level_path)) {
        level = recovery::load(&p.file).unwrap();
    }
    let mut k = edits_in(&level).expect("the recovered level is a prefix of the edits");
    let mut session = EditorSession::new(level, Some(level_path.clone()));
    let mut auto = Autosave::new(recovery::recovery_file(&rec_dir, Some(&level_path)));
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("edits.log"))
        .unwrap();
    // Frames of about 4 ms, an edit every few frames: a busy designer.
    let mut frame = 0u64;
    loop {
        if frame.is_multiple_of(3) {
            k += 1;
            for e in edit(k) {
                session.edit(e, DVec2::ZERO).unwrap();
            }
            writeln!(log, "{k} {}", now_ms()).unwrap();
        }
        auto.tick(Instant::now(), &session);
        std::thread::sleep(Duration::from_millis(4));
        frame += 1;
    }
}

fn log_entries(path: &Path) -> Vec<(u64, u128)> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let mut it = l.split(' ');
            Some((it.next()?.parse().ok()?, it.next()?.parse().ok()?))
        })
        .collect()
}

#[test]
fn sigkill_at_random_moments_loses_at_most_two_seconds_of_edits() {
    if let Some(dir) = std::env::var_os(CHILD_ENV) {
        edit_until_killed(PathBuf::from(dir));
    }
    let dir = crate::common::scratch_dir("recovery-kill");
    let level_path = dir.join("level.ron");
    save_level(&level_path, &base()).unwrap();
    // SplitMix64: the kill moments, 0.3 to 3.3 s after the child starts.
    let mut seed = 0x005E_ED0F_4B1D_u64;
    let mut next = || {
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut checked_old = 0;
    for round in 0..20 {
        let wait = Duration::from_millis(300 + next() % 3000);
        // This round's edits only: earlier rounds' lost edits are redone under the same numbers.
        let _ = std::fs::remove_file(dir.join("edits.log"));
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                &crate::common::test_name(
                    module_path!(),
                    "sigkill_at_random_moments_loses_at_most_two_seconds_of_edits",
                ),
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, &dir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(wait);
        if let Ok(Some(status)) = child.try_wait() {
            let mut err = String::new();
            use std::io::Read;
            child
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            panic!("round {round}: the child stopped by itself ({status}): {err}");
        }
        child.kill().unwrap(); // SIGKILL
        let killed_at = now_ms();
        child.wait().unwrap();

        let log = log_entries(&dir.join("edits.log"));
        let old: u64 = log
            .iter()
            .filter(|(_, t)| t + MAX_LOSS.as_millis() <= killed_at)
            .map(|&(k, _)| k)
            .max()
            .unwrap_or(0);
        let recovered = match recovery::pending(&dir.join("recovery"), Some(&level_path)) {
            Some(p) => recovery::load(&p.file)
                .unwrap_or_else(|e| panic!("round {round}: the recovery file is not valid: {e}")),
            None => base(),
        };
        recovered.validate().unwrap();
        let n = edits_in(&recovered).unwrap_or_else(|| {
            panic!("round {round}: the recovered level is not the level after some edits")
        });
        assert!(
            n >= old,
            "round {round}: recovered {n} edits, but edit {old} was made {} ms or more before the kill",
            MAX_LOSS.as_millis()
        );
        checked_old += old;
    }
    assert!(
        checked_old > 0,
        "no edit ever got older than the bound: the test proved nothing"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
