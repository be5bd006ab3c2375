//! The goal in the editor: the region that completes the level, a [`RegionKind`] the level holds
//! one of at most (placed by dragging a box or added where the hero stands, picked by its
//! outline, dragged, deleted as any object). The level's rule: a proper box, inside the level's bounds when it has them.
use glam::DVec2;

use super::region::{Region, RegionKind};
use super::Colour;
use crate::collision::Aabb;
use crate::level::validate::check_goal;
use crate::level::{Level, LevelProblem};

/// The goal kind.
pub type Goal = Region<Goals>;

/// The level's goal (none or one), as a [`RegionKind`].
pub struct Goals;

impl RegionKind for Goals {
    const NAME: &'static str = "goal";
    const MOST: Option<usize> = Some(1);
    const COLOUR: Colour = Colour::Rgba([255, 215, 0, 255]);
    const WIDTH: f32 = 2.0;
    const TOOL: (&'static str, &'static str) = (
        "Goal",
        "Drag a rectangle: the goal, which completes the level (a level has one at most)",
    );

    fn list(level: &Level) -> &[Aabb] {
        level.goal.as_slice()
    }

    fn replace(level: &mut Level, items: Vec<Aabb>) -> Vec<Aabb> {
        let new = items.first().copied();
        std::mem::replace(&mut level.goal, new)
            .into_iter()
            .collect()
    }

    fn check(level: &Level, goal: &[Aabb]) -> Result<(), LevelProblem> {
        check_goal(goal.first(), level.bounds)
    }

    fn example() -> Aabb {
        Aabb {
            min: DVec2::new(6.0, 0.0),
            max: DVec2::new(8.0, 3.0),
        }
    }
}
