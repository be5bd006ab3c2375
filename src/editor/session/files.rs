//! Saving and opening: where a save goes (never into the game's install directory, never over
//! comments without asking), atomic writes, and replacing the document.
use std::path::{Path, PathBuf};

use super::{EditorSession, Gesture};
use crate::level::{
    find_comments, load_level, save_level, FileError, Level, LevelError, SavePlaces, SaveTarget,
};

/// What a save did, or why it wrote nothing and what the caller must ask the user.
///
/// A save never writes into the game's install directory (a level shipped in an unpacked archive:
/// its user's copy is written instead), and never silently drops comments: the editor writes the
/// level from its document, so a file on disk that holds comments (`//`, `/* */`) is replaced
/// only after the user agreed ([`EditorSession::allow_dropping_comments`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveOutcome {
    /// Written to this file (the session's file from now on).
    Written(PathBuf),
    /// `shipped` ships with the game and was left as it was; the level was written to the user's
    /// `copy`, which is the session's file from now on.
    Copied {
        /// The shipped level.
        shipped: PathBuf,
        /// The user's copy, written.
        copy: PathBuf,
    },
    /// Nothing written: the document has no file yet (ask for one, then [`EditorSession::save_as`]).
    NeedsPath,
    /// Nothing written: `shipped` ships with the game, and its copy in the user's directory
    /// already exists (from an earlier session: replacing it could lose that work), or there is
    /// no user directory (`copy` is `None`). Ask for a path, suggesting `copy`.
    ShippedNeedsPath {
        /// The shipped level.
        shipped: PathBuf,
        /// The suggested path: the user's copy.
        copy: Option<PathBuf>,
    },
    /// Nothing written: `path` holds comments that the save would drop. Ask: save anyway
    /// ([`EditorSession::allow_dropping_comments`], then save again), save as another file, or
    /// cancel.
    WouldDropComments {
        /// The file that would be replaced.
        path: PathBuf,
        /// How many comments it holds.
        comments: usize,
        /// The line of the first one.
        first_line: usize,
    },
}

impl EditorSession {
    /// Saves to the session's file (atomically; an invalid level is never written); see
    /// [`SaveOutcome`] for what is written where, and when nothing is.
    pub fn save(&mut self) -> Result<SaveOutcome, LevelError> {
        match self.path.clone() {
            Some(p) => self.save_as(&p),
            None => Ok(SaveOutcome::NeedsPath),
        }
    }

    /// Saves to `path` and makes it the session's file: unless `path` ships with the game (then
    /// its user's copy), and not over a file holding comments the user has not agreed to drop
    /// (see [`SaveOutcome`]).
    pub fn save_as(&mut self, path: &Path) -> Result<SaveOutcome, LevelError> {
        let places = self.save_places.get_or_insert_with(SavePlaces::resolve);
        let (target, shipped) = match places.target(path) {
            SaveTarget::InPlace => (path.to_path_buf(), None),
            SaveTarget::Copy(copy) => {
                if copy.exists() && !self.copies_written.contains(&copy) {
                    return Ok(SaveOutcome::ShippedNeedsPath {
                        shipped: path.to_path_buf(),
                        copy: Some(copy),
                    });
                }
                (copy, Some(path.to_path_buf()))
            }
            SaveTarget::NoPlace => {
                return Ok(SaveOutcome::ShippedNeedsPath {
                    shipped: path.to_path_buf(),
                    copy: None,
                })
            }
        };
        if self.drop_comments_ok.as_deref() != Some(target.as_path()) {
            // A file that cannot be read is not checked: writing it reports the real problem.
            if let Ok(text) = std::fs::read_to_string(&target) {
                let comments = find_comments(&text);
                if let Some(first) = comments.first() {
                    return Ok(SaveOutcome::WouldDropComments {
                        path: target,
                        comments: comments.len(),
                        first_line: first.line,
                    });
                }
            }
        }
        if shipped.is_some() {
            if let Some(dir) = target.parent() {
                std::fs::create_dir_all(dir).map_err(|error| {
                    LevelError::File(FileError::Write {
                        path: target.clone(),
                        error,
                    })
                })?;
            }
        }
        save_level(&target, &self.level.read())?;
        self.path = Some(target.clone());
        self.saved = Some(self.state);
        Ok(match shipped {
            Some(shipped) => {
                self.copies_written.insert(target.clone());
                SaveOutcome::Copied {
                    shipped,
                    copy: target,
                }
            }
            None => SaveOutcome::Written(target),
        })
    }

