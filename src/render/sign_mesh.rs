//! A level sign drawn in the world: a dark panel with a gold rim on a post, its text in the
//! built-in bitmap font ([`super::sheet_font`]) as one quad per run of lit font pixels, all
//! faded by the sign's opacity (`view::signs`). Unlit, depth-tested triangles on a plane just
//! behind the play plane ([`SIGN_Z`]): a sign stands in the world behind the hero, so the hero
//! jumping past one is never hidden by it (a plane in front of the level's slabs, tried first,
//! hid the hero under the panel in level 1's chimney); level geometry in front of it hides it, so
//! signs go in open air, as the editor shows them.
//!
//! Sizes: a font pixel is [`SIGN_PIXEL`] m, so with the default camera (some 58 px per metre at
//! 1280 × 720) a letter is 9 × 15 screen pixels; lines wrap at [`SIGN_LINE_CHARS`] characters.
//!
//! It depends on the bitmap font and [`LineMesh`] alone.
use glam::DVec2;

use super::debug_draw::{DebugDraw, LineMesh, Rgba};
use super::sheet_font::{glyph, GLYPH};

/// Depth of a sign's panel (m, towards the camera): half a metre behind the play plane, where the
/// hero and the agents are drawn (the solid slabs reach 1.2 m each way).
pub const SIGN_Z: f32 = -0.5;
/// Size of one font pixel, m.
pub const SIGN_PIXEL: f64 = 0.05;
/// Most characters on one line of a sign before it wraps (at a space where there is one).
pub const SIGN_LINE_CHARS: usize = 30;
/// Height of the panel's bottom edge above the sign's point, m: above a standing hero (1.8 m),
/// so a hero walking past does not cover the text.
pub const SIGN_PANEL_LIFT: f64 = 2.2;

/// Margin between the panel's rim and its text, m.
const PADDING: f64 = 0.2;
/// Rows of font pixels from one line to the next (5 of glyph, 3 of gap).
const LINE_ROWS: f64 = 8.0;
const PANEL: [f32; 3] = [0.04, 0.05, 0.08];
const RIM: [f32; 3] = [0.95, 0.75, 0.25];
const INK: [f32; 3] = [1.0, 1.0, 0.96];
const POST: [f32; 3] = [0.35, 0.25, 0.15];

/// `text` broken into lines of at most [`SIGN_LINE_CHARS`] characters: at its own line breaks,
/// then at the last space that fits (a word longer than a line is cut).
pub fn wrap(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        for word in para.split(' ').filter(|w| !w.is_empty()) {
            let mut word: Vec<char> = word.chars().collect();
            loop {
                let used = line.chars().count();
                let gap = usize::from(used > 0);
                if used + gap + word.len() <= SIGN_LINE_CHARS {
                    if gap == 1 {
                        line.push(' ');
                    }
                    line.extend(word.iter());
                    break;
                }
                if used > 0 {
                    lines.push(std::mem::take(&mut line));
                    continue;
                }
                let rest = word.split_off(SIGN_LINE_CHARS);
                lines.push(word.iter().collect());
                word = rest;
            }
        }
        lines.push(line);
    }
    lines
}

fn rgba(c: [f32; 3], a: f32) -> Rgba {
    [c[0], c[1], c[2], a]
}

fn quad(out: &mut LineMesh, min: DVec2, max: DVec2, colour: Rgba) {
    let (a, b, c, d) = (min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y));
    out.triangle([a, b, c], colour);
    out.triangle([a, c, d], colour);
}

/// The panel's box for a sign at `at` with `lines` of text: centred above `at`, its bottom
/// [`SIGN_PANEL_LIFT`] above it.
pub fn panel_box(at: DVec2, lines: &[String]) -> (DVec2, DVec2) {
    let (gw, gh, gap) = (GLYPH.0 as f64, GLYPH.1 as f64, GLYPH.2 as f64);
    let chars = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
    let w = (chars * (gw + gap) - gap).max(0.0) * SIGN_PIXEL + 2.0 * PADDING;
    let rows = lines.len() as f64 * LINE_ROWS - (LINE_ROWS - gh);
    let h = rows * SIGN_PIXEL + 2.0 * PADDING;
    let min = DVec2::new(at.x - w / 2.0, at.y + SIGN_PANEL_LIFT);
    (min, min + DVec2::new(w, h))
}

/// How much further back each sign shown after another is drawn, m: two signs whose panels
/// overlap (placed close together) are drawn one behind the other instead of fighting for depth.
pub const SIGN_LAYER_STEP: f32 = 0.03;

