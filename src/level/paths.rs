//! Where files live: the game's data directory (shipped, read-only) and the user's directories
//! (settings, editor recovery files; written by the game).
//!
//! # The data directory
//! The directory that holds `assets/` and `levels/`. Every command finds its default files
//! (`levels/default.ron`, `assets/tuning.ron`, `assets/bindings.ron`) through one [`DataDir`],
//! which tries these places in order:
//! 1. an explicit directory: `--data-dir DIR`, else the `TESSERA_DATA` environment variable (when
//!    given, it is the only place searched: an explicit choice never silently falls back);
//! 2. the directory holding the executable (the release layout: the archive unpacks the binary
//!    beside `assets/` and `levels/`);
//! 3. the working directory;
//! 4. in development builds (`debug_assertions`) only, the crate's directory
//!    (`CARGO_MANIFEST_DIR`), so `target/debug/tessera` works from anywhere inside or outside the
//!    repository.
//!
//! A file is taken from the first of these places that has it; a missing file is an error that
//! names every path tried ([`MissingDataFile`]).
//!
//! # The user's directories
//! Settings (bindings chosen in game, volumes, window size) and the editor's recovery files are
//! written to the platform's config and data directories ([`UserDirs`], from the `directories`
//! crate: `~/.config/tessera` and `~/.local/share/tessera` on Linux, `%APPDATA%\tessera\config`
//! and `%APPDATA%\tessera\data` on Windows), never next to the executable, which may be read-only
//! (an unpacked archive in `Program Files`, a system package). `TESSERA_USER_DIR` replaces both
//! with one directory (tests, portable installs).
//!
//! # Saving levels: never into the install directory
//! The level editor saves a level in place, except a level that ships with the game: a file inside
//! the directory holding the executable (the release layout, where the archive unpacked
//! `levels/` beside the binary). That is how an unpacked archive is told from a development
//! checkout: there the executable is `target/debug/tessera` or `target/release/tessera`, and the
//! levels are found in the working or crate directory, outside the executable's directory, so they
//! are saved in place as a designer expects. [`SavePlaces::target`] sends a save of a shipped level
//! to the user's copy in [`UserDirs::levels_dir`] (`~/.local/share/tessera/levels/` on Linux),
//! keeping its path below `levels/`; the editor shows that path.
//!
//! Plain `std` and `directories`: no window, GPU, audio or input crates.
use std::fmt;
use std::path::{Path, PathBuf};

/// The environment variable that names the data directory when `--data-dir` is not given.
pub const DATA_DIR_ENV: &str = "TESSERA_DATA";
/// The environment variable that replaces the platform's user directories with one directory.
pub const USER_DIR_ENV: &str = "TESSERA_USER_DIR";

/// The level played when none is named, relative to the data directory.
pub const DEFAULT_LEVEL: &str = "levels/default.ron";
/// The movement tuning file, relative to the data directory (optional: without it, the built-in
/// defaults).
pub const TUNING_FILE: &str = "assets/tuning.ron";
/// The shipped key and gamepad bindings, relative to the data directory (optional).
pub const BINDINGS_FILE: &str = "assets/bindings.ron";

/// The material table (look and footstep sound per surface material), relative to the data
/// directory.
pub const MATERIALS_FILE: &str = "assets/materials.ron";

/// Why a place is searched for data files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataOrigin {
    /// `--data-dir` or `TESSERA_DATA`.
    Explicit,
    /// The directory holding the executable.
    Executable,
    /// The working directory.
    WorkingDir,
    /// The crate's directory (development builds only).
    Crate,
}

impl fmt::Display for DataOrigin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DataOrigin::Explicit => "--data-dir / TESSERA_DATA",
            DataOrigin::Executable => "beside the executable",
            DataOrigin::WorkingDir => "working directory",
            DataOrigin::Crate => "crate directory (development build)",
        })
    }
}

/// A data file was found in none of the places searched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: not found; looked for {}", list(searched))]
pub struct MissingDataFile {
    /// The file, relative to a data directory.
    pub name: String,
    /// Every path tried, in order.
    pub searched: Vec<PathBuf>,
}

fn list(paths: &[PathBuf]) -> String {
    if paths.is_empty() {
        return "it nowhere (no data directory could be determined)".to_string();
    }
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The ordered places the game's data files are looked up in (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataDir {
    places: Vec<(PathBuf, DataOrigin)>,
}

