//! A door's switch and what links it to its door, drawn flat in the world (the frame's `living`
//! lines): the switch is a plate on the floor of its region, raised while its door is shut and
//! pressed flat while it is open; a cable runs along the level's front from the plate to the foot
//! of its door, and a lamp sits on the door's lintel. Plate, cable and lamp share one colour per
//! door ([`link_colour`]), so a player sees which switch opens which door. The switch's region
//! box is not drawn: it is the editor's and the debug overlay's.
//!
//! # Must never depend on
//! The GPU or the simulation's state: it draws through [`DebugDraw`] what the caller passes.
use glam::DVec2;

use super::debug_draw::{DebugDraw, Rgba};
use crate::collision::Aabb;

/// The colours of the links between switches and doors, by door index (repeating).
pub const LINK_COLOURS: [Rgba; 4] = [
    [1.0, 0.62, 0.08, 1.0],
    [0.1, 0.75, 1.0, 1.0],
    [0.95, 0.3, 0.8, 1.0],
    [0.5, 0.95, 0.2, 1.0],
];

/// Height of a switch's plate while its door is shut, and pressed, m.
pub const PLATE_UP: f64 = 0.12;
pub const PLATE_PRESSED: f64 = 0.03;

/// How far below a switch's floor and a door's foot the cable runs, m (in the ground's face).
const CABLE_DEPTH: f64 = 0.15;

/// The link colour of door `index`.
pub fn link_colour(index: usize) -> Rgba {
    LINK_COLOURS[index % LINK_COLOURS.len()]
}

/// Scales a colour's brightness by `k` (alpha kept).
fn dimmed(c: Rgba, k: f32) -> Rgba {
    [c[0] * k, c[1] * k, c[2] * k, c[3]]
}

/// Draws a switch whose region is `b`: a plate along its bottom, [`PLATE_UP`] high and darker
/// while `pressed` is false, [`PLATE_PRESSED`] and bright once pressed, in `colour`.
pub fn paint_switch(b: &Aabb, colour: Rgba, pressed: bool, d: &mut impl DebugDraw) {
    let (height, colour) = if pressed {
        (PLATE_PRESSED, colour)
    } else {
        (PLATE_UP, dimmed(colour, 0.7))
    };
    let plate = height.min(b.max.y - b.min.y);
    let inset = ((b.max.x - b.min.x) * 0.1).min(0.1);
    let (x0, x1, y0) = (b.min.x + inset, b.max.x - inset, b.min.y);
    let corners = [
        DVec2::new(x0, y0),
        DVec2::new(x1, y0),
        DVec2::new(x1, y0 + plate),
        DVec2::new(x0, y0 + plate),
    ];
    d.triangle([corners[0], corners[1], corners[2]], colour);
    d.triangle([corners[0], corners[2], corners[3]], colour);
}

/// Draws the cable from a switch's region `b` to the foot of the door with outline `door`: down
/// into the floor under the plate, across, and up to under the door's middle.
pub fn paint_link(b: &Aabb, door: &[DVec2], colour: Rgba, d: &mut impl DebugDraw) {
    let Some(foot) = door_foot(door) else {
        return;
    };
    let cable = dimmed(colour, 0.8);
    let from = DVec2::new((b.min.x + b.max.x) / 2.0, b.min.y - CABLE_DEPTH);
    let to = foot - DVec2::new(0.0, CABLE_DEPTH);
    let corner = DVec2::new(to.x, from.y);
    d.line(from, corner, 0.05, cable);
    d.line(corner, to, 0.05, cable);
}

/// Draws the lamp on the lintel of the door with outline `door` (a square just under its top,
/// in its middle): dim while it is shut, lit once it opens (`open`, 0 to 1, as drawn).
pub fn paint_lamp(door: &[DVec2], colour: Rgba, open: f64, d: &mut impl DebugDraw) {
    let Some(box_) = door_box(door) else {
        return;
    };
    let r = 0.08_f64.min((box_.max.x - box_.min.x) / 3.0);
    let c = DVec2::new((box_.min.x + box_.max.x) / 2.0, box_.max.y - 2.0 * r);
    let lit = dimmed(colour, 0.45 + 0.55 * open.clamp(0.0, 1.0) as f32);
    let [a, b, e, f] = [(-r, -r), (r, -r), (r, r), (-r, r)].map(|(x, y)| c + DVec2::new(x, y));
    d.triangle([a, b, e], lit);
    d.triangle([a, e, f], lit);
}

/// The box of a door's outline, or `None` for an empty one.
fn door_box(door: &[DVec2]) -> Option<Aabb> {
    (!door.is_empty()).then(|| Aabb::from_points(door.iter().copied()))
}

/// The middle of a door's bottom edge.
fn door_foot(door: &[DVec2]) -> Option<DVec2> {
    door_box(door).map(|b| DVec2::new((b.min.x + b.max.x) / 2.0, b.min.y))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records what is drawn.
    #[derive(Default)]
    struct Record {
        lines: Vec<(DVec2, DVec2, Rgba)>,
        triangles: Vec<([DVec2; 3], Rgba)>,
    }

    impl DebugDraw for Record {
        fn line(&mut self, a: DVec2, b: DVec2, _width: f64, color: Rgba) {
            self.lines.push((a, b, color));
        }
        fn triangle(&mut self, t: [DVec2; 3], color: Rgba) {
            self.triangles.push((t, color));
        }
    }

    fn top(r: &Record) -> f64 {
        r.triangles
            .iter()
            .flat_map(|(t, _)| t.iter().map(|p| p.y))
            .fold(f64::MIN, f64::max)
    }

    #[test]
    fn a_pressed_switch_is_lower_and_brighter_than_a_raised_one() {
        let b = Aabb {
            min: DVec2::new(0.0, 0.0),
            max: DVec2::new(1.0, 1.0),
        };
        let (mut up, mut down) = (Record::default(), Record::default());
        paint_switch(&b, link_colour(0), false, &mut up);
        paint_switch(&b, link_colour(0), true, &mut down);
        assert_eq!((top(&up), top(&down)), (PLATE_UP, PLATE_PRESSED));
        assert!(down.triangles[0].1[0] > up.triangles[0].1[0]);
    }

    #[test]
    fn the_cable_runs_from_under_the_switch_to_under_its_door_in_the_door_s_colour() {
        let b = Aabb {
            min: DVec2::new(0.0, 0.0),
            max: DVec2::new(1.0, 1.0),
        };
        let door = [
            DVec2::new(4.0, 0.0),
            DVec2::new(4.5, 0.0),
            DVec2::new(4.5, 3.0),
            DVec2::new(4.0, 3.0),
        ];
        let mut r = Record::default();
        paint_link(&b, &door, link_colour(1), &mut r);
        assert_eq!(r.lines.first().unwrap().0, DVec2::new(0.5, -CABLE_DEPTH));
        assert_eq!(r.lines.last().unwrap().1, DVec2::new(4.25, -CABLE_DEPTH));
        assert!(r.lines.iter().all(|l| l.2 == dimmed(link_colour(1), 0.8)));
        assert_ne!(link_colour(0), link_colour(1));
    }
}
