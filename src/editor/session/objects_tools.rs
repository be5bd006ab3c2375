//! The session's object gestures, whatever the object's kind (placing them is the object tools':
//! `tools/place.rs` for every registered kind): selecting and dragging an object or a part of one
//! (a body, a handle such as a path node, a corner, a region such as a switch), inserting and
//! deleting path nodes, copying, pasting and deleting objects. What each does to
//! an object is its kind's ([`crate::editor::kinds`]); this is what a press, a drag and a
//! release do with it.
use glam::DVec2;

use super::{EditorSession, Gesture, Modifiers};
use crate::editor::kinds::{AnyKind, Part, Placement};
use crate::editor::objects::{self, Grab, ObjectRef};
use crate::editor::ops::Edit;

impl EditorSession {
    /// Adds a new object of kind `k` at `at` and selects it, as its placing tool does (the left
    /// panel's "add at the hero"); a refusal shows at `p`.
    pub fn place_object(&mut self, k: &'static dyn AnyKind, at: Placement, p: DVec2) {
        super::tools::place(self, k, at, p);
    }

    /// Selects only `object` (and `node` of its path).
    pub fn select_object(&mut self, object: ObjectRef, node: Option<usize>) {
        self.selection.clear();
        self.selection.object = Some(object);
        self.selection.node = node;
    }

    /// A press on an object with the select tool: selects it (and the node grabbed, when its
    /// handles are the nodes of a path) and starts moving it.
    pub(super) fn grab_object(&mut self, what: Grab, p: DVec2) {
        let node = match what.part {
            Part::Handle(k) if what.object.kind().nodes() => Some(k),
            _ => None,
        };
        self.select_object(what.object, node);
        if what.part == Part::Link {
            if let Some(from) = objects::grab_point(&self.level.read(), what) {
                self.gesture = Gesture::Link {
                    source: what.object,
                    from,
                    to: p,
                    moved: false,
                };
            }
            return;
        }
        if let Some(grab) = objects::grab_point(&self.level.read(), what) {
            self.gesture = Gesture::Object {
                what,
                grab,
                offset: p - grab,
            };
        }
    }

    /// A press on a path's segment: Ctrl inserts a node there (snapped), else the object is
    /// selected.
    pub(super) fn press_path_segment(
        &mut self,
        object: ObjectRef,
        segment: usize,
        point: DVec2,
        p: DVec2,
        mods: Modifiers,
    ) {
        if !mods.ctrl {
            self.select_object(object, None);
            return;
        }
        let point = if self.grid.enabled {
            self.grid.snap(point)
        } else {
            point
        };
        let Some(edit) = object
            .kind()
            .with_node(&self.level.read(), object.index, segment, point)
        else {
            return;
        };
        if self.edit(edit, p).is_ok() {
            self.select_object(object, Some(segment + 1));
        }
    }

    /// A drag of an object: its grab point follows the pointer (snapped); a refused step leaves
    /// it at the last valid place with the reason at the cursor.
    pub(super) fn drag_object(&mut self, what: Grab, grab: DVec2, offset: DVec2, p: DVec2) {
        let target = self.grid.snap(p - offset);
        let mut grab_now = grab;
        if target != grab {
            let edit = objects::moved(&self.level.read(), what, target - grab);
            if let Some(edit) = edit {
                if self.run(edit, p, true).is_ok() {
                    grab_now = objects::grab_point(&self.level.read(), what).unwrap_or(target);
                }
            }
        }
        self.gesture = Gesture::Object {
            what,
            grab: grab_now,
            offset,
        };
    }

    /// A link dragged from signal `source` released at `p`: the target there acts on the
    /// signal (one undoable edit) and is selected, its panel listing its links; else the reason
    /// at `p`.
    pub(super) fn link(&mut self, source: ObjectRef, p: DVec2) {
        let linked = objects::link_edit(&self.level.read(), source, p);
        match linked {
            Ok((edit, target)) => {
                if self.edit(edit, p).is_ok() {
                    self.select_object(target, None);
                }
            }
            Err(why) => self.refuse(why, p),
        }
    }