    /// The user agreed that saving over `path` drops its comments: the next save to it writes.
    pub fn allow_dropping_comments(&mut self, path: &Path) {
        self.drop_comments_ok = Some(path.to_path_buf());
    }

    /// Opens `path` in place of the document (the history is cleared). On error nothing
    /// changes.
    pub fn open(&mut self, path: &Path) -> Result<(), LevelError> {
        let level = load_level(path)?;
        self.replace(level, Some(path.to_path_buf()), true);
        Ok(())
    }

    /// Replaces the document (a restored recovery file: `saved` false keeps it marked unsaved).
    pub fn replace(&mut self, level: Level, path: Option<PathBuf>, saved: bool) {
        self.level.replace(level);
        self.start_afresh(path, saved);
        self.changed();
    }

    /// The shared document was replaced by its other holder with the level saved at `path` (the
    /// game's world has just started playing it): edits start afresh on it, with no history. It
    /// already plays it, so this is no change for the game to follow.
    pub fn adopt(&mut self, path: PathBuf) {
        self.start_afresh(Some(path), true);
        self.revision += 1;
        // A change of the previous document not yet followed is moot.
        self.changed = false;
    }

    /// A new document: no history, selection, gesture or message; `saved` at `path` or not.
    fn start_afresh(&mut self, path: Option<PathBuf>, saved: bool) {
        self.path = path;
        self.history.clear();
        self.undo_states.clear();
        self.redo_states.clear();
        self.state = self.next_state;
        self.next_state += 1;
        self.saved = saved.then_some(self.state);
        self.selection.clear();
        self.drawing.clear();
        self.gesture = Gesture::None;
        self.message = None;
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::super::tests::{level, p, NONE, R};
    use super::super::{EditorSession, Tool};
    use super::SaveOutcome;
    use crate::editor::ops::Edit;
    use crate::level::{load_level, SavePlaces};

    #[test]
    fn saving_clears_the_dirty_mark_and_open_replaces_the_document() {
        let d = std::env::temp_dir().join(format!("tessera-session-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let path = d.join("l.ron");
        let mut s = EditorSession::new(level(), None);
        assert!(s.dirty(), "never saved");
        assert_eq!(s.save().unwrap(), SaveOutcome::NeedsPath, "no file yet");
        s.set_tool(Tool::Spawn);
        s.press(p(2., 4.), R, NONE);
        s.save_as(&path).unwrap();
        assert!(!s.dirty());
        let r = s.revision();
        s.undo();
        assert!(s.dirty() && s.revision() > r);
        s.open(&path).unwrap();
        assert!(!s.dirty() && !s.history().can_undo());
        assert_eq!(s.level().spawn, p(2., 4.));
        assert!(s.open(&d.join("missing.ron")).is_err());
        assert_eq!(s.level().spawn, p(2., 4.), "a failed open changes nothing");
        std::fs::remove_dir_all(&d).unwrap();
    }

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("tessera-session-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A session on `path` (a copy of the shipped, commented default level) with one edit.
    fn edited(path: &Path, places: SavePlaces) -> EditorSession {
        let mut s = EditorSession::new(load_level(path).unwrap(), Some(path.to_path_buf()));
        s.set_save_places(places);
        s.edit(Edit::MoveSpawn { to: p(-5., 0.) }, p(0., 0.))
            .unwrap();
        s
    }

    fn shipped_default() -> String {
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/default.ron"))
            .unwrap()
    }

    #[test]
    fn saving_over_comments_asks_first_and_writes_only_once_allowed() {
        let d = scratch("comments");
        let path = d.join("commented.ron");
        let text = shipped_default();
        std::fs::write(&path, &text).unwrap();
        let mut s = edited(&path, SavePlaces::default());
        let asked = s.save().unwrap();
        let SaveOutcome::WouldDropComments {
            path: at,
            comments,
            first_line,
        } = asked.clone()
        else {
            panic!("{asked:?}")
        };
        assert_eq!((at.as_path(), first_line), (path.as_path(), 1));
        assert_eq!(comments, crate::level::find_comments(&text).len());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "not rewritten"
        );
        assert!(s.dirty());
        // Saving as another commented file asks too; a file without comments is written.
        let other = d.join("other.ron");
        std::fs::write(
            &other,
            "/* mine */ (name: \"o\", polygons: [], spawn: (0.0, 0.0))",
        )
        .unwrap();
        assert!(matches!(
            s.save_as(&other).unwrap(),
            SaveOutcome::WouldDropComments { .. }
        ));
        assert_eq!(
            s.path(),
            Some(path.as_path()),
            "the file stays the session's"
        );
        // The user agrees: written, without comments; later saves do not ask again.
        s.allow_dropping_comments(&path);
        assert_eq!(s.save().unwrap(), SaveOutcome::Written(path.clone()));
        assert!(!s.dirty());
        let saved = std::fs::read_to_string(&path).unwrap();
        assert!(!crate::level::has_comments(&saved));
        assert_eq!(load_level(&path).unwrap().spawn, p(-5., 0.));
        s.edit(Edit::MoveSpawn { to: p(-6., 0.) }, p(0., 0.))
            .unwrap();
        assert_eq!(s.save().unwrap(), SaveOutcome::Written(path.clone()));
        // Agreement is per file: the other file still asks.
        assert!(matches!(
            s.save_as(&other).unwrap(),
            SaveOutcome::WouldDropComments { .. }
        ));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_shipped_level_of_an_unpacked_archive_is_saved_to_the_users_directory() {
        let d = scratch("archive");
        let archive = d.join("tessera-0.1.0-x86_64-linux");
        std::fs::create_dir_all(archive.join("levels")).unwrap();
        std::fs::write(archive.join("tessera"), "").unwrap();
        let shipped = archive.join("levels/default.ron");
        let text = shipped_default();
        std::fs::write(&shipped, &text).unwrap();
        let user = crate::level::UserDirs::at(d.join("user"));
        let places = SavePlaces {
            install: Some(archive.clone()),
            user_levels: Some(user.levels_dir()),
        };
        let copy = user.levels_dir().join("default.ron");

        let mut s = edited(&shipped, places.clone());
        // The shipped file is left alone, so its comments are not lost: no prompt.
        assert_eq!(
            s.save().unwrap(),
            SaveOutcome::Copied {
                shipped: shipped.clone(),
                copy: copy.clone()
            }
        );
        assert_eq!(std::fs::read_to_string(&shipped).unwrap(), text);
        assert_eq!(s.path(), Some(copy.as_path()));
        assert!(!s.dirty());
        assert_eq!(load_level(&copy).unwrap(), *s.level());
        // Later saves go to the copy.
        s.edit(Edit::MoveSpawn { to: p(-6., 0.) }, p(0., 0.))
            .unwrap();
        assert_eq!(s.save().unwrap(), SaveOutcome::Written(copy.clone()));
        assert_eq!(load_level(&copy).unwrap().spawn, p(-6., 0.));
        assert_eq!(std::fs::read_to_string(&shipped).unwrap(), text);

        // Another session on the shipped level: the copy exists (earlier work), so it asks for a
        // path, suggesting the copy, and writes nothing.
        let mut again = edited(&shipped, places.clone());
        assert_eq!(
            again.save().unwrap(),
            SaveOutcome::ShippedNeedsPath {
                shipped: shipped.clone(),
                copy: Some(copy.clone())
            }
        );
        assert_eq!(load_level(&copy).unwrap().spawn, p(-6., 0.));
        // Saving as the suggested copy (what the dialog does) replaces it.
        assert_eq!(
            again.save_as(&copy).unwrap(),
            SaveOutcome::Written(copy.clone())
        );
        assert_eq!(load_level(&copy).unwrap().spawn, p(-5., 0.));

        // No user directory: asks for a path.
        let mut nowhere = edited(
            &shipped,
            SavePlaces {
                user_levels: None,
                ..places
            },
        );
        assert_eq!(
            nowhere.save().unwrap(),
            SaveOutcome::ShippedNeedsPath {
                shipped: shipped.clone(),
                copy: None
            }
        );
        assert_eq!(std::fs::read_to_string(&shipped).unwrap(), text);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
