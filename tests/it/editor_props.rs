//! Property test of the editor's document model: random edit sequences on a small level keep it
//! valid (`Level::validate` after every accepted edit), refused edits leave it unchanged, the
//! world builds (its meshes pass `check_invariants`) every few steps and at the end, and undoing
//! everything gives back the original level exactly. Object edits (agents, movers and their
//! path nodes, doors and switches) are among the random edits: undoing them always succeeds,
//! even after a later edit put a polygon where an agent stood.
use glam::DVec2;
use proptest::prelude::*;
use proptest::test_runner::Config;
use tessera::collision::ColliderId;
use tessera::editor::kinds::agent::{new_agent, Agent};
use tessera::editor::kinds::door::{new_door, Door};
use tessera::editor::kinds::ladder::Ladders;
use tessera::editor::kinds::mover::{new_mover, Mover};
use tessera::editor::kinds::{added, changed, set_list, ObjectKind, Part};
use tessera::editor::objects::{self, Grab, ObjectRef};
use tessera::editor::{Edit, History};
use tessera::level::PolygonKind;
use tessera::level::{AgentKind, AgentSize, Ladder, Level, LevelAgent, LevelPolygon};

fn p(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

fn start() -> Level {
    Level {
        polygons: vec![
            LevelPolygon::solid(vec![p(-10., -1.), p(10., -1.), p(10., 0.), p(-10., 0.)]),
            LevelPolygon::solid(vec![p(2., 2.), p(4., 2.), p(4., 3.), p(3., 4.), p(2., 3.)]),
            LevelPolygon::solid(vec![p(-5., 3.), p(-3., 3.), p(-4., 5.)]),
        ],
        ladders: vec![Ladder {
            min: p(6., 0.),
            max: p(7., 4.),
        }],
        spawn: p(0., 0.5),
        ..Level::empty("props")
    }
}

/// A random edit from small integers (turned into indices modulo the level's sizes when applied).
#[derive(Clone, Debug)]
enum Op {
    MoveVertex(usize, usize, f64, f64),
    MovePolygon(usize, f64, f64),
    Insert(usize, usize, f64),
    Delete(usize, usize),
    DeletePolygon(usize),
    Add(f64, f64, f64),
    Kind(usize, bool),
    Spawn(f64, f64),
    Ladder(f64, f64),
    Rotate(usize, f64),
    Scale(usize, f64, f64),
    Agent(f64, f64, usize),
    MoveAgent(usize, f64, f64),
    Mover(f64, f64),
    MoveNode(usize, usize, f64, f64),
    Door(f64),
    Switch(usize, f64),
    DeleteObject(usize, usize),
    Undo,
    Redo,
}

fn op() -> impl Strategy<Value = Op> {
    let d = -3.0..3.0f64;
    prop_oneof![
        4 => (0..8usize, 0..8usize, d.clone(), d.clone())
            .prop_map(|(a, b, x, y)| Op::MoveVertex(a, b, x, y)),
        2 => (0..8usize, d.clone(), d.clone()).prop_map(|(a, x, y)| Op::MovePolygon(a, x, y)),
        3 => (0..8usize, 0..8usize, 0.0..1.0f64).prop_map(|(a, b, t)| Op::Insert(a, b, t)),
        2 => (0..8usize, 0..8usize).prop_map(|(a, b)| Op::Delete(a, b)),
        1 => (0..8usize).prop_map(Op::DeletePolygon),
        2 => (-8.0..8.0f64, 1.0..8.0f64, 0.1..2.0f64).prop_map(|(x, y, s)| Op::Add(x, y, s)),
        1 => (0..8usize, any::<bool>()).prop_map(|(a, b)| Op::Kind(a, b)),
        1 => (d.clone(), d.clone()).prop_map(|(x, y)| Op::Spawn(x, y)),
        1 => (d.clone(), d.clone()).prop_map(|(x, y)| Op::Ladder(x, y)),
        2 => (0..8usize, -3.2..3.2f64).prop_map(|(a, t)| Op::Rotate(a, t)),
        2 => (0..8usize, -2.0..2.0f64, 0.2..2.0f64).prop_map(|(a, x, y)| Op::Scale(a, x, y)),
        2 => (-8.0..8.0f64, -1.0..4.0f64, 0..4usize).prop_map(|(x, y, k)| Op::Agent(x, y, k)),
        1 => (0..8usize, d.clone(), d.clone()).prop_map(|(a, x, y)| Op::MoveAgent(a, x, y)),
        1 => (-8.0..8.0f64, 1.0..8.0f64).prop_map(|(x, y)| Op::Mover(x, y)),
        2 => (0..8usize, 0..8usize, d.clone(), d.clone())
            .prop_map(|(a, b, x, y)| Op::MoveNode(a, b, x, y)),
        1 => (-9.0..9.0f64).prop_map(Op::Door),
        1 => (0..8usize, -9.0..9.0f64).prop_map(|(a, x)| Op::Switch(a, x)),
        1 => (0..3usize, 0..8usize).prop_map(|(k, a)| Op::DeleteObject(k, a)),
        2 => Just(Op::Undo),
        1 => Just(Op::Redo),
    ]
}

fn edit(level: &Level, op: &Op) -> Option<Edit> {
    let n = level.polygons.len();
    if n == 0 {
        return match op {
            Op::Add(..) | Op::Spawn(..) | Op::Ladder(..) => edit_any(level, op, 0),
            _ => object_edit(level, op),
        };
    }
    edit_any(level, op, n)
}

/// The object edits, as the editor's tools and drags make them.
fn object_edit(level: &Level, op: &Op) -> Option<Edit> {
    let kinds = [
        (AgentKind::Crawler, AgentSize::Small),
        (AgentKind::Hopper, AgentSize::Medium),
        (AgentKind::Brute, AgentSize::Large),
        (AgentKind::Patrol, AgentSize::Hero),
    ];
    Some(match *op {
        Op::Agent(x, y, k) => {
            let (kind, size) = kinds[k % kinds.len()];
            let mut agents = level.agents.clone();
            agents.push(LevelAgent {
                size,
                facing: 1.0,
                ..new_agent(kind, p(x, y))
            });
            set_list::<Agent>(agents)
        }
        Op::MoveAgent(a, x, y) if !level.agents.is_empty() => {
            let g = Grab::new(Agent::NAME, a % level.agents.len(), Part::Body);
            objects::moved(level, g, p(x, y))?
        }
        Op::Mover(x, y) => {
            let mut movers = level.movers.clone();
            movers.push(new_mover(tessera::collision::Aabb {
                min: p(x, y),
                max: p(x + 2.0, y + 0.5),
            }));
            set_list::<Mover>(movers)
        }
        Op::MoveNode(a, b, x, y) if !level.movers.is_empty() => {
            let mover = a % level.movers.len();
            let node = b % level.movers[mover].path.len();
            let g = Grab::new(Mover::NAME, mover, Part::Handle(node));
            objects::moved(level, g, p(x, y))?
        }
        Op::Door(x) => {
            let mut doors = level.doors.clone();
            doors.push(new_door(tessera::collision::Aabb {
                min: p(x, 0.0),
                max: p(x + 0.5, 2.0),
            }));
            set_list::<Door>(doors)
        }
        Op::Switch(a, x) if !level.doors.is_empty() => {
            changed::<Door>(level, a % level.doors.len(), |d| {
                d.switch = Some(tessera::collision::Aabb {
                    min: p(x, 0.0),
                    max: p(x + 1.0, 1.0),
                })
            })?
        }
        Op::DeleteObject(k, a) => {
            let object = match k {
                0 if !level.agents.is_empty() => {
                    ObjectRef::new(Agent::NAME, a % level.agents.len())
                }
                1 if !level.movers.is_empty() => {
                    ObjectRef::new(Mover::NAME, a % level.movers.len())
                }
                2 if !level.doors.is_empty() => ObjectRef::new(Door::NAME, a % level.doors.len()),
                _ => return None,
            };
            objects::removed(level, object)?
        }
        _ => return None,
    })
}

fn edit_any(level: &Level, op: &Op, n: usize) -> Option<Edit> {
    let pick = |a: usize| a % n;
    let m = |a: usize| level.polygons[a % n].points.len();
    Some(match *op {
        Op::MoveVertex(a, b, x, y) => Edit::MoveVertices {
            polygon: pick(a),
            vertices: vec![b % m(a)],
            delta: p(x, y),
        },
        Op::MovePolygon(a, x, y) => Edit::MovePolygons {
            polygons: vec![pick(a)],
            delta: p(x, y),
        },
        Op::Insert(a, b, t) => {
            let pts = &level.polygons[pick(a)].points;
            let e = b % pts.len();
            let q = pts[e].lerp(pts[(e + 1) % pts.len()], t);
            Edit::InsertVertex {
                polygon: pick(a),
                edge: e,
                point: q + p(0.0, 0.3 * t),
            }
        }
        Op::Delete(a, b) => Edit::DeleteVertices {
            polygon: pick(a),
            vertices: vec![b % m(a)],
        },
        Op::DeletePolygon(a) => Edit::DeletePolygons {
            polygons: vec![pick(a)],
        },
        Op::Add(x, y, s) => Edit::AddPolygon {
            polygon: LevelPolygon::solid(vec![p(x, y), p(x + s, y), p(x, y + s), p(x, y)]),
        },
        Op::Kind(a, b) => Edit::SetKind {
            polygon: pick(a),
            kind: if b {
                PolygonKind::OneWay
            } else {
                PolygonKind::Solid
            },
        },
        Op::Spawn(x, y) => Edit::MoveSpawn { to: p(x, y + 1.0) },
        Op::Ladder(x, y) => {
            added::<Ladders>(
                level,
                Ladder {
                    min: p(x, y),
                    max: p(x + 1.0, y + 2.0),
                },
            )
            .0
        }
        Op::Rotate(a, t) => Edit::Rotate {
            polygons: vec![pick(a)],
            pivot: p(0.5, 2.0),
            angle: t,
        },
        Op::Scale(a, x, y) => Edit::Scale {
            polygons: vec![pick(a)],
            pivot: p(0.0, 1.0),
            factor: p(x, y),
        },
        Op::Undo | Op::Redo => return None,
        _ => return object_edit(level, op),
    })
}

fn builds(level: &Level) {
    let world = tessera::sim::World::new(level, &tessera::movement::Tuning::default())
        .unwrap_or_else(|e| panic!("world does not build: {e}\n{level:?}"));
    for c in 0..world.collision().shapes().len() {
        world
            .collision()
            .mesh(ColliderId(c as u16))
            .check_invariants()
            .unwrap_or_else(|e| panic!("mesh invariants: {e}\n{level:?}"));
    }
}

fn config(cases: u32) -> Config {
    crate::common::seed::proptest_config(cases, 0x0ed1_70b5)
}

proptest! {
    #![proptest_config(config(32))]
    #[test]
    fn random_edits_keep_the_level_valid_and_undo_to_the_start(
        ops in prop::collection::vec(op(), 1..40)
    ) {
        let original = start();
        let mut level = original.clone();
        let mut history = History::default();
        for (step, op) in ops.iter().enumerate() {
            match op {
                Op::Undo => { history.undo(&mut level).unwrap(); }
                Op::Redo => { history.redo(&mut level).unwrap(); }
                _ => {
                    let Some(e) = edit(&level, op) else { continue };
                    let before = level.clone();
                    if history.apply(&mut level, e).is_err() {
                        prop_assert_eq!(&level, &before);
                    }
                }
            }
            level.validate().unwrap_or_else(|e| panic!("step {step} {op:?}: {e}"));
            if step % 8 == 7 {
                builds(&level);
            }
        }
        builds(&level);
        while history.undo(&mut level).unwrap() {}
        prop_assert_eq!(level, original);
    }
}
