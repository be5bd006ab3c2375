//! `tessera solve`: search a level for a route to its goal (`tessera::solve`), print it with
//! its slack, and write it as a replay that `tessera sim --replay` plays to the goal.
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use tessera::sim::{load_world, save_replay, WorldFiles};
use tessera::solve::{narrowest, search, slack, Config, Outcome, Route, NOMINAL_TICKS_PER_SECOND};

/// The `solve` subcommand's arguments.
#[derive(Debug)]
pub struct SolveArgs {
    /// The level (and tuning) files.
    pub files: WorldFiles,
    /// Where to write the route's replay.
    pub out: Option<PathBuf>,
    /// The budget, in nominal seconds.
    pub budget: f64,
    /// Skip the slack (each change tried shifted).
    pub no_slack: bool,
    /// The heuristic's weight ([`Config::weight`]).
    pub weight: f64,
}

/// The exit status for a level with no goal (`scripts/solve-levels` skips those).
pub const NO_GOAL: u8 = 3;

/// Runs the search; exit 0 with a route, 1 for none (unsolvable or out of budget), [`NO_GOAL`]
/// for a level with no goal.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    let loaded = load_world(&args.files)?;
    let mut world = loaded.world;
    let name = loaded.level_path.display();
    anyhow::ensure!(
        args.budget.is_finite() && args.budget > 0.0,
        "--budget must be a positive number of seconds"
    );
    anyhow::ensure!(
        args.weight.is_finite() && args.weight >= 1.0,
        "--weight must be a number from 1 up"
    );
    let config = Config {
        budget_ticks: (args.budget * NOMINAL_TICKS_PER_SECOND as f64) as u64,
        weight: args.weight,
        ..Config::default()
    };
    let clock = Instant::now();
    let (outcome, stats) = search(&mut world, &config);
    let secs = clock.elapsed().as_secs_f64();
    println!(
        "search: {} ticks simulated of a budget of {} ({} s × {} ticks), {} nodes expanded, \
         {} states; {:.2} s real, {:.0} ticks/s",
        stats.ticks,
        config.budget_ticks,
        args.budget,
        NOMINAL_TICKS_PER_SECOND,
        stats.expanded,
        stats.states,
        secs,
        stats.ticks as f64 / secs.max(1e-9)
    );
    let route = match outcome {
        Outcome::Solved(route) => route,
        Outcome::NoGoal => {
            eprintln!("{name}: the level has no goal, so nothing to solve");
            return Ok(ExitCode::from(NO_GOAL));
        }
        Outcome::Unsolvable(f) | Outcome::OutOfBudget(f) => {
            let why = if matches!(outcome, Outcome::Unsolvable(_)) {
                "unsolvable: every state reachable under the constraints was tried"
            } else {
                "not solved within the budget"
            };
            println!(
                "{name}: {why}; furthest point ({:.2}, {:.2}) at tick {}, {:.2} m from the goal",
                f.pos.x, f.pos.y, f.tick, f.distance
            );
            return Ok(ExitCode::from(1));
        }
    };
    print_route(&route);
    // The replay as written, played from the start: it must reach the goal.
    let replay = route.replay();
    let mut check = load_world(&args.files)?.world;
    for a in replay.iter() {
        check.step(&a);
    }
    let reached = check.goal_tick();
    anyhow::ensure!(
        reached.is_some() && check.play().deaths == 0,
        "{name}: the route's replay does not reach the goal (a bug in the solver)"
    );
    println!(
        "checked: the replay reaches the goal at tick {}",
        reached.unwrap_or_default()
    );
    if !args.no_slack {
        let clock = Instant::now();
        let (slacks, ticks) = slack(&mut world, &route);
        println!(
            "slack (ticks each change could come earlier/later, up to {}): {:.2} s, {} ticks",
            tessera::solve::MAX_SHIFT,
            clock.elapsed().as_secs_f64(),
            ticks
        );
        for s in &slacks {
            println!(
                "  tick {:>5} {:<10} -{:<2} +{:<2} window {:>2} at ({:.2}, {:.2})",
                s.tick,
                s.to.label(),
                s.earlier,
                s.later,
                s.window(),
                s.pos.x,
                s.pos.y
            );
        }
        if let Some(n) = narrowest(&slacks) {
            println!(
                "narrowest window: {} ticks, {} at tick {} at ({:.2}, {:.2})",
                n.window(),
                n.to.label(),
                n.tick,
                n.pos.x,
                n.pos.y
            );
        }
    }
    if let Some(out) = &args.out {
        save_replay(out, &replay)?;
        println!("wrote {}", out.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn print_route(route: &Route) {
    println!(
        "route: {:.3} s ({} ticks), {} input changes",
        route.seconds(),
        route.ticks(),
        route.holds.len()
    );
    let line: Vec<String> = route
        .holds
        .iter()
        .map(|(m, n)| format!("{}×{}", m.label(), n))
        .collect();
    println!("  {}", line.join(" "));
}
