//! The heads-up display of a game level: health, deaths and time, the simple level-complete
//! panel of a level played on its own (the campaign has its own screen, `app::campaign`), and the
//! fade of a death and a respawn over the frame (how dark: `View::fade`).
use crate::sim::World;

/// The heads-up display of a game level: health, deaths and time at the top left (large enough
/// for 1280 × 720 from a sofa), and the level-complete panel once the goal is reached.
/// `complete_panel`: show the simple level-complete panel (a level played on its own; the
/// campaign has its own screen).
pub fn hud(ui: &mut egui::Ui, world: &World, complete_panel: bool) {
    let play = world.play();
    let ctx = ui.ctx().clone();
    let time = clock(world.play_ticks());
    egui::Area::new(egui::Id::unique("hud"))
        .anchor(egui::Align2::LEFT_TOP, egui::vec2(16.0, 12.0))
        .interactable(false)
        .show(&ctx, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_black_alpha(140))
                .corner_radius(6.0)
                .inner_margin(egui::Margin::symmetric(12, 8))
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        let max = world.tuning().health;
                        let (rect, _) = ui.allocate_exact_size(
                            egui::vec2(26.0 * max as f32, 24.0),
                            egui::Sense::hover(),
                        );
                        for i in 0..max {
                            let c = rect.left_center() + egui::vec2(13.0 + 26.0 * i as f32, 0.0);
                            if i < play.health {
                                ui.painter().circle_filled(c, 9.0, HEALTH_COLOUR);
                            } else {
                                ui.painter().circle_stroke(
                                    c,
                                    8.0,
                                    egui::Stroke::new(2.0, HEALTH_COLOUR),
                                );
                            }
                        }
                        ui.add_space(12.0);
                        let text = format!("deaths {}   {time}", play.deaths);
                        ui.label(
                            egui::RichText::new(text)
                                .size(22.0)
                                .color(egui::Color32::WHITE),
                        );
                    });
                });
        });
    if complete_panel && world.goal_tick().is_some() {
        complete(&ctx, &time, play.deaths);
    }
}

/// The level-complete panel of a level played on its own: large white and gold text on an
/// opaque dark panel, readable over any level at 1280 × 720.
fn complete(ctx: &egui::Context, time: &str, deaths: u32) {
    egui::Area::new(egui::Id::unique("level complete"))
        .anchor(egui::Align2::CENTER_TOP, egui::vec2(0.0, 80.0))
        .interactable(false)
        .show(ctx, |ui| {
            egui::Frame::new()
                .fill(egui::Color32::from_rgb(18, 22, 30))
                .stroke(egui::Stroke::new(2.0, GOLD))
                .corner_radius(10.0)
                .inner_margin(egui::Margin::symmetric(32, 20))
                .show(ui, |ui| {
                    ui.vertical_centered(|ui| {
                        ui.label(egui::RichText::new("Level complete").size(36.0).color(GOLD));
                        ui.add_space(8.0);
                        let line = format!("time {time}     deaths {deaths}");
                        ui.label(
                            egui::RichText::new(line)
                                .size(28.0)
                                .color(egui::Color32::WHITE),
                        );
                        ui.add_space(8.0);
                        ui.label(
                            egui::RichText::new("Jump: play it again     Pause: menu")
                                .size(22.0)
                                .color(egui::Color32::from_gray(225)),
                        );
                    });
                });
        });
}

/// The level-complete panel's title and border.
const GOLD: egui::Color32 = egui::Color32::from_rgb(255, 205, 80);

/// The frame darkened by `amount` (0: not at all, 1: black) for a death and a respawn
/// ([`crate::view::View::fade`]), under the HUD and the menus.
pub fn fade(ctx: &egui::Context, amount: f32) {
    if amount <= 0.0 {
        return;
    }
    let layer = egui::LayerId::new(egui::Order::Background, egui::Id::unique("respawn fade"));
    let alpha = (amount.clamp(0.0, 1.0) * 255.0).round() as u8;
    ctx.layer_painter(layer).rect_filled(
        ctx.content_rect(),
        0.0,
        egui::Color32::from_black_alpha(alpha),
    );
}

/// The colour of the HUD's health marks.
const HEALTH_COLOUR: egui::Color32 = egui::Color32::from_rgb(230, 60, 60);

/// `ticks` of the simulation as `m:ss.cc`.
pub fn clock(ticks: u64) -> String {
    let centis = ticks * 100 / u64::from(crate::sim::TICK_HZ);
    format!(
        "{}:{:02}.{:02}",
        centis / 6000,
        centis / 100 % 60,
        centis % 100
    )
}
