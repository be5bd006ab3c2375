//! The tiny line-drawing interface debug views draw through, and its GPU-ready implementation.
//!
//! Painters (like the collision overlay) only call [`DebugDraw`]; [`LineMesh`] turns the calls into
//! translucent triangles on the play plane: lines become thin quads of a world-space width, so one
//! triangle pipeline draws both and widths look the same at any resolution.
use glam::DVec2;

use super::vertex::ColorVertex;

/// An RGBA colour, linear, straight alpha.
pub type Rgba = [f32; 4];

/// Something that can draw debug shapes in the play plane (metres, y up).
pub trait DebugDraw {
    /// A line segment `width` metres wide.
    fn line(&mut self, a: DVec2, b: DVec2, width: f64, color: Rgba);
    /// A filled triangle.
    fn triangle(&mut self, t: [DVec2; 3], color: Rgba);
    /// A small cross of half size `r` at `p`.
    fn cross(&mut self, p: DVec2, r: f64, width: f64, color: Rgba) {
        self.line(p - DVec2::new(r, r), p + DVec2::new(r, r), width, color);
        self.line(p - DVec2::new(r, -r), p + DVec2::new(r, -r), width, color);
    }
}

/// Collects debug shapes as a triangle list of [`ColorVertex`] at z = `z`.
#[derive(Clone, Debug, Default)]
pub struct LineMesh {
    /// The triangles (three vertices each).
    pub vertices: Vec<ColorVertex>,
    /// Depth of the drawing plane.
    pub z: f32,
}

impl LineMesh {
    fn push(&mut self, p: DVec2, color: Rgba) {
        self.vertices.push(ColorVertex {
            position: [p.x as f32, p.y as f32, self.z],
            color,
        });
    }
}

impl DebugDraw for LineMesh {
    fn line(&mut self, a: DVec2, b: DVec2, width: f64, color: Rgba) {
        let d = b - a;
        let len = d.length();
        if !(len > 0.0 && len.is_finite()) {
            return;
        }
        let n = DVec2::new(-d.y, d.x) / len * (width / 2.0);
        let (p0, p1, p2, p3) = (a - n, b - n, b + n, a + n);
        for p in [p0, p1, p2, p0, p2, p3] {
            self.push(p, color);
        }
    }

    fn triangle(&mut self, t: [DVec2; 3], color: Rgba) {
        let ccw = (t[1] - t[0]).perp_dot(t[2] - t[0]) >= 0.0;
        let order = if ccw { [0, 1, 2] } else { [0, 2, 1] };
        for i in order {
            self.push(t[i], color);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_a_quad_of_the_given_width_and_degenerate_lines_are_dropped() {
        let mut m = LineMesh::default();
        m.line(DVec2::ZERO, DVec2::new(2.0, 0.0), 0.1, [1.0; 4]);
        assert_eq!(m.vertices.len(), 6);
        let ys: Vec<f32> = m.vertices.iter().map(|v| v.position[1]).collect();
        assert!(ys.iter().all(|y| (y.abs() - 0.05).abs() < 1e-6));
        m.line(DVec2::ONE, DVec2::ONE, 0.1, [1.0; 4]);
        assert_eq!(m.vertices.len(), 6);
    }

    #[test]
    fn triangles_come_out_counter_clockwise() {
        let mut m = LineMesh::default();
        m.triangle(
            [DVec2::ZERO, DVec2::new(0.0, 1.0), DVec2::new(1.0, 0.0)],
            [1.0; 4],
        );
        let p: Vec<DVec2> = m
            .vertices
            .iter()
            .map(|v| DVec2::new(v.position[0] as f64, v.position[1] as f64))
            .collect();
        assert!((p[1] - p[0]).perp_dot(p[2] - p[0]) > 0.0);
    }
}
