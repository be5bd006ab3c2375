//! Offscreen rendering: a world drawn into a texture and read back as an RGBA image, with no
//! window. Used by `tessera render`, the golden-image tests and screenshots.
use std::path::{Path, PathBuf};

use super::frame::FrameData;
use super::gpu::{Gpu, GpuError};
use super::quality::Quality;
use super::renderer::{FrameTarget, Renderer};
use crate::anim::{Character, HeroAnimator};
use crate::sim::{load_world, LoadError, ReplayDriver, World, WorldFiles};
use crate::view::{follow_target, CameraConfig, CameraRig, Cast, Snapshot, View};

/// Why an offscreen render failed. Every variant names its file or the GPU step.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// A level, tuning or replay file could not be loaded, or no world built from it.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// No adapter, or drawing or reading back failed.
    #[error(transparent)]
    Gpu(#[from] GpuError),
    /// An image file could not be written or read.
    #[error("{}: {what} the PNG: {error}", path.display())]
    Png {
        /// The file.
        path: PathBuf,
        /// "cannot write" or "cannot read".
        what: &'static str,
        /// The codec's or the file system's error.
        error: image::ImageError,
    },
    /// The character's model cannot play the hero (a leg joint it lacks).
    #[error("{0}")]
    Character(String),
    /// An agent's character file.
    #[error(transparent)]
    Cast(#[from] crate::view::CastError),
}

/// The format offscreen images are drawn in (stored sRGB-encoded, as PNG expects).
pub const OFFSCREEN_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;

/// An RGBA8 image, sRGB-encoded, rows top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width × height × 4` bytes.
    pub rgba: Vec<u8>,
}

/// A GPU device and renderer drawing into an offscreen texture of one size.
pub struct Headless {
    gpu: Gpu,
    renderer: Renderer,
    texture: wgpu::Texture,
    size: (u32, u32),
    /// The level whose geometry is on the GPU (uploaded again only when a shot's level differs).
    level: Option<crate::level::Level>,
    /// The camera of every shot, settled on the hero (default: the game's).
    pub camera: CameraConfig,
}

impl Headless {
    /// Opens a device (no window) for `size` images at the full quality.
    pub fn new(size: (u32, u32)) -> Result<Headless, GpuError> {
        Headless::with_quality(size, Quality::FULL)
    }

