//! A sign names the key bound to its action after the player rebinds it, in the real game window
//! with real X key and mouse events (`window_input::Window`: `tessera play` on its own Xvfb
//! display, events sent with `xdotool`).
//!
//! `levels/test/signs.ron` has a sign "{jump} jumps" 2 m from the spawn, so it is shown from the
//! first frame. The game logs what each shown sign reads, as it comes into view and whenever
//! its text changes while shown (`app::game`, `sign N reads: ...`); the test reads that log. The
//! rebinding is made the way a player makes it: Escape, a click on Settings, a click on the Jump
//! row's "+" in the key list, the H key; then a click on the row's "Space ×". Both points were
//! found on screenshots at 1280×720 (the window's default size, and the display's).
use std::path::Path;
use std::time::{Duration, Instant};

use crate::window_input::{tools_present, Window};

/// Screen points of the pause menu's settings, at 1280×720.
mod at {
    /// The pause menu's Settings item.
    pub const MENU_SETTINGS: (i32, i32) = (597, 377);
    /// The key list's Jump row, once the settings are open: its "+" (add the next key pressed)
    /// and its first key's "Space ×" (remove Space).
    pub const JUMP_ADD: (i32, i32) = (660, 501);
    pub const JUMP_REMOVE_SPACE: (i32, i32) = (566, 501);
}

/// Waits until the game's log has the line `line`.
fn wait_log(w: &mut Window, what: &str, line: &str) {
    let start = Instant::now();
    while !w.log().lines().any(|l| l.ends_with(line)) {
        if start.elapsed() > Duration::from_secs(90) {
            let shot = w.screenshot(what);
            panic!(
                "waiting for {what}: no log line {line:?} (screen: {shot}):\n{}",
                w.log()
            );
        }
        assert!(w.running(), "the game exited:\n{}", w.log());
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_sign_names_the_key_bound_to_its_action_after_a_rebinding_in_the_settings() {
    if !tools_present() {
        return;
    }
    let level = Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/test/signs.ron");
    let mut w = Window::open("signs", &level, &[]);
    wait_log(
        &mut w,
        "the sign at the start",
        "sign 0 reads: Space or K jumps",
    );
    w.key("Escape");
    w.wait_title("the pause menu", |t| t.ends_with(" (paused)"));
    w.click(at::MENU_SETTINGS);
    w.click(at::JUMP_ADD);
    w.key("h");
    wait_log(
        &mut w,
        "H added to Jump",
        "sign 0 reads: Space or K or H jumps",
    );
    w.click(at::JUMP_REMOVE_SPACE);
    wait_log(
        &mut w,
        "Space removed from Jump",
        "sign 0 reads: K or H jumps",
    );
    // Back to the game: Escape closes the settings, then resumes; the sign is still in view.
    w.key("Escape");
    std::thread::sleep(Duration::from_millis(500));
    w.key("Escape");
    w.wait_title("the game to resume", |t| !t.ends_with(" (paused)"));
    let shot = w.screenshot("sign after rebinding");
    let log = w.log();
    let last = log.lines().rfind(|l| l.contains("sign 0 reads: "));
    assert!(
        last.is_some_and(|l| l.ends_with("sign 0 reads: K or H jumps")),
        "the sign reads as the last binding says: {last:?}"
    );
    eprintln!("screen: {shot}");
}
