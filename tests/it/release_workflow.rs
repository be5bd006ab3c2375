//! The release workflow (`.github/workflows/release.yml`) cannot run here, so this checks its shape:
//! it parses as YAML, a version tag triggers it, it builds and smoke-tests on Linux and Windows,
//! and a last job attaches the archives and checksums to the release. It also checks that the
//! files the workflow names exist in the repository.
use std::path::Path;

use yaml_rust2::{Yaml, YamlLoader};

fn workflow() -> Yaml {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(".github/workflows/release.yml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut docs = YamlLoader::load_from_str(&text)
        .unwrap_or_else(|e| panic!("{}: not valid YAML: {e}", path.display()));
    assert_eq!(docs.len(), 1, "one YAML document");
    docs.remove(0)
}

fn steps(job: &Yaml) -> &[Yaml] {
    job["steps"]
        .as_vec()
        .unwrap_or_else(|| panic!("job without steps: {job:?}"))
}

/// Every `run:` script of a job, joined.
fn scripts(job: &Yaml) -> String {
    steps(job)
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn uses(job: &Yaml) -> Vec<&str> {
    steps(job)
        .iter()
        .filter_map(|s| s["uses"].as_str())
        .collect()
}

#[test]
fn a_version_tag_triggers_it() {
    let w = workflow();
    assert_eq!(w["name"].as_str(), Some("Release"));
    let tags = w["on"]["push"]["tags"]
        .as_vec()
        .expect("on.push.tags is a list");
    assert!(
        tags.iter().any(|t| t.as_str() == Some("v*")),
        "tags: {tags:?}"
    );
    assert!(
        w["on"]["pull_request"].is_badvalue() && w["on"]["push"]["branches"].is_badvalue(),
        "only tags publish releases"
    );
    assert_eq!(w["permissions"]["contents"].as_str(), Some("write"));
}

#[test]
fn every_step_runs_a_command_or_uses_an_action() {
    let w = workflow();
    let jobs = w["jobs"].as_hash().expect("jobs");
    assert!(!jobs.is_empty());
    for (name, job) in jobs {
        assert!(job["runs-on"].as_str().is_some(), "{name:?}: runs-on");
        for step in steps(job) {
            assert!(
                step["run"].as_str().is_some() != step["uses"].as_str().is_some(),
                "{name:?}: a step needs exactly one of run and uses: {step:?}"
            );
        }
    }
}

#[test]
fn linux_builds_tests_and_smoke_tests_the_archive() {
    let w = workflow();
    let job = &w["jobs"]["linux"];
    assert_eq!(job["runs-on"].as_str(), Some("ubuntu-latest"));
    let run = scripts(job);
    for needed in [
        "scripts/setup.sh --test",
        "scripts/test.sh",
        "scripts/dist --linux-only --check",
    ] {
        assert!(run.contains(needed), "linux job runs `{needed}`");
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for script in ["scripts/setup.sh", "scripts/test.sh", "scripts/dist"] {
        assert!(root.join(script).is_file(), "{script} exists");
    }
    assert!(uses(job).iter().any(|u| u.starts_with("actions/checkout@")));
    assert!(uses(job)
        .iter()
        .any(|u| u.starts_with("actions/upload-artifact@")));
}

#[test]
fn windows_builds_with_msvc_packs_a_zip_and_runs_check_and_sim_from_it() {
    let w = workflow();
    let job = &w["jobs"]["windows"];
    assert_eq!(job["runs-on"].as_str(), Some("windows-latest"));
    assert!(
        job["env"]["RUSTFLAGS"]
            .as_str()
            .is_some_and(|f| f.contains("+crt-static")),
        "the C runtime is linked statically (no VC++ redistributable needed)"
    );
    let run = scripts(job);
    for needed in [
        "cargo test --locked --test determinism",
        "cargo build --release --locked",
        "Compress-Archive",
        "Expand-Archive",
        "& $exe check",
        "& $exe sim",
        "scripts\\PLAYING.txt",
        "LICENSE-MIT",
        "LICENSE-APACHE",
    ] {
        assert!(run.contains(needed), "windows job runs `{needed}`");
    }
    assert!(uses(job)
        .iter()
        .any(|u| u.starts_with("actions/upload-artifact@")));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in ["scripts/PLAYING.txt", "LICENSE-MIT", "LICENSE-APACHE"] {
        assert!(root.join(file).is_file(), "{file} exists");
    }
}

#[test]
fn the_release_job_attaches_archives_and_checksums() {
    let w = workflow();
    let job = &w["jobs"]["release"];
    let needs: Vec<&str> = job["needs"]
        .as_vec()
        .expect("release needs the build jobs")
        .iter()
        .filter_map(Yaml::as_str)
        .collect();
    assert_eq!(needs, ["linux", "windows"]);
    assert!(scripts(job).contains("sha256sum"));
    let upload = steps(job)
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("softprops/action-gh-release@"))
        })
        .expect("an upload step");
    let files = upload["with"]["files"].as_str().expect("files to upload");
    for f in ["*.tar.gz", "*.zip", "SHA256SUMS"] {
        assert!(files.contains(f), "uploads {f}: {files}");
    }
}
