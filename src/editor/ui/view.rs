//! Screen ↔ level plane, and the editor's drawings over the 3D view.
//!
//! The level lies in the plane `z = 0`; the camera looks at it with perspective and a slight
//! pitch. A screen point maps to the level by casting the ray through it (unprojecting the near
//! and far clip depths) against that plane; a level point maps to the screen by the camera's
//! `view_proj`. The matrices are `f32` (as on the GPU), so a picked point is good to about
//! 1e-7 of the camera distance: picking only chooses what a click acts on, and positions that
//! matter are snapped to the exact grid.
use egui::{Align2, Color32, FontId, Painter, Pos2, Rect, Shape, Stroke};
use glam::{DVec2, Mat4, Vec3, Vec4};

use super::{colours, EditorUi};
use crate::collision::Aabb;
use crate::editor::session::{EditorSession, Hit, Look, Sketch};
use crate::level::PolygonKind;
use crate::render::collision_overlay::paint_mesh_layers;
use crate::render::debug_draw::{DebugDraw, Rgba};
use crate::sim::World;
use crate::view::camera::CameraRig;

/// The camera of one frame, for mapping between the screen (egui points) and the level.
#[derive(Clone, Copy, Debug)]
pub struct ViewMapping {
    view_proj: Mat4,
    inverse: Mat4,
    screen: Rect,
    /// The part of the level plane in view (conservative).
    pub visible: Aabb,
}

impl ViewMapping {
    /// The mapping for `camera` drawn over `screen` (the whole window, in points).
    pub fn new(camera: &CameraRig, aspect: f64, screen: Rect) -> Self {
        let v = camera.view(aspect);
        ViewMapping {
            view_proj: v.view_proj,
            inverse: v.view_proj.inverse(),
            screen,
            visible: v.visible,
        }
    }

    /// The level point under screen point `p` (`None` if the ray misses the plane).
    pub fn to_world(&self, p: Pos2) -> Option<DVec2> {
        let x = (p.x - self.screen.min.x) / self.screen.width() * 2.0 - 1.0;
        let y = 1.0 - (p.y - self.screen.min.y) / self.screen.height() * 2.0;
        let near = self.inverse.project_point3(Vec3::new(x, y, 0.0));
        let far = self.inverse.project_point3(Vec3::new(x, y, 1.0));
        let dz = far.z - near.z;
        if dz.abs() < f32::EPSILON {
            return None;
        }
        let t = -near.z / dz;
        if !(t.is_finite() && t >= 0.0) {
            return None;
        }
        let q = near + (far - near) * t;
        Some(DVec2::new(q.x as f64, q.y as f64))
    }

    /// The screen point of level point `w` (`None` behind the camera).
    pub fn to_screen(&self, w: DVec2) -> Option<Pos2> {
        let c = self.view_proj * Vec4::new(w.x as f32, w.y as f32, 0.0, 1.0);
        if c.w <= 1e-6 {
            return None;
        }
        let (x, y) = (c.x / c.w, c.y / c.w);
        Some(Pos2::new(
            self.screen.min.x + (x + 1.0) / 2.0 * self.screen.width(),
            self.screen.min.y + (1.0 - y) / 2.0 * self.screen.height(),
        ))
    }

    /// Metres of level per screen point near the centre of the view.
    pub fn metres_per_point(&self) -> f64 {
        let c = self.screen.center();
        match (self.to_world(c), self.to_world(c + egui::vec2(10.0, 0.0))) {
            (Some(a), Some(b)) => a.distance(b) / 10.0,
            _ => 0.01,
        }
    }

    fn in_view(&self, lo: DVec2, hi: DVec2) -> bool {
        hi.x >= self.visible.min.x
            && lo.x <= self.visible.max.x
            && hi.y >= self.visible.min.y
            && lo.y <= self.visible.max.y
    }
}