    /// Opens a device (no window) for `size` images drawn at `quality`.
    pub fn with_quality(size: (u32, u32), quality: Quality) -> Result<Headless, GpuError> {
        let gpu = Gpu::headless()?;
        let size = (size.0.max(1), size.1.max(1));
        let renderer = Renderer::new(&gpu, OFFSCREEN_FORMAT, size, quality);
        let texture = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen"),
            size: wgpu::Extent3d {
                width: size.0,
                height: size.1,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: OFFSCREEN_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[OFFSCREEN_FORMAT.remove_srgb_suffix()],
        });
        Ok(Headless {
            gpu,
            renderer,
            texture,
            size,
            level: None,
            camera: CameraConfig::default(),
        })
    }

    /// Samples per pixel of the main pass (4 where the adapter supports it).
    pub fn samples(&self) -> u32 {
        self.renderer.samples()
    }

    /// What the renderer draws with (the depth format, the samples the adapter supports, …).
    pub fn quality(&self) -> Quality {
        self.renderer.quality()
    }

    /// The adapter in use, in words.
    pub fn describe(&self) -> String {
        self.gpu.describe()
    }

    /// Triangles of the characters (the hero and the agents) in the last shot's lit pass, at the
    /// levels of detail they were drawn with.
    pub fn character_triangles(&self) -> u32 {
        self.renderer.character_triangles()
    }

    /// How the last shot's shadow pass drew (the level from its cache when the camera and the
    /// level stayed put).
    pub fn shadow_draw(&self) -> crate::render::passes::shadow::ShadowDraw {
        self.renderer.shadow_draw()
    }

    /// Shots so far whose backdrop was drawn in a pass of its own through the plain view
    /// ([`Quality::plain_backdrop`]), and inside the main pass.
    pub fn backdrop_draws(&self) -> [u64; 2] {
        self.renderer.backdrop_draws()
    }

    /// Draws the hero with `model` (a character's; see [`Renderer::set_hero_model`]).
    pub fn set_hero_model(&mut self, model: &crate::anim::Model) {
        self.renderer
            .set_hero_model(&self.gpu.device, &self.gpu.queue, model);
    }

    /// Draws `world` as it is now, the hero and the agents with characters posed by `view`'s
    /// animation and the overlay as `view` shows it: a still shot (the camera of
    /// [`Headless::camera`] settled on the hero, no blend between ticks, no step smoothing), read
    /// back.
    pub fn shoot(&mut self, world: &World, view: &View) -> Result<Image, GpuError> {
        let camera_config = self.camera.clone();
        if self.level.as_ref() != Some(&*world.level()) {
            self.renderer.set_level(
                &self.gpu.device,
                &self.gpu.queue,
                &world.level(),
                &camera_config,
            );
            self.level = Some(world.level().clone());
        }
        let aspect = self.size.0 as f64 / self.size.1 as f64;
        let bounds = world.level().camera_bounds;
        let camera = CameraRig::new(
            camera_config,
            follow_target(world, 1.0, 0.0),
            bounds,
            aspect,
        );
        let snapshot = Snapshot {
            alpha: 1.0,
            time: 0.0,
            overlay: view.overlay(),
            step_offset: 0.0,
            hero: view.hero(),
            cast: view.cast(),
            camera: &camera,
            signs: view.signs(),
            doors: view.doors(),
        };
        self.renderer
            .set_cast(&self.gpu.device, &self.gpu.queue, view.cast());
        let mut frame = FrameData::default();
        frame.prepare(world, &snapshot, &self.renderer.frame_params(aspect));
        let scope = self
            .gpu
            .device
            .push_error_scope(wgpu::ErrorFilter::Validation);
        let view = self.texture.create_view(&Default::default());
        let plain = self.texture.create_view(&wgpu::TextureViewDescriptor {
            format: Some(OFFSCREEN_FORMAT.remove_srgb_suffix()),
            ..Default::default()
        });
        let target = FrameTarget {
            view: &view,
            plain: Some(&plain),
        };
        self.renderer.render(&self.gpu, world, &frame, target);
        let image = self.read_back()?;
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(GpuError::Render(e.to_string()));
        }
        Ok(image)
    }

    fn read_back(&self) -> Result<Image, GpuError> {
        let (w, h) = self.size;
        let row = (w * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let device = &self.gpu.device;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: (row * h) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: Some(h),
                },
            },
            wgpu::Extent3d {
                width: w,
                height: h,
                depth_or_array_layers: 1,
            },
        );
        self.gpu.queue.submit([encoder.finish()]);
        let (tx, rx) = std::sync::mpsc::channel();
        buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            // The receiver waits below; a send error only means it gave up already.
            let _ = tx.send(r);
        });
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        rx.recv()
            .map_err(|e| GpuError::Readback(e.to_string()))?
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        let mapped = buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| GpuError::Readback(e.to_string()))?;
        let mut rgba = Vec::with_capacity((w * h * 4) as usize);
        for y in 0..h as usize {
            let start = y * row as usize;
            rgba.extend_from_slice(&mapped[start..start + (w * 4) as usize]);
        }
        drop(mapped);
        buffer.unmap();
        Ok(Image {
            width: w,
            height: h,
            rgba,
        })
    }
}

impl Image {
    /// Writes the image as a PNG.
    pub fn save_png(&self, path: &Path) -> Result<(), RenderError> {
        image::save_buffer(
            path,
            &self.rgba,
            self.width,
            self.height,
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|error| RenderError::Png {
            path: path.to_path_buf(),
            what: "cannot write",
            error,
        })
    }

    /// Reads a PNG as RGBA8.
    pub fn load_png(path: &Path) -> Result<Image, RenderError> {
        let img = image::open(path)
            .map_err(|error| RenderError::Png {
                path: path.to_path_buf(),
                what: "cannot read",
                error,
            })?
            .into_rgba8();
        Ok(Image {
            width: img.width(),
            height: img.height(),
            rgba: img.into_raw(),
        })
    }
}

/// Builds the world of `files` (level, tuning by the one policy, replay: see
/// [`load_world`]) and runs it for `frame` ticks of its replay (default: the replay's length; idle
/// ticks past its end or without one; 0 ticks with neither), through the same [`ReplayDriver`]
/// as `tessera sim` and the game.
pub fn world_at_frame(files: &WorldFiles, frame: Option<u64>) -> Result<World, RenderError> {
    Ok(scene_at_frame(files, frame)?.0)
}

/// [`world_at_frame`] with its [`View`] fed after every tick, as the game feeds it (the hero's
/// animation run alongside).
pub fn scene_at_frame(
    files: &WorldFiles,
    frame: Option<u64>,
) -> Result<(World, View), RenderError> {
    scene_with_hero(files, frame, HeroAnimator::builtin())
}

