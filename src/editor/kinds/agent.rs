//! Agents in the editor: the collider of its size class at its spawn is its body (picked by its
//! box, as early as the handles: agents are small), the ends of its patrol range are handles
//! (dragged along x only). Besides the level's rules, an agent that is new or changed is checked
//! where it stands ([`agent_placement`]): its collider must not overlap a solid polygon or a
//! closed door with positive area, and its spawn must lie inside the level's bounds. A level file
//! may hold such an agent (the world moves it to free space with a warning), so an undo, which
//! puts back what was there, skips it, and so does an agent that an edit of another one leaves
//! as it was ([`is_new`]).
//!
//! Agents are placed by a click from a template ([`ObjectKind::template`]): the kind, size class
//! and facing the placing tool's panel sets (a new kind brings its size class and character
//! file), its feet at the click; the tool shows the agent's collider there, red where the click
//! would be refused.
use glam::DVec2;

use super::{BodyPick, Colour, DrawState, ObjectKind, PanelAsks, PanelUi, Part, Pen, Place};
use crate::collision::{colliders_meet, convex_pieces, Aabb, Meeting, Num};
use crate::editor::ops::EditError;
use crate::level::fields::ObjectField;
use crate::level::validate::check_agents;
use crate::level::PolygonKind;
use crate::level::{AgentKind, AgentSize, Level, LevelAgent};
use crate::movement::Tuning;

/// Agents that are not enemies.
pub const AGENT: Colour = Colour::Rgba([120, 200, 255, 255]);
/// Enemies.
pub const ENEMY: Colour = Colour::Rgba([255, 110, 60, 255]);

/// The agent kind.
pub struct Agent;

/// A new agent of `kind` at `spawn`, as its placing tool starts one: the size class the kind is
/// meant for ([`meant_size`]), facing left, drawn with the kind's character file
/// ([`default_character`]), no patrol range.
pub fn new_agent(kind: AgentKind, spawn: DVec2) -> LevelAgent {
    LevelAgent {
        kind,
        size: meant_size(kind),
        spawn,
        facing: -1.0,
        character: default_character(kind),
        patrol: None,
    }
}

/// The settings of a new agent that its placing tool's panel edits (its template's).
const TEMPLATE_FIELDS: [&str; 3] = ["kind", "size", "facing"];

/// The character file an agent of `kind` gets when placed: the enemies' files that ship in the
/// data directory (`assets/characters/<kind>.ron`), `None` (drawn as its outline) for the
/// others.
pub fn default_character(kind: AgentKind) -> Option<String> {
    kind.is_enemy()
        .then(|| format!("assets/characters/{}.ron", kind.name()))
}

/// The size class each kind is meant for (the one the agent's placing tool switches to with the
/// kind).
pub fn meant_size(kind: AgentKind) -> AgentSize {
    match kind {
        AgentKind::Crawler | AgentKind::Patrol => AgentSize::Small,
        AgentKind::Hopper => AgentSize::Medium,
        AgentKind::Brute => AgentSize::Large,
        AgentKind::Idle => AgentSize::Hero,
    }
}

/// The collider (counter-clockwise, relative to the feet) of an agent of `size` in `level`: its
/// class's box, or for [`AgentSize::Hero`] the standing collider of the level's tuning.
pub fn collider_points(level: &Level, size: AgentSize) -> Vec<DVec2> {
    let shape = crate::sim::agents::class_collider(size).unwrap_or_else(|| {
        Tuning::default()
            .with_overrides(&level.tuning)
            .stand_collider
    });
    // Every class's and a validated tuning's collider is valid; an empty outline picks nothing.
    shape.points().unwrap_or_default()
}

/// An agent's collider outline where it spawns (level coordinates).
pub fn agent_outline(level: &Level, a: &LevelAgent) -> Vec<DVec2> {
    collider_points(level, a.size)
        .into_iter()
        .map(|q| q + a.spawn)
        .collect()
}

/// `a` moved by `delta`, its patrol range along.
pub fn shifted(a: &LevelAgent, delta: DVec2) -> LevelAgent {
    LevelAgent {
        spawn: a.spawn + delta,
        patrol: a.patrol.map(|r| r.map(|x| x + delta.x)),
        ..a.clone()
    }
}

