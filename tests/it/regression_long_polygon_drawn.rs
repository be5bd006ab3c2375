//! Regression: a concave polygon of more than 64 points was not drawn at all. Its convex pieces
//! (the collision core's decomposition, which the renderer fans into its front face) carry
//! Steiner points for long outlines: split points along long edges and interior grid points.
//! The renderer looked every piece point up among the polygon's own vertices to index its vertex
//! buffer, found none for a Steiner point, and skipped the whole polygon without a word. A
//! freehand outline drawn in the editor, or an imported hillside, collided but was invisible.
//! Such polygons are now filled with the triangulation of the outline itself
//! (`collision::polygon_triangles`).
use glam::{DVec2, Vec3};
use tessera::level::{Level, LevelPolygon};
use tessera::render::{LevelGeometry, SlabConfig};

/// Area of the front face (the triangles at the front depth facing the viewer, +z).
fn front_area(level: &Level, cfg: &SlabConfig) -> f64 {
    let g = LevelGeometry::build(level, cfg);
    // The triangles the chunks draw (each chunk's span of the buffers has unused room after it).
    g.chunks
        .chunks
        .iter()
        .flat_map(|c| g.indices[c.indices.start as usize..c.indices.end as usize].chunks(3))
        .map(|t| [t[0], t[1], t[2]].map(|i| Vec3::from_array(g.vertices[i as usize].position)))
        .filter(|t| t.iter().all(|p| p.z == cfg.solid_half_depth))
        .map(|t| (t[1] - t[0]).cross(t[2] - t[0]).z as f64 / 2.0)
        .sum()
}

fn level_of(points: Vec<DVec2>) -> Level {
    Level {
        polygons: vec![LevelPolygon::solid(points)],
        ..Level::empty("long outline")
    }
}

#[test]
fn long_concave_outlines_are_drawn_whole() {
    let v = DVec2::new;
    // A comb: a 60 m strip whose long base edge gets split points, 30 teeth on top (122 points).
    let mut comb = vec![v(0.0, 0.0), v(60.0, 0.0)];
    for k in (0..30).rev() {
        let x = 2.0 * k as f64;
        comb.extend([v(x + 2.0, 1.0), v(x + 1.0, 1.0), v(x + 1.0, 2.5), v(x, 2.5)]);
    }
    // A noisy round blob of 300 points, 20 m across: wide inside, so interior grid points.
    let blob: Vec<DVec2> = (0..300)
        .map(|i| {
            let t = i as f64 * std::f64::consts::TAU / 300.0;
            v(t.cos(), t.sin()) * (10.0 + 0.2 * ((i * 7) % 5) as f64)
        })
        .collect();
    let cfg = SlabConfig {
        bevel: 0.0,
        ..SlabConfig::default()
    };
    for (name, points) in [("comb", comb), ("blob", blob)] {
        assert!(points.len() > 64, "{name}: {} points", points.len());
        let n = points.len();
        let want = (0..n)
            .map(|i| points[i].perp_dot(points[(i + 1) % n]))
            .sum::<f64>()
            / 2.0;
        let got = front_area(&level_of(points), &cfg);
        assert!(
            (got - want).abs() < 1e-4 * want,
            "{name}: front face {got} m², polygon {want} m²"
        );
    }
}
