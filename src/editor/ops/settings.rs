//! Level-wide settings: the spawn point, the camera and level bounds, the music track. Each edit
//! checks its value with the level's own validator and returns its inverse.
use crate::level::validate::{check_bounds, check_music, check_spawn};
use crate::level::Level;

use super::{Edit, EditError};

/// The level-wide values: spawn, camera and level bounds, music. Returns the inverse.
pub(super) fn settings_edit(level: &mut Level, edit: &Edit) -> Result<Edit, EditError> {
    Ok(match edit {
        Edit::MoveSpawn { to } => {
            check_spawn(*to)?;
            Edit::MoveSpawn {
                to: std::mem::replace(&mut level.spawn, *to),
            }
        }
        Edit::SetMusic { music } => {
            check_music(*music)?;
            Edit::SetMusic {
                music: std::mem::replace(&mut level.music, *music),
            }
        }
        Edit::SetCameraBounds { bounds } => {
            check_bounds("camera_bounds", bounds.as_ref())?;
            Edit::SetCameraBounds {
                bounds: std::mem::replace(&mut level.camera_bounds, *bounds),
            }
        }
        Edit::SetBounds { bounds } => {
            check_bounds("bounds", bounds.as_ref())?;
            level.check_inside(*bounds)?;
            Edit::SetBounds {
                bounds: std::mem::replace(&mut level.bounds, *bounds),
            }
        }
        // `apply` sends each family its own variants only.
        _ => unreachable!("settings_edit got {edit:?}"),
    })
}
