//! Checkpoints in the editor: regions where the hero respawns after it first enters one, a
//! [`RegionKind`] (placed by dragging a box or added where the hero stands, picked by their
//! outline, dragged, copied and deleted as any object). The level's rule: a proper box, inside the level's
//! bounds when it has them.
use glam::DVec2;

use super::region::{Region, RegionKind};
use super::Colour;
use crate::collision::Aabb;
use crate::level::validate::check_checkpoint;
use crate::level::{Level, LevelProblem};

/// The checkpoint kind.
pub type Checkpoint = Region<Checkpoints>;

/// The level's checkpoints, as a [`RegionKind`].
pub struct Checkpoints;

impl RegionKind for Checkpoints {
    const NAME: &'static str = "checkpoint";
    const COLOUR: Colour = Colour::Rgba([90, 220, 120, 255]);
    const WIDTH: f32 = 1.5;
    const TOOL: (&'static str, &'static str) = (
        "Checkpoint",
        "Drag a rectangle: a new checkpoint, where the hero respawns after entering it",
    );

    fn list(level: &Level) -> &[Aabb] {
        &level.checkpoints
    }

    fn replace(level: &mut Level, items: Vec<Aabb>) -> Vec<Aabb> {
        std::mem::replace(&mut level.checkpoints, items)
    }

    fn check(level: &Level, checkpoints: &[Aabb]) -> Result<(), LevelProblem> {
        for (i, c) in checkpoints.iter().enumerate() {
            check_checkpoint(i, c, level.bounds)?;
        }
        Ok(())
    }

    fn example() -> Aabb {
        Aabb {
            min: DVec2::new(2.0, 0.0),
            max: DVec2::new(3.0, 2.5),
        }
    }
}
