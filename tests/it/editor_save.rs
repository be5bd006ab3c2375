//! Saving from the editor, through its dialogs (`egui_kittest`, headless): a file holding comments
//! is not rewritten before the user agrees, and a level shipped in an unpacked archive is saved to
//! the user's levels directory, with the path shown. Only the editor's dialogs are drawn here
//! (`editor::ui::panels::dialogs`); the session and the files are checked after each step.
use std::path::{Path, PathBuf};

use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use glam::DVec2;
use tessera::editor::ui::{panels, Command, EditorUi};
use tessera::editor::{Edit, EditorSession};
use tessera::level::{has_comments, load_level, SavePlaces, UserDirs};
use tessera::movement::Tuning;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tessera-editor-save-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn shipped_default() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/default.ron"))
        .unwrap()
}

struct State {
    ed: EditorUi,
    commands: Vec<Command>,
}

/// The editor on `path` (one edit made, so there is something to save), with its dialogs drawn
/// each frame.
fn harness(path: &Path, places: SavePlaces, user: &UserDirs) -> Harness<'static, State> {
    let mut session = EditorSession::new(load_level(path).unwrap(), Some(path.to_path_buf()));
    session.set_save_places(places);
    session
        .edit(
            Edit::MoveSpawn {
                to: DVec2::new(-5.0, 0.0),
            },
            DVec2::ZERO,
        )
        .unwrap();
    let ed = EditorUi::new(session, Tuning::default(), None, Some(user.recovery_dir()));
    Harness::builder()
        .with_size(egui::vec2(1280.0, 720.0))
        .build_ui_state(
            |ui, s: &mut State| {
                let mut out = Vec::new();
                panels::dialogs(&mut s.ed, ui, &mut out);
                s.commands.extend(out);
            },
            State {
                ed,
                commands: Vec::new(),
            },
        )
}

const PROMPT: &str = "Save without the file's comments?";

