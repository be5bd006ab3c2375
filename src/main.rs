//! The `tessera` command line: play (the default), `render` (offscreen PNG), `sim` (headless run)
//! and `check` (validate data files).
//!
//! This binary is the edge: errors from the library's typed enums are turned into one line on
//! stderr (`error: FILE:LINE:COL: what`) and a non-zero exit status, with `anyhow` used only in the
//! binary. Exit status: 0 success, 1 a command failed (bad file, failed run, no display or GPU),
//! 2 usage errors.
mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    quiet_wayland_probe();
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Mesa's Vulkan device-selection layer (`VK_LAYER_MESA_device_select`, an implicit layer the
/// Vulkan loader adds to every instance) asks the Wayland compositor for its GPU on every device
/// enumeration whenever the instance enables `VK_KHR_wayland_surface`, which wgpu always does
/// where the driver offers it. Without a usable `XDG_RUNTIME_DIR` (an X11 session started without
/// a login manager, a container, Xvfb) that cannot succeed, and libwayland-client prints
/// "error: XDG_RUNTIME_DIR is invalid or not set in the environment." each time: four lines when
/// the game starts, which read like a failure. In exactly that case, and unless the user steers
/// the layer (`DRI_PRIME`, `MESA_VK_DEVICE_SELECT`, `NODEVICE_SELECT`), this turns the layer off
/// with the switch its manifest declares; wgpu still picks the adapter itself.
fn quiet_wayland_probe() {
    use std::env::var_os;
    let absolute =
        |name: &str| var_os(name).is_some_and(|v| std::path::Path::new(&v).is_absolute());
    if cfg!(target_os = "linux")
        && var_os("WAYLAND_SOCKET").is_none()
        && !absolute("WAYLAND_DISPLAY")
        && !absolute("XDG_RUNTIME_DIR")
        && ["NODEVICE_SELECT", "MESA_VK_DEVICE_SELECT", "DRI_PRIME"]
            .iter()
            .all(|name| var_os(name).is_none())
    {
        // Sound only while the process has a single thread: this is the first thing `main` does,
        // before the logger, gilrs, wgpu or winit start any.
        std::env::set_var("NODEVICE_SELECT", "1");
    }
}