/// [`scene_at_frame`] with another hero animator (a character's).
pub fn scene_with_hero(
    files: &WorldFiles,
    frame: Option<u64>,
    hero: HeroAnimator,
) -> Result<(World, View), RenderError> {
    let loaded = load_world(files)?;
    let mut world = loaded.world;
    let cast = Cast::load(&world, &loaded.level_path, &files.data)?;
    let mut view = View::with_hero(&world, CameraConfig::default(), 1.0, hero);
    view.set_cast(cast);
    let mut driver = ReplayDriver::new(loaded.replay.as_ref());
    for _ in 0..frame.unwrap_or(driver.len()) {
        driver.step(&mut world, Default::default());
        view.after_tick(&world);
    }
    Ok((world, view))
}

/// Renders a level offscreen to a PNG: the hero (the built-in one, or `character`) placed and
/// posed by the replay at `frame` (see [`scene_at_frame`]), the camera settled on it, `size`
/// pixels. Its signs near the hero read as written (`{jump}`): the renderer knows no bindings;
/// [`render_level_to_png_with_signs`] names keys.
pub fn render_level_to_png(
    files: &WorldFiles,
    frame: Option<u64>,
    size: (u32, u32),
    out: &Path,
    character: Option<&Character>,
) -> Result<(), RenderError> {
    render_level_to_png_with_signs(files, frame, size, out, character, &|t| t.to_string())
}

/// [`render_level_to_png`], each shown sign's text written by `sign_text` (the caller's
/// bindings: `input::sign_text`, as `tessera render` does with the default keys).
pub fn render_level_to_png_with_signs(
    files: &WorldFiles,
    frame: Option<u64>,
    size: (u32, u32),
    out: &Path,
    character: Option<&Character>,
    sign_text: &dyn Fn(&str) -> String,
) -> Result<(), RenderError> {
    let hero = match character {
        Some(c) => {
            HeroAnimator::for_character(c).map_err(|e| RenderError::Character(e.to_string()))?
        }
        None => HeroAnimator::builtin(),
    };
    let (world, mut view) = scene_with_hero(files, frame, hero)?;
    let texts = world
        .level()
        .signs
        .iter()
        .map(|s| sign_text(&s.text))
        .collect();
    view.signs_mut().set_texts(texts);
    let mut headless = Headless::new(size)?;
    if let Some(c) = character {
        headless.set_hero_model(&c.model);
    }
    let image = headless.shoot(&world, &view)?;
    image.save_png(out)
}

/// Phases at which [`contact_sheet`] shows each clip, as fractions of its duration.
pub const SHEET_PHASES: [f32; 4] = [0.0, 0.25, 0.5, 0.75];

/// Size of one cell of a [`contact_sheet`], pixels.
pub const SHEET_CELL: (u32, u32) = (192, 256);

/// Height of the label strip at the top of each cell of a [`contact_sheet`], pixels: three lines
/// of the sheet's font at scale 2.
pub const SHEET_LABEL: u32 = 40;

/// A row of a [`contact_sheet`]: the model's clip it shows and the lines written at the top of
/// each of its cells (the role, the clip, why that clip).
#[derive(Clone, Debug, PartialEq)]
pub struct SheetRow {
    /// The model's clip index.
    pub clip: usize,
    /// The label's lines (three fit).
    pub label: Vec<String>,
}

