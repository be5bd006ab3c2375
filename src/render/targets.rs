//! Render targets of the main pass: the multisampled colour and depth attachments, recreated on
//! resize. The colour is resolved into the frame's final (sRGB) texture.
/// Depth format of the shadow map, and of the main pass in the full look.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Depth format of the main pass on a CPU rasteriser ([`super::quality::Quality::depth`]).
pub const CPU_DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth16Unorm;
/// Samples per pixel of the main pass on GPUs (see [`super::quality`]).
pub const MSAA_SAMPLES: u32 = 4;

/// What the main pass draws into; every pipeline of the main pass is built for one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attachments {
    /// The colour format (the frame's texture).
    pub color: wgpu::TextureFormat,
    /// Samples per pixel.
    pub samples: u32,
    /// The depth format: [`DEPTH_FORMAT`] or [`CPU_DEPTH_FORMAT`].
    pub depth: wgpu::TextureFormat,
}

/// The main pass's attachments for one size.
pub struct Targets {
    /// Size in pixels.
    pub size: (u32, u32),
    /// Multisampled colour (resolved into the frame's texture), or `None` without MSAA.
    pub color: Option<wgpu::TextureView>,
    /// Depth.
    pub depth: wgpu::TextureView,
    /// Their formats and samples per pixel.
    pub attachments: Attachments,
}

impl Targets {
    /// The attachments `a` of `size` (each side at least 1).
    pub fn new(device: &wgpu::Device, a: Attachments, size: (u32, u32)) -> Self {
        let size = (size.0.max(1), size.1.max(1));
        let texture = |label, format, samples| {
            device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some(label),
                    size: wgpu::Extent3d {
                        width: size.0,
                        height: size.1,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: 1,
                    sample_count: samples,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
                    view_formats: &[],
                })
                .create_view(&wgpu::TextureViewDescriptor::default())
        };
        Targets {
            size,
            color: (a.samples > 1).then(|| texture("msaa colour", a.color, a.samples)),
            depth: texture("depth", a.depth, a.samples),
            attachments: a,
        }
    }
}

/// The sample count to use for `format` and `depth_format`: `wanted` (1 or [`MSAA_SAMPLES`])
/// where the adapter supports it for both, else 1.
pub fn supported_samples(
    adapter: &wgpu::Adapter,
    format: wgpu::TextureFormat,
    depth_format: wgpu::TextureFormat,
    wanted: u32,
) -> u32 {
    if wanted <= 1 {
        return 1;
    }
    let color = adapter.get_texture_format_features(format).flags;
    let depth = adapter.get_texture_format_features(depth_format).flags;
    if color.sample_count_supported(wanted) && depth.sample_count_supported(wanted) {
        wanted
    } else {
        log::warn!("{wanted}× MSAA is not supported for {format:?}; drawing without it");
        1
    }
}
