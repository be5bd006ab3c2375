//! `tessera-levels`: geometry for a level that a tile engine cannot make, printed as entries of
//! a level's `polygons` list to paste into a level file (or the editor, through the clipboard:
//! a polygon list is level text).
//!
//! ```text
//! cargo run -p tessera-levels -- trace IMAGE --scale M --at X,Y [--tolerance M] [--material NAME]
//! cargo run -p tessera-levels -- hill --tops X,Y X,Y ... --base Y [--step M] [--material NAME]
//! cargo run -p tessera-levels -- rock --at X,Y --size W,H --angle DEG [--sides N] [--rough R] [--seed S] [--material NAME]
//! ```
//! - `trace`: the ink of a drawing (dark, opaque pixels; the largest blob, holes filled) as one
//!   polygon, `--scale` metres a pixel, the image's bottom-left corner at `--at`, simplified so
//!   that no traced corner is further than `--tolerance` (default two pixels) from it.
//! - `hill`: a smooth curve through the given tops, closed down to `--base`.
//! - `rock`: an irregular outline round an ellipse, turned by `--angle` degrees.
//!
//! Every polygon is rounded to millimetres and checked simple before it is printed; a failure
//! is an error naming the argument or the file, never a polygon the level would refuse.
mod polygon;
mod shapes;
mod trace;

use std::process::ExitCode;

use polygon::{level_entry, problem, rounded, simplified, Point};

const USAGE: &str = "usage:
  tessera-levels trace IMAGE --scale M --at X,Y [--tolerance M] [--material NAME]
  tessera-levels hill --tops X,Y X,Y ... --base Y [--step M] [--material NAME]
  tessera-levels rock --at X,Y --size W,H --angle DEG [--sides N] [--rough R] [--seed S] [--material NAME]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("tessera-levels: {e}");
            ExitCode::from(2)
        }
    }
}

/// The options after a command: `--name value...` (a name may take several values).
struct Options<'a> {
    positional: Vec<&'a str>,
    named: Vec<(&'a str, Vec<&'a str>)>,
}

impl<'a> Options<'a> {
    fn parse(args: &'a [String]) -> Options<'a> {
        let mut positional = Vec::new();
        let mut named: Vec<(&str, Vec<&str>)> = Vec::new();
        for a in args {
            if let Some(name) = a.strip_prefix("--") {
                named.push((name, Vec::new()));
            } else if let Some((_, values)) = named.last_mut() {
                values.push(a);
            } else {
                positional.push(a.as_str());
            }
        }
        Options { positional, named }
    }

    fn values(&self, name: &str) -> Option<&[&'a str]> {
        self.named
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_slice())
    }

    fn one(&self, name: &str) -> Result<Option<&'a str>, String> {
        match self.values(name) {
            None => Ok(None),
            Some([v]) => Ok(Some(v)),
            Some(v) => Err(format!("--{name} takes one value, got {}", v.len())),
        }
    }

    fn number(&self, name: &str, default: Option<f64>) -> Result<f64, String> {
        match self.one(name)? {
            Some(v) => v
                .parse()
                .map_err(|_| format!("--{name}: `{v}` is not a number")),
            None => default.ok_or(format!("--{name} is required")),
        }
    }

    fn point(&self, name: &str) -> Result<Point, String> {
        let v = self.one(name)?.ok_or(format!("--{name} X,Y is required"))?;
        parse_point(name, v)
    }

    fn check_names(&self, known: &[&str]) -> Result<(), String> {
        for (n, _) in &self.named {
            if !known.contains(n) {
                return Err(format!("unknown option --{n}\n{USAGE}"));
            }
        }
        Ok(())
    }
}

/// Whether `x` is a number above zero (not NaN).
fn above_zero(x: f64) -> bool {
    x > 0.0
}

fn parse_point(name: &str, v: &str) -> Result<Point, String> {
    let bad = || format!("--{name}: `{v}` is not X,Y (two numbers, a comma between)");
    let (x, y) = v.split_once(',').ok_or_else(bad)?;
    Ok((
        x.trim().parse().map_err(|_| bad())?,
        y.trim().parse().map_err(|_| bad())?,
    ))
}

