//! Tests of the edits: each round-trips through its inverse, and each refusal leaves the level
//! unchanged with a message that names what is wrong.
use super::*;
use crate::collision::GeometryError;
use crate::editor::kinds::{checkpoint::Checkpoint, goal::Goal, set_list};
use crate::level::Ladder;

fn p(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

fn square(x: f64, y: f64, s: f64) -> Vec<DVec2> {
    vec![p(x, y), p(x + s, y), p(x + s, y + s), p(x, y + s)]
}

/// Edits that grow the level stop at its limits, with the limit named and the level
/// unchanged; undoing a deletion is never refused.
#[test]
fn growth_past_a_limit_is_refused_before_anything_changes() {
    use crate::level::limits::MAX_POINTS_PER_POLYGON;
    let mut l = level();
    let before = l.clone();
    let n = MAX_POINTS_PER_POLYGON + 1;
    let big: Vec<DVec2> = (0..n)
        .map(|i| {
            let a = i as f64 / n as f64 * std::f64::consts::TAU;
            p(a.cos(), a.sin() + 10.0)
        })
        .collect();
    let e = apply(
        &mut l,
        &Edit::AddPolygon {
            polygon: LevelPolygon::solid(big),
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "polygon 3: 250001 points, more than the limit of 250000 points per polygon"
    );
    assert_eq!(l, before);
    // At the limit: one more vertex on that polygon is refused.
    let at: Vec<DVec2> = (0..MAX_POINTS_PER_POLYGON)
        .map(|i| {
            let a = i as f64 / MAX_POINTS_PER_POLYGON as f64 * std::f64::consts::TAU;
            p(a.cos() * 1000.0, a.sin() * 1000.0 + 2000.0)
        })
        .collect();
    apply(
        &mut l,
        &Edit::AddPolygon {
            polygon: LevelPolygon::solid(at.clone()),
        },
    )
    .unwrap();
    let mid = (at[0] + at[1]) / 2.0;
    let e = apply(
        &mut l,
        &Edit::InsertVertex {
            polygon: 3,
            edge: 0,
            point: mid,
        },
    )
    .unwrap_err();
    assert!(
        matches!(e, EditError::Invalid(LevelProblem::Limit(_))),
        "{e}"
    );
    assert_eq!(l.polygons[3].points.len(), MAX_POINTS_PER_POLYGON);
    let del = apply(&mut l, &Edit::DeletePolygons { polygons: vec![3] }).unwrap();
    apply(&mut l, &del.inverse).unwrap();
    assert_eq!(l.polygons.len(), 4);
}

fn level() -> Level {
    let mut one_way = LevelPolygon::solid(vec![p(5., 2.), p(8., 2.), p(8., 2.5), p(5., 2.5)]);
    one_way.kind = PolygonKind::OneWay;
    one_way.material = Some("wood".into());
    Level {
        polygons: vec![
            LevelPolygon::solid(vec![p(-5., -1.), p(5., -1.), p(5., 0.), p(-5., 0.)]),
            LevelPolygon::solid(square(0., 3., 1.)),
            one_way,
        ],
        ladders: vec![Ladder {
            min: p(2., 0.),
            max: p(3., 4.),
        }],
        spawn: p(0., 0.),
        ..Level::empty("ops")
    }
}

/// Applies `edit`, checks the level stays valid, that undo gives back the original `==` and
/// redo the edited level `==`. Returns the edited level.
fn round_trip(edit: Edit) -> Level {
    let l0 = level();
    let mut l = l0.clone();
    let a = apply(&mut l, &edit).unwrap_or_else(|e| panic!("{edit:?}: {e}"));
    l.validate().unwrap();
    assert_ne!(l, l0, "{edit:?} changed nothing");
    let l1 = l.clone();
    let redo = apply(&mut l, &a.inverse).unwrap();
    assert_eq!(l, l0, "undo of {edit:?}");
    apply(&mut l, &edit).unwrap();
    assert_eq!(l, l1, "redo of {edit:?}");
    // The inverse of the inverse redoes too.
    let mut l2 = l0.clone();
    apply(&mut l2, &redo.inverse).unwrap();
    assert_eq!(l2, l1);
    l1
}

/// Applies `edit`, expects a refusal whose message starts with `starts`, and the level
/// unchanged.
fn refused(edit: Edit, starts: &str) -> EditError {
    let l0 = level();
    let mut l = l0.clone();
    let e = apply(&mut l, &edit).unwrap_err();
    assert!(e.to_string().starts_with(starts), "{e}");
    assert_eq!(l, l0, "refused {edit:?} changed the level");
    e
}

#[test]
fn every_operation_round_trips() {
    let l = round_trip(Edit::MoveVertices {
        polygon: 1,
        vertices: vec![1, 2],
        delta: p(0.5, 0.1),
    });
    assert_eq!(l.polygons[1].points[2], p(1.5, 4.1));
    let l = round_trip(Edit::MovePolygons {
        polygons: vec![1, 2],
        delta: p(0.1, -0.2),
    });
    assert_eq!(l.polygons[1].points[0], p(0.1, 2.8));
    let l = round_trip(Edit::InsertVertex {
        polygon: 1,
        edge: 3,
        point: p(-0.5, 3.5),
    });
    assert_eq!(l.polygons[1].points.len(), 5);
    assert_eq!(l.polygons[1].points[4], p(-0.5, 3.5));
    let l = round_trip(Edit::DeleteVertices {
        polygon: 1,
        vertices: vec![3],
    });
    assert_eq!(l.polygons[1].points, vec![p(0., 3.), p(1., 3.), p(1., 4.)]);
    let l = round_trip(Edit::AddPolygon {
        polygon: LevelPolygon::solid(vec![p(10., 0.), p(11., 0.), p(10., 1.)]),
    });
    assert_eq!(l.polygons.len(), 4);
    let l = round_trip(Edit::AddPolygons {
        polygons: vec![
            LevelPolygon::solid(square(10., 0., 1.)),
            LevelPolygon::solid(square(12., 0., 1.)),
        ],
    });
    assert_eq!(l.polygons[4].points, square(12., 0., 1.));
    let l = round_trip(Edit::DeletePolygons {
        polygons: vec![2, 0],
    });
    assert_eq!(l.polygons.len(), 1);
    assert_eq!(l.polygons[0].points, square(0., 3., 1.));
    let l = round_trip(Edit::SetKind {
        polygon: 0,
        kind: PolygonKind::OneWay,
    });
    assert_eq!(l.polygons[0].kind, PolygonKind::OneWay);
    round_trip(Edit::SetMaterial {
        polygon: 2,
        material: None,
    });
    round_trip(Edit::SetMaterial {
        polygon: 0,
        material: Some("stone".into()),
    });
    round_trip(Edit::SetColour {
        polygon: 0,
        colour: Some([0.2, 0.4, 1.0]),
    });
    let l = round_trip(Edit::MoveSpawn { to: p(1., 2.) });
    assert_eq!(l.spawn, p(1., 2.));
    // Ladders are an object kind: their edits are `editor::kinds`' (its registry tests).
    let b = Some(Aabb {
        min: p(-20., -5.),
        max: p(20., 15.),
    });
    round_trip(Edit::SetCameraBounds { bounds: b });
    round_trip(Edit::SetBounds { bounds: b });
    let l = round_trip(set_list::<Goal>(b.into_iter().collect()));
    assert_eq!(l.goal, b);
    let l = round_trip(Edit::SetMusic { music: Some(3) });
    assert_eq!(l.music_track(), 2);
    let l = round_trip(set_list::<Checkpoint>(
        [b, b].into_iter().flatten().collect(),
    ));
    assert_eq!(l.checkpoints.len(), 2);
    let l = round_trip(Edit::Rotate {
        polygons: vec![1],
        pivot: p(0.5, 3.5),
        angle: std::f64::consts::FRAC_PI_4,
    });
    assert!((l.polygons[1].points[0] - p(0.5, 3.5 - 0.5f64.sqrt())).length() < 1e-12);
    let l = round_trip(Edit::Scale {
        polygons: vec![1, 2],
        pivot: p(0., 3.),
        factor: p(2., -1.),
    });
    assert_eq!(l.polygons[1].points[2], p(2., 2.));
}

#[test]
fn restoring_edits_round_trip() {
    round_trip(Edit::SetVertices {
        polygon: 1,
        vertices: vec![(2, p(1.5, 4.5))],
    });
    round_trip(Edit::SetPolygonPoints {
        polygons: vec![(1, square(0., 3., 2.))],
    });
    round_trip(Edit::InsertVertices {
        polygon: 1,
        vertices: vec![(1, p(0.5, 2.9)), (3, p(1.1, 3.5))],
    });
    round_trip(Edit::InsertPolygons {
        polygons: vec![
            (0, LevelPolygon::solid(square(20., 0., 1.))),
            (4, LevelPolygon::solid(square(22., 0., 1.))),
        ],
    });
}

#[test]
fn moving_a_vertex_across_an_edge_is_refused() {
    let e = refused(
        Edit::MoveVertices {
            polygon: 1,
            vertices: vec![2],
            delta: p(-1.5, -0.5),
        },
        "polygon 1: self-intersection",
    );
    assert!(matches!(
        e,
        EditError::Invalid(LevelProblem::Polygon(
            GeometryError::SelfIntersection { .. }
        ))
    ));
    // Scaling a selection flat, or rotating nothing, is refused too.
    refused(
        Edit::Scale {
            polygons: vec![1, 2],
            pivot: p(0., 0.),
            factor: p(1., 0.),
        },
        "polygon 1: points 1 and 2 are duplicates",
    );
    refused(
        Edit::Rotate {
            polygons: vec![],
            pivot: p(0., 0.),
            angle: 1.0,
        },
        "nothing selected",
    );
    refused(
        Edit::Rotate {
            polygons: vec![1],
            pivot: p(0., 0.),
            angle: f64::NAN,
        },
        "rotation by NaN",
    );
}

#[test]
fn degenerate_and_collinear_outlines_are_refused() {
    refused(
        Edit::AddPolygon {
            polygon: LevelPolygon::solid(vec![p(0., 10.), p(1., 10.), p(2., 10.)]),
        },
        "polygon 3: has zero area",
    );
    refused(
        Edit::MoveVertices {
            polygon: 1,
            vertices: vec![2, 3],
            delta: p(0., -1.),
        },
        "polygon 1: ",
    );
    refused(
        Edit::MoveVertices {
            polygon: 1,
            vertices: vec![0],
            delta: p(f64::INFINITY, 0.),
        },
        "polygon 1: point 0 has a non-finite coordinate",
    );
}

#[test]
fn near_duplicate_vertices_are_refused() {
    let e = refused(
        Edit::MoveVertices {
            polygon: 1,
            vertices: vec![1],
            delta: p(-1. + 5e-5, 0.),
        },
        "polygon 1: vertices 0 and 1 would be",
    );
    assert!(matches!(e, EditError::NearDuplicate { a: 0, b: 1, .. }));
    // Exactly on top: a duplicate point.
    refused(
        Edit::MoveVertices {
            polygon: 1,
            vertices: vec![1],
            delta: p(-1., 0.),
        },
        "polygon 1: points 0 and 1 are duplicates",
    );
    // Non-neighbours count too: a pinch.
    refused(
        Edit::InsertVertex {
            polygon: 0,
            edge: 2,
            point: p(5. - 2e-5, -1. + 3e-5),
        },
        "polygon 0: ",
    );
    refused(
        Edit::InsertVertex {
            polygon: 1,
            edge: 0,
            point: p(1. - 1e-5, 3.),
        },
        "polygon 1: vertices 1 and 2",
    );
    // Just over the tolerance is fine.
    round_trip(Edit::InsertVertex {
        polygon: 1,
        edge: 0,
        point: p(1. - 2e-4, 3.),
    });
}

#[test]
fn deleting_below_three_vertices_is_refused() {
    refused(
        Edit::DeleteVertices {
            polygon: 1,
            vertices: vec![0, 2],
        },
        "polygon 1: deleting 2 of its 4 vertices would leave fewer than 3",
    );
    refused(
        Edit::DeleteVertices {
            polygon: 1,
            vertices: vec![],
        },
        "nothing selected",
    );
    refused(
        Edit::DeleteVertices {
            polygon: 1,
            vertices: vec![1, 1],
        },
        "vertex 1 is selected twice",
    );
}

#[test]
fn closing_click_on_the_first_point_does_not_duplicate_it() {
    let l = round_trip(Edit::AddPolygon {
        polygon: LevelPolygon::solid(vec![p(10., 0.), p(11., 0.), p(10., 1.), p(10., 0.)]),
    });
    assert_eq!(
        l.polygons[3].points,
        vec![p(10., 0.), p(11., 0.), p(10., 1.)]
    );
    // A closing click a hair off the first point closes too, rather than leaving a sliver.
    let l = round_trip(Edit::AddPolygon {
        polygon: LevelPolygon::solid(vec![p(10., 0.), p(11., 0.), p(10., 1.), p(10. + 1e-6, 0.)]),
    });
    assert_eq!(l.polygons[3].points.len(), 3);
    // Pasting is taken as given: a repeated first point there is an error.
    refused(
        Edit::AddPolygons {
            polygons: vec![LevelPolygon::solid(vec![
                p(10., 0.),
                p(11., 0.),
                p(10., 1.),
                p(10., 0.),
            ])],
        },
        "polygon 3: points 3 and 0 are duplicates",
    );
}

#[test]
fn bad_indices_and_fields_are_refused() {
    refused(
        Edit::SetKind {
            polygon: 9,
            kind: PolygonKind::Solid,
        },
        "there is no polygon 9",
    );
    refused(
        Edit::MoveVertices {
            polygon: 1,
            vertices: vec![4],
            delta: p(0., 0.),
        },
        "polygon 1: there is no vertex 4",
    );
    refused(
        Edit::InsertVertex {
            polygon: 1,
            edge: 4,
            point: p(0., 0.),
        },
        "polygon 1: there is no vertex 4",
    );
    refused(
        Edit::DeletePolygons {
            polygons: vec![1, 3],
        },
        "there is no polygon 3",
    );
    refused(
        Edit::MovePolygons {
            polygons: vec![1, 1],
            delta: p(1., 0.),
        },
        "polygon 1 is selected twice",
    );
    refused(
        Edit::SetColour {
            polygon: 0,
            colour: Some([0., 2., 0.]),
        },
        "polygon 0: colour",
    );
    refused(
        Edit::AddPolygons {
            polygons: vec![LevelPolygon {
                colour: Some([-1., 0., 0.]),
                ..LevelPolygon::solid(square(10., 0., 1.))
            }],
        },
        "polygon 3: colour",
    );
    refused(
        Edit::MoveSpawn {
            to: p(f64::NAN, 0.),
        },
        "spawn (NaN, 0)",
    );
    refused(Edit::MoveSpawn { to: p(2e7, 0.) }, "spawn");
    let bad = Some(Aabb {
        min: p(1., 1.),
        max: p(0., 2.),
    });
    refused(Edit::SetCameraBounds { bounds: bad }, "camera_bounds: min");
    refused(Edit::SetBounds { bounds: bad }, "bounds: min");
    refused(set_list::<Goal>(bad.into_iter().collect()), "goal: min");
    refused(
        set_list::<Checkpoint>(bad.into_iter().collect()),
        "checkpoint 0: min",
    );
    refused(Edit::AddPolygons { polygons: vec![] }, "nothing selected");
}

/// Level bounds that would leave a checkpoint, the goal or a mover's path outside are
/// refused (the level would no longer validate, and so no longer save); undo of bounds that
/// held them is never refused.
#[test]
fn bounds_must_keep_the_regions_and_the_movers_inside() {
    let mut l = level();
    let big = Some(Aabb {
        min: p(-20., -20.),
        max: p(20., 20.),
    });
    let small = Some(Aabb {
        min: p(-2., -2.),
        max: p(2., 2.),
    });
    let undo_big = apply(&mut l, &Edit::SetBounds { bounds: big }).unwrap();
    let cp = Aabb {
        min: p(5., 0.),
        max: p(6., 2.),
    };
    apply(&mut l, &set_list::<Checkpoint>(vec![cp])).unwrap();
    let before = l.clone();
    let e = apply(&mut l, &Edit::SetBounds { bounds: small }).unwrap_err();
    assert_eq!(
        e.to_string(),
        "checkpoint 0: the region min (5, 0) max (6, 2) must lie inside the level's bounds \
         min (-2, -2) max (2, 2)"
    );
    assert_eq!(l, before);
    l.checkpoints.clear();
    let unit = Aabb {
        min: p(0., 0.),
        max: p(1., 1.),
    };
    l.movers.push(crate::level::LevelMover {
        path: vec![p(0., 0.), p(0., 5.)],
        ..crate::editor::kinds::mover::new_mover(unit)
    });
    let e = apply(&mut l, &Edit::SetBounds { bounds: small }).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("mover 0: path offset 1 (0, 5) takes it outside"),
        "{e}"
    );
    l.movers.clear();
    apply(&mut l, &undo_big.inverse).unwrap();
    assert_eq!(l.bounds, None);
}

#[test]
fn a_transform_refused_on_one_polygon_touches_none() {
    // Polygon 0 would pass the geometry check; polygon 1 (checked first) is flattened to
    // near-duplicate vertices, and neither is written.
    let e = refused(
        Edit::Scale {
            polygons: vec![1, 0],
            pivot: p(0., 0.),
            factor: p(1., 1e-5),
        },
        "polygon 1: vertices",
    );
    assert!(matches!(e, EditError::NearDuplicate { polygon: 1, .. }));
}

#[test]
fn near_duplicate_finds_the_closest_pair() {
    let pts = vec![p(0., 0.), p(1., 0.), p(1., 1e-5), p(0., 1.), p(5e-5, 1.)];
    let (a, b, d) = near_duplicate(&pts).unwrap();
    assert_eq!((a, b), (1, 2));
    assert!((d - 1e-5).abs() < 1e-12);
    assert_eq!(near_duplicate(&square(0., 0., 1.)), None);
}
