//! Crash safety of the real game: `tessera play --level LEVEL --editor` on its own Xvfb display
//! (`window_input::Window`), edited with real X events, killed with SIGKILL, started again on the
//! same user directory, and its restore prompt answered with the mouse. `editor_recovery` proves
//! the autosave's bound on `EditorSession` and `Autosave` alone, fast and many times; this test
//! proves that the game wires them up: that the window's frame loop autosaves, that a killed game
//! leaves a recovery file the next start finds, that the editor opens with its prompt, and that
//! Restore puts the recovered level in the editor.
//!
//! Four kill rounds, each in a new game process. After the restore (from the second round on),
//! three one-click edits with the tile brush (T, a click in empty sky: one grid square each, in a
//! row of its own per round, left to right). Every click ends with a barrier, Tab and Tab again
//! (the editor closes and opens, seen in the title): X events are handled in order, so once the
//! title shows the editor open again, the click has been handled and its square added. The time
//! the barrier is seen is the edit's time (no earlier than the edit itself, so the check below
//! never asks for an edit younger than the bound).
//!
//! Three rounds of four kill the game 2.2 s after their last edit, so every edit of the round
//! must come back, and that last edit is made right after an autosave (the test waits until the
//! recovery file holds the round's first two squares): the next autosave is then as far away as
//! it gets, the worst moment for the bound. The other round kills the game right after an edit,
//! with its first edit made 2.2 s before the others: that one must come back, the younger ones
//! may or may not.
//!
//! After each kill, from the files on disk: the level file is byte for byte what it was (a crash
//! never writes it), and the recovery file is a valid level holding the level's own polygons and
//! spawn unchanged, then the squares restored at the start of the round, in order, then at least
//! every square the bound requires and no more than were painted, each one grid square, left of
//! the next, in this round's row. A restore that did not happen, an autosave that never ran or
//! ran late, or a recovery file that went missing fails one of these. Last, the game is started
//! once more, its work restored and saved with Ctrl+S: the level file then holds the last
//! recovered level and the recovery file is gone.
//!
//! It fails with the autosave broken: with `Autosave::tick` returning at once, the first round
//! waits in vain for an autosave; with `recovery::INTERVAL` at 4 s instead of 1 s, the first
//! round recovers 2 of its 3 squares, all older than 2 s.
//!
//! The level is a copy of `levels/default.ron` written without its comments, so that Ctrl+S
//! saves without the comments prompt. The Restore button is clicked where it shows at 1280×720
//! (`RESTORE`, found on a screenshot). The prompt names the recovery file in a text wrapped at a
//! fixed width, so a longer path could push the button down a line: the user directory is
//! `/tmp/tessera-kill-` and the process id in 10 digits, the same length in every run. Needs
//! `Xvfb` and `xdotool`, like `window_input`.
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use tessera::editor::recovery::{self, MAX_LOSS};
use tessera::level::{load_level, save_level, Level, LevelPolygon, UserDirs};

use crate::window_input::{tools_present, Window};

/// The restore prompt's Restore button, at 1280×720 (found on a screenshot).
const RESTORE: (i32, i32) = (388, 389);

/// Screen x of the three clicks of a round, and the y of round `r`'s row: empty sky in the
/// default level's view at 1280×720.
const CLICK_X: [i32; 3] = [400, 520, 640];
fn row_y(round: usize) -> i32 {
    140 + 40 * round as i32
}

/// How long after its last edit a round kills the game (but for `EARLY_ROUND`), and how long
/// before its others `EARLY_ROUND` makes its first edit.
const LATE: Duration = Duration::from_millis(2200);
/// The round that kills the game right after an edit.
const EARLY_ROUND: usize = 2;
const ROUNDS: usize = 4;

/// How long the restore prompt or an autosave may take to show (a hang, not a speed).
const WAIT_LIMIT: Duration = Duration::from_secs(90);

/// The user directory, the same for every start of the game and of the same length from run to
/// run (the restore prompt wraps a path in it, and where `RESTORE` is depends on its lines).
fn user_dir() -> PathBuf {
    PathBuf::from(format!("/tmp/tessera-kill-{:010}", std::process::id()))
}