#[test]
fn saving_a_commented_file_asks_first_and_cancel_keeps_it() {
    let dir = scratch("cancel");
    let path = dir.join("commented.ron");
    let text = shipped_default();
    std::fs::write(&path, &text).unwrap();
    let mut h = harness(
        &path,
        SavePlaces::default(),
        &UserDirs::at(dir.join("user")),
    );
    h.state_mut().ed.save();
    h.run();
    assert!(h.query_by_label(PROMPT).is_some(), "the prompt appears");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        text,
        "not rewritten"
    );
    assert!(h.state().ed.session.dirty());
    // Saving again while it is open (Ctrl+S, the toolbar) still writes nothing.
    h.state_mut().ed.save();
    h.run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    h.get_by_label("Cancel").click();
    h.run();
    assert!(h.query_by_label(PROMPT).is_none() && !h.state().ed.dialog_open());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    assert!(h.state().ed.session.dirty());
    assert!(
        h.state()
            .ed
            .status()
            .is_some_and(|s| s.contains("keeps its comments")),
        "{:?}",
        h.state().ed.status()
    );
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn save_anyway_writes_the_level_without_comments_and_save_as_asks_for_a_path() {
    let dir = scratch("anyway");
    let path = dir.join("commented.ron");
    std::fs::write(&path, shipped_default()).unwrap();
    let mut h = harness(
        &path,
        SavePlaces::default(),
        &UserDirs::at(dir.join("user")),
    );

    // "Save to another file...": the path dialog, the file untouched.
    h.state_mut().ed.save();
    h.run();
    h.get_by_label("Save to another file...").click();
    h.run();
    assert!(h.query_by_label("Save level as").is_some());
    assert!(has_comments(&std::fs::read_to_string(&path).unwrap()));
    h.get_by_label("Cancel").click();
    h.run();
    assert!(!h.state().ed.dialog_open());

    // "Save anyway": written, without comments; the next save does not ask.
    h.state_mut().ed.save();
    h.run();
    h.get_by_label("Save anyway").click();
    h.run();
    assert!(!h.state().ed.dialog_open());
    assert!(!h.state().ed.session.dirty());
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(!has_comments(&saved));
    assert_eq!(load_level(&path).unwrap(), *h.state().ed.session.level());
    h.state_mut()
        .ed
        .session
        .edit(
            Edit::MoveSpawn {
                to: DVec2::new(-6.0, 0.0),
            },
            DVec2::ZERO,
        )
        .unwrap();
    h.state_mut().ed.save();
    h.run();
    assert!(!h.state().ed.dialog_open() && !h.state().ed.session.dirty());
    assert_eq!(load_level(&path).unwrap().spawn, DVec2::new(-6.0, 0.0));
    assert!(h.state().commands.is_empty());
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn quitting_with_unsaved_changes_asks_about_comments_then_quits_once_saved() {
    let dir = scratch("quit");
    let path = dir.join("commented.ron");
    let text = shipped_default();
    std::fs::write(&path, &text).unwrap();
    let mut h = harness(
        &path,
        SavePlaces::default(),
        &UserDirs::at(dir.join("user")),
    );
    assert!(!h.state_mut().ed.request_quit(), "unsaved: asks first");
    h.run();
    h.get_by_label("Save").click();
    h.run();
    assert!(h.query_by_label(PROMPT).is_some());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    assert!(h.state().commands.is_empty(), "no quit before the answer");
    // The pointer moves to the button first, as a mouse does (egui does not take a move and a
    // click in one frame, right after the previous dialog's click, as a click here).
    h.get_by_label("Save anyway").hover();
    h.run();
    h.get_by_label("Save anyway").click();
    h.run();
    assert!(!h.state().ed.session.dirty());
    assert!(!has_comments(&std::fs::read_to_string(&path).unwrap()));
    assert_eq!(h.state().commands, vec![Command::Quit]);
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_shipped_level_of_an_unpacked_archive_is_saved_to_the_users_directory_with_the_path_shown() {
    let dir = scratch("archive");
    // The release layout: the executable beside `levels/`.
    let archive = dir.join("tessera-0.1.0-x86_64-linux");
    std::fs::create_dir_all(archive.join("levels")).unwrap();
    std::fs::write(archive.join("tessera"), "").unwrap();
    let shipped = archive.join("levels/default.ron");
    let text = shipped_default();
    std::fs::write(&shipped, &text).unwrap();
    let user = UserDirs::at(dir.join("user"));
    let places = SavePlaces {
        install: Some(archive.clone()),
        user_levels: Some(user.levels_dir()),
    };
    let copy = user.levels_dir().join("default.ron");

    let mut h = harness(&shipped, places.clone(), &user);
    h.state_mut().ed.save();
    h.run();
    assert!(
        !h.state().ed.dialog_open(),
        "no prompt: the shipped file is kept"
    );
    assert_eq!(std::fs::read_to_string(&shipped).unwrap(), text);
    let ed = &h.state().ed;
    assert_eq!(ed.session.path(), Some(copy.as_path()));
    assert_eq!(load_level(&copy).unwrap(), *ed.session.level());
    let status = ed.status().unwrap();
    assert!(
        status.contains(&copy.display().to_string()) && status.contains("ships with the game"),
        "{status}"
    );
    drop(h);

    // A later session on the shipped level: the copy exists, so the path dialog opens with it.
    let mut h = harness(&shipped, places, &user);
    h.state_mut().ed.save();
    h.run();
    assert!(h.query_by_label("Save level as").is_some());
    let shown = copy.display().to_string();
    assert!(
        h.query_all_by_value(shown.as_str()).next().is_some(),
        "the dialog holds {shown}"
    );
    assert_eq!(load_level(&copy).unwrap().spawn, DVec2::new(-5.0, 0.0));
    assert_eq!(std::fs::read_to_string(&shipped).unwrap(), text);
    drop(h);
    std::fs::remove_dir_all(&dir).unwrap();
}