/// Draws the collision overlays, grid, bounds, polygons, ladders, spawn, the selection, the
/// polygon being drawn and the rubber band.
pub fn paint_overlays(ui: &EditorUi, painter: &Painter, map: &ViewMapping, world: &World) {
    let s = &ui.session;
    let level = s.level();
    let mpp = map.metres_per_point();
    // Collision overlays, per collider.
    for (i, layers) in ui.overlays.per_collider().iter().enumerate() {
        let id = super::EditorUi::overlay_collider(i);
        if layers.any() && (id.0 as usize) < world.collision().shapes().len() {
            let mut d = EguiDraw {
                map,
                mpp,
                shapes: Vec::new(),
            };
            paint_mesh_layers(world.collision().mesh(id), *layers, &mut d);
            painter.extend(d.shapes);
        }
    }
    // Grid: drawn when its lines are at least 6 points apart.
    if s.grid.enabled && s.grid.size() / mpp >= 6.0 {
        let g = s.grid;
        let v = map.visible;
        let (i0, i1) = (g.index(v.min.x) - 1, g.index(v.max.x) + 1);
        let (j0, j1) = (g.index(v.min.y) - 1, g.index(v.max.y) + 1);
        if (i1 - i0) + (j1 - j0) < 2000 {
            for i in i0..=i1 {
                let x = g.coordinate(i);
                line(
                    painter,
                    map,
                    DVec2::new(x, v.min.y),
                    DVec2::new(x, v.max.y),
                    1.0,
                    colours::GRID,
                );
            }
            for j in j0..=j1 {
                let y = g.coordinate(j);
                line(
                    painter,
                    map,
                    DVec2::new(v.min.x, y),
                    DVec2::new(v.max.x, y),
                    1.0,
                    colours::GRID,
                );
            }
        }
    }
    for b in [level.bounds, level.camera_bounds].into_iter().flatten() {
        rect(painter, map, b, 1.5, colours::BOUNDS);
    }
    // Polygons in view.
    for (pi, poly) in level.polygons.iter().enumerate() {
        let (mut lo, mut hi) = (DVec2::splat(f64::INFINITY), DVec2::splat(f64::NEG_INFINITY));
        for &q in &poly.points {
            lo = lo.min(q);
            hi = hi.max(q);
        }
        if !map.in_view(lo, hi) {
            continue;
        }
        let selected = s.selection.polygons.contains(&pi);
        let (w, c) = if selected {
            (2.5, colours::SELECTED)
        } else if poly.kind == PolygonKind::OneWay {
            (1.5, colours::ONE_WAY)
        } else if poly.kind == PolygonKind::Hazard {
            (2.0, colours::HAZARD)
        } else {
            (1.0, colours::OUTLINE)
        };
        outline(painter, map, &poly.points, w, c);
        let show_handles = selected || s.selection.vertices.iter().any(|&(p, _)| p == pi);
        if show_handles {
            for (vi, &q) in poly.points.iter().enumerate() {
                if let Some(sp) = map.to_screen(q) {
                    if s.selection.vertices.contains(&(pi, vi)) {
                        painter.circle_filled(sp, 4.5, colours::SELECTED);
                    } else {
                        painter.circle_stroke(sp, 3.5, Stroke::new(1.5, colours::SELECTED));
                    }
                }
            }
        }
    }
    super::objects::paint_links(ui, painter, map);
    super::objects::paint_objects(ui, painter, map);
    if let Some(sp) = map.to_screen(level.spawn) {
        painter.circle_stroke(sp, 6.0, Stroke::new(2.0, colours::SPAWN));
        painter.text(
            sp + egui::vec2(8.0, -8.0),
            Align2::LEFT_BOTTOM,
            "spawn",
            FontId::proportional(12.0),
            colours::SPAWN,
        );
    }
    // What the active tool shows: the polygon being drawn, the agent a click would place, ...
    for sketch in s.tool_sketch(ui.pointer_world()) {
        paint_sketch(painter, map, &sketch);
    }
    if let Some(b) = s.band() {
        rect(painter, map, b, 1.0, colours::HOVER);
    }
    paint_route(ui, painter, map);
}

