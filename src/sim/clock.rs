//! A mover's clock: the time its motion (a track, or the shorthand path) is posed at, as state.
//!
//! # What it owns
//! [`MoverClock`]: a whole number of ticks, whether it runs, and which way. The world holds one
//! per mover and advances each once per tick ([`MoverClock::advance`]); the mover's pose is a
//! pure function of the clock's time ([`MoverClock::time`]: `ticks / TICK_HZ`, one division,
//! so the same ticks always give the same bits). Counting whole ticks, a clock never drifts, and
//! one stopped and started again poses exactly as one that was never stopped, shifted.
//!
//! The operations a level's signals will drive (start, stop, reverse, return, restart) are here
//! as methods; today only the world's tick and the editor's scrub ([`MoverClock::set`]) use it.
//!
//! Must never depend on window, GPU, audio or input crates.

/// A mover's clock (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoverClock {
    ticks: u64,
    running: bool,
    backward: bool,
}

impl MoverClock {
    /// A clock at `ticks`, running forwards.
    pub fn at(ticks: u64) -> MoverClock {
        MoverClock {
            ticks,
            running: true,
            backward: false,
        }
    }

    /// Its ticks.
    pub fn ticks(self) -> u64 {
        self.ticks
    }

    /// Its time, s: `ticks / TICK_HZ`.
    pub fn time(self) -> f64 {
        self.ticks as f64 / super::TICK_HZ as f64
    }

    /// Whether it runs.
    pub fn running(self) -> bool {
        self.running
    }

    /// Whether it runs backwards (towards tick 0).
    pub fn backward(self) -> bool {
        self.backward
    }

    /// One tick on: a tick later, or earlier running backwards (stopping at 0); nothing while
    /// stopped.
    pub fn advance(&mut self) {
        if !self.running {
            return;
        }
        if self.backward {
            self.ticks = self.ticks.saturating_sub(1);
            if self.ticks == 0 {
                self.running = false;
            }
        } else {
            self.ticks = self.ticks.saturating_add(1);
        }
    }

    /// Runs on from where it is, forwards.
    pub fn start(&mut self) {
        self.running = true;
        self.backward = false;
    }

    /// Stops where it is.
    pub fn stop(&mut self) {
        self.running = false;
    }

    /// Runs the other way from where it is (the motion plays back along the way it came).
    pub fn reverse(&mut self) {
        self.backward = !self.backward;
        self.running = self.ticks > 0 || !self.backward;
    }

    /// Runs backwards to tick 0 and stops there (the motion goes back to its start).
    pub fn return_to_start(&mut self) {
        self.backward = true;
        self.running = self.ticks > 0;
    }

    /// Back to tick 0, running forwards.
    pub fn restart(&mut self) {
        *self = MoverClock::at(0);
    }

    /// Puts it at `ticks`, running forwards (the editor's scrub, a play-test from a chosen
    /// time).
    pub fn set(&mut self, ticks: u64) {
        *self = MoverClock::at(ticks);
    }

    /// Its words for the world's state hash: ticks, then running and backward as bits.
    pub fn hash_words(self) -> [u64; 2] {
        [
            self.ticks,
            self.running as u64 | (self.backward as u64) << 1,
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::MoverClock;

    fn run(c: &mut MoverClock, n: usize) {
        for _ in 0..n {
            c.advance();
        }
    }

    #[test]
    fn a_clock_counts_ticks_and_gives_the_time_in_one_division() {
        let mut c = MoverClock::at(0);
        run(&mut c, 300);
        assert_eq!(c.ticks(), 300);
        assert_eq!(c.time(), 2.5);
        assert_eq!(
            MoverClock::at(7).time().to_bits(),
            (7.0f64 / 120.0).to_bits()
        );
    }

    #[test]
    fn stop_and_start_hold_the_time_and_go_on() {
        let mut c = MoverClock::at(10);
        c.stop();
        run(&mut c, 50);
        assert_eq!((c.ticks(), c.running()), (10, false));
        c.start();
        run(&mut c, 5);
        assert_eq!(c.ticks(), 15);
    }

    #[test]
    fn reverse_runs_back_and_stops_at_zero() {
        let mut c = MoverClock::at(10);
        c.reverse();
        assert!(c.backward() && c.running());
        run(&mut c, 4);
        assert_eq!(c.ticks(), 6);
        c.reverse();
        run(&mut c, 2);
        assert_eq!((c.ticks(), c.backward()), (8, false));
        c.reverse();
        run(&mut c, 20);
        assert_eq!((c.ticks(), c.running()), (0, false), "stopped at its start");
        // Reversed again at 0, it runs forwards.
        c.reverse();
        run(&mut c, 3);
        assert_eq!((c.ticks(), c.running(), c.backward()), (3, true, false));
    }

    #[test]
    fn return_and_restart_go_back_to_the_start() {
        let mut c = MoverClock::at(5);
        c.return_to_start();
        run(&mut c, 10);
        assert_eq!((c.ticks(), c.running()), (0, false));
        c.return_to_start();
        assert!(!c.running(), "already there");
        let mut d = MoverClock::at(99);
        d.stop();
        d.restart();
        assert_eq!(d, MoverClock::at(0));
        d.set(42);
        assert_eq!(d, MoverClock::at(42));
        assert_ne!(MoverClock::at(3).hash_words(), {
            let mut s = MoverClock::at(3);
            s.stop();
            s.hash_words()
        });
    }
}
