//! A level designer's session in the real editor window, with real X mouse and key events
//! (`window_input::Window`: `tessera play --editor` on its own Xvfb display, events sent with
//! `xdotool`): from an empty level, a floor drawn, the spawn, a checkpoint, the goal, a door
//! and its switch, an enemy and a mover with three path keys placed by clicking and dragging in
//! the view; each step saved with Ctrl+S and read back from the file; `tessera check` on the
//! result; a play-test from the pointer (right click, *Play from here*) and back; then Ctrl+Z
//! back to the empty level, saved and compared.
//!
//! Screen points: the toolbar's and the Objects menu's items were found on screenshots at
//! 1280×720 (the window's default size, and the display's). Points in the view come from the
//! level: a first floor drawn with grid snapping off gives the map from level to screen (the
//! camera looks straight at the level's plane, so it is a scale and a shift), then that floor
//! is undone and everything is placed at whole grid points with snapping on.
use std::path::Path;
use std::time::Duration;

use glam::DVec2;
use tessera::level::{load_level, save_level, Level};

use crate::window_input::{tools_present, Window};

/// Screen points of the editor's toolbar and its Objects menu at 1280×720 (the ones the other
/// window tests click too are theirs).
mod at {
    pub use crate::window_input::at::{DRAW_TOOL, OBJECTS_MENU, SELECT_TOOL};
    pub const SPAWN_TOOL: (i32, i32) = (491, 12);
    /// The Objects menu's items once it is open, in the registry's order.
    pub const AGENT: (i32, i32) = (635, 39);
    pub const CHECKPOINT: (i32, i32) = (650, 62);
    pub const GOAL: (i32, i32) = (631, 85);
    pub const DOOR: (i32, i32) = (632, 108);
    pub const MOVER: (i32, i32) = (636, 131);
    pub const SWITCH: (i32, i32) = (637, 315);
    /// The context menu's *Play from here*, from the right click's point.
    pub const PLAY_FROM_HERE: (i32, i32) = (51, 17);
}

/// The map from level coordinates to the window's screen points.
#[derive(Clone, Copy, Debug)]
struct ScreenMap {
    /// The level point at screen (0, 0)'s scale origin and the points per metre.
    origin: DVec2,
    scale: f64,
}

impl ScreenMap {
    /// From a polygon drawn at screen `(x0, y0)`–`(x1, y1)` (its box) and saved as `poly`.
    fn from_drawn(poly: &[DVec2], (x0, y0): (i32, i32), (x1, _): (i32, i32)) -> ScreenMap {
        let lo = poly.iter().fold(DVec2::INFINITY, |a, &p| a.min(p));
        let hi = poly.iter().fold(DVec2::NEG_INFINITY, |a, &p| a.max(p));
        let scale = f64::from(x1 - x0) / (hi.x - lo.x);
        ScreenMap {
            // Screen x0 is the box's left side, screen y0 its top.
            origin: DVec2::new(lo.x - f64::from(x0) / scale, hi.y + f64::from(y0) / scale),
            scale,
        }
    }

    fn screen(&self, p: DVec2) -> (i32, i32) {
        let x = (p.x - self.origin.x) * self.scale;
        let y = (self.origin.y - p.y) * self.scale;
        (x.round() as i32, y.round() as i32)
    }

    fn level(&self, (x, y): (i32, i32)) -> DVec2 {
        DVec2::new(
            self.origin.x + f64::from(x) / self.scale,
            self.origin.y - f64::from(y) / self.scale,
        )
    }
}

/// Whether `a` is within one grid cell (0.25 m) of `b`: the pointer lands within a pixel or two
/// of the aimed point, and snapping can take that to the neighbouring grid point.
fn near(a: DVec2, b: DVec2) -> bool {
    (a - b).abs().max_element() <= 0.25 + 1e-9
}

/// Ctrl+S, waits for the unsaved mark to go, and reads the file.
fn saved(w: &mut Window, path: &Path, what: &str) -> Level {
    w.key("ctrl+s");
    w.wait_title(what, |t| !t.contains('●'));
    load_level(path).unwrap()
}

/// Drags out the box from level point `lo` to `hi`.
fn drag_box(w: &Window, map: &ScreenMap, lo: DVec2, hi: DVec2) {
    w.drag(map.screen(lo), map.screen(hi));
}

/// Picks an item of the Objects menu.
fn object_tool(w: &Window, item: (i32, i32)) {
    w.click(at::OBJECTS_MENU);
    w.click(item);
}

