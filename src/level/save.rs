//! Saving a level file: validate, write pretty RON atomically.
use std::path::Path;

use super::document::Level;
use super::error::LevelError;
use super::file::{to_ron, write_atomic};

/// Nesting depth below which RON is written on one line: each polygon, ladder and box on a line
/// of its own, which keeps long tile runs readable and diffs small.
const LEVEL_RON_DEPTH: usize = 2;

/// The level as the pretty RON text [`save_level`] writes (`path` only names errors).
pub fn level_to_ron(path: &Path, level: &Level) -> Result<String, LevelError> {
    Ok(to_ron(path, level, LEVEL_RON_DEPTH)?)
}

/// Validates `level` and writes it to `path` atomically: on any error the previous file is left as
/// it was. An invalid level is refused, so every saved level loads again.
pub fn save_level(path: impl AsRef<Path>, level: &Level) -> Result<(), LevelError> {
    let path = path.as_ref();
    level.validate().map_err(|problem| LevelError::Invalid {
        path: path.to_path_buf(),
        problem,
    })?;
    let text = level_to_ron(path, level)?;
    write_atomic(path, text.as_bytes())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use glam::DVec2;

    use super::*;
    use crate::collision::Aabb;
    use crate::level::file::tests::scratch_dir;
    use crate::level::PolygonKind;
    use crate::level::{load_level, Ladder, LevelPolygon};

    fn sample() -> Level {
        let p = DVec2::new;
        let mut plank = LevelPolygon::solid(vec![p(1., 2.), p(3., 2.), p(3., 2.25), p(1., 2.25)]);
        plank.kind = PolygonKind::OneWay;
        plank.material = Some("wood".into());
        plank.colour = Some([0.6, 0.4, 0.2]);
        let mut level = Level {
            polygons: vec![
                LevelPolygon::solid(vec![p(-5., -1.), p(5., -1.), p(5., 0.), p(-5., 0.)]),
                plank,
                LevelPolygon::solid(vec![p(0.1, 0.0), p(0.30000000000000004, 0.0), p(0.2, 1e-9)]),
            ],
            ladders: vec![Ladder {
                min: p(4., 0.),
                max: p(4.5, 5.),
            }],
            spawn: p(-1.0 / 3.0, 0.0),
            camera_bounds: Some(Aabb {
                min: p(-6., -2.),
                max: p(6., 8.),
            }),
            ..Level::empty("round trip")
        };
        level.tuning.gravity = Some(20.0);
        level
    }

    #[test]
    fn save_then_load_is_identity() {
        let d = scratch_dir("level-save");
        let path = d.join("l.ron");
        let level = sample();
        save_level(&path, &level).unwrap();
        assert_eq!(load_level(&path).unwrap(), level);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains("kind: one_way"), "{text}");
        assert!(text.contains("Some(\"wood\")"), "{text}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn invalid_level_is_not_saved_and_the_old_file_stays() {
        let d = scratch_dir("level-save-bad");
        let path = d.join("l.ron");
        save_level(&path, &sample()).unwrap();
        let before = std::fs::read_to_string(&path).unwrap();
        let mut bad = sample();
        bad.polygons[0].points.truncate(2);
        let e = save_level(&path, &bad).unwrap_err();
        assert!(e.to_string().contains("polygon 0"), "{e}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