/// Paints one of a tool's sketches.
fn paint_sketch(painter: &Painter, map: &ViewMapping, sketch: &Sketch) {
    let colour = |look: Look| match look {
        Look::Making => colours::DRAWING,
        Look::Preview => colours::HOVER,
        Look::Refused => colours::ERROR,
    };
    match sketch {
        Sketch::Path {
            points,
            closed,
            width,
            look,
        } => {
            if *closed {
                outline(painter, map, points, *width, colour(*look));
            } else {
                for w in points.windows(2) {
                    line(painter, map, w[0], w[1], *width, colour(*look));
                }
            }
        }
        Sketch::Dot { at, radius, look } => {
            if let Some(sp) = map.to_screen(*at) {
                painter.circle_filled(sp, *radius, colour(*look));
            }
        }
    }
}

/// Highlights what the pointer is over, and shows the snapped position.
pub fn paint_hover(
    painter: &Painter,
    map: &ViewMapping,
    s: &EditorSession,
    hover: Option<Hit>,
    pointer: Pos2,
) {
    match hover {
        Some(Hit::Vertex { polygon, vertex }) => {
            if let Some(sp) = map.to_screen(s.level().polygons[polygon].points[vertex]) {
                painter.circle_stroke(sp, 7.0, Stroke::new(2.0, colours::HOVER));
            }
        }
        Some(Hit::Edge {
            polygon,
            edge,
            point,
        }) => {
            let pts = &s.level().polygons[polygon].points;
            let b = pts[(edge + 1) % pts.len()];
            line(painter, map, pts[edge], b, 3.0, colours::HOVER);
            if let Some(sp) = map.to_screen(point) {
                painter.circle_stroke(sp, 3.0, Stroke::new(1.0, colours::HOVER));
            }
        }
        Some(Hit::Polygon(p)) => {
            outline(
                painter,
                map,
                &s.level().polygons[p].points,
                2.0,
                colours::HOVER,
            );
        }
        Some(Hit::Spawn) | Some(Hit::Object(_)) | Some(Hit::PathSegment { .. }) | None => {}
    }
    if let Some(w) = map.to_world(pointer) {
        let q = s.grid.snap(w);
        painter.text(
            pointer + egui::vec2(14.0, 14.0),
            Align2::LEFT_TOP,
            format!("{:.2}, {:.2}", q.x, q.y),
            FontId::monospace(11.0),
            Color32::from_gray(220),
        );
    }
}

/// The message at the cursor.
pub fn paint_message(painter: &Painter, at: Pos2, text: &str, error: bool) {
    let colour = if error {
        colours::ERROR
    } else {
        Color32::WHITE
    };
    let galley = painter.layout(text.to_owned(), FontId::proportional(13.0), colour, 360.0);
    let r = Rect::from_min_size(at + egui::vec2(12.0, -28.0), galley.size()).expand(4.0);
    painter.rect_filled(r, 3.0, Color32::from_black_alpha(200));
    painter.galley(r.min + egui::vec2(4.0, 4.0), galley, colour);
}

pub(super) fn line(painter: &Painter, map: &ViewMapping, a: DVec2, b: DVec2, w: f32, c: Color32) {
    if let (Some(p), Some(q)) = (map.to_screen(a), map.to_screen(b)) {
        painter.line_segment([p, q], Stroke::new(w, c));
    }
}

pub(super) fn outline(painter: &Painter, map: &ViewMapping, pts: &[DVec2], w: f32, c: Color32) {
    let screen: Option<Vec<Pos2>> = pts.iter().map(|&q| map.to_screen(q)).collect();
    if let Some(s) = screen {
        painter.add(Shape::closed_line(s, Stroke::new(w, c)));
    }
}

pub(super) fn rect(painter: &Painter, map: &ViewMapping, b: Aabb, w: f32, c: Color32) {
    let pts = [
        b.min,
        DVec2::new(b.max.x, b.min.y),
        b.max,
        DVec2::new(b.min.x, b.max.y),
    ];
    outline(painter, map, &pts, w, c);
}

/// The collision overlay's drawing calls, as egui shapes (culled to the view).
struct EguiDraw<'a> {
    map: &'a ViewMapping,
    mpp: f64,
    shapes: Vec<Shape>,
}

