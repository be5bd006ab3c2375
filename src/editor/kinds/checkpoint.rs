//! Checkpoints in the editor: regions where the hero respawns after it first enters one. Picked
//! by their outline ([`BodyPick::Outline`]: a press inside one still reaches what stands in it),
//! dragged, copied and deleted as any object; the left panel adds one where the hero stands. The
//! level's rule: a proper box, inside the level's bounds when it has them.
use glam::DVec2;

use super::{region_panel, BodyPick, Colour, DrawState, ObjectKind, PanelAsks, PanelUi, Pen};
use crate::collision::Aabb;
use crate::editor::objects::{rect_points, shifted_box};
use crate::editor::ops::EditError;
use crate::level::validate::check_checkpoint;
use crate::level::Level;

/// Checkpoints' colour.
pub const CHECKPOINT: Colour = Colour::Rgba([90, 220, 120, 255]);

/// The checkpoint kind.
pub struct Checkpoint;

impl ObjectKind for Checkpoint {
    type Item = Aabb;
    const NAME: &'static str = "checkpoint";
    const BODY_PICK: BodyPick = BodyPick::Outline;

    fn list(level: &Level) -> &[Aabb] {
        &level.checkpoints
    }

    fn replace(level: &mut Level, items: Vec<Aabb>) -> Vec<Aabb> {
        std::mem::replace(&mut level.checkpoints, items)
    }

    fn check(level: &Level, checkpoints: &[Aabb], _strict: bool) -> Result<(), EditError> {
        for (i, c) in checkpoints.iter().enumerate() {
            check_checkpoint(i, c, level.bounds)?;
        }
        Ok(())
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
            pen.rect(*r, 1.5, CHECKPOINT);
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
            min: DVec2::new(2.0, 0.0),
            max: DVec2::new(3.0, 2.5),
        }
    }
}
