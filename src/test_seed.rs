//! The seed policy of the property tests (proptest), shared by the unit tests here and the
//! integration tests (`tests/common` includes this file).
//!
//! Every property test draws its cases from a fixed seed by default, so a run is reproducible and
//! CI checks the same cases every time. `TESSERA_SEED` changes that for a run:
//!
//! - `TESSERA_SEED=random`: a new seed per property test, from the clock and the process;
//! - `TESSERA_SEED=N` (decimal or `0x` hex): that seed for every property test.
//!
//! The seed a test used is printed when it starts (`property test seed: TESSERA_SEED=...`), and
//! the test harness shows that output for a failing test: running again with the printed value
//! and the test's name replays the same cases, e.g.
//! `TESSERA_SEED=0x1234 cargo test --test it steps::random_sloppy`. `PROPTEST_CASES` still
//! sets the number of cases (soak runs). `.ci/run` runs the fixed seeds, then the property tests
//! once more with one random seed that it prints.
//!
//! Failures are not persisted to `proptest-regressions/` files: the seed is the record.
use proptest::test_runner::{Config, RngSeed};

/// The environment variable that sets the seed.
pub const SEED_VAR: &str = "TESSERA_SEED";

/// The seed from a `TESSERA_SEED` value (`None`: unset): `fixed` when unset, a fresh one for
/// `random`, else the number. A value that is neither is an error, not a silent fixed seed.
pub fn seed_from(value: Option<&str>, fixed: u64) -> Result<u64, String> {
    let Some(v) = value.map(str::trim) else {
        return Ok(fixed);
    };
    if v.eq_ignore_ascii_case("random") {
        return Ok(fresh_seed());
    }
    let parsed = match v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(&hex.replace('_', ""), 16),
        None => v.replace('_', "").parse(),
    };
    parsed.map_err(|_| format!("{SEED_VAR}={v:?}: not `random` or a number"))
}

/// A seed that differs from run to run and test to test: the clock and the process id, hashed
/// with a per-process random key.
fn fresh_seed() -> u64 {
    use std::hash::{BuildHasher, Hash, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    std::time::SystemTime::now().hash(&mut h);
    std::process::id().hash(&mut h);
    std::thread::current().id().hash(&mut h);
    h.finish()
}

/// `cases` cases (unless `PROPTEST_CASES` says otherwise) from the seed `TESSERA_SEED` selects,
/// `fixed` by default; prints the seed.
pub fn proptest_config(cases: u32, fixed: u64) -> Config {
    let value = std::env::var(SEED_VAR).ok();
    let seed = seed_from(value.as_deref(), fixed).unwrap_or_else(|e| panic!("{e}"));
    eprintln!("property test seed: {SEED_VAR}={seed:#x} (run again with it to replay these cases)");
    let base = Config::default();
    Config {
        cases: if std::env::var_os("PROPTEST_CASES").is_some() {
            base.cases
        } else {
            cases
        },
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        ..base
    }
}

/// Uniform numbers in `[0, 1)` from `seed` (xorshift64): the shapes a property test draws from
/// the one seed proptest gives it, the same for the same seed.
pub fn unit_stream(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_is_fixed_unless_set() {
        assert_eq!(seed_from(None, 7), Ok(7));
        assert_eq!(seed_from(Some("42"), 7), Ok(42));
        assert_eq!(seed_from(Some("0x2a"), 7), Ok(42));
        assert_eq!(seed_from(Some("0xdead_beef"), 7), Ok(0xdead_beef));
        assert!(seed_from(Some("soon"), 7).is_err());
        // Two random seeds differ (a 64-bit collision would be a 1 in 2^64 event).
        let (a, b) = (seed_from(Some("random"), 7), seed_from(Some("random"), 7));
        assert_ne!(a, b);
    }

    /// The same seed gives the same cases: what makes a printed seed worth printing.
    #[test]
    fn a_seed_replays_the_same_cases() {
        use proptest::strategy::{Strategy, ValueTree};
        use proptest::test_runner::TestRunner;
        let draw = |seed: u64| {
            let config = Config {
                rng_seed: RngSeed::Fixed(seed),
                ..Config::default()
            };
            let mut runner = TestRunner::new(config);
            (0..20)
                .map(|_| (0u64..u64::MAX).new_tree(&mut runner).unwrap().current())
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(0x5eed), draw(0x5eed));
        assert_ne!(draw(0x5eed), draw(0x5eee));
    }
}
