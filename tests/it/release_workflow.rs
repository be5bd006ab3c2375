//! The release workflow (`.github/workflows/release.yml`) cannot run here, so this checks what it
//! would do, from the parsed YAML: what triggers it, which commands each job runs and in which
//! order, which artefacts go from job to job, and that nothing in it only warns where it must
//! fail. The commands are compared as parsed words (a step's `run:` split into command lines and
//! words), not as substrings of the file, and the files and test modules they name must exist.
//!
//! Each check is also run on a broken copy of the workflow (`broken_workflows_are_refused`): one
//! that no longer compares the Windows trace with the Linux one, that only warns on a difference,
//! that tests a module that does not exist, that drops an artefact, and so on. Before, these
//! tests checked substrings of the scripts, so a comparison that only printed a warning passed.
use std::collections::BTreeSet;
use std::path::Path;

use yaml_rust2::{Yaml, YamlLoader};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn workflow_text() -> String {
    let path = root().join(".github/workflows/release.yml");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn parse(text: &str) -> Result<Yaml, String> {
    let mut docs = YamlLoader::load_from_str(text).map_err(|e| format!("not valid YAML: {e}"))?;
    if docs.len() != 1 {
        return Err(format!("{} YAML documents, not one", docs.len()));
    }
    Ok(docs.remove(0))
}

fn steps(job: &Yaml) -> &[Yaml] {
    job["steps"].as_vec().map_or(&[], Vec::as_slice)
}

/// The command lines of a step's `run:` script, each split into words (`a && b` is two lines;
/// line continuations joined; comments and blank lines left out).
fn commands(step: &Yaml) -> Vec<Vec<String>> {
    let script = step["run"].as_str().unwrap_or("").replace("\\\n", " ");
    script
        .lines()
        .flat_map(|l| l.split("&&"))
        .map(|c| c.split_whitespace().map(str::to_owned).collect::<Vec<_>>())
        .filter(|w| !w.is_empty() && !w[0].starts_with('#'))
        .collect()
}

/// The index of the first step of `job` with a command that starts with `words`.
fn step_running(job: &Yaml, words: &[&str]) -> Option<usize> {
    steps(job)
        .iter()
        .position(|s| commands(s).iter().any(|c| c.starts_with_words(words)))
}

/// The command of `job` that starts with `words`.
fn command(job: &Yaml, words: &[&str]) -> Option<Vec<String>> {
    steps(job)
        .iter()
        .flat_map(commands)
        .find(|c| c.starts_with_words(words))
}

trait Words {
    fn starts_with_words(&self, words: &[&str]) -> bool;
}

impl Words for Vec<String> {
    fn starts_with_words(&self, words: &[&str]) -> bool {
        self.len() >= words.len() && self.iter().zip(words).all(|(a, b)| a == b)
    }
}

/// The index of the first step of `job` that uses `action` (`actions/checkout`, any version).
fn step_using(job: &Yaml, action: &str) -> Option<usize> {
    steps(job).iter().position(|s| {
        s["uses"]
            .as_str()
            .is_some_and(|u| u.split('@').next() == Some(action))
    })
}

/// The lines of a multi-line `with:` value (`path:`, `files:`), as a set.
fn lines_of(v: &Yaml) -> BTreeSet<String> {
    v.as_str()
        .unwrap_or("")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

/// The artefact a job uploads: its name and paths.
fn upload(job: &Yaml) -> Option<(String, BTreeSet<String>)> {
    let s = &steps(job)[step_using(job, "actions/upload-artifact")?];
    Some((
        s["with"]["name"].as_str()?.to_owned(),
        lines_of(&s["with"]["path"]),
    ))
}

/// The test modules of `tests/it/main.rs`.
fn test_modules() -> BTreeSet<String> {
    std::fs::read_to_string(root().join("tests/it/main.rs"))
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .map(str::to_owned)
        .collect()
}

/// Everything wrong with the workflow `w`; empty when it does what the release needs.
fn problems(w: &Yaml) -> Vec<String> {
    let mut p = Vec::new();
    macro_rules! need {
        ($ok:expr, $what:expr $(,)?) => {
            if !$ok {
                p.push(String::from($what));
            }
        };
    }

    // Trigger: version tags only.
    need!(w["name"].as_str() == Some("Release"), "named Release");
    need!(
        w["on"]["push"]["tags"]
            .as_vec()
            .is_some_and(|t| t.iter().any(|t| t.as_str() == Some("v*"))),
        "a v* tag triggers it",
    );
    need!(
        w["on"]["pull_request"].is_badvalue() && w["on"]["push"]["branches"].is_badvalue(),
        "only tags trigger it",
    );
    need!(
        w["permissions"]["contents"].as_str() == Some("write"),
        "it may write releases",
    );

    // Every step: one of run and uses, and nothing that turns a failure into a pass.
    let Some(jobs) = w["jobs"].as_hash() else {
        p.push("no jobs".into());
        return p;
    };
    let names: BTreeSet<&str> = jobs.keys().filter_map(Yaml::as_str).collect();
    need!(
        names == BTreeSet::from(["linux", "windows", "release"]),
        "jobs linux, windows, release",
    );
    for (name, job) in jobs {
        let name = name.as_str().unwrap_or("?");
        need!(
            job["runs-on"].as_str().is_some(),
            &format!("{name}: runs-on"),
        );
        need!(!steps(job).is_empty(), &format!("{name}: steps"));
        need!(
            job["continue-on-error"].is_badvalue(),
            &format!("{name}: no continue-on-error"),
        );
        for s in steps(job) {
            need!(
                s["run"].as_str().is_some() != s["uses"].as_str().is_some(),
                &format!("{name}: a step has exactly one of run and uses"),
            );
            need!(
                s["continue-on-error"].is_badvalue(),
                &format!("{name}: a step with continue-on-error"),
            );
            let run = s["run"].as_str().unwrap_or("");
            need!(
                !run.contains("::warning::") && !run.contains("|| true"),
                &format!("{name}: a step that only warns or ignores a failure"),
            );
        }
    }

    // Linux: tests, then the archive with its smoke test, then the tour trace; both uploaded.
    let linux = &w["jobs"]["linux"];
    need!(
        linux["runs-on"].as_str() == Some("ubuntu-latest"),
        "linux: runs on ubuntu-latest",
    );
    let order = [
        step_using(linux, "actions/checkout"),
        step_running(linux, &["scripts/setup.sh", "--test"]),
        step_running(linux, &["scripts/test.sh"]),
        step_running(linux, &["scripts/dist", "--linux-only", "--check"]),
        step_running(
            linux,
            &[
                "target/release/tessera",
                "sim",
                "--replay",
                "levels/replays/default_tour.ron",
                "--trace",
                "dist/linux.jsonl",
            ],
        ),
        step_using(linux, "actions/upload-artifact"),
    ];
    need!(
        order.iter().all(Option::is_some) && order.is_sorted(),
        "linux: checkout, setup, tests, archive check, tour trace, upload, in this order",
    );
    need!(
        upload(linux) == Some(("linux".into(), set(&["dist/*.tar.gz", "dist/linux.jsonl"]))),
        "linux: uploads the archive and the tour trace as `linux`",
    );

    // Windows: simulation tests, build, archive, smoke test, then its trace compared with the
    // Linux job's (downloaded), failing on a difference.
    let windows = &w["jobs"]["windows"];
    need!(
        windows["runs-on"].as_str() == Some("windows-latest"),
        "windows: runs on windows-latest",
    );
    need!(
        windows["needs"]
            .as_vec()
            .is_some_and(|n| n.iter().any(|j| j.as_str() == Some("linux"))),
        "windows: needs linux (for its trace)",
    );
    need!(
        windows["env"]["RUSTFLAGS"].as_str().is_some_and(|f| {
            f.split_whitespace()
                .any(|w| w == "target-feature=+crt-static")
        }),
        "windows: static C runtime (no VC++ redistributable)",
    );
    match command(
        windows,
        &["cargo", "test", "--locked", "--test", "it", "--"],
    ) {
        None => p.push("windows: cargo test --locked --test it -- FILTERS".into()),
        Some(c) => {
            let modules = test_modules();
            let filters: Vec<&String> = c[6..].iter().collect();
            need!(
                filters.iter().any(|f| *f == "determinism::"),
                "windows: the determinism tests run",
            );
            for f in filters {
                let m = f.strip_suffix("::").unwrap_or("");
                need!(
                    modules.contains(m),
                    &format!("windows: test filter {f} names no module of tests/it"),
                );
            }
        }
    }
    let archive = steps(windows).iter().find(|s| {
        s["run"]
            .as_str()
            .is_some_and(|r| r.contains("Compress-Archive"))
    });
    let packed = archive.map_or_else(BTreeSet::new, |s| lines_of(&s["run"]));
    for line in [
        r"Copy-Item target\release\tessera.exe, README.md, LICENSE-MIT, LICENSE-APACHE -Destination $stage",
        r"Copy-Item scripts\PLAYING.txt -Destination $stage",
        r"Copy-Item -Recurse assets, levels -Destination $stage",
    ] {
        need!(
            packed.contains(line),
            format!("windows: the archive step runs `{line}`")
        );
    }
    let smoke = steps(windows).iter().position(|s| {
        let run = s["run"].as_str().unwrap_or("");
        run.contains("& $exe check") && run.contains("& $exe sim")
    });
    let smoke_run = smoke.map_or("", |i| steps(windows)[i]["run"].as_str().unwrap_or(""));
    need!(
        smoke_run
            .matches("if ($LASTEXITCODE -ne 0) { exit 1 }")
            .count()
            >= 2,
        "windows: the smoke test fails when check or sim fails",
    );
    need!(
        smoke_run.contains(r#"$trace = Join-Path $env:GITHUB_WORKSPACE "dist\windows.jsonl""#),
        "windows: the smoke test writes the trace to dist/windows.jsonl",
    );
    let order = [
        step_running(windows, &["cargo", "test"]),
        step_running(
            windows,
            &[
                "cargo",
                "build",
                "--release",
                "--locked",
                "--bin",
                "tessera",
            ],
        ),
        steps(windows).iter().position(|s| {
            s["run"]
                .as_str()
                .is_some_and(|r| r.contains("Compress-Archive"))
        }),
        smoke,
        step_using(windows, "actions/download-artifact"),
        step_running(
            windows,
            &[
                "scripts/dist-checks",
                "traces",
                "linux/linux.jsonl",
                "dist/windows.jsonl",
            ],
        ),
        step_using(windows, "actions/upload-artifact"),
    ];
    need!(
        order.iter().all(Option::is_some) && order.is_sorted(),
        "windows: tests, build, archive, smoke test, download Linux's trace, compare, upload, in this order",
    );
    if let Some(i) = step_using(windows, "actions/download-artifact") {
        let s = &steps(windows)[i];
        need!(
            s["with"]["name"].as_str() == Some("linux")
                && s["with"]["path"].as_str() == Some("linux"),
            "windows: downloads the `linux` artefact into linux/",
        );
    }
    if let Some(i) = order[5] {
        need!(
            steps(windows)[i]["shell"].as_str() == Some("bash"),
            "windows: the trace comparison runs in bash",
        );
    }
    need!(
        upload(windows) == Some(("windows".into(), set(&["dist/*.zip", "dist/windows.jsonl"]))),
        "windows: uploads the archive and the tour trace as `windows`",
    );

    // Release: after both, checksums of both archives, all three files attached.
    let release = &w["jobs"]["release"];
    need!(
        release["needs"].as_vec().is_some_and(|n| {
            n.iter().filter_map(Yaml::as_str).collect::<Vec<_>>() == ["linux", "windows"]
        }),
        "release: needs linux and windows",
    );
    let dl = step_using(release, "actions/download-artifact");
    need!(
        dl.is_some_and(|i| {
            let s = &steps(release)[i];
            s["with"]["path"].as_str() == Some("dist")
                && s["with"]["merge-multiple"].as_bool() == Some(true)
        }),
        "release: downloads both artefacts into dist/",
    );
    let sums = steps(release).iter().position(|s| {
        commands(s)
            .iter()
            .any(|c| c.join(" ") == "sha256sum *.tar.gz *.zip > SHA256SUMS")
    });
    let attach = step_using(release, "softprops/action-gh-release");
    need!(
        dl.is_some() && sums > dl && attach > sums,
        "release: download, checksums of both archives, attach, in this order",
    );
    need!(
        attach.is_some_and(|i| {
            lines_of(&steps(release)[i]["with"]["files"])
                == set(&["dist/*.tar.gz", "dist/*.zip", "dist/SHA256SUMS"])
        }),
        "release: attaches both archives and SHA256SUMS",
    );

    // Files the workflow runs or packs exist.
    for f in [
        "scripts/setup.sh",
        "scripts/test.sh",
        "scripts/dist",
        "scripts/dist-checks",
        "scripts/PLAYING.txt",
        "levels/replays/default_tour.ron",
        "LICENSE-MIT",
        "LICENSE-APACHE",
    ] {
        need!(root().join(f).is_file(), &format!("{f} exists"));
    }
    p
}

#[test]
fn the_workflow_builds_checks_and_publishes_both_archives() {
    let w = parse(&workflow_text()).unwrap();
    let p = problems(&w);
    assert!(p.is_empty(), "release.yml:\n{}", p.join("\n"));
}

/// `text` with `from` replaced by `to` (which must occur).
fn broken(text: &str, from: &str, to: &str) -> String {
    assert!(text.contains(from), "the workflow no longer has {from:?}");
    text.replacen(from, to, 1)
}

#[test]
fn broken_workflows_are_refused() {
    let text = workflow_text();
    let compare = "        run: scripts/dist-checks traces linux/linux.jsonl dist/windows.jsonl\n";
    let cases = [
        (
            "no trace comparison",
            broken(&text, compare, "        run: echo compared\n"),
            "compare",
        ),
        (
            "a comparison that only warns",
            broken(
                &text,
                compare,
                "        run: scripts/dist-checks traces linux/linux.jsonl dist/windows.jsonl || echo \"::warning::traces differ\"\n",
            ),
            "only warns",
        ),
        (
            "a comparison whose failure is ignored",
            broken(
                &text,
                "        shell: bash\n",
                "        shell: bash\n        continue-on-error: true\n",
            ),
            "continue-on-error",
        ),
        (
            "Windows does not wait for the Linux trace",
            broken(&text, "    needs: [linux]\n", ""),
            "needs linux",
        ),
        (
            "a test filter that names no module",
            broken(&text, "determinism:: ", "determinsm:: "),
            "names no module",
        ),
        (
            "the Linux trace not uploaded",
            broken(&text, "            dist/linux.jsonl\n", ""),
            "uploads the archive and the tour trace as `linux`",
        ),
        (
            "checksums not attached",
            broken(&text, "            dist/SHA256SUMS\n", ""),
            "attaches both archives",
        ),
        (
            "a smoke test that ignores sim's exit status",
            broken(
                &text,
                "--trace $trace\n          if ($LASTEXITCODE -ne 0) { exit 1 }\n",
                "--trace $trace\n",
            ),
            "fails when check or sim fails",
        ),
        (
            "the archive checked before the tests",
            {
                let tests = "      - name: Tests\n        run: scripts/test.sh --locked\n";
                let t = broken(&text, tests, "");
                broken(
                    &t,
                    "      - name: Tour trace\n",
                    &format!("{tests}      - name: Tour trace\n"),
                )
            },
            "in this order",
        ),
        (
            "the licences left out of the Windows archive",
            broken(&text, ", LICENSE-MIT, LICENSE-APACHE -Destination", " -Destination"),
            "the archive step runs",
        ),
        (
            "a branch push publishes",
            broken(&text, "    tags: [\"v*\"]\n", "    tags: [\"v*\"]\n    branches: [main]\n"),
            "only tags",
        ),
    ];
    for (what, text, expected) in cases {
        let p = problems(&parse(&text).unwrap_or_else(|e| panic!("{what}: {e}")));
        assert!(
            p.iter().any(|m| m.contains(expected)),
            "{what}: not refused (wanted a problem containing {expected:?}), problems: {p:#?}"
        );
    }
}
