//! Clip names as exporters and people write them, matched to the controller's roles: a synonym
//! table per role, compared after [`words`] has taken the decoration off a name.
//!
//! A clip name is split at `|` (Blender writes `Armature|Running`, Mixamo's downloads
//! `rig|mixamo.com|Layer0`); each piece is lowercased, its separators (`_`, `-`, `.`, `:`, space)
//! removed and its trailing digits dropped (`Run_01` → `run`, `Jump-Start` → `jumpstart`);
//! pieces that only say where a clip came from (`armature`, `rig`, `mixamocom`, `layer`, `take`,
//! empty) are dropped. A role takes a clip one of whose pieces equals one of its synonyms (the
//! earlier synonym first, then the earlier clip); a role still without one takes a clip one of
//! whose pieces starts with one of its synonyms (`Idle_Neutral`, `Walk_Forward`), unless another
//! role took that clip by an exact match. `hit` is the attack's only by an exact match, so
//! `HitReaction` is the hurt's.
//!
//! It knows the roles ([`HeroClip`]) and nothing else of the crate.
use super::hero_clips::HeroClip;

/// The synonyms of each role, in order of preference, written as [`words`] leaves them.
pub fn synonyms(role: HeroClip) -> &'static [&'static str] {
    use HeroClip::*;
    match role {
        Idle => &[
            "idle",
            "stand",
            "standing",
            "breathing",
            "breathe",
            "survey",
            "rest",
            "tpose",
            "bindpose",
        ],
        Run => &["run", "running", "sprint", "sprinting", "jog", "jogging"],
        Walk => &["walk", "walking"],
        CrouchWalk => &["crouchwalk", "crouchwalking", "sneak", "sneaking", "crawl"],
        JumpTakeoff => &["jumptakeoff", "jump", "jumpstart", "jumping", "walkjump"],
        Rise => &["rise", "rising", "jumpup", "jumprise"],
        Fall => &["fall", "falling", "jumploop", "fallloop", "inair"],
        Land => &["land", "landing", "jumpend", "jumpland"],
        CrouchIdle => &["crouchidle", "crouch", "crouching"],
        WallSlide => &["wallslide", "wallsliding"],
        Climb => &["climb", "climbing", "ladder", "climbladder"],
        Push => &["push", "pushing"],
        Attack => &[
            "attack", "punch", "slash", "swing", "hit", "strike", "kick", "shoot",
        ],
        Hurt => &[
            "hurt",
            "hitreaction",
            "hitreact",
            "hitrecieve",
            "hitreceive",
            "damage",
            "takedamage",
            "gethit",
        ],
        Death => &["death", "die", "dying", "dead"],
        Charge => &["charge", "charging", "dash", "rush"],
    }
}

/// Synonyms matched only exactly, never as the start of a longer word (`HitReaction` is not an
/// attack).
const EXACT_ONLY: [&str; 1] = ["hit"];

/// Pieces that say where a clip came from, not what it does.
const NOISE: [&str; 6] = ["", "armature", "rig", "mixamocom", "layer", "take"];

/// The meaningful pieces of a clip name (see the module's docs).
pub fn words(name: &str) -> Vec<String> {
    name.split('|')
        .map(|piece| {
            let w: String = piece
                .chars()
                .filter(|c| !matches!(c, '_' | '-' | '.' | ':' | ' '))
                .flat_map(char::to_lowercase)
                .collect();
            w.trim_end_matches(|c: char| c.is_ascii_digit()).to_string()
        })
        .filter(|w| !NOISE.contains(&w.as_str()))
        .collect()
}

/// How a role's clip was matched by [`match_roles`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SynonymMatch {
    /// The model's clip index.
    pub clip: usize,
    /// The synonym it matched.
    pub synonym: &'static str,
    /// Whether a piece of the name only starts with the synonym.
    pub prefix: bool,
}

