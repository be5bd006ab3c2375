//! Ladders in the editor: climbable boxes, an object kind (placed by dragging a box with their
//! tool, picked by their inside behind the polygons, dragged by their lower-left corner, copied,
//! pasted and deleted as any object, their corners edited in their panel). The level's rules:
//! a proper box each, and the level's limit on how many.
use glam::DVec2;

use super::{BodyPick, Colour, DrawState, ObjectKind, PanelAsks, PanelUi, Pen, Place, Placement};
use crate::editor::objects::rect_points;
use crate::editor::ops::EditError;
use crate::level::validate::check_ladder;
use crate::level::{check_counts, Ladder, Level, LevelProblem};

/// Ladders' colour.
pub const LADDER: Colour = Colour::Rgba([200, 140, 60, 255]);

/// The ladder kind.
pub struct Ladders;

impl ObjectKind for Ladders {
    type Item = Ladder;
    const NAME: &'static str = "ladder";
    const BODY_PICK: BodyPick = BodyPick::Behind;
    const PLACE: Option<Place> = Some(Place::Drag);
    const MENU: bool = false;
    const TOOL: (&'static str, &'static str) = ("Ladder", "Drag a rectangle: a new ladder");

    fn list(level: &Level) -> &[Ladder] {
        &level.ladders
    }

    fn replace(level: &mut Level, items: Vec<Ladder>) -> Vec<Ladder> {
        std::mem::replace(&mut level.ladders, items)
    }

    fn check(level: &Level, ladders: &[Ladder], _strict: bool) -> Result<(), EditError> {
        if ladders.len() > level.ladders.len() {
            // The level's limits: O(polygons), only when ladders are added.
            let points = level
                .polygons
                .iter()
                .enumerate()
                .map(|(i, p)| (i, p.points.len()));
            check_counts(level.polygons.len(), points, ladders.len())
                .map_err(LevelProblem::Limit)?;
        }
        for (i, l) in ladders.iter().enumerate() {
            check_ladder(i, l)?;
        }
        Ok(())
    }

    fn placed(_level: &Level, at: Placement) -> Option<Ladder> {
        match at {
            Placement::Box(r) => Some(Ladder {
                min: r.min,
                max: r.max,
            }),
            Placement::At(_) => None,
        }
    }

    fn body(_level: &Level, l: &Ladder) -> Vec<Vec<DVec2>> {
        vec![rect_points(l.aabb())]
    }

    fn anchor(l: &Ladder) -> Option<DVec2> {
        Some(l.min)
    }

    fn translated(l: &Ladder, delta: DVec2) -> Ladder {
        Ladder {
            min: l.min + delta,
            max: l.max + delta,
        }
    }

    fn draw(_level: &Level, l: &Ladder, state: DrawState, pen: &mut dyn Pen) {
        let width = if state.selected { 2.5 } else { 1.5 };
        pen.rect(l.aabb(), width, LADDER);
    }

    /// Its corners as two points (the level's rules refuse a box turned inside out).
    fn panel(
        _level: &Level,
        l: &mut Ladder,
        _node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> PanelAsks {
        ui.point_row("min", false, &mut l.min);
        ui.point_row("max", false, &mut l.max);
        PanelAsks::default()
    }

    fn example() -> Ladder {
        Ladder {
            min: DVec2::new(-6.0, 0.5),
            max: DVec2::new(-5.0, 3.5),
        }
    }
}
