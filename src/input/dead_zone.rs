//! The radial dead zone for analog sticks.
use glam::DVec2;

/// Maps a raw stick vector to a movement vector: zero inside `inner` (radius, `[0, 1)`), then the
/// magnitude rescaled linearly from `inner..outer` to `0..1` with the direction kept, and clamped
/// to length 1 beyond `outer`.
///
/// Radial rather than per-axis: a per-axis dead zone snaps diagonals to the axes and makes small
/// diagonal deflections jump; the radial one keeps the direction of any deflection.
pub fn radial_dead_zone(raw: DVec2, inner: f64, outer: f64) -> DVec2 {
    let m = raw.length();
    if !m.is_finite() || m <= inner || outer <= inner {
        return DVec2::ZERO;
    }
    let scaled = ((m - inner) / (outer - inner)).min(1.0);
    raw / m * scaled
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inside_the_inner_radius_is_zero() {
        assert_eq!(
            radial_dead_zone(DVec2::new(0.1, 0.1), 0.2, 0.9),
            DVec2::ZERO
        );
        assert_eq!(
            radial_dead_zone(DVec2::new(f64::NAN, 0.0), 0.2, 0.9),
            DVec2::ZERO
        );
    }

    #[test]
    fn direction_is_kept_and_magnitude_rescaled() {
        let v = radial_dead_zone(DVec2::new(0.3, 0.4), 0.2, 0.8);
        assert!((v.length() - 0.5).abs() < 1e-12, "{v}");
        assert!((v.normalize() - DVec2::new(0.6, 0.8)).length() < 1e-12);
    }

    #[test]
    fn beyond_the_outer_radius_is_unit_length() {
        let v = radial_dead_zone(DVec2::new(1.0, 1.0), 0.2, 0.9);
        assert!((v.length() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_small_diagonal_is_not_snapped_to_an_axis() {
        // Per-axis dead zones would zero x here (0.15 < 0.2) and keep only y: the output would
        // point straight up. The radial one keeps the deflection's direction exactly (x is half
        // of y, as in the input), with the length rescaled from 0.2..0.9. (This used to check
        // only that both components are positive, which a per-axis zone that merely shrinks x
        // passes.)
        let raw = DVec2::new(0.15, 0.3);
        let v = radial_dead_zone(raw, 0.2, 0.9);
        assert!((v.x / v.y - 0.5).abs() < 1e-12, "direction changed: {v}");
        let expected = (raw.length() - 0.2) / 0.7;
        assert!((v.length() - expected).abs() < 1e-12, "{v}");
    }
}
