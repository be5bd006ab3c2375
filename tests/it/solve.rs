//! The solver (`tessera::solve`) on random small levels: a staircase of columns whose rises and
//! gaps are within the tuned jump (a route is known to exist) is always solved, and the route
//! plays to the goal from a fresh world; a gap wider than twice the longest jump (measured here
//! on a flat floor) is reported unsolvable, with the furthest point at or past the near edge.
//! Few cases: each search runs in the debug build.
use proptest::prelude::*;
use proptest::test_runner::Config as PropConfig;
use tessera::level::{parse_level, Level};
use tessera::movement::Tuning;
use tessera::sim::World;
use tessera::solve::{search, Config, Outcome};

use crate::common::{hold, jump, mv};

fn config(cases: u32) -> PropConfig {
    crate::common::seed::proptest_config(cases, 0x501e_5eed)
}

/// A level of columns `(x0, x1, top)` standing in a pit (the bounds' bottom `depth` m under
/// the lowest top), the spawn on the first, the goal on the last's right end.
fn columns(cols: &[(f64, f64, f64)], depth: f64) -> Level {
    let low = cols.iter().map(|c| c.2).fold(f64::INFINITY, f64::min);
    let bottom = low - depth;
    let polys: Vec<String> = cols
        .iter()
        .map(|&(x0, x1, top)| {
            let b = bottom - 1.0;
            format!("(points: [({x0}, {b}), ({x1}, {b}), ({x1}, {top}), ({x0}, {top})])")
        })
        .collect();
    let (f, l) = (cols[0], cols[cols.len() - 1]);
    let text = format!(
        "(name: \"p\", polygons: [{}], spawn: ({}, {}), \
         goal: Some((min: ({}, {}), max: ({}, {}))), \
         bounds: Some((min: ({}, {bottom}), max: ({}, {}))))",
        polys.join(", "),
        f.0 + 0.5,
        f.2,
        l.1 - 1.0,
        l.2,
        l.1,
        l.2 + 2.0,
        f.0 - 1.0,
        l.1 + 1.0,
        cols.iter().map(|c| c.2).fold(f64::MIN, f64::max) + 8.0,
    );
    parse_level(std::path::Path::new("p.ron"), &text).unwrap()
}

/// A staircase: a first column 2 m wide, then `steps` columns `(gap, width, rise)`.
fn staircase(steps: &[(f64, f64, f64)]) -> Level {
    let mut cols = vec![(0.0, 2.0, 0.0)];
    for &(gap, width, rise) in steps {
        let (_, x1, top) = *cols.last().unwrap();
        cols.push((x1 + gap, x1 + gap + width, top + rise));
    }
    columns(&cols, 3.0)
}

/// The longest jump with the default tuning: run to full speed on a flat floor, jump with it
/// held, and measure how far the feet go before they are back on the floor.
fn longest_jump() -> f64 {
    let level = columns(&[(0.0, 200.0, 0.0)], 3.0);
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    let mut script = hold(mv(1.0, 0.0), 240);
    script.extend(hold(jump(1.0), 400));
    let mut from = None;
    for (t, a) in script.iter().enumerate() {
        w.step(a);
        if t == 240 {
            from = Some(w.hero().body.pos.x);
        } else if t > 242 && w.hero().grounded() {
            return w.hero().body.pos.x - from.unwrap();
        }
    }
    panic!("the jump never landed");
}

fn solve(level: &Level) -> (Outcome, World) {
    let mut w = World::new(level, &Tuning::default()).unwrap();
    let config = Config {
        budget_ticks: 4_000_000,
        ..Config::default()
    };
    (search(&mut w, &config).0, w)
}

