//! The level's objects in the editor: agents, movers (with their path nodes) and doors (with
//! their switch regions). What a press grabs, how a drag moves it, the new objects the tools make,
//! and the edits that set an object list ([`Edit::SetAgents`], [`Edit::SetMovers`],
//! [`Edit::SetDoors`]) with their checks.
//!
//! An object edit replaces its whole list, so its inverse is the list before: exact, and as
//! small as the list (levels hold tens of objects, at most [`MAX_AGENTS`] agents and
//! [`MAX_MOVERS`] movers). Every entry is checked with the level file's own rules (the one
//! validator, `level::validate`: its per-object checks and the limits, among them a door whose
//! outline overlaps another door's, and a mover whose path takes a piece outside the level's
//! bounds), so a valid level stays valid. An agent that is new or changed is also checked where it stands,
//! with the reason shown at the cursor when refused: its collider (its size class's, at its
//! spawn) must not overlap a solid polygon or a closed door with positive area, and its spawn
//! must lie inside the level's bounds. (A level file may hold such an agent: the world moves it
//! to free space with a warning.)
//!
//! [`MAX_AGENTS`]: crate::level::limits::MAX_AGENTS
//! [`MAX_MOVERS`]: crate::level::limits::MAX_MOVERS
//!
//! Undo puts back the list before ([`Edit::is_restore`]) and skips the agents' placement check:
//! it restores what was there, which a level loaded from a file may have had.
//!
//! # Tolerances
//! None of its own: overlaps are `collision::colliders_meet`'s exact test on the convex pieces
//! (touching is allowed), positions are snapped by the caller or are the pointer's.
use glam::DVec2;

use super::ops::{Edit, EditError};
use super::session::{closest_on_segment, inside};
use crate::collision::PolygonKind;
use crate::collision::{colliders_meet, convex_pieces, Aabb, Meeting, Num};
use crate::level::fields::ObjectField;
use crate::level::validate::{check_agents, check_movers};
use crate::level::{
    check_outline_counts, AgentKind, AgentSize, Level, LevelAgent, LevelDoor, LevelMover,
    LevelProblem, MoverEase, MoverMode,
};
use crate::movement::Tuning;

/// An object of the level, by its index in its list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectRef {
    /// `level.agents[i]`.
    Agent(usize),
    /// `level.movers[i]`.
    Mover(usize),
    /// `level.doors[i]`.
    Door(usize),
}

/// The part of an object a press grabs, and a drag moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grab {
    /// An agent (its spawn point).
    Agent(usize),
    /// A whole mover (its pieces; the path of offsets goes with it).
    Mover(usize),
    /// One offset of a mover's path.
    PathNode { mover: usize, node: usize },
    /// One corner of a mover's piece (handles shown on the selected mover only).
    Corner {
        mover: usize,
        piece: usize,
        corner: usize,
    },
    /// One end of an agent's patrol range (`end` 0 the left, 1 the right).
    PatrolEnd { agent: usize, end: usize },
    /// A door's outline.
    Door(usize),
    /// A door's switch region.
    Switch(usize),
}

impl Grab {
    /// The object it belongs to.
    pub fn object(self) -> ObjectRef {
        match self {
            Grab::Agent(i) | Grab::PatrolEnd { agent: i, .. } => ObjectRef::Agent(i),
            Grab::Mover(i) | Grab::PathNode { mover: i, .. } | Grab::Corner { mover: i, .. } => {
                ObjectRef::Mover(i)
            }
            Grab::Door(i) | Grab::Switch(i) => ObjectRef::Door(i),
        }
    }
}

/// What the agent tool places: a kind, its size class and facing. The toolbar's panel edits it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AgentTemplate {
    /// Its behaviour.
    pub kind: AgentKind,
    /// Its size class.
    pub size: AgentSize,
    /// 1 right, -1 left.
    pub facing: f64,
}

impl Default for AgentTemplate {
    fn default() -> Self {
        AgentTemplate {
            kind: AgentKind::Crawler,
            size: AgentSize::Small,
            facing: -1.0,
        }
    }
}

