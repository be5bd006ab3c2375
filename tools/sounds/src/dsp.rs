//! The generator's arithmetic on top of the game's (`tessera::audio::dsp`): seeds from names,
//! `ln` and powers, filter coefficients and decibels, all from `+ - * /` and the game's `exp`, so
//! the generated files are bit-identical on every platform.
use tessera::audio::dsp::{exp, TAU};

/// A seed from a name (FNV-1a), so each generated sound has its own fixed stream.
pub fn seed_of(name: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// ln(x) for finite normal x > 0: x = m·2ᵉ with m in [√½, √2], ln m = 2·atanh((m − 1)/(m + 1)) by its
/// series to the 23rd power (relative error below 1e-15).
pub fn ln(x: f64) -> f64 {
    let bits = x.to_bits();
    let mut e = ((bits >> 52) & 0x7ff) as i64 - 1023;
    let mut m = f64::from_bits((bits & 0x000f_ffff_ffff_ffff) | (1023u64 << 52));
    if m > std::f64::consts::SQRT_2 {
        m *= 0.5;
        e += 1;
    }
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    let mut term = z;
    let mut sum = 0.0;
    for k in 0..12 {
        sum += term / (2 * k + 1) as f64;
        term *= z2;
    }
    2.0 * sum + e as f64 * std::f64::consts::LN_2
}

/// `base` to the power `p` (base > 0) as `exp(p·ln base)`.
pub fn pow(base: f64, p: f64) -> f64 {
    exp(p * ln(base))
}

/// The coefficient of a one-pole low-pass filter (`y += a·(x − y)`) with cutoff `hz` at `rate`.
pub fn one_pole(hz: f64, rate: f64) -> f64 {
    1.0 - exp(-TAU * hz / rate)
}

/// Decibels to a linear gain.
pub fn db(v: f64) -> f64 {
    exp(v * std::f64::consts::LN_10 / 20.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_matches_the_platform_function_closely() {
        for i in -2000..2000 {
            let l = (i + 2001) as f64 * 0.37;
            assert!((ln(l) - l.ln()).abs() < 1e-13, "ln {l}");
            let x = i as f64 * 0.0173 / 20.0;
            assert!((pow(2.0, x) / 2f64.powf(x) - 1.0).abs() < 1e-13, "pow {x}");
        }
    }

    #[test]
    fn seeds_differ_by_name_and_repeat() {
        assert_eq!(seed_of("jump"), seed_of("jump"));
        assert_ne!(seed_of("jump"), seed_of("land"));
        assert_eq!(seed_of(""), 0xcbf2_9ce4_8422_2325);
    }
}
