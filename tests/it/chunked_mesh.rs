//! A chunked mesh (`build_chunked_mesh`) answers what a whole build (`build_mesh`) answers, built
//! whole or rebuilt chunk by chunk after edits (issue 27, "Local re-meshing").
//!
//! Each scenario makes a random level: unit tiles on a half-metre grid (edges on chunk lines
//! and corners on chunk corners included), rocks of five to nine points at any angle (edges
//! that cross chunk lines at rounded points), one-way platforms and a door, with chunks of 2, 3
//! or 8 m. The chunked mesh must pass the invariant checker, and at 1 000 random points locate
//! must give the same kind (free, one-way, solid) as a fresh whole build, and moves from random
//! free points the same end to 1e-7 m, in a face of the same kind (or, ending on a boundary, of
//! the kind across it). Then random edits (a polygon moved, reshaped, added or removed) rebuild it in part
//! (`CollisionMesh::rebuild_polygons`), and each time it is compared with a fresh whole build of
//! the edited level again.
use glam::DVec2;
use proptest::prelude::*;
use tessera::collision::*;

use crate::common::seed::{proptest_config, unit_stream};

/// The level's polygons for scenario `r`: tiles, rocks, platforms and a door over 40 × 20 m.
fn level(r: &mut impl FnMut() -> f64, n: usize) -> Vec<SourcePolygon> {
    (0..n as u32).map(|id| polygon(r, id)).collect()
}

fn polygon(r: &mut impl FnMut() -> f64, id: u32) -> SourcePolygon {
    let at = DVec2::new((r() * 80.0).floor() * 0.5, (r() * 40.0).floor() * 0.5);
    let kind_roll = r();
    let (kind, points) = if kind_roll < 0.45 {
        let s = if r() < 0.8 { 1.0 } else { 0.5 };
        (
            Solidity::Solid,
            vec![
                at,
                at + DVec2::new(s, 0.0),
                at + DVec2::new(s, s),
                at + DVec2::new(0.0, s),
            ],
        )
    } else if kind_roll < 0.85 {
        let n = 5 + (r() * 5.0) as usize;
        let radius = 0.3 + r() * 2.0;
        let turn = r() * std::f64::consts::TAU;
        let pts = (0..n)
            .map(|k| {
                let a = turn + k as f64 * std::f64::consts::TAU / n as f64;
                let rr = radius * (0.6 + 0.4 * r());
                at + DVec2::new(a.cos(), a.sin()) * rr
            })
            .collect();
        (Solidity::Solid, pts)
    } else if kind_roll < 0.97 {
        let w = 1.0 + (r() * 6.0).floor() * 0.5;
        (
            Solidity::OneWay,
            vec![
                at,
                at + DVec2::new(w, 0.0),
                at + DVec2::new(w, 0.25),
                at + DVec2::new(0.0, 0.25),
            ],
        )
    } else {
        (
            Solidity::Gate,
            vec![
                at,
                at + DVec2::new(0.5, 0.0),
                at + DVec2::new(0.5, 2.5),
                at + DVec2::new(0.0, 2.5),
            ],
        )
    };
    SourcePolygon {
        id: PolygonId(id),
        kind,
        points,
    }
}

fn kind_at(m: &CollisionMesh, p: DVec2) -> Option<FaceKind> {
    match m.locate(p, None) {
        Location::Free(b) => Some(m.kind(b.face)),
        Location::Solid(_) => Some(FaceKind::Solid),
        Location::Outside => None,
    }
}

/// The game's collider: a head-chamfered box.
fn collider() -> ColliderShape {
    ColliderShape::ChamferedBox {
        width: 0.6,
        height: 1.6,
        chamfer: 0.1,
    }
}

fn config() -> MeshConfig {
    MeshConfig {
        bounds: Some(Aabb {
            min: DVec2::new(-2.0, -2.0),
            max: DVec2::new(44.0, 24.0),
        }),
        ..MeshConfig::default()
    }
}

