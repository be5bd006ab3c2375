//! The level's objects (`level::objects`: a falling platform, a crumbling block, a zip mover, a
//! crusher, a timed door) in the editor: one generic kind, [`Composed`], for every registered
//! object kind, so a new object kind needs no editor code of its own (the list of kinds,
//! [`super::KINDS`], takes them from the level's list, `level::objects::object_kinds!`).
//! Placed by a click (its block's bottom centre there, the kind's defaults), picked by its
//! block, dragged, copied, pasted and deleted as any object; its fields edited in its panel
//! (the level format's field definitions), one undoable edit per change. The view draws its
//! block and its name; what it expands into (movers, doors, signals) is the world's.
use std::marker::PhantomData;

use glam::DVec2;

use super::{BodyPick, Colour, DrawState, ObjectKind, PanelAsks, PanelUi, Pen, Place, Placement};
use crate::editor::ops::EditError;
use crate::level::objects::{block_outline, Composite};
use crate::level::Level;

/// The objects' colour.
pub const OBJECT: Colour = Colour::Rgba([200, 120, 230, 255]);

/// The editor kind of object kind `C`.
pub struct Composed<C>(PhantomData<fn() -> C>);

impl<C: Composite> ObjectKind for Composed<C> {
    type Item = C;
    const NAME: &'static str = C::NAME;
    const BODY_PICK: BodyPick = BodyPick::Inside;
    const PLACE: Option<Place> = Some(Place::Click);
    const TOOL: (&'static str, &'static str) = (
        C::NAME,
        "Click: a new one, its block's bottom centre at the click; set its times in its panel",
    );

    fn list(level: &Level) -> &[C] {
        C::list(&level.objects)
    }

    fn replace(level: &mut Level, items: Vec<C>) -> Vec<C> {
        std::mem::replace(C::list_mut(&mut level.objects), items)
    }

    /// The level with `list` as its list, validated whole (the object's own rules, then what
    /// it makes, as the world will play it).
    fn check(level: &Level, list: &[C], _strict: bool) -> Result<(), EditError> {
        let mut l = level.clone();
        *C::list_mut(&mut l.objects) = list.to_vec();
        Ok(l.validate()?)
    }

    fn placed(_level: &Level, at: Placement) -> Option<C> {
        match at {
            Placement::At(at) => Some(C::placed(at)),
            Placement::Box(_) => None,
        }
    }

    fn body(_level: &Level, item: &C) -> Vec<Vec<DVec2>> {
        vec![block_outline(item.area())]
    }

    fn anchor(item: &C) -> Option<DVec2> {
        Some(item.area().min)
    }

    fn translated(item: &C, delta: DVec2) -> C {
        item.translated(delta)
    }

    fn draw(_level: &Level, item: &C, state: DrawState, pen: &mut dyn Pen) {
        let (width, colour) = if state.selected {
            (2.5, Colour::Selected)
        } else {
            (1.5, OBJECT)
        };
        let b = item.area();
        pen.outline(&block_outline(b), width, colour);
        pen.label(DVec2::new(b.centre().x, b.max.y), C::NAME, colour);
    }

    /// Its fields (the level format's field definitions).
    fn panel(
        _level: &Level,
        item: &mut C,
        _node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> PanelAsks {
        let near = item.area().centre();
        ui.fields(C::NAME, item.fields_mut(), near);
        PanelAsks::default()
    }

    fn example() -> C {
        C::example()
    }
}
