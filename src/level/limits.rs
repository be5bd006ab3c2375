//! What a level file may hold at most. A level is also something players share and download, so
//! it is untrusted input: every count that sizes work or memory is bounded, and a file beyond a
//! bound is refused with one line naming the limit before anything is built.
//!
//! The bounds are chosen so that real levels are far inside them: the shipped levels hold fewer
//! than 200 polygons and 2 000 points; the largest measured levels (the 20 000-point outline of
//! the long-outline goal, 200 000 random squares: 800 000 points in a 35 MB file) are inside them
//! with room to spare. They bound what a file can ask for; what a level *within* them costs to
//! build is bounded per point by the mesh build (`collision::WORK_PER_POINT`: a level whose
//! inflated outlines overlap more than that allows is refused with `BuildError::TooIntricate`;
//! see `BENCHMARKS.md`, "Big and dense worlds").
//!
//! | limit | value | why |
//! | --- | ---: | --- |
//! | [`MAX_FILE_BYTES`] | 64 MiB | the parser holds the text and the document at once; 200 000 squares take 35 MB |
//! | [`MAX_POLYGONS`] | 1 000 000 | a world of 10⁶ polygons is the size goal (doors count as polygons) |
//! | [`MAX_POINTS_PER_POLYGON`] | 250 000 | a traced or imported outline of 200 000 points is a goal; validation is O(n log n) per polygon |
//! | [`MAX_TOTAL_POINTS`] | 4 000 000 | 10⁶ quads |
//! | [`MAX_LADDERS`] | 100 000 | ladders are boxes the movement scans near the hero |
//! | [`MAX_AGENTS`] | 10 000 | each agent steps every tick (1 000 agents is the cost goal); its size class adds a mesh, so there are at most four |
//! | [`MAX_MOVERS`] | 1 000 | every mover is posed every tick and scanned by each character's moves (64 in reach is the cost goal) |
//! | [`MAX_MOVER_PIECES`], [`MAX_MOVER_POINTS`] | 64, 64 | a mover's pieces are inflated per collider and tested one by one; the points bound also holds a path's offsets and a track's keys |
//!
//! The same bounds hold for every RON data file's size (tuning, bindings, replays, materials:
//! [`super::file::read_text`]) and for the editor: an edit that would cross one is refused with
//! the same message.
use super::document::{Level, LevelDoor, LevelMover};

/// Largest data file read, bytes (64 MiB).
pub const MAX_FILE_BYTES: u64 = 64 << 20;
/// Most polygons in a level.
pub const MAX_POLYGONS: usize = 1_000_000;
/// Most points in one polygon.
pub const MAX_POINTS_PER_POLYGON: usize = 250_000;
/// Most points in all polygons of a level together.
pub const MAX_TOTAL_POINTS: usize = 4_000_000;
/// Most ladders in a level.
pub const MAX_LADDERS: usize = 100_000;

/// Most agents in a level.
pub const MAX_AGENTS: usize = 10_000;
/// Most movers in a level.
pub const MAX_MOVERS: usize = 1_000;
/// Most convex pieces in one mover.
pub const MAX_MOVER_PIECES: usize = 64;
/// Most points in one piece of a mover, and in one mover's path.
pub const MAX_MOVER_POINTS: usize = 64;

/// A level beyond one of the limits: what, how many, and the limit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitExceeded {
    /// Too many polygons.
    #[error("{count} polygons, more than the limit of {MAX_POLYGONS} polygons per level")]
    Polygons {
        /// How many the level has (or would have).
        count: usize,
    },
    /// One polygon has too many points.
    #[error(
        "polygon {index}: {count} points, more than the limit of {MAX_POINTS_PER_POLYGON} points \
         per polygon"
    )]
    PointsPerPolygon {
        /// Index in `polygons`.
        index: usize,
        /// How many points it has (or would have).
        count: usize,
    },
    /// Too many points in all.
    #[error("{count} points in all, more than the limit of {MAX_TOTAL_POINTS} points per level")]
    TotalPoints {
        /// How many the level has (or would have).
        count: usize,
    },
    /// Too many ladders.
    #[error("{count} ladders, more than the limit of {MAX_LADDERS} ladders per level")]
    Ladders {
        /// How many the level has (or would have).
        count: usize,
    },
    /// Too many agents.
    #[error("{count} agents, more than the limit of {MAX_AGENTS} agents per level")]
    Agents {
        /// How many the level has.
        count: usize,
    },
    /// Too many movers.
    #[error("{count} movers, more than the limit of {MAX_MOVERS} movers per level")]
    Movers {
        /// How many the level has.
        count: usize,
    },
    /// A mover with too many pieces, or a piece or path with too many points.
    #[error("mover {index}: {count} {what}, more than the limit of {limit}")]
    MoverSize {
        /// Index in `movers`.
        index: usize,
        /// "pieces", "points in a piece" or "path points".
        what: &'static str,
        /// How many.
        count: usize,
        /// The limit.
        limit: usize,
    },
}

