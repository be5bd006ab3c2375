//! A tiny built-in bitmap font (3 × 5 pixels a glyph, upper case, digits and the punctuation of
//! clip names and signs) for the labels of the contact sheet (`tessera model --sheet`), written
//! straight into an offscreen [`Image`], and for the level's signs ([`glyph`], drawn as quads by
//! `render::sign_mesh`): the renderer draws no text otherwise, and these need a few words, not a
//! text renderer.
//!
//! It depends on [`Image`] alone.
use super::headless::Image;

/// Each glyph as 5 rows of 3 pixels, top to bottom (`#` drawn). Lower case is drawn as upper
/// case; a character not here as `?`.
const GLYPHS: &[(char, [&str; 5])] = &[
    ('A', [".#.", "#.#", "###", "#.#", "#.#"]),
    ('B', ["##.", "#.#", "##.", "#.#", "##."]),
    ('C', [".##", "#..", "#..", "#..", ".##"]),
    ('D', ["##.", "#.#", "#.#", "#.#", "##."]),
    ('E', ["###", "#..", "##.", "#..", "###"]),
    ('F', ["###", "#..", "##.", "#..", "#.."]),
    ('G', [".##", "#..", "#.#", "#.#", ".##"]),
    ('H', ["#.#", "#.#", "###", "#.#", "#.#"]),
    ('I', ["###", ".#.", ".#.", ".#.", "###"]),
    ('J', ["..#", "..#", "..#", "#.#", ".#."]),
    ('K', ["#.#", "##.", "#..", "##.", "#.#"]),
    ('L', ["#..", "#..", "#..", "#..", "###"]),
    ('M', ["#.#", "###", "###", "#.#", "#.#"]),
    ('N', ["##.", "#.#", "#.#", "#.#", "#.#"]),
    ('O', [".#.", "#.#", "#.#", "#.#", ".#."]),
    ('P', ["##.", "#.#", "##.", "#..", "#.."]),
    ('Q', [".#.", "#.#", "#.#", "##.", ".##"]),
    ('R', ["##.", "#.#", "##.", "#.#", "#.#"]),
    ('S', [".##", "#..", ".#.", "..#", "##."]),
    ('T', ["###", ".#.", ".#.", ".#.", ".#."]),
    ('U', ["#.#", "#.#", "#.#", "#.#", "###"]),
    ('V', ["#.#", "#.#", "#.#", "#.#", ".#."]),
    ('W', ["#.#", "#.#", "###", "###", "#.#"]),
    ('X', ["#.#", "#.#", ".#.", "#.#", "#.#"]),
    ('Y', ["#.#", "#.#", ".#.", ".#.", ".#."]),
    ('Z', ["###", "..#", ".#.", "#..", "###"]),
    ('0', ["###", "#.#", "#.#", "#.#", "###"]),
    ('1', [".#.", "##.", ".#.", ".#.", "###"]),
    ('2', ["##.", "..#", ".#.", "#..", "###"]),
    ('3', ["##.", "..#", ".#.", "..#", "##."]),
    ('4', ["#.#", "#.#", "###", "..#", "..#"]),
    ('5', ["###", "#..", "##.", "..#", "##."]),
    ('6', [".##", "#..", "###", "#.#", "###"]),
    ('7', ["###", "..#", ".#.", ".#.", ".#."]),
    ('8', ["###", "#.#", "###", "#.#", "###"]),
    ('9', ["###", "#.#", "###", "..#", "##."]),
    (' ', ["...", "...", "...", "...", "..."]),
    ('_', ["...", "...", "...", "...", "###"]),
    (':', ["...", ".#.", "...", ".#.", "..."]),
    ('(', [".#.", "#..", "#..", "#..", ".#."]),
    (')', [".#.", "..#", "..#", "..#", ".#."]),
    ('`', ["#..", ".#.", "...", "...", "..."]),
    ('\'', [".#.", ".#.", "...", "...", "..."]),
    ('.', ["...", "...", "...", "...", ".#."]),
    (',', ["...", "...", "...", ".#.", "#.."]),
    ('-', ["...", "...", "###", "...", "..."]),
    ('|', [".#.", ".#.", ".#.", ".#.", ".#."]),
    ('>', ["#..", ".#.", "..#", ".#.", "#.."]),
    ('/', ["..#", "..#", ".#.", "#..", "#.."]),
    ('?', ["##.", "..#", ".#.", "...", ".#."]),
    ('{', [".##", ".#.", "##.", ".#.", ".##"]),
    ('}', ["##.", ".#.", ".##", ".#.", "##."]),
    ('!', [".#.", ".#.", ".#.", "...", ".#."]),
    ('+', ["...", ".#.", "###", ".#.", "..."]),
    ('<', ["..#", ".#.", "#..", ".#.", "..#"]),
    ('=', ["...", "###", "...", "###", "..."]),
    ('[', ["##.", "#..", "#..", "#..", "##."]),
    (']', [".##", "..#", "..#", "..#", ".##"]),
    ('"', ["#.#", "#.#", "...", "...", "..."]),
    (';', ["...", ".#.", "...", ".#.", "#.."]),
    ('\\', ["#..", "#..", ".#.", "..#", "..#"]),
];

