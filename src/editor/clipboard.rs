//! The editor's clipboard: what Copy took (polygons and objects of any registered kind) and how
//! it travels between levels and programs as **level text**.
//!
//! # What it owns
//! - [`Fragment`]: copied polygons and objects, taken from a selection ([`Fragment::copy`]) or
//!   from a level ([`Fragment::of_level`]), and the one undoable edit that pastes them moved by
//!   a delta ([`Fragment::pasted`]).
//! - The text form ([`Fragment::to_text`], [`Fragment::parse`]): a whole level file in the level
//!   format, holding only what was copied (its spawn at the copy's centre). Pasted into a text
//!   editor it is a level `tessera check` accepts; a level file's text pasted into the editor
//!   brings all its polygons and objects. Objects are written and read by their kinds through the
//!   registry (`kinds::KINDS`): a new kind is copied and pasted with no line here. A switch
//!   travels with its door (they are one object), so links inside the selection are kept.
//!
//! Must never depend on the session, the UI or a window: the editor's UI moves the text to and
//! from the system clipboard.
use std::path::Path;

use glam::DVec2;

use super::kinds::{Clip, KINDS};
use super::objects::ObjectRef;
use super::ops::{apply, Edit, EditError};
use crate::level::{level_to_ron, parse_level, Level, LevelPolygon};

/// The name written into the level text of a copy.
const FRAGMENT_NAME: &str = "clipboard";

/// Copied polygons and objects, in the level's coordinates where they were copied.
#[derive(Clone, Debug, Default)]
pub struct Fragment {
    /// Whole polygons, in their level's order.
    pub polygons: Vec<LevelPolygon>,
    /// Objects, each with its kind, in the registry's order of kinds.
    pub objects: Vec<Clip>,
}

/// What a paste added: the new polygons' indices and the new objects.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pasted {
    /// Indices of the pasted polygons in the level.
    pub polygons: Vec<usize>,
    /// The pasted objects.
    pub objects: Vec<ObjectRef>,
}

impl Fragment {
    /// Polygons `polygons` and the objects `objects` of `level` (missing ones are skipped).
    pub fn copy(level: &Level, polygons: &[usize], objects: &[ObjectRef]) -> Fragment {
        Fragment {
            polygons: polygons
                .iter()
                .filter_map(|&p| level.polygons.get(p).cloned())
                .collect(),
            objects: objects
                .iter()
                .filter_map(|o| o.kind().clip(level, o.index))
                .collect(),
        }
    }

    /// Every polygon and object of `level`.
    pub fn of_level(level: &Level) -> Fragment {
        let objects: Vec<ObjectRef> = KINDS
            .iter()
            .flat_map(|k| (0..k.count(level)).map(|i| ObjectRef::new(k.name(), i)))
            .collect();
        let polygons: Vec<usize> = (0..level.polygons.len()).collect();
        Fragment::copy(level, &polygons, &objects)
    }

    /// Whether nothing was copied.
    pub fn is_empty(&self) -> bool {
        self.polygons.is_empty() && self.objects.is_empty()
    }

    /// How many polygons and objects it holds, for the status line ("2 polygons, 1 object").
    pub fn describe(&self) -> String {
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        format!(
            "{}, {}",
            plural(self.polygons.len(), "polygon"),
            plural(self.objects.len(), "object")
        )
    }

