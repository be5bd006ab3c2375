//! The editor's keyboard shortcuts as values.
//!
//! The editor never reads keys itself: the app's input router (`app::router`) is the one owner of
//! keyboard input and turns a key press into a [`Shortcut`] when the editor has the keyboard (no
//! text field is being edited, the key is not one of the app's own keys, and the mode gives keys
//! to the editor). The editor's UI carries the shortcut out in its next frame
//! (`EditorUi::shortcut`), where the pointer's level position is known. Tests send shortcuts the
//! same way, without a keyboard.
use super::session::Tool;

/// One editor command bound to a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// Ctrl+Z.
    Undo,
    /// Ctrl+Shift+Z or Ctrl+Y.
    Redo,
    /// Ctrl+C: the selection (polygons and object) to the clipboard, the system's too, as level
    /// text.
    Copy,
    /// Ctrl+V: the clipboard at the pointer (level text from the system clipboard when it holds
    /// some, else the editor's own copy).
    Paste,
    /// Ctrl+D: the selection copied and pasted one grid cell off.
    Duplicate,
    /// Ctrl+S: save to the level's file (or ask for one).
    Save,
    /// Ctrl+O: open a level file (after the unsaved-changes prompt).
    Open,
    /// Enter: close the polygon being drawn.
    FinishDrawing,
    /// Backspace: remove the last point drawn, else delete the selection.
    Backspace,
    /// Delete: delete the selection.
    Delete,
    /// Escape: cancel the drawing, else clear the selection.
    Cancel,
    /// G: grid snapping on or off.
    ToggleGrid,
    /// `.`: one simulation tick.
    Step,
    /// V, P, B, T, L: pick a tool.
    Tool(Tool),
}