impl AgentTemplate {
    /// Its fields, as an agent's (kind, size class, facing): the same definitions, so the Agent
    /// tool's panel is generated like an agent's own.
    pub fn fields_mut(&mut self) -> Vec<ObjectField<'_>> {
        use crate::level::fields::AsField;
        let def = |name: &str| {
            LevelAgent::FIELDS
                .iter()
                .find(|d| d.name == name)
                .expect("an agent field")
        };
        let (kind, size, facing) = (def("kind"), def("size"), def("facing"));
        vec![
            ObjectField {
                def: kind,
                value: self.kind.as_field(kind.widget),
            },
            ObjectField {
                def: size,
                value: self.size.as_field(size.widget),
            },
            ObjectField {
                def: facing,
                value: self.facing.as_field(facing.widget),
            },
        ]
    }

    /// The agent it places at `spawn`. Enemies are drawn with their kind's character file from
    /// the data directory (`assets/characters/<kind>.ron`); other kinds as their outline.
    pub fn agent(&self, spawn: DVec2) -> LevelAgent {
        LevelAgent {
            kind: self.kind,
            size: self.size,
            spawn,
            facing: self.facing,
            character: default_character(self.kind),
            patrol: None,
        }
    }
}

/// The character file an agent of `kind` gets when placed: the enemies' files that ship in the
/// data directory, `None` (drawn as its outline) for the others.
pub fn default_character(kind: AgentKind) -> Option<String> {
    kind.is_enemy()
        .then(|| format!("assets/characters/{}.ron", kind.name()))
}

/// The size class each kind is meant for (the one the agent tool switches to with the kind).
pub fn meant_size(kind: AgentKind) -> AgentSize {
    match kind {
        AgentKind::Crawler | AgentKind::Patrol => AgentSize::Small,
        AgentKind::Hopper => AgentSize::Medium,
        AgentKind::Brute => AgentSize::Large,
        AgentKind::Idle => AgentSize::Hero,
    }
}

/// The first offset a new mover's path gets besides `(0, 0)`: 4 m to the right, a bridge. The
/// designer drags it where it should go.
pub const NEW_MOVER_TRAVEL: DVec2 = DVec2::new(4.0, 0.0);
/// A new mover's period, s.
pub const NEW_MOVER_PERIOD: f64 = 3.0;

/// A new mover: one rectangular piece over `r`, a path from its rest pose to
/// [`NEW_MOVER_TRAVEL`] and back in [`NEW_MOVER_PERIOD`] seconds, eased.
pub fn new_mover(r: Aabb) -> LevelMover {
    LevelMover {
        pieces: vec![rect_points(r)],
        path: vec![DVec2::ZERO, NEW_MOVER_TRAVEL],
        period: NEW_MOVER_PERIOD,
        mode: MoverMode::PingPong,
        ease: MoverEase::Smooth,
        one_way: false,
        spin: 0.0,
        swing: 0.0,
        pivot: Default::default(),
    }
}

/// A new closed door filling `r`, with no switch yet.
pub fn new_door(r: Aabb) -> LevelDoor {
    LevelDoor {
        points: rect_points(r),
        open: false,
        switch: None,
        close_after: None,
    }
}

/// The four corners of `r`, counter-clockwise from its lower left.
pub fn rect_points(r: Aabb) -> Vec<DVec2> {
    vec![
        r.min,
        DVec2::new(r.max.x, r.min.y),
        r.max,
        DVec2::new(r.min.x, r.max.y),
    ]
}

/// The centre of `points`' box.
pub fn rect_centre(points: &[DVec2]) -> DVec2 {
    Aabb::from_points(points.iter().copied()).centre()
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

/// The point a mover's path is drawn from: the centre of its pieces' box at rest.
pub fn mover_anchor(m: &LevelMover) -> DVec2 {
    Aabb::from_points(m.pieces.iter().flatten().copied()).centre()
}

/// Where each of a mover's path nodes is drawn: its anchor moved by the offset.
pub fn path_points(m: &LevelMover) -> Vec<DVec2> {
    let a = mover_anchor(m);
    m.path.iter().map(|&o| a + o).collect()
}

/// Where an agent's patrol range's ends are drawn (and grabbed): at its feet's height.
pub fn patrol_points(a: &LevelAgent) -> Option<[DVec2; 2]> {
    a.patrol.map(|r| r.map(|x| DVec2::new(x, a.spawn.y)))
}

/// The handle nearest `p` within `radius` (path nodes, patrol range ends), else the agent whose collider box holds
/// `p` (grown by `radius`; the last one drawn first).
pub fn pick_handle(level: &Level, p: DVec2, radius: f64) -> Option<Grab> {
    let mut best: Option<(f64, Grab)> = None;
    for (mi, m) in level.movers.iter().enumerate() {
        for (node, q) in path_points(m).into_iter().enumerate() {
            let d = q.distance(p);
            if d <= radius && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, Grab::PathNode { mover: mi, node }));
            }
        }
    }
    for (agent, a) in level.agents.iter().enumerate() {
        for (end, q) in patrol_points(a).into_iter().flatten().enumerate() {
            let d = q.distance(p);
            if d <= radius && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, Grab::PatrolEnd { agent, end }));
            }
        }
    }
    if let Some((_, g)) = best {
        return Some(g);
    }
    (0..level.agents.len())
        .rev()
        .find(|&i| {
            Aabb::from_points(agent_outline(level, &level.agents[i]))
                .expand(radius)
                .contains(p)
        })
        .map(Grab::Agent)
}

