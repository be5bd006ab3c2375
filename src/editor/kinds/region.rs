//! What the kinds that are plain regions of the level share (boxes the hero enters: a
//! checkpoint, the goal): a region kind says which list it is, its rule and its look
//! ([`RegionKind`]), and [`Region`] makes it an [`ObjectKind`]: picked by its outline
//! ([`BodyPick::Outline`]: a press inside one still reaches what stands in it), dragged by its
//! lower-left corner, its corners edited as two points in its panel.
use std::marker::PhantomData;

use glam::DVec2;

use super::{BodyPick, Colour, DrawState, ObjectKind, PanelAsks, PanelUi, Pen, Place, Placement};
use crate::collision::Aabb;
use crate::editor::objects::rect_points;
use crate::editor::ops::EditError;
use crate::level::{Level, LevelProblem};

/// A kind of region (see the module docs).
pub trait RegionKind: Sync + Send + 'static {
    /// [`ObjectKind::NAME`].
    const NAME: &'static str;
    /// [`ObjectKind::MOST`].
    const MOST: Option<usize> = None;
    /// Its colour.
    const COLOUR: Colour;
    /// Its outline's width, points (when not selected).
    const WIDTH: f32;
    /// [`ObjectKind::list`].
    fn list(level: &Level) -> &[Aabb];
    /// [`ObjectKind::replace`].
    fn replace(level: &mut Level, items: Vec<Aabb>) -> Vec<Aabb>;
    /// The level's rule for the list (the one validator's check).
    fn check(level: &Level, regions: &[Aabb]) -> Result<(), LevelProblem>;
    /// [`ObjectKind::example`].
    fn example() -> Aabb;
    /// Its placing tool's label and hover text ([`ObjectKind::TOOL`]): every region kind is
    /// placed by dragging its box, or added at the hero's feet ([`hero_box`]).
    const TOOL: (&'static str, &'static str);
}

/// The region a region kind is added as at the hero's feet `at` (the left panel): 1 m wide
/// and 2.5 m tall, its bottom centre at `at`.
pub fn hero_box(at: DVec2) -> Aabb {
    Aabb {
        min: at - DVec2::new(0.5, 0.0),
        max: at + DVec2::new(0.5, 2.5),
    }
}

/// The object kind of a [`RegionKind`].
pub struct Region<R>(PhantomData<fn() -> R>);

impl<R: RegionKind> ObjectKind for Region<R> {
    type Item = Aabb;
    const NAME: &'static str = R::NAME;
    const BODY_PICK: BodyPick = BodyPick::Outline;
    const MOST: Option<usize> = R::MOST;
    const PLACE: Option<Place> = Some(Place::Drag);
    const TOOL: (&'static str, &'static str) = R::TOOL;

    fn list(level: &Level) -> &[Aabb] {
        R::list(level)
    }

    /// The dragged box, or [`hero_box`] at a point; none that covers the spawn (a goal there
    /// would finish the level at its first tick).
    fn placed(level: &Level, at: Placement) -> Option<Aabb> {
        let r = match at {
            Placement::Box(r) => r,
            Placement::At(p) => hero_box(p),
        };
        (!r.contains(level.spawn)).then_some(r)
    }

    fn replace(level: &mut Level, items: Vec<Aabb>) -> Vec<Aabb> {
        R::replace(level, items)
    }

    fn check(level: &Level, regions: &[Aabb], _strict: bool) -> Result<(), EditError> {
        Ok(R::check(level, regions)?)
    }

    fn body(_level: &Level, r: &Aabb) -> Vec<Vec<DVec2>> {
        vec![rect_points(*r)]
    }

    fn anchor(r: &Aabb) -> Option<DVec2> {
        Some(r.min)
    }

    fn translated(r: &Aabb, delta: DVec2) -> Aabb {
        Aabb {
            min: r.min + delta,
            max: r.max + delta,
        }
    }

    fn draw(_level: &Level, r: &Aabb, state: DrawState, pen: &mut dyn Pen) {
        if state.selected {
            pen.rect(*r, 2.5, Colour::Selected);
        } else {
            pen.rect(*r, R::WIDTH, R::COLOUR);
        }
    }

    /// Its corners as two points (the level's rules refuse a box turned inside out).
    fn panel(
        _level: &Level,
        r: &mut Aabb,
        _node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> PanelAsks {
        ui.point_row("min", false, &mut r.min);
        ui.point_row("max", false, &mut r.max);
        PanelAsks::default()
    }

    fn example() -> Aabb {
        R::example()
    }
}