/// Pixels a glyph is wide and tall at scale 1, and the gap after it.
pub const GLYPH: (u32, u32, u32) = (3, 5, 1);

/// The 15 pixels of `c` (row-major, top first).
pub fn glyph(c: char) -> [bool; 15] {
    let c = c.to_ascii_uppercase();
    let rows = GLYPHS
        .iter()
        .find(|(g, _)| *g == c)
        .or_else(|| GLYPHS.iter().find(|(g, _)| *g == '?'))
        .map_or([""; 5], |(_, r)| *r);
    let mut out = [false; 15];
    for (o, ch) in out.iter_mut().zip(rows.iter().flat_map(|r| r.chars())) {
        *o = ch == '#';
    }
    out
}

/// Width in pixels of `text` drawn at `scale`.
pub fn text_width(text: &str, scale: u32) -> u32 {
    text.chars().count() as u32 * (GLYPH.0 + GLYPH.2) * scale
}

/// Draws `text` into `image` with its top left corner at `(x, y)`, each font pixel a
/// `scale × scale` square of `rgba`; pixels outside the image are skipped.
pub fn draw_text(image: &mut Image, x: u32, y: u32, scale: u32, text: &str, rgba: [u8; 4]) {
    let step = (GLYPH.0 + GLYPH.2) * scale;
    for (k, c) in text.chars().enumerate() {
        let gx = x + k as u32 * step;
        for (i, on) in glyph(c).iter().enumerate() {
            if !on {
                continue;
            }
            let (col, row) = (i as u32 % GLYPH.0, i as u32 / GLYPH.0);
            fill(image, gx + col * scale, y + row * scale, scale, scale, rgba);
        }
    }
}

/// Fills the `w × h` rectangle at `(x, y)` of `image` with `rgba` (clipped to the image).
pub fn fill(image: &mut Image, x: u32, y: u32, w: u32, h: u32, rgba: [u8; 4]) {
    for py in y..(y + h).min(image.height) {
        for px in x..(x + w).min(image.width) {
            let at = ((py * image.width + px) * 4) as usize;
            image.rgba[at..at + 4].copy_from_slice(&rgba);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_is_three_by_five_and_text_is_drawn_where_asked() {
        for (c, rows) in GLYPHS {
            assert!(rows.iter().all(|r| r.len() == 3), "{c:?}");
        }
        let mut image = Image {
            width: 20,
            height: 10,
            rgba: vec![0; 20 * 10 * 4],
        };
        draw_text(&mut image, 1, 2, 1, "I", [255; 4]);
        let on = |x: u32, y: u32| image.rgba[((y * 20 + x) * 4) as usize] == 255;
        // `I`: a full top and bottom row, the middle column between.
        assert!(on(1, 2) && on(2, 2) && on(3, 2) && on(2, 4) && on(1, 6) && on(3, 6));
        assert!(!on(1, 4) && !on(3, 4) && !on(0, 2) && !on(4, 2));
        assert_eq!(text_width("run", 2), 24);
    }
}