/// Where an agent's patrol range's ends are drawn (and grabbed): at its feet's height.
pub fn patrol_points(a: &LevelAgent) -> Option<[DVec2; 2]> {
    a.patrol.map(|r| r.map(|x| DVec2::new(x, a.spawn.y)))
}

/// Whether `item`, at index `i` of a new list, is new or changed against `old`: not at `i` there,
/// nor at a neighbour (an insertion or a deletion before it shifts the rest by one; the editor's
/// edits add, change or delete one object at a time). So deleting an agent never refuses the ones
/// after it, even one a level file placed inside a rock.
fn is_new<T: PartialEq>(old: &[T], i: usize, item: &T) -> bool {
    old.get(i) != Some(item)
        && old.get(i + 1) != Some(item)
        && (i == 0 || old.get(i - 1) != Some(item))
}

/// Refuses agent `i` where its collider would overlap a solid polygon or a closed door, or
/// where its spawn is outside the level's bounds.
pub fn agent_placement(level: &Level, i: usize, a: &LevelAgent) -> Result<(), EditError> {
    let at = format!("({}, {})", Num(a.spawn.x), Num(a.spawn.y));
    if let Some(b) = level.bounds.filter(|b| !b.contains(a.spawn)) {
        return Err(EditError::Placement(format!(
            "agent {i}: its spawn {at} is outside the level's bounds min ({}, {}) max ({}, {})",
            Num(b.min.x),
            Num(b.min.y),
            Num(b.max.x),
            Num(b.max.y)
        )));
    }
    let collider = collider_points(level, a.size);
    let reach = Aabb::from_points(collider.iter().map(|&q| q + a.spawn));
    let solids = level
        .polygons
        .iter()
        .enumerate()
        .filter(|(_, p)| p.kind == PolygonKind::Solid)
        .map(|(k, p)| (format!("polygon {k}"), &p.points))
        .chain(
            level
                .doors
                .iter()
                .enumerate()
                .filter(|(_, d)| !d.open)
                .map(|(k, d)| (format!("door {k}"), &d.points)),
        );
    for (name, points) in solids {
        if !reach.overlaps(&Aabb::from_points(points.iter().copied())) {
            continue;
        }
        let pieces = convex_pieces(points).unwrap_or_default();
        if pieces.iter().any(|piece| {
            colliders_meet(piece, DVec2::ZERO, &collider, a.spawn) == Meeting::Overlapping
        }) {
            let size = reach.max - reach.min;
            return Err(EditError::Placement(format!(
                "agent {i} ({}, {}): its {:.2} × {:.2} m collider at {at} overlaps {name}; put its \
                 feet on free ground",
                a.kind.name(),
                a.size.name(),
                size.x,
                size.y
            )));
        }
    }
    Ok(())
}

impl ObjectKind for Agent {
    type Item = LevelAgent;
    const NAME: &'static str = "agent";
    const BODY_PICK: BodyPick = BodyPick::Box;
    const PLACE: Option<Place> = Some(Place::Click);
    const TOOL: (&'static str, &'static str) = (
        "Agent",
        "Click: a new agent of the kind, size and facing chosen in the panel, its feet at the click",
    );
    const TEMPLATE_PANEL: (&'static str, &'static str) =
        ("New agent", "Click in the view: its feet go there.");

    fn list(level: &Level) -> &[LevelAgent] {
        &level.agents
    }

    /// A crawler, small, facing left; its feet are its anchor, so a click puts them there.
    fn template() -> Option<LevelAgent> {
        Some(new_agent(AgentKind::Crawler, DVec2::ZERO))
    }

