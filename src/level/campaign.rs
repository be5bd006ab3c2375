//! The campaign: the sequence of levels a player plays through (`levels/campaign.ron`), and the
//! player's progress through it (`progress.ron` in the user's data directory).
//!
//! # The campaign file
//! ```ron
//! (
//!     name: "Tessera",
//!     levels: ["campaign/01_first_steps.ron", "campaign/02_hills.ron"],
//! )
//! ```
//! Level paths are relative to the campaign file's folder. Loading checks that every level loads
//! and has a goal (a level with no goal could never be finished); the error names the campaign
//! file, the level's index and its file.
//!
//! # Progress
//! Per level file (as written in the campaign), the best time (in ticks) and the fewest deaths
//! of a finished run. Written atomically ([`write_atomic`]); a missing file is no progress; an
//! unreadable one is reported and then treated as none (progress is never worth refusing to play).
//!
//! Must never depend on window, GPU, audio or input crates.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::FileError;
use super::file::{read_ron, to_ron, write_atomic};
use super::load::load_level;
use super::Level;

/// The campaign file the game plays by default, in the data directory.
pub const CAMPAIGN_FILE: &str = "levels/campaign.ron";
/// The progress file's name in the user's data directory.
pub const PROGRESS_FILE: &str = "progress.ron";

/// A campaign file's contents.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignFile {
    /// Shown on the title screen.
    pub name: String,
    /// Level files in playing order, relative to the campaign file's folder.
    pub levels: Vec<String>,
}

/// A loaded campaign: its levels, each checked.
#[derive(Clone, Debug)]
pub struct Campaign {
    /// The campaign file.
    pub path: PathBuf,
    /// Its name.
    pub name: String,
    /// The levels in order: the name as written, the resolved path and the level.
    pub levels: Vec<CampaignLevel>,
}

/// One level of a [`Campaign`].
#[derive(Clone, Debug)]
pub struct CampaignLevel {
    /// As written in the campaign file (the key of its progress).
    pub name: String,
    /// Its file.
    pub path: PathBuf,
    /// The level.
    pub level: Level,
}

impl CampaignLevel {
    /// Its shipped replay: `replays/NAME.ron` beside the level file (each campaign level ships
    /// one that reaches its goal with no death, checked by `tests/it/campaign.rs`).
    pub fn replay_path(&self) -> PathBuf {
        let stem = self.path.file_stem().unwrap_or_default();
        let dir = self.path.parent().unwrap_or(Path::new(""));
        dir.join("replays").join(stem).with_extension("ron")
    }
}

/// Why a campaign cannot be played.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The campaign file itself.
    #[error(transparent)]
    File(#[from] FileError),
    /// It lists no level.
    #[error("{}: the campaign lists no level", .path.display())]
    Empty {
        /// The campaign file.
        path: PathBuf,
    },
    /// A level does not load.
    #[error("{}: level {index} ({name}): {why}", .path.display())]
    Level {
        /// The campaign file.
        path: PathBuf,
        /// Index in `levels`.
        index: usize,
        /// As written.
        name: String,
        /// What is wrong.
        why: String,
    },
}

impl Campaign {
    /// Loads the campaign at `path` and every level it lists.
    pub fn load(path: &Path) -> Result<Campaign, CampaignError> {
        let file: CampaignFile = read_ron(path)?;
        if file.levels.is_empty() {
            return Err(CampaignError::Empty {
                path: path.to_path_buf(),
            });
        }
        let dir = path.parent().unwrap_or(Path::new(""));
        let mut levels = Vec::with_capacity(file.levels.len());
        for (index, name) in file.levels.iter().enumerate() {
            let fail = |why: String| CampaignError::Level {
                path: path.to_path_buf(),
                index,
                name: name.clone(),
                why,
            };
            let level_path = dir.join(name);
            let level = load_level(&level_path).map_err(|e| fail(e.to_string()))?;
            if level.goal.is_none() {
                return Err(fail(
                    "the level has no goal, so it could never be finished".into(),
                ));
            }
            levels.push(CampaignLevel {
                name: name.clone(),
                path: level_path,
                level,
            });
        }
        Ok(Campaign {
            path: path.to_path_buf(),
            name: file.name,
            levels,
        })
    }

    /// The level to continue with: the first not yet finished, else the last.
    pub fn next_to_play(&self, progress: &Progress) -> usize {
        self.levels
            .iter()
            .position(|l| !progress.levels.contains_key(&l.name))
            .unwrap_or(self.levels.len() - 1)
    }

    /// Whether level `index` may be chosen: finished before, or the first unfinished one.
    pub fn unlocked(&self, progress: &Progress, index: usize) -> bool {
        index <= self.next_to_play(progress)
    }
}

