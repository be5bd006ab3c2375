//! The Select tool: a press grabs what is under the pointer, most specific first (a vertex,
//! the spawn, an object or a path node, an edge or a polygon's inside, an object behind them) and a drag
//! moves it in one undo step; Shift toggles vertices and polygons in the selection; Ctrl-click
//! on an edge inserts a (snapped) vertex; a press on empty space starts a selection box that
//! takes whole polygons and loose vertices. The selected mover shows its pieces' corners as
//! handles: dragging one reshapes the piece (kept strictly convex), Ctrl-click on one removes
//! it, and Ctrl-click beside the mover adds a corner to its nearest piece edge.
use glam::DVec2;

use super::{Press, ToolBehaviour};
use crate::collision::Aabb;
use crate::editor::kinds::Part;
use crate::editor::objects::Grab;
use crate::editor::ops::Edit;
use crate::editor::session::{EditorSession, Gesture, Hit, Modifiers};

pub(super) struct SelectTool;

impl ToolBehaviour for SelectTool {
    fn label(&self) -> &'static str {
        "Select"
    }

    fn hint(&self) -> &'static str {
        "Click to select and drag to move vertices, polygons, ladders, objects and the spawn; Shift adds to the selection; Ctrl-click an edge inserts a vertex; drag on empty space to box-select"
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        s.press_select(press.at, press.radius, press.mods);
    }

    fn band(&self, s: &mut EditorSession, r: Aabb, _p: DVec2, add: bool) {
        s.select_in(r, add);
    }

    fn band_snaps(&self) -> bool {
        false
    }
}

impl EditorSession {
    /// A press of the Select tool: grabs what is under the pointer (see [`SelectTool`]).
    fn press_select(&mut self, p: DVec2, radius: f64, mods: Modifiers) {
        let hit = self.pick(p, radius);
        let sel = &mut self.selection;
        match hit {
            Some(Hit::Edge {
                polygon,
                edge,
                point,
            }) if mods.ctrl => {
                let point = if self.grid.enabled {
                    self.grid.snap(point)
                } else {
                    point
                };
                if self
                    .edit(
                        Edit::InsertVertex {
                            polygon,
                            edge,
                            point,
                        },
                        p,
                    )
                    .is_ok()
                {
                    self.selection.clear();
                    self.selection.vertices.insert((polygon, edge + 1));
                }
            }
            Some(Hit::Vertex { polygon, vertex }) => {
                if mods.shift {
                    if !sel.vertices.remove(&(polygon, vertex)) {
                        sel.vertices.insert((polygon, vertex));
                    }
                    return;
                }
                if !sel.vertices.contains(&(polygon, vertex)) {
                    sel.clear();
                    sel.vertices.insert((polygon, vertex));
                }
                let vertices: Vec<usize> = sel
                    .vertices
                    .iter()
                    .filter(|&&(q, _)| q == polygon)
                    .map(|&(_, v)| v)
                    .collect();
                let grab = self.level.read().polygons[polygon].points[vertex];
                self.gesture = Gesture::Vertices {
                    polygon,
                    vertices,
                    grab,
                    offset: p - grab,
                };
            }
            Some(Hit::Spawn) => {
                self.gesture = Gesture::Spawn {
                    offset: p - self.level.read().spawn,
                };
            }
            Some(Hit::Edge { polygon, .. }) | Some(Hit::Polygon(polygon)) => {
                if mods.shift {
                    if !sel.polygons.remove(&polygon) {
                        sel.polygons.insert(polygon);
                    }
                    return;
                }
                if !sel.polygons.contains(&polygon) {
                    sel.clear();
                    sel.polygons.insert(polygon);
                }
                let grab = self.level.read().polygons[polygon].points[0];
                self.gesture = Gesture::Polygons {
                    polygons: sel.polygons.iter().copied().collect(),
                    grab,
                    offset: p - grab,
                };
            }
            Some(Hit::Object(Grab {
                object,
                part: Part::Corner(c),
            })) if mods.ctrl => {
                let edit = object
                    .kind()
                    .without_corner(&self.level.read(), object.index, c);
                match edit {
                    Ok(edit) => {
                        let _ = self.edit(edit, p);
                    }
                    Err(why) => self.refuse(why, p),
                }
            }
            Some(Hit::Object(what)) => self.grab_object(what, p),
            Some(Hit::PathSegment {
                object,
                segment,
                point,
            }) => self.press_path_segment(object, segment, point, p, mods),
            None if mods.ctrl
                && sel
                    .object
                    .is_some_and(|o| !o.kind().corners(&self.level.read(), o.index).is_empty()) =>
            {
                // Ctrl-click beside the selected object's corners (a mover's): a new corner there.
                let Some(o) = sel.object else {
                    return;
                };
                let at = self.grid.snap(p);
                let edit = o.kind().with_corner(&self.level.read(), o.index, at);
                if let Some(edit) = edit {
                    let _ = self.edit(edit, p);
                }
            }
            None => {
                if !mods.shift {
                    sel.clear();
                }
                self.gesture = Gesture::Band {
                    from: p,
                    to: p,
                    add: mods.shift,
                };
            }
        }
    }

    /// Selects what `r` holds: whole polygons, else their vertices inside it (`add`: added to
    /// the selection).
    fn select_in(&mut self, r: Aabb, add: bool) {
        if !add {
            self.selection.clear();
        }
        for (pi, poly) in self.level.read().polygons.iter().enumerate() {
            let inside: Vec<usize> = (0..poly.points.len())
                .filter(|&v| r.contains(poly.points[v]))
                .collect();
            if inside.len() == poly.points.len() {
                self.selection.polygons.insert(pi);
            } else {
                self.selection
                    .vertices
                    .extend(inside.into_iter().map(|v| (pi, v)));
            }
        }
    }
}