    /// Deletes the selected path node (the object stays selected and `true` is returned; the
    /// level's rules refuse a path too short), else the selected object.
    pub(super) fn delete_object(&mut self) -> bool {
        let Some(object) = self.selection.object else {
            return false;
        };
        let at = self
            .object_centre(object)
            .unwrap_or(self.level.read().spawn);
        if let Some(node) = self.selection.node {
            let edit = object
                .kind()
                .without_node(&self.level.read(), object.index, node);
            if let Some(edit) = edit {
                if self.edit(edit, at).is_ok() {
                    self.selection.node = None;
                }
                return true;
            }
        }
        let edit = objects::removed(&self.level.read(), object);
        if let Some(edit) = edit {
            let _ = self.edit(edit, at);
        }
        false
    }

    /// The centre of an object's box (its collider's for an agent).
    pub fn object_centre(&self, object: ObjectRef) -> Option<DVec2> {
        objects::centre(&self.level.read(), object)
    }

    /// Replaces the selected object with `edit`'s change of it (the panels' fields): one
    /// undoable edit, refused with the reason at the object.
    pub fn edit_object(&mut self, edit: Edit) {
        let at = self
            .selection
            .object
            .and_then(|o| self.object_centre(o))
            .unwrap_or(self.level.read().spawn);
        let _ = self.edit(edit, at);
    }

