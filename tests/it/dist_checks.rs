//! The checks `scripts/dist` makes of the Windows build (`scripts/dist-checks`), on fixtures in
//! `tests/fixtures/dist/`: a Windows build can only be made here with Debian's MinGW toolchain and
//! wine (`scripts/dist --check`), so these prove that the checks themselves refuse what they must.
//!
//! - `imports`: `objdump -p` output (`objdump-p.txt`, shaped like the real tool's) whose DLLs
//!   all ship with Windows passes, `mmdevapi.dll` included: the audio backend (WASAPI) imports it
//!   since sound landed, and the allow-list refused it, so the Windows archive did not build at
//!   all and no check noticed. A MinGW runtime DLL added to the same output is refused by name,
//!   and so is output with no import table at all (not objdump's output for an executable).
//! - `traces`: identical traces pass; a trace one ulp off in one position, or one cut short,
//!   fails. Before, `scripts/dist --check` only printed a note when the Windows trace differed and
//!   exited 0, though identical results on both platforms are what the README promises.
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/dist").join(name)
}

fn dist_checks(args: &[&Path], stdin: Option<&str>) -> Output {
    use std::io::Write;
    let mut c = Command::new("bash");
    c.arg(root().join("scripts/dist-checks")).args(args);
    c.stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = c.spawn().expect("bash runs scripts/dist-checks");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn imports(objdump: &str) -> Output {
    dist_checks(&[Path::new("imports")], Some(objdump))
}

fn traces(linux: &str, windows: &str) -> Output {
    dist_checks(
        &[Path::new("traces"), &fixture(linux), &fixture(windows)],
        None,
    )
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn objdump_fixture() -> String {
    std::fs::read_to_string(fixture("objdump-p.txt")).unwrap()
}

#[test]
fn imports_of_windows_dlls_only_pass_mmdevapi_included() {
    let out = imports(&objdump_fixture());
    let err = stderr(&out);
    assert!(out.status.success(), "{err}");
    // Every DLL of the fixture was read (the check saw the whole table, lower-cased).
    for dll in [
        "api-ms-win-core-synch-l1-2-0.dll",
        "bcryptprimitives.dll",
        "kernel32.dll",
        "mmdevapi.dll",
        "user32.dll",
        "d3d12.dll",
    ] {
        assert!(err.contains(dll), "{dll} not listed: {err}");
    }
}

#[test]
fn an_import_of_a_mingw_runtime_dll_is_refused_by_name() {
    for dll in [
        "libgcc_s_seh-1.dll",
        "LIBWINPTHREAD-1.DLL",
        "libstdc++-6.dll",
    ] {
        let dump = format!(
            "{}\n\tDLL Name: {dll}\n\tvma:  Hint/Ord Member-Name Bound-To\n\t2a3d700\t    0  f\n",
            objdump_fixture()
        );
        let out = imports(&dump);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{dll} was accepted: {err}");
        assert!(
            err.contains("not part of Windows")
                && err
                    .lines()
                    .last()
                    .is_some_and(|l| l.ends_with(&dll.to_lowercase())),
            "{dll}: {err}"
        );
    }
}

#[test]
fn output_without_an_import_table_is_refused() {
    let out = imports("objdump: tessera.exe: file format not recognized\n");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

#[test]
fn identical_traces_pass() {
    let out = traces("linux.jsonl", "linux.jsonl");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("identical (4 lines"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_trace_one_ulp_off_fails_and_names_the_line() {
    let out = traces("linux.jsonl", "windows-one-ulp.jsonl");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("1 of 4 lines differ") && err.contains("line 3:"),
        "{err}"
    );
    assert!(err.contains("-7.975000000000001"), "{err}");
}

#[test]
fn a_trace_cut_short_fails() {
    for (a, b) in [
        ("linux.jsonl", "windows-cut-short.jsonl"),
        ("windows-cut-short.jsonl", "linux.jsonl"),
    ] {
        let out = traces(a, b);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{a} {b}: {err}");
        assert!(
            err.contains("line 4:") && err.contains("(end of file)"),
            "{err}"
        );
    }
}

#[test]
fn a_missing_trace_fails() {
    let out = traces("linux.jsonl", "no-such-trace.jsonl");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
}

/// `scripts/dist` runs these checks and stops on their failure (no warning-only path left).
#[test]
fn scripts_dist_fails_on_both_checks() {
    let dist = std::fs::read_to_string(root().join("scripts/dist")).unwrap();
    for call in [
        "scripts/dist-checks imports <<<\"$dump\" || die",
        "scripts/dist-checks traces \"$1\" \"$2\" ||\n        die",
    ] {
        assert!(dist.contains(call), "scripts/dist lacks `{call}`");
    }
    let check = &dist[dist.find("if [ $check = 1 ]").expect("the --check block")..];
    assert!(
        check.contains("compare_traces \"$linux_trace\" \"$windows_trace\""),
        "--check compares the traces"
    );
}
