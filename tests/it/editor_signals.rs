//! Signals in the editor through egui, headless (`egui_kittest`): a door and a region signal
//! placed with the mouse, a drag from the signal's handle onto the door that links them (the
//! door's `open_on`), the door's panel changing the link's action, each step undone with
//! Ctrl+Z; the game's world plays the level as edited (the hero entering the region opens the
//! door).
use egui_kittest::kittest::Queryable;
use glam::DVec2;
use tessera::app::router::Mods;
use tessera::editor::ObjectRef;
use tessera::level::SignalSource;

use super::editor_objects::{drag, tool};
use super::editor_ui::{harness_sized, open_editor, press, scratch, SIZE};

#[test]
fn a_drag_from_a_signal_onto_a_door_links_them_and_undoes() {
    use tessera::input::Key as K;
    let p = DVec2::new;
    let dir = scratch("signals");
    let mut h = harness_sized(&dir, SIZE, false);
    open_editor(&mut h);
    h.run();
    tool(&mut h, "Door");
    drag(&mut h, p(-1.0, 0.0), p(-0.5, 2.0));
    h.run();
    tool(&mut h, "Signal");
    drag(&mut h, p(1.0, 0.0), p(2.0, 2.0));
    h.run();
    let level = h.state().gui.editor.session.level().clone();
    assert_eq!(
        level.signals.len(),
        1,
        "{:?}",
        h.state().gui.editor.session.message()
    );
    assert_eq!(level.signals[0].name, "signal 1");
    assert!(matches!(
        level.signals[0].source,
        SignalSource::Region { .. }
    ));
    assert!(level.doors[0].open_on.is_empty());
    // Its panel is shown: the name, and how to link it.
    h.get_by_label_contains("Drag from its handle");

    // Select, then drag from the handle (the box's top centre) onto the door.
    tool(&mut h, "Select");
    drag(&mut h, p(1.5, 2.0), p(-0.75, 1.0));
    h.run();
    let s = &h.state().gui.editor.session;
    assert_eq!(
        s.level().doors[0].open_on,
        ["signal 1"],
        "{:?}",
        s.message()
    );
    assert_eq!(s.selection.object, Some(ObjectRef::new("door", 0)));
    assert_eq!(*h.state().game.world().level(), *s.level());
    // The door's panel lists the link; "close instead" makes it close the door instead.
    h.get_by_label("`signal 1`: open");
    h.get_by_label("close instead").click();
    h.run();
    let doors = h.state().gui.editor.session.level().doors.clone();
    assert!(doors[0].open_on.is_empty());
    assert_eq!(doors[0].close_on, ["signal 1"]);
    press(&mut h, K::KeyZ, Mods::CTRL);
    h.run();
    assert_eq!(
        h.state().gui.editor.session.level().doors[0].open_on,
        ["signal 1"]
    );

    // The world plays it: the hero's feet entering the region open the door.
    assert!(!h.state().game.world().doors()[0].open);
    h.state_mut()
        .game
        .world_mut()
        .place_hero(p(1.5, 0.0))
        .unwrap();
    h.state_mut().game.step_once();
    assert!(h.state().game.world().doors()[0].open);

    // One more undo takes the link back, and the level is as placed.
    press(&mut h, K::KeyZ, Mods::CTRL);
    h.run();
    assert_eq!(*h.state().gui.editor.session.level(), level);
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}
