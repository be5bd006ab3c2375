//! Quality settings that trade looks for fill rate, chosen per adapter.
//!
//! A CPU rasteriser (Mesa's lavapipe/llvmpipe, [`wgpu::DeviceType::Cpu`]) pays for every sample
//! and every texture tap on the CPU: 4× MSAA alone costs it about 15 ms per 1280×720 frame, and the
//! four shadow-map taps per fragment a quarter of the lit pass, and a 1024² shadow map about 6 ms
//! of CPU per frame more than a 512² one (its clear and the level drawn into it; measured on the
//! 20-enemy scene, BENCHMARKS.md); and it runs vertex shaders on the CPU too, where skinning
//! 20 characters in two passes took about 4 ms a frame. So by default it draws with one sample
//! per pixel, a one-tap shadow filter and a 512² shadow map, and poses the agents' characters on
//! the CPU, drawn in one batch per model ([`super::posed`]), moves its shadow camera in steps
//! of 64 texels, so that the level's shadow is drawn once per step rather than once per frame
//! (a still camera copies it from a cache on any adapter: [`super::passes::shadow`]), and keeps
//! a 16-bit depth buffer (every depth test and write moves half the bytes of a 32-bit one:
//! memory traffic is much of what a CPU rasteriser's frame costs), and draws the backdrop in a
//! pass of its own through the frame's plain (not sRGB) view, with no depth attachment, which it
//! fills faster ([`Quality::plain_backdrop`]); hardware
//! adapters get the full look and skin on the GPU. Offscreen
//! renders (`tessera render`, the golden images) always use [`Quality::FULL`].
use super::targets::{CPU_DEPTH_FORMAT, DEPTH_FORMAT, MSAA_SAMPLES};

/// The multisampling asked for: `auto` (the default) decides per adapter, or a fixed count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Msaa {
    /// [`MSAA_SAMPLES`] on hardware adapters, 1 on CPU rasterisers (see [`Quality::choose`]).
    #[default]
    Auto,
    /// Exactly this many samples per pixel: 1 or [`MSAA_SAMPLES`].
    Samples(u32),
}

impl std::str::FromStr for Msaa {
    type Err = String;

    /// `auto`, `1` or `4`.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "auto" => Ok(Msaa::Auto),
            "1" => Ok(Msaa::Samples(1)),
            "4" => Ok(Msaa::Samples(MSAA_SAMPLES)),
            _ => Err(format!("MSAA must be auto, 1 or 4, got `{s}`")),
        }
    }
}

impl std::fmt::Display for Msaa {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Msaa::Auto => f.write_str("auto"),
            Msaa::Samples(n) => write!(f, "{n}"),
        }
    }
}

/// How a renderer draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quality {
    /// Samples per pixel of the main pass (1 or [`MSAA_SAMPLES`]); lowered to 1 where the adapter
    /// does not support it for the format.
    pub samples: u32,
    /// Shadow-map comparison taps per lit fragment: 4 (a smooth 3×3-texel filter) or 1 (a 2×2-texel
    /// bilinear filter: slightly harder shadow edges).
    pub shadow_taps: u32,
    /// Shadow map texels per side: [`FULL_SHADOW_MAP`] or [`CPU_SHADOW_MAP`]. The map covers the
    /// view, so at the default camera a 1024² map has texels of about 3 cm, a 512² one of 6 cm
    /// (softer shadow edges).
    pub shadow_map: u32,
    /// Whether the agents drawn with characters are posed on the CPU and drawn in one batch per
    /// model ([`super::posed`]) rather than skinned on the GPU one draw each. The same pixels
    /// either way; the hero is always skinned on the GPU.
    pub pose_on_cpu: bool,
    /// The shadow camera's step, in texels ([`super::globals::Lighting::shadow_snap`]): 1 (it
    /// follows the view texel by texel) or [`CPU_SHADOW_SNAP`] (its map 6 % coarser at 512², it
    /// stays put while the view moves less than a step, about 7 m at the default camera, and the
    /// level's shadow is copied from a cache instead of drawn).
    pub shadow_snap: u32,
    /// The main pass's depth format: [`DEPTH_FORMAT`] (32-bit float) or [`CPU_DEPTH_FORMAT`]
    /// (16-bit). With the default camera's near plane at 0.5 m, 16 bits resolve depth to about
    /// 9 mm at the play plane (17 m from the eye) and 5 cm at the nearest backdrop layer (42 m):
    /// finer than any two surfaces of the level or a character that overlap on screen.
    pub depth: wgpu::TextureFormat,
    /// Whether the backdrop is drawn in a pass of its own before the main pass, through the
    /// frame's plain (not sRGB) view with no depth attachment, its colours encoded per vertex
    /// (`shaders/unlit.wgsl`), where the frame's texture has such a view and is drawn with
    /// one sample per pixel; else inside the main pass. A CPU rasteriser fills those triangles
    /// faster: about 2.7 ms of CPU less a 1280×720 frame on lavapipe (BENCHMARKS.md). The
    /// gradients differ by a few levels of 255 at most (interpolated between sRGB values instead
    /// of linear ones).
    pub plain_backdrop: bool,
}

/// Shadow map texels per side in the full look.
pub const FULL_SHADOW_MAP: u32 = 1024;
/// Shadow map texels per side on a CPU rasteriser.
pub const CPU_SHADOW_MAP: u32 = 512;