impl DataDir {
    /// The data directory for this process: `explicit` (from `--data-dir`), else
    /// `TESSERA_DATA`, else the executable's directory, the working directory and (development
    /// builds) the crate's directory.
    pub fn resolve(explicit: Option<&Path>) -> DataDir {
        let env = std::env::var_os(DATA_DIR_ENV).filter(|v| !v.is_empty());
        let explicit = explicit.map(Path::to_path_buf).or(env.map(PathBuf::from));
        if let Some(dir) = explicit {
            return DataDir::at(dir);
        }
        let mut places = Vec::new();
        if let Some(dir) = std::env::current_exe()
            .ok()
            .and_then(|exe| exe.parent().map(Path::to_path_buf))
        {
            places.push((dir, DataOrigin::Executable));
        }
        if let Ok(dir) = std::env::current_dir() {
            places.push((dir, DataOrigin::WorkingDir));
        }
        if cfg!(debug_assertions) {
            places.push((PathBuf::from(env!("CARGO_MANIFEST_DIR")), DataOrigin::Crate));
        }
        DataDir::from_places(places)
    }

    /// Exactly one directory (an explicit choice).
    pub fn at(dir: impl Into<PathBuf>) -> DataDir {
        DataDir::from_places(vec![(dir.into(), DataOrigin::Explicit)])
    }

    /// These places in this order (the same directory twice is searched once).
    pub fn from_places(places: Vec<(PathBuf, DataOrigin)>) -> DataDir {
        let mut kept: Vec<(PathBuf, DataOrigin)> = Vec::with_capacity(places.len());
        for (dir, origin) in places {
            let same = |d: &PathBuf| {
                d == &dir
                    || matches!(
                        (d.canonicalize(), dir.canonicalize()),
                        (Ok(a), Ok(b)) if a == b
                    )
            };
            if !kept.iter().any(|(d, _)| same(d)) {
                kept.push((dir, origin));
            }
        }
        DataDir { places: kept }
    }

    /// The places searched, in order.
    pub fn places(&self) -> &[(PathBuf, DataOrigin)] {
        &self.places
    }

    /// The first place holding `name` (a path relative to a data directory, `/`-separated).
    pub fn find(&self, name: &str) -> Result<PathBuf, MissingDataFile> {
        self.find_optional(name).ok_or_else(|| MissingDataFile {
            name: name.to_string(),
            searched: self.places.iter().map(|(d, _)| d.join(name)).collect(),
        })
    }

    /// The first place holding `name`, or `None` (for optional files such as the tuning file).
    pub fn find_optional(&self, name: &str) -> Option<PathBuf> {
        self.places
            .iter()
            .map(|(d, _)| d.join(name))
            .find(|p| p.is_file())
    }

    /// A file the user named on the command line: as given when it exists (relative to the working
    /// directory, as usual); else, when relative, the first data place holding it (so
    /// `--level levels/tour.ron` works from any directory); else as given, so that loading it
    /// fails naming the path the user typed.
    pub fn user_file(&self, path: &Path) -> PathBuf {
        if path.exists() || path.is_absolute() {
            return path.to_path_buf();
        }
        self.places
            .iter()
            .map(|(d, _)| d.join(path))
            .find(|p| p.is_file())
            .unwrap_or_else(|| path.to_path_buf())
    }
}

/// The user's writable directories: settings and recovery files (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserDirs {
    /// Settings: `settings.ron` (volumes, window size), `bindings.ron` (bindings chosen in game).
    pub config: PathBuf,
    /// Data the game writes for the user: the editor's recovery files (`recovery/`).
    pub data: PathBuf,
}

impl UserDirs {
    /// `TESSERA_USER_DIR` (both in one directory) if set, else the platform's directories for
    /// Tessera; `None` when the platform has no home directory to put them in.
    pub fn resolve() -> Option<UserDirs> {
        if let Some(dir) = std::env::var_os(USER_DIR_ENV).filter(|v| !v.is_empty()) {
            return Some(UserDirs::at(PathBuf::from(dir)));
        }
        directories::ProjectDirs::from("", "", "tessera").map(|p| UserDirs {
            config: p.config_dir().to_path_buf(),
            data: p.data_dir().to_path_buf(),
        })
    }

    /// Config and data both under `dir` (`dir/config`, `dir/data`).
    pub fn at(dir: impl Into<PathBuf>) -> UserDirs {
        let dir = dir.into();
        UserDirs {
            config: dir.join("config"),
            data: dir.join("data"),
        }
    }

    /// The user's settings file.
    pub fn settings_file(&self) -> PathBuf {
        self.config.join("settings.ron")
    }

    /// Key and gamepad bindings chosen in game (they replace the shipped `assets/bindings.ron`).
    pub fn bindings_file(&self) -> PathBuf {
        self.config.join("bindings.ron")
    }

    /// Where the level editor keeps recovery files.
    pub fn recovery_dir(&self) -> PathBuf {
        self.data.join("recovery")
    }

