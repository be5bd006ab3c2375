//! Regression: a move that starts exactly at the end vertex of a blocking edge and heads outside
//! both edges of the body's face at that vertex (e.g. stepping from the top of a 30° slope onto the
//! flat beyond it) "collided" with the slope's line at fraction 0 and slid back along it: the walk
//! treated a segment through the shared vertex as crossing the first edge even when that edge was
//! blocking. The hero lost all its speed at every convex crest.
use glam::DVec2;
use tessera::collision::*;

#[test]
fn move_from_crest_vertex_onto_flat_is_not_deflected_by_the_slope() {
    let p = DVec2::new;
    let ground = SourcePolygon {
        id: PolygonId(0),
        kind: Solidity::Solid,
        points: vec![
            p(-10.0, -5.0),
            p(20.0, -5.0),
            p(20.0, 2.0),
            p(4.0, 2.0),
            p(0.0, 0.0),
            p(-10.0, 0.0),
        ],
    };
    let shape = ColliderShape::Box {
        width: 0.8,
        height: 1.8,
    };
    let mesh = build_mesh(&[ground], &shape, &MeshConfig::default()).unwrap();
    // The crest vertex of the inflated slope: the slope edge ends where the flat begins.
    let crest = mesh
        .vertices()
        .iter()
        .copied()
        .find(|v| (v.y - 2.0).abs() < 1e-12 && (v.x - 3.6).abs() < 1e-9)
        .expect("crest vertex");
    // Find a free face containing the crest that is adjacent to the slope edge.
    let slope_face = mesh
        .face_ids()
        .find(|&f| {
            mesh.kind(f) == FaceKind::Free
                && (0..3u8).any(|i| {
                    let e = EdgeRef { face: f, edge: i };
                    let (a, b) = mesh.edge_points(e);
                    b == crest && a.y < b.y && mesh.blocks(e, MoveOptions::default())
                })
        })
        .expect("face on the slope at the crest");
    let body = Body {
        pos: crest,
        face: slope_face,
    };
    let r = mesh.move_and_slide(body, p(0.05, 0.0), MoveOptions::default());
    assert!(
        (r.body.pos - (crest + p(0.05, 0.0))).length() < 1e-12,
        "deflected: {:?}",
        r
    );
    assert!(
        r.contacts.iter().all(|c| c.normal.y > 0.99),
        "contact with the slope: {:?}",
        r.contacts
    );
}
