//! `tessera model FILE [--character FILE]`: what a designer needs to know about a skinned model
//! before using it as a character: its mesh parts, joints, clips, which clip plays each role of
//! the animation controller (with fallbacks), and what the loader changed or left out; without
//! a character file, the one it inferred (what `--character FILE.glb` plays); with
//! `--sheet`, a contact sheet PNG of every role's clip at four phases (offscreen, like `render`),
//! each row framed to the character and labelled with the role, its clip and why.
use std::path::Path;
use std::process::ExitCode;

use tessera::anim::character::{from_file, load_character, LEG_JOINTS};
use tessera::anim::{CharacterFile, HeroAnimator, HeroClip, How, Model};
use tessera::level::{parse_ron, read_text};
use tessera::render::{contact_sheet, SheetRow, SHEET_PHASES};

/// Prints the report; fails when the model cannot play a character: it does not load, or a
/// character file names a clip that the model lacks. A model without an idle-like clip plays
/// its bind pose for `idle`, with a note.
pub fn run(
    model: &Path,
    character_file: Option<&Path>,
    sheet: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let c = match character_file {
        Some(path) => {
            let mut file: CharacterFile = parse_ron(path, &read_text(path)?)?;
            // The model named on the command line, whatever the file names.
            file.model = std::path::absolute(model)?;
            let c = from_file(path, &file)?;
            print!("{}", report(model, &c.model, &c.notes));
            println!("roles (character {}):", path.display());
            c
        }
        None => {
            // What `--character MODEL.glb` plays: everything inferred.
            let c = load_character(model)?;
            print!("{}", report(model, &c.model, &c.notes));
            println!(
                "roles (clips named as the roles ignoring case, else by a synonym, else a \
                 fallback):"
            );
            c
        }
    };
    for m in &c.mapping {
        println!("  {m}");
    }
    let hero = HeroAnimator::for_character(&c)?;
    let g = hero.gait();
    let timing = if c.locomotion.speeds == [None; 3] && hero.plants_feet() {
        "timed by the planted foot"
    } else {
        "timed by speed"
    };
    println!(
        "gaits ({timing}): walk stride {:.2} m, run stride {:.2} m, crouch walk stride {:.2} m",
        g.stride(0.0),
        g.stride(1.0),
        g.crouch_stride()
    );
    if hero.plants_feet() {
        println!("feet: planted on slopes");
    } else {
        println!(
            "feet: not planted (no joints {}; a character file's `joints` names them)",
            LEG_JOINTS.join(", ")
        );
    }
    if character_file.is_none() {
        let name = model.file_name().unwrap_or_default().to_string_lossy();
        println!(
            "character file (inferred; `--character {}` plays with it; copy it beside the \
             model as a .ron to change it):",
            model.display()
        );
        for line in c.inferred_file(&name).lines() {
            println!("  {line}");
        }
    }
    if let Some(out) = sheet {
        let rows: Vec<SheetRow> = (HeroClip::ALL.iter().zip(&c.mapping))
            .map(|(&r, m)| SheetRow {
                clip: c.clips.get(r),
                label: vec![
                    r.name().to_string(),
                    if m.how == How::BindPose && m.fallback.is_none() {
                        "(bind pose)".to_string()
                    } else {
                        m.clip.clone()
                    },
                    m.reason(),
                ],
            })
            .collect();
        contact_sheet(hero, &rows)?.save_png(out)?;
        let names: Vec<&str> = HeroClip::ALL.iter().map(|r| r.name()).collect();
        println!(
            "sheet: {} (a row per role: {}; a column per phase: {})",
            out.display(),
            names.join(", "),
            SHEET_PHASES.map(|p| format!("{p}")).join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The model's parts, skeleton, clips and notes (the loader's, then `more_notes`), one item per
/// line.
fn report(path: &Path, m: &Model, more_notes: &[String]) -> String {
    let mut s = format!("model: {}\n", path.display());
    let tris = m.mesh.indices.len() / 3;
    s += &format!(
        "mesh: {} part{}, {} vertices, {tris} triangles\n",
        m.parts.len(),
        if m.parts.len() == 1 { "" } else { "s" },
        m.mesh.positions.len()
    );
    for p in &m.parts {
        s += &format!(
            "  {}: {} vertices, {} triangles\n",
            p.name, p.vertices, p.triangles
        );
    }
    let levels = tessera::anim::lod::chain(&m.mesh);
    if levels.is_empty() {
        s += &format!(
            "levels of detail: none (under {} triangles)\n",
            tessera::anim::lod::MIN_TRIANGLES
        );
    } else {
        let each: Vec<String> = levels
            .iter()
            .map(|l| {
                format!(
                    "{} triangles (error {:.4} units)",
                    l.mesh.indices.len() / 3,
                    l.error
                )
            })
            .collect();
        s += &format!(
            "levels of detail (drawn where their error is under half a pixel): {}\n",
            each.join(", ")
        );
    }
    let sk = &m.skeleton;
    let roots: Vec<&str> = (0..sk.len())
        .filter(|&j| sk.parents[j].is_none())
        .map(|j| sk.names[j].as_str())
        .collect();
    s += &format!(
        "skeleton: {} joints (root: {})\n",
        sk.len(),
        roots.join(", ")
    );
    s += &format!("  {}\n", sk.names.join(", "));
    s += &format!("clips: {}\n", m.clips.len());
    for c in &m.clips {
        s += &format!(
            "  `{}`: {:.2} s, {} channels\n",
            c.name,
            c.duration,
            c.channels.len()
        );
    }
    if !m.notes.is_empty() || !more_notes.is_empty() {
        s += "notes:\n";
        for n in m.notes.iter().chain(more_notes) {
            s += &format!("  {n}\n");
        }
    }
    s
}