proptest! {
    #![proptest_config(config(5))]

    /// Rises up to half the jump height, gaps up to 1.2 m, columns 1.5 to 3 m wide: solved,
    /// every hold but the last a multiple of 4 ticks, and the route's actions reach the goal
    /// from a fresh world with no death.
    #[test]
    fn a_staircase_within_the_jump_is_always_solved(
        steps in prop::collection::vec((0.0..1.2f64, 1.5..3.0f64, -1.5..1.6f64), 1..4),
    ) {
        prop_assert!(1.6 <= Tuning::default().jump_height / 2.0);
        let level = staircase(&steps);
        let (outcome, _) = solve(&level);
        let Outcome::Solved(route) = outcome else {
            return Err(TestCaseError::fail(format!("{steps:?}: {outcome:?}")));
        };
        let (_, inner) = route.holds.split_last().unwrap();
        prop_assert!(inner.iter().all(|&(_, n)| n % 4 == 0), "{route:?}");
        let mut w = World::new(&level, &Tuning::default()).unwrap();
        for a in route.actions() {
            w.step(&a);
        }
        prop_assert!(w.goal_tick().is_some() && w.play().deaths == 0);
    }
}

proptest! {
    #![proptest_config(config(1))]

    /// A gap over twice the longest jump: unsolvable, the furthest point where the hero stood
    /// at the near column's right end.
    #[test]
    fn a_gap_wider_than_any_jump_is_unsolvable_with_the_furthest_point(
        width in 1.5..2.0f64,
        extra in 0.0..5.0f64,
    ) {
        let gap = 2.0 * longest_jump() + extra;
        // A shallow pit: a fall ends soon, so the search tries fewer states in the air.
        let level = columns(&[(0.0, width, 0.0), (width + gap, width + gap + 3.0, 0.0)], 1.0);
        let (outcome, _) = solve(&level);
        let Outcome::Unsolvable(f) = outcome else {
            return Err(TestCaseError::fail(format!("{outcome:?}")));
        };
        prop_assert!(f.pos.x > width - 0.5 && f.pos.x < width + 1.0 && f.pos.y.abs() < 0.1, "{f:?}");
    }
}

/// The longest jump is what the gap test takes it to be: a few metres, not zero.
#[test]
fn the_longest_jump_is_measured() {
    let d = longest_jump();
    assert!(d > 2.0 && d < 15.0, "{d}");
}

/// `tessera solve` on campaign level 1 (the one solved within a small budget in the debug
/// build: about half a million ticks) writes a replay that `tessera sim` plays to the goal with
/// no death, and prints the route's time, its changes and the narrowest window. Levels 2 and 4
/// are not solved within 5 million ticks and level 3 takes 2.2 million (88 s in the debug
/// build), so they are left out of this test (see the README's "Solver").
#[test]
fn tessera_solve_finds_campaign_level_one_and_sim_plays_its_route_to_the_goal() {
    let dir = crate::common::scratch_dir("solve");
    let out = dir.join("route.ron");
    let level = "levels/campaign/01_first_steps.ron";
    let text = crate::common::succeeds(crate::common::tessera_command().args([
        "solve",
        level,
        "--budget",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]));
    for want in [
        "route: ",
        "input changes",
        "narrowest window: ",
        "checked: ",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
    let sim = crate::common::succeeds(crate::common::tessera_command().args([
        "sim",
        "--level",
        level,
        "--replay",
        out.to_str().unwrap(),
    ]));
    let game = sim
        .lines()
        .find(|l| l.starts_with("game:"))
        .unwrap_or_default();
    assert!(
        game.contains("goal reached at tick") && game.contains("deaths 0"),
        "{game}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A level with a gap no jump clears: `tessera solve` says it is unsolvable, names the furthest
/// point, and exits with 1.
#[test]
fn tessera_solve_reports_an_unsolvable_level_with_the_furthest_point_and_fails() {
    let dir = crate::common::scratch_dir("solve-gap");
    let path = dir.join("gap.ron");
    let level = columns(&[(0.0, 1.5, 0.0), (30.0, 33.0, 0.0)], 1.0);
    tessera::level::save_level(&path, &level).unwrap();
    let out = crate::common::tessera(&["solve", path.to_str().unwrap(), "--no-slack"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("unsolvable") && text.contains("furthest point ("),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
