//! Surface colours: material names to albedo (from the material table,
//! `crate::level::Materials`), and colour-space helpers.
//!
//! Colours are written here in sRGB (as an artist picks them) and converted to linear once; the
//! shaders light in linear space and the sRGB render target encodes on write.
use crate::level::PolygonKind;
use crate::level::{LevelPolygon, Material, Materials};

/// How a level polygon looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SurfaceStyle {
    /// Front face and walls, linear RGB.
    pub side: [f32; 3],
    /// Upward-facing walls (the walkable tops), linear RGB.
    pub top: [f32; 3],
    /// Plank stripes (one-way platforms).
    pub stripes: bool,
}

/// An sRGB-encoded byte colour to linear RGB.
pub fn srgb(hex: u32) -> [f32; 3] {
    let c = |shift: u32| srgb_to_linear(((hex >> shift) & 0xff) as f32 / 255.0);
    [c(16), c(8), c(0)]
}

/// The sRGB transfer function, inverted (IEC 61966-2-1).
pub fn srgb_to_linear(v: f32) -> f32 {
    if v <= 0.04045 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}

/// The style of a material by name, from the built-in material table
/// ([`Materials::builtin`], equal to `assets/materials.ron`): `None` or unknown names take the
/// kind's default (neutral stone for solids, wood for one-way platforms).
pub fn material_style(material: Option<&str>, kind: PolygonKind) -> SurfaceStyle {
    style_of(Materials::builtin().get(material, kind), kind)
}

/// The style of a material-table entry on a polygon of this kind.
pub fn style_of(m: &Material, kind: PolygonKind) -> SurfaceStyle {
    SurfaceStyle {
        side: srgb(m.side),
        top: srgb(m.top),
        stripes: m.stripes || kind == PolygonKind::OneWay,
    }
}

/// The style of a level polygon: its explicit colour (linear RGB) if set, its material otherwise.
/// One-way platforms are lightened and striped.
pub fn polygon_style(p: &LevelPolygon) -> SurfaceStyle {
    let mut s = material_style(p.material.as_deref(), p.kind);
    if let Some(c) = p.colour {
        let c = c.map(|v| {
            if v.is_finite() {
                v.clamp(0.0, 1.0)
            } else {
                0.5
            }
        });
        s.side = c;
        s.top = c.map(|v| (v * 1.35 + 0.03).min(1.0));
    }
    if p.kind == PolygonKind::OneWay {
        s.side = lighten(s.side, 0.25);
        s.top = lighten(s.top, 0.25);
    }
    if p.kind == PolygonKind::Hazard {
        // Readable at a glance whatever its material: warning red, with spikes.
        s = HAZARD_STYLE;
    }
    s
}

/// How every hazard polygon's base is drawn (`PolygonKind::Hazard`): dark red, plain, under the
/// steel spikes on its exposed edges (`render::spike_mesh`).
pub const HAZARD_STYLE: SurfaceStyle = SurfaceStyle {
    side: [0.30, 0.02, 0.02],
    top: [0.55, 0.05, 0.03],
    stripes: false,
};

/// Moves a linear colour `t` of the way towards white.
pub fn lighten(c: [f32; 3], t: f32) -> [f32; 3] {
    c.map(|v| v + (1.0 - v) * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn srgb_endpoints_and_midpoint() {
        assert_eq!(srgb(0x000000), [0.0; 3]);
        assert_eq!(srgb(0xffffff), [1.0; 3]);
        let mid = srgb(0x808080)[0];
        assert!((mid - 0.2158).abs() < 1e-3, "{mid}");
    }

    #[test]
    fn one_way_platforms_are_lighter_and_striped() {
        let solid = polygon_style(&LevelPolygon::solid(vec![]));
        let mut p = LevelPolygon::solid(vec![]);
        p.kind = PolygonKind::OneWay;
        p.material = Some("stone".into());
        let one_way = polygon_style(&p);
        let stone = material_style(Some("stone"), PolygonKind::Solid);
        assert!(one_way.stripes && !solid.stripes);
        assert!(one_way.side.iter().zip(stone.side).all(|(a, b)| *a > b));
    }

    #[test]
    fn hazards_are_drawn_red_whatever_their_material_or_colour() {
        let mut p = LevelPolygon::solid(vec![]);
        p.kind = PolygonKind::Hazard;
        p.material = Some("grass".into());
        p.colour = Some([0.2, 0.4, 0.6]);
        assert_eq!(polygon_style(&p), HAZARD_STYLE);
    }

    #[test]
    fn an_explicit_colour_wins_over_the_material() {
        let mut p = LevelPolygon::solid(vec![]);
        p.material = Some("grass".into());
        p.colour = Some([0.2, 0.4, 0.6]);
        assert_eq!(polygon_style(&p).side, [0.2, 0.4, 0.6]);
    }
}
