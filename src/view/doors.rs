//! How far open each door is drawn: the simulation opens and shuts a door's gate within one tick
//! (exact, and unchanged by this module); the view draws it sliding there over
//! [`DOOR_MOTION_TICKS`] ticks, and between ticks at the frame's blend, so a door is seen to open
//! and shut rather than pop.
//!
//! Front-end state only: the simulation never reads it.
//!
//! # Must never depend on
//! The renderer, or any window, GPU or audio crate: the renderer reads [`DoorMotion::drawn`].

/// Ticks a door takes to be drawn fully open from shut, or back (0.25 s at 120 Hz): a few frames,
/// quick enough that a player never waits on the picture.
pub const DOOR_MOTION_TICKS: u32 = 30;

/// Per door, how far open it is drawn: 0 shut, 1 open.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DoorMotion {
    /// Per door in the level's order, ticks of its motion from shut (0) to open
    /// ([`DOOR_MOTION_TICKS`]): at the tick before last, and at the last tick.
    drawn: Vec<(u32, u32)>,
}

impl DoorMotion {
    /// After a tick that left the level's doors `open` (in its order): each is drawn a step
    /// nearer its state. A door not known before (a new level, an edit that added one) is drawn
    /// where it is at once.
    pub fn after_tick(&mut self, open: impl ExactSizeIterator<Item = bool>) {
        let known = self.drawn.len();
        self.drawn.truncate(open.len());
        for (i, open) in open.enumerate() {
            let target = if open { DOOR_MOTION_TICKS } else { 0 };
            if i >= known {
                self.drawn.push((target, target));
                continue;
            }
            let (prev, now) = &mut self.drawn[i];
            *prev = *now;
            *now = match target.cmp(now) {
                std::cmp::Ordering::Greater => *now + 1,
                std::cmp::Ordering::Less => *now - 1,
                std::cmp::Ordering::Equal => *now,
            };
        }
    }

    /// How far open door `i` is drawn at blend `alpha` between the last two ticks, eased in and
    /// out (0 shut, 1 open); `None` for a door not seen yet.
    pub fn drawn(&self, i: usize, alpha: f64) -> Option<f64> {
        let &(prev, now) = self.drawn.get(i)?;
        let a = alpha.clamp(0.0, 1.0);
        let t = (prev as f64 + (now as f64 - prev as f64) * a) / DOOR_MOTION_TICKS as f64;
        Some(t * t * (3.0 - 2.0 * t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_door_is_drawn_where_it_starts_then_slides_over_the_motion_ticks() {
        let mut m = DoorMotion::default();
        assert_eq!(m.drawn(0, 1.0), None);
        m.after_tick([false, true].into_iter());
        assert_eq!((m.drawn(0, 0.5), m.drawn(1, 0.5)), (Some(0.0), Some(1.0)));
        let mut last = 0.0;
        for k in 1..=DOOR_MOTION_TICKS {
            m.after_tick([true, true].into_iter());
            // Continuous across the tick boundary, and opening monotonically.
            assert_eq!(m.drawn(0, 0.0), Some(last));
            let now = m.drawn(0, 1.0).unwrap();
            assert!(now > last, "tick {k}");
            last = now;
        }
        assert_eq!(last, 1.0);
        m.after_tick([false, true].into_iter());
        assert!(m.drawn(0, 1.0).unwrap() < 1.0);
        assert_eq!(m.drawn(1, 1.0), Some(1.0));
        // A level with one door fewer forgets it.
        m.after_tick([false].into_iter());
        assert_eq!(m.drawn(1, 1.0), None);
    }
}