    /// Its kind, size class and facing, with the agent field definitions: the panel is
    /// generated like an agent's own.
    fn template_fields(t: &mut LevelAgent) -> Vec<ObjectField<'_>> {
        t.fields_mut()
            .into_iter()
            .filter(|f| TEMPLATE_FIELDS.contains(&f.def.name))
            .collect()
    }

    /// A new kind brings the size class it is meant for (which the designer may then change)
    /// and its character file.
    fn template_changed(t: &mut LevelAgent, field: &str) {
        if field == "kind" {
            t.size = meant_size(t.kind);
            t.character = default_character(t.kind);
        }
    }

    fn replace(level: &mut Level, items: Vec<LevelAgent>) -> Vec<LevelAgent> {
        std::mem::replace(&mut level.agents, items)
    }

    fn check(level: &Level, agents: &[LevelAgent], strict: bool) -> Result<(), EditError> {
        check_agents(agents)?;
        for (i, a) in agents.iter().enumerate() {
            if strict && is_new(&level.agents, i, a) {
                agent_placement(level, i, a)?;
            }
        }
        Ok(())
    }

    fn body(level: &Level, a: &LevelAgent) -> Vec<Vec<DVec2>> {
        vec![agent_outline(level, a)]
    }

    fn anchor(a: &LevelAgent) -> Option<DVec2> {
        Some(a.spawn)
    }

    fn paste_point(_level: &Level, a: &LevelAgent) -> DVec2 {
        a.spawn
    }

    fn translated(a: &LevelAgent, delta: DVec2) -> LevelAgent {
        shifted(a, delta)
    }

    /// A patrol range's end moves along x only: the range is a stretch of level x at the
    /// agent's feet.
    fn moved(a: &LevelAgent, part: Part, delta: DVec2) -> LevelAgent {
        match part {
            Part::Body => shifted(a, delta),
            Part::Handle(end) => {
                let mut a = a.clone();
                if let Some(x) = a.patrol.as_mut().and_then(|r| r.get_mut(end)) {
                    *x += delta.x;
                }
                a
            }
            Part::Corner(_) | Part::Region | Part::Link => a.clone(),
        }
    }

    fn handles(a: &LevelAgent) -> Vec<DVec2> {
        patrol_points(a).map(Vec::from).unwrap_or_default()
    }

    fn draw(level: &Level, a: &LevelAgent, state: DrawState, pen: &mut dyn Pen) {
        let width = if state.selected { 2.5 } else { 1.5 };
        let c = if state.selected {
            Colour::Selected
        } else if a.kind.is_enemy() {
            ENEMY
        } else {
            AGENT
        };
        let pts = agent_outline(level, a);
        pen.outline(&pts, width, c);
        if let Some([l, r]) = patrol_points(a) {
            // The patrol range: a line at the feet, a bar and a handle at each end.
            pen.line(l, r, 1.0, c);
            for q in [l, r] {
                let bar = DVec2::new(0.0, 0.25);
                pen.line(q - bar, q + bar, width, c);
                pen.ring(q, 4.0, 1.5, c);
            }
        }
        let top = pts
            .iter()
            .fold(a.spawn, |t, q| if q.y > t.y { *q } else { t });
        let arrow = if a.facing < 0.0 { "<" } else { ">" };
        let text = format!("{} {arrow}", a.kind.name());
        pen.label(DVec2::new(a.spawn.x, top.y), &text, c);
    }

    /// The fields (a patrol range only for the kinds that walk one); a new kind brings its
    /// character file when the agent had the old kind's, and drops a patrol range it does not
    /// walk.
    fn panel(
        _level: &Level,
        a: &mut LevelAgent,
        _node: Option<usize>,
        ui: &mut dyn PanelUi,
    ) -> PanelAsks {
        let old = a.clone();
        let (patrols, feet) = (a.kind.patrols(), a.spawn);
        let fields = a
            .fields_mut()
            .into_iter()
            .filter(|f| patrols || f.def.name != "patrol")
            .collect();
        if ui.fields("agent", fields, feet) {
            if a.kind != old.kind && a.character == default_character(old.kind) {
                a.character = default_character(a.kind);
            }
            if !a.kind.patrols() {
                a.patrol = None;
            }
        }
        let drawn = format!(
            "drawn with: {}",
            a.character.as_deref().unwrap_or("its outline")
        );
        ui.text(&drawn);
        PanelAsks::default()
    }

    fn example() -> LevelAgent {
        LevelAgent {
            patrol: Some([-4.0, 0.0]),
            ..new_agent(AgentKind::Crawler, DVec2::new(-2.0, 0.0))
        }
    }
}