#[test]
fn a_designer_builds_a_level_with_the_mouse_checks_plays_it_and_undoes_it_all() {
    if !tools_present() {
        return;
    }
    let dir = crate::common::scratch_dir("window-designer");
    let path = dir.join("level.ron");
    let empty = Level::empty("designer");
    save_level(&path, &empty).unwrap();
    let empty = load_level(&path).unwrap();
    let mut w = Window::open("designer", &path, &["--editor"]);
    w.wait_editing(true);

    // The map: a floor drawn with snapping off, read back, then undone.
    w.key("g");
    w.click(at::DRAW_TOOL);
    let (a, b) = ((320, 470), (980, 500));
    for p in [a, (b.0, a.1), b] {
        w.click(p);
    }
    w.key("Return");
    w.wait_title("the first floor", |t| t.contains('●'));
    let first = saved(&mut w, &path, "the first floor saved");
    assert_eq!(first.polygons.len(), 1, "a triangle was drawn");
    let map = ScreenMap::from_drawn(&first.polygons[0].points, a, b);
    w.key("ctrl+z");
    w.wait_title("the floor undone", |t| t.contains('●'));
    w.key("g");
    let at = |x: f64, y: f64| map.screen(DVec2::new(x, y));
    // Whole metres inside the view.
    let left = map.level((320, 0)).x.ceil();
    let right = map.level((980, 0)).x.floor();
    assert!(
        right - left >= 9.0,
        "{left}..{right}: the view is too narrow"
    );

    // The floor, at whole metres (snapped), its top at y = 0.
    w.click(at::DRAW_TOOL);
    for (x, y) in [(left, -1.0), (right, -1.0), (right, 0.0), (left, 0.0)] {
        w.click(at(x, y));
    }
    w.key("Return");
    w.wait_title("the floor", |t| t.contains('●'));
    let level = saved(&mut w, &path, "the floor saved");
    let floor: Vec<DVec2> = level.polygons[0].points.clone();
    for corner in [
        DVec2::new(left, -1.0),
        DVec2::new(right, 0.0),
        DVec2::new(left, 0.0),
    ] {
        assert!(
            floor.iter().any(|&q| near(q, corner)),
            "{corner} in {floor:?}"
        );
    }

    // The spawn on the floor at its left.
    w.click(at::SPAWN_TOOL);
    w.click(at(left + 1.0, 0.0));
    let level = saved(&mut w, &path, "the spawn saved");
    assert!(
        near(level.spawn, DVec2::new(left + 1.0, 0.0)),
        "{}",
        level.spawn
    );

    // A checkpoint and the goal: boxes dragged on the floor.
    let mid = ((left + right) / 2.0).floor();
    object_tool(&w, at::CHECKPOINT);
    let p = DVec2::new;
    drag_box(&w, &map, p(mid - 1.0, 0.0), p(mid, 2.0));
    object_tool(&w, at::GOAL);
    drag_box(&w, &map, p(right - 2.0, 0.0), p(right - 1.0, 2.0));
    let level = saved(&mut w, &path, "the checkpoint and goal saved");
    assert_eq!(level.checkpoints.len(), 1, "one checkpoint");
    let goal = level.goal.expect("a goal");
    assert!(
        near(goal.min, DVec2::new(right - 2.0, 0.0))
            && near(goal.max, DVec2::new(right - 1.0, 2.0)),
        "{goal:?}"
    );

    // A door, then its switch: the door picked, the switch's box dragged.
    object_tool(&w, at::DOOR);
    drag_box(&w, &map, p(mid + 1.0, 0.0), p(mid + 1.5, 2.5));
    object_tool(&w, at::SWITCH);
    w.click(at(mid + 1.25, 1.25));
    drag_box(&w, &map, p(left + 2.0, 0.0), p(left + 3.0, 1.0));
    let level = saved(&mut w, &path, "the door and switch saved");
    assert_eq!(level.doors.len(), 1, "one door");
    let switch = level.doors[0].switch.expect("the door has its switch");
    assert!(near(switch.min, DVec2::new(left + 2.0, 0.0)), "{switch:?}");

    // An enemy standing on the floor.
    object_tool(&w, at::AGENT);
    w.click(at(mid + 3.0, 0.0));
    let level = saved(&mut w, &path, "the enemy saved");
    assert_eq!(level.agents.len(), 1, "one agent");
    assert!(near(level.agents[0].spawn, DVec2::new(mid + 3.0, 0.0)));

    // A mover dragged out in the air; Ctrl+click on the middle of its path inserts a key, which
    // is dragged up: three keys.
    object_tool(&w, at::MOVER);
    let (m0, m1) = (p(left + 1.0, 3.0), p(left + 3.0, 3.5));
    drag_box(&w, &map, m0, m1);
    let level = saved(&mut w, &path, "the mover saved");
    assert_eq!(level.movers.len(), 1, "one mover");
    let body = tessera::collision::Aabb::from_points(level.movers[0].pieces[0].iter().copied());
    assert!(near(body.min, m0) && near(body.max, m1), "{body:?}");
    let travel = level.movers[0].path[1];
    let centre = (body.min + body.max) / 2.0;
    let middle = centre + travel / 2.0;
    w.click(at::SELECT_TOOL);
    w.key_down("ctrl");
    w.click(at(middle.x, middle.y));
    w.key_up("ctrl");
    w.drag(at(middle.x, middle.y), at(middle.x, middle.y + 2.0));
    let level = saved(&mut w, &path, "the mover's third key saved");
    let keys = &level.movers[0].path;
    assert_eq!(keys.len(), 3, "three keys: {keys:?}");
    assert_eq!((keys[0], keys[2]), (DVec2::ZERO, travel));
    assert!(
        near(keys[1], travel / 2.0 + DVec2::new(0.0, 2.0)),
        "the middle key dragged 2 m up: {keys:?}"
    );

    // `tessera check` takes the file as built.
    let check = crate::common::tessera(&[std::ffi::OsStr::new("check"), path.as_os_str()]);
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );

    // Play from the pointer: a right click on the floor, *Play from here*; Tab comes back.
    let here = at(left + 4.0, 0.5);
    w.click_button(here, "3");
    w.click((here.0 + at::PLAY_FROM_HERE.0, here.1 + at::PLAY_FROM_HERE.1));
    w.wait_editing(false);
    std::thread::sleep(Duration::from_millis(500));
    assert!(w.running(), "the play-test runs:\n{}", w.log());
    w.open_editor();

    // Undo it all: the file saved after it is the empty level again.
    for _ in 0..12 {
        w.key("ctrl+z");
        std::thread::sleep(Duration::from_millis(150));
    }
    w.wait_title("the undos", |t| t.contains('●'));
    let level = saved(&mut w, &path, "the empty level saved");
    assert_eq!(level, empty, "undo went back to the empty level");
    drop(w);
    let _ = std::fs::remove_dir_all(dir);
}
