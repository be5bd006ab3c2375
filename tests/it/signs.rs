//! Signs (`level::sign`, `view::signs`, `render::sign_mesh`): the level file holds them, the
//! simulation never reads them, the game shows each in the player's keys or gamepad buttons as
//! bound now, and the campaign puts one at the first use of every move it asks of the player.
//! The golden images of a sign near and far are in `render_golden`, the rebinding through the
//! real window in `window_signs`.
use std::path::Path;
use std::time::Duration;

use glam::DVec2;
use tessera::app::Game;
use tessera::input::{Action, BindingEdit, Key, PadButton};
use tessera::level::campaign::Campaign;
use tessera::level::{level_to_ron, load_level, parse_level, Level, LevelSign, PolygonKind};
use tessera::movement::{Actions, Tuning};
use tessera::sim::World;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn signs_survive_a_save_and_a_load() {
    let path = root().join("levels/test/signs.ron");
    let level = load_level(&path).unwrap();
    assert_eq!(level.signs.len(), 2);
    assert_eq!(
        level.signs[0],
        LevelSign {
            at: DVec2::new(2.0, 0.0),
            text: "{jump} jumps".into()
        }
    );
    let text = level_to_ron(&path, &level).unwrap();
    assert!(text.contains("signs:"), "{text}");
    assert_eq!(parse_level(&path, &text).unwrap(), level);
    // A level without signs writes no `signs` field.
    let bare = Level {
        signs: Vec::new(),
        ..level
    };
    assert!(!level_to_ron(&path, &bare).unwrap().contains("signs:"));
}

/// Campaign level 1 with its signs and without them: the same state hash after every 60 ticks
/// of running right and jumping (signs are drawing only).
#[test]
fn the_simulation_never_reads_signs() {
    let level = load_level(root().join("levels/campaign/01_first_steps.ron")).unwrap();
    assert!(!level.signs.is_empty());
    let bare = Level {
        signs: Vec::new(),
        ..level.clone()
    };
    let tuning = Tuning::default();
    let mut a = World::new(&level, &tuning).unwrap();
    let mut b = World::new(&bare, &tuning).unwrap();
    for t in 0..1200 {
        let jump = t % 90 < 30;
        let act = Actions {
            move_axis: DVec2::new(1.0, 0.0),
            jump,
            jump_pressed: t % 90 == 0,
            ..Actions::default()
        };
        a.step(&act);
        b.step(&act);
        if t % 60 == 0 {
            assert_eq!(a.state_hash(), b.state_hash(), "tick {t}");
        }
    }
    assert!(a.hero().body.pos.x > 5.0, "the run went somewhere");
}

/// The signs' texts follow the bindings and the device used last, frame by frame: the default
/// keys, a gamepad's buttons once one is pressed, the keyboard again after a key, and a key
/// added to Jump or Jump's keys replaced.
#[test]
fn a_sign_reads_the_players_keys_and_follows_rebinding_and_the_device() {
    let level = load_level(root().join("levels/test/signs.ron")).unwrap();
    let world = World::new(&level, &Tuning::default()).unwrap();
    let mut game = crate::common::game(world, 16.0 / 9.0);
    let frame = |g: &mut Game| {
        g.frame(Duration::from_millis(16), 16.0 / 9.0);
        g.view().signs().texts()[0].clone()
    };
    assert_eq!(frame(&mut game), "Space or K jumps");
    // Shown from the first ticks: the hero's feet start 2 m from it.
    assert!(game.view().signs().opacity(0) > 0.0);
    assert_eq!(
        game.view().signs().opacity(1),
        0.0,
        "the far sign is hidden"
    );
    game.input_mut().button(0, PadButton::South, true);
    game.input_mut().button(0, PadButton::South, false);
    assert_eq!(frame(&mut game), "A button jumps");
    game.input_mut().key(Key::ArrowLeft, true);
    game.input_mut().key(Key::ArrowLeft, false);
    assert_eq!(frame(&mut game), "Space or K jumps");
    let mut b = game.input().bindings().clone();
    b.edit(BindingEdit::AddKey(Action::Jump, Key::KeyH));
    game.input_mut().set_bindings(b.clone());
    assert_eq!(frame(&mut game), "Space or K or H jumps");
    b.keyboard.insert(Action::Jump, vec![Key::Enter]);
    game.input_mut().set_bindings(b);
    assert_eq!(frame(&mut game), "Enter jumps");
}

/// What the campaign asks of the player, and where it first does: each move's sign is in the
/// first level that needs it, before (or at) its first use there.
#[test]
fn the_campaign_puts_a_sign_at_the_first_use_of_every_move() {
    let campaign = Campaign::load(&root().join("levels/campaign.ron")).unwrap();
    let levels: Vec<&Level> = campaign.levels.iter().map(|l| &l.level).collect();
    // The first level (index) with a thing, and where it is.
    let first = |at: &dyn Fn(&Level) -> Option<DVec2>| {
        levels
            .iter()
            .enumerate()
            .find_map(|(i, l)| at(l).map(|p| (i, p)))
    };
    // The sign of level `i` whose text holds every one of `words` (case-insensitive).
    let sign = |i: usize, words: &[&str]| -> Option<DVec2> {
        levels[i]
            .signs
            .iter()
            .find(|s| {
                let t = s.text.to_lowercase();
                words.iter().all(|w| t.contains(w))
            })
            .map(|s| s.at)
    };
    // The sign stands at most 12 m before the thing's stretch of x, or on it.
    let check = |what: &str, place: Option<(usize, DVec2)>, words: &[&str], width: f64| {
        let (i, p) = place.unwrap_or_else(|| panic!("the campaign has no {what}"));
        let s = sign(i, words)
            .unwrap_or_else(|| panic!("level {} has no sign with {words:?} for its {what}", i + 1));
        assert!(
            s.x <= p.x + width.max(1.0) && p.x - s.x <= 12.0,
            "{what}: the sign at {s} is not just before the first one, at {p}"
        );
    };
    let min = |pts: &[DVec2]| {
        pts.iter()
            .copied()
            .reduce(|a, b| if b.x < a.x { b } else { a })
    };
    check(
        "ladder",
        first(&|l| l.ladders.first().map(|d| d.min)),
        &["ladder", "{up}"],
        1.0,
    );
    check(
        "switch",
        first(&|l| l.doors.iter().find_map(|d| d.switch.map(|s| s.min))),
        &["switch"],
        1.0,
    );
    check(
        "one-way floor (drop through)",
        first(&|l| {
            l.polygons
                .iter()
                .find(|p| p.kind == PolygonKind::OneWay)
                .and_then(|p| min(&p.points))
        }),
        &["{down}", "{jump}"],
        6.0,
    );
    let enemy = |l: &Level| l.agents.iter().find(|a| a.kind.is_enemy()).map(|a| a.spawn);
    check("enemy (attack)", first(&enemy), &["{attack}"], 1.0);
    let (i, _) = first(&enemy).unwrap();
    assert!(
        sign(i, &["stomp"]).is_some(),
        "level {} teaches the stomp",
        i + 1
    );
    // Crouching, wall jumps and jumping itself are taught in level 1, where the tunnel and the
    // chimney are (`01_first_steps.ron`'s comment).
    for words in [&["{crouch}"][..], &["wall jump", "{jump}"], &["{jump}"]] {
        assert!(
            sign(0, words).is_some(),
            "level 1 has a sign with {words:?}"
        );
    }
}
