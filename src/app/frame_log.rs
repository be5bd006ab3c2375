//! The frame log (`tessera play --frame-log FILE`): one line per drawn frame with the time since
//! the previous frame and the parts the editor's frame-time graph shows, so scripted edits
//! (`benches/editor_frames.sh`) can give percentiles and find what a slow frame spent its time
//! on. Owns only its file; the window's loop hands it each frame's figures (it reads nothing of
//! the game, the window or the renderer itself, so it can be tested without them). Written through a
//! buffer (a line is about 60 bytes), flushed every [`FLUSH_SECONDS`] (a game ended by a signal
//! loses less than that) and when the log is dropped.
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::editor::ui::FrameTime;

/// The log's first line: the columns, for a reader.
pub const FRAME_LOG_HEADER: &str =
    "# t_s interval_ms sim_ms ui_ms render_ms present_ms ticks editing level_changed";

/// How often the log is flushed, seconds of its frames' time.
pub const FLUSH_SECONDS: f64 = 0.5;

/// A frame log being written.
pub struct FrameLog {
    out: BufWriter<File>,
    first: Option<Instant>,
    flushed: f64,
    failed: bool,
}

/// One frame's line of the log.
#[derive(Clone, Copy, Debug)]
pub struct LoggedFrame {
    /// When the frame started.
    pub at: Instant,
    /// Since the previous frame started (zero for the first).
    pub interval: Duration,
    /// Its parts, as the frame-time graph has them.
    pub parts: FrameTime,
    /// Simulation ticks it ran.
    pub ticks: u32,
    /// The editor was open.
    pub editing: bool,
    /// The level changed in this frame (an editor's edit or undo, a level swap): the renderer
    /// took the level's new geometry.
    pub level_changed: bool,
}

impl FrameLog {
    /// Creates (or truncates) `path` and writes the header.
    pub fn create(path: &Path) -> std::io::Result<FrameLog> {
        let mut out = BufWriter::new(File::create(path)?);
        writeln!(out, "{FRAME_LOG_HEADER}")?;
        Ok(FrameLog {
            out,
            first: None,
            flushed: 0.0,
            failed: false,
        })
    }

    /// Appends a frame's line: seconds since the first frame, then milliseconds. A write error
    /// is logged once and the log stops.
    pub fn frame(&mut self, f: &LoggedFrame) {
        if self.failed {
            return;
        }
        let first = *self.first.get_or_insert(f.at);
        let t = f.at.duration_since(first).as_secs_f64();
        let p = &f.parts;
        let mut r = writeln!(
            self.out,
            "{:.4} {:.3} {:.3} {:.3} {:.3} {:.3} {} {} {}",
            t,
            f.interval.as_secs_f64() * 1000.0,
            p.sim,
            p.ui,
            p.render,
            p.present,
            f.ticks,
            u8::from(f.editing),
            u8::from(f.level_changed),
        );
        if r.is_ok() && t - self.flushed >= FLUSH_SECONDS {
            self.flushed = t;
            r = self.out.flush();
        }
        if let Err(e) = r {
            log::warn!("frame log: {e}; no more frames are written");
            self.failed = true;
        }
    }
}

impl Drop for FrameLog {
    fn drop(&mut self) {
        let _ = self.out.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_is_one_line_of_its_figures_after_the_header() {
        let dir = std::env::temp_dir().join(format!("tessera-frame-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("frames.txt");
        let t0 = Instant::now();
        {
            let mut log = FrameLog::create(&path).unwrap();
            for (k, ms) in [0u64, 17, 120].into_iter().enumerate() {
                log.frame(&LoggedFrame {
                    at: t0 + Duration::from_millis(ms * k as u64),
                    interval: Duration::from_millis(ms),
                    parts: FrameTime {
                        sim: 1.0,
                        ui: 2.5,
                        render: 3.0,
                        present: ms as f32,
                    },
                    ticks: 2,
                    editing: true,
                    level_changed: k == 2,
                });
            }
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], FRAME_LOG_HEADER);
        assert_eq!(lines[1], "0.0000 0.000 1.000 2.500 3.000 0.000 2 1 0");
        assert_eq!(lines[3], "0.2400 120.000 1.000 2.500 3.000 120.000 2 1 1");
        assert_eq!(lines.len(), 4);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