    /// The centre of what it holds, in `level` (where the objects' paste points are measured):
    /// the middle of the box around the polygons' points and the objects' paste points.
    pub fn centre(&self, level: &Level) -> Option<DVec2> {
        let points = self
            .polygons
            .iter()
            .flat_map(|p| p.points.iter().copied())
            .chain(self.objects.iter().map(|c| c.paste_point(level)));
        let (lo, hi) = points.fold(
            (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY)),
            |(lo, hi), p| (lo.min(p), hi.max(p)),
        );
        (lo.x <= hi.x).then(|| (lo + hi) / 2.0)
    }

    /// The one edit that adds everything moved by `delta` to `level` (an [`Edit::Group`]: one
    /// undo takes the whole paste back), and what it adds; refused as the parts would be (too
    /// many polygons, an object a kind refuses there).
    pub fn pasted(&self, level: &Level, delta: DVec2) -> Result<(Edit, Pasted), EditError> {
        // Each object's edit sets its kind's whole list, so each is made on the level the ones
        // before it left (a scratch copy, once per paste).
        let mut scratch = level.clone();
        let mut parts = Vec::new();
        let mut pasted = Pasted::default();
        if !self.polygons.is_empty() {
            let polygons: Vec<LevelPolygon> = self
                .polygons
                .iter()
                .map(|q| LevelPolygon {
                    points: q.points.iter().map(|&p| p + delta).collect(),
                    ..q.clone()
                })
                .collect();
            let first = scratch.polygons.len();
            let edit = Edit::AddPolygons { polygons };
            apply(&mut scratch, &edit)?;
            pasted.polygons = (first..scratch.polygons.len()).collect();
            parts.push(edit);
        }
        for clip in &self.objects {
            let (edit, index) = clip.pasted(&scratch, delta);
            apply(&mut scratch, &edit)?;
            pasted
                .objects
                .push(ObjectRef::new(clip.kind().name(), index));
            parts.push(edit);
        }
        Ok((Edit::Group(parts), pasted))
    }

    /// The level text of this copy, as `level` (where it was copied) measures its objects: a
    /// level file holding only the copy, its spawn at the copy's centre.
    pub fn to_text(&self, level: &Level) -> String {
        let mut fragment = Level::empty(FRAGMENT_NAME);
        fragment.spawn = self.centre(level).unwrap_or(DVec2::ZERO);
        let (edit, _) = self
            .pasted(&fragment, DVec2::ZERO)
            .expect("what a valid level holds is valid alone");
        apply(&mut fragment, &edit).expect("checked by `pasted`");
        level_to_ron(Path::new(FRAGMENT_NAME), &fragment).expect("a valid level writes")
    }

    /// The fragment that level text holds (a copy from the editor, or any level file's text):
    /// all its polygons and objects. The error is one line saying what is wrong with the text,
    /// as loading it would (`clipboard:LINE:COLUMN: ...`).
    pub fn parse(text: &str) -> Result<Fragment, String> {
        let level = parse_level(Path::new(FRAGMENT_NAME), text).map_err(|e| e.to_string())?;
        Ok(Fragment::of_level(&level))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::editor::kinds::KINDS;

    fn square(x: f64, y: f64) -> LevelPolygon {
        LevelPolygon::solid(vec![
            DVec2::new(x, y),
            DVec2::new(x + 1.0, y),
            DVec2::new(x + 1.0, y + 1.0),
            DVec2::new(x, y + 1.0),
        ])
    }

    /// A level with two squares and one example object of every registered kind.
    fn level_with_every_kind() -> Level {
        let mut level = Level {
            polygons: vec![square(0.0, 0.0), square(4.0, 0.0)],
            spawn: DVec2::new(-3.0, 2.0),
            ..Level::empty("l")
        };
        for k in KINDS {
            let edit = k.add_example(&level);
            apply(&mut level, &edit).unwrap();
        }
        level
    }

    #[test]
    fn level_text_round_trips_every_kind() {
        let level = level_with_every_kind();
        let all = Fragment::of_level(&level);
        assert_eq!(all.polygons.len(), 2);
        for k in KINDS {
            assert!(
                all.objects.iter().any(|c| c.kind().name() == k.name()),
                "{} is copied",
                k.name()
            );
        }
        let text = all.to_text(&level);
        // The text is a level: parsed back, then pasted at no offset into an empty level, it
        // holds what was copied.
        let back = Fragment::parse(&text).unwrap();
        let mut empty = Level {
            spawn: level.spawn,
            ..Level::empty("l")
        };
        let (edit, _) = back.pasted(&empty, DVec2::ZERO).unwrap();
        apply(&mut empty, &edit).unwrap();
        let mut expected = level.clone();
        expected.name = empty.name.clone();
        assert_eq!(empty, expected);
    }

    #[test]
    fn a_paste_is_one_edit_whose_inverse_restores_the_level() {
        let level = level_with_every_kind();
        let mut copy = Fragment::of_level(&level);
        // A level holds one goal: a paste with a second is refused whole, the level untouched.
        assert_eq!(
            copy.pasted(&level, DVec2::new(20.0, 0.0)).unwrap_err(),
            EditError::TooMany {
                kind: "goal",
                most: 1
            }
        );
        copy.objects.retain(|c| c.kind().name() != "goal");
        let mut after = level.clone();
        let (edit, pasted) = copy.pasted(&after, DVec2::new(20.0, 0.0)).unwrap();
        let applied = apply(&mut after, &edit).unwrap();
        assert_eq!(pasted.polygons, vec![2, 3]);
        assert_eq!(after.polygons[3].points[0], DVec2::new(24.0, 0.0));
        assert_eq!(pasted.objects.len(), copy.objects.len());
        for o in &pasted.objects {
            assert!(o.kind().count(&after) > o.index, "{o:?} exists");
        }
        apply(&mut after, &applied.inverse).unwrap();
        assert_eq!(after, level);
    }

    #[test]
    fn a_refused_part_leaves_the_level_as_it_was() {
        let level = level_with_every_kind();
        let mut after = level.clone();
        // The second part refers to a polygon that does not exist: the first is taken back.
        let edit = Edit::Group(vec![
            Edit::AddPolygons {
                polygons: vec![square(10.0, 0.0)],
            },
            Edit::DeletePolygons { polygons: vec![99] },
        ]);
        assert!(apply(&mut after, &edit).is_err());
        assert_eq!(after, level);
    }

    #[test]
    fn text_that_is_not_a_level_says_where_and_why() {
        let e = Fragment::parse("hello").unwrap_err();
        assert!(e.starts_with("clipboard:1:"), "{e}");
        let e = Fragment::parse("(name: \"x\", polygons: [(points: [(0.0, 0.0)])])").unwrap_err();
        assert!(e.starts_with("clipboard"), "{e}");
    }
}