fn run(args: &[String]) -> Result<String, String> {
    let Some((command, rest)) = args.split_first() else {
        return Err(USAGE.into());
    };
    let o = Options::parse(rest);
    let material = o.one("material")?;
    let (points, note) = match command.as_str() {
        "trace" => {
            o.check_names(&["scale", "at", "tolerance", "material"])?;
            let [file] = o.positional[..] else {
                return Err(format!("trace takes one image file\n{USAGE}"));
            };
            let scale = o.number("scale", None)?;
            if !above_zero(scale) {
                return Err(format!(
                    "--scale must be above 0 metres a pixel, got {scale}"
                ));
            }
            let origin = o.point("at")?;
            let tolerance = o.number("tolerance", Some(2.0 * scale))?;
            let image = image::open(file)
                .map_err(|e| format!("{file}: {e}"))?
                .to_rgba8();
            let mask = trace::Mask::from_image(&image);
            let outline = trace::traced(&mask, scale, origin).ok_or(format!(
                "{file}: no ink (no opaque pixel darker than mid-grey)"
            ))?;
            let (points, used) = simplified(&outline, tolerance);
            let note = format!(
                "// traced from {file}: {}x{} pixels, {} m a pixel, {} corners kept of {} within {:.3} m",
                image.width(),
                image.height(),
                scale,
                points.len(),
                outline.len(),
                used
            );
            (points, note)
        }
        "hill" => {
            o.check_names(&["tops", "base", "step", "material"])?;
            let tops: Vec<Point> = o
                .values("tops")
                .ok_or("--tops X,Y X,Y ... is required")?
                .iter()
                .map(|v| parse_point("tops", v))
                .collect::<Result<_, _>>()?;
            if tops.len() < 2 || tops.windows(2).any(|w| w[1].0 <= w[0].0) {
                return Err("--tops needs two or more points, left to right".into());
            }
            let base = o.number("base", None)?;
            if tops.iter().any(|p| p.1 < base) {
                return Err(format!("--base {base} is above a top"));
            }
            let step = o.number("step", Some(0.5))?;
            if !above_zero(step) {
                return Err(format!("--step must be above 0, got {step}"));
            }
            (rounded(&shapes::hill(&tops, base, step)), String::new())
        }
        "rock" => {
            o.check_names(&["at", "size", "angle", "sides", "rough", "seed", "material"])?;
            let centre = o.point("at")?;
            let (w, h) = o.point("size")?;
            let angle = o.number("angle", None)?;
            let sides = o.number("sides", Some(9.0))?;
            let rough = o.number("rough", Some(0.15))?;
            let seed = o.number("seed", Some(1.0))?;
            let fits = above_zero(w)
                && above_zero(h)
                && (3.0..=64.0).contains(&sides)
                && (0.0..0.5).contains(&rough);
            if !fits {
                return Err("rock: --size above 0, --sides 3 to 64, --rough in [0, 0.5)".into());
            }
            let points = shapes::rock(centre, w, h, angle, sides as usize, rough, seed as u64);
            (rounded(&points), String::new())
        }
        other => return Err(format!("unknown command `{other}`\n{USAGE}")),
    };
    if let Some(p) = problem(&points) {
        return Err(format!("the {command} is not a polygon a level takes: {p}"));
    }
    let entry = level_entry(&points, material);
    Ok(if note.is_empty() {
        entry
    } else {
        format!("{note}\n{entry}")
    })
}

#[cfg(test)]
mod tests {
    use super::run;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// Campaign level 3's ridge is what the tool traces from the committed drawing, corner for
    /// corner: a changed drawing or tracer shows here, and the level's comment names the command.
    #[test]
    fn the_campaign_ridge_is_the_drawing_traced() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let image = root.join("levels/campaign/art/ridge.png");
        let traced = run(&args(&format!(
            "trace {} --scale 0.1 --at 10,-1 --material stone",
            image.display()
        )))
        .unwrap();
        let entry = traced.lines().last().unwrap();
        let level = std::fs::read_to_string(root.join("levels/campaign/03_rocks.ron")).unwrap();
        assert!(
            level.lines().any(|l| l.trim() == entry),
            "levels/campaign/03_rocks.ron lacks the traced ridge {entry}"
        );
    }

    #[test]
    fn bad_arguments_say_what_is_wrong() {
        let e = run(&args("hill --tops 0,0 --base -1")).unwrap_err();
        assert!(e.contains("two or more points"), "{e}");
        let e = run(&args("hill --tops 0,0 4,x --base -1")).unwrap_err();
        assert!(e.contains("`4,x` is not X,Y"), "{e}");
        let e = run(&args("trace nothing.png --scale 0.1 --at 0,0")).unwrap_err();
        assert!(e.starts_with("nothing.png: "), "{e}");
        let e = run(&args("rock --at 0,0 --size 1,1 --angle 0 --colour red")).unwrap_err();
        assert!(e.contains("unknown option --colour"), "{e}");
        let e = run(&args("trace a.png --scale 0 --at 0,0")).unwrap_err();
        assert!(e.contains("--scale must be above 0"), "{e}");
    }

    #[test]
    fn a_rock_prints_as_a_level_entry() {
        let out = run(&args(
            "rock --at 5,2 --size 3,2 --angle 30 --seed 7 --material stone",
        ))
        .unwrap();
        assert!(
            out.starts_with("(points: [(") && out.ends_with("], material: \"stone\"),"),
            "{out}"
        );
    }
}
