//! The fixed-timestep accumulator: wall-clock frame durations in, whole simulation ticks out.
//!
//! Time is kept exactly in integer units of `1 / (1e9 · hz)` s (nanoseconds times the tick rate),
//! so 120 Hz never drifts however many frames pass (a float accumulator of `1/120` would). A frame
//! that would need more than `max_steps` ticks runs only `max_steps` and drops the rest of the
//! backlog (the game slows down instead of spiralling: each catch-up step makes the next frame
//! later still).
use std::time::Duration;

/// What one frame should simulate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrameSteps {
    /// Ticks to run now.
    pub steps: u32,
    /// How far past the last tick the frame is, in ticks, `[0, 1)`: the blend between the
    /// previous and the current simulation state to draw.
    pub alpha: f64,
    /// Wall time dropped because the catch-up cap was hit.
    pub dropped: Duration,
}

/// Accumulates frame time and hands out fixed ticks.
#[derive(Clone, Debug)]
pub struct FixedStep {
    hz: u64,
    max_steps: u32,
    /// Accumulated time in units of 1/(1e9·hz) s; one tick is 1e9 units.
    acc: u128,
}

const TICK_UNITS: u128 = 1_000_000_000;

impl FixedStep {
    /// A clock of `hz` ticks per second running at most `max_steps` ticks per frame.
    pub fn new(hz: u32, max_steps: u32) -> Self {
        assert!(
            hz > 0 && max_steps > 0,
            "tick rate and catch-up cap must be positive"
        );
        FixedStep {
            hz: hz as u64,
            max_steps,
            acc: 0,
        }
    }

    /// Adds a frame's elapsed wall time and returns the ticks to run and the blend factor.
    pub fn advance(&mut self, elapsed: Duration) -> FrameSteps {
        self.acc += elapsed.as_nanos() * self.hz as u128;
        let wanted = self.acc / TICK_UNITS;
        let steps = wanted.min(self.max_steps as u128);
        self.acc -= steps * TICK_UNITS;
        let mut dropped = Duration::ZERO;
        if wanted > steps {
            let keep = self.acc % TICK_UNITS;
            dropped = Duration::from_nanos(((self.acc - keep) / self.hz as u128) as u64);
            self.acc = keep;
        }
        FrameSteps {
            steps: steps as u32,
            alpha: self.alpha(),
            dropped,
        }
    }

    /// The blend factor now, `[0, 1)`.
    pub fn alpha(&self) -> f64 {
        self.acc as f64 / TICK_UNITS as f64
    }

    /// Forgets any partial tick (after a pause, so resuming does not jump).
    pub fn reset(&mut self) {
        self.acc = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn sixty_hz_frames_give_two_ticks_each_at_120_hz() {
        let mut c = FixedStep::new(120, 8);
        let frame = Duration::from_nanos(16_666_667);
        let total: u32 = (0..600).map(|_| c.advance(frame).steps).sum();
        assert!((1199..=1200).contains(&total), "{total}");
    }

    #[test]
    fn a_thousand_frames_of_exactly_one_tick_never_drift() {
        let mut c = FixedStep::new(100, 8);
        for _ in 0..1000 {
            assert_eq!(c.advance(ms(10)).steps, 1);
            assert_eq!(c.alpha(), 0.0);
        }
    }

    #[test]
    fn alpha_is_the_fraction_of_a_tick_left_over() {
        let mut c = FixedStep::new(100, 8);
        let s = c.advance(ms(25));
        assert_eq!(s.steps, 2);
        assert!((s.alpha - 0.5).abs() < 1e-12);
        let s = c.advance(ms(4));
        assert_eq!(s.steps, 0);
        assert!((s.alpha - 0.9).abs() < 1e-12);
        assert_eq!(c.advance(ms(1)).steps, 1);
    }

    #[test]
    fn a_long_stall_is_capped_and_the_backlog_dropped() {
        let mut c = FixedStep::new(100, 5);
        let s = c.advance(ms(1005));
        assert_eq!(s.steps, 5);
        assert_eq!(s.dropped, ms(950));
        assert!((s.alpha - 0.5).abs() < 1e-12);
        // The next normal frame is back to normal.
        assert_eq!(c.advance(ms(10)).steps, 1);
    }

    #[test]
    fn reset_forgets_the_partial_tick() {
        let mut c = FixedStep::new(100, 5);
        c.advance(ms(9));
        c.reset();
        assert_eq!(c.advance(ms(9)).steps, 0);
    }
}
