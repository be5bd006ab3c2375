//! Crash safety: the document is autosaved to a recovery file in the user's data directory, so a
//! crash or `kill -9` loses at most the last [`MAX_LOSS`] of work.
//!
//! # How
//! - [`Autosave::tick`] runs every frame. When the document changed since the last write and at
//!   least [`INTERVAL`] has passed, it hands a copy of the level to a writer thread, which writes
//!   it with [`write_atomic`] (temporary file, then rename): the recovery file always holds one
//!   complete, valid level, old or new, whatever moment the process dies. The frame never waits
//!   for the disk (a copy of a 10 000-polygon level is about a millisecond).
//! - A recovery file is a plain level file (`load_level` reads and validates it), named after the
//!   level file it belongs to: `<stem>-<hash of the full path>.ron`, so two levels with the same
//!   name in different folders do not share one.
//! - Saving the level deletes its recovery file ([`Autosave::discard`]). On start, [`pending`]
//!   finds a recovery file newer than its level, which the editor offers to restore.
//!
//! # Bound
//! An edit is on disk at most [`INTERVAL`] plus one write after it was made (the writer is idle
//! again by then unless the disk stalls), so [`MAX_LOSS`] = 2 s holds with a second to spare for
//! the write. `tests/it/editor_recovery.rs` kills a process that edits and autosaves 20 times at
//! random moments and checks the bound; `tests/it/editor_kill.rs` kills the game itself, edited
//! through its window, and restores the work through the editor's prompt.
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime};

use super::session::EditorSession;
use crate::level::{level_to_ron, load_level, write_atomic, Level, LevelError};

/// Least time between two autosaves.
pub const INTERVAL: Duration = Duration::from_secs(1);

/// The most work a crash loses (see the module docs).
pub const MAX_LOSS: Duration = Duration::from_secs(2);

/// The recovery file for the level saved at `level_path` (`None`: a level never saved) in
/// `dir` (`UserDirs::recovery_dir`).
pub fn recovery_file(dir: &Path, level_path: Option<&Path>) -> PathBuf {
    let Some(path) = level_path else {
        return dir.join("unsaved.ron");
    };
    let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    // FNV-1a of the path's bytes: stable across runs and builds (std's hasher is not).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in full.to_string_lossy().bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    let stem = path
        .file_stem()
        .map_or("level".into(), |s| s.to_string_lossy().into_owned());
    dir.join(format!("{stem}-{h:016x}.ron"))
}

/// A recovery file newer than its level.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    /// The recovery file.
    pub file: PathBuf,
    /// When it was written.
    pub modified: SystemTime,
}

/// The recovery file of `level_path` if there is one newer than the level file (or the level
/// file is gone).
pub fn pending(dir: &Path, level_path: Option<&Path>) -> Option<Pending> {
    let file = recovery_file(dir, level_path);
    let modified = std::fs::metadata(&file).ok()?.modified().ok()?;
    let level_time = level_path
        .and_then(|p| std::fs::metadata(p).ok())
        .and_then(|m| m.modified().ok());
    match level_time {
        Some(t) if t >= modified => None,
        _ => Some(Pending { file, modified }),
    }
}

/// Reads a recovery file (a level file: validated on load).
pub fn load(file: &Path) -> Result<Level, LevelError> {
    load_level(file)
}

/// The autosaver of one document.
pub struct Autosave {
    file: PathBuf,
    last: Option<Instant>,
    /// The session revision last handed to the writer.
    written: Option<u64>,
    jobs: Option<SyncSender<Level>>,
    results: Receiver<Result<(), String>>,
    busy: bool,
    worker: Option<JoinHandle<()>>,
    error: Option<String>,
}

impl Autosave {
    /// An autosaver writing `file` (its folder is created on the first write).
    pub fn new(file: PathBuf) -> Self {
        let (jobs, rx) = sync_channel::<Level>(1);
        let (tx, results) = sync_channel(1);
        let target = file.clone();
        let worker = std::thread::Builder::new()
            .name("autosave".into())
            .spawn(move || {
                for level in rx {
                    let r = write(&target, &level).map_err(|e| e.to_string());
                    if tx.send(r).is_err() {
                        break;
                    }
                }
            })
            .ok();
        Autosave {
            file,
            last: None,
            written: None,
            jobs: worker.is_some().then_some(jobs),
            results,
            busy: false,
            worker,
            error: None,
        }
    }

    /// The recovery file.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The last write error, if the last write failed.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Once per frame: starts a write when the document changed and [`INTERVAL`] has passed
    /// since the last one. Never blocks on the disk.
    pub fn tick(&mut self, now: Instant, session: &EditorSession) {
        while let Ok(r) = self.results.try_recv() {
            self.finished(r);
        }
        if self.busy
            || !session.dirty()
            || self.written == Some(session.revision())
            || self.last.is_some_and(|t| now.duration_since(t) < INTERVAL)
        {
            return;
        }
        let Some(jobs) = &self.jobs else {
            // No thread could be started: write here rather than not at all.
            self.last = Some(now);
            self.written = Some(session.revision());
            if let Err(e) = write(&self.file, &session.level()) {
                self.error = Some(e.to_string());
            }
            return;
        };
        match jobs.try_send(session.level().clone()) {
            Ok(()) => {
                self.busy = true;
                self.last = Some(now);
                self.written = Some(session.revision());
            }
            Err(TrySendError::Full(_)) => {}
            Err(TrySendError::Disconnected(_)) => self.jobs = None,
        }
    }