/// A contact sheet of a character (`tessera model --sheet`): one row per [`SheetRow`], one
/// column per phase of [`SHEET_PHASES`], each cell the character on a floor in that clip's
/// pose, seen from the side, its label written at the top. Each row is framed by the
/// character's bounds over its clip's phases: the camera is moved so that they fill the cell's
/// height under the label (and fit its width), whatever the model's size.
pub fn contact_sheet(hero: HeroAnimator, rows: &[SheetRow]) -> Result<Image, RenderError> {
    let level = crate::level::parse_level(
        Path::new("contact sheet"),
        "(name: \"contact sheet\", spawn: (0.0, 0.0), polygons: [(points: [(-20.0, -1.0), \
         (20.0, -1.0), (20.0, 0.0), (-20.0, 0.0)])])",
    )
    .map_err(LoadError::from)?;
    let world = World::new(&level, &crate::movement::Tuning::default()).map_err(|error| {
        LoadError::World {
            path: "contact sheet".into(),
            error,
        }
    })?;
    let mut view = View::with_hero(&world, CameraConfig::default(), 0.75, hero);
    let mut headless = Headless::new(SHEET_CELL)?;
    headless.set_hero_model(view.hero().model());
    let model = view.hero().model().clone();
    let (cw, ch) = (SHEET_CELL.0 as usize, SHEET_CELL.1 as usize);
    let columns = SHEET_PHASES.len();
    let mut sheet = Image {
        width: (cw * columns) as u32,
        height: (ch * rows.len()) as u32,
        rgba: vec![0; cw * columns * ch * rows.len() * 4],
    };
    for (r, row) in rows.iter().enumerate() {
        let clip = row.clip;
        let duration = model.clips.get(clip).map_or(0.0, |c| c.duration);
        headless.camera = framing(&model, clip, duration);
        for (col, phase) in SHEET_PHASES.iter().enumerate() {
            view.hero_mut().show_clip(clip, phase * duration);
            let mut shot = headless.shoot(&world, &view)?;
            label(&mut shot, &row.label);
            for y in 0..ch {
                let from = y * cw * 4;
                let to = ((r * ch + y) * cw * columns + col * cw) * 4;
                sheet.rgba[to..to + cw * 4].copy_from_slice(&shot.rgba[from..from + cw * 4]);
            }
        }
    }
    Ok(sheet)
}

/// The side view that frames `model` over the phases of its clip `clip`: the box around the
/// posed vertices fills the cell's height under the label strip (less a few pixels) and fits
/// its width, centred on it (the character stands at the origin facing +x as the sheet's hero
/// does, so the camera's look-ahead is the box's middle).
fn framing(model: &crate::anim::Model, clip: usize, duration: f32) -> CameraConfig {
    use crate::anim::measure::{bounds, posed_positions};
    let points = SHEET_PHASES.iter().flat_map(|p| {
        let mut pose = model.rest_pose();
        if let Some(c) = model.clips.get(clip) {
            c.sample_into(p * duration, &mut pose);
        }
        posed_positions(model, &pose)
    });
    let (lo, hi) = bounds(points).filter(|(lo, hi)| hi.y > lo.y).unwrap_or((
        glam::Vec3::new(-0.4, 0.0, -0.4),
        glam::Vec3::new(0.4, 1.8, 0.4),
    ));
    let (cw, ch) = (f64::from(SHEET_CELL.0), f64::from(SHEET_CELL.1));
    let fov = 40.0f64;
    let tan = (fov.to_radians() / 2.0).tan();
    // The band the character fills, pixels from the top.
    let (top, bottom) = (f64::from(SHEET_LABEL) + 6.0, ch - 8.0);
    let height = f64::from(hi.y - lo.y);
    // Centred across the cell on the box (a character lying down after its death reaches far
    // to one side of where it stood).
    let centre = f64::from(lo.x + hi.x) / 2.0;
    let half_width = (f64::from(hi.x - lo.x) / 2.0).max(1e-3);
    // Pixels per metre on the focus plane: the height fills the band, the width the cell.
    let ppm = ((bottom - top) / height).min((cw / 2.0 - 6.0) / half_width);
    let half_view = ch / 2.0 / ppm; // metres from the centre to the top on the focus plane
    let middle = f64::from(lo.y + hi.y) / 2.0;
    // The band's middle is below the cell's by this many pixels: look that much higher.
    let offset = ((top + bottom) / 2.0 - ch / 2.0) / ppm;
    // Vertices nearer the camera than the focus plane are drawn larger: step back by the
    // nearest one's depth.
    let depth = f64::from(hi.z.max(-lo.z).max(0.0));
    let distance = half_view / tan + depth;
    CameraConfig {
        fov_y_deg: fov,
        distance,
        focus_height: middle + offset,
        pitch_deg: 0.0,
        look_ahead: centre,
        dead_zone: glam::DVec2::ZERO,
        clip: ((distance * 0.2).min(0.5), 2000.0),
        ..CameraConfig::default()
    }
}

/// Writes a cell's label: its lines in white on a dark strip at the top.
fn label(image: &mut Image, lines: &[String]) {
    use super::sheet_font::{draw_text, fill, GLYPH};
    fill(image, 0, 0, image.width, SHEET_LABEL, [20, 20, 28, 255]);
    let fits = (image.width as usize - 8) / ((GLYPH.0 + GLYPH.2) as usize * 2);
    for (k, line) in lines.iter().take(3).enumerate() {
        let text: String = line.chars().take(fits).collect();
        draw_text(image, 4, 4 + k as u32 * 12, 2, &text, [240, 240, 240, 255]);
    }
}
