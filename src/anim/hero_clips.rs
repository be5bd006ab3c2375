//! The clips the hero's controller plays, found by name in a loaded model.
use super::error::AnimError;
use super::model::Model;

/// A clip the hero's controller plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeroClip {
    /// Standing still (loop).
    Idle,
    /// Running (loop; rate follows the ground speed).
    Run,
    /// Walking (loop; blended with the run by speed).
    Walk,
    /// Crouch-walking (loop).
    CrouchWalk,
    /// The jump's take-off (once).
    JumpTakeoff,
    /// Rising after a jump (once, held at its end).
    Rise,
    /// Falling (once, held at its end).
    Fall,
    /// Landing (once; its strength scales with the impact speed).
    Land,
    /// Crouching still (loop).
    CrouchIdle,
    /// Sliding down a wall (loop).
    WallSlide,
    /// Climbing a ladder (loop; rate follows the climbing speed).
    Climb,
    /// Pushing against a wall (loop).
    Push,
    /// The attack's swing (once; played over the upper body, the legs keep their gait).
    Attack,
    /// Recoiling from a hit (once; over the upper body, like the attack).
    Hurt,
    /// Dying: the body falls and lies still (once, held at its end).
    Death,
    /// A brute's charge (loop; a gait timed like the run).
    Charge,
}

impl HeroClip {
    /// Every clip the controller needs.
    pub const ALL: [HeroClip; HeroClip::COUNT] = [
        HeroClip::Idle,
        HeroClip::Run,
        HeroClip::Walk,
        HeroClip::CrouchWalk,
        HeroClip::JumpTakeoff,
        HeroClip::Rise,
        HeroClip::Fall,
        HeroClip::Land,
        HeroClip::CrouchIdle,
        HeroClip::WallSlide,
        HeroClip::Climb,
        HeroClip::Push,
        HeroClip::Attack,
        HeroClip::Hurt,
        HeroClip::Death,
        HeroClip::Charge,
    ];

    /// How many roles there are.
    pub const COUNT: usize = 16;

    /// The clip's name in the model file.
    pub fn name(self) -> &'static str {
        match self {
            HeroClip::Idle => "idle",
            HeroClip::Run => "run",
            HeroClip::Walk => "walk",
            HeroClip::CrouchWalk => "crouch_walk",
            HeroClip::JumpTakeoff => "jump_takeoff",
            HeroClip::Rise => "rise",
            HeroClip::Fall => "fall",
            HeroClip::Land => "land",
            HeroClip::CrouchIdle => "crouch_idle",
            HeroClip::WallSlide => "wall_slide",
            HeroClip::Climb => "climb",
            HeroClip::Push => "push",
            HeroClip::Attack => "attack",
            HeroClip::Hurt => "hurt",
            HeroClip::Death => "death",
            HeroClip::Charge => "charge",
        }
    }

    /// The role whose name is `name` (as [`HeroClip::name`] spells it).
    pub fn from_name(name: &str) -> Option<HeroClip> {
        HeroClip::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The roles whose clip plays for this one when a model has no clip for it, in order of
    /// preference; every chain ends at `idle`, which has none (a model must have an idle clip).
    pub fn fallbacks(self) -> &'static [HeroClip] {
        use HeroClip::*;
        match self {
            Idle => &[],
            Run => &[Walk, Idle],
            Walk => &[Run, Idle],
            CrouchWalk => &[Walk, Run, Idle],
            CrouchIdle => &[Idle],
            JumpTakeoff => &[Rise, Fall, Idle],
            Rise => &[Fall, Idle],
            Fall => &[Rise, Idle],
            Land => &[Idle],
            WallSlide => &[Fall, Idle],
            Climb => &[Idle],
            Push => &[Walk, Idle],
            Attack => &[Push, Idle],
            Hurt => &[Fall, Idle],
            Death => &[CrouchIdle, Idle],
            Charge => &[Run, Walk, Idle],
        }
    }

    /// Whether the clip loops (the others play once and hold their last key).
    pub fn looping(self) -> bool {
        !matches!(
            self,
            HeroClip::JumpTakeoff
                | HeroClip::Rise
                | HeroClip::Fall
                | HeroClip::Land
                | HeroClip::Attack
                | HeroClip::Hurt
                | HeroClip::Death
        )
    }

    /// Whether the clip is played over the upper body only, on top of what the legs do: every
    /// joint but the skeleton's root and the legs (see `HeroAnimator`).
    pub fn upper_body(self) -> bool {
        matches!(self, HeroClip::Attack | HeroClip::Hurt)
    }
}

/// The model's clip index for each [`HeroClip`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeroClips {
    index: [usize; HeroClip::COUNT],
}

