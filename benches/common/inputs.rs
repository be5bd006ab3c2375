//! Deterministic inputs shared by the benches (`collision`, `instruction_counts`), included by
//! each with `#[path]`: a tiny generator, so the levels never change with a dependency, and the
//! axis-aligned rectangle the bench levels are made of.
use glam::DVec2;
use tessera::collision::{PolygonId, Solidity, SourcePolygon};

/// SplitMix64: a tiny deterministic generator.
#[derive(Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The solid rectangle from `(x0, y0)` to `(x1, y1)` as source polygon `id`.
pub fn rect(id: usize, x0: f64, y0: f64, x1: f64, y1: f64) -> SourcePolygon {
    SourcePolygon {
        id: PolygonId(id as u32),
        kind: Solidity::Solid,
        points: vec![
            DVec2::new(x0, y0),
            DVec2::new(x1, y0),
            DVec2::new(x1, y1),
            DVec2::new(x0, y1),
        ],
    }
}
