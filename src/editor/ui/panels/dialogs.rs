//! The dialogs over the editor: a path to open or save as, unsaved changes, a recovery file,
//! comments a save would drop.
use std::path::PathBuf;

use egui::Ui;

use super::super::{Command, Dialog, EditorUi, Then};
use crate::editor::recovery;
use crate::level::Level;

/// The open dialog, if any: a path to open or save as, the unsaved-changes prompt, the
/// recovery prompt.
pub fn dialogs(ed: &mut EditorUi, ui: &mut Ui, out: &mut Vec<Command>) {
    let Some(d) = ed.dialog.clone() else {
        return;
    };
    let ctx = ui.ctx().clone();
    let mut close = false;
    egui::Modal::new(egui::Id::unique("editor_dialog")).show(&ctx, |ui| match d.clone() {
        Dialog::Path { save, mut text } => {
            ui.heading(if save { "Save level as" } else { "Open level" });
            let r = ui.add(
                egui::TextEdit::singleline(&mut text)
                    .hint_text("path/to/level.ron")
                    .desired_width(360.0),
            );
            r.request_focus();
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ed.dialog = Some(Dialog::Path {
                save,
                text: text.clone(),
            });
            ui.horizontal(|ui| {
                let ok = ui.button(if save { "Save" } else { "Open" }).clicked() || enter;
                if ok && !text.trim().is_empty() {
                    let p = PathBuf::from(text.trim());
                    if save {
                        ed.save_as(p);
                    } else {
                        ed.open(p);
                    }
                    close = true;
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        }
        Dialog::Unsaved { then } => {
            ui.heading("Unsaved changes");
            ui.label("The level has changes that are not saved.");
            ui.horizontal(|ui| {
                if ui.button("Save").clicked() {
                    ed.save();
                    if !ed.session.dirty() {
                        close = true;
                        continue_with(ed, &then, out);
                    } else if let Some(Dialog::Comments { then: after, .. }) = &mut ed.dialog {
                        // Asked about the file's comments first: goes on once saved.
                        *after = Some(then.clone());
                    }
                }
                if ui.button("Discard").clicked() {
                    if let Some(a) = &mut ed.autosave {
                        a.discard();
                    }
                    close = true;
                    continue_with(ed, &then, out);
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        }
        Dialog::Restore { pending } => {
            ui.heading("Recover unsaved work?");
            ui.label(format!(
                "{} holds edits newer than the level file.",
                pending.file.display()
            ));
            ui.horizontal(|ui| {
                if ui.button("Restore").clicked() {
                    match recovery::load(&pending.file) {
                        Ok(level) => restore(ed, level),
                        Err(e) => ed.status = Some(format!("cannot restore: {e}")),
                    }
                    close = true;
                }
                if ui.button("Discard").clicked() {
                    if let Some(a) = &mut ed.autosave {
                        a.discard();
                    }
                    close = true;
                }
            });
        }
        Dialog::Comments {
            path,
            comments,
            first_line,
            then,
        } => {
            let answer = Answer {
                close: &mut close,
                out,
            };
            comments_prompt(ed, ui, path, (comments, first_line), then, answer)
        }
    });
    // A prompt that opened another dialog (Save with no file yet → Save as; Discard → Open)
    // leaves the new one open.
    if close && (ed.dialog.as_ref() == Some(&d) || matches!(d, Dialog::Path { .. })) {
        ed.dialog = None;
    }
}

/// Where a prompt's answer goes: whether the dialog closes, and the game's commands.
struct Answer<'a> {
    close: &'a mut bool,
    out: &'a mut Vec<Command>,
}

/// Saving would replace a file holding comments (the editor writes the level without them).
/// The file holds `comments` comments, the first on `first_line`; `then` is what the
/// unsaved-changes prompt that asked for the save goes on with once saved.
fn comments_prompt(
    ed: &mut EditorUi,
    ui: &mut Ui,
    path: PathBuf,
    (comments, first_line): (usize, usize),
    then: Option<Then>,
    answer: Answer<'_>,
) {
    ui.heading("Save without the file's comments?");
    ui.label(format!(
        "{} holds {comments} comment(s) (the first on line {first_line}). The editor writes the \
         level from what it shows, so saving replaces the file without them.",
        path.display()
    ));
    ui.horizontal(|ui| {
        if ui.button("Save anyway").clicked() {
            *answer.close = true;
            ed.save_dropping_comments(path.clone());
            if let (false, Some(then)) = (ed.session.dirty(), &then) {
                continue_with(ed, then, answer.out);
            }
        }
        if ui.button("Save to another file...").clicked() {
            *answer.close = true;
            ed.dialog = Some(Dialog::Path {
                save: true,
                text: String::new(),
            });
        }
        if ui.button("Cancel").clicked() {
            *answer.close = true;
            ed.status = Some(format!("not saved: {} keeps its comments", path.display()));
        }
    });
}

fn continue_with(ed: &mut EditorUi, then: &Then, out: &mut Vec<Command>) {
    match then {
        Then::Quit => out.push(Command::Quit),
        Then::Open => {
            ed.dialog = Some(Dialog::Path {
                save: false,
                text: String::new(),
            })
        }
    }
}

/// Puts a recovered level in the session, marked unsaved.
pub fn restore(ed: &mut EditorUi, level: Level) {
    let path = ed.session.path().map(|p| p.to_path_buf());
    ed.session.replace(level, path, false);
    ed.status = Some("restored unsaved work from the recovery file".into());
}
