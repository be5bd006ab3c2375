//! The real game window driven by real input events: `tessera play` on its own Xvfb display,
//! X key and mouse events sent with `xdotool` (XTEST, as a keyboard and a mouse make them), and the
//! state read back after each step from the window title (`(editing)`, `(paused)`, and `●` for
//! unsaved changes) and from the level file on disk.
//!
//! This is where the input router (`app::router`) is proven end to end, through winit and
//! egui-winit: the kittest tests feed egui directly and never saw that egui took Tab for focus
//! navigation and that Space pressed a focused toolbar button. On the commit before the router
//! (99918b2), the first test fails at its second Tab (the editor stays open) and, with the
//! editor closed by the mouse instead, the Space meant as a jump saved the level.
//!
//! Every key sequence ends with a barrier: a key whose effect shows in the title. X events are
//! handled in order, so once the title shows it, every earlier key has been handled too; the
//! checks that something did *not* happen (the file is unchanged) are made after a barrier, not
//! after a sleep. Waits poll the title with a generous limit (a debug build on a software
//! rasteriser draws a few frames a second); they bound a hang, not a speed.
//!
//! Needs `Xvfb` and `xdotool` (`scripts/setup.sh --test` installs them). Without them the tests
//! are skipped with a message, except under CI (`CI` set), where that is a failure.
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a step may take before the test gives up (a hang, not a slow frame).
const STEP_LIMIT: Duration = Duration::from_secs(90);

/// The default level's toolbar and view, at 1280×720 (the window's default size, and the
/// display's): screen points of the widgets the tests click, found on screenshots.
pub(crate) mod at {
    /// The toolbar's Draw tool.
    pub const DRAW_TOOL: (i32, i32) = (272, 12);
    /// The toolbar's Select tool.
    pub const SELECT_TOOL: (i32, i32) = (215, 12);
    /// The toolbar's grid size field.
    pub const GRID_SIZE: (i32, i32) = (768, 12);
    /// The toolbar's Objects menu, and its Mover item once open (the fifth: the Agent tool, then
    /// the registered kinds' tools in their order, checkpoint, goal, door, mover, ...).
    pub const OBJECTS_MENU: (i32, i32) = (638, 12);
    pub const MOVER_TOOL: (i32, i32) = (636, 139);
    /// Empty sky in the middle of the view, where a polygon is drawn.
    pub const SKY: (i32, i32) = (600, 200);
    /// The pause menu's Settings item.
    pub const MENU_SETTINGS: (i32, i32) = (597, 377);
}

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Whether the tools are here; skips (or fails, under CI) when they are not.
pub(crate) fn tools_present() -> bool {
    let missing: Vec<&str> = ["Xvfb", "xdotool"]
        .into_iter()
        .filter(|t| !have(t))
        .collect();
    if missing.is_empty() {
        return true;
    }
    let msg = format!(
        "window tests need {} (scripts/setup.sh --test installs them)",
        missing.join(" and ")
    );
    crate::common::skip_outside_ci(&msg);
    false
}

/// A virtual display of its own and the game on it, killed on drop.
pub(crate) struct Window {
    xvfb: Child,
    game: Child,
    display: String,
    id: String,
    dir: PathBuf,
    /// One game window at a time in the test process (`common::display_lock`); released last.
    _display: std::sync::MutexGuard<'static, ()>,
}

impl Window {
    /// `tessera play --level LEVEL [args]` on a new 1280×720 display; waits for its window and
    /// focuses it. User files go to a scratch directory.
    pub(crate) fn open(name: &str, level: &Path, args: &[&str]) -> Window {
        Window::start(name, Some(level), args, None)
    }

    /// `tessera play [args]` (no `--level`) on a new 1280×720 display, as [`Window::open`].
    pub(crate) fn open_args(name: &str, args: &[&str]) -> Window {
        Window::start(name, None, args, None)
    }

    /// As [`Window::open`], with the user files (settings, bindings, recovery files) in `user`,
    /// which outlives the window: a game started again on it finds what the last one left.
    pub(crate) fn open_with_user_dir(
        name: &str,
        level: &Path,
        args: &[&str],
        user: &Path,
    ) -> Window {
        Window::start(name, Some(level), args, Some(user))
    }

