//! [`LevelDoc`]: the one level document of a running game, which the editor edits in place and
//! the simulation's world observes.
//!
//! # Why a shared cell
//! A game has one level at a time, and two long-lived parts need it: the world (every tick reads
//! its rules, doors and regions; a level swap or a campaign level replaces it) and the editor
//! (every frame reads it for picking and drawing; an edit, undo or redo changes a few fields).
//! Both hold a handle to the same document (`Rc<RefCell<Level>>`), so an edit is made once, in
//! place, and the world follows it by rebuilding what it derives from the level (meshes in part,
//! ladders, movers, regions): no second copy of the level exists to keep in step, and nothing
//! compares revisions. The alternatives were worse:
//! - an immutable shared snapshot (`Rc<Level>`, copy on write) copies the whole level on every
//!   edit while the world still holds the old snapshot, so a drag copies it every frame;
//! - the world owning the level and the editor's session borrowing it for each call would thread
//!   a `&mut Level` through every gesture of the session (hundreds of calls) for no gain, since
//!   the game is single-threaded and the two never read it at the same moment.
//!
//! Borrows are short: [`LevelDoc::read`] for one query, [`LevelDoc::edit`] for one change (a
//! closure, so no borrow outlives it). Holding a [`LevelDoc::read`] across an edit is a bug
//! (the `RefCell` panics on it).
//!
//! Must never depend on window, GPU, audio or input crates, nor on the simulation or editor.
use std::cell::{Ref, RefCell};
use std::fmt;
use std::rc::Rc;

use super::Level;

/// A handle to the one level document: cloning it gives another handle to the same level, not a
/// copy of the level ([`LevelDoc::snapshot`] copies).
#[derive(Clone)]
pub struct LevelDoc(Rc<RefCell<Level>>);

impl LevelDoc {
    /// A new document holding `level`.
    pub fn new(level: Level) -> Self {
        LevelDoc(Rc::new(RefCell::new(level)))
    }

    /// The level, for reading; drop the guard before anything edits the document.
    pub fn read(&self) -> Ref<'_, Level> {
        self.0.borrow()
    }

    /// Changes the level in place with `change`, whose result is returned.
    pub fn edit<R>(&self, change: impl FnOnce(&mut Level) -> R) -> R {
        change(&mut self.0.borrow_mut())
    }

    /// Replaces the level, returning the one it held.
    pub fn replace(&self, level: Level) -> Level {
        self.0.replace(level)
    }

    /// A copy of the level as it is now (a file to write, a recovery snapshot).
    pub fn snapshot(&self) -> Level {
        self.0.borrow().clone()
    }

    /// Whether `self` and `other` are handles to the same document.
    pub fn same(&self, other: &LevelDoc) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl fmt::Debug for LevelDoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("LevelDoc")
            .field(&self.0.borrow().name)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(name: &str) -> Level {
        crate::level::parse_level(
            std::path::Path::new("d.ron"),
            &format!("(name: {name:?}, polygons: [], spawn: (0.0, 0.0))"),
        )
        .unwrap()
    }

    /// Two handles see one level: an edit through one is what the other reads, and nothing was
    /// copied to get there.
    #[test]
    fn handles_share_one_level() {
        let a = LevelDoc::new(level("a"));
        let b = a.clone();
        assert!(a.same(&b));
        a.edit(|l| l.spawn.x = 3.0);
        assert_eq!(b.read().spawn.x, 3.0);
        let old = b.replace(level("c"));
        assert_eq!((old.name.as_str(), a.read().name.as_str()), ("a", "c"));
        let copy = a.snapshot();
        a.edit(|l| l.name = "d".into());
        assert_eq!(copy.name, "c", "a snapshot is a copy");
        assert!(!a.same(&LevelDoc::new(copy)));
    }
}
