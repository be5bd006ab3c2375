//! Movement tuning: every feel constant in one struct, loaded from `assets/tuning.ron`.
//!
//! Units: metres, seconds, degrees. A level may override fields (see [`Tuning::with_overrides`]).
use serde::{Deserialize, Serialize};

use crate::collision::ColliderShape;

/// Defines [`Tuning`] (every field with its default) and [`TuningOverrides`] (the same fields, each
/// optional) from one list, so the two can never drift apart.
macro_rules! tuning_fields {
    ($( $(#[doc = $doc:expr])+ $field:ident : $ty:ty = $default:expr, )*) => {
        /// All movement constants. `Default` gives the shipped feel (also in `assets/tuning.ron`).
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct Tuning {
            $( $(#[doc = $doc])+ pub $field: $ty, )*
        }

        impl Default for Tuning {
            fn default() -> Self {
                Tuning { $( $field: $default, )* }
            }
        }

        /// Per-level overrides: any subset of [`Tuning`]'s fields.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(default, deny_unknown_fields)]
        pub struct TuningOverrides {
            $( $(#[doc = $doc])+ #[serde(skip_serializing_if = "Option::is_none")] pub $field: Option<$ty>, )*
        }

        impl Tuning {
            /// Every field, in declaration order, with its doc comment, for editing in place (the
            /// tuning panel's sliders).
            pub fn fields_mut(&mut self) -> Vec<TuningField<'_>> {
                vec![ $( TuningField {
                    name: stringify!($field),
                    doc: concat!($($doc, "\n"),+),
                    value: FieldValue::field_mut(&mut self.$field),
                }, )* ]
            }

            /// This tuning with every field present in `o` replaced.
            pub fn with_overrides(&self, o: &TuningOverrides) -> Tuning {
                let mut t = self.clone();
                $( if let Some(v) = &o.$field { t.$field = v.clone(); } )*
                t
            }
        }
    };
}

tuning_fields! {
    /// Downward acceleration while airborne, m/s². Default 32.
    gravity: f64 = 32.0,
    /// Terminal fall speed, m/s. Default 24.
    max_fall_speed: f64 = 24.0,
    /// Top running speed along the ground, m/s. Default 8.
    run_speed: f64 = 8.0,
    /// Acceleration along the ground towards the requested speed, m/s². Default 60.
    ground_accel: f64 = 60.0,
    /// Deceleration along the ground when no direction is held, m/s². Default 70.
    ground_friction: f64 = 70.0,
    /// Horizontal acceleration in the air (air control), m/s². Default 35.
    air_accel: f64 = 35.0,
    /// Top speed while crouch-walking, m/s. Default 3.5.
    crouch_speed: f64 = 3.5,
    /// Height of a full jump (button held), m. Default 3.2.
    jump_height: f64 = 3.2,
    /// Fraction of the upward speed kept when jump is released early (variable height). Default 0.45.
    jump_cut: f64 = 0.45,
    /// Time after leaving an edge during which a jump still works, s. Default 0.1.
    coyote_time: f64 = 0.1,
    /// Time before landing during which a jump press is remembered, s. Default 0.12.
    jump_buffer: f64 = 0.12,
    /// Extra jumps in the air (0: no double jump). Default 0.
    air_jumps: u32 = 0,
    /// Steepest walkable slope, degrees from horizontal. Steeper edges are walls. Default 46.
    max_slope_deg: f64 = 46.0,
    /// Default 50.
    max_follow_turn_deg: f64 = 50.0,
    /// Highest riser walked up (and down) without leaving the ground, m: a step onto ground no
    /// more than this above (or below) the feet, with room for the collider in use on top, is
    /// taken in stride at full speed. Higher risers are walls (and ledges). 0 turns stepping off.
    /// Default 0.25 (a tall stair: the usual reference is 0.2 to 0.25 m for a 1.8 m figure).
    max_step_height: f64 = 0.25,
    /// Capped fall speed while pressing into a wall, m/s. Default 3.
    wall_slide_speed: f64 = 3.0,
    /// Horizontal speed of a wall jump away from the wall, m/s. Default 7.
    wall_jump_speed_x: f64 = 7.0,
    /// Vertical speed of a wall jump, m/s. Default 12.
    wall_jump_speed_y: f64 = 12.0,
    /// Time after a wall jump during which air control towards the wall is ignored, s. Default 0.15.
    wall_jump_lock: f64 = 0.15,
    /// Climbing speed on ladders, m/s. Default 4.
    climb_speed: f64 = 4.0,
    /// Ground travel between two footstep events (`MoveEvent::Footstep`), m: the distance walked
    /// along the ground while supported. Default 1.4 (about 5.7 steps a second at `run_speed`,
    /// 2.5 at `crouch_speed`: a game hero's legs cycle faster than life, for readability).
    footstep_stride: f64 = 1.4,
    /// Top-down mode: no gravity, 8-way movement with the same move-and-slide. Default false.
    top_down: bool = false,
    /// Top speed in top-down mode, m/s. Default 6.
    top_down_speed: f64 = 6.0,
    /// Acceleration in top-down mode, m/s². Default 40.
    top_down_accel: f64 = 40.0,
    /// Standing collider (feet at its bottom centre). Default: 0.8 × 1.8 m, flat feet and a head
    /// chamfered by 0.12 m. Flat feet make ledges sharp (walking off one launches horizontally
    /// instead of following a 45° chamfer down); the chamfered head slides around ceiling corners.
    stand_collider: ColliderShape = head_chamfered_box(0.8, 1.8, 0.12),
    /// Crouching collider (same feet point, lower). Default: 0.8 × 1.0 m, same shape.
    crouch_collider: ColliderShape = head_chamfered_box(0.8, 1.0, 0.12),
    /// The hero's health: hits taken before it dies (`sim::play`). Hazards, enemies' touch each
    /// cost one; a crush or a pit kills at once. Default 3.
    health: u32 = 3,
    /// Time after a hit during which nothing hurts the hero again, s. Default 1.
    hurt_invulnerability: f64 = 1.0,
    /// Horizontal speed of the knockback a hit gives, away from what hit, m/s. Default 6.
    hurt_knockback_x: f64 = 6.0,
    /// Vertical speed of the knockback a hit gives, m/s. Default 7.
    hurt_knockback_y: f64 = 7.0,
    /// Time from a death to the respawn at the last checkpoint, s (the fairness rule: at most
    /// 0.5). Default 0.35.
    respawn_delay: f64 = 0.35,
    /// Height of the bounce off a stomped enemy, m (with jump held: `jump_height`, and releasing
    /// cuts it as a jump's). Default 1.2.
    stomp_bounce_height: f64 = 1.2,
    /// Reach of the attack's hitbox in front of the hero's collider, m. Default 0.9.
    attack_reach: f64 = 0.9,
    /// Time the attack's hitbox is out after the button is pressed, s. Default 0.1.
    attack_active: f64 = 0.1,
    /// Time from one attack to the next, s. Default 0.35.
    attack_cooldown: f64 = 0.35,
    /// Hit-stop: time the world holds still when an attack lands, s. Default 0.05 (6 ticks).
    attack_hitstop: f64 = 0.05,
    /// Horizontal speed an attack knocks an enemy back at, m/s. Default 7.
    attack_knockback: f64 = 7.0,
    /// Most horizontal speed a character keeps from a mover it leaves (a jump, walking off), m/s;
    /// the mover's velocity at the contact is clamped to it. 0 keeps none. Default 20.
    momentum_max_x: f64 = 20.0,
    /// Most upward speed kept from a mover left, m/s. Default 20.
    momentum_max_up: f64 = 20.0,
    /// Most downward speed kept from a mover left, m/s (0 with `momentum_max_x` 0: upward only;
    /// all three 0: none). Default 20.
    momentum_max_down: f64 = 20.0,
}

/// A `width × height` box standing on its bottom centre with its two top corners cut by `chamfer`.
pub fn head_chamfered_box(width: f64, height: f64, chamfer: f64) -> ColliderShape {
    let (w, h, c) = (width / 2.0, height, chamfer);
    let p = glam::DVec2::new;
    ColliderShape::Convex {
        points: vec![
            p(-w, 0.0),
            p(w, 0.0),
            p(w, h - c),
            p(w - c, h),
            p(-w + c, h),
            p(-w, h - c),
        ],
    }
}

/// One field of [`Tuning`] for editing: see [`Tuning::fields_mut`].
pub struct TuningField<'a> {
    /// The field's name, as in the file.
    pub name: &'static str,
    /// Its documentation (unit and default).
    pub doc: &'static str,
    /// The value.
    pub value: FieldMut<'a>,
}

/// A tuning field's value, by type.
pub enum FieldMut<'a> {
    /// A quantity; its allowed range is [`range`].
    Number(&'a mut f64),
    /// A count; its allowed range is [`range`].
    Count(&'a mut u32),
    /// A switch.
    Flag(&'a mut bool),
    /// A collider shape (edited in the tuning file).
    Collider(&'a mut ColliderShape),
}

/// The types a tuning field may have.
trait FieldValue {
    fn field_mut(&mut self) -> FieldMut<'_>;
}
impl FieldValue for f64 {
    fn field_mut(&mut self) -> FieldMut<'_> {
        FieldMut::Number(self)
    }
}
impl FieldValue for u32 {
    fn field_mut(&mut self) -> FieldMut<'_> {
        FieldMut::Count(self)
    }
}
impl FieldValue for bool {
    fn field_mut(&mut self) -> FieldMut<'_> {
        FieldMut::Flag(self)
    }
}
impl FieldValue for ColliderShape {
    fn field_mut(&mut self) -> FieldMut<'_> {
        FieldMut::Collider(self)
    }
}

/// The allowed range of each numeric field, inclusive (what [`Tuning::validate`] checks and the
/// tuning panel's sliders span).
const RANGES: [(&str, f64, f64); 37] = [
    ("gravity", 0.0, 1000.0),
    ("max_fall_speed", 0.1, 1000.0),
    ("run_speed", 0.0, 200.0),
    ("ground_accel", 0.0, 10000.0),
    ("ground_friction", 0.0, 10000.0),
    ("air_accel", 0.0, 10000.0),
    ("crouch_speed", 0.0, 200.0),
    ("jump_height", 0.0, 100.0),
    ("jump_cut", 0.0, 1.0),
    ("coyote_time", 0.0, 2.0),
    ("jump_buffer", 0.0, 2.0),
    ("max_slope_deg", 0.0, 89.0),
    ("max_follow_turn_deg", 0.0, 90.0),
    ("max_step_height", 0.0, 2.0),
    ("wall_slide_speed", 0.0, 1000.0),
    ("wall_jump_speed_x", 0.0, 200.0),
    ("wall_jump_speed_y", 0.0, 200.0),
    ("wall_jump_lock", 0.0, 2.0),
    ("climb_speed", 0.0, 200.0),
    ("footstep_stride", 0.05, 100.0),
    ("top_down_speed", 0.0, 200.0),
    ("top_down_accel", 0.0, 10000.0),
    ("air_jumps", 0.0, 10.0),
    ("health", 1.0, 99.0),
    ("hurt_invulnerability", 0.0, 10.0),
    ("hurt_knockback_x", 0.0, 100.0),
    ("hurt_knockback_y", 0.0, 100.0),
    ("respawn_delay", 0.0, 0.5),
    ("stomp_bounce_height", 0.0, 100.0),
    ("attack_reach", 0.1, 10.0),
    ("attack_active", 0.0, 2.0),
    ("attack_cooldown", 0.0, 10.0),
    ("attack_hitstop", 0.0, 1.0),
    ("attack_knockback", 0.0, 100.0),
    ("momentum_max_x", 0.0, 1000.0),
    ("momentum_max_up", 0.0, 1000.0),
    ("momentum_max_down", 0.0, 1000.0),
];

/// The allowed range of a numeric tuning field, `None` for switches and colliders.
pub fn range(field: &str) -> Option<(f64, f64)> {
    RANGES
        .iter()
        .find(|(n, _, _)| *n == field)
        .map(|&(_, lo, hi)| (lo, hi))
}

/// A tuning value out of its allowed range.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("tuning field `{field}` = {value}: {why}")]
pub struct TuningError {
    /// The field's name as written in the RON file.
    pub field: &'static str,
    /// The offending value, printed.
    pub value: String,
    /// The allowed range.
    pub why: String,
}

impl Tuning {
    /// Checks every field's range and the colliders.
    pub fn validate(&self) -> Result<(), TuningError> {
        for f in self.clone().fields_mut() {
            let v = match f.value {
                FieldMut::Number(v) => *v,
                FieldMut::Count(v) => *v as f64,
                FieldMut::Flag(_) | FieldMut::Collider(_) => continue,
            };
            let Some((lo, hi)) = range(f.name) else {
                continue;
            };
            if !(v.is_finite() && v >= lo && v <= hi) {
                return Err(TuningError {
                    field: f.name,
                    value: v.to_string(),
                    why: format!("must be between {lo} and {hi}"),
                });
            }
        }
        for (field, c) in [
            ("stand_collider", &self.stand_collider),
            ("crouch_collider", &self.crouch_collider),
        ] {
            c.points().map_err(|e| TuningError {
                field,
                value: format!("{c:?}"),
                why: e.to_string(),
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_numeric_field_has_a_range_and_out_of_range_values_are_named() {
        let mut t = Tuning::default();
        let mut numeric = 0;
        for f in t.fields_mut() {
            assert!(f.doc.contains("Default"), "{}: {}", f.name, f.doc);
            if matches!(f.value, FieldMut::Number(_) | FieldMut::Count(_)) {
                numeric += 1;
                assert!(range(f.name).is_some(), "{} has no range", f.name);
            }
        }
        assert_eq!(numeric, RANGES.len(), "a range names no field");
        for f in t.fields_mut() {
            if let FieldMut::Number(v) = f.value {
                if f.name == "jump_cut" {
                    *v = 1.5;
                }
            }
        }
        let e = t.validate().unwrap_err();
        assert_eq!(e.field, "jump_cut");
    }

    #[test]
    fn defaults_are_valid() {
        Tuning::default().validate().unwrap();
    }

    #[test]
    fn overrides_replace_only_named_fields() {
        let o: TuningOverrides =
            ron::from_str("(top_down: Some(true), gravity: Some(0.0))").unwrap();
        let t = Tuning::default().with_overrides(&o);
        assert!(t.top_down);
        assert_eq!(t.gravity, 0.0);
        assert_eq!(t.run_speed, Tuning::default().run_speed);
        assert_eq!(t.stand_collider, Tuning::default().stand_collider);
    }

    #[test]
    fn out_of_range_and_unknown_fields_are_named() {
        let o: TuningOverrides = ron::from_str("(jump_cut: Some(3.0))").unwrap();
        let e = Tuning::default().with_overrides(&o).validate().unwrap_err();
        assert!(e.to_string().contains("jump_cut"), "{e}");
        let e = ron::from_str::<TuningOverrides>("(jump_hieght: Some(3.0))").unwrap_err();
        assert!(e.to_string().contains("jump_hieght"), "{e}");
    }
}
