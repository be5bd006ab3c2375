//! RON data files on disk: reading with file + line:column errors, writing atomically.
//!
//! Reading enables RON's `implicit_some` extension, so hand-written files may write an optional
//! value either as `Some(3.0)` or as `3.0`. Writing always spells `Some(..)` out, so saved files
//! load in any RON reader.
//!
//! Writing goes to a temporary file in the target's directory, which is flushed to disk and then
//! renamed over the target: a crash or a full disk leaves either the old file or the new one,
//! never a truncated mix. (Writing in place was rejected for that reason; a temp file elsewhere,
//! e.g. in `/tmp`, was rejected because a rename across file systems is not atomic.)
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::error::FileError;
use super::limits::MAX_FILE_BYTES;

/// The RON options every loader uses.
fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Parses RON text; errors name `path` and the line and column.
pub fn parse_ron<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, FileError> {
    ron_options()
        .from_str(text)
        .map_err(|e: ron::error::SpannedError| FileError::Syntax {
            path: path.to_path_buf(),
            line: e.span.start.line,
            column: e.span.start.col,
            message: e.code.to_string(),
        })
}

/// Reads a file as UTF-8 text; the error names the file. A file larger than
/// [`MAX_FILE_BYTES`] is refused before its contents are read (by its size, and by reading at
/// most one byte more than the limit, for files whose size is not known in advance).
pub fn read_text(path: &Path) -> Result<String, FileError> {
    read_text_limited(path, MAX_FILE_BYTES)
}

fn read_text_limited(path: &Path, limit: u64) -> Result<String, FileError> {
    let read_error = |error| FileError::Read {
        path: path.to_path_buf(),
        error,
    };
    let file = File::open(path).map_err(read_error)?;
    let size = file.metadata().map_err(read_error)?.len();
    let too_large = |bytes| FileError::TooLarge {
        path: path.to_path_buf(),
        bytes,
    };
    if size > limit {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        read_error(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not UTF-8 text: {}", e.utf8_error()),
        ))
    })
}

/// Reads and parses a RON file.
pub fn read_ron<T: DeserializeOwned>(path: &Path) -> Result<T, FileError> {
    parse_ron(path, &read_text(path)?)
}

/// Serializes `value` as pretty RON with 4-space indents. Lists nested deeper than `depth` are
/// written on one line (e.g. one polygon or replay segment per line).
pub fn to_ron<T: Serialize>(path: &Path, value: &T, depth: usize) -> Result<String, FileError> {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(depth)
        .indentor("    ".to_string());
    let mut text = ron::ser::to_string_pretty(value, config).map_err(|e| FileError::Serialize {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    text.push('\n');
    Ok(text)
}

/// Replaces `path` with `contents` atomically: the file holds either its previous contents or all
/// of `contents`, whatever happens. Keeps the previous file's permissions. If `path` is a symbolic
/// link, the link itself is replaced by a regular file.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    replace_with(path, |f| f.write_all(contents))
}

/// Distinguishes temporary files of concurrent saves within one process.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// The atomic replace, with the writing step as a parameter so tests can make it fail midway.
fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), FileError> {
    let err = |error| FileError::Write {
        path: path.to_path_buf(),
        error,
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| err(std::io::Error::other("the path has no file name")))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}-{}",
        name.to_string_lossy(),
        std::process::id(),
        TEMP_COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let result = (|| {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        if let Ok(meta) = fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        write(&mut file)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        // Best effort: the temp file may not exist (create failed); the error that matters is `e`.
        let _ = fs::remove_file(&tmp);
        return Err(err(e));
    }
    // Make the rename itself durable. The new file is already in place, so a failure here is not
    // reported as a failed save (some file systems refuse to sync directories).
    if let Ok(d) = File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A fresh empty directory under the system temp dir (removed by the caller or left for the OS).
    pub(crate) fn scratch_dir(tag: &str) -> PathBuf {
        static N: AtomicU64 = AtomicU64::new(0);
        let d = std::env::temp_dir().join(format!(
            "tessera-test-{tag}-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_file_over_the_size_limit_is_refused_before_it_is_read() {
        let d = scratch_dir("limit");
        let f = d.join("big.ron");
        fs::write(&f, "x".repeat(101)).unwrap();
        assert_eq!(read_text_limited(&f, 101).unwrap().len(), 101);
        let e = read_text_limited(&f, 100).unwrap_err();
        assert!(matches!(e, FileError::TooLarge { bytes: 101, .. }), "{e:?}");
        // The real limit, on a sparse file of one byte more: refused by its size, nothing read.
        let huge = d.join("huge.ron");
        let file = File::create(&huge).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        let e = read_text(&huge).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{}: 67108865 bytes, more than the limit of 67108864 bytes (64 MiB) per data file",
                huge.display()
            )
        );
        fs::write(&f, [b'(', 0xff, b')']).unwrap();
        let e = read_text(&f).unwrap_err();
        assert!(e.to_string().contains("not UTF-8 text"), "{e}");
        fs::remove_dir_all(&d).unwrap();
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn write_atomic_creates_and_replaces() {
        let d = scratch_dir("atomic");
        let p = d.join("a.ron");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "two");
        assert_eq!(entries(&d), vec!["a.ron"]);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn failed_write_keeps_the_previous_file_and_no_temp() {
        let d = scratch_dir("atomic-fail");
        let p = d.join("a.ron");
        write_atomic(&p, b"previous").unwrap();
        let e = replace_with(&p, |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        })
        .unwrap_err();
        assert!(e.to_string().contains("a.ron"), "{e}");
        assert!(e.to_string().contains("disk full"), "{e}");
        assert_eq!(fs::read_to_string(&p).unwrap(), "previous");
        assert_eq!(entries(&d), vec!["a.ron"]);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn write_over_a_directory_fails_cleanly() {
        let d = scratch_dir("atomic-dir");
        let p = d.join("sub");
        fs::create_dir(&p).unwrap();
        fs::write(p.join("keep"), "x").unwrap();
        let e = write_atomic(&p, b"data").unwrap_err();
        assert!(matches!(e, FileError::Write { .. }), "{e}");
        assert_eq!(fs::read_to_string(p.join("keep")).unwrap(), "x");
        assert_eq!(entries(&d), vec!["sub"]);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let e = parse_ron::<Vec<u32>>(Path::new("x.ron"), "[\n  1,\n  oops,\n]").unwrap_err();
        match &e {
            FileError::Syntax { line, column, .. } => assert_eq!((*line, *column), (3, 3)),
            other => panic!("unexpected {other:?}"),
        }
        assert!(e.to_string().starts_with("x.ron:3:3: "), "{e}");
    }

    #[test]
    fn implicit_some_is_accepted_on_read() {
        let v: Vec<Option<u32>> = parse_ron(Path::new("x"), "[Some(1), 2, None]").unwrap();
        assert_eq!(v, vec![Some(1), Some(2), None]);
    }

    #[test]
    fn missing_file_is_named() {
        let e = read_ron::<u32>(Path::new("no/such/file.ron")).unwrap_err();
        assert!(
            e.to_string().starts_with("no/such/file.ron: cannot read"),
            "{e}"
        );
    }
}
