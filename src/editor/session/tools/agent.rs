//! The Agent tool: a click places a new agent made from the session's agent template (kind,
//! size, facing, character), its feet at the snapped click, and selects it; refused with the
//! reason when its collider would start inside a solid. Its sketch is that agent's collider at
//! the snapped pointer, red where the click would be refused, so a designer sees whether it
//! fits before clicking.
use glam::DVec2;

use super::{Look, Press, Sketch, ToolBehaviour, ToolPanel};
use crate::editor::kinds::added;
use crate::editor::kinds::agent::{agent_placement, collider_points, meant_size, Agent};
use crate::editor::session::EditorSession;

pub(super) struct AgentTool;

impl ToolBehaviour for AgentTool {
    fn label(&self) -> &'static str {
        "Agent"
    }

    fn hint(&self) -> &'static str {
        "Click: a new agent of the kind, size and facing chosen in the panel, its feet at the click"
    }

    fn is_object(&self) -> bool {
        true
    }

    fn press(&self, s: &mut EditorSession, press: Press) {
        let (edit, agent) = added::<Agent>(&s.level.read(), s.agent_template.agent(press.snapped));
        if s.edit(edit, press.at).is_ok() {
            s.select_object(agent, None);
        }
    }

    fn panel<'s>(&self, s: &'s mut EditorSession) -> Option<ToolPanel<'s>> {
        Some(ToolPanel {
            title: "New agent",
            fields: s.agent_template.fields_mut(),
            help: "Click in the view: its feet go there.",
        })
    }

    /// A new kind brings the size class it is meant for (which the designer may then change).
    fn panel_changed(&self, s: &mut EditorSession, field: &'static str) {
        if field == "kind" {
            s.agent_template.size = meant_size(s.agent_template.kind);
        }
    }

    fn sketch(&self, s: &EditorSession, pointer: Option<DVec2>) -> Vec<Sketch> {
        let Some(p) = pointer else {
            return Vec::new();
        };
        let feet = s.grid.snap(p);
        let agent = s.agent_template.agent(feet);
        let look = match agent_placement(&s.level.read(), s.level.read().agents.len(), &agent) {
            Ok(()) => Look::Preview,
            Err(_) => Look::Refused,
        };
        let points = collider_points(&s.level.read(), agent.size)
            .into_iter()
            .map(|q| q + feet)
            .collect();
        vec![
            Sketch::Path {
                points,
                closed: true,
                width: 1.5,
                look,
            },
            Sketch::Dot {
                at: feet,
                radius: 3.0,
                look,
            },
        ]
    }
}