impl HeroClips {
    /// Finds every clip the controller needs, or names the first one missing.
    pub fn find(model: &Model) -> Result<HeroClips, AnimError> {
        let mut index = [0; HeroClip::COUNT];
        for (slot, c) in index.iter_mut().zip(HeroClip::ALL) {
            *slot = model
                .clip(c.name())
                .ok_or(AnimError::MissingClip(c.name()))?;
        }
        Ok(HeroClips { index })
    }

    /// The model's index of `clip`.
    pub fn get(&self, clip: HeroClip) -> usize {
        self.index[clip as usize]
    }

    /// Finds a clip for every role, with fallbacks: the clip `names` maps the role to (from a
    /// character file), else the clip named like the role ([`HeroClip::name`], exactly, then
    /// ignoring case: `Idle`, `Run`, `Walk`), else one its synonyms match
    /// ([`super::clip_names`]: `Armature|Running` runs, `Punch` attacks); a role still without
    /// one plays its first [`HeroClip::fallbacks`] role that has its own clip, and says so in
    /// the mapping's `fallback`. Without an idle-like clip, a clip called [`BIND_POSE`] stands
    /// in for `idle` (see [`HeroClips::resolve_or_bind_pose`]). Fails when `idle` has no clip,
    /// or a name in `names` is not in the model.
    pub fn resolve(
        model: &Model,
        names: &[(HeroClip, String)],
    ) -> Result<(HeroClips, Vec<RoleMapping>), AnimError> {
        let by_name = |name: &str| {
            model.clip(name).or_else(|| {
                model
                    .clips
                    .iter()
                    .position(|c| c.name.eq_ignore_ascii_case(name))
            })
        };
        let clip_names: Vec<&str> = model.clips.iter().map(|c| c.name.as_str()).collect();
        let synonyms = super::clip_names::match_roles(&clip_names);
        let mut own: [Option<(usize, How)>; HeroClip::COUNT] = [None; HeroClip::COUNT];
        for role in HeroClip::ALL {
            own[role as usize] = match names.iter().find(|(r, _)| *r == role) {
                Some((_, name)) => Some((
                    model.clip(name).ok_or_else(|| AnimError::UnknownClip {
                        role: role.name(),
                        clip: name.clone(),
                        available: model
                            .clips
                            .iter()
                            .map(|c| format!("`{}`", c.name))
                            .collect::<Vec<_>>()
                            .join(", "),
                    })?,
                    How::Mapped,
                )),
                None => by_name(role.name())
                    .map(|c| (c, How::Named))
                    .or_else(|| synonyms[role as usize].map(|s| (s.clip, How::Synonym(s.synonym)))),
            };
        }
        if own[HeroClip::Idle as usize].is_none() {
            own[HeroClip::Idle as usize] = Some((
                model
                    .clip(BIND_POSE)
                    .ok_or(AnimError::MissingClip(HeroClip::Idle.name()))?,
                How::BindPose,
            ));
        }
        let mut index = [0; HeroClip::COUNT];
        let mut mapping = Vec::with_capacity(HeroClip::COUNT);
        for role in HeroClip::ALL {
            let ((clip, how), fallback) = match own[role as usize] {
                Some(c) => (c, None),
                None => role
                    .fallbacks()
                    .iter()
                    .find_map(|&f| own[f as usize].map(|c| (c, Some(f))))
                    .unwrap_or((
                        (index[HeroClip::Idle as usize], How::Named),
                        Some(HeroClip::Idle),
                    )),
            };
            index[role as usize] = clip;
            mapping.push(RoleMapping {
                role,
                clip: model.clips[clip].name.clone(),
                fallback,
                how,
            });
        }
        Ok((HeroClips { index }, mapping))
    }

