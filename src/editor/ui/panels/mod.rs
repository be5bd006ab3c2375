//! The editor's panels, one file each: the toolbar and status bar, the left panel (hero,
//! overlays, tuning, frame times, level), the selection panel, and the dialogs. The objects'
//! panels are in `ui::objects`.
mod dialogs;
mod left;
mod selection;
mod toolbar;

pub use dialogs::{dialogs, restore};
pub use left::left;
pub(in crate::editor::ui) use selection::num;
pub use selection::right;
pub use toolbar::{status_bar, toolbar};
