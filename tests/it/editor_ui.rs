//! The editor and the pause menu through egui, headless (`egui_kittest`): pointer and key events
//! at computed screen positions drive the same `GameUi` the window runs, and the game's world is
//! checked after each step. A snapshot image of the editor is rendered with wgpu on lavapipe.
use std::path::{Path, PathBuf};

use egui::accesskit::Role;
use egui::{Event, Key, Modifiers, PointerButton, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use glam::DVec2;
use tessera::app::router::{KeyPress, Mods, Route};
use tessera::app::ui::{Effect, GameUi};
use tessera::app::{AppCommand, Game, MenuNav, ModeEvent};
use tessera::editor::ui::view::ViewMapping;
use tessera::level::{load_level, save_level, Level, LevelPolygon, UserDirs};
use tessera::movement::Tuning;
use tessera::sim::World;

pub(crate) const SIZE: (f32, f32) = (1280.0, 720.0);

pub(crate) struct State {
    pub(crate) game: Game,
    pub(crate) gui: GameUi,
    pub(crate) actions: MenuNav,
    /// Every effect of every frame so far, in order.
    pub(crate) effects: Vec<Effect>,
}

impl State {
    /// Some frame asked to quit.
    fn quit(&self) -> bool {
        self.effects.contains(&Effect::Quit)
    }
}

pub(crate) fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-editor-ui-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn level() -> Level {
    let p = DVec2::new;
    Level {
        polygons: vec![LevelPolygon::solid(vec![
            p(-6., -1.),
            p(6., -1.),
            p(6., 0.),
            p(-6., 0.),
        ])],
        spawn: p(0., 0.),
        ..Level::empty("editor test")
    }
}

fn harness(dir: &Path) -> Harness<'static, State> {
    harness_sized(dir, SIZE, true)
}

/// The editor's harness in a window of `size` points, rendering with wgpu when `gpu` (for
/// snapshots) or only laying out.
pub(crate) fn harness_sized(dir: &Path, size: (f32, f32), gpu: bool) -> Harness<'static, State> {
    let path = dir.join("level.ron");
    save_level(&path, &level()).unwrap();
    let world = World::new(&level(), &Tuning::default()).unwrap();
    let game = crate::common::game(world, (size.0 / size.1) as f64);
    let user = UserDirs::at(dir.join("user"));
    let gui = GameUi::new(&game, Some(path), Tuning::default(), None, Some(&user));
    let state = State {
        game,
        gui,
        actions: MenuNav::default(),
        effects: Vec::new(),
    };
    let mut builder = Harness::builder().with_size(egui::vec2(size.0, size.1));
    if gpu {
        builder = builder.wgpu();
    }
    builder.build_ui_state(
        |ui, s: &mut State| {
            let actions = std::mem::take(&mut s.actions);
            let effects = s.gui.ui(ui, &mut s.game, actions);
            s.effects.extend(effects);
        },
        state,
    )
}

pub(crate) fn mapping(h: &Harness<'_, State>) -> ViewMapping {
    let screen = egui::Rect::from_min_size(Pos2::ZERO, egui::vec2(SIZE.0, SIZE.1));
    ViewMapping::new(
        &h.state().gui.editor.camera,
        (SIZE.0 / SIZE.1) as f64,
        screen,
    )
}

/// A key press through the input router, as the window sends it (no text field is focused
/// here); returns where it went.
pub(crate) fn press(h: &mut Harness<'_, State>, key: tessera::input::Key, mods: Mods) -> Route {
    let s = h.state_mut();
    let text_field = false;
    s.gui
        .key_press(&mut s.game, KeyPress::with(key, mods), text_field)
}

/// Clicks an item of the toolbar's File menu.
pub(crate) fn file_menu(h: &mut Harness<'_, State>, item: &str) {
    h.get_by_label("File").click();
    h.run();
    h.get_by_label(item).click();
    h.run();
}

pub(crate) fn open_editor(h: &mut Harness<'_, State>) {
    let s = h.state_mut();
    s.gui.apply(&mut s.game, AppCommand::ToggleEditor);
}