    fn start(name: &str, level: Option<&Path>, args: &[&str], user: Option<&Path>) -> Window {
        let display_lock = crate::common::display_lock();
        let dir =
            std::env::temp_dir().join(format!("tessera-window-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let user = user.map_or_else(|| dir.join("user"), Path::to_path_buf);
        let (xvfb, display) = start_xvfb();
        let log = std::fs::File::create(dir.join("game.log")).unwrap();
        // TESSERA_BIN runs another build (an older commit, to see a test fail there).
        let bin = std::env::var_os("TESSERA_BIN").map_or_else(
            || PathBuf::from(env!("CARGO_BIN_EXE_tessera")),
            PathBuf::from,
        );
        let level_args = level.map(|l| vec!["--level".as_ref(), l.as_os_str()]);
        let game = Command::new(bin)
            .arg("play")
            .args(level_args.unwrap_or_default())
            .args(args)
            .env("DISPLAY", &display)
            .env_remove("WAYLAND_DISPLAY")
            .env("TESSERA_USER_DIR", &user)
            .env("NODEVICE_SELECT", "1")
            .env("RUST_LOG", "info")
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .expect("run tessera");
        let mut w = Window {
            xvfb,
            game,
            display,
            id: String::new(),
            dir,
            _display: display_lock,
        };
        let start = Instant::now();
        loop {
            let out = w.xdo_output(&["search", "--name", "Tessera"]);
            if let Some(id) = out.lines().next().filter(|l| !l.is_empty()) {
                w.id = id.to_string();
                break;
            }
            if let Ok(Some(status)) = w.game.try_wait() {
                panic!(
                    "the game exited ({status}) before its window opened:\n{}",
                    w.log()
                );
            }
            assert!(start.elapsed() < STEP_LIMIT, "no window:\n{}", w.log());
            std::thread::sleep(Duration::from_millis(200));
        }
        // The title is set on the first frame: wait for it, then give the window the keyboard.
        w.wait_title("the first frame", |t| t.starts_with("Tessera — "));
        let id = w.id.clone();
        w.xdo(&["windowfocus", "--sync", &id]);
        w
    }

    fn xdo_output(&self, args: &[&str]) -> String {
        let out = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .stderr(Stdio::null())
            .output()
            .expect("run xdotool");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn xdo(&self, args: &[&str]) {
        let st = Command::new("xdotool")
            .args(args)
            .env("DISPLAY", &self.display)
            .status()
            .expect("run xdotool");
        assert!(st.success(), "xdotool {args:?} failed");
    }

    /// Presses and releases keys (xdotool names: `Tab`, `space`, `Return`, `ctrl+z`, `p`).
    pub(crate) fn key(&self, keys: &str) {
        let mut args = vec!["key", "--delay", "60"];
        args.extend(keys.split(' '));
        self.xdo(&args);
    }

    /// Menu keys one at a time, each given 400 ms of frames: a screen that a key changes takes
    /// the keyboard a frame after its title shows (under load a frame lasts up to 500 ms), and
    /// pacing the keys keeps each one's effect visible before the next.
    fn menu_keys(&self, keys: &str) {
        for k in keys.split(' ') {
            self.key(k);
            std::thread::sleep(Duration::from_millis(400));
        }
    }

    pub(crate) fn key_down(&self, key: &str) {
        self.xdo(&["keydown", key]);
    }

    pub(crate) fn key_up(&self, key: &str) {
        self.xdo(&["keyup", key]);
    }

    /// A left click at a screen point.
    pub(crate) fn click(&self, at: (i32, i32)) {
        self.click_button(at, "1");
    }

    /// A click of mouse button `button` (xdotool's number: 1 left, 3 right) at a screen point.
    pub(crate) fn click_button(&self, (x, y): (i32, i32), button: &str) {
        let (x, y) = (x.to_string(), y.to_string());
        self.xdo(&["mousemove", "--sync", &x, &y]);
        // Let a frame see the pointer there before the press (egui hovers first).
        std::thread::sleep(Duration::from_millis(300));
        self.xdo(&["click", button]);
        std::thread::sleep(Duration::from_millis(300));
    }

    /// A left-button drag from `a` to `b`.
    pub(crate) fn drag(&self, a: (i32, i32), b: (i32, i32)) {
        let s = |v: i32| v.to_string();
        self.xdo(&["mousemove", "--sync", &s(a.0), &s(a.1)]);
        std::thread::sleep(Duration::from_millis(300));
        self.xdo(&["mousedown", "1"]);
        std::thread::sleep(Duration::from_millis(300));
        self.xdo(&["mousemove", "--sync", &s(b.0), &s(b.1)]);
        std::thread::sleep(Duration::from_millis(300));
        self.xdo(&["mouseup", "1"]);
        std::thread::sleep(Duration::from_millis(300));
    }

    pub(crate) fn title(&self) -> String {
        self.xdo_output(&["getwindowname", &self.id])
            .trim_end()
            .to_string()
    }

    /// Waits until the title satisfies `ok`.
    pub(crate) fn wait_title(&mut self, what: &str, ok: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let t = self.title();
            if ok(&t) {
                return t;
            }
            if let Ok(Some(status)) = self.game.try_wait() {
                panic!(
                    "waiting for {what}: the game exited ({status}):\n{}",
                    self.log()
                );
            }
            if start.elapsed() >= STEP_LIMIT {
                let shot = self.screenshot(what);
                panic!(
                    "waiting for {what}: the title stayed {t:?} (screen: {shot})\n{}",
                    self.log()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    pub(crate) fn wait_editing(&mut self, editing: bool) {
        let what = if editing {
            "the editor to open"
        } else {
            "the editor to close"
        };
        self.wait_title(what, |t| t.ends_with(" (editing)") == editing);
    }

    /// Tab opens the editor: the barrier after a sequence played with the editor closed.
    pub(crate) fn open_editor(&mut self) {
        assert!(!self.title().ends_with(" (editing)"));
        self.key("Tab");
        self.wait_editing(true);
    }

    /// Tab closes the editor.
    pub(crate) fn close_editor(&mut self) {
        self.key("Tab");
        self.wait_editing(false);
    }

    /// Saves the screen to `target/window-input/NAME.png` when ImageMagick's `import` is here
    /// (for reading a failure); returns where, or why not.
    pub(crate) fn screenshot(&self, name: &str) -> String {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/window-input");
        let _ = std::fs::create_dir_all(&dir);
        let file = dir.join(format!("{}.png", name.replace(' ', "-")));
        let ok = Command::new("import")
            .args(["-window", "root"])
            .arg(&file)
            .env("DISPLAY", &self.display)
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            file.display().to_string()
        } else {
            "not saved: no ImageMagick".into()
        }
    }

    /// The game's log so far (standard output and error).
    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("game.log")).unwrap_or_default()
    }

    /// Kills the game with SIGKILL, as a crash or `kill -9` would, and reaps it; the display
    /// stays until the window is dropped.
    pub(crate) fn kill_game(&mut self) {
        self.game.kill().expect("SIGKILL the game");
        self.game.wait().unwrap();
    }

    /// Whether the game is still running.
    pub(crate) fn running(&mut self) -> bool {
        matches!(self.game.try_wait(), Ok(None))
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        let _ = self.game.kill();
        let _ = self.game.wait();
        stop_xvfb(&mut self.xvfb);
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Stops Xvfb with SIGTERM, so that it removes its lock file and socket (a SIGKILL leaves both
/// behind, for the next server to find stale), then waits for it; SIGKILL if it has not exited
/// within 10 s.
fn stop_xvfb(xvfb: &mut Child) {
    let term = Command::new("kill")
        .args(["-TERM", &xvfb.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    let start = Instant::now();
    while term && start.elapsed() < Duration::from_secs(10) {
        if !matches!(xvfb.try_wait(), Ok(None)) {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = xvfb.kill();
    let _ = xvfb.wait();
}

/// Starts Xvfb on a display number no one uses (Xvfb picks it and writes it to its standard
/// output: `-displayfd 1`, free of races between tests); returns it and `:N`.
fn start_xvfb() -> (Child, String) {
    use std::io::BufRead;
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x720x24",
            "-nolisten",
            "tcp",
            // Without it the server resets when its last client leaves, and drops a client that
            // connects at that moment: the display check below (a client that connects and
            // leaves) reset it just as the game connected, which then failed with "Failed to
            // open connection to X server" (twice in full runs, 2026-11-27). Short clients
            // started in bursts reproduce it: 5 of about 2 000 connections refused without
            // `-noreset`, none of about 4 000 with it (2026-11-28).
            "-noreset",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run Xvfb");
    let mut line = String::new();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut line).expect("Xvfb's display number");
    // The pipe stays read until Xvfb exits: a closed pipe would kill it at its next write.
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let n: u32 = line
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("Xvfb wrote {line:?}, not a display number"));
    let display = format!(":{n}");
    // Once in a full run (2026-11-27) the game could not connect to a display Xvfb had just
    // named. Wait until the display answers a client before starting anything on it.
    let start = Instant::now();
    loop {
        let answered = Command::new("xdotool")
            .arg("getdisplaygeometry")
            .env("DISPLAY", &display)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if answered {
            break;
        }
        if let Ok(Some(status)) = child.try_wait() {
            panic!("Xvfb on {display} exited ({status}) before it answered");
        }
        assert!(
            start.elapsed() < STEP_LIMIT,
            "Xvfb on {display} did not answer a client"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    (child, display)
}

/// A copy of the default level (with its comments) in a scratch directory, and its bytes.
fn level_copy(name: &str) -> (PathBuf, Vec<u8>, PathBuf) {
    let dir = std::env::temp_dir().join(format!(
        "tessera-window-level-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("level.ron");
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/levels/default.ron")).unwrap();
    std::fs::write(&path, &bytes).unwrap();
    (path, bytes, dir)
}

fn assert_unchanged(path: &Path, bytes: &[u8], when: &str) {
    assert!(
        std::fs::read(path).unwrap() == bytes,
        "{when}: the level file was rewritten"
    );
}

/// The sequence: Tab, Tab, then Right and Space to run and jump. The second Tab must
/// close the editor, and the Space must jump, not press a toolbar button (which saved the file).
/// Then the neighbours: Tab after a drag in the view, and after typing into the grid-size field
/// and pressing Enter.
#[test]
fn tab_closes_the_editor_and_space_never_presses_a_button() {
    if !tools_present() {
        return;
    }
    let (level, bytes, dir) = level_copy("tab");
    let mut w = Window::open("tab", &level, &[]);
    w.open_editor();
    w.close_editor();
    w.key_down("Right");
    std::thread::sleep(Duration::from_millis(300));
    w.key("space");
    std::thread::sleep(Duration::from_millis(500));
    w.key_up("Right");
    w.open_editor();
    assert_unchanged(&level, &bytes, "Tab, Tab, Right + Space");

    // A box-select drag over empty sky with the Select tool, then Tab, Space.
    w.drag(at::SKY, (at::SKY.0 + 120, at::SKY.1 + 60));
    w.close_editor();
    w.key("space");
    w.open_editor();
    assert_unchanged(&level, &bytes, "a drag in the view, Tab, Space");

    // The grid size typed into its field and confirmed with Enter: the field lets go of the
    // keyboard, and Tab is the app's again.
    w.click(at::GRID_SIZE);
    w.key("ctrl+a");
    w.xdo(&["type", "--delay", "60", "0.5"]);
    w.key("Return");
    w.close_editor();
    w.key("space");
    w.open_editor();
    assert_unchanged(&level, &bytes, "the grid size field, Enter, Tab, Space");

    // Enter and Tab in one burst, so that both reach the window before egui's next pass: Enter
    // ends the edit, and Tab after it is the app's (it went to egui and kept the editor open
    // before the window remembered that Enter had ended the edit).
    w.click(at::GRID_SIZE);
    w.key("ctrl+a");
    w.xdo(&["type", "--delay", "60", "0.25"]);
    w.xdo(&["key", "--delay", "0", "Return", "Tab"]);
    w.wait_editing(false);
    w.key("space");
    w.open_editor();
    assert_unchanged(
        &level,
        &bytes,
        "the grid size field, Enter and Tab at once, Space",
    );
    drop(w);
    let _ = std::fs::remove_dir_all(dir);
}

/// A polygon drawn with the mouse after picking the Draw tool by its button; the editor closed
/// with Tab, a jump, the editor opened again, and Ctrl+Z undoes the polygon (the unsaved mark
/// goes: the document is back to the file).
#[test]
fn after_drawing_with_the_mouse_tab_space_and_undo_work() {
    if !tools_present() {
        return;
    }
    let (level, bytes, dir) = level_copy("draw");
    let mut w = Window::open("draw", &level, &[]);
    w.open_editor();
    w.click(at::DRAW_TOOL);
    let (x, y) = at::SKY;
    for p in [(x, y), (x + 100, y), (x + 100, y + 60), (x, y + 60)] {
        w.click(p);
    }
    w.key("Return");
    w.wait_title("the unsaved mark", |t| t.contains('●'));
    w.close_editor();
    w.key("space");
    w.open_editor();
    assert_unchanged(&level, &bytes, "draw, Tab, Space");
    assert!(w.title().contains('●'), "the polygon is still unsaved");
    w.key("ctrl+z");
    w.wait_title("the undo to remove the unsaved mark", |t| !t.contains('●'));
    assert_unchanged(&level, &bytes, "undo");
    drop(w);
    let _ = std::fs::remove_dir_all(dir);
}

/// The pause menu used with the mouse: Escape, Settings clicked open, Escape closes them (the
/// menu stays), Escape again resumes; a jump,
/// Tab opens the editor, Escape there is the editor's (it does not pause the game behind it),
/// Tab closes it, and Escape pauses again.
#[test]
fn the_pause_menu_used_with_the_mouse_leaves_the_keys_to_the_game() {
    if !tools_present() {
        return;
    }
    let (level, bytes, dir) = level_copy("menu");
    let mut w = Window::open("menu", &level, &[]);
    w.key("Escape");
    w.wait_title("the pause menu", |t| t.ends_with(" (paused)"));
    w.click(at::MENU_SETTINGS);
    w.key("Escape");
    std::thread::sleep(Duration::from_millis(500));
    assert!(
        w.title().ends_with(" (paused)"),
        "Escape closed the settings only"
    );
    w.key("Escape");
    w.wait_title("the game to resume", |t| !t.ends_with(" (paused)"));
    w.key("space");
    w.open_editor();
    w.key("Escape");
    w.close_editor();
    w.key("Escape");
    w.wait_title("the pause menu again", |t| t.ends_with(" (paused)"));
    assert_unchanged(&level, &bytes, "the pause menu");
    drop(w);
    let _ = std::fs::remove_dir_all(dir);
}

/// The campaign with the keyboard alone, through real key events: `tessera play` (no level)
/// opens the title screen; Space (jump: the menu's accept) plays the first level; Escape pauses;
/// Down to "Title screen" and Space goes back to the title; Down (past the locked levels) to
/// Settings and Space opens them there; Down to Quit and Space quits.
#[test]
fn the_campaign_title_screen_plays_pauses_and_quits_with_the_keyboard() {
    if !tools_present() {
        return;
    }
    let mut w = Window::open_args("campaign", &[]);
    w.wait_title("the title screen", |t| {
        t == "Tessera — 1. First steps (title screen)"
    });
    w.key("space");
    w.wait_title("the first level to play", |t| {
        t == "Tessera — 1. First steps"
    });
    w.key("Escape");
    w.wait_title("the pause menu", |t| t.ends_with(" (paused)"));
    std::thread::sleep(Duration::from_millis(500)); // as below, for the title screen
                                                    // Resume, Restart, Settings, Level editor, Title screen, Quit.
    w.menu_keys("Down Down Down Down space");
    w.wait_title("the title screen again", |t| t.ends_with(" (title screen)"));
    // The title changes when the screen does, a frame before its menu takes the keyboard: keys
    // sent at once were lost under load (the game then never reached Quit). Give it frames.
    std::thread::sleep(Duration::from_millis(500));
    // 1. First steps (highlighted), then Settings (the locked levels are skipped), then Quit.
    w.menu_keys("Down space");
    assert!(w.running(), "Settings does not quit");
    w.menu_keys("Down space");
    let start = Instant::now();
    while w.running() {
        assert!(
            start.elapsed() < STEP_LIMIT,
            "the game did not quit:\n{}",
            w.log()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The Objects menu and its Mover tool used with the mouse, grid snapping off (G): a platform
/// dragged out in the sky, its second path node dragged up with Select, Ctrl+Z and Ctrl+Shift+Z,
/// each checked in the file Ctrl+S writes; then Tab plays the level with it and Space jumps.
/// The pointer's screen points map to level coordinates through the first saved mover: the
/// camera looks straight at the level's plane, so the map is a scale and a shift.
#[test]
fn a_mover_placed_and_its_path_node_dragged_with_the_mouse_undo_and_play() {
    if !tools_present() {
        return;
    }
    use glam::DVec2;
    use tessera::level::{load_level, save_level, Level, LevelPolygon};
    let dir =
        std::env::temp_dir().join(format!("tessera-window-level-{}-mover", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("level.ron");
    let p = DVec2::new;
    let level = Level {
        polygons: vec![LevelPolygon::solid(vec![
            p(-30., -1.),
            p(30., -1.),
            p(30., 0.),
            p(-30., 0.),
        ])],
        spawn: p(0., 0.),
        ..Level::empty("mover")
    };
    save_level(&path, &level).unwrap();
    let mut w = Window::open("mover", &path, &[]);
    let saved = |w: &mut Window, what: &str| {
        w.key("ctrl+s");
        w.wait_title(what, |t| !t.contains('●'));
        load_level(&path).unwrap()
    };
    w.open_editor();
    w.key("g");
    w.click(at::OBJECTS_MENU);
    w.click(at::MOVER_TOOL);
    let (a, b) = ((560, 200), (660, 230));
    w.drag(a, b);
    w.wait_title("the new mover's unsaved mark", |t| t.contains('●'));
    let doc = saved(&mut w, "the mover saved");
    assert_eq!(doc.movers.len(), 1, "one mover");
    let m = &doc.movers[0];
    let r = tessera::collision::Aabb::from_points(m.pieces[0].iter().copied());
    // Points per metre, from the width; the height agrees (square pixels, no rotation).
    let scale = f64::from(b.0 - a.0) / (r.max.x - r.min.x);
    assert!(
        ((r.max.y - r.min.y) * scale - f64::from(b.1 - a.1)).abs() < 1.5,
        "{r:?} at {scale} points per metre"
    );
    assert_eq!(
        m.path,
        vec![DVec2::ZERO, tessera::editor::kinds::mover::NEW_MOVER_TRAVEL]
    );

    // Node 1 is drawn at the platform's centre plus its offset.
    let centre = ((a.0 + b.0) / 2, (a.1 + b.1) / 2);
    let node = (centre.0 + (m.path[1].x * scale).round() as i32, centre.1);
    w.click(at::SELECT_TOOL);
    w.drag(node, (node.0, node.1 - 80));
    w.wait_title("the drag's unsaved mark", |t| t.contains('●'));
    let dragged = saved(&mut w, "the drag saved").movers[0].path[1];
    assert!(
        (dragged - p(4.0, 80.0 / scale)).length() < 0.1,
        "node 1 at {dragged} after an 80-point drag up at {scale} points per metre"
    );
    w.key("ctrl+z");
    w.wait_title("the undo's unsaved mark", |t| t.contains('●'));
    assert_eq!(
        saved(&mut w, "the undo saved").movers[0].path[1],
        p(4.0, 0.0)
    );
    w.key("ctrl+shift+z");
    w.wait_title("the redo's unsaved mark", |t| t.contains('●'));
    assert_eq!(saved(&mut w, "the redo saved").movers[0].path[1], dragged);

    // Play it: Tab closes the editor, the game runs on with the mover, Space jumps; the editor
    // opens again on the same document.
    let bytes = std::fs::read(&path).unwrap();
    w.close_editor();
    w.key("space");
    std::thread::sleep(Duration::from_millis(500));
    assert!(w.running(), "the game plays on:\n{}", w.log());
    w.open_editor();
    assert_unchanged(&path, &bytes, "play and back");
    assert!(!w.title().contains('●'));
    drop(w);
    let _ = std::fs::remove_dir_all(dir);
}
