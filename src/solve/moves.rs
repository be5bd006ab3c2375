//! The solver's moves: what a player holds (left, right or neither; jump or not; crouch, up,
//! down or attack where the level needs them) and the per-tick [`Actions`] that holding it
//! gives, a press derived as a device gives it (the first tick of a hold).
//!
//! Must never depend on window, GPU, audio or input crates.
use glam::DVec2;

use crate::level::Level;
use crate::movement::Actions;

/// A held combination of buttons: one of the solver's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// Horizontal direction: -1 left, 0 neither, 1 right.
    pub dir: i8,
    /// Vertical direction held: -1 down (drop through, climb down), 0, 1 up (climb).
    pub vert: i8,
    /// Jump held (pressed on the first tick it is held).
    pub jump: bool,
    /// Crouch held.
    pub crouch: bool,
    /// Attack held (pressed on the first tick it is held).
    pub attack: bool,
}

impl Move {
    /// The actions of a tick holding this move, `prev` the move held the tick before (a press
    /// is the first tick of a hold).
    pub fn actions(self, prev: Move) -> Actions {
        Actions {
            move_axis: DVec2::new(self.dir as f64, self.vert as f64),
            jump: self.jump,
            jump_pressed: self.jump && !prev.jump,
            crouch: self.crouch,
            attack_pressed: self.attack && !prev.attack,
        }
    }

    /// A short name for reports: `R+J`, `L`, `idle`, `R+crouch`.
    pub fn label(self) -> String {
        let mut parts: Vec<&str> = Vec::new();
        match self.dir {
            -1 => parts.push("L"),
            1 => parts.push("R"),
            _ => {}
        }
        match self.vert {
            -1 => parts.push("down"),
            1 => parts.push("up"),
            _ => {}
        }
        if self.jump {
            parts.push("J");
        }
        if self.crouch {
            parts.push("crouch");
        }
        if self.attack {
            parts.push("attack");
        }
        if parts.is_empty() {
            "idle".into()
        } else {
            parts.join("+")
        }
    }
}

/// The moves the solver tries on `level`, in a fixed order (the search's tie-break): left,
/// right or neither, each with jump held or not; crouching left and right; up and down (with
/// and without a direction) where the level has ladders or one-way floors; attacking left and
/// right where it has agents.
pub fn moves_for(level: &Level) -> Vec<Move> {
    let mut moves = Vec::new();
    for dir in [1, 0, -1] {
        for jump in [false, true] {
            moves.push(Move {
                dir,
                jump,
                ..Move::default()
            });
        }
    }
    for dir in [1, -1] {
        moves.push(Move {
            dir,
            crouch: true,
            ..Move::default()
        });
    }
    let one_way = level
        .polygons
        .iter()
        .any(|p| p.kind == crate::level::PolygonKind::OneWay)
        || level.movers.iter().any(|m| m.one_way);
    if !level.ladders.is_empty() || one_way {
        for vert in [1, -1] {
            for dir in [0, 1, -1] {
                if vert == 1 && level.ladders.is_empty() {
                    continue;
                }
                moves.push(Move {
                    dir,
                    vert,
                    ..Move::default()
                });
            }
        }
    }
    if level.agents.iter().any(|a| a.kind.is_enemy()) {
        for dir in [1, -1] {
            moves.push(Move {
                dir,
                attack: true,
                ..Move::default()
            });
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_press_is_the_first_tick_of_a_hold() {
        let j = Move {
            dir: 1,
            jump: true,
            ..Move::default()
        };
        assert!(j.actions(Move::default()).jump_pressed);
        let held = j.actions(j);
        assert!(held.jump && !held.jump_pressed);
        assert_eq!(held.move_axis, DVec2::new(1.0, 0.0));
        let a = Move {
            attack: true,
            ..Move::default()
        };
        assert!(a.actions(j).attack_pressed && !a.actions(a).attack_pressed);
        assert_eq!(j.label(), "R+J");
        assert_eq!(Move::default().label(), "idle");
    }

    #[test]
    fn a_plain_level_gets_the_eight_basic_moves() {
        let level = crate::level::parse_level(
            std::path::Path::new("m.ron"),
            "(name: \"m\", polygons: [(points: [(0.0, -1.0), (4.0, -1.0), (4.0, 0.0), \
             (0.0, 0.0)])], spawn: (1.0, 0.0))",
        )
        .unwrap();
        let moves = moves_for(&level);
        assert_eq!(moves.len(), 8);
        assert!(moves.iter().all(|m| m.vert == 0 && !m.attack));
    }
}