/// For each role ([`HeroClip::ALL`] order), the clip of `names` its synonyms match, if any.
pub fn match_roles(names: &[&str]) -> [Option<SynonymMatch>; HeroClip::COUNT] {
    let words: Vec<Vec<String>> = names.iter().map(|n| words(n)).collect();
    let mut out = [None; HeroClip::COUNT];
    let find = |role: HeroClip, prefix: bool, taken: &[bool]| {
        synonyms(role).iter().find_map(|&s| {
            if prefix && EXACT_ONLY.contains(&s) {
                return None;
            }
            let hit = |w: &String| {
                if prefix {
                    w.starts_with(s) && w.len() > s.len()
                } else {
                    w == s
                }
            };
            (0..names.len())
                .find(|&c| !(prefix && taken[c]) && words[c].iter().any(hit))
                .map(|clip| SynonymMatch {
                    clip,
                    synonym: s,
                    prefix,
                })
        })
    };
    let mut taken = vec![false; names.len()];
    for role in HeroClip::ALL {
        out[role as usize] = find(role, false, &taken);
    }
    for m in out.iter().flatten() {
        taken[m.clip] = true;
    }
    for role in HeroClip::ALL {
        if out[role as usize].is_none() {
            out[role as usize] = find(role, true, &taken);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decoration_comes_off_names() {
        assert_eq!(words("Armature|Running"), ["running"]);
        assert_eq!(words("rig|mixamo.com|Layer0"), Vec::<String>::new());
        assert_eq!(words("Run_01"), ["run"]);
        assert_eq!(words("Jump-Start"), ["jumpstart"]);
        assert_eq!(words("HIT REACTION 2"), ["hitreaction"]);
        assert_eq!(
            words("CharacterArmature|Idle_Neutral"),
            ["characterarmature", "idleneutral"]
        );
    }

    fn matched(names: &[&str]) -> Vec<(&'static str, String)> {
        let m = match_roles(names);
        HeroClip::ALL
            .iter()
            .filter_map(|&r| m[r as usize].map(|s| (r.name(), names[s.clip].to_string())))
            .collect()
    }

    #[test]
    fn every_family_of_the_issue_is_matched() {
        for (role, names) in [
            (
                "run",
                &["run", "Running", "SPRINT", "jog_2", "Armature|Run"][..],
            ),
            ("walk", &["walk", "Walking", "mixamo.com|Walk"]),
            ("jump_takeoff", &["jump", "Jump_Start", "WalkJump"]),
            ("fall", &["fall", "Falling", "jump_loop"]),
            ("land", &["land", "Landing", "Jump_End"]),
            ("attack", &["attack", "Punch", "slash", "Swing", "Hit"]),
            ("hurt", &["hurt", "Hit_Reaction", "damage", "TakeDamage"]),
            ("death", &["death", "Die", "Dying", "dead"]),
            (
                "idle",
                &["idle", "Stand", "Standing", "breathing", "Survey", "rest"],
            ),
        ] {
            for &name in names {
                let m = matched(&[name]);
                assert!(
                    m.iter().any(|(r, c)| *r == role && c == name),
                    "{name} should play {role}: {m:?}"
                );
            }
        }
    }

    #[test]
    fn exact_matches_beat_prefixes_and_hit_reaction_is_not_an_attack() {
        let names = [
            "Idle",
            "Standing",
            "Running",
            "Walking",
            "HitReaction",
            "Idle_Sword",
        ];
        let m = matched(&names);
        let of = |role: &str| m.iter().find(|(r, _)| *r == role).map(|(_, c)| c.as_str());
        assert_eq!(of("idle"), Some("Idle"));
        assert_eq!(of("run"), Some("Running"));
        assert_eq!(of("hurt"), Some("HitReaction"));
        assert_eq!(of("attack"), None);
        // A prefix match: a clip no exact match took.
        assert_eq!(
            matched(&["Walk_Forward"]),
            [("walk", "Walk_Forward".to_string())]
        );
    }
}
