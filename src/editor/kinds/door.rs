//! Doors and their switches in the editor: a door's outline is its body (picked by its inside),
//! its switch region is its [`Part::Region`] (picked before any body, dragged on its own, moved
//! along when the door is pasted), linked to the door by a line. The level's rules: each door
//! valid, no two overlapping, the doors counted as polygons of the meshes.
use glam::DVec2;

use super::{Colour, DrawState, ObjectKind, PanelAsks, PanelUi, Part, Pen, Place, Placement};
use crate::collision::Aabb;
use crate::editor::objects::{rect_centre, rect_points};
use crate::editor::ops::EditError;
use crate::level::{check_outline_counts, Level, LevelDoor, LevelProblem};

/// Doors' colour.
pub const DOOR: Colour = Colour::Rgba([230, 170, 90, 255]);
/// Switches' colour, and their links to their doors.
pub const SWITCH: Colour = Colour::Rgba([255, 230, 120, 255]);

/// The door kind.
pub struct Door;

/// A new closed door filling `r`, with no switch yet.
pub fn new_door(r: Aabb) -> LevelDoor {
    LevelDoor {
        points: rect_points(r),
        open: false,
        switch: None,
        close_after: None,
        open_on: Vec::new(),
        close_on: Vec::new(),
        toggle_on: Vec::new(),
    }
}

impl ObjectKind for Door {
    type Item = LevelDoor;
    const NAME: &'static str = "door";
    const PLACE: Option<Place> = Some(Place::Drag);
    const TOOL: (&'static str, &'static str) = ("Door", "Drag a rectangle: a new closed door");
    const REGION_TOOL: Option<(&'static str, &'static str)> = Some((
        "Switch",
        "Click a door to pick it, then drag a rectangle: that door's switch region",
    ));

    fn list(level: &Level) -> &[LevelDoor] {
        &level.doors
    }

    /// A dragged box becomes a closed door filling it (refused with the reason when it would
    /// overlap another door).
    fn placed(_level: &Level, at: Placement) -> Option<LevelDoor> {
        match at {
            Placement::Box(r) => Some(new_door(r)),
            Placement::At(_) => None,
        }
    }

    fn replace(level: &mut Level, items: Vec<LevelDoor>) -> Vec<LevelDoor> {
        std::mem::replace(&mut level.doors, items)
    }

    fn check(level: &Level, doors: &[LevelDoor], _strict: bool) -> Result<(), EditError> {
        if doors.len() != level.doors.len() {
            // Doors count as polygons of the meshes: O(polygons), only when the count changes.
            check_outline_counts(level, doors).map_err(LevelProblem::Limit)?;
        }
        Ok(level.check_doors(doors)?)
    }

    fn body(_level: &Level, d: &LevelDoor) -> Vec<Vec<DVec2>> {
        vec![d.points.clone()]
    }

    fn anchor(d: &LevelDoor) -> Option<DVec2> {
        d.points.first().copied()
    }

    fn translated(d: &LevelDoor, delta: DVec2) -> LevelDoor {
        let mut d = d.clone();
        for q in &mut d.points {
            *q += delta;
        }
        if let Some(s) = &mut d.switch {
            s.min += delta;
            s.max += delta;
        }
        d
    }

    /// A drag of the door moves it without its switch; a drag of the switch moves the switch.
    fn moved(d: &LevelDoor, part: Part, delta: DVec2) -> LevelDoor {
        let mut d = d.clone();
        match part {
            Part::Body => {
                for q in &mut d.points {
                    *q += delta;
                }
            }
            Part::Region => {
                if let Some(s) = &mut d.switch {
                    s.min += delta;
                    s.max += delta;
                }
            }
            Part::Handle(_) | Part::Corner(_) | Part::Link => {}
        }
        d
    }

    fn region(d: &LevelDoor) -> Option<Aabb> {
        d.switch
    }

    /// Its switch: the hero's feet entering it open the door.
    fn with_region(d: &LevelDoor, r: Aabb) -> Option<LevelDoor> {
        Some(LevelDoor {
            switch: Some(r),
            ..d.clone()
        })
    }

    fn draw(_level: &Level, d: &LevelDoor, state: DrawState, pen: &mut dyn Pen) {
        let (c, width) = if state.selected {
            (Colour::Selected, 2.5)
        } else {
            (DOOR, 1.5)
        };
        pen.outline(&d.points, width, c);
        let centre = rect_centre(&d.points);
        if let Some(sw) = d.switch {
            pen.rect(sw, width, SWITCH);
            pen.line((sw.min + sw.max) * 0.5, centre, 1.0, SWITCH);
        }
        pen.label(centre, if d.open { "door (open)" } else { "door" }, c);
    }

    fn panel(
        _level: &Level,
        d: &mut LevelDoor,
        _node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> PanelAsks {
        let centre = rect_centre(&d.points);
        ui.fields("door", d.fields_mut(), centre);
        match d.switch {
            Some(sw) => {
                let text = format!(
                    "switch: ({:.2}, {:.2}) to ({:.2}, {:.2})",
                    sw.min.x, sw.min.y, sw.max.x, sw.max.y
                );
                ui.text(&text);
                if ui.row(None, &["Remove switch"], None).is_some() {
                    d.switch = None;
                }
            }
            None => ui.text("no switch: pick the Switch tool and drag its region"),
        }
        super::links::links_panel(Self::signal_fields_mut(d), ui);
        PanelAsks::default()
    }

    fn signal_fields(d: &LevelDoor) -> Vec<(&'static str, &[String])> {
        d.signal_fields().into()
    }

    fn signal_fields_mut(d: &mut LevelDoor) -> Vec<(&'static str, &mut Vec<String>)> {
        d.signal_fields_mut().into()
    }

    fn example() -> LevelDoor {
        LevelDoor {
            switch: Some(Aabb {
                min: DVec2::new(-6.0, 0.0),
                max: DVec2::new(-5.0, 1.0),
            }),
            ..new_door(Aabb {
                min: DVec2::new(-1.0, 0.0),
                max: DVec2::new(-0.5, 2.0),
            })
        }
    }
}