/// Draws a sign at `at` reading `text`, at `opacity` (0 to 1), into `out` (whose `z` it sets);
/// `layer`: the how-manyth sign of the frame it is, from 0 ([`SIGN_LAYER_STEP`]).
pub fn paint_sign(at: DVec2, text: &str, opacity: f32, layer: usize, out: &mut LineMesh) {
    let lines = wrap(text);
    let (min, max) = panel_box(at, &lines);
    let z = SIGN_Z - SIGN_LAYER_STEP * (layer % 16) as f32;
    out.z = z - 0.01;
    out.line(
        at,
        DVec2::new(at.x, min.y),
        3.0 * SIGN_PIXEL,
        rgba(POST, opacity),
    );
    out.z = z;
    quad(out, min, max, rgba(PANEL, 0.88 * opacity));
    out.z = z + 0.005;
    let rim = rgba(RIM, opacity);
    let corners = [min, DVec2::new(max.x, min.y), max, DVec2::new(min.x, max.y)];
    for k in 0..4 {
        out.line(corners[k], corners[(k + 1) % 4], SIGN_PIXEL, rim);
    }
    out.z = z + 0.01;
    let ink = rgba(INK, opacity);
    let (gw, gh, gap) = (GLYPH.0 as usize, GLYPH.1 as usize, GLYPH.2 as f64);
    let top = max.y - PADDING;
    for (n, line) in lines.iter().enumerate() {
        let count = line.chars().count() as f64;
        let width = (count * (gw as f64 + gap) - gap) * SIGN_PIXEL;
        let left = (min.x + max.x - width) / 2.0;
        let line_top = top - n as f64 * LINE_ROWS * SIGN_PIXEL;
        for (k, c) in line.chars().enumerate() {
            let pixels = glyph(c);
            let x0 = left + k as f64 * (gw as f64 + gap) * SIGN_PIXEL;
            for row in 0..gh {
                let y1 = line_top - row as f64 * SIGN_PIXEL;
                // One quad per run of lit pixels in the row.
                let mut col = 0;
                while col < gw {
                    if !pixels[row * gw + col] {
                        col += 1;
                        continue;
                    }
                    let start = col;
                    while col < gw && pixels[row * gw + col] {
                        col += 1;
                    }
                    let a = DVec2::new(x0 + start as f64 * SIGN_PIXEL, y1 - SIGN_PIXEL);
                    let b = DVec2::new(x0 + col as f64 * SIGN_PIXEL, y1);
                    quad(out, a, b, ink);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_wrap_at_spaces_and_keep_their_line_breaks() {
        assert_eq!(wrap("Space or K jumps"), ["Space or K jumps"]);
        let lines = wrap("Hold C or Left Ctrl to crouch under the low rock ahead\nthen go");
        assert!(lines.iter().all(|l| l.chars().count() <= SIGN_LINE_CHARS));
        assert_eq!(lines.last().unwrap(), "then go");
        assert_eq!(
            lines[..lines.len() - 1].join(" "),
            "Hold C or Left Ctrl to crouch under the low rock ahead"
        );
        let long = "x".repeat(SIGN_LINE_CHARS + 5);
        assert_eq!(wrap(&long).len(), 2);
    }

    #[test]
    fn a_sign_is_a_panel_above_its_point_with_its_text_inside() {
        let mut m = LineMesh::default();
        let at = DVec2::new(3.0, 1.0);
        paint_sign(at, "I", 1.0, 0, &mut m);
        let (min, max) = panel_box(at, &wrap("I"));
        assert!((min.y - at.y - SIGN_PANEL_LIFT).abs() < 1e-9);
        assert!(((min.x + max.x) / 2.0 - at.x).abs() < 1e-9);
        // Text quads (the nearest plane) lie inside the panel.
        let ink: Vec<_> = m
            .vertices
            .iter()
            .filter(|v| v.position[2] > SIGN_Z + 0.007)
            .collect();
        assert!(!ink.is_empty());
        for v in ink {
            let (x, y) = (v.position[0] as f64, v.position[1] as f64);
            assert!(x > min.x && x < max.x && y > min.y && y < max.y, "{x}, {y}");
        }
        let mut faded = LineMesh::default();
        paint_sign(at, "I", 0.5, 0, &mut faded);
        assert_eq!(faded.vertices.len(), m.vertices.len());
        assert!(faded.vertices.iter().all(|v| v.color[3] <= 0.5));
        // A second sign of the frame lies wholly behind the first.
        let mut behind = LineMesh::default();
        paint_sign(at, "I", 1.0, 1, &mut behind);
        let front = m
            .vertices
            .iter()
            .map(|v| v.position[2])
            .fold(f32::MAX, f32::min);
        assert!(behind.vertices.iter().all(|v| v.position[2] < front));
    }
}