/// The corner of one of mover `mover`'s pieces within `radius` of `p` (the nearest).
pub fn pick_corner(level: &Level, mover: usize, p: DVec2, radius: f64) -> Option<Grab> {
    let m = level.movers.get(mover)?;
    let mut best: Option<(f64, Grab)> = None;
    for (piece, points) in m.pieces.iter().enumerate() {
        for (corner, q) in points.iter().enumerate() {
            let d = q.distance(p);
            if d <= radius && best.is_none_or(|(b, _)| d < b) {
                let g = Grab::Corner {
                    mover,
                    piece,
                    corner,
                };
                best = Some((d, g));
            }
        }
    }
    best.map(|(_, g)| g)
}

/// The edit that adds `p` as a corner of mover `mover`: into the piece edge nearest to it,
/// between that edge's ends (refused by the level's rules unless the piece stays strictly
/// convex: a point outside the piece, beyond that edge). `None` if the mover does not exist.
pub fn with_corner(level: &Level, mover: usize, p: DVec2) -> Option<Edit> {
    let m = level.movers.get(mover)?;
    let mut best: Option<(f64, usize, usize)> = None;
    for (k, points) in m.pieces.iter().enumerate() {
        let n = points.len();
        for e in 0..n {
            let d = closest_on_segment(points[e], points[(e + 1) % n], p).distance(p);
            if best.is_none_or(|(b, _, _)| d < b) {
                best = Some((d, k, e));
            }
        }
    }
    let (_, k, e) = best?;
    Some(mover_edit(level, mover, |m| m.pieces[k].insert(e + 1, p)))
}

/// The edit that removes corner `grab` of a mover's piece; `None` unless `grab` is a corner
/// that exists of a piece with more than three.
pub fn without_corner(level: &Level, grab: Grab) -> Option<Edit> {
    let Grab::Corner {
        mover,
        piece,
        corner,
    } = grab
    else {
        return None;
    };
    if !exists(level, grab) || level.movers[mover].pieces[piece].len() <= 3 {
        return None;
    }
    Some(mover_edit(level, mover, |m| {
        m.pieces[piece].remove(corner);
    }))
}

/// The edit that changes mover `i` (which must exist) by `change`, the other movers as they are.
pub fn mover_edit(level: &Level, i: usize, change: impl FnOnce(&mut LevelMover)) -> Edit {
    let mut movers = level.movers.clone();
    change(&mut movers[i]);
    Edit::SetMovers {
        movers,
        restore: false,
    }
}

/// The path segment of a mover within `radius` of `p`: `(mover, segment, nearest point)`,
/// segment `k` running from node `k` to node `k + 1`.
pub fn pick_path_segment(level: &Level, p: DVec2, radius: f64) -> Option<(usize, usize, DVec2)> {
    let mut best: Option<(f64, (usize, usize, DVec2))> = None;
    for (mi, m) in level.movers.iter().enumerate() {
        let pts = path_points(m);
        for (k, w) in pts.windows(2).enumerate() {
            let q = closest_on_segment(w[0], w[1], p);
            let d = q.distance(p);
            if d <= radius && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, (mi, k, q)));
            }
        }
    }
    best.map(|(_, h)| h)
}

/// The switch, door or mover (at rest) holding `p`, in that order, the last one of a list first.
pub fn pick_inside(level: &Level, p: DVec2) -> Option<Grab> {
    if let Some(i) = (0..level.doors.len())
        .rev()
        .find(|&i| level.doors[i].switch.is_some_and(|s| s.contains(p)))
    {
        return Some(Grab::Switch(i));
    }
    if let Some(i) = (0..level.doors.len())
        .rev()
        .find(|&i| inside(&level.doors[i].points, p))
    {
        return Some(Grab::Door(i));
    }
    (0..level.movers.len())
        .rev()
        .find(|&i| level.movers[i].pieces.iter().any(|piece| inside(piece, p)))
        .map(Grab::Mover)
}