/// Compares `chunked` with a fresh whole build of `polygons` at 1 000 points and 200 moves.
fn same_answers(
    chunked: &CollisionMesh,
    polygons: &[SourcePolygon],
    r: &mut impl FnMut() -> f64,
    what: &str,
) -> Result<(), TestCaseError> {
    chunked
        .check_invariants()
        .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
    let whole = build_mesh(polygons, &collider(), &config()).expect("the level builds");
    let point = |r: &mut dyn FnMut() -> f64| DVec2::new(r() * 48.0 - 3.0, r() * 28.0 - 3.0);
    let mut moves = 0;
    for _ in 0..1000 {
        let p = point(r);
        let (a, b) = (kind_at(&whole, p), kind_at(chunked, p));
        prop_assert_eq!(a, b, "{}: locate at ({}, {})", what, p.x, p.y);
        let (Location::Free(wb), Location::Free(cb)) =
            (whole.locate(p, None), chunked.locate(p, None))
        else {
            continue;
        };
        if moves < 200 {
            moves += 1;
            let d = DVec2::new(r() - 0.5, r() - 0.5) * 20.0 * r();
            let opts = MoveOptions::default();
            let (wm, cm) = (
                whole.move_and_slide(wb, d, opts),
                chunked.move_and_slide(cb, d, opts),
            );
            prop_assert!(
                wm.body.pos.distance(cm.body.pos) <= 1e-7,
                "{}: move from ({}, {}) by ({}, {}) ends at {:?} whole, {:?} chunked",
                what,
                p.x,
                p.y,
                d.x,
                d.y,
                wm.body.pos,
                cm.body.pos
            );
            // The body ends in a face of the same kind. Where the move ends exactly on a
            // boundary (a slide along a ceiling), both faces beside it hold the point, and which
            // one the body keeps can differ (the chunked mesh has a vertex where a chunk line
            // crosses the boundary, and a slide through a vertex may come out on the other
            // side): then the other kind must be there too, within 1e-7 m of the end.
            let (wk, ck) = (whole.kind(wm.body.face), chunked.kind(cm.body.face));
            let near = [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)]
                .map(|(x, y)| kind_at(&whole, wm.body.pos + DVec2::new(x, y) * 1e-7));
            prop_assert!(
                wk == ck || near.contains(&Some(ck)),
                "{}: the move from {:?} by {:?} ends in a {:?} face whole, {:?} chunked",
                what,
                p,
                d,
                wk,
                ck
            );
        }
    }
    Ok(())
}

fn scenario(seed: u64) -> Result<(), TestCaseError> {
    let mut r = unit_stream(seed);
    let n = 30 + (r() * 90.0) as usize;
    let mut polygons = level(&mut r, n);
    let size = [2.0, 3.0, 8.0][(r() * 3.0) as usize];
    let mut chunked =
        build_chunked_mesh(&polygons, &collider(), &config(), size).expect("the level builds");
    same_answers(&chunked, &polygons, &mut r, "built whole")?;
    let mut next_id = n as u32;
    for edit in 0..4 {
        let i = (r() * polygons.len() as f64) as usize;
        let roll = r();
        let changed = if roll < 0.5 {
            // Moved by a grid step or a fraction of one.
            let d = DVec2::new((r() - 0.5) * 4.0, (r() - 0.5) * 2.0);
            let d = if r() < 0.5 {
                (d * 2.0).round() * 0.5
            } else {
                d
            };
            for p in &mut polygons[i].points {
                *p += d;
            }
            polygons[i].id
        } else if roll < 0.7 {
            let id = polygons[i].id;
            polygons[i] = polygon(&mut r, id.0);
            id
        } else if roll < 0.85 {
            polygons.push(polygon(&mut r, next_id));
            next_id += 1;
            PolygonId(next_id - 1)
        } else {
            polygons.remove(i).id
        };
        let what = format!("after edit {edit} ({changed:?}, chunks of {size} m)");
        chunked
            .rebuild_polygons(&polygons, &[changed], &config())
            .map_err(|e| TestCaseError::fail(format!("{what}: {e}")))?;
        same_answers(&chunked, &polygons, &mut r, &what)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(proptest_config(24, 0xc4_0c4e))]
    #[test]
    fn a_chunked_mesh_answers_as_a_whole_build_after_random_edits(seed in any::<u64>()) {
        scenario(seed)?;
    }
}

#[test]
fn a_local_rebuild_builds_only_the_chunks_an_edit_touches() {
    let mut polygons: Vec<SourcePolygon> = (0..40)
        .map(|k| {
            let x = (k % 10) as f64 * 4.0;
            let y = (k / 10) as f64 * 5.0;
            SourcePolygon {
                id: PolygonId(k),
                kind: Solidity::Solid,
                points: vec![
                    DVec2::new(x, y),
                    DVec2::new(x + 1.0, y),
                    DVec2::new(x + 1.0, y + 1.0),
                    DVec2::new(x, y + 1.0),
                ],
            }
        })
        .collect();
    let mut m = build_chunked_mesh(&polygons, &collider(), &config(), 8.0).unwrap();
    // Tile 11 (4..5 × 5..6) moved up by half a metre: its inflation before and after lies in
    // the chunk 0..8 × 0..8 (with the collider's 0.3 m and 1.6 m): one chunk.
    for p in &mut polygons[11].points {
        p.y += 0.5;
    }
    let built = m
        .rebuild_polygons(&polygons, &[PolygonId(11)], &config())
        .unwrap();
    assert_eq!(built, 1);
    assert_eq!(m.chunk_size(), Some(8.0));
    let whole = build_mesh(&polygons, &collider(), &config()).unwrap();
    for p in [
        DVec2::new(4.5, 5.2),
        DVec2::new(4.5, 4.9),
        DVec2::new(4.5, 7.6),
    ] {
        assert_eq!(kind_at(&m, p), kind_at(&whole, p), "at {p}");
    }
}

