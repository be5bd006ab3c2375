//! The slabs' geometry, culling and layout under edits (`LevelGeometry`, `ChunkTable`).
use super::*;
use crate::level::LevelPolygon;

fn level(polys: Vec<LevelPolygon>) -> Level {
    Level {
        polygons: polys,
        ..Level::empty("t")
    }
}

fn poly(p: &[(f64, f64)]) -> LevelPolygon {
    LevelPolygon::solid(p.iter().map(|&(x, y)| DVec2::new(x, y)).collect())
}

const L_SHAPE: [(f64, f64); 6] = [(0., 0.), (4., 0.), (4., 1.), (1., 1.), (1., 3.), (0., 3.)];

#[test]
fn every_triangle_faces_the_way_its_normal_points() {
    let g = LevelGeometry::build(
        &level(vec![poly(&L_SHAPE), poly(&[(6., 0.), (6., 2.), (9., 0.)])]),
        &SlabConfig::default(),
    );
    assert!(!g.drawn_triangles().is_empty());
    for t in g.drawn_triangles() {
        let [a, b, c] = t.map(|v| Vec3::from_array(v.position));
        let geometric = (b - a).cross(c - a);
        let n = Vec3::from_array(t[0].normal);
        assert!(geometric.length() > 1e-7, "degenerate triangle");
        assert!(geometric.normalize().dot(n) > 0.5, "{geometric} vs {n}");
        assert!((n.length() - 1.0).abs() < 1e-5);
    }
}

#[test]
fn the_front_face_covers_the_inset_polygon_area() {
    let cfg = SlabConfig::default();
    let g = LevelGeometry::build(&level(vec![poly(&L_SHAPE)]), &cfg);
    let front_area: f32 = g
        .drawn_triangles()
        .into_iter()
        .map(|t| t.map(|v| Vec3::from_array(v.position)))
        .filter(|t| {
            t.iter().all(|p| p.z == cfg.solid_half_depth)
                && (t[1] - t[0]).cross(t[2] - t[0]).z > 0.0
        })
        .map(|t| (t[1] - t[0]).cross(t[2] - t[0]).z / 2.0)
        .sum();
    // Area 6 minus the bevel strip (perimeter 14 × 0.08), plus b² for each of the five convex
    // corners and minus b² for the reflex one: exactly 4.9056.
    assert!((front_area - 4.9056).abs() < 1e-4, "{front_area}");
}

#[test]
fn one_way_platforms_are_thinner_and_striped_and_tops_use_the_top_colour() {
    let mut p = poly(&[(0., 0.), (3., 0.), (3., 0.3), (0., 0.3)]);
    p.kind = PolygonKind::OneWay;
    let g = LevelGeometry::build(&level(vec![p.clone()]), &SlabConfig::default());
    let vertices = g.used_vertices();
    let zmin = vertices
        .iter()
        .map(|v| v.position[2])
        .fold(f32::MAX, f32::min);
    assert_eq!(zmin, -0.7);
    assert!(vertices.iter().all(|v| v.stripes == 1.0));
    let style = polygon_style(&p);
    assert!(vertices
        .iter()
        .any(|v| v.normal == [0.0, 1.0, 0.0] && v.color == style.top));
}

#[test]
fn a_needle_too_thin_for_the_bevel_still_gets_a_slab_without_one() {
    let g = LevelGeometry::build(
        &level(vec![poly(&[(0., 0.), (5., 0.), (5., 0.05)])]),
        &SlabConfig::default(),
    );
    // Front 3 vertices + 3 walls × 4, no bevel band.
    assert_eq!(g.used_vertices().len(), 3 + 3 * 4);
}

#[test]
fn chunks_cull_by_view() {
    let far = poly(&[(100., 0.), (101., 0.), (101., 1.), (100., 1.)]);
    let g = LevelGeometry::build(&level(vec![poly(&L_SHAPE), far]), &SlabConfig::default());
    assert_eq!(g.chunks.chunks.len(), 2);
    let mut out = vec![];
    g.chunks.visible(
        &Aabb {
            min: DVec2::new(-5., -5.),
            max: DVec2::new(5., 5.),
        },
        &mut out,
    );
    assert_eq!(out, vec![g.chunks.chunks[0].indices.clone()]);
    g.chunks.visible(
        &Aabb {
            min: DVec2::new(-500., -5.),
            max: DVec2::new(500., 5.),
        },
        &mut out,
    );
    let every: Vec<_> = g.chunks.chunks.iter().map(|c| c.indices.clone()).collect();
    assert_eq!(
        out, every,
        "each chunk's range (the room after each keeps them apart)"
    );
}

