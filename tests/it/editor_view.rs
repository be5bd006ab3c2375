//! The editor's view as a designer meets it, headless (`egui_kittest`): no collision overlay by
//! default, every overlay one click away in one menu and remembered in the user's settings, and
//! panels of fixed width (the view never moves under the pointer when the selection changes);
//! placements snapped to the grid, "at the hero" included, and no new goal over the spawn.
use egui_kittest::kittest::Queryable;
use glam::DVec2;
use tessera::app::settings::Settings;
use tessera::collision::Aabb;
use tessera::editor::kinds::{kind, Placement};
use tessera::editor::Edit;
use tessera::level::UserDirs;

use super::editor_ui::{click, harness_sized, mapping, open_editor, scratch, SIZE};

#[test]
fn no_overlay_by_default_one_click_to_turn_one_on_and_it_is_remembered() {
    let dir = scratch("overlays");
    let mut h = harness_sized(&dir, SIZE, false);
    open_editor(&mut h);
    h.run();
    assert!(
        !h.state().gui.editor.overlays.any(),
        "the default editor view draws no collision overlay"
    );

    // The panels keep their width when the selection changes: the view stays where it was.
    let right = h.get_by_label("Selection").rect();
    let left = h.get_by_label("Overlays").rect();
    let map = mapping(&h);
    click(&mut h, map.to_screen(DVec2::new(0.0, -0.5)).unwrap());
    h.run();
    assert_eq!(
        h.state().gui.editor.session.selection.polygons.len(),
        1,
        "the floor is selected"
    );
    assert_eq!(h.get_by_label("Selection").rect(), right);
    assert_eq!(h.get_by_label("Overlays").rect(), left);
    // The selection's rows fit the panel, and the view (its gestures and overlays) ends where
    // the panel begins: a row wider than the panel widened it about 50 points over the view,
    // whose grid and outlines were drawn on the panel.
    let view = h.state().gui.editor.view_rect();
    assert!(
        view.max.x <= right.min.x && view.min.x >= left.max.x,
        "the view {view:?}, the selection's heading at {}, the Overlays button to {}",
        right.min.x,
        left.max.x
    );
    let width = SIZE.0;
    let rotate = h.get_by_label("+90 deg").rect();
    assert!(rotate.max.x <= width, "{rotate:?}");

    // The overlay menu: one click opens it, one click turns a layer on.
    h.get_by_label("Overlays").click();
    h.run();
    h.get_all_by_label("inflated outlines")
        .next()
        .unwrap()
        .click();
    h.run();
    let overlays = h.state().gui.editor.overlays;
    assert!(overlays.standing.inflated && !overlays.standing.triangles);
    assert!(!overlays.crouching.inflated);
    let file = UserDirs::at(dir.join("user")).settings_file();
    assert_eq!(Settings::load(&file).unwrap().editor_overlays, overlays);
    drop(h);

    // The next editor opens with the same overlays.
    let h = harness_sized(&dir, SIZE, false);
    assert_eq!(h.state().gui.editor.overlays, overlays);
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn placements_at_the_hero_and_hero_here_are_snapped_and_no_goal_covers_the_spawn() {
    let p = DVec2::new;
    let dir = scratch("snapped");
    let mut h = harness_sized(&dir, SIZE, false);
    open_editor(&mut h);
    h.run();

    // The hero off the grid, a rounding error above the floor (its top is y = 0).
    let w = h.state_mut().game.world_mut();
    w.place_hero(p(2.453474044799805, 0.025382518768310547))
        .unwrap();
    h.run();
    h.get_by_label("Add checkpoint at the hero").click();
    h.run();
    assert_eq!(
        h.state().gui.editor.session.level().checkpoints,
        vec![Aabb {
            min: p(2.0, 0.0),
            max: p(3.0, 2.5)
        }],
        "the checkpoint's bottom centre is the hero's feet on the grid"
    );

    // At the spawn, no goal or checkpoint is offered at the hero; a dragged box over the spawn
    // is refused, one beside it is taken.
    h.state_mut()
        .game
        .world_mut()
        .place_hero(p(0.0, 0.0))
        .unwrap();
    h.run();
    assert!(h.query_by_label("Add goal at the hero").is_none());
    assert!(h.query_by_label("Add checkpoint at the hero").is_none());
    let level = h.state().gui.editor.session.level().clone();
    for name in ["goal", "checkpoint"] {
        let over = Aabb {
            min: p(-20.0, -10.0),
            max: p(20.0, 20.0),
        };
        assert!(
            kind(name).placed(&level, Placement::Box(over)).is_none(),
            "{name}"
        );
        let beside = Aabb {
            min: p(3.0, 0.0),
            max: p(4.0, 2.5),
        };
        assert!(
            kind(name).placed(&level, Placement::Box(beside)).is_some(),
            "{name}"
        );
    }

    // "Hero here": the hero stands on the grid point nearest the click, on the floor.
    h.get_by_label("Hero here").click();
    h.run();
    let map = mapping(&h);
    click(&mut h, map.to_screen(p(1.06, 0.08)).unwrap());
    h.run();
    assert_eq!(h.state().game.world().hero().body.pos, p(1.0, 0.0));
    h.state_mut().game.step_once();
    assert!(h.state().game.world().hero().grounded(), "not in the air");
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_status_bar_shows_design_warnings_live_with_the_object_named() {
    let p = DVec2::new;
    let dir = scratch("design");
    let mut h = harness_sized(&dir, SIZE, false);
    open_editor(&mut h);
    h.run();
    assert!(h.state().gui.editor.design_warnings().is_empty());
    let goal = Aabb {
        min: p(3.0, 0.0),
        max: p(4.0, 2.5),
    };
    let s = &mut h.state_mut().gui.editor.session;
    s.place_object(kind("goal"), Placement::Box(goal), p(3.0, 0.0));
    h.run();
    assert!(h.state().gui.editor.design_warnings().is_empty());

    // The spawn dragged into the goal: the status bar says so at once, naming the goal.
    let s = &mut h.state_mut().gui.editor.session;
    s.edit(Edit::MoveSpawn { to: p(3.5, 0.0) }, p(3.5, 0.0))
        .unwrap();
    h.run();
    let warnings = h.state().gui.editor.design_warnings().to_vec();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(warnings[0].object, "goal");
    assert!(h
        .query_by_label_contains(
            "warning: goal: the region min (3, 0) max (4, 2.5) covers the spawn"
        )
        .is_some());
    // Undone, the warning goes.
    assert!(h.state_mut().gui.editor.session.undo());
    h.run();
    assert!(h.state().gui.editor.design_warnings().is_empty());
    assert!(h.query_by_label_contains("covers the spawn").is_none());
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_from_here_starts_at_the_pointer_and_the_editor_comes_back_to_the_level_as_it_was() {
    let p = DVec2::new;
    let dir = scratch("play-here");
    let mut h = harness_sized(&dir, SIZE, false);
    open_editor(&mut h);
    h.run();
    let before = h.state().gui.editor.session.level().clone();

    // A right click in the view, a little off the grid point (2, 0) on the floor.
    let at = mapping(&h).to_screen(p(2.06, 0.08)).unwrap();
    h.event(egui::Event::PointerMoved(at));
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    h.run();
    h.get_by_label("Play from here").click();
    h.run();
    let s = h.state();
    assert!(!s.game.editing(), "playing");
    assert!(s.game.mode().simulates());
    assert_eq!(s.game.world().hero().body.pos, p(2.0, 0.0));

    // Play a while.
    for _ in 0..30 {
        h.state_mut().game.step_once();
    }
    assert!(h.state().game.world().frame() > 0);

    // Back to the editor: the world as the level starts it, the document untouched.
    let s = h.state_mut();
    s.gui
        .apply(&mut s.game, tessera::app::AppCommand::ToggleEditor);
    h.run();
    let s = h.state();
    assert!(s.game.editing());
    assert_eq!(s.game.world().hero().body.pos, before.spawn);
    assert_eq!(*s.gui.editor.session.level(), before);
    assert!(!s.gui.editor.session.dirty());
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}
