//! The editor's view as a designer meets it, headless (`egui_kittest`): no collision overlay by
//! default, every overlay one click away in one menu and remembered in the user's settings, and
//! panels of fixed width (the view never moves under the pointer when the selection changes).
use egui_kittest::kittest::Queryable;
use glam::DVec2;
use tessera::app::settings::Settings;
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