/// Whether `grab` names something `level` has.
pub fn exists(level: &Level, grab: Grab) -> bool {
    match grab {
        Grab::Agent(i) => i < level.agents.len(),
        Grab::Mover(i) => i < level.movers.len(),
        Grab::PathNode { mover, node } => {
            level.movers.get(mover).is_some_and(|m| node < m.path.len())
        }
        Grab::Corner {
            mover,
            piece,
            corner,
        } => level
            .movers
            .get(mover)
            .and_then(|m| m.pieces.get(piece))
            .is_some_and(|p| corner < p.len()),
        Grab::PatrolEnd { agent, .. } => {
            level.agents.get(agent).is_some_and(|a| a.patrol.is_some())
        }
        Grab::Door(i) => i < level.doors.len(),
        Grab::Switch(i) => level.doors.get(i).is_some_and(|d| d.switch.is_some()),
    }
}

/// The point of `grab` that a drag keeps at the pointer's offset (and snaps to the grid): an
/// agent's spawn, a mover's or door's first point, a path node, a patrol range's end, a switch's
/// lower-left corner.
/// `None` if it does not exist.
pub fn grab_point(level: &Level, grab: Grab) -> Option<DVec2> {
    match grab {
        Grab::Agent(i) => level.agents.get(i).map(|a| a.spawn),
        Grab::Mover(i) => level
            .movers
            .get(i)
            .and_then(|m| m.pieces.first()?.first().copied()),
        Grab::PathNode { mover, node } => level
            .movers
            .get(mover)
            .and_then(|m| path_points(m).get(node).copied()),
        Grab::Corner {
            mover,
            piece,
            corner,
        } => level
            .movers
            .get(mover)
            .and_then(|m| m.pieces.get(piece)?.get(corner).copied()),
        Grab::PatrolEnd { agent, end } => level
            .agents
            .get(agent)
            .and_then(patrol_points)
            .map(|ends| ends[end]),
        Grab::Door(i) => level.doors.get(i).and_then(|d| d.points.first().copied()),
        Grab::Switch(i) => level.doors.get(i).and_then(|d| d.switch).map(|s| s.min),
    }
}

/// The edit that moves `grab` by `delta` (a path node moves its offset; a mover's pieces move
/// and its path goes with them; a door moves without its switch). `None` if it does not exist.
pub fn moved(level: &Level, grab: Grab, delta: DVec2) -> Option<Edit> {
    if !exists(level, grab) {
        return None;
    }
    Some(match grab {
        Grab::Agent(i) => {
            let mut agents = level.agents.clone();
            agents[i] = shifted(&agents[i], delta);
            Edit::SetAgents {
                agents,
                restore: false,
            }
        }
        Grab::Mover(i) => mover_edit(level, i, |m| {
            for q in m.pieces.iter_mut().flatten() {
                *q += delta;
            }
        }),
        Grab::PathNode { mover, node } => mover_edit(level, mover, |m| m.path[node] += delta),
        // The piece reshaped; the level's rules refuse it when it stops being strictly convex
        // (the drag then stops at its last valid shape).
        Grab::Corner {
            mover,
            piece,
            corner,
        } => mover_edit(level, mover, |m| m.pieces[piece][corner] += delta),
        Grab::PatrolEnd { agent, end } => {
            // Along x only: the range is a stretch of level x at the agent's feet.
            let mut agents = level.agents.clone();
            if let Some(r) = &mut agents[agent].patrol {
                r[end] += delta.x;
            }
            Edit::SetAgents {
                agents,
                restore: false,
            }
        }
        Grab::Door(i) => {
            let mut doors = level.doors.clone();
            for q in &mut doors[i].points {
                *q += delta;
            }
            Edit::SetDoors {
                doors,
                restore: false,
            }
        }
        Grab::Switch(i) => {
            let mut doors = level.doors.clone();
            if let Some(s) = &mut doors[i].switch {
                s.min += delta;
                s.max += delta;
            }
            Edit::SetDoors {
                doors,
                restore: false,
            }
        }
    })
}

/// The edit that removes `object` (a door's switch goes with its door).
pub fn removed(level: &Level, object: ObjectRef) -> Option<Edit> {
    Some(match object {
        ObjectRef::Agent(i) if i < level.agents.len() => {
            let mut agents = level.agents.clone();
            agents.remove(i);
            Edit::SetAgents {
                agents,
                restore: false,
            }
        }
        ObjectRef::Mover(i) if i < level.movers.len() => {
            let mut movers = level.movers.clone();
            movers.remove(i);
            Edit::SetMovers {
                movers,
                restore: false,
            }
        }
        ObjectRef::Door(i) if i < level.doors.len() => {
            let mut doors = level.doors.clone();
            doors.remove(i);
            Edit::SetDoors {
                doors,
                restore: false,
            }
        }
        _ => return None,
    })
}

