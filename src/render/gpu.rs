//! The GPU connection: instance, adapter, device and queue, for a window or for offscreen use.
//!
//! Vulkan only (plus DX12 on Windows): Mesa's lavapipe gives a CPU Vulkan device wherever there is
//! no GPU, so the same code path runs in CI, headless, and on desktops.
use std::sync::Arc;

/// Why the GPU could not be used.
#[derive(Debug, thiserror::Error)]
pub enum GpuError {
    /// No Vulkan (or DX12) adapter.
    #[error(
        "no GPU adapter found ({0}); install a Vulkan driver (on Debian/Ubuntu, `apt-get install mesa-vulkan-drivers libvulkan1` gives a CPU fallback)"
    )]
    NoAdapter(String),
    /// The adapter refused to create a device.
    #[error("the GPU adapter refused to open a device: {0}")]
    Device(String),
    /// The window's drawing surface could not be made or is unsupported.
    #[error("cannot draw into the window: {0}")]
    Surface(String),
    /// The GPU reported a validation or out-of-memory error while rendering.
    #[error("GPU error while rendering: {0}")]
    Render(String),
    /// Reading a rendered image back failed.
    #[error("reading the rendered image back from the GPU failed: {0}")]
    Readback(String),
}

/// An open GPU device.
pub struct Gpu {
    /// The instance the adapter came from (needed to create window surfaces).
    pub instance: wgpu::Instance,
    /// The adapter in use.
    pub adapter: wgpu::Adapter,
    /// The logical device.
    pub device: wgpu::Device,
    /// Its queue.
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// A wgpu instance on the backends this build supports (overridable with `WGPU_BACKEND`).
    pub fn instance() -> wgpu::Instance {
        let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
        desc.backends = wgpu::Instance::enabled_backend_features();
        wgpu::Instance::new(desc.with_env())
    }

    /// Opens a device on an adapter that can present to `surface` (or any adapter, offscreen).
    pub fn open(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Gpu, GpuError> {
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: surface,
            apply_limit_buckets: false,
        }))
        .map_err(|e| GpuError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        log::info!(
            "GPU: {} ({:?}, {:?} backend, driver {})",
            info.name,
            info.device_type,
            info.backend,
            info.driver_info
        );
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("tessera"),
            required_features: wgpu::Features::empty(),
            required_limits: wgpu::Limits::default().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| GpuError::Device(e.to_string()))?;
        device.on_uncaptured_error(Arc::new(|e: wgpu::Error| log::error!("GPU error: {e}")));
        Ok(Gpu {
            instance,
            adapter,
            device,
            queue,
        })
    }

    /// Opens a device for offscreen rendering.
    pub fn headless() -> Result<Gpu, GpuError> {
        Gpu::open(Gpu::instance(), None)
    }

    /// A one-line description of the adapter, for logs and errors.
    pub fn describe(&self) -> String {
        let i = self.adapter.get_info();
        format!("{} ({:?})", i.name, i.backend)
    }
}