    /// Writes the document now and waits for it (before quitting with unsaved changes kept).
    pub fn flush(&mut self, session: &EditorSession) -> Result<(), LevelError> {
        self.wait();
        write(&self.file, &session.level())?;
        self.written = Some(session.revision());
        Ok(())
    }

    /// Deletes the recovery file (the level was saved, or the changes were thrown away).
    pub fn discard(&mut self) {
        self.wait();
        self.written = None;
        match std::fs::remove_file(&self.file) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => log::warn!("cannot delete {}: {e}", self.file.display()),
        }
    }

    /// Waits for a write under way.
    fn wait(&mut self) {
        if self.busy {
            match self.results.recv() {
                Ok(r) => self.finished(r),
                Err(_) => self.busy = false,
            }
        }
    }

    fn finished(&mut self, r: Result<(), String>) {
        self.busy = false;
        match r {
            Ok(()) => self.error = None,
            Err(e) => {
                if self.error.is_none() {
                    log::warn!("autosave: {e}");
                }
                self.error = Some(e);
                self.written = None; // Tried again after the interval.
            }
        }
    }
}

impl Drop for Autosave {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(w) = self.worker.take() {
            let _ = w.join();
        }
    }
}

fn write(file: &Path, level: &Level) -> Result<(), LevelError> {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|error| crate::level::FileError::Write {
            path: dir.to_path_buf(),
            error,
        })?;
    }
    let text = level_to_ron(file, level)?;
    write_atomic(file, text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use glam::DVec2;

    use super::*;
    use crate::editor::{Edit, EditorSession};
    use crate::level::{save_level, LevelPolygon};

    fn level() -> Level {
        Level {
            polygons: vec![LevelPolygon::solid(vec![
                DVec2::new(0., 0.),
                DVec2::new(4., 0.),
                DVec2::new(4., 1.),
            ])],
            spawn: DVec2::new(1., 3.),
            ..Level::empty("r")
        }
    }

    #[test]
    fn recovery_files_are_per_path_and_newer_ones_are_offered() {
        let d = std::env::temp_dir().join(format!("tessera-recovery-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let a = d.join("a/level.ron");
        let b = d.join("b/level.ron");
        let rec = d.join("recovery");
        assert_ne!(recovery_file(&rec, Some(&a)), recovery_file(&rec, Some(&b)));
        assert_eq!(recovery_file(&rec, Some(&a)), recovery_file(&rec, Some(&a)));
        std::fs::create_dir_all(a.parent().unwrap()).unwrap();
        save_level(&a, &level()).unwrap();
        assert_eq!(pending(&rec, Some(&a)), None);

        let mut s = EditorSession::new(level(), Some(a.clone()));
        let mut auto = Autosave::new(recovery_file(&rec, Some(&a)));
        let t0 = Instant::now();
        auto.tick(t0, &s);
        assert!(!auto.file().exists(), "nothing to save while unchanged");
        s.edit(
            Edit::MoveSpawn {
                to: DVec2::new(2., 3.),
            },
            DVec2::ZERO,
        )
        .unwrap();
        auto.tick(t0, &s);
        auto.wait();
        assert_eq!(load(auto.file()).unwrap(), *s.level());
        // Within the interval: not written again.
        s.edit(
            Edit::MoveSpawn {
                to: DVec2::new(3., 3.),
            },
            DVec2::ZERO,
        )
        .unwrap();
        auto.tick(t0 + INTERVAL / 2, &s);
        auto.wait();
        assert_eq!(load(auto.file()).unwrap().spawn, DVec2::new(2., 3.));
        auto.tick(t0 + INTERVAL, &s);
        auto.wait();
        assert_eq!(load(auto.file()).unwrap().spawn, DVec2::new(3., 3.));
        let p = pending(&rec, Some(&a)).expect("newer than the level");
        assert_eq!(p.file, auto.file());
        // Saving the level makes it current; the recovery file goes.
        s.save().unwrap();
        auto.discard();
        assert_eq!(pending(&rec, Some(&a)), None);
        assert!(!auto.file().exists());
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_write_error_is_kept_and_retried() {
        let d = std::env::temp_dir().join(format!("tessera-recovery-e-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        // A file where the folder should be.
        std::fs::write(d.join("blocked"), "").unwrap();
        let mut s = EditorSession::new(level(), None);
        s.edit(
            Edit::MoveSpawn {
                to: DVec2::new(2., 3.),
            },
            DVec2::ZERO,
        )
        .unwrap();
        let mut auto = Autosave::new(d.join("blocked/unsaved.ron"));
        auto.tick(Instant::now(), &s);
        auto.wait();
        assert!(auto.error().is_some_and(|e| e.contains("blocked")));
        assert!(auto.flush(&s).is_err());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