/// A copied object, with its properties: what Ctrl+C keeps and Ctrl+V adds again.
#[derive(Clone, Debug, PartialEq)]
pub enum ObjectClip {
    /// An agent.
    Agent(LevelAgent),
    /// A mover (its path is relative, so it goes along unchanged).
    Mover(LevelMover),
    /// A door with its switch.
    Door(LevelDoor),
}

impl ObjectClip {
    /// A copy of `object`, `None` if it does not exist.
    pub fn of(level: &Level, object: ObjectRef) -> Option<ObjectClip> {
        Some(match object {
            ObjectRef::Agent(i) => ObjectClip::Agent(level.agents.get(i)?.clone()),
            ObjectRef::Mover(i) => ObjectClip::Mover(level.movers.get(i)?.clone()),
            ObjectRef::Door(i) => ObjectClip::Door(level.doors.get(i)?.clone()),
        })
    }

    /// The point pasting puts at the cursor: an agent's feet, the centre of a mover's or a
    /// door's box.
    pub fn handle(&self) -> DVec2 {
        match self {
            ObjectClip::Agent(a) => a.spawn,
            ObjectClip::Mover(m) => mover_anchor(m),
            ObjectClip::Door(d) => rect_centre(&d.points),
        }
    }

    /// The edit that adds it moved by `delta` (a door's switch moves with it) at the end of its
    /// list, and the object it becomes.
    pub fn pasted(&self, level: &Level, delta: DVec2) -> (Edit, ObjectRef) {
        match self {
            ObjectClip::Agent(a) => {
                let mut agents = level.agents.clone();
                agents.push(shifted(a, delta));
                let at = ObjectRef::Agent(agents.len() - 1);
                (
                    Edit::SetAgents {
                        agents,
                        restore: false,
                    },
                    at,
                )
            }
            ObjectClip::Mover(m) => {
                let mut movers = level.movers.clone();
                let mut m = m.clone();
                for q in m.pieces.iter_mut().flatten() {
                    *q += delta;
                }
                movers.push(m);
                let at = ObjectRef::Mover(movers.len() - 1);
                (
                    Edit::SetMovers {
                        movers,
                        restore: false,
                    },
                    at,
                )
            }
            ObjectClip::Door(d) => {
                let mut doors = level.doors.clone();
                let mut d = d.clone();
                for q in &mut d.points {
                    *q += delta;
                }
                if let Some(s) = &mut d.switch {
                    s.min += delta;
                    s.max += delta;
                }
                doors.push(d);
                let at = ObjectRef::Door(doors.len() - 1);
                (
                    Edit::SetDoors {
                        doors,
                        restore: false,
                    },
                    at,
                )
            }
        }
    }
}

// ----- the edits' checks -----

/// Sets the agents (see the module docs for the checks); returns the inverse.
pub(super) fn set_agents(
    level: &mut Level,
    agents: &[LevelAgent],
    strict: bool,
) -> Result<Edit, EditError> {
    check_agents(agents)?;
    for (i, a) in agents.iter().enumerate() {
        if strict && is_new(&level.agents, i, a) {
            agent_placement(level, i, a)?;
        }
    }
    Ok(Edit::SetAgents {
        agents: std::mem::replace(&mut level.agents, agents.to_vec()),
        restore: true,
    })
}

/// Sets the movers (see the module docs for the checks); returns the inverse.
pub(super) fn set_movers(level: &mut Level, movers: &[LevelMover]) -> Result<Edit, EditError> {
    check_movers(movers, level.bounds)?;
    Ok(Edit::SetMovers {
        movers: std::mem::replace(&mut level.movers, movers.to_vec()),
        restore: true,
    })
}

/// Sets the doors (see the module docs for the checks); returns the inverse.
pub(super) fn set_doors(level: &mut Level, doors: &[LevelDoor]) -> Result<Edit, EditError> {
    if doors.len() != level.doors.len() {
        // Doors count as polygons of the meshes: O(polygons), only when the count changes.
        check_outline_counts(level, doors).map_err(LevelProblem::Limit)?;
    }
    level.check_doors(doors)?;
    Ok(Edit::SetDoors {
        doors: std::mem::replace(&mut level.doors, doors.to_vec()),
        restore: true,
    })
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
pub(crate) fn agent_placement(level: &Level, i: usize, a: &LevelAgent) -> Result<(), EditError> {
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