    /// Where the level editor saves the user's copies of levels that ship with the game.
    pub fn levels_dir(&self) -> PathBuf {
        self.data.join("levels")
    }
}

/// Where the level editor may write (see the module docs): never inside the install directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SavePlaces {
    /// The directory holding the executable, whose files are never written (`None`: unknown, then
    /// every level is saved in place).
    pub install: Option<PathBuf>,
    /// Where copies of shipped levels go ([`UserDirs::levels_dir`]; `None`: no user directory,
    /// then the editor asks for a path).
    pub user_levels: Option<PathBuf>,
}

/// Where a save of a level file goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SaveTarget {
    /// The file itself (outside the install directory).
    InPlace,
    /// The file ships with the game: this copy in the user's levels directory instead.
    Copy(PathBuf),
    /// The file ships with the game and there is no user directory to put a copy in.
    NoPlace,
}

impl SavePlaces {
    /// For this process: the executable's directory and the user's levels directory
    /// ([`UserDirs::resolve`], so `TESSERA_USER_DIR` applies).
    pub fn resolve() -> SavePlaces {
        SavePlaces {
            install: std::env::current_exe()
                .ok()
                .and_then(|exe| exe.parent().map(Path::to_path_buf)),
            user_levels: UserDirs::resolve().map(|u| u.levels_dir()),
        }
    }

    /// Where a save meant for `path` goes. A file inside the install directory (compared after
    /// resolving links and `..`, so `./levels/../levels/x.ron` and symlinked directories count)
    /// goes to the user's levels directory, under its path below the install directory's `levels/`
    /// (`INSTALL/levels/a/b.ron` → `USER/levels/a/b.ron`; any other file keeps its whole relative
    /// path).
    pub fn target(&self, path: &Path) -> SaveTarget {
        let Some(install) = self.install.as_deref().and_then(|d| d.canonicalize().ok()) else {
            return SaveTarget::InPlace;
        };
        let Some(rel) =
            real_path(path).and_then(|p| p.strip_prefix(&install).ok().map(Path::to_path_buf))
        else {
            return SaveTarget::InPlace;
        };
        let rel = rel
            .strip_prefix("levels")
            .map_or(rel.clone(), Path::to_path_buf);
        match &self.user_levels {
            Some(dir) => SaveTarget::Copy(dir.join(rel)),
            None => SaveTarget::NoPlace,
        }
    }
}

