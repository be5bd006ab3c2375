//! The Agent tool: a click places a new agent made from the session's agent template (kind,
//! size, facing, character), its feet at the snapped click, and selects it; refused with the
//! reason when its collider would start inside a solid.
use super::{Press, ToolBehaviour};
use crate::editor::objects::ObjectRef;
use crate::editor::ops::Edit;
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
        let mut agents = s.level.agents.clone();
        agents.push(s.agent_template.agent(press.snapped));
        let edit = Edit::SetAgents {
            agents,
            restore: false,
        };
        if s.edit(edit, press.at).is_ok() {
            s.select_object(ObjectRef::Agent(s.level.agents.len() - 1), None);
        }
    }
}