fn colour(c: Rgba) -> Color32 {
    Color32::from_rgba_unmultiplied(
        (c[0] * 255.0) as u8,
        (c[1] * 255.0) as u8,
        (c[2] * 255.0) as u8,
        (c[3] * 255.0) as u8,
    )
}

impl DebugDraw for EguiDraw<'_> {
    fn line(&mut self, a: DVec2, b: DVec2, width: f64, color: Rgba) {
        if !self.map.in_view(a.min(b), a.max(b)) {
            return;
        }
        if let (Some(p), Some(q)) = (self.map.to_screen(a), self.map.to_screen(b)) {
            let w = (width / self.mpp).clamp(1.0, 4.0) as f32;
            self.shapes
                .push(Shape::line_segment([p, q], Stroke::new(w, colour(color))));
        }
    }

    fn triangle(&mut self, t: [DVec2; 3], color: Rgba) {
        let lo = t[0].min(t[1]).min(t[2]);
        let hi = t[0].max(t[1]).max(t[2]);
        if !self.map.in_view(lo, hi) {
            return;
        }
        let pts: Option<Vec<Pos2>> = t.iter().map(|&q| self.map.to_screen(q)).collect();
        if let Some(pts) = pts {
            self.shapes
                .push(Shape::convex_polygon(pts, colour(color), Stroke::NONE));
        }
    }
}

/// The solver's last route (the hero's feet, tick by tick) and its narrowest presses, each a
/// ring labelled with its window in ticks; or the furthest point a search reached.
fn paint_route(ui: &EditorUi, painter: &Painter, map: &ViewMapping) {
    use super::solve::Found;
    match ui.solver.last() {
        Some(Found::Route { path, marks, .. }) => {
            let points: Vec<Pos2> = path
                .iter()
                .step_by(2)
                .filter_map(|&p| map.to_screen(p + DVec2::new(0.0, 0.9)))
                .collect();
            painter.add(Shape::line(points, Stroke::new(2.0, colours::ROUTE)));
            for m in marks {
                let text = format!("{} ticks", m.window);
                ring(painter, map, m.at, 9.0, &text, colours::NARROW);
            }
        }
        Some(Found::NoRoute { furthest, .. }) => {
            ring(
                painter,
                map,
                *furthest,
                10.0,
                "furthest reached",
                colours::ERROR,
            );
        }
        _ => {}
    }
}

/// A ring round the hero's middle standing with its feet at `feet`, `text` above it.
fn ring(painter: &Painter, map: &ViewMapping, feet: DVec2, radius: f32, text: &str, c: Color32) {
    if let Some(at) = map.to_screen(feet + DVec2::new(0.0, 0.9)) {
        painter.circle_stroke(at, radius, Stroke::new(2.5, c));
        painter.text(
            at + egui::vec2(0.0, -14.0),
            Align2::CENTER_BOTTOM,
            text,
            FontId::proportional(13.0),
            c,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::camera::CameraConfig;

    #[test]
    fn screen_and_level_points_map_back_and_forth() {
        let cam = CameraRig::looking_at(CameraConfig::default(), DVec2::new(3.0, 2.0));
        let screen = Rect::from_min_size(Pos2::new(0.0, 0.0), egui::vec2(1280.0, 720.0));
        let map = ViewMapping::new(&cam, 1280.0 / 720.0, screen);
        for w in [
            DVec2::new(3.0, 2.0),
            DVec2::new(-4.0, 7.5),
            DVec2::new(12.0, -3.0),
        ] {
            let s = map.to_screen(w).unwrap();
            let back = map.to_world(s).unwrap();
            assert!(back.distance(w) < 1e-3, "{w} → {s:?} → {back}");
        }
        // Right on screen is +x in the level; up on screen is +y.
        let c = map.to_world(screen.center()).unwrap();
        let r = map
            .to_world(screen.center() + egui::vec2(100.0, 0.0))
            .unwrap();
        let u = map
            .to_world(screen.center() - egui::vec2(0.0, 100.0))
            .unwrap();
        assert!(r.x > c.x && (r.y - c.y).abs() < 0.05);
        assert!(u.y > c.y);
        let m = map.metres_per_point();
        assert!(m > 0.001 && m < 0.1, "{m}");
    }
}