    /// [`HeroClips::resolve`] on a model that may lack an idle-like clip: then a clip of no
    /// channels called [`BIND_POSE`] (the skeleton's rest pose) is added to `model` to stand in
    /// for `idle`, and a note says so (the second value).
    pub fn resolve_or_bind_pose(
        model: &mut Model,
        names: &[(HeroClip, String)],
    ) -> Result<(HeroClips, Vec<RoleMapping>, Option<String>), AnimError> {
        match HeroClips::resolve(model, names) {
            Err(AnimError::MissingClip(idle)) if idle == HeroClip::Idle.name() => {
                model.clips.push(super::clip::Clip {
                    name: BIND_POSE.to_string(),
                    duration: 0.0,
                    channels: Vec::new(),
                });
                let (clips, mapping) = HeroClips::resolve(model, names)?;
                let note = format!(
                    "no clip is named like idle or a synonym of it (idle, stand, breathing, \
                     survey, ...): the bind pose stands in for idle (a character file's \
                     `clips: {{ \"idle\": ... }}` chooses another; its clips: {})",
                    model.clips[..model.clips.len() - 1]
                        .iter()
                        .map(|c| format!("`{}`", c.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                Ok((clips, mapping, Some(note)))
            }
            r => r.map(|(c, m)| (c, m, None)),
        }
    }
}

/// The name of the clip of no channels that stands in for `idle` in a model without an idle-like
/// clip ([`HeroClips::resolve_or_bind_pose`]): the skeleton's rest pose.
pub const BIND_POSE: &str = "(bind pose)";

/// How a role's own clip was found by [`HeroClips::resolve`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// A character file's `clips` maps the role to it.
    Mapped,
    /// It is named like the role (ignoring case).
    Named,
    /// Its name matches this synonym of the role ([`super::clip_names`]).
    Synonym(&'static str),
    /// The model has no idle-like clip: the bind pose stands in.
    BindPose,
}

/// Which clip plays a role, as [`HeroClips::resolve`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoleMapping {
    /// The role.
    pub role: HeroClip,
    /// The model's clip that plays it.
    pub clip: String,
    /// `Some(other)` when the model has no clip for the role and `other`'s plays instead.
    pub fallback: Option<HeroClip>,
    /// How the clip (the role's own, or its fallback's) was found.
    pub how: How,
}

impl RoleMapping {
    /// Why this clip plays the role, in a few words: `character file`, `named`, `synonym`,
    /// `fallback to run`, `bind pose` (the contact sheet's label).
    pub fn reason(&self) -> String {
        match (self.fallback, self.how) {
            (Some(o), How::BindPose) => format!("fallback to {} (bind pose)", o.name()),
            (Some(o), _) => format!("fallback to {}", o.name()),
            (None, How::Mapped) => "character file".into(),
            (None, How::Named) => "named".into(),
            (None, How::Synonym(_)) => "synonym".into(),
            (None, How::BindPose) => "bind pose".into(),
        }
    }
}

impl std::fmt::Display for RoleMapping {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.fallback, self.how) {
            (None, How::Named) => write!(f, "{}: `{}`", self.role.name(), self.clip),
            (None, How::Mapped) => {
                write!(f, "{}: `{}` (character file)", self.role.name(), self.clip)
            }
            (None, How::Synonym(s)) => {
                write!(f, "{}: `{}` (synonym `{s}`)", self.role.name(), self.clip)
            }
            (None, How::BindPose) => {
                write!(f, "{}: the bind pose (no idle-like clip)", self.role.name())
            }
            (Some(o), _) => write!(
                f,
                "{}: `{}` (no clip of its own: falls back to {})",
                self.role.name(),
                self.clip,
                o.name()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tessera_models::CLIP_NAMES;

    #[test]
    fn every_fallback_chain_ends_at_idle_without_a_cycle() {
        for role in HeroClip::ALL {
            let chain = role.fallbacks();
            assert_eq!(
                chain.last().copied(),
                (role != HeroClip::Idle).then_some(HeroClip::Idle)
            );
            assert!(!chain.contains(&role), "{role:?} falls back to itself");
        }
    }

    /// A model whose clips are renamed and partly missing, as exporters and rigs name them.
    fn renamed(keep: &[(&str, &str)]) -> Model {
        let mut m = crate::anim::builtin_hero().clone();
        m.clips
            .retain(|c| keep.iter().any(|(from, _)| *from == c.name));
        for c in &mut m.clips {
            c.name = keep
                .iter()
                .find(|(f, _)| *f == c.name)
                .unwrap()
                .1
                .to_string();
        }
        m
    }

    #[test]
    fn roles_find_clips_by_map_by_name_ignoring_case_or_by_fallback() {
        let m = renamed(&[
            ("idle", "Idle"),
            ("run", "Running"),
            ("fall", "fall"),
            ("walk", "Walk"),
        ]);
        let names = [(HeroClip::Run, "Running".to_string())];
        let (clips, mapping) = HeroClips::resolve(&m, &names).unwrap();
        let clip = |r: HeroClip| m.clips[clips.get(r)].name.as_str();
        assert_eq!(clip(HeroClip::Idle), "Idle");
        assert_eq!(clip(HeroClip::Run), "Running");
        assert_eq!(clip(HeroClip::Walk), "Walk");
        assert_eq!(clip(HeroClip::CrouchWalk), "Walk");
        assert_eq!(clip(HeroClip::Rise), "fall");
        assert_eq!(clip(HeroClip::JumpTakeoff), "fall");
        assert_eq!(clip(HeroClip::Land), "Idle");
        let fell: Vec<String> = mapping
            .iter()
            .filter(|m| m.fallback.is_some())
            .map(|m| m.to_string())
            .collect();
        assert!(
            fell.contains(
                &"crouch_walk: `Walk` (no clip of its own: falls back to walk)".to_string()
            ),
            "{fell:?}"
        );
        assert!(
            fell.contains(
                &"jump_takeoff: `fall` (no clip of its own: falls back to fall)".to_string()
            ),
            "{fell:?}"
        );
        assert_eq!(fell.len(), 12, "{fell:?}");
    }

    #[test]
    fn clips_named_by_synonyms_play_their_roles_and_a_file_still_overrides() {
        let m = renamed(&[
            ("idle", "Armature|Survey"),
            ("run", "Running"),
            ("walk", "mixamo.com|Walking_01"),
            ("attack", "Punch"),
            ("hurt", "Hit_Reaction"),
            ("death", "Dying"),
            ("jump_takeoff", "Jump"),
        ]);
        let (clips, mapping) = HeroClips::resolve(&m, &[]).unwrap();
        let clip = |r: HeroClip| m.clips[clips.get(r)].name.as_str();
        assert_eq!(clip(HeroClip::Idle), "Armature|Survey");
        assert_eq!(clip(HeroClip::Run), "Running");
        assert_eq!(clip(HeroClip::Walk), "mixamo.com|Walking_01");
        assert_eq!(clip(HeroClip::Attack), "Punch");
        assert_eq!(clip(HeroClip::Hurt), "Hit_Reaction");
        assert_eq!(clip(HeroClip::Death), "Dying");
        assert_eq!(clip(HeroClip::JumpTakeoff), "Jump");
        assert_eq!(clip(HeroClip::Rise), "Armature|Survey");
        let line = |r: HeroClip| mapping[r as usize].to_string();
        assert_eq!(line(HeroClip::Run), "run: `Running` (synonym `running`)");
        assert_eq!(mapping[HeroClip::Run as usize].reason(), "synonym");
        assert_eq!(
            mapping[HeroClip::Charge as usize].reason(),
            "fallback to run"
        );
        // A character file's map wins over a synonym.
        let names = [(HeroClip::Run, "Punch".to_string())];
        let (clips, mapping) = HeroClips::resolve(&m, &names).unwrap();
        assert_eq!(m.clips[clips.get(HeroClip::Run)].name, "Punch");
        assert_eq!(
            mapping[HeroClip::Run as usize].to_string(),
            "run: `Punch` (character file)"
        );
    }

    #[test]
    fn without_an_idle_like_clip_the_bind_pose_stands_in() {
        let mut m = renamed(&[("run", "Run"), ("walk", "Walk")]);
        let (clips, mapping, note) = HeroClips::resolve_or_bind_pose(&mut m, &[]).unwrap();
        let idle = &m.clips[clips.get(HeroClip::Idle)];
        assert_eq!((idle.name.as_str(), idle.channels.len()), (BIND_POSE, 0));
        assert_eq!(
            mapping[0].to_string(),
            "idle: the bind pose (no idle-like clip)"
        );
        assert_eq!(mapping[0].reason(), "bind pose");
        assert_eq!(m.clips[clips.get(HeroClip::Run)].name, "Run");
        assert!(note.unwrap().contains("the bind pose stands in for idle"));
        // A model with idle is left as it is.
        let mut m = renamed(&[("idle", "Breathing")]);
        let (_, _, note) = HeroClips::resolve_or_bind_pose(&mut m, &[]).unwrap();
        assert_eq!((note, m.clips.len()), (None, 1));
    }

    #[test]
    fn the_plain_resolve_without_idle_or_a_mapped_name_it_lacks_is_refused() {
        let m = renamed(&[("run", "run")]);
        assert_eq!(
            HeroClips::resolve(&m, &[]).unwrap_err().to_string(),
            "missing clip `idle` (the hero's animation controller needs it)"
        );
        let m = renamed(&[("idle", "idle"), ("run", "run")]);
        let e = HeroClips::resolve(&m, &[(HeroClip::Walk, "Walking".into())]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the role `walk` is mapped to the clip `Walking`, which the model does not have \
             (its clips: `idle`, `run`)"
        );
    }

    #[test]
    fn the_built_in_hero_plays_every_role_with_its_own_clip() {
        let m = crate::anim::builtin_hero();
        let (clips, mapping) = HeroClips::resolve(m, &[]).unwrap();
        assert_eq!(clips, HeroClips::find(m).unwrap());
        assert!(mapping.iter().all(|r| r.fallback.is_none()));
    }

    #[test]
    fn the_controller_needs_exactly_the_generated_clips() {
        let mut names: Vec<&str> = HeroClip::ALL.iter().map(|c| c.name()).collect();
        let mut file = CLIP_NAMES.to_vec();
        names.sort_unstable();
        file.sort_unstable();
        assert_eq!(names, file);
        for (i, c) in HeroClip::ALL.iter().enumerate() {
            assert_eq!(*c as usize, i);
        }
    }
}
