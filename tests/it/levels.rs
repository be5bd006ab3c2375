//! The shipped level files: they load, build a world without warnings, survive a save/load round
//! trip, and contain what their comments promise (checked on the geometry, and for the default
//! level by playing its tour replay).
use std::path::{Path, PathBuf};

use glam::DVec2;
use tessera::collision::Location;
use tessera::level::PolygonKind;
use tessera::level::{level_to_ron, load_level, load_tuning, parse_level, save_level, Level};
use tessera::movement::{Tuning, CROUCH, STAND};
use tessera::sim::{load_replay, World};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every `.ron` file under `dir`, sorted.
fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(ron_files(&p));
        } else if p.extension().is_some_and(|x| x == "ron") {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn level_files() -> Vec<PathBuf> {
    let files: Vec<PathBuf> = ron_files(&root().join("levels"))
        .into_iter()
        .filter(|p| !p.components().any(|c| c.as_os_str() == "replays"))
        // The campaign file lists levels; it is not one (tests/it/campaign.rs).
        .filter(|p| !p.ends_with("levels/campaign.ron"))
        .collect();
    assert!(files.len() >= 8, "{files:?}");
    files
}

fn load(rel: &str) -> Level {
    load_level(root().join(rel)).unwrap_or_else(|e| panic!("{e}"))
}

fn world(level: &Level) -> World {
    World::new(level, &Tuning::default()).unwrap_or_else(|e| panic!("{}: {e}", level.name))
}

/// Points on the floor line y = 0 (from `x0` to `x1`) where the standing collider does not fit
/// but the crouching one does: inside a crouch tunnel.
fn tunnel_points(w: &World, x0: f64, x1: f64) -> Vec<f64> {
    let mut xs = Vec::new();
    let mut x = x0;
    while x <= x1 {
        let p = DVec2::new(x, 0.0);
        let stand = w.collision().locate(STAND, p);
        let crouch = w.collision().locate(CROUCH, p);
        if !matches!(stand, Location::Free(_)) && matches!(crouch, Location::Free(_)) {
            xs.push(x);
        }
        x += 0.25;
    }
    xs
}

/// Walkable-looking surface angles (degrees, left to right) of a polygon's upward-facing edges.
fn top_angles(points: &[DVec2]) -> Vec<f64> {
    let n = points.len();
    let area: f64 = (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum();
    (0..n)
        .filter_map(|i| {
            let (a, b) = (points[i], points[(i + 1) % n]);
            let d = b - a;
            // Outward normal: right of the edge for a counter-clockwise polygon.
            let normal = if area > 0.0 {
                d.perp() * -1.0
            } else {
                d.perp()
            };
            (normal.y > 0.0).then(|| {
                let d = if d.x < 0.0 { -d } else { d };
                d.y.atan2(d.x).to_degrees()
            })
        })
        .collect()
}

fn has_angle(angles: &[f64], want: f64) -> bool {
    angles.iter().any(|a| (a - want).abs() < 0.01)
}

/// Number of reflex (concave) vertices.
fn reflex_count(points: &[DVec2]) -> usize {
    let n = points.len();
    let area: f64 = (0..n)
        .map(|i| points[i].perp_dot(points[(i + 1) % n]))
        .sum();
    (0..n)
        .filter(|&i| {
            let (a, b, c) = (points[(i + n - 1) % n], points[i], points[(i + 1) % n]);
            (b - a).perp_dot(c - b) * area.signum() < 0.0
        })
        .count()
}

#[test]
fn every_level_loads_builds_and_round_trips() {
    for path in level_files() {
        let level = load_level(&path).unwrap_or_else(|e| panic!("{e}"));
        let w = world(&level);
        assert!(
            w.warnings().is_empty(),
            "{}: {:?}",
            path.display(),
            w.warnings()
        );
        let text = level_to_ron(&path, &level).unwrap();
        assert_eq!(
            parse_level(&path, &text).unwrap(),
            level,
            "{}",
            path.display()
        );
    }
}

#[test]
fn shipped_replays_and_tuning_load() {
    let replays = ron_files(&root().join("levels/replays"));
    assert!(!replays.is_empty());
    for p in replays {
        let r = load_replay(&p).unwrap_or_else(|e| panic!("{e}"));
        assert!(!r.is_empty(), "{}", p.display());
    }
    assert_eq!(
        load_tuning(root().join("assets/tuning.ron")).unwrap(),
        Tuning::default()
    );
}

#[test]
fn save_level_writes_a_file_that_loads_back() {
    let level = load("levels/default.ron");
    let dir = std::env::temp_dir().join(format!("tessera-levels-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("copy.ron");
    save_level(&path, &level).unwrap();
    assert_eq!(load_level(&path).unwrap(), level);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn flat_tiles_are_400_separate_unit_tiles_topped_at_zero() {
    let l = load("levels/test/flat_tiles.ron");
    assert_eq!(l.polygons.len(), 400);
    for (i, p) in l.polygons.iter().enumerate() {
        let x = i as f64;
        let want =
            [(x, -1.0), (x + 1.0, -1.0), (x + 1.0, 0.0), (x, 0.0)].map(|(x, y)| DVec2::new(x, y));
        assert_eq!(p.points, want, "tile {i}");
    }
    assert!(world(&l).trace_frame().grounded);
}

#[test]
fn slopes_level_has_every_angle_both_ways_and_a_60_degree_block() {
    let l = load("levels/test/slopes.ron");
    let hill = &l.polygons[1].points;
    let angles = top_angles(hill);
    for a in [15.0, 30.0, 40.0, 0.0, -30.0, -40.0, -15.0] {
        assert!(has_angle(&angles, a), "{a} in {angles:?}");
    }
    assert!(reflex_count(hill) >= 3, "concave joints");
    let block = top_angles(&l.polygons[3].points);
    assert!(
        has_angle(&block, 60.0) && has_angle(&block, -60.0),
        "{block:?}"
    );
}

#[test]
fn tunnel_fits_the_crouching_collider_only() {
    let l = load("levels/test/tunnel.ron");
    let xs = tunnel_points(&world(&l), -5.0, 20.0);
    assert!(xs.len() >= 20, "{xs:?}");
    assert!(xs.iter().all(|&x| (4.0..=13.0).contains(&x)), "{xs:?}");
}

#[test]
fn one_way_level_has_one_way_platforms() {
    let l = load("levels/test/one_way.ron");
    let n = l
        .polygons
        .iter()
        .filter(|p| p.kind == PolygonKind::OneWay)
        .count();
    assert_eq!(n, 4);
}

#[test]
fn shaft_walls_are_3_m_apart_and_10_m_high() {
    let l = load("levels/test/shaft.ron");
    let (left, right) = (&l.polygons[1].points, &l.polygons[2].points);
    let max_x = |p: &[DVec2]| p.iter().map(|v| v.x).fold(f64::MIN, f64::max);
    let min_x = |p: &[DVec2]| p.iter().map(|v| v.x).fold(f64::MAX, f64::min);
    let top = |p: &[DVec2]| p.iter().map(|v| v.y).fold(f64::MIN, f64::max);
    assert_eq!(min_x(right) - max_x(left), 3.0);
    assert_eq!((top(left), top(right)), (10.0, 10.0));
    assert!(l.spawn.x > max_x(left) && l.spawn.x < min_x(right));
}

#[test]
fn ladder_runs_from_the_floor_to_the_landing() {
    let l = load("levels/test/ladder.ron");
    assert_eq!(l.ladders.len(), 1);
    let landing = &l.polygons[1];
    assert_eq!(landing.kind, PolygonKind::OneWay);
    let landing_top = landing.points.iter().map(|v| v.y).fold(f64::MIN, f64::max);
    assert_eq!((l.ladders[0].min.y, l.ladders[0].max.y), (0.0, landing_top));
}

#[test]
fn fall_starts_200_m_above_the_floor_inside_the_bounds() {
    let l = load("levels/test/fall.ron");
    assert_eq!(l.spawn.y, 200.0);
    let w = world(&l);
    assert!(w.warnings().is_empty());
    assert_eq!(w.trace_frame().pos, [0.0, 200.0]);
}

#[test]
fn the_agents_level_keeps_each_size_class_where_it_fits() {
    let l = load("levels/test/agents.ron");
    let mut w = world(&l);
    assert!(w.warnings().is_empty(), "{:?}", w.warnings());
    // The hero's two meshes, then small, medium and large.
    assert_eq!(w.collision().shapes().len(), 5);
    let mut hi = vec![f64::NEG_INFINITY; l.agents.len()];
    let mut lo = vec![f64::INFINITY; l.agents.len()];
    for tick in 0..120 * 60 {
        w.step(&tessera::movement::Actions::default());
        for (i, a) in w.agents().iter().enumerate() {
            let x = a.mover.body.pos.x;
            assert!(
                a.mover.grounded(),
                "agent {i} left the ground at tick {tick}"
            );
            hi[i] = hi[i].max(x);
            lo[i] = lo[i].min(x);
        }
    }
    // The patrol on the floating ledge (x -8..-2) turns at both ends.
    assert!(lo[0] > -8.0 && lo[0] < -7.5 && hi[0] < -2.0 && hi[0] > -2.5);
    // The medium patrol goes through the tunnel (x 14..22) and back.
    assert!(hi[2] > 22.0 && lo[2] < 14.0, "{} {}", lo[2], hi[2]);
    // The large one never enters it: its collider's front stops at x = 14.
    assert!(hi[3] <= 14.0 - 0.6 && hi[3] > 13.0, "{}", hi[3]);
    // The idle one stays put.
    assert_eq!((lo[4], hi[4]), (26.0, 26.0));
}

#[test]
fn the_doors_level_opens_the_doorway_and_the_trapdoor_from_their_switches() {
    let l = load("levels/test/doors.ron");
    let mut w = world(&l);
    assert!(w.warnings().is_empty(), "{:?}", w.warnings());
    assert_eq!(
        w.doors().iter().map(|d| d.open).collect::<Vec<_>>(),
        [false, false, true]
    );
    let right = tessera::movement::Actions {
        move_axis: DVec2::new(1.0, 0.0),
        ..Default::default()
    };
    let mut opened = Vec::new();
    for _ in 0..120 * 4 {
        w.step(&right);
        for e in w.events() {
            if let tessera::sim::WorldEvent::DoorOpened { door } = e {
                opened.push((*door, w.hero().body.pos.x));
            }
        }
    }
    // Door 0 opened on its switch (x 1..2), the trapdoor on its (x 9..10); the hero ran through
    // the doorway and fell through the trapdoor to the floor below.
    assert_eq!(opened.len(), 2, "{opened:?}");
    assert_eq!(opened[0].0, 0);
    assert!((1.0..=2.0).contains(&opened[0].1), "{opened:?}");
    assert_eq!(opened[1].0, 1);
    assert!((9.0..=10.0).contains(&opened[1].1), "{opened:?}");
    let h = w.hero();
    assert!(h.grounded() && h.body.pos.y == -5.0, "{}", h.body.pos);
    // The doorway's door closed behind the hero 1.5 s after it left the switch.
    assert!(!w.doors()[0].open);
}

#[test]
fn default_level_has_every_feature() {
    let l = load("levels/default.ron");
    let unit_tiles = l
        .polygons
        .iter()
        .filter(|p| {
            p.points.len() == 4 && {
                let min = p.points.iter().fold(DVec2::MAX, |a, &b| a.min(b));
                let max = p.points.iter().fold(DVec2::MIN, |a, &b| a.max(b));
                max - min == DVec2::ONE
            }
        })
        .count();
    assert!(unit_tiles >= 20, "tile run: {unit_tiles}");
    let angles: Vec<f64> = l
        .polygons
        .iter()
        .flat_map(|p| top_angles(&p.points))
        .collect();
    for a in [15.0, 30.0, 40.0, 60.0, -15.0, -30.0, -40.0, -60.0] {
        assert!(has_angle(&angles, a), "slope {a}");
    }
    let rocks: Vec<_> = l
        .polygons
        .iter()
        .filter(|p| {
            reflex_count(&p.points) > 0 && top_angles(&p.points).iter().all(|a| a.abs() > 1e-6)
        })
        .collect();
    assert!(rocks.len() >= 3, "rotated concave rocks: {}", rocks.len());
    assert!(
        rocks.iter().any(|r| r.points.iter().all(|v| v.y > 1.0)),
        "a floating rock"
    );
    let one_way = l
        .polygons
        .iter()
        .filter(|p| p.kind == PolygonKind::OneWay)
        .count();
    assert!(one_way >= 3, "one-way platforms: {one_way}");
    assert!(!l.ladders.is_empty());
    let mut materials: Vec<&str> = l
        .polygons
        .iter()
        .filter_map(|p| p.material.as_deref())
        .collect();
    materials.sort_unstable();
    materials.dedup();
    assert!(materials.len() >= 4, "{materials:?}");
    assert!(l.camera_bounds.is_some());
    let w = world(&l);
    assert!(w.trace_frame().grounded, "spawn on the ground");
    assert!(!tunnel_points(&w, -12.0, 172.0).is_empty(), "crouch tunnel");
}

/// Plays `levels/replays/default_tour.ron` on the default level and checks that the hero visits
/// every feature. The replay is timed for the default tuning: if a deliberate movement change
/// breaks a checkpoint, re-time the replay (e.g. with `tessera sim --trace`) rather than the
/// checkpoints.
#[test]
fn the_tour_replay_visits_every_feature_of_the_default_level() {
    let l = load("levels/default.ron");
    let replay = load_replay(root().join("levels/replays/default_tour.ron")).unwrap();
    let mut w = world(&l);
    let mut seen = Vec::new();
    for a in replay.iter() {
        w.step(&a);
        let t = w.trace_frame();
        let [x, y] = t.pos;
        let height = t.collider.iter().map(|p| p[1]).fold(f64::MIN, f64::max);
        let checks = [
            (
                "top of the 60 degree block",
                t.grounded && y == 2.5 && (71.0..75.0).contains(&x),
            ),
            (
                "crouching in the tunnel",
                height < 1.5 && (107.0..112.0).contains(&x),
            ),
            ("on the highest one-way platform", t.grounded && y == 5.65),
            (
                "wall slide in the shaft",
                t.state == "wall_slide" && (138.0..141.0).contains(&x),
            ),
            ("on the ledge above the shaft", t.grounded && y == 12.4),
            ("climbing the ladder", t.state == "climbing"),
        ];
        for (name, hit) in checks {
            if hit && !seen.contains(&name) {
                seen.push(name);
            }
        }
    }
    assert_eq!(seen.len(), 6, "visited only {seen:?}");
    let end = w.trace_frame();
    assert!(
        end.grounded && end.pos[1] == 8.0 && end.pos[0] > 162.0,
        "{end:?}"
    );
}

/// The README's level, replay, settings and character examples (the second character one with
/// animation files) are valid files.
#[test]
fn readme_examples_load() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let blocks: Vec<&str> = readme
        .split("```ron\n")
        .skip(1)
        .map(|b| &b[..b.find("```").unwrap()])
        .collect();
    assert_eq!(
        blocks.len(),
        5,
        "a level, a replay, a settings and two character examples"
    );
    let level = parse_level(Path::new("README.md"), blocks[0]).unwrap_or_else(|e| panic!("{e}"));
    assert!(world(&level).warnings().is_empty());
    let replay = tessera::sim::parse_replay(Path::new("README.md"), blocks[1])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(replay.len(), 240);
    let settings = std::env::temp_dir().join(format!("tessera-readme-{}.ron", std::process::id()));
    std::fs::write(&settings, blocks[2]).unwrap();
    let volumes =
        tessera::audio::settings::load_volumes(&settings).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_file(&settings).unwrap();
    assert_eq!(volumes.music, 0.6);
    // The character example sits in a numbered list: indented by three spaces.
    let text: String = blocks[3]
        .lines()
        .map(|l| l.strip_prefix("   ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let path = Path::new("README.md");
    let character: tessera::anim::CharacterFile =
        tessera::level::parse_ron(path, &text).unwrap_or_else(|e| panic!("{e}"));
    tessera::anim::character::check_fields(path, &character).unwrap();
    assert_eq!(
        tessera::anim::character::role_names(path, &character)
            .unwrap()
            .len(),
        4
    );
    assert_eq!((character.scale, character.turn), (Some(0.01), Some(90.0)));
    assert_eq!(character.joints.len(), 6);
    let downloads: tessera::anim::CharacterFile =
        tessera::level::parse_ron(path, blocks[4]).unwrap_or_else(|e| panic!("{e}"));
    tessera::anim::character::check_fields(path, &downloads).unwrap();
    assert_eq!(
        tessera::anim::character::role_names(path, &downloads)
            .unwrap()
            .len(),
        3
    );
    assert_eq!(downloads.animations.len(), 4);
}