    /// Drops an object selection that no longer exists, and a node past its path.
    pub(super) fn prune_object_selection(&mut self) {
        let Some(object) = self.selection.object else {
            return;
        };
        let k = object.kind();
        if object.index >= k.count(&self.level.read()) {
            self.selection.object = None;
            self.selection.node = None;
            return;
        }
        let nodes = k.handles(&self.level.read(), object.index).len();
        if self.selection.node.is_some_and(|n| n >= nodes) {
            self.selection.node = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use glam::DVec2;

    use super::super::tests::level;
    use super::super::{EditorSession, Hit, Look, Modifiers, Sketch, Tool};
    use crate::collision::Aabb;
    use crate::editor::kinds::mover::NEW_MOVER_TRAVEL;
    use crate::editor::kinds::{
        agent::{new_agent, Agent},
        set_list, ObjectKind, Part,
    };
    use crate::editor::objects::{Grab, ObjectRef};
    use crate::level::{AgentKind, AgentSize, Level, LevelPolygon};

    /// The agents' placing tool.
    const AGENT: Tool = Tool::Place(Agent::NAME);

    fn p(x: f64, y: f64) -> DVec2 {
        DVec2::new(x, y)
    }

    /// A floor from x = -10 to 10, its top at y = 0, and a block on it from x = 4 to 6.
    fn session() -> EditorSession {
        let square = |x0: f64, y0: f64, x1: f64, y1: f64| {
            LevelPolygon::solid(vec![p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)])
        };
        let level = Level {
            polygons: vec![square(-10., -1., 10., 0.), square(4., 0., 6., 2.)],
            spawn: p(-8., 0.),
            ..Level::empty("objects")
        };
        EditorSession::new(level, None)
    }

    fn click(s: &mut EditorSession, at: DVec2) {
        s.press(at, 0.1, Modifiers::default());
        s.release(at);
    }

    fn drag(s: &mut EditorSession, from: DVec2, to: DVec2) {
        s.press(from, 0.1, Modifiers::default());
        s.drag((from + to) * 0.5);
        s.drag(to);
        s.release(to);
    }

    #[test]
    fn the_agent_tool_places_the_template_and_refuses_a_spawn_inside_a_solid() {
        let mut s = session();
        s.set_tool(AGENT);
        s.templates.get_mut::<Agent>().expect("a template").kind = AgentKind::Brute;
        s.tool_panel_changed("kind");
        click(&mut s, p(-2.0, 0.0));
        let a = s.level().agents[0].clone();
        assert_eq!(
            (a.kind, a.size, a.spawn),
            (AgentKind::Brute, AgentSize::Large, p(-2., 0.))
        );
        assert_eq!(a.character.as_deref(), Some("assets/characters/brute.ron"));
        assert_eq!(s.selection.object, Some(ObjectRef::new("agent", 0)));
        // Feet at x = 4.5, 0: its 1.2 m wide collider overlaps the block.
        click(&mut s, p(3.5, 0.0));
        assert_eq!(s.level().agents.len(), 1);
        let m = s.message().expect("a refusal at the cursor");
        assert!(
            m.error && m.text.contains("overlaps polygon 1"),
            "{}",
            m.text
        );
        // Standing on the block is fine, and so is the ground beside it.
        click(&mut s, p(5.0, 2.0));
        click(&mut s, p(3.25, 0.0));
        assert_eq!(s.level().agents.len(), 3, "{:?}", s.message());
        assert!(s.level().validate().is_ok());
        s.undo();
        s.undo();
        s.undo();
        assert!(s.level().agents.is_empty());
    }

    /// A level file may place an agent inside a rock (the world moves it out with a warning):
    /// editing or deleting the other agents is not refused because of it.
    #[test]
    fn deleting_an_agent_is_not_refused_for_one_a_file_placed_inside_a_rock() {
        let mut s = session();
        let mut level = s.level().clone();
        let agent = |at| new_agent(AgentKind::Crawler, at);
        level.agents = vec![agent(p(-2.0, 0.0)), agent(p(5.0, 1.0))];
        s.replace(level, None, false);
        s.select_object(ObjectRef::new("agent", 0), None);
        s.delete_selection();
        assert_eq!(s.level().agents.len(), 1, "{:?}", s.message());
        assert_eq!(s.level().agents[0].spawn, p(5.0, 1.0));
        assert!(s.undo());
        assert_eq!(s.level().agents.len(), 2);
        // Moving the one inside the rock out is fine; into it again is refused.
        s.set_tool(Tool::Select);
        s.press(p(5.0, 1.2), 0.1, Modifiers::default());
        s.drag(p(8.0, 0.2));
        s.release(p(8.0, 0.2));
        assert_eq!(s.level().agents[1].spawn, p(8.0, 0.0));
        s.press(p(8.0, 0.2), 0.1, Modifiers::default());
        s.drag(p(5.0, 1.2));
        s.release(p(5.0, 1.2));
        assert_eq!(s.level().agents[1].spawn, p(8.0, 0.0));
    }

    #[test]
    fn an_agent_drags_snapped_in_one_undo_and_stops_at_a_wall() {
        let mut s = session();
        s.set_tool(AGENT);
        click(&mut s, p(0.0, 0.0));
        s.set_tool(Tool::Select);
        assert_eq!(
            s.pick(p(0.0, 0.2), 0.1),
            Some(Hit::Object(Grab::new("agent", 0, Part::Body)))
        );
        // Drag right towards the block: the small collider (0.6 m) stops with its side at x = 4.
        s.press(p(0.0, 0.2), 0.1, Modifiers::default());
        for k in 1..=20 {
            s.drag(p(0.25 * k as f64, 0.2));
        }
        s.release(p(5.0, 0.2));
        assert_eq!(s.level().agents[0].spawn, p(3.5, 0.0));
        assert!(s.message().is_some_and(|m| m.error));
        assert!(s.undo());
        assert_eq!(s.level().agents[0].spawn, p(0.0, 0.0));
    }

    #[test]
    fn a_patrol_range_end_drags_along_x_refuses_to_leave_the_spawn_and_moves_with_its_agent() {
        let mut s = session();
        s.set_tool(AGENT);
        click(&mut s, p(0.0, 0.0));
        let mut agents = s.level().agents.clone();
        agents[0].patrol = Some([-2.0, 2.0]);
        s.edit_object(set_list::<Agent>(agents));
        s.set_tool(Tool::Select);
        // The right end's handle sits at the feet' height; it is picked before the agent.
        assert_eq!(
            s.pick(p(2.0, 0.05), 0.1),
            Some(Hit::Object(Grab::new("agent", 0, Part::Handle(1))))
        );
        // Dragged right and up: only x moves, in one undo step.
        drag(&mut s, p(2.0, 0.0), p(3.0, 1.0));
        assert_eq!(s.level().agents[0].patrol, Some([-2.0, 3.0]));
        // Dragged past the spawn: refused with the reason, the range as it was.
        s.press(p(-2.0, 0.0), 0.1, Modifiers::default());
        s.drag(p(0.5, 0.0));
        s.release(p(0.5, 0.0));
        assert_eq!(s.level().agents[0].patrol, Some([-2.0, 3.0]));
        let m = s.message().expect("a refusal at the cursor");
        assert!(m.error && m.text.contains("patrol range"), "{}", m.text);
        // Dragging the agent takes its range along.
        drag(&mut s, p(0.0, 0.2), p(-1.0, 0.2));
        assert_eq!(s.level().agents[0].spawn, p(-1.0, 0.0));
        assert_eq!(s.level().agents[0].patrol, Some([-3.0, 2.0]));
        assert!(s.level().validate().is_ok());
        assert!(s.undo());
        assert!(s.undo());
        assert_eq!(s.level().agents[0].patrol, Some([-2.0, 2.0]));
    }

    #[test]
    fn shift_dragging_with_the_mover_tool_adds_a_piece_to_the_selected_mover() {
        let mut s = session();
        s.set_tool(Tool::Place("mover"));
        let shift = Modifiers {
            ctrl: false,
            shift: true,
        };
        // Nothing selected: refused with the reason.
        s.press(p(-4.0, 4.0), 0.1, shift);
        s.drag(p(-3.0, 4.5));
        s.release(p(-3.0, 4.5));
        assert!(s.level().movers.is_empty());
        assert!(s.message().is_some_and(|m| m.error));
        drag(&mut s, p(-4.0, 2.0), p(-2.0, 2.5));
        s.press(p(-2.0, 2.5), 0.1, shift);
        s.drag(p(-1.5, 4.0));
        s.release(p(-1.5, 4.0));
        let m = s.level().movers[0].clone();
        assert_eq!(m.pieces.len(), 2, "{:?}", s.message());
        assert_eq!(m.pieces[1][0], p(-2.0, 2.5));
        assert!(s.level().validate().is_ok());
        // Dragged with Select, both pieces move; one undo removes the piece again.
        s.set_tool(Tool::Select);
        drag(&mut s, p(-1.75, 3.7), p(-0.75, 3.7));
        assert_eq!(s.level().movers[0].pieces[0][0], p(-3.0, 2.0));
        assert_eq!(s.level().movers[0].pieces[1][0], p(-1.0, 2.5));
        assert!(s.undo());
        assert!(s.undo());
        assert_eq!(s.level().movers[0].pieces.len(), 1);
    }

    #[test]
    fn the_mover_tool_makes_a_platform_whose_path_nodes_drag_insert_and_delete() {
        let mut s = session();
        s.set_tool(Tool::Place("mover"));
        drag(&mut s, p(-4.0, 2.0), p(-2.0, 2.5));
        assert_eq!(s.level().movers.len(), 1);
        assert_eq!(s.selection.object, Some(ObjectRef::new("mover", 0)));
        let anchor = p(-3.0, 2.25);
        assert_eq!(
            s.level().movers[0].path,
            vec![DVec2::ZERO, NEW_MOVER_TRAVEL]
        );
        // Drag the second node up 3 m.
        s.set_tool(Tool::Select);
        let node = anchor + NEW_MOVER_TRAVEL;
        assert_eq!(
            s.pick(node, 0.1),
            Some(Hit::Object(Grab::new("mover", 0, Part::Handle(1))))
        );
        drag(&mut s, node, node + p(0.0, 3.0));
        assert_eq!(s.level().movers[0].path[1], NEW_MOVER_TRAVEL + p(0.0, 3.0));
        assert_eq!(s.selection.node, Some(1));
        // Ctrl-click halfway along the path inserts a node there.
        let mid = anchor + (NEW_MOVER_TRAVEL + p(0.0, 3.0)) * 0.5;
        s.press(
            mid,
            0.1,
            Modifiers {
                ctrl: true,
                shift: false,
            },
        );
        s.release(mid);
        assert_eq!(s.level().movers[0].path.len(), 3);
        assert_eq!(s.selection.node, Some(1));
        // Delete removes the node, and the mover stays selected; a third delete would leave one
        // node: refused.
        s.delete_selection();
        assert_eq!(s.level().movers[0].path.len(), 2);
        assert_eq!(s.selection.object, Some(ObjectRef::new("mover", 0)));
        s.selection.node = Some(0);
        s.delete_selection();
        assert_eq!(s.level().movers[0].path.len(), 2);
        assert!(s
            .message()
            .is_some_and(|m| m.error && m.text.contains("path")));
        // Undo steps back through insert and drag to the new mover; then no mover.
        assert!(s.undo());
        assert_eq!(s.level().movers[0].path.len(), 3);
        assert!(s.undo());
        assert!(s.undo());
        assert_eq!(
            s.level().movers[0].path,
            vec![DVec2::ZERO, NEW_MOVER_TRAVEL]
        );
        assert!(s.undo());
        assert!(s.level().movers.is_empty());
        assert_eq!(s.selection.object, None);
    }

    /// The selected mover's corners are handles: a drag reshapes the piece in one undo step and
    /// stops where it would stop being convex; Ctrl-click beside an edge adds a corner there,
    /// Ctrl-click on a corner removes it, down to three.
    #[test]
    fn the_selected_movers_corners_reshape_its_piece_and_stay_convex() {
        let ctrl = Modifiers {
            ctrl: true,
            shift: false,
        };
        let mut s = session();
        s.set_tool(Tool::Place("mover"));
        drag(&mut s, p(-4.0, 2.0), p(-2.0, 2.5));
        s.set_tool(Tool::Select);
        let corner = |s: &EditorSession, k: usize| s.level().movers[0].pieces[0][k];
        let top_right = (0..4).find(|&k| corner(&s, k) == p(-2.0, 2.5)).unwrap();
        assert_eq!(
            s.pick(p(-2.0, 2.5), 0.1),
            Some(Hit::Object(Grab::new("mover", 0, Part::Corner(top_right))))
        );
        // Not a handle while the mover is not selected.
        s.selection.clear();
        assert_ne!(
            s.pick(p(-2.0, 2.5), 0.1).map(|h| matches!(
                h,
                Hit::Object(Grab {
                    part: Part::Corner(_),
                    ..
                })
            )),
            Some(true)
        );
        s.select_object(ObjectRef::new("mover", 0), None);
        // Up and in: a trapezoid, one undo step.
        drag(&mut s, p(-2.0, 2.5), p(-2.5, 3.0));
        assert_eq!(corner(&s, top_right), p(-2.5, 3.0));
        let undo_depth = s.history().undo_len();
        // Past the bottom edge's line the piece would fold: the drag stops at its last valid
        // shape, with the reason.
        s.press(p(-2.5, 3.0), 0.1, Modifiers::default());
        s.drag(p(-2.5, 2.75));
        s.drag(p(-2.5, 1.0));
        s.release(p(-2.5, 1.0));
        assert_eq!(corner(&s, top_right), p(-2.5, 2.75));
        assert!(s.message().is_some_and(|m| m.error), "{:?}", s.message());
        assert_eq!(s.history().undo_len(), undo_depth + 1);
        // A corner added above the top edge, then removed again by Ctrl-click on it.
        s.press(p(-3.25, 3.5), 0.1, ctrl);
        s.release(p(-3.25, 3.5));
        assert_eq!(s.level().movers[0].pieces[0].len(), 5);
        assert!(s.level().movers[0].pieces[0].contains(&p(-3.25, 3.5)));
        s.press(p(-3.25, 3.5), 0.1, ctrl);
        s.release(p(-3.25, 3.5));
        assert_eq!(s.level().movers[0].pieces[0].len(), 4);
        // A corner beyond the end of an edge would make the next corner reflex: refused with
        // the reason, the piece unchanged.
        s.grid.enabled = false;
        let before = s.level().movers[0].pieces[0].clone();
        s.press(p(-4.1, 2.6), 0.1, ctrl);
        s.release(p(-4.1, 2.6));
        assert_eq!(s.level().movers[0].pieces[0], before);
        assert!(
            s.message()
                .is_some_and(|m| m.error && m.text.contains("convex")),
            "{:?}",
            s.message()
        );
        s.grid.enabled = true;
        // Down to three corners, then no further.
        s.press(corner(&s, 0), 0.1, ctrl);
        s.release(corner(&s, 0));
        assert_eq!(s.level().movers[0].pieces[0].len(), 3);
        s.press(corner(&s, 0), 0.1, ctrl);
        s.release(corner(&s, 0));
        assert_eq!(s.level().movers[0].pieces[0].len(), 3);
        assert!(s
            .message()
            .is_some_and(|m| m.error && m.text.contains("three corners")));
    }

    #[test]
    fn a_mover_whose_path_leaves_the_bounds_is_refused() {
        let mut s = session();
        let mut level = s.level().clone();
        level.bounds = Some(crate::collision::Aabb {
            min: p(-20., -5.),
            max: p(1., 20.),
        });
        s.replace(level, None, false);
        s.set_tool(Tool::Place("mover"));
        drag(&mut s, p(-4.0, 2.0), p(-2.0, 2.5));
        // Its default path goes 4 m right, past x = 1.
        assert!(s.level().movers.is_empty());
        let m = s.message().expect("refused");
        assert!(m.text.contains("mover 0: path offset 1"), "{}", m.text);
    }

    #[test]
    fn objects_copy_and_paste_with_their_properties_at_the_cursor() {
        let mut s = session();
        s.set_tool(Tool::Place("door"));
        drag(&mut s, p(-1.0, 0.0), p(-0.5, 2.0));
        s.set_tool(Tool::Region("door"));
        drag(&mut s, p(-3.0, 0.0), p(-2.0, 1.0));
        let door = s.level().doors[0].clone();
        assert_eq!(s.copy(), 1);
        s.paste(p(-7.25, 1.0));
        assert_eq!(s.level().doors.len(), 2);
        assert_eq!(s.selection.object, Some(ObjectRef::new("door", 1)));
        // Its centre (-0.75, 1) goes to the cursor: 6.5 m left, its switch with it.
        let shift = p(-6.5, 0.0);
        let pasted = s.level().doors[1].clone();
        assert_eq!(pasted.points[0], door.points[0] + shift);
        assert_eq!(pasted.switch.unwrap().min, door.switch.unwrap().min + shift);
        // An agent pasted where its collider would overlap the block is refused; beside it, fine.
        s.set_tool(AGENT);
        click(&mut s, p(0.0, 0.0));
        s.copy();
        s.paste(p(5.0, 1.0));
        assert_eq!(s.level().agents.len(), 1);
        assert!(s.message().is_some_and(|m| m.error));
        s.paste(p(8.0, 0.0));
        assert_eq!(s.level().agents[1].spawn, p(8.0, 0.0));
        assert_eq!(s.level().agents[1].kind, s.level().agents[0].kind);
        // Copying polygons makes polygons what pastes again.
        s.selection.clear();
        s.selection.polygons.insert(1);
        assert_eq!(s.copy(), 1);
        s.paste(p(0.0, 5.0));
        assert_eq!(s.level().polygons.len(), 3);
        assert_eq!(s.level().agents.len(), 2);
    }

    #[test]
    fn a_selection_travels_as_level_text_into_another_level_with_its_links() {
        let mut s = session();
        s.set_tool(Tool::Place("door"));
        drag(&mut s, p(-1.0, 0.0), p(-0.5, 2.0));
        s.set_tool(Tool::Region("door"));
        drag(&mut s, p(-3.0, 0.0), p(-2.0, 1.0));
        // The door (with its switch) and polygon 1, copied together.
        s.selection.polygons.insert(1);
        assert_eq!(s.copy(), 2);
        let text = s.clipboard_text().unwrap();
        // The text is a level file: it loads, and holds just the copy.
        let fragment = crate::level::parse_level(std::path::Path::new("x.ron"), &text).unwrap();
        assert_eq!(fragment.polygons.len(), 1);
        assert_eq!(fragment.doors, s.level().doors);
        // Pasted into another session's level (the system clipboard's text): one undo step adds
        // both, the switch still its door's, moved by whole grid cells to the cursor.
        let mut other = session();
        let before = other.level().clone();
        other.paste_from(Some(&text), p(10.0, 3.0));
        assert_eq!(other.level().polygons.len(), before.polygons.len() + 1);
        assert_eq!(other.level().doors.len(), 1);
        let (door, copied) = (other.level().doors[0].clone(), s.level().doors[0].clone());
        let shift = door.points[0] - copied.points[0];
        let cells = shift / other.grid.size();
        assert_eq!(cells, cells.round(), "whole grid cells: {shift}");
        assert_eq!(door.switch.unwrap().min, copied.switch.unwrap().min + shift);
        assert_eq!(
            other.selection.object,
            Some(ObjectRef::new("door", 0)),
            "what was pasted is selected"
        );
        assert!(other.undo());
        assert_eq!(*other.level(), before);
        // Text that is not a level: the editor's own copy pastes when there is one...
        other.paste_from(Some("hello"), p(10.0, 3.0));
        assert_eq!(other.level().doors.len(), 1);
        // ...else it is refused with the reason.
        let mut fresh = session();
        fresh.paste_from(Some("hello"), p(0.0, 0.0));
        assert!(fresh
            .message()
            .is_some_and(|m| m.error && m.text.starts_with("not level text: clipboard:1:")));
        assert_eq!(*fresh.level(), before);
    }

    #[test]
    fn duplicate_pastes_the_selection_one_grid_cell_off_as_one_step() {
        let mut s = session();
        s.set_tool(AGENT);
        click(&mut s, p(-4.0, 0.0));
        let before = s.level().clone();
        s.duplicate();
        assert_eq!(s.level().agents.len(), 2, "{:?}", s.message());
        let step = s.grid.size();
        assert_eq!(
            s.level().agents[1].spawn,
            s.level().agents[0].spawn + DVec2::splat(step)
        );
        assert_eq!(s.selection.object, Some(ObjectRef::new("agent", 1)));
        assert!(s.undo());
        assert_eq!(*s.level(), before);
        s.selection.clear();
        s.duplicate();
        assert!(s.message().is_some_and(|m| m.error));
    }

    #[test]
    fn doors_get_switches_by_picking_and_delete_with_them() {
        let mut s = session();
        s.set_tool(Tool::Place("door"));
        drag(&mut s, p(-1.0, 0.0), p(-0.5, 2.0));
        assert_eq!(s.level().doors.len(), 1);
        // A second door over the first is refused.
        drag(&mut s, p(-0.75, 0.0), p(0.0, 2.0));
        assert_eq!(s.level().doors.len(), 1);
        assert!(s
            .message()
            .is_some_and(|m| m.text.contains("door 0: its outline overlaps door 1")));
        // The switch tool: a rectangle with no door picked is refused; pick, then drag.
        s.set_tool(Tool::Region("door"));
        s.selection.clear();
        drag(&mut s, p(-6.0, 0.0), p(-5.0, 1.0));
        assert!(s.message().is_some_and(|m| m.text.contains("pick a door")));
        click(&mut s, p(-0.75, 1.0));
        assert_eq!(s.selection.object, Some(ObjectRef::new("door", 0)));
        drag(&mut s, p(-6.0, 0.0), p(-5.0, 1.0));
        let sw = s.level().doors[0].switch.expect("a switch");
        assert_eq!((sw.min, sw.max), (p(-6., 0.), p(-5., 1.)));
        // Select picks the switch; dragging moves it, not the door.
        s.set_tool(Tool::Select);
        assert_eq!(
            s.pick(p(-5.5, 0.5), 0.1),
            Some(Hit::Object(Grab::new("door", 0, Part::Region)))
        );
        drag(&mut s, p(-5.5, 0.5), p(-4.5, 0.5));
        assert_eq!(s.level().doors[0].switch.unwrap().min, p(-5., 0.));
        assert_eq!(s.level().doors[0].points[0], p(-1., 0.));
        // Deleting the door removes its switch in the same undoable edit.
        s.delete_selection();
        assert!(s.level().doors.is_empty());
        assert!(s.undo());
        assert_eq!(s.level().doors[0].switch.unwrap().min, p(-5., 0.));
        assert!(s.level().validate().is_ok());
    }

    /// A checkpoint (a region, like the goal) is picked by its outline only: a press inside it
    /// reaches what stands in it (here the block); a drag of its outline moves it in one undo
    /// step, and Delete removes it.
    #[test]
    fn a_checkpoint_is_picked_by_its_outline_and_drags_and_deletes() {
        let mut s = session();
        let mut level = s.level().clone();
        let region = crate::collision::Aabb {
            min: p(3.0, -0.5),
            max: p(7.0, 3.0),
        };
        level.checkpoints = vec![region];
        s.replace(level, None, false);
        s.set_tool(Tool::Select);
        assert_eq!(s.pick(p(5.0, 1.0), 0.1), Some(Hit::Polygon(1)));
        let outline = Grab::new("checkpoint", 0, Part::Body);
        assert_eq!(s.pick(p(3.05, 2.5), 0.1), Some(Hit::Object(outline)));
        drag(&mut s, p(3.05, 2.5), p(2.05, 2.5));
        assert_eq!(s.level().checkpoints[0].min, p(2.0, -0.5));
        assert_eq!(s.selection.object, Some(ObjectRef::new("checkpoint", 0)));
        s.delete_selection();
        assert!(s.level().checkpoints.is_empty());
        assert!(s.undo());
        assert!(s.undo());
        assert_eq!(s.level().checkpoints, vec![region]);
    }

    /// The Agent tool shows the collider of the agent a click would place, its feet at the
    /// snapped pointer, red exactly where that click is refused.
    #[test]
    fn the_agent_tool_sketches_the_collider_a_click_would_place() {
        let mut s = EditorSession::new(level(), None);
        s.grid.enabled = true;
        let none = Modifiers::default();
        // Agent: its collider at the snapped pointer; refused inside the first polygon, as a
        // click there is.
        s.set_tool(AGENT);
        let look = |s: &EditorSession, at: DVec2| match s.tool_sketch(Some(at)).first() {
            Some(Sketch::Path {
                look,
                closed: true,
                points,
                ..
            }) => {
                // The collider's feet are at the snapped pointer: the bottom of its box.
                let b = Aabb::from_points(points.iter().copied());
                let feet = s.grid.snap(at);
                assert_eq!(b.min.y, feet.y);
                assert!(b.min.x < feet.x && feet.x < b.max.x);
                *look
            }
            other => panic!("{other:?}"),
        };
        assert_eq!(look(&s, p(2., 3.)), Look::Preview);
        assert_eq!(look(&s, p(2., 0.25)), Look::Refused);
        let agents = s.level().agents.len();
        s.press(p(2., 0.25), 0.1, none);
        s.release(p(2., 0.25));
        assert_eq!(
            s.level().agents.len(),
            agents,
            "the refused click adds nothing"
        );
        s.press(p(2., 3.), 0.1, none);
        s.release(p(2., 3.));
        assert_eq!(s.level().agents.len(), agents + 1);
    }

    /// Only the Agent tool has settings (its kind's template): kind, size class and facing,
    /// with the agent field definitions. A new kind brings the size class it is meant for; a size chosen after it
    /// stays; the next click places what the panel shows.
    #[test]
    fn the_agent_tool_panel_edits_what_a_click_places() {
        use crate::level::fields::FieldMut;
        let mut s = EditorSession::new(level(), None);
        for tool in Tool::all() {
            s.set_tool(tool);
            assert_eq!(s.tool_panel().is_some(), tool == AGENT, "{tool:?}");
        }
        s.set_tool(AGENT);
        let set = |s: &mut EditorSession, field: &str, name: &str| {
            let mut panel = s.tool_panel().expect("the agent tool's panel");
            let f = panel
                .fields
                .iter_mut()
                .find(|f| f.def.name == field)
                .expect("the field");
            let FieldMut::Choice(c) = &mut f.value else {
                panic!("{field} is not a choice");
            };
            let k = c.names().iter().position(|n| *n == name).expect(name);
            c.set_index(k);
        };
        let names: Vec<&str> = s
            .tool_panel()
            .unwrap()
            .fields
            .iter()
            .map(|f| f.def.name)
            .collect();
        assert_eq!(names, ["kind", "size", "facing"]);
        set(&mut s, "kind", "brute");
        s.tool_panel_changed("kind");
        assert_eq!(
            (
                s.templates.get::<Agent>().unwrap().kind,
                s.templates.get::<Agent>().unwrap().size
            ),
            (AgentKind::Brute, AgentSize::Large)
        );
        set(&mut s, "size", "medium");
        s.tool_panel_changed("size");
        assert_eq!(s.templates.get::<Agent>().unwrap().size, AgentSize::Medium);
        s.press(p(2., 3.), 0.1, Modifiers::default());
        s.release(p(2., 3.));
        let a = s.level().agents.last().expect("placed").clone();
        assert_eq!((a.kind, a.size), (AgentKind::Brute, AgentSize::Medium));
        assert_eq!(a.character.as_deref(), Some("assets/characters/brute.ron"));
    }
}