/// The shadow camera's step on a CPU rasteriser, texels.
pub const CPU_SHADOW_SNAP: u32 = 64;

/// Why `auto` draws without multisampling on a CPU adapter (logged once).
pub const CPU_REASON: &str = "a CPU rasteriser: drawing without multisampling (4× MSAA alone \
     costs it about 15 ms per 1280×720 frame), with a 1-tap shadow filter and a 512² shadow map, \
     the agents' characters posed on the CPU and drawn in one batch per model, and the shadow \
     camera moving in steps of 64 texels, a 16-bit depth buffer, and the backdrop drawn in a pass \
     of its own; `--msaa 4` forces multisampling";

impl Quality {
    /// The full look: 4× MSAA, the 4-tap shadow filter and a 1024² shadow map, characters
    /// skinned on the GPU, a 32-bit depth buffer, the backdrop drawn inside the main pass.
    pub const FULL: Quality = Quality {
        samples: MSAA_SAMPLES,
        shadow_taps: 4,
        shadow_map: FULL_SHADOW_MAP,
        pose_on_cpu: false,
        shadow_snap: 1,
        depth: DEPTH_FORMAT,
        plain_backdrop: false,
    };

    /// The settings for an adapter of type `device` given the multisampling asked for, and a
    /// one-line reason when they are below [`Quality::FULL`] because the adapter is a CPU
    /// rasteriser. A fixed `msaa` is kept on every adapter; the shadow filter, map and camera
    /// steps, where characters are posed and the depth format follow the adapter.
    pub fn choose(msaa: Msaa, device: wgpu::DeviceType) -> (Quality, Option<&'static str>) {
        let cpu = device == wgpu::DeviceType::Cpu;
        let samples = match msaa {
            Msaa::Samples(n) => n,
            Msaa::Auto if cpu => 1,
            Msaa::Auto => MSAA_SAMPLES,
        };
        let quality = Quality {
            samples,
            shadow_taps: if cpu { 1 } else { 4 },
            shadow_map: if cpu { CPU_SHADOW_MAP } else { FULL_SHADOW_MAP },
            pose_on_cpu: cpu,
            shadow_snap: if cpu { CPU_SHADOW_SNAP } else { 1 },
            depth: if cpu { CPU_DEPTH_FORMAT } else { DEPTH_FORMAT },
            plain_backdrop: cpu && samples == 1,
        };
        (quality, cpu.then_some(CPU_REASON))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wgpu::DeviceType;

    const GPUS: [DeviceType; 4] = [
        DeviceType::DiscreteGpu,
        DeviceType::IntegratedGpu,
        DeviceType::VirtualGpu,
        DeviceType::Other,
    ];

    #[test]
    fn msaa_parses_auto_1_and_4_only() {
        assert_eq!("auto".parse(), Ok(Msaa::Auto));
        assert_eq!("1".parse(), Ok(Msaa::Samples(1)));
        assert_eq!("4".parse(), Ok(Msaa::Samples(4)));
        for bad in ["", "2", "8", "0", "Auto", "four", "-1"] {
            assert!(bad.parse::<Msaa>().is_err(), "{bad:?}");
        }
        for m in [Msaa::Auto, Msaa::Samples(1), Msaa::Samples(4)] {
            assert_eq!(m.to_string().parse(), Ok(m));
        }
        assert_eq!(Msaa::default(), Msaa::Auto);
    }

    #[test]
    fn auto_gives_gpus_the_full_look() {
        for device in GPUS {
            assert_eq!(
                Quality::choose(Msaa::Auto, device),
                (Quality::FULL, None),
                "{device:?}"
            );
        }
    }

    #[test]
    fn auto_turns_multisampling_off_on_cpu_adapters_and_says_why() {
        let (q, why) = Quality::choose(Msaa::Auto, DeviceType::Cpu);
        assert_eq!(
            q,
            Quality {
                samples: 1,
                shadow_taps: 1,
                shadow_map: CPU_SHADOW_MAP,
                pose_on_cpu: true,
                shadow_snap: CPU_SHADOW_SNAP,
                depth: CPU_DEPTH_FORMAT,
                plain_backdrop: true,
            }
        );
        let why = why.expect("a reason to log");
        assert!(why.contains("CPU") && why.contains("--msaa 4"), "{why}");
    }

    #[test]
    fn a_fixed_sample_count_is_kept_on_every_adapter() {
        for device in GPUS.into_iter().chain([DeviceType::Cpu]) {
            for n in [1, 4] {
                let (q, _) = Quality::choose(Msaa::Samples(n), device);
                assert_eq!(q.samples, n, "{device:?}");
            }
        }
        assert_eq!(
            Quality::choose(Msaa::Samples(1), DeviceType::DiscreteGpu),
            (
                Quality {
                    samples: 1,
                    shadow_taps: 4,
                    shadow_map: FULL_SHADOW_MAP,
                    pose_on_cpu: false,
                    shadow_snap: 1,
                    depth: DEPTH_FORMAT,
                    plain_backdrop: false,
                },
                None
            )
        );
        let (q, why) = Quality::choose(Msaa::Samples(4), DeviceType::Cpu);
        assert_eq!(
            (q.samples, q.shadow_taps, q.shadow_map, q.pose_on_cpu),
            (4, 1, CPU_SHADOW_MAP, true)
        );
        assert!(
            !q.plain_backdrop,
            "the backdrop's own pass draws one sample"
        );
        assert!(why.is_some());
    }
}
