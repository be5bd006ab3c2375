//! A world's snapshot (`World::snapshot` / `World::restore`): restored, the world runs on
//! bit-identically to the run it was taken from (the state hash and the trace line at every
//! tick), on every campaign level through its replay and on the signals' and tracks' test
//! levels, restored at several ticks: a door's opening tick, mid-ride on a mover, late in the
//! run, into a world that ran on past it and into a fresh world.
use std::path::{Path, PathBuf};

use tessera::level::campaign::Campaign;
use tessera::level::load_level;
use tessera::movement::{Actions, MoveState, Tuning};
use tessera::sim::world::World;
use tessera::sim::{Snapshot, WorldEvent};

use crate::common::{hold, jump, mv};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Ticks checked after each restore.
const CHECKED: usize = 240;

/// Runs `actions` on the level, snapshots at the chosen ticks, then restores each snapshot
/// (into the world that ran to the end, and the first also into a fresh world) and checks the
/// next ticks against the uninterrupted run. Returns how many snapshots were checked, and
/// whether one was on a door's tick and one mid-ride.
fn check(level_path: &Path, actions: &[Actions]) -> (usize, bool, bool) {
    let level = load_level(level_path).unwrap();
    let name = level_path.display();
    let mut w = World::new(&level, &Tuning::default()).unwrap();
    let mut hashes = Vec::new();
    let mut traces = Vec::new();
    let mut snaps: Vec<Snapshot> = Vec::new();
    let (mut door_seen, mut ride_seen) = (false, false);
    let n = actions.len();
    let fixed = [n / 7, n / 3, n / 2, 3 * n / 4];
    for (t, a) in actions.iter().enumerate() {
        w.step(a);
        hashes.push(w.state_hash());
        traces.push(format!("{:?}", w.trace_frame()));
        let door = w.events().iter().any(|e| {
            matches!(
                e,
                WorldEvent::DoorOpened { .. } | WorldEvent::DoorClosed { .. }
            )
        });
        let riding = matches!(w.hero().state, MoveState::Riding { .. });
        let first_door = door && !door_seen;
        let first_ride = riding && !ride_seen && w.hero().ticks_in_state == 20;
        if fixed.contains(&t) || first_door || first_ride {
            snaps.push(w.snapshot());
        }
        door_seen |= first_door;
        ride_seen |= first_ride;
    }
    let replay_from = |w: &mut World, s: &Snapshot| {
        w.restore(s);
        let from = s.frame() as usize;
        assert_eq!(
            w.state_hash(),
            hashes[from - 1],
            "{name}: restored at {from}"
        );
        for t in from..(from + CHECKED).min(n) {
            w.step(&actions[t]);
            assert_eq!(
                w.state_hash(),
                hashes[t],
                "{name}: restored at {from}, tick {t}"
            );
            assert_eq!(
                format!("{:?}", w.trace_frame()),
                traces[t],
                "{name}: restored at {from}, tick {t}"
            );
        }
    };
    // Latest first: every restore goes back from a later state.
    for s in snaps.iter().rev() {
        replay_from(&mut w, s);
    }
    let mut fresh = World::new(&level, &Tuning::default()).unwrap();
    replay_from(&mut fresh, &snaps[snaps.len() / 2]);
    (snaps.len(), door_seen, ride_seen)
}

#[test]
fn restored_campaign_worlds_run_on_bit_identically() {
    let (mut doors, mut rides) = (false, false);
    let campaign = Campaign::load(&root().join("levels/campaign.ron")).unwrap();
    for l in &campaign.levels {
        let name = &l.name;
        let replay = tessera::sim::load_replay(l.replay_path()).unwrap();
        let actions: Vec<Actions> = replay.iter().collect();
        let (n, d, r) = check(&l.path, &actions);
        assert!(n >= 4, "{name}: {n} snapshots");
        doors |= d;
        rides |= r;
    }
    assert!(doors, "no snapshot on a door's tick");
    assert!(rides, "no snapshot mid-ride");
}

/// Signals (doors and clocks they drive) and tracks: a run right with jumps.
#[test]
fn restored_signal_and_track_worlds_run_on_bit_identically() {
    let mut script = hold(mv(1.0, 0.0), 300);
    script.extend(hold(jump(1.0), 30));
    script.extend(hold(mv(-1.0, 0.0), 200));
    script.extend(hold(jump(-1.0), 40));
    script.extend(hold(Actions::default(), 400));
    for name in ["signals", "tracks"] {
        let (n, _, _) = check(&root().join(format!("levels/test/{name}.ron")), &script);
        assert!(n >= 4);
    }
}
