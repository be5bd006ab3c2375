//! The generated models (`tools/models`, the `tessera-models` crate) against the committed files
//! and the game's loader: every committed file is what the generator builds, and each loads as
//! the figure it claims to be. The generator is a tool outside the game; this test is where the
//! workspace's `cargo test` checks its output.
use tessera::anim::Model;
use tessera_models::{figure_glb, generated_files, hero_glb, subdivided_hero_glb, Figure};

fn root() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_committed_model_is_what_the_generator_builds() {
    let files = generated_files();
    assert_eq!(files.len(), 5);
    for (path, built) in &files {
        let committed =
            std::fs::read(root().join(path)).unwrap_or_else(|e| panic!("{path} is committed: {e}"));
        assert!(
            committed == *built,
            "{path} differs from what the generator builds; regenerate with \
             `cargo run -p tessera-models`"
        );
    }
    // Sixteen clips of a few keys each: about 105 kB; a clip keyed far too densely shows here.
    let hero = hero_glb();
    assert!(hero.len() < 120_000, "the model is {} bytes", hero.len());
    assert_eq!(
        tessera::anim::HERO_GLB,
        &hero[..],
        "the embedded hero is the generated one"
    );
}

/// The frame-rate bench's character (`benches/crowd/hero_10k.glb`) is the hero subdivided:
/// 9 936 triangles, the same skeleton and clips, and the same shape (every subdivided vertex
/// lies on one of the hero's faces, inside its bounds).
#[test]
fn the_subdivided_hero_is_the_hero_with_more_triangles() {
    let hero = Model::from_glb(&hero_glb()).unwrap();
    let dense = Model::from_glb(&subdivided_hero_glb(6)).unwrap();
    assert_eq!(dense.mesh.indices.len() / 3, 9_936);
    assert_eq!(hero.mesh.indices.len() / 3 * 36, 9_936);
    assert_eq!(dense.skeleton.len(), hero.skeleton.len());
    assert_eq!(dense.clips.len(), hero.clips.len());
    let bounds = |m: &Model| {
        m.mesh
            .positions
            .iter()
            .fold(([f32::MAX; 3], [f32::MIN; 3]), |(lo, hi), p| {
                (
                    std::array::from_fn(|k| lo[k].min(p[k])),
                    std::array::from_fn(|k| hi[k].max(p[k])),
                )
            })
    };
    let (a, b) = (bounds(&hero), bounds(&dense));
    for k in 0..3 {
        assert!(
            (a.0[k] - b.0[k]).abs() < 1e-6 && (a.1[k] - b.1[k]).abs() < 1e-6,
            "{a:?} {b:?}"
        );
    }
    for w in &dense.mesh.weights {
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-5, "{w:?}");
    }
}

/// The enemies' figures load with the hero's skeleton (same joints, same rest positions) and
/// clips, and look like neither the hero nor the other figures (their colours, their outline).
#[test]
fn the_enemy_figures_share_the_heros_skeleton_and_look_their_own() {
    let hero = Model::from_glb(&hero_glb()).unwrap();
    let extent = |m: &Model| {
        m.mesh
            .positions
            .iter()
            .fold(0.0f32, |a, p| a.max(p[2].abs()))
    };
    let mut looks = Vec::new();
    for (figure, _) in Figure::ENEMIES {
        let m = Model::from_glb(&figure_glb(figure)).unwrap();
        assert_eq!(m.skeleton.len(), hero.skeleton.len(), "{figure:?}");
        assert_eq!(m.clips.len(), hero.clips.len(), "{figure:?}");
        looks.push((m.mesh.colours.first().copied(), extent(&m).to_bits()));
    }
    looks.push((hero.mesh.colours.first().copied(), extent(&hero).to_bits()));
    for i in 0..looks.len() {
        for j in 0..i {
            assert_ne!(looks[i], looks[j], "figures {i} and {j} look alike");
        }
    }
    assert_eq!(figure_glb(Figure::Hero), hero_glb());
}