/// The polygons a level holds beyond `base`'s, after checking that the rest of it is `base`.
fn extras(level: &Level, base: &Level, what: &str) -> Vec<LevelPolygon> {
    let n0 = base.polygons.len();
    assert!(
        level.polygons.len() >= n0 && level.polygons[..n0] == base.polygons[..],
        "{what}: the level's own polygons changed"
    );
    let mut rest = level.clone();
    let extra = rest.polygons.split_off(n0);
    assert!(rest == *base, "{what}: more than polygons changed");
    extra
}

/// The square's lower-left corner and its side, if the polygon is an axis-aligned square drawn
/// counter-clockwise from there (the tile brush's).
fn square(p: &LevelPolygon) -> Option<(f64, f64, f64)> {
    let [a, b, c, d] = p.points[..] else {
        return None;
    };
    let s = b.x - a.x;
    let ok = s > 0.0 && a.y == b.y && c.x == b.x && c.y - b.y == s && d.x == a.x && d.y == c.y;
    ok.then_some((a.x, a.y, s))
}

/// Waits for the log line of a restore prompt.
fn wait_prompt(w: &mut Window, name: &str) {
    let start = Instant::now();
    while !w.log().contains("the editor offers to restore it") {
        assert!(
            w.running(),
            "{name}: the game exited before its restore prompt:\n{}",
            w.log()
        );
        assert!(
            start.elapsed() < WAIT_LIMIT,
            "{name}: no restore prompt (screen: {}):\n{}",
            w.screenshot(&format!("{name}-no-prompt")),
            w.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Waits until the recovery file holds `n` squares (an autosave has just written them).
fn wait_autosaved(w: &Window, round: usize, dirs: (&Path, &Path), base: &Level, n: usize) {
    let (recovery_dir, level) = dirs;
    let start = Instant::now();
    loop {
        let held = recovery::pending(recovery_dir, Some(level))
            .and_then(|p| recovery::load(&p.file).ok())
            .map(|l| l.polygons.len().saturating_sub(base.polygons.len()));
        if held == Some(n) {
            return;
        }
        assert!(
            start.elapsed() < WAIT_LIMIT,
            "round {round}: no autosave of {n} squares (the recovery file holds {held:?}):\n{}",
            w.log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Starts the game on the level with the editor open; after a kill, answers its restore prompt
/// with Restore and waits for the restored work to show as unsaved.
fn start(level: &Path, user: &Path, name: &str, restore: bool) -> Window {
    let mut w = Window::open_with_user_dir(name, level, &["--editor"], user);
    w.wait_editing(true);
    if restore {
        wait_prompt(&mut w, name);
        assert!(
            !w.title().contains('●'),
            "{name}: unsaved work before the restore"
        );
        w.click(RESTORE);
        w.wait_title("the restored work", |t| t.contains('●'));
    } else {
        assert!(
            !w.log().contains("the editor offers to restore it"),
            "{name}: a restore prompt with no recovery file"
        );
    }
    w
}

/// Tab, Tab: once the title shows the editor open again, every earlier event has been handled.
fn barrier(w: &mut Window) {
    w.key("Tab");
    w.wait_editing(false);
    w.key("Tab");
    w.wait_editing(true);
}

#[test]
fn the_game_killed_while_editing_restores_all_but_the_last_two_seconds() {
    if !tools_present() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("tessera-kill-level-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let level_path = dir.join("level.ron");
    let base = load_level(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/levels/default.ron"
    )))
    .unwrap();
    save_level(&level_path, &base).unwrap();
    let base = load_level(&level_path).unwrap();
    let bytes = std::fs::read(&level_path).unwrap();
    let user = user_dir();
    let _ = std::fs::remove_dir_all(&user);
    std::fs::create_dir_all(&user).unwrap();
    let recovery_dir = UserDirs::at(&user).recovery_dir();

    // The squares the recovery file held after the last kill (restored at the next start).
    let mut kept: Vec<LevelPolygon> = Vec::new();
    let mut last = None::<Level>;
    let mut required_total = 0;
    for round in 0..ROUNDS {
        let mut w = start(&level_path, &user, &format!("kill-{round}"), round > 0);
        w.key("t");
        let mut times = Vec::new();
        for (i, x) in CLICK_X.into_iter().enumerate() {
            if round == EARLY_ROUND && i == 1 {
                // One edit older than the bound at the kill, the others younger.
                std::thread::sleep(LATE);
            }
            if round != EARLY_ROUND && i == CLICK_X.len() - 1 {
                // The last edit right after an autosave: the next one is the furthest away.
                let dirs = (recovery_dir.as_path(), level_path.as_path());
                wait_autosaved(&w, round, dirs, &base, kept.len() + i);
            }
            w.click((x, row_y(round)));
            barrier(&mut w);
            times.push(Instant::now());
        }
        if round != EARLY_ROUND {
            let until = *times.last().unwrap() + LATE;
            std::thread::sleep(until.saturating_duration_since(Instant::now()));
        }
        assert!(w.running(), "round {round}: the game stopped:\n{}", w.log());
        // Taken before the signal: the game dies no earlier, so an edit counted as older than
        // the bound at `killed` is older still when it dies.
        let killed = Instant::now();
        w.kill_game();
        let log = w.log();
        drop(w);

        let what = format!("round {round}");
        assert!(
            std::fs::read(&level_path).unwrap() == bytes,
            "{what}: the level file was written"
        );
        let required = times.iter().filter(|&&t| t + MAX_LOSS <= killed).count();
        if round != EARLY_ROUND {
            assert_eq!(required, times.len(), "{what}: killed too early");
        }
        required_total += required;
        let pending = recovery::pending(&recovery_dir, Some(&level_path)).unwrap_or_else(|| {
            panic!("{what}: no recovery file after {required} edits older than 2 s:\n{log}")
        });
        let recovered = recovery::load(&pending.file)
            .unwrap_or_else(|e| panic!("{what}: the recovery file is not valid: {e}"));
        let extra = extras(&recovered, &base, &what);
        assert!(
            extra.len() >= kept.len() && extra[..kept.len()] == kept[..],
            "{what}: the work restored at the start is not all in the recovery file"
        );
        let new = &extra[kept.len()..];
        assert!(
            new.len() >= required && new.len() <= times.len(),
            "{what}: {} new squares recovered; {required} edits were older than 2 s, and {} \
             were made:\n{log}",
            new.len(),
            times.len()
        );
        let squares: Vec<_> = extra
            .iter()
            .map(|p| square(p).unwrap_or_else(|| panic!("{what}: not a tile: {p:?}")))
            .collect();
        let side = squares[0].2;
        assert!(
            squares.iter().all(|s| s.2 == side),
            "{what}: tiles of different sizes"
        );
        let row: Vec<_> = squares[kept.len()..].to_vec();
        assert!(
            row.windows(2).all(|p| p[0].0 < p[1].0 && p[0].1 == p[1].1),
            "{what}: the new tiles are not in one row, left to right: {row:?}"
        );
        assert!(
            row.iter()
                .all(|s| squares[..kept.len()].iter().all(|o| o.1 != s.1)),
            "{what}: a new tile in an earlier round's row"
        );
        eprintln!(
            "{what}: killed {} ms after the last edit; {} of {} new squares recovered, {required} \
             required",
            killed.duration_since(*times.last().unwrap()).as_millis(),
            new.len(),
            times.len()
        );
        kept = extra;
        last = Some(recovered);
    }
    assert!(
        required_total > ROUNDS * 2,
        "few edits older than the bound: the test proved little"
    );

    // The last kill's work restored and saved: the file holds it, and the recovery file goes.
    let mut w = start(&level_path, &user, "kill-save", true);
    w.key("ctrl+s");
    w.wait_title("the save", |t| !t.contains('●'));
    drop(w);
    let saved = load_level(&level_path).unwrap();
    assert!(
        Some(&saved) == last.as_ref(),
        "the saved level is not the recovered one"
    );
    assert!(
        recovery::pending(&recovery_dir, Some(&level_path)).is_none(),
        "the recovery file outlived the save"
    );
    let _ = std::fs::remove_dir_all(&user);
    let _ = std::fs::remove_dir_all(&dir);
}
