//! A signal's rename: the name, and every use of it in one edit (each target's signal fields,
//! each delay that waits on it), so the level never holds a name no source defines. Its inverse
//! is the rename back: exact, because a valid level's names are unique and every name a target
//! uses is defined (so no use of the new name existed before).
use crate::level::signal::check_signals;
use crate::level::{Level, LevelProblem, SignalSource};

use super::{Edit, EditError};

/// Renames signal `index` to `name` with its uses; returns the inverse. Refused (the level
/// unchanged) when there is no such signal or the level's rules refuse the new name.
pub(super) fn rename(level: &mut Level, index: usize, name: &str) -> Result<Edit, EditError> {
    let Some(old) = level.signals.get(index).map(|s| s.name.clone()) else {
        return Err(LevelProblem::Signal {
            index,
            why: format!("there is no signal {index}"),
        }
        .into());
    };
    if old == name {
        return Ok(Edit::RenameSignal { index, name: old });
    }
    // Refused before anything changes: a name already used (by a signal, a target or a delay)
    // would be renamed back with the rest if a later check refused the rename.
    let bad = |why: String| Err(LevelProblem::Signal { index, why }.into());
    if name.trim().is_empty() {
        return bad("its name is empty".into());
    }
    if let Some(j) = level.signal_index(name) {
        return bad(format!(
            "its name `{name}` is signal {j}'s too: names are unique"
        ));
    }
    if level.signal_uses().iter().any(|(_, _, n)| *n == name) {
        return bad(format!("`{name}` is named by a target already"));
    }
    rename_uses(level, index, &old, name);
    if let Err(e) = check_signals(level) {
        rename_uses(level, index, name, &old);
        return Err(e.into());
    }
    Ok(Edit::RenameSignal { index, name: old })
}

/// Sets signal `index`'s name to `to` and every use of `from` to `to`.
fn rename_uses(level: &mut Level, index: usize, from: &str, to: &str) {
    level.signals[index].name = to.to_string();
    let delays = level
        .signals
        .iter_mut()
        .filter_map(|s| match &mut s.source {
            SignalSource::After { signal, .. } => Some(signal),
            _ => None,
        });
    for n in delays.filter(|n| *n == from) {
        *n = to.to_string();
    }
    for names in level.signal_uses_mut() {
        for n in names.iter_mut().filter(|n| *n == from) {
            *n = to.to_string();
        }
    }
}
