//! The hand history on the Title (from the Statistics page): the last rounds kept, newest first, each with its
//! cards, the dealer's, the decisions, how it ended and what it brought, and a button that replays it on the felt.
//! During a replay, a banner says which round it is and, once it is over, offers to watch it again or go back.

use super::*;
use crate::game::keep::history::Kept;
use crate::game::model::seat::{OpenTable, Replay};
use crate::host::history::PlayedHand;
use crate::host::record::cards_text;

/// How many rounds the page lists.
const LISTED: usize = 100;

/// The page; returns the round picked for a replay.
pub(super) fn hands_page(ui: &mut egui::Ui, kept: &Kept) -> Option<Vec<PlayedHand>> {
    let count = crate::host::replay::round_spans(&kept.history.hands).count();
    if count == 0 {
        ui.label("No hands yet: every hand you play is kept here, to look back at and replay.");
        return None;
    }
    ui.label(bold("Hand history").size(22.0).color(GOLD));
    ui.label(
        egui::RichText::new(format!(
            "The last {} of {} rounds kept, newest first",
            count.min(LISTED),
            count
        ))
        .size(15.0),
    );
    ui.add_space(6.0);
    let mut picked = None;
    let size = egui::vec2(
        ui.available_width().min(900.0),
        ui.available_height() - 40.0,
    );
    ui.allocate_ui_with_layout(size, egui::Layout::top_down(egui::Align::Min), |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for round in crate::host::replay::rounds(&kept.history.hands).take(LISTED) {
                    panel_frame().show(ui, |ui| {
                        ui.set_width(size.x - 24.0);
                        ui.horizontal(|ui| {
                            let first = &round[0];
                            ui.label(
                                bold(format!("Round {}", first.round))
                                    .size(16.0)
                                    .color(GOLD),
                            );
                            ui.label(egui::RichText::new(&first.table).size(14.0));
                            if !first.yours {
                                ui.label(
                                    egui::RichText::new(format!("seat {}", first.seat + 1))
                                        .size(14.0)
                                        .italics(),
                                );
                            }
                            let net: Cents =
                                round.iter().map(|h| h.net).sum::<Cents>() + first.insurance;
                            ui.with_layout(
                                egui::Layout::right_to_left(egui::Align::Center),
                                |ui| {
                                    let replayable = !first.deal.is_empty();
                                    let button = ui
                                        .add_enabled(replayable, egui::Button::new(bold("Replay")))
                                        .on_disabled_hover_text(
                                            "Kept before hands recorded their deal",
                                        );
                                    if button.clicked() {
                                        picked = Some(round.clone());
                                    }
                                    ui.label(bold(net.signed().to_string()).size(16.0));
                                },
                            );
                        });
                        for hand in round {
                            ui.label(
                                egui::RichText::new(format!(
                                    "{}  against the dealer's {}  ·  {}  ·  {}",
                                    cards_text(&hand.cards),
                                    cards_text(&hand.dealer),
                                    if hand.decisions.is_empty() {
                                        "no decision".to_string()
                                    } else {
                                        hand.decisions_text()
                                    },
                                    hand.outcome.label().trim_end_matches('!'),
                                ))
                                .size(14.0),
                            );
                        }
                    });
                    ui.add_space(4.0);
                }
            });
    });
    picked
}

/// The replay's banner, and once the round is over on the felt: watch it again, or back to the hand history.
pub(super) fn replay_banner(
    mut contexts: EguiContexts,
    replaying: Option<Res<Replay>>,
    view: Option<Res<SeatView>>,
    beats: Res<Beats>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) -> Result {
    let (Some(replaying), Some(view)) = (replaying, view) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let done = replaying.done(&view, &beats);
    // Over the betting bar (nobody bets in a replay), where the table says what is going on.
    egui::Area::new(egui::Id::new("replay banner"))
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -6.0])
        .order(egui::Order::Foreground)
        .show(ctx, |ui| {
            panel_frame()
                .fill(egui::Color32::from_rgb(14, 20, 17))
                .stroke(egui::Stroke::new(1.5, GOLD))
                .show(ui, |ui| {
                    ui.set_min_size(egui::vec2(780.0, 52.0));
                    ui.vertical_centered(|ui| {
                        ui.label(bold(replaying.label()).size(18.0).color(GOLD));
                        if !done {
                            ui.label(
                                egui::RichText::new(
                                    "dealt again from the record, as it was played",
                                )
                                .size(13.0),
                            );
                            return;
                        }
                        ui.horizontal(|ui| {
                            // The two buttons, about 330 points together, in the middle.
                            ui.add_space(((ui.available_width() - 330.0) / 2.0).max(0.0));
                            if ui.button(bold("Watch it again").size(16.0)).clicked() {
                                // The table closes, and opens again at the start of the round.
                                commands
                                    .insert_resource(OpenTable::Replay(replaying.round.clone()));
                                next.set(Screen::Title);
                            }
                            if ui.button(bold("Back to the hands").size(16.0)).clicked() {
                                commands.insert_resource(StartPage(Menu::Hands));
                                next.set(Screen::Title);
                            }
                        });
                    });
                });
        });
    Ok(())
}