#[test]
fn open_front_faces_are_the_front_faces_at_the_frontmost_depth() {
    // A solid L (its front at 1.2 m: open) and a one-way plank in front of it (0.7 m: a solid
    // slab's front stands before it, so its shadow lookup stays).
    let mut plank = poly(&[(2., 1.5), (4., 1.5), (4., 1.7), (2., 1.7)]);
    plank.kind = PolygonKind::OneWay;
    let cfg = SlabConfig::default();
    let g = LevelGeometry::build(&level(vec![poly(&L_SHAPE), plank]), &cfg);
    let everywhere = Aabb {
        min: DVec2::new(-50., -50.),
        max: DVec2::new(50., 50.),
    };
    let (mut all, mut open, mut rest) = (vec![], vec![], vec![]);
    g.chunks.visible(&everywhere, &mut all);
    g.chunks.visible_split(&everywhere, &mut open, &mut rest);
    let triangles = |ranges: &[Range<u32>]| -> Vec<[MeshVertex; 3]> {
        ranges
            .iter()
            .flat_map(|r| g.indices[r.start as usize..r.end as usize].chunks(3))
            .map(|t| {
                t.iter()
                    .map(|&i| g.vertices[i as usize])
                    .collect::<Vec<_>>()
            })
            .map(|t| [t[0], t[1], t[2]])
            .collect()
    };
    let is_front_at = |t: &[MeshVertex; 3], z: f32| {
        t.iter()
            .all(|v| v.position[2] == z && v.normal == [0.0, 0.0, 1.0])
    };
    let (open, rest) = (triangles(&open), triangles(&rest));
    assert_eq!(open.len() + rest.len(), triangles(&all).len());
    assert!(!open.is_empty());
    assert!(open.iter().all(|t| is_front_at(t, cfg.front_depth())));
    assert!(!rest.iter().any(|t| is_front_at(t, cfg.front_depth())));
    assert!(
        rest.iter().any(|t| is_front_at(t, cfg.one_way_half_depth)),
        "the plank's front keeps its lookup"
    );
}

#[test]
fn an_update_after_edits_equals_a_fresh_build() {
    // Polygons in several 24 m cells; each edit is checked against a build from scratch.
    let square = |x: f64, y: f64| poly(&[(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0)]);
    let mut a = level(
        (0..12)
            .map(|k| square(k as f64 * 7.0, (k % 3) as f64 * 30.0))
            .collect(),
    );
    a.polygons[4].kind = PolygonKind::OneWay;
    let cfg = SlabConfig::default();
    let mut g = LevelGeometry::build(&a, &cfg);
    let edits: [&dyn Fn(&mut Level); 5] = [
        // Moved within its cell, then across a cell line.
        &|l| l.polygons[2].points.iter_mut().for_each(|p| p.x += 0.5),
        &|l| l.polygons[3].points.iter_mut().for_each(|p| p.x += 30.0),
        // Added, removed from the middle (every later polygon's index shifts), restyled.
        &|l| l.polygons.push(square(100.0, 5.0)),
        &|l| {
            l.polygons.remove(5);
        },
        &|l| l.polygons[0].kind = PolygonKind::OneWay,
    ];
    for (k, edit) in edits.iter().enumerate() {
        let mut b = a.clone();
        edit(&mut b);
        g.update(&b, &cfg);
        let fresh = LevelGeometry::build(&b, &cfg);
        assert_eq!(g.drawn_by_chunk(), fresh.drawn_by_chunk(), "edit {k}");
        assert_eq!(g.used_vertices(), fresh.used_vertices(), "edit {k}");
        a = b;
    }
}

#[test]
fn an_edit_rewrites_only_what_it_changed_until_the_room_runs_out() {
    let square = |x: f64, y: f64| poly(&[(x, y), (x + 1.0, y), (x + 1.0, y + 1.0), (x, y + 1.0)]);
    // Ten cells of eight squares each.
    let mut a = level(
        (0..80)
            .map(|k| square((k / 8) as f64 * 24.0 + (k % 8) as f64 * 2.0, 0.0))
            .collect(),
    );
    let cfg = SlabConfig::default();
    let mut g = LevelGeometry::build(&a, &cfg);
    assert_eq!(g.take_dirty(), Dirty::All, "a new geometry uploads whole");
    let (nv, ni) = (g.vertices.len(), g.indices.len());
    let check = |g: &LevelGeometry, l: &Level| {
        let fresh = LevelGeometry::build(l, &cfg);
        assert_eq!(g.drawn_by_chunk(), fresh.drawn_by_chunk());
    };

    // A square moved within its cell: that cell's part rewritten in place, nothing else.
    a.polygons[3].points.iter_mut().for_each(|p| p.y += 0.5);
    g.update(&a, &cfg);
    check(&g, &a);
    let Dirty::Ranges { vertices, indices } = g.take_dirty() else {
        panic!("an in-place edit");
    };
    assert_eq!((vertices.len(), indices.len()), (1, 1));
    let one_cell = g.used_vertices().len() / 10;
    assert_eq!(vertices[0].len(), one_cell);
    assert_eq!((g.vertices.len(), g.indices.len()), (nv, ni), "no new room");

    // Nothing changed: nothing to upload.
    g.update(&a, &cfg);
    assert_eq!(g.take_dirty(), Dirty::Clean);

    // A square added to a cell outgrows its room (eight squares' room is two more): the
    // cell's part is appended after the others.
    a.polygons.push(square(5.0, 3.0));
    a.polygons.push(square(7.0, 3.0));
    a.polygons.push(square(9.0, 3.0));
    g.update(&a, &cfg);
    check(&g, &a);
    let Dirty::Ranges { vertices, .. } = g.take_dirty() else {
        panic!("an appended part");
    };
    assert!(vertices.iter().all(|r| r.start >= nv), "{vertices:?}");

    // A cell emptied: its chunk draws nothing; the rest as a fresh build.
    a.polygons
        .retain(|p| p.points[0].x >= 48.0 || p.points[0].x < 24.0);
    g.update(&a, &cfg);
    check(&g, &a);

    // Most cells moved away: the unused room outweighs the used, and the buffers are laid
    // out again (as a fresh build lays them).
    for p in &mut a.polygons {
        p.points.iter_mut().for_each(|q| q.y += 100.0);
    }
    g.update(&a, &cfg);
    check(&g, &a);
    assert_eq!(g.take_dirty(), Dirty::All);
    let fresh = LevelGeometry::build(&a, &cfg);
    assert_eq!(
        (g.vertices.len(), g.indices.len()),
        (fresh.vertices.len(), fresh.indices.len())
    );
}
