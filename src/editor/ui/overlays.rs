//! The view's collision overlays: which layers of which collider's mesh the editor draws over the
//! level, the one menu that toggles them, and their form in the user's settings file.
//!
//! Every layer is off by default: the view shows the level as the player sees it, plus the
//! selection and its handles. This module only describes the choice; the app saves it
//! (`app::settings`) and the view draws it (`ui::view`). It must not depend on the app.
use egui::{RichText, Ui};
use serde::{Deserialize, Serialize};

use crate::render::collision_overlay::MeshLayers;

/// The layers drawn of one collider's mesh.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OverlayLayers {
    /// Every triangle's edges.
    pub triangles: bool,
    /// Solid and one-way faces, filled.
    pub solid: bool,
    /// The inflated obstacles: where the collider's centre cannot go.
    pub inflated: bool,
}

impl From<OverlayLayers> for MeshLayers {
    fn from(l: OverlayLayers) -> MeshLayers {
        MeshLayers {
            triangles: l.triangles,
            solid: l.solid,
            inflated: l.inflated,
        }
    }
}

/// The overlays of the hero's two colliders. The default draws nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Overlays {
    /// The standing collider's mesh (`ColliderId(0)`).
    pub standing: OverlayLayers,
    /// The crouching collider's mesh (`ColliderId(1)`).
    pub crouching: OverlayLayers,
}

impl Overlays {
    /// The layers per collider, indexed by `ColliderId`.
    pub fn per_collider(&self) -> [MeshLayers; 2] {
        [self.standing.into(), self.crouching.into()]
    }

    /// Whether any layer of any collider is drawn.
    pub fn any(&self) -> bool {
        self.per_collider().iter().any(|l| l.any())
    }

    /// The overlay menu's entries: a checkbox per layer per collider. Returns whether one
    /// changed.
    pub fn menu(&mut self, ui: &mut Ui) -> bool {
        let mut changed = false;
        for (name, l) in [
            ("standing collider", &mut self.standing),
            ("crouching collider", &mut self.crouching),
        ] {
            ui.label(RichText::new(name).strong());
            changed |= ui.checkbox(&mut l.triangles, "triangles").changed();
            changed |= ui.checkbox(&mut l.solid, "solid faces").changed();
            changed |= ui.checkbox(&mut l.inflated, "inflated outlines").changed();
        }
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_drawn_by_default_and_the_choice_reads_back() {
        assert!(!Overlays::default().any());
        let mut o = Overlays::default();
        o.crouching.inflated = true;
        assert!(o.any());
        assert_eq!(o.per_collider()[0], MeshLayers::NONE);
        assert!(o.per_collider()[1].inflated && !o.per_collider()[1].triangles);
        let text = ron::to_string(&o).unwrap();
        assert_eq!(ron::from_str::<Overlays>(&text).unwrap(), o);
        // A file that names one layer leaves the others off.
        let o: Overlays = ron::from_str("(standing: (triangles: true))").unwrap();
        assert!(
            o.standing.triangles && !o.standing.solid && o.crouching == OverlayLayers::default()
        );
    }
}
