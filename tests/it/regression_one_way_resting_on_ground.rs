//! Regression: a one-way platform resting on a solid floor failed the mesh invariant check
//! ("free-region boundary is not closed"): the checker balanced only free|solid edges, but the
//! free region's boundary also runs along free|one-way edges. Any level with a one-way block on
//! the ground could not be loaded in debug builds.
use glam::DVec2;
use tessera::collision::*;

#[test]
fn one_way_block_on_the_floor_builds_and_checks() {
    let p = DVec2::new;
    let rect = |id, kind, x0: f64, y0: f64, x1: f64, y1: f64| SourcePolygon {
        id: PolygonId(id),
        kind,
        points: vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)],
    };
    let polys = [
        rect(0, Solidity::Solid, -10.0, -1.0, 30.0, 0.0),
        rect(1, Solidity::OneWay, 5.0, 0.0, 9.0, 0.5),
    ];
    let mesh = build_mesh(
        &polys,
        &ColliderShape::Box {
            width: 0.8,
            height: 1.8,
        },
        &MeshConfig::default(),
    )
    .unwrap();
    mesh.check_invariants().unwrap();
    // Walking along the floor passes through the one-way block from its side.
    let Location::Free(body) = mesh.locate(p(2.0, 0.0), None) else {
        panic!("spawn not free")
    };
    let r = mesh.move_and_slide(body, p(10.0, 0.0), MoveOptions::default());
    assert_eq!(r.body.pos, p(12.0, 0.0));
}