/// Checks `level` against the limits: O(number of polygons), no point is read.
pub fn check_limits(level: &Level) -> Result<(), LimitExceeded> {
    if level.agents.len() > MAX_AGENTS {
        return Err(LimitExceeded::Agents {
            count: level.agents.len(),
        });
    }
    if level.movers.len() > MAX_MOVERS {
        return Err(LimitExceeded::Movers {
            count: level.movers.len(),
        });
    }
    for (index, m) in level.movers.iter().enumerate() {
        check_mover_size(index, m)?;
    }
    check_outline_counts(level, &level.doors)
}

/// Checks the counts of `level`'s polygons with `doors` as its doors (doors are polygons of the
/// meshes: door `i` is polygon `polygons.len() + i`), and its ladders: O(number of polygons).
pub fn check_outline_counts(level: &Level, doors: &[LevelDoor]) -> Result<(), LimitExceeded> {
    let outlines = level
        .polygons
        .iter()
        .map(|p| p.points.len())
        .chain(doors.iter().map(|d| d.points.len()));
    check_counts(
        level.polygons.len() + doors.len(),
        outlines.enumerate(),
        level.ladders.len(),
    )
}

/// Checks one mover's pieces, piece points and path points against the limits.
pub fn check_mover_size(index: usize, m: &LevelMover) -> Result<(), LimitExceeded> {
    let sizes = [
        ("pieces", m.pieces.len(), MAX_MOVER_PIECES),
        (
            "points in a piece",
            m.pieces.iter().map(Vec::len).max().unwrap_or(0),
            MAX_MOVER_POINTS,
        ),
        ("path points", m.path.len(), MAX_MOVER_POINTS),
        (
            "track keys",
            m.track.as_ref().map_or(0, |t| t.keys.len()),
            MAX_MOVER_POINTS,
        ),
    ];
    match sizes.iter().find(|s| s.1 > s.2) {
        Some(&(what, count, limit)) => Err(LimitExceeded::MoverSize {
            index,
            what,
            count,
            limit,
        }),
        None => Ok(()),
    }
}

/// Checks counts against the limits: `polygons` in all, each polygon's index and point count,
/// `ladders` in all.
pub fn check_counts(
    polygons: usize,
    points: impl IntoIterator<Item = (usize, usize)>,
    ladders: usize,
) -> Result<(), LimitExceeded> {
    if polygons > MAX_POLYGONS {
        return Err(LimitExceeded::Polygons { count: polygons });
    }
    if ladders > MAX_LADDERS {
        return Err(LimitExceeded::Ladders { count: ladders });
    }
    let mut total = 0usize;
    for (index, count) in points {
        if count > MAX_POINTS_PER_POLYGON {
            return Err(LimitExceeded::PointsPerPolygon { index, count });
        }
        total += count;
    }
    if total > MAX_TOTAL_POINTS {
        return Err(LimitExceeded::TotalPoints { count: total });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::LevelPolygon;
    use glam::DVec2;

    fn level(polygons: Vec<LevelPolygon>) -> Level {
        Level {
            polygons,
            ..Level::empty("limits")
        }
    }

    fn ngon(n: usize) -> LevelPolygon {
        LevelPolygon::solid(
            (0..n)
                .map(|i| {
                    let a = i as f64 / n as f64 * std::f64::consts::TAU;
                    DVec2::new(a.cos(), a.sin()) * 10.0
                })
                .collect(),
        )
    }

    #[test]
    fn counts_at_each_limit_pass_and_one_more_is_refused_by_name() {
        assert_eq!(check_counts(MAX_POLYGONS, [], MAX_LADDERS), Ok(()));
        assert_eq!(
            check_counts(MAX_POLYGONS + 1, [], 0),
            Err(LimitExceeded::Polygons {
                count: MAX_POLYGONS + 1
            })
        );
        assert_eq!(
            check_counts(0, [], MAX_LADDERS + 1),
            Err(LimitExceeded::Ladders {
                count: MAX_LADDERS + 1
            })
        );
        assert_eq!(
            check_counts(2, [(0, 3), (1, MAX_POINTS_PER_POLYGON + 1)], 0),
            Err(LimitExceeded::PointsPerPolygon {
                index: 1,
                count: MAX_POINTS_PER_POLYGON + 1
            })
        );
        let per = MAX_POINTS_PER_POLYGON;
        let n = MAX_TOTAL_POINTS / per;
        assert_eq!(check_counts(n, (0..n).map(|i| (i, per)), 0), Ok(()));
        assert_eq!(
            check_counts(n + 1, (0..=n).map(|i| (i, per)), 0),
            Err(LimitExceeded::TotalPoints {
                count: (n + 1) * per
            })
        );
    }

    #[test]
    fn a_level_over_the_point_limit_is_named_in_one_line() {
        let l = level(vec![ngon(4), ngon(MAX_POINTS_PER_POLYGON + 1)]);
        let e = check_limits(&l).unwrap_err();
        assert_eq!(
            e.to_string(),
            "polygon 1: 250001 points, more than the limit of 250000 points per polygon"
        );
        assert!(check_limits(&level(vec![ngon(MAX_POINTS_PER_POLYGON)])).is_ok());
    }
}
