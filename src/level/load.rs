//! Loading a level file: read, parse (RON, with line:column errors), validate.
use std::path::Path;

use super::document::Level;
use super::error::LevelError;
use super::file::{parse_ron, read_text};

/// The level `tessera` plays without arguments, relative to the data directory
/// ([`super::paths`]).
pub const DEFAULT_LEVEL_PATH: &str = super::paths::DEFAULT_LEVEL;

/// Reads, parses and validates a level file. Every error names `path`.
pub fn load_level(path: impl AsRef<Path>) -> Result<Level, LevelError> {
    let path = path.as_ref();
    parse_level(path, &read_text(path)?)
}

/// Parses and validates level text as if read from `path` (used in error messages only).
pub fn parse_level(path: &Path, text: &str) -> Result<Level, LevelError> {
    let level: Level = parse_ron(path, text)?;
    level.validate().map_err(|problem| LevelError::Invalid {
        path: path.to_path_buf(),
        problem,
    })?;
    Ok(level)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::{FileError, LevelProblem};

    const GOOD: &str = r#"(
    name: "tiny",
    polygons: [
        (points: [(-5.0, -1.0), (5.0, -1.0), (5.0, 0.0), (-5.0, 0.0)], material: Some("stone")),
        (points: [(1.0, 2.0), (3.0, 2.0), (3.0, 2.5), (1.0, 2.5)], kind: one_way),
    ],
    spawn: (0.0, 0.0),
    camera_bounds: (min: (-6.0, -2.0), max: (6.0, 8.0)),
)"#;

    #[test]
    fn parses_a_level_with_implicit_some() {
        let l = parse_level(Path::new("tiny.ron"), GOOD).unwrap();
        assert_eq!(l.name, "tiny");
        assert_eq!(l.polygons.len(), 2);
        assert!(l.camera_bounds.is_some());
    }

    #[test]
    fn type_errors_name_file_line_and_column() {
        let text = GOOD.replace("spawn: (0.0, 0.0)", "spawn: \"here\"");
        let e = parse_level(Path::new("levels/x.ron"), &text).unwrap_err();
        assert!(
            matches!(e, LevelError::File(FileError::Syntax { line: 7, .. })),
            "{e:?}"
        );
        assert!(e.to_string().starts_with("levels/x.ron:7:"), "{e}");
    }

    #[test]
    fn geometry_errors_name_file_and_polygon() {
        let text = GOOD.replace("(3.0, 2.5), (1.0, 2.5)", "(1.0, 2.5), (3.0, 2.5)");
        let e = parse_level(Path::new("levels/x.ron"), &text).unwrap_err();
        assert!(
            matches!(
                e,
                LevelError::Invalid {
                    problem: LevelProblem::Polygon(_),
                    ..
                }
            ),
            "{e:?}"
        );
        assert!(
            e.to_string()
                .starts_with("levels/x.ron: polygon 1: self-intersection"),
            "{e}"
        );
    }
}
