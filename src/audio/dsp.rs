//! Deterministic arithmetic for sound: a seeded RNG and sine/exponential functions built from
//! `+ - * /` only, so offline renders (and the sound generator `tools/sounds`, which builds its
//! own arithmetic on these) are bit-identical on every platform (the platform's `libm` `sin`/`exp`
//! may differ in the last bit between systems, which would change the committed WAV files and the
//! pinned render hash).

/// SplitMix64: a small, fast, well-distributed generator with a 64-bit seed.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// Uniform in [-1, 1).
    pub fn signed(&mut self) -> f64 {
        2.0 * self.unit() - 1.0
    }
}

/// 2π.
pub const TAU: f64 = std::f64::consts::TAU;

/// sin(x) by range reduction and an odd Taylor polynomial to x¹³: absolute error below 1e-9
/// over the reduced range [-π/2, π/2] (far under one 16-bit step, 3e-5).
pub fn sin(x: f64) -> f64 {
    use std::f64::consts::{FRAC_PI_2, PI};
    let mut r = x - TAU * (x / TAU).round();
    if r > FRAC_PI_2 {
        r = PI - r;
    } else if r < -FRAC_PI_2 {
        r = -PI - r;
    }
    let r2 = r * r;
    let mut term = r;
    let mut sum = r;
    for k in 1..7 {
        let n = (2 * k) as f64;
        term = -term * r2 / (n * (n + 1.0));
        sum += term;
    }
    sum
}

/// cos(x) = sin(x + π/2).
pub fn cos(x: f64) -> f64 {
    sin(x + std::f64::consts::FRAC_PI_2)
}

/// eˣ for x in [-700, 700] by x = n·ln 2 + r, |r| ≤ ln 2 / 2, a Taylor polynomial to r¹², and an
/// exact power of two (relative error below 1e-15).
pub fn exp(x: f64) -> f64 {
    let x = x.clamp(-700.0, 700.0);
    let n = (x / std::f64::consts::LN_2).round();
    let r = x - n * std::f64::consts::LN_2;
    let mut term = 1.0;
    let mut sum = 1.0;
    for k in 1..13 {
        term = term * r / k as f64;
        sum += term;
    }
    sum * f64::from_bits(((n as i64 + 1023) as u64) << 52)
}

/// The per-sample factor of an exponential decay with time constant `tau` seconds at `rate` Hz.
pub fn decay_factor(tau: f64, rate: f64) -> f64 {
    exp(-1.0 / (tau * rate))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sin_and_exp_match_the_platform_functions_closely() {
        for i in -2000..2000 {
            let x = i as f64 * 0.0173;
            assert!((sin(x) - x.sin()).abs() < 1e-9, "sin {x}");
            assert!((cos(x) - x.cos()).abs() < 1e-9, "cos {x}");
            let e = x / 20.0;
            assert!((exp(e) / e.exp() - 1.0).abs() < 1e-13, "exp {e}");
        }
    }

    #[test]
    fn the_rng_is_seeded_and_uniform() {
        let mut a = Rng::new(0x5eed);
        let mut b = Rng::new(0x5eed);
        let v: Vec<f64> = (0..10_000).map(|_| a.signed()).collect();
        assert!(v
            .iter()
            .all(|&x| x == b.signed() && (-1.0..1.0).contains(&x)));
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        assert!(mean.abs() < 0.03, "{mean}");
    }
}