/// A click (press and release) at `p`, one frame each.
pub(crate) fn click(h: &mut Harness<'_, State>, p: Pos2) {
    h.event(Event::PointerMoved(p));
    h.step();
    for pressed in [true, false] {
        h.event(Event::PointerButton {
            pos: p,
            button: PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
}

#[test]
fn draw_a_polygon_undo_redo_save_and_reload() {
    let dir = scratch("draw");
    let mut h = harness(&dir);
    open_editor(&mut h);
    h.run();
    assert!(h.state().game.editing() && h.state().game.paused());
    h.get_by_label("Draw").click();
    h.run();

    // Four grid points a little above the floor, in the middle of the view.
    let map = mapping(&h);
    let grid = h.state().gui.editor.session.grid;
    let c = grid.snap(map.to_world(Pos2::new(640.0, 360.0)).unwrap()) + DVec2::new(0.0, 2.0);
    let corners = [
        c,
        c + DVec2::new(2.0, 0.0),
        c + DVec2::new(2.0, 1.0),
        c + DVec2::new(0.0, 1.5),
    ];
    for &w in &corners {
        // A few points off: the grid puts the vertex exactly on the corner.
        let s = map.to_screen(w).unwrap() + egui::vec2(1.5, -1.0);
        click(&mut h, s);
    }
    assert_eq!(h.state().gui.editor.session.drawing().len(), 4);
    click(&mut h, map.to_screen(corners[0]).unwrap());
    h.run();
    let s = h.state();
    let doc = s.gui.editor.session.level().clone();
    assert_eq!(
        doc.polygons.len(),
        2,
        "the polygon is closed on its first point"
    );
    assert_eq!(doc.polygons[1].points, corners.to_vec());
    assert!(s.gui.editor.session.drawing().is_empty());
    let changes = s
        .effects
        .iter()
        .filter(|e| **e == Effect::LevelChanged)
        .count();
    assert_eq!(changes, 1, "one level change reported: the closed polygon");
    assert!(
        s.gui
            .editor
            .session
            .document()
            .same(&s.game.world().document()),
        "the editor edits the world's one level document"
    );
    assert_eq!(
        *s.game.world().level(),
        doc,
        "the world plays the edited level"
    );
    assert!(s.gui.editor.session.dirty());

    // The hero can stand on it on the next tick: put it there and step.
    let top = DVec2::new(c.x + 0.5, c.y + 1.0 + 0.01);
    h.state_mut().game.world_mut().place_hero(top).unwrap();
    h.state_mut().game.step_once();
    assert!(h.state().game.world().hero().grounded());

    use tessera::input::Key as K;
    assert!(matches!(
        press(&mut h, K::KeyZ, Mods::CTRL),
        Route::Editor(_)
    ));
    h.run();
    assert_eq!(*h.state().gui.editor.session.level(), level());
    assert_eq!(*h.state().game.world().level(), level());
    let ctrl_shift = Mods {
        shift: true,
        ..Mods::CTRL
    };
    assert!(matches!(
        press(&mut h, K::KeyZ, ctrl_shift),
        Route::Editor(_)
    ));
    h.run();
    assert_eq!(h.state().gui.editor.session.level().polygons.len(), 2);

    // The snapshot (also the README's screenshot): the drawn polygon, the standing collider's
    // mesh, the panels.
    h.snapshot("editor_drawn_polygon");

    file_menu(&mut h, "Save (Ctrl+S)");
    assert!(!h.state().gui.editor.session.dirty());
    let saved = load_level(dir.join("level.ron")).unwrap();
    assert_eq!(saved, *h.state().gui.editor.session.level());
    // The autosave thread stops with the harness; then the folder can go.
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_drag_across_an_edge_is_refused_with_a_message_and_the_level_stays_valid() {
    let dir = scratch("refuse");
    let mut h = harness(&dir);
    open_editor(&mut h);
    h.run();
    let map = mapping(&h);
    // Grab the floor's top-right corner (6, 0) if it is in view, else its top-left.
    let corner = [DVec2::new(6.0, 0.0), DVec2::new(-6.0, 0.0)]
        .into_iter()
        .find(|&w| {
            map.to_screen(w)
                .is_some_and(|s| s.x > 300.0 && s.x < 1000.0 && s.y > 80.0 && s.y < 660.0)
        });
    let Some(corner) = corner else {
        // The floor is 12 m wide around the view's centre: its ends are in view at the default
        // zoom.
        panic!("neither floor corner is in view: {:?}", map.visible);
    };
    let from = map.to_screen(corner).unwrap();
    // Down through the floor's bottom edge: the outline would cross itself.
    let to = map
        .to_screen(corner + DVec2::new(-corner.x.signum() * 5.0, -3.0))
        .unwrap();
    h.event(Event::PointerMoved(from));
    h.step();
    h.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.step();
    for k in 1..=10 {
        h.event(Event::PointerMoved(from + (to - from) * (k as f32 / 10.0)));
        h.step();
    }
    let msg = h.state().gui.editor.session.message().cloned();
    h.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.run();
    let msg = msg.expect("a refusal message at the cursor");
    assert!(msg.error && msg.text.contains("polygon 0"), "{msg:?}");
    let doc = h.state().gui.editor.session.level().clone();
    doc.validate().unwrap();
    assert_eq!(*h.state().game.world().level(), doc);
    // The autosave thread stops with the harness; then the folder can go.
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_pause_menu_moves_with_up_and_down_and_saves_settings() {
    let dir = scratch("pause");
    let mut h = harness(&dir);
    h.state_mut().game.change_mode(ModeEvent::Pause);
    h.run();
    assert!(h.query_by_label("Resume").is_some());
    // Down, Down (two presses within one frame move it twice), Jump: Settings opens.
    h.state_mut().actions.down = 2;
    h.step();
    assert_eq!(h.state().gui.menu_item, 2);
    h.state_mut().actions.accept = true;
    h.run();
    assert!(h.state().gui.settings_open);
    h.get_by_role_and_label(Role::CheckBox, "Fullscreen")
        .click();
    h.run();
    let settings =
        tessera::app::settings::Settings::load(&UserDirs::at(dir.join("user")).settings_file())
            .unwrap();
    assert!(settings.fullscreen, "saved to the user's settings file");
    // Restart puts the hero back at the spawn and resumes.
    h.state_mut()
        .game
        .world_mut()
        .place_hero(DVec2::new(5.0, 3.0))
        .unwrap();
    h.get_by_label("Restart level").click();
    h.run();
    assert!(!h.state().game.paused());
    assert_eq!(h.state().game.world().hero().body.pos.x, 0.0);
    // The autosave thread stops with the harness; then the folder can go.
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn quitting_with_unsaved_changes_asks_first() {
    let dir = scratch("quit");
    let mut h = harness(&dir);
    open_editor(&mut h);
    h.run();
    h.get_by_label("Spawn").click();
    h.run();
    let map = mapping(&h);
    click(&mut h, map.to_screen(DVec2::new(1.0, 2.0)).unwrap());
    h.run();
    assert!(h.state().gui.editor.session.dirty());
    assert!(!h.state_mut().gui.editor.request_quit(), "asks first");
    h.run();
    assert!(h.query_by_label("Unsaved changes").is_some());
    h.get_by_label("Discard").click();
    h.run();
    assert!(h.state().quit());
    // The autosave thread stops with the harness; then the folder can go.
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_recorded_play_test_plays_back_to_the_same_place() {
    let dir = scratch("playtest");
    let mut h = harness(&dir);
    open_editor(&mut h);
    h.run();
    h.get_by_label("Record").click();
    h.run();
    // Run right and jump for a while, one tick per Step click.
    h.state_mut()
        .game
        .input_mut()
        .key(tessera::input::Key::ArrowRight, true);
    for k in 0..40 {
        if k == 10 {
            h.state_mut()
                .game
                .input_mut()
                .key(tessera::input::Key::Space, true);
        }
        h.get_by_label("Step").click();
        h.run();
    }
    h.state_mut().game.input_mut().release_all();
    let end = h.state().game.world().hero().body.pos;
    h.get_by_label("Stop").click();
    h.run();
    let p = h.state().game.playtest().expect("a recorded play-test");
    let (start2, actions) = (p.start, &p.actions);
    assert_eq!(actions.len(), 40, "one recorded tick per step");
    assert!(actions.iter().any(|a| a.jump_pressed));
    assert!(
        end.x > start2.x + 0.5,
        "the hero ran right: {start2} → {end}"
    );

    h.get_by_label("Play back").click();
    h.run();
    let s = h.state_mut();
    assert_eq!(s.game.world().hero().body.pos, start2, "back at the start");
    assert!(!s.game.paused(), "playing");
    // The game's clock now runs the replay: 40 ticks of wall time.
    let tick = std::time::Duration::from_secs_f64(1.0 / tessera::sim::TICK_HZ as f64);
    let mut ran = 0;
    while ran < 40 {
        ran += s.game.frame(tick, (SIZE.0 / SIZE.1) as f64).steps;
    }
    assert_eq!(
        s.game.world().hero().body.pos,
        end,
        "the same 40 ticks, the same place"
    );
    // The autosave thread stops with the harness; then the folder can go.
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_newer_recovery_file_is_offered_and_restored_as_unsaved_work() {
    let dir = scratch("restore");
    let path = dir.join("level.ron");
    save_level(&path, &level()).unwrap();
    // What an editor killed after moving the spawn left behind, a moment after the level.
    let mut edited = level();
    edited.spawn = DVec2::new(2.0, 1.0);
    let user = UserDirs::at(dir.join("user"));
    let rec = tessera::editor::recovery::recovery_file(&user.recovery_dir(), Some(&path));
    std::thread::sleep(std::time::Duration::from_millis(20));
    std::fs::create_dir_all(rec.parent().unwrap()).unwrap();
    save_level(&rec, &edited).unwrap();

    let mut h = {
        // `harness` saves the level again (making it newer): build this one by hand.
        let world = World::new(&level(), &Tuning::default()).unwrap();
        let game = crate::common::game(world, (SIZE.0 / SIZE.1) as f64);
        let gui = GameUi::new(
            &game,
            Some(path.clone()),
            Tuning::default(),
            None,
            Some(&user),
        );
        assert!(gui.editor.dialog_open(), "the restore prompt is waiting");
        Harness::builder()
            .with_size(egui::vec2(SIZE.0, SIZE.1))
            .build_ui_state(
                |ui, s: &mut State| {
                    let actions = std::mem::take(&mut s.actions);
                    let effects = s.gui.ui(ui, &mut s.game, actions);
                    s.effects.extend(effects);
                },
                State {
                    game,
                    gui,
                    actions: MenuNav::default(),
                    effects: Vec::new(),
                },
            )
    };
    open_editor(&mut h);
    h.run();
    assert!(h.query_by_label("Recover unsaved work?").is_some());
    h.get_by_label("Restore").click();
    h.run();
    let s = h.state();
    assert_eq!(*s.gui.editor.session.level(), edited);
    assert!(
        s.gui.editor.session.dirty(),
        "restored work is unsaved until saved"
    );
    assert_eq!(
        *s.game.world().level(),
        edited,
        "and it is what the game plays"
    );
    // The autosave thread stops with the harness; then the folder can go.
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_as_writes_the_typed_path_and_makes_it_the_level_file() {
    let dir = scratch("save-as");
    let mut h = harness(&dir);
    open_editor(&mut h);
    h.run();
    h.get_by_label("Spawn").click();
    h.run();
    let map = mapping(&h);
    click(&mut h, map.to_screen(DVec2::new(1.0, 2.0)).unwrap());
    h.run();
    file_menu(&mut h, "Save as...");
    assert!(h.query_by_label("Save level as").is_some());
    let target = dir.join("copy.ron");
    let field = h.get_by_role(Role::TextInput);
    field.focus();
    // The field starts with the current path: select it all and type over it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_role(Role::TextInput)
        .type_text(&target.display().to_string());
    h.run();
    h.get_all_by_label("Save").last().unwrap().click();
    h.run();
    let s = h.state();
    assert_eq!(s.gui.editor.session.path(), Some(target.as_path()));
    assert!(!s.gui.editor.session.dirty());
    assert_eq!(load_level(&target).unwrap(), *s.gui.editor.session.level());
    assert_eq!(
        load_level(dir.join("level.ron")).unwrap(),
        level(),
        "the old file is untouched"
    );
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The toolbar's buttons, first to last.
const TOOLBAR: [&str; 17] = [
    "File",
    "Undo",
    "Redo",
    "Select",
    "Draw",
    "Box",
    "Tiles",
    "Ladder",
    "Spawn",
    "Hero here",
    "Objects",
    "Run",
    "Step",
    "Reset",
    "Record",
    "Play back",
    "Play (Tab)",
];

/// At 1280 points the toolbar is one row (every button at the first one's height, none past the
/// right edge); at 1024 it may wrap, but every button stays on screen, inside the toolbar's two
/// rows, and clickable.
#[test]
fn the_toolbar_fits_one_row_at_1280_and_stays_usable_at_1024() {
    for (width, rows) in [(1280.0, 1.0), (1024.0, 2.0)] {
        let dir = scratch(&format!("toolbar-{width}"));
        let mut h = harness_sized(&dir, (width, 720.0), false);
        open_editor(&mut h);
        h.run();
        let first = h.get_by_label("File").rect();
        let row = first.height() + 8.0;
        for label in TOOLBAR {
            let r = h.get_by_label(label).rect();
            assert!(
                r.min.x >= 0.0 && r.max.x <= width,
                "at {width}: {label} at {r:?} is off screen"
            );
            assert!(
                r.min.y < first.min.y + row * (rows - 1.0) + 1.0,
                "at {width}: {label} at {r:?} is below row {rows} (first row {first:?})"
            );
        }
        // Still clickable where it wrapped: the last button closes the editor.
        h.get_by_label("Play (Tab)").click();
        h.run();
        assert!(
            !h.state().game.editing(),
            "at {width}: Play (Tab) closed the editor"
        );
        drop(h);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
