//! Picking: what is under the pointer, most specific first (the selected object's corners,
//! vertices, object handles, the spawn, edges, region outlines, path segments, object insides,
//! polygons, objects behind them: ladders), within a radius the view chooses.
use glam::DVec2;

use super::{EditorSession, Hit};
use crate::editor::objects;
use crate::level::LevelPolygon;

impl EditorSession {
    /// What is under `p`, with handles within `radius` metres. The selected object's corners
    /// come first: selecting a mover is asking for its corners.
    pub fn pick(&self, p: DVec2, radius: f64) -> Option<Hit> {
        let level = &self.level.read();
        if let Some(o) = self.selection.object {
            if let Some(g) = objects::pick_corner(level, o, p, radius) {
                return Some(Hit::Object(g));
            }
        }
        let mut best: Option<(f64, Hit)> = None;
        for (pi, poly) in level.polygons.iter().enumerate() {
            if !near_box(poly, p, radius) {
                continue;
            }
            for (vi, &v) in poly.points.iter().enumerate() {
                let d = v.distance(p);
                if d <= radius && best.is_none_or(|(b, _)| d < b) {
                    best = Some((
                        d,
                        Hit::Vertex {
                            polygon: pi,
                            vertex: vi,
                        },
                    ));
                }
            }
        }
        if best.is_some() {
            return best.map(|(_, h)| h);
        }
        if let Some(g) = objects::pick_handle(level, p, radius) {
            return Some(Hit::Object(g));
        }
        if level.spawn.distance(p) <= radius {
            return Some(Hit::Spawn);
        }
        for (pi, poly) in level.polygons.iter().enumerate() {
            if !near_box(poly, p, radius) {
                continue;
            }
            let n = poly.points.len();
            for e in 0..n {
                let (a, b) = (poly.points[e], poly.points[(e + 1) % n]);
                let q = closest_on_segment(a, b, p);
                let d = q.distance(p);
                if d <= radius && best.is_none_or(|(b, _)| d < b) {
                    best = Some((
                        d,
                        Hit::Edge {
                            polygon: pi,
                            edge: e,
                            point: q,
                        },
                    ));
                }
            }
        }
        if best.is_some() {
            return best.map(|(_, h)| h);
        }
        if let Some(g) = objects::pick_outline(level, p, radius) {
            return Some(Hit::Object(g));
        }
        if let Some((object, segment, point)) = objects::pick_path_segment(level, p, radius) {
            return Some(Hit::PathSegment {
                object,
                segment,
                point,
            });
        }
        if let Some(g) = objects::pick_inside(level, p) {
            return Some(Hit::Object(g));
        }
        if let Some(pi) = (0..level.polygons.len())
            .rev()
            .find(|&i| inside(&level.polygons[i].points, p))
        {
            return Some(Hit::Polygon(pi));
        }
        objects::pick_behind(level, p).map(Hit::Object)
    }
}

fn near_box(poly: &LevelPolygon, p: DVec2, radius: f64) -> bool {
    let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
    for &q in &poly.points {
        lo = lo.min(q);
        hi = hi.max(q);
    }
    p.x >= lo.x - radius && p.x <= hi.x + radius && p.y >= lo.y - radius && p.y <= hi.y + radius
}

/// The point of segment `a b` nearest to `p`.
pub fn closest_on_segment(a: DVec2, b: DVec2, p: DVec2) -> DVec2 {
    let d = b - a;
    let len2 = d.length_squared();
    if len2 == 0.0 {
        return a;
    }
    a + d * ((p - a).dot(d) / len2).clamp(0.0, 1.0)
}

/// Whether `p` is inside the outline (even-odd rule; for picking only).
pub fn inside(points: &[DVec2], p: DVec2) -> bool {
    let mut c = false;
    let n = points.len();
    for i in 0..n {
        let (a, b) = (points[i], points[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) {
            c = !c;
        }
    }
    c
}