/// The best finished run of a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The fastest finish, in simulation ticks (120 a second).
    pub best_ticks: u64,
    /// The fewest deaths in a finished run.
    pub best_deaths: u32,
}

/// The player's progress: a record per finished level.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Progress {
    /// By level name as written in the campaign file.
    #[serde(default)]
    pub levels: BTreeMap<String, Record>,
}

impl Progress {
    /// Reads `path`: no file is no progress; a file that does not read is reported in the
    /// second value and also taken as none.
    pub fn load(path: &Path) -> (Progress, Option<FileError>) {
        if !path.exists() {
            return (Progress::default(), None);
        }
        match read_ron(path) {
            Ok(p) => (p, None),
            Err(e) => (Progress::default(), Some(e)),
        }
    }

    /// Writes `path` atomically (its folder is made if missing).
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|error| FileError::Write {
                path: path.to_path_buf(),
                error,
            })?;
        }
        write_atomic(path, to_ron(path, self, 2)?.as_bytes())
    }

    /// Records a finished run of `level`: keeps the best time and the fewest deaths separately.
    /// Returns the record before this run (`None`: the first finish).
    pub fn finish(&mut self, level: &str, ticks: u64, deaths: u32) -> Option<Record> {
        let before = self.levels.get(level).copied();
        let r = self.levels.entry(level.to_string()).or_insert(Record {
            best_ticks: ticks,
            best_deaths: deaths,
        });
        r.best_ticks = r.best_ticks.min(ticks);
        r.best_deaths = r.best_deaths.min(deaths);
        before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::file::tests::scratch_dir;

    #[test]
    fn the_shipped_campaign_loads_with_eight_levels_each_with_a_goal() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(CAMPAIGN_FILE);
        let c = Campaign::load(&path).unwrap();
        assert_eq!(c.levels.len(), 8);
        assert!(c.levels.iter().all(|l| l.level.goal.is_some()));
    }

    #[test]
    fn a_missing_level_and_a_level_without_a_goal_are_named() {
        let d = scratch_dir("campaign");
        std::fs::write(
            d.join("a.ron"),
            "(name: \"a\", polygons: [], spawn: (0.0, 0.0))",
        )
        .unwrap();
        let c = d.join("campaign.ron");
        std::fs::write(&c, "(name: \"c\", levels: [\"nope.ron\"])").unwrap();
        let e = Campaign::load(&c).unwrap_err().to_string();
        assert!(e.contains("campaign.ron: level 0 (nope.ron):"), "{e}");
        assert!(e.contains("cannot read"), "{e}");
        std::fs::write(&c, "(name: \"c\", levels: [\"a.ron\"])").unwrap();
        let e = Campaign::load(&c).unwrap_err().to_string();
        assert!(e.contains("level 0 (a.ron): the level has no goal"), "{e}");
        std::fs::write(&c, "(name: \"c\", levels: [])").unwrap();
        let e = Campaign::load(&c).unwrap_err().to_string();
        assert!(e.ends_with("the campaign lists no level"), "{e}");
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn progress_keeps_the_best_time_and_the_fewest_deaths_and_round_trips() {
        let d = scratch_dir("progress");
        let path = d.join("sub").join(PROGRESS_FILE);
        let (mut p, e) = Progress::load(&path);
        assert!(e.is_none() && p.levels.is_empty());
        assert_eq!(p.finish("one.ron", 1000, 3), None);
        assert_eq!(
            p.finish("one.ron", 1200, 1),
            Some(Record {
                best_ticks: 1000,
                best_deaths: 3
            })
        );
        assert_eq!(
            p.levels["one.ron"],
            Record {
                best_ticks: 1000,
                best_deaths: 1
            }
        );
        p.save(&path).unwrap();
        assert_eq!(Progress::load(&path).0, p);
        std::fs::write(&path, "(levels: oops)").unwrap();
        let (back, e) = Progress::load(&path);
        assert!(back.levels.is_empty());
        assert!(e.unwrap().to_string().contains(PROGRESS_FILE));
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_next_level_is_the_first_unfinished_and_later_ones_are_locked() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(CAMPAIGN_FILE);
        let c = Campaign::load(&path).unwrap();
        let mut p = Progress::default();
        assert_eq!(c.next_to_play(&p), 0);
        assert!(c.unlocked(&p, 0) && !c.unlocked(&p, 1));
        p.finish(&c.levels[0].name, 10, 0);
        assert_eq!(c.next_to_play(&p), 1);
        assert!(c.unlocked(&p, 1) && !c.unlocked(&p, 2));
        for l in &c.levels {
            p.finish(&l.name, 10, 0);
        }
        // All finished: the last one.
        assert_eq!(c.next_to_play(&p), c.levels.len() - 1);
    }
}