/// What the hero does on tick `t` of the level test: runs right for 3 s, then left, jumping
/// every 0.6 s.
fn script(t: u64) -> tessera::movement::Actions {
    let right = (t / 360).is_multiple_of(2);
    tessera::movement::Actions {
        move_axis: DVec2::new(if right { 1.0 } else { -1.0 }, 0.0),
        jump: t % 72 < 30,
        jump_pressed: t.is_multiple_of(72),
        crouch: false,
        attack_pressed: false,
    }
}

#[test]
fn an_edited_level_plays_as_the_same_level_loaded_afresh() {
    use tessera::level::load_level;
    use tessera::movement::Tuning;
    use tessera::sim::World;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/default.ron");
    let level = load_level(&path).expect("the default level loads");
    let mut edited = World::new(&level, &Tuning::default()).unwrap();
    assert_eq!(
        edited.collision().chunk_size(),
        None,
        "a fresh world is built whole"
    );
    // Three edits through `edit_level`, as the editor makes them: a polygon moved, one added,
    // the move undone. The meshes are chunked from the first.
    let mut level = level;
    let moved = level.polygons.len() / 2;
    for p in &mut level.polygons[moved].points {
        p.y += 0.5;
    }
    edited.edit_level(&level).unwrap();
    assert!(edited.collision().chunk_size().is_some());
    let mut block = level.polygons[0].clone();
    for p in &mut block.points {
        p.x -= 30.0;
    }
    level.polygons.push(block);
    edited.edit_level(&level).unwrap();
    for p in &mut level.polygons[moved].points {
        p.y -= 0.5;
    }
    edited.edit_level(&level).unwrap();
    // A polygon that crosses itself is refused, and the world keeps its meshes.
    let mut bad = level.clone();
    bad.polygons[moved].points.swap(0, 1);
    assert!(edited.edit_level(&bad).is_err());
    assert!(edited.collision().chunk_size().is_some());
    assert_eq!(*edited.level(), level);
    edited.restart().unwrap();
    let mut fresh = World::new(&level, &Tuning::default()).unwrap();
    // `restart` builds whole: edit once more (a no-op edit) to play on the chunked meshes.
    edited.edit_level(&level).unwrap();
    assert!(edited.collision().chunk_size().is_some());
    for t in 0..1200 {
        let a = script(t);
        edited.step(&a);
        fresh.step(&a);
        let (p, q) = (edited.hero().body.pos, fresh.hero().body.pos);
        assert!(
            p.distance(q) <= 1e-6,
            "tick {t}: the hero is at {p} on the edited level, {q} on the fresh one"
        );
    }
}

/// The editor builds the chunked meshes when it opens (`World::prepare_edits`) instead of at its
/// first edit: the world plays on as loaded until an edit (the same state, its meshes still whole;
/// a refused first edit keeps them so), and once edited it plays as the level loaded afresh.
#[test]
fn meshes_prepared_for_edits_change_nothing_until_an_edit_and_then_play_as_a_fresh_load() {
    use tessera::level::load_level;
    use tessera::movement::Tuning;
    use tessera::sim::World;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/default.ron");
    let mut level = load_level(&path).expect("the default level loads");
    let mut edited = World::new(&level, &Tuning::default()).unwrap();
    let mut plain = World::new(&level, &Tuning::default()).unwrap();
    edited.prepare_edits().unwrap();
    for t in 0..240 {
        edited.step(&script(t));
        plain.step(&script(t));
    }
    assert_eq!(edited.collision().chunk_size(), None);
    assert_eq!(edited.state_hash(), plain.state_hash());
    // A refused first edit keeps the whole meshes and the state.
    let moved = level.polygons.len() / 2;
    let mut bad = level.clone();
    bad.polygons[moved].points.swap(0, 1);
    assert!(edited.edit_level(&bad).is_err());
    assert_eq!(edited.collision().chunk_size(), None);
    assert_eq!(edited.state_hash(), plain.state_hash());
    // A polygon moved: the meshes are chunked, and the level plays as loaded afresh.
    for p in &mut level.polygons[moved].points {
        p.y += 0.5;
    }
    edited.edit_level(&level).unwrap();
    assert!(edited.collision().chunk_size().is_some());
    edited.restart().unwrap();
    edited.edit_level(&level).unwrap();
    let mut fresh = World::new(&level, &Tuning::default()).unwrap();
    for t in 0..1200 {
        let a = script(t);
        edited.step(&a);
        fresh.step(&a);
        let (p, q) = (edited.hero().body.pos, fresh.hero().body.pos);
        assert!(
            p.distance(q) <= 1e-6,
            "tick {t}: the hero is at {p} on the edited level, {q} on the fresh one"
        );
    }
}
