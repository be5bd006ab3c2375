//! The goal in the editor: the region that completes the level, at most one
//! ([`ObjectKind::MOST`]). Picked by its outline, dragged, deleted as any object; the left panel
//! sets it or clears it. The level's rule: a proper box, inside the level's bounds when it has
//! them.
use glam::DVec2;

use super::{region_panel, BodyPick, Colour, DrawState, ObjectKind, PanelAsks, PanelUi, Pen};
use crate::collision::Aabb;
use crate::editor::objects::{rect_points, shifted_box};
use crate::editor::ops::EditError;
use crate::level::validate::check_goal;
use crate::level::Level;

/// The goal's colour.
pub const GOAL: Colour = Colour::Rgba([255, 215, 0, 255]);

/// The goal kind.
pub struct Goal;

impl ObjectKind for Goal {
    type Item = Aabb;
    const NAME: &'static str = "goal";
    const BODY_PICK: BodyPick = BodyPick::Outline;
    const MOST: Option<usize> = Some(1);

    fn list(level: &Level) -> &[Aabb] {
        level.goal.as_slice()
    }

    fn replace(level: &mut Level, items: Vec<Aabb>) -> Vec<Aabb> {
        let new = items.first().copied();
        std::mem::replace(&mut level.goal, new)
            .into_iter()
            .collect()
    }

    fn check(level: &Level, goal: &[Aabb], _strict: bool) -> Result<(), EditError> {
        Ok(check_goal(goal.first(), level.bounds)?)
    }

    fn body(_level: &Level, r: &Aabb) -> Vec<Vec<DVec2>> {
        vec![rect_points(*r)]
    }

    fn anchor(r: &Aabb) -> Option<DVec2> {
        Some(r.min)
    }

    fn translated(r: &Aabb, delta: DVec2) -> Aabb {
        shifted_box(r, delta)
    }

    fn draw(_level: &Level, r: &Aabb, state: DrawState, pen: &mut dyn Pen) {
        if state.selected {
            pen.rect(*r, 2.5, Colour::Selected);
        } else {
            pen.rect(*r, 2.0, GOAL);
        }
    }

    fn panel(
        _level: &Level,
        r: &mut Aabb,
        _node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> PanelAsks {
        region_panel(r, ui);
        PanelAsks::default()
    }

    fn example() -> Aabb {
        Aabb {
            min: DVec2::new(6.0, 0.0),
            max: DVec2::new(8.0, 3.0),
        }
    }
}
