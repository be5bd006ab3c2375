//! The editor's object tools through egui, headless (`egui_kittest`): the toolbar's Agent, Mover,
//! Door and Switch tools, the Select tool on path nodes and switches, the object panels and
//! undo, driven by pointer events at the screen points of level positions. After each step the
//! game's world is checked: it plays the level as built.
use egui::{Event, Modifiers, PointerButton, Pos2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use glam::DVec2;
use tessera::app::router::Mods;
use tessera::editor::kinds::agent::Agent;
use tessera::editor::kinds::mover::NEW_MOVER_TRAVEL;
use tessera::editor::ObjectRef;
use tessera::level::{load_level, AgentKind, AgentSize};

use super::editor_ui::{
    click, file_menu, harness_sized, mapping, open_editor, press, scratch, State, SIZE,
};

/// The screen point of a level position (the editor's camera does not move in these tests).
pub(crate) fn at(h: &Harness<'_, State>, w: DVec2) -> Pos2 {
    mapping(h).to_screen(w).expect("in front of the camera")
}

/// A primary-button drag from `a` to `b` in level coordinates, in a few frames.
pub(crate) fn drag(h: &mut Harness<'_, State>, a: DVec2, b: DVec2) {
    let (from, to) = (at(h, a), at(h, b));
    h.event(Event::PointerMoved(from));
    h.step();
    h.event(Event::PointerButton {
        pos: from,
        button: PointerButton::Primary,
        pressed: true,
        modifiers: Modifiers::NONE,
    });
    h.step();
    for k in 1..=4 {
        h.event(Event::PointerMoved(from + (to - from) * (k as f32 / 4.0)));
        h.step();
    }
    h.event(Event::PointerButton {
        pos: to,
        button: PointerButton::Primary,
        pressed: false,
        modifiers: Modifiers::NONE,
    });
    h.step();
}

/// Picks a tool: the toolbar's button, or for an object tool the Objects menu's item.
pub(crate) fn tool(h: &mut Harness<'_, State>, label: &str) {
    if [
        "Agent",
        "Checkpoint",
        "Goal",
        "Mover",
        "Door",
        "Switch",
        "Signal",
    ]
    .contains(&label)
    {
        h.get_by_label_contains("Objects").click();
        h.run();
    }
    h.get_by_label(label).click();
    h.run();
}

/// An agent, a mover with a dragged path node, a door and its switch, placed with the mouse on
/// the 12 m floor of the editor test level; undo and redo of the node's drag; the door's panel;
/// then the world, run, moves the mover and the agent, and the switch opens the door. The file
/// saved loads back equal.
#[test]
fn each_object_tool_builds_a_level_that_plays_as_built() {
    let dir = scratch("objects");
    let mut h = harness_sized(&dir, SIZE, false);
    open_editor(&mut h);
    h.run();
    let p = DVec2::new;

    // Agent: the default template is a crawler; its feet go to the snapped click.
    tool(&mut h, "Agent");
    let c = at(&h, p(5.0, 0.05));
    click(&mut h, c);
    h.run();
    {
        let s = &h.state().gui.editor.session;
        let a = s.level().agents.clone();
        assert_eq!(a.len(), 1, "{:?}", s.message());
        assert_eq!(
            (a[0].kind, a[0].size, a[0].spawn),
            (AgentKind::Crawler, AgentSize::Small, p(5.0, 0.0))
        );
        assert_eq!(
            h.state().game.world().agents().len(),
            1,
            "the world has it at once"
        );
    }
    // Into the floor: refused, with the reason at the cursor.
    let c = at(&h, p(4.0, -0.5));
    click(&mut h, c);
    h.run();
    let s = &h.state().gui.editor.session;
    assert_eq!(s.level().agents.len(), 1);
    let m = s.message().expect("a refusal");
    assert!(
        m.error && m.text.contains("overlaps polygon 0"),
        "{}",
        m.text
    );

    // Mover: a 2 × 0.5 m platform in the air, with the default two-node path.
    tool(&mut h, "Mover");
    drag(&mut h, p(0.0, 2.5), p(2.0, 3.0));
    h.run();
    let m = h.state().gui.editor.session.level().movers.clone();
    assert_eq!(
        m.len(),
        1,
        "{:?} {:?}",
        h.state().gui.editor.session.tool,
        h.state().gui.editor.session.message()
    );
    assert_eq!(m[0].path, vec![DVec2::ZERO, NEW_MOVER_TRAVEL]);
    assert_eq!(h.state().game.world().movers().len(), 1);
    // Select: drag its second node (drawn at the platform's centre plus the offset) 2 m up.
    tool(&mut h, "Select");
    let node = p(1.0, 2.75) + NEW_MOVER_TRAVEL;
    drag(&mut h, node, node + p(0.0, 2.0));
    h.run();
    let moved = NEW_MOVER_TRAVEL + p(0.0, 2.0);
    assert_eq!(
        h.state().gui.editor.session.level().movers[0].path[1],
        moved
    );
    assert_eq!(h.state().gui.editor.session.selection.node, Some(1));
    // The panel lists the path, the selected node first of all.
    h.get_by_label("node 1");
    use tessera::input::Key as K;
    press(&mut h, K::KeyZ, Mods::CTRL);
    h.run();
    assert_eq!(
        h.state().gui.editor.session.level().movers[0].path[1],
        NEW_MOVER_TRAVEL,
        "one undo takes back the whole drag"
    );
    press(
        &mut h,
        K::KeyZ,
        Mods {
            shift: true,
            ..Mods::CTRL
        },
    );
    h.run();
    assert_eq!(
        h.state().gui.editor.session.level().movers[0].path[1],
        moved
    );

    // Door and switch: a closed door, then the switch tool picks it and drags its region.
    tool(&mut h, "Door");
    drag(&mut h, p(-1.0, 0.0), p(-0.5, 2.0));
    h.run();
    assert_eq!(h.state().gui.editor.session.level().doors.len(), 1);
    tool(&mut h, "Switch");
    let c = at(&h, p(-0.75, 1.0));
    click(&mut h, c);
    h.run();
    assert_eq!(
        h.state().gui.editor.session.selection.object,
        Some(ObjectRef::new("door", 0))
    );
    drag(&mut h, p(1.0, 0.0), p(2.0, 1.0));
    h.run();
    let sw = h.state().gui.editor.session.level().doors[0]
        .switch
        .expect("a switch");
    assert_eq!((sw.min, sw.max), (p(1.0, 0.0), p(2.0, 1.0)));
    // The door's panel: starts open, then closed again (two undoable edits).
    h.get_by_label("starts open").click();
    h.run();
    assert!(h.state().gui.editor.session.level().doors[0].open);
    h.get_by_label("starts open").click();
    h.run();
    assert!(!h.state().gui.editor.session.level().doors[0].open);
    let doc = h.state().gui.editor.session.level().clone();
    doc.validate().unwrap();
    assert_eq!(
        *h.state().game.world().level(),
        doc,
        "the world plays the edited level"
    );

    // Play: a second of ticks moves the mover off its rest pose and the crawler off its spawn;
    // the hero put on the switch opens the door.
    for _ in 0..120 {
        h.state_mut().game.step_once();
    }
    let world = h.state().game.world();
    assert_ne!(world.movers().offset(0), DVec2::ZERO);
    assert_ne!(world.agents()[0].mover.body.pos, p(5.0, 0.0));
    assert!(!world.doors()[0].open);
    h.state_mut()
        .game
        .world_mut()
        .place_hero(p(1.5, 0.0))
        .unwrap();
    h.state_mut().game.step_once();
    assert!(
        h.state().game.world().doors()[0].open,
        "the switch opened its door"
    );

    // Reset puts every object back: the agent at its spawn, the door closed, the mover at rest,
    // the hero at the spawn.
    tool(&mut h, "Reset");
    let world = h.state().game.world();
    assert_eq!(world.agents()[0].mover.body.pos, p(5.0, 0.0));
    assert!(!world.doors()[0].open);
    assert_eq!(world.movers().offset(0), DVec2::ZERO);
    assert_eq!(world.hero().body.pos, world.level().spawn);

    // Saved, the file loads back equal, and a level only the editor touched writes the same
    // bytes again.
    file_menu(&mut h, "Save (Ctrl+S)");
    let saved = load_level(dir.join("level.ron")).unwrap();
    assert_eq!(saved, *h.state().gui.editor.session.level());
    let again = dir.join("again.ron");
    tessera::level::save_level(&again, &saved).unwrap();
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(dir.join("level.ron")).unwrap(),
        "byte for byte"
    );
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The agent tool's panel sets the kind (and with it the size class it is meant for) before a
/// click; the selected agent's panel changes its facing; Delete removes it.
#[test]
fn the_agent_panel_chooses_what_is_placed_and_edits_the_selected_agent() {
    let dir = scratch("agent-panel");
    let mut h = harness_sized(&dir, SIZE, false);
    open_editor(&mut h);
    h.run();
    let p = DVec2::new;
    tool(&mut h, "Agent");
    h.get_by_label("kind").click();
    h.run();
    h.get_by_label("brute").click();
    h.run();
    assert_eq!(
        h.state()
            .gui
            .editor
            .session
            .templates
            .get::<Agent>()
            .unwrap()
            .size,
        AgentSize::Large
    );
    let c = at(&h, p(3.0, 0.05));
    click(&mut h, c);
    h.run();
    let a = h.state().gui.editor.session.level().agents[0].clone();
    assert_eq!((a.kind, a.size), (AgentKind::Brute, AgentSize::Large));
    assert_eq!(a.character.as_deref(), Some("assets/characters/brute.ron"));
    assert_eq!(a.facing, -1.0);
    // With Select the template's panel goes, and the selected agent's stays.
    tool(&mut h, "Select");
    h.get_by_label("right").click();
    h.run();
    assert_eq!(h.state().gui.editor.session.level().agents[0].facing, 1.0);
    // The patrol range (a brute walks one): 3 m each side of the feet, its handles drawn at the
    // feet; dragging the left one 1 m to the right narrows it, in one undo step (the right
    // one lies on the floor's corner, whose vertex a press picks first).
    h.get_by_label("patrol range").click();
    h.run();
    let feet = a.spawn;
    assert_eq!(
        h.state().gui.editor.session.level().agents[0].patrol,
        Some([feet.x - 3.0, feet.x + 3.0])
    );
    let end = p(feet.x - 3.0, feet.y);
    drag(&mut h, end, end + p(1.0, 0.0));
    h.run();
    assert_eq!(
        h.state().gui.editor.session.level().agents[0].patrol,
        Some([feet.x - 2.0, feet.x + 3.0])
    );
    h.state_mut().gui.editor.session.undo();
    h.run();
    assert_eq!(
        h.state().gui.editor.session.level().agents[0].patrol,
        Some([feet.x - 3.0, feet.x + 3.0])
    );
    assert!(h.state().gui.editor.session.level().validate().is_ok());
    h.get_by_label("Delete agent").click();
    h.run();
    assert!(h.state().gui.editor.session.level().agents.is_empty());
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The editor open on the test level with one mover dragged out from (0, 2.5) to (2, 3), in a
/// scratch directory named by `tag` (the caller removes it).
fn editor_with_a_mover(tag: &str) -> (std::path::PathBuf, Harness<'static, State>) {
    let dir = scratch(tag);
    let mut h = harness_sized(&dir, SIZE, false);
    open_editor(&mut h);
    h.run();
    tool(&mut h, "Mover");
    drag(&mut h, DVec2::new(0.0, 2.5), DVec2::new(2.0, 3.0));
    h.run();
    (dir, h)
}

/// The movers' scrubber: with it on, *Hero here* starts the play-test with every mover at the
/// scrubbed time, and they run on from there; copy and paste of the mover keeps its path.
#[test]
fn hero_here_play_tests_from_the_scrubbed_time() {
    let (dir, mut h) = editor_with_a_mover("scrub");
    let p = DVec2::new;
    // Copy and paste it 3 m higher (Ctrl+C, Ctrl+V at the cursor).
    let c = at(&h, p(1.0, 5.75));
    h.event(Event::PointerMoved(c));
    h.run();
    use tessera::input::Key as K;
    press(&mut h, K::KeyC, Mods::CTRL);
    h.run();
    press(&mut h, K::KeyV, Mods::CTRL);
    h.run();
    let movers = h.state().gui.editor.session.level().movers.clone();
    assert_eq!(
        movers.len(),
        2,
        "{:?}",
        h.state().gui.editor.session.message()
    );
    assert_eq!(movers[1].path, movers[0].path);
    assert_eq!(movers[1].pieces[0][0], movers[0].pieces[0][0] + p(0.0, 3.0));

    h.get_by_label("Preview movers at a time").click();
    h.run();
    h.state_mut().gui.editor.scrub = Some(1.5);
    tool(&mut h, "Hero here");
    let c = at(&h, p(-3.0, 0.05));
    click(&mut h, c);
    h.run();
    let world = h.state().game.world();
    for (i, m) in movers.iter().enumerate() {
        let want = tessera::sim::movers::offset_at(m, 1.5);
        assert_eq!(world.movers().offset(i as u32), want, "mover {i} at 1.5 s");
    }
    h.state_mut().game.step_once();
    let next = tessera::sim::movers::offset_at(&movers[0], 181.0 / 120.0);
    assert_eq!(
        h.state().game.world().movers().offset(0),
        next,
        "and on from there"
    );
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl+C puts the copy on the system clipboard as level text (egui's copy command, which the
/// window hands to the system clipboard); a paste event holding a level's text (what the window
/// makes of Ctrl+V from the system clipboard) pastes it at the pointer; Ctrl+D duplicates; each
/// is one undo step.
#[test]
fn copies_travel_through_the_system_clipboard_as_level_text() {
    let (dir, mut h) = editor_with_a_mover("clipboard");
    let p = DVec2::new;
    use tessera::input::Key as K;
    press(&mut h, K::KeyC, Mods::CTRL);
    h.step();
    let copied: Vec<String> = h
        .output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(copied.len(), 1, "one copy to the system clipboard");
    let text = &copied[0];
    let fragment = tessera::level::parse_level(std::path::Path::new("clip.ron"), text).unwrap();
    let movers = h.state().gui.editor.session.level().movers.clone();
    assert_eq!(
        fragment.movers, movers,
        "the copy is a level holding the mover"
    );

    // A level file's text from the system clipboard, pasted at the pointer: its polygon and its
    // agent arrive together, as one step.
    let other = r#"(
    name: "elsewhere",
    polygons: [(points: [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])],
    agents: [(kind: crawler, size: small, spawn: (3.0, 1.0))],
    spawn: (0.0, 5.0),
)"#;
    let before = h.state().gui.editor.session.level().clone();
    let c = at(&h, p(-2.0, 6.0));
    h.event(Event::PointerMoved(c));
    h.run();
    h.event(Event::Paste(other.into()));
    press(&mut h, K::KeyV, Mods::CTRL);
    h.step();
    h.run();
    let level = h.state().gui.editor.session.level().clone();
    assert_eq!(
        level.polygons.len(),
        before.polygons.len() + 1,
        "{:?}",
        h.state().gui.editor.session.message()
    );
    assert_eq!(level.agents.len(), before.agents.len() + 1);
    // The pair keeps its spacing (the agent 2.5 m right of the square's left side).
    let square = &level.polygons[before.polygons.len()];
    let agent = level.agents.last().unwrap();
    assert_eq!(agent.spawn - square.points[0], p(3.0, 1.0));
    // The game plays what the editor shows.
    assert_eq!(*h.state().game.world().level(), level);
    press(&mut h, K::KeyZ, Mods::CTRL);
    h.run();
    assert_eq!(*h.state().gui.editor.session.level(), before);

    // Ctrl+D: the selected mover again, one grid cell right and up.
    h.state_mut()
        .gui
        .editor
        .session
        .select_object(ObjectRef::new("mover", 0), None);
    press(&mut h, K::KeyD, Mods::CTRL);
    h.run();
    let movers = h.state().gui.editor.session.level().movers.clone();
    assert_eq!(movers.len(), 2);
    let step = h.state().gui.editor.session.grid.size();
    assert_eq!(
        movers[1].pieces[0][0],
        movers[0].pieces[0][0] + p(step, step)
    );
    press(&mut h, K::KeyZ, Mods::CTRL);
    h.run();
    assert_eq!(*h.state().gui.editor.session.level(), before);
    drop(h);
    let _ = std::fs::remove_dir_all(&dir);
}