/// `path` with links and `..` resolved: the file's own if it exists, else its directory's joined
/// with the name (a new file). `None` when neither exists.
fn real_path(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = path.canonicalize() {
        return Some(p);
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    Some(dir.canonicalize().ok()?.join(path.file_name()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tessera-paths-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn the_first_place_holding_a_file_wins() {
        let a = temp("a");
        let b = temp("b");
        std::fs::create_dir_all(b.join("assets")).unwrap();
        std::fs::write(b.join(TUNING_FILE), "()").unwrap();
        std::fs::create_dir_all(a.join("assets")).unwrap();
        let data = DataDir::from_places(vec![
            (a.clone(), DataOrigin::Executable),
            (b.clone(), DataOrigin::WorkingDir),
        ]);
        assert_eq!(data.find(TUNING_FILE).unwrap(), b.join(TUNING_FILE));
        std::fs::write(a.join(TUNING_FILE), "()").unwrap();
        assert_eq!(data.find(TUNING_FILE).unwrap(), a.join(TUNING_FILE));
    }

    #[test]
    fn a_missing_file_names_every_place_tried() {
        let a = temp("missing-a");
        let b = temp("missing-b");
        let data = DataDir::from_places(vec![
            (a.clone(), DataOrigin::Executable),
            (b.clone(), DataOrigin::WorkingDir),
            (a.clone(), DataOrigin::Crate),
        ]);
        let e = data.find(DEFAULT_LEVEL).unwrap_err();
        assert_eq!(
            e.searched,
            vec![a.join(DEFAULT_LEVEL), b.join(DEFAULT_LEVEL)]
        );
        let msg = e.to_string();
        assert!(
            msg.starts_with("levels/default.ron: not found; looked for "),
            "{msg}"
        );
        assert!(
            msg.contains(&a.join(DEFAULT_LEVEL).display().to_string()),
            "{msg}"
        );
        assert!(
            msg.contains(&b.join(DEFAULT_LEVEL).display().to_string()),
            "{msg}"
        );
        assert_eq!(data.find_optional(TUNING_FILE), None);
    }

    #[test]
    fn an_explicit_directory_is_the_only_place() {
        let data = DataDir::resolve(Some(Path::new("/nonexistent/tessera-data")));
        assert_eq!(
            data.places(),
            &[(
                PathBuf::from("/nonexistent/tessera-data"),
                DataOrigin::Explicit
            )]
        );
    }

    #[test]
    fn without_an_explicit_directory_the_executable_comes_before_the_working_directory() {
        // (TESSERA_DATA is not set in the test environment.)
        if std::env::var_os(DATA_DIR_ENV).is_some() {
            return;
        }
        let data = DataDir::resolve(None);
        let origins: Vec<DataOrigin> = data.places().iter().map(|(_, o)| *o).collect();
        assert_eq!(origins.first(), Some(&DataOrigin::Executable));
        // The working directory and the crate directory are the same in `cargo test`, so the crate
        // directory is searched once, as the working directory.
        assert!(origins.contains(&DataOrigin::WorkingDir), "{origins:?}");
        // The shipped level is found (the test runs inside the repository).
        assert!(data.find(DEFAULT_LEVEL).is_ok());
    }

    #[test]
    fn user_files_fall_back_to_the_data_directory() {
        let a = temp("user");
        std::fs::create_dir_all(a.join("levels")).unwrap();
        std::fs::write(a.join("levels/x.ron"), "()").unwrap();
        let data = DataDir::at(&a);
        assert_eq!(
            data.user_file(Path::new("levels/x.ron")),
            a.join("levels/x.ron")
        );
        assert_eq!(
            data.user_file(Path::new("levels/none.ron")),
            PathBuf::from("levels/none.ron")
        );
    }

    #[test]
    fn user_dirs_keep_settings_and_recovery_apart() {
        let u = UserDirs::at("/tmp/u");
        assert_eq!(
            u.settings_file(),
            PathBuf::from("/tmp/u/config/settings.ron")
        );
        assert_eq!(
            u.bindings_file(),
            PathBuf::from("/tmp/u/config/bindings.ron")
        );
        assert_eq!(u.recovery_dir(), PathBuf::from("/tmp/u/data/recovery"));
        assert_eq!(u.levels_dir(), PathBuf::from("/tmp/u/data/levels"));
    }

    #[test]
    fn shipped_levels_are_saved_to_the_users_copy_and_others_in_place() {
        // An unpacked archive: the executable beside `levels/`.
        let archive = temp("archive");
        std::fs::create_dir_all(archive.join("levels/extra")).unwrap();
        std::fs::write(archive.join("tessera"), "").unwrap();
        std::fs::write(archive.join("levels/default.ron"), "()").unwrap();
        let user = UserDirs::at(temp("archive-user"));
        let places = SavePlaces {
            install: Some(archive.clone()),
            user_levels: Some(user.levels_dir()),
        };
        assert_eq!(
            places.target(&archive.join("levels/default.ron")),
            SaveTarget::Copy(user.levels_dir().join("default.ron"))
        );
        // A new file inside the install directory, a roundabout path, a file outside `levels/`.
        assert_eq!(
            places.target(&archive.join("levels/extra/new.ron")),
            SaveTarget::Copy(user.levels_dir().join("extra/new.ron"))
        );
        assert_eq!(
            places.target(&archive.join("levels/extra/../default.ron")),
            SaveTarget::Copy(user.levels_dir().join("default.ron"))
        );
        assert_eq!(
            places.target(&archive.join("mine.ron")),
            SaveTarget::Copy(user.levels_dir().join("mine.ron"))
        );
        // Outside the install directory (a development checkout's levels, the user's own files).
        let elsewhere = temp("archive-elsewhere");
        assert_eq!(places.target(&elsewhere.join("l.ron")), SaveTarget::InPlace);
        assert_eq!(
            places.target(&user.levels_dir().join("default.ron")),
            SaveTarget::InPlace
        );
        // No user directory: nowhere to put the copy.
        let no_user = SavePlaces {
            user_levels: None,
            ..places.clone()
        };
        assert_eq!(
            no_user.target(&archive.join("levels/default.ron")),
            SaveTarget::NoPlace
        );
        // Unknown install directory: in place.
        assert_eq!(
            SavePlaces::default().target(&archive.join("levels/default.ron")),
            SaveTarget::InPlace
        );
    }

    #[test]
    fn in_a_development_checkout_the_shipped_levels_are_saved_in_place() {
        // The test executable lives in `target/debug/deps`; the repository's levels are outside.
        let places = SavePlaces::resolve();
        assert!(places.install.is_some());
        let level = Path::new(env!("CARGO_MANIFEST_DIR")).join(DEFAULT_LEVEL);
        assert_eq!(places.target(&level), SaveTarget::InPlace);
    }
}
