//! The hand history on the Title (from the Statistics page): the last rounds kept, newest first, each with its
//! cards, the dealer's, the decisions, how it ended and what it brought, and a button that replays it on the felt.
//! During a replay, the bar at the thumb says which round it is and, once it is over, offers to watch it again or go
//! back.

use super::*;
use crate::game::keep::history::Kept;
use crate::game::model::seat::{OpenTable, Replay, Replayed};
use crate::host::history::PlayedHand;
use crate::host::record::cards_text;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (hands_screen
            .in_set(Draw::Page)
            .run_if(in_state(Menu::Hands)),),
    );
}

/// The page on the Title: a round picked is dealt again on the felt; Back goes to the Statistics page it came from.
fn hands_screen(
    mut contexts: EguiContexts,
    kept: Res<Kept>,
    mut refused: ResMut<crate::game::model::seat::OpenRefused>,
    mut commands: Commands,
    mut to_menu: ResMut<NextState<Menu>>,
) -> Result {
    let back = page(contexts.ctx_mut()?, "Hand history", |ui| {
        if let Some(round) = hands_page(ui, &kept) {
            commands.insert_resource(OpenTable::Replay(Replayed::Own(round)));
        }
        if let Some(problem) = &refused.0 {
            ui.colored_label(REFUSAL, problem);
        }
    });
    if back {
        refused.0 = None;
        to_menu.set(Menu::Statistics);
    }
    Ok(())
}

/// How many rounds the page lists.
const LISTED: usize = 100;

/// The page; returns the round picked for a replay.
pub(super) fn hands_page(ui: &mut egui::Ui, kept: &Kept) -> Option<Vec<PlayedHand>> {
    let count = crate::host::replay::round_spans(&kept.history.hands).count();
    if count == 0 {
        ui.label("No hands yet: every hand you play is kept here, to look back at and replay.");
        return None;
    }
    ui.label(egui::RichText::new(kept_words(count)).size(theme::size::BODY));
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
                    let first = &round[0];
                    let seat = (!first.yours).then(|| format!("seat {}", first.seat + 1));
                    let net: Cents = round.iter().map(PlayedHand::total_net).sum();
                    // Kept by an older Holecard, before rounds kept their cards: it cannot be replayed.
                    let unavailable = first.deal.is_empty().then_some(
                        "Kept by an older Holecard, before rounds kept their cards: it cannot be dealt again",
                    );
                    let pressed = round_card(
                        ui,
                        size.x,
                        RoundHead {
                            round: first.round,
                            table: &first.table,
                            seat: seat.as_deref(),
                            net,
                            button: "Replay",
                            unavailable,
                        },
                        |ui| {
                            for hand in &round {
                                hand_line(
                                    ui,
                                    &hand_words(
                                        &cards_text(&hand.cards),
                                        &cards_text(&hand.dealer),
                                        &hand.decisions_text(),
                                        hand.outcome.label().trim_end_matches('!'),
                                    ),
                                    CREAM,
                                );
                            }
                        },
                    );
                    if pressed {
                        picked = Some(round.clone());
                    }
                }
            });
    });
    picked
}

/// What the page lists of `count` rounds kept: all of them, or the newest [`LISTED`].
fn kept_words(count: usize) -> String {
    match count {
        1 => "1 round kept".to_string(),
        count if count <= LISTED => format!("{count} rounds kept, newest first"),
        count => format!("The last {LISTED} of {count} rounds kept, newest first"),
    }
}

/// The head of a round's card in a hand history.
pub(super) struct RoundHead<'a> {
    /// The table's round.
    pub round: u64,
    /// Its table.
    pub table: &'a str,
    /// Whose seat, where it was not the player's own.
    pub seat: Option<&'a str>,
    /// What the round brought the seat, side bets and all.
    pub net: Cents,
    /// The words of the button that deals it again on the felt.
    pub button: &'a str,
    /// Why that button cannot be pressed, where it cannot.
    pub unavailable: Option<&'a str>,
}

/// One round of a hand history as a card `width` wide, the same on a phone as on a desktop: "Round N", its table
/// (and seat) and what it brought, the button that deals it again on the felt, then the round's `lines`. True when the
/// button was pressed.
pub(super) fn round_card(
    ui: &mut egui::Ui,
    width: f32,
    head: RoundHead,
    lines: impl FnOnce(&mut egui::Ui),
) -> bool {
    let theme = Theme::of(ui.ctx());
    let mut pressed = false;
    panel_frame().show(ui, |ui| {
        ui.set_width(width - 24.0);
        // Read from the left, as a list is, on every page (the casino's pages centre what they hold).
        ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
            round_card_inside(ui, &theme, &head, &mut pressed, lines);
        });
    });
    ui.add_space(4.0);
    pressed
}

/// The inside of [`round_card`]: its head row, then its lines.
fn round_card_inside(
    ui: &mut egui::Ui,
    theme: &Theme,
    head: &RoundHead,
    pressed: &mut bool,
    lines: impl FnOnce(&mut egui::Ui),
) {
    ui.horizontal(|ui| {
        ui.vertical(|ui| {
            ui.label(
                bold(format!("Round {}", head.round))
                    .size(theme::size::LARGE)
                    .color(GOLD),
            );
            let place = match head.seat {
                Some(seat) => format!("{} · {seat}", head.table),
                None => head.table.to_string(),
            };
            ui.label(egui::RichText::new(place).color(QUIET));
        });
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            let button = egui::Button::new(bold(head.button).size(theme::size::BUTTON))
                .min_size(egui::vec2(96.0, theme.target()))
                .corner_radius(8.0);
            let button = ui.add_enabled(head.unavailable.is_none(), button);
            *pressed = match head.unavailable {
                Some(why) => button.on_disabled_hover_text(why).clicked(),
                None => button.clicked(),
            };
            ui.label(
                bold(head.net.signed().to_string())
                    .size(theme::size::LARGE)
                    .color(tone(head.net)),
            );
        });
    });
    lines(ui);
}

/// A result's colour: gold won, red lost, cream even.
pub(super) fn tone(net: Cents) -> egui::Color32 {
    if net.is_positive() {
        GOLD
    } else if net.0 < 0 {
        REFUSAL
    } else {
        CREAM
    }
}

/// A hand of a round in words: its cards against the dealer's, the decisions ("no decision" where there were
/// none) and how it ended.
pub(super) fn hand_words(cards: &str, dealer: &str, decisions: &str, ended: &str) -> String {
    let decisions = if decisions.is_empty() {
        "no decision"
    } else {
        decisions
    };
    format!("{cards}  against the dealer's {dealer}  ·  {decisions}  ·  {ended}")
}

/// A line of a round's card, wrapped to its width.
pub(super) fn hand_line(ui: &mut egui::Ui, words: &str, colour: egui::Color32) {
    ui.add(
        egui::Label::new(
            egui::RichText::new(words)
                .size(theme::size::BODY)
                .color(colour),
        )
        .wrap(),
    );
}

/// What the player asked of a replay that is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum AfterReplay {
    /// Deal it again from the start.
    Again,
    /// Back to the hand history.
    Back,
}

/// The replay in the bar at the thumb (nobody bets in a replay): which round it is (a casino's with the link to give
/// to others), and once it is over on the felt, watch it again or go back: to the hand history, or for a casino's
/// round to the player's hands there (`account`), else to the casino's page.
pub(super) fn replay_bar(
    ui: &mut egui::Ui,
    replaying: &Replay,
    (done, account): (bool, bool),
    width: f32,
    theme: &Theme,
) -> Option<AfterReplay> {
    ui.set_width(width);
    // The bar does not wrap its contents; these words do, within a phone's width. A phone's header names the table
    // already, and every line here is a line less of the table.
    let label = if theme.shape.phone() {
        replaying.short_label()
    } else {
        replaying.label()
    };
    ui.add(egui::Label::new(bold(label).size(theme::size::LARGE).color(GOLD)).wrap());
    let (during, back) = match &replaying.round {
        Replayed::Own(_) => (
            "Dealt again from the record, as it was played.",
            "Hand history",
        ),
        Replayed::Casino { .. } => (
            "As the table showed it: each card when it was dealt, the dealer's face-down card when it was turned.",
            if account { "Your hands" } else { "The casino" },
        ),
    };
    if let Replayed::Casino { link, .. } = &replaying.round {
        // The address to give to others, to select and copy.
        ui.add(
            egui::Label::new(egui::RichText::new(format!("Link: {link}")).color(CREAM))
                .wrap()
                .selectable(true),
        );
    }
    if !done {
        ui.add(egui::Label::new(during).wrap());
        return None;
    }
    let (_, each) = theme::grid(width, 2, 140.0);
    let mut asked = None;
    ui.horizontal_wrapped(|ui| {
        for (words, after) in [
            // Side by side on a phone: short enough for half its width each.
            ("Watch again", AfterReplay::Again),
            (back, AfterReplay::Back),
        ] {
            let button = egui::Button::new(bold(words).size(theme::size::BUTTON))
                .min_size(egui::vec2(each, theme.target()))
                .corner_radius(8.0);
            if ui.add(button).clicked() {
                asked = Some(after);
            }
        }
    });
    asked
}

/// Does what the player asked of a replay that is over: the table closes, and opens again at the start of the round,
/// or the Title opens on the hand history (a casino's round: the player's hands there with an `account`, else the
/// casino's page).
pub(super) fn after_replay(
    after: AfterReplay,
    replaying: &Replay,
    account: bool,
    commands: &mut Commands,
    next: &mut NextState<Screen>,
) {
    let back = match &replaying.round {
        Replayed::Own(_) => Menu::Hands,
        Replayed::Casino { .. } if account => Menu::ServerHands,
        Replayed::Casino { .. } => Menu::Online,
    };
    match after {
        AfterReplay::Again => commands.insert_resource(OpenTable::Replay(replaying.round.clone())),
        AfterReplay::Back => commands.insert_resource(StartPage(back)),
    }
    next.set(Screen::Title);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_of_rounds_kept_reads_as_english() {
        assert_eq!(kept_words(1), "1 round kept");
        assert_eq!(kept_words(7), "7 rounds kept, newest first");
        assert_eq!(kept_words(LISTED), "100 rounds kept, newest first");
        assert_eq!(
            kept_words(LISTED + 1),
            "The last 100 of 101 rounds kept, newest first"
        );
    }
}
