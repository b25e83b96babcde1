//! The Trainer page: the path from the chart to counting at the table (`model::practice::Step`), each step's
//! progress and what to do next, the drills (`model::practice`) with big buttons for touch and a key for each, and the
//! record they keep: a heat map over the table's chart and each drill's scores over time.

use super::*;
use crate::engine::drill::{Record, Tagging, row_name};
use crate::engine::exact::chart::RowOf;
use crate::engine::exact::name_of;
use crate::engine::strategy::UP_CARDS;
use crate::engine::words::{counted, signed};
use crate::game::model::practice::{Drill, OWN_PACE, Practice, Shown, Step};
use crate::game::model::strategy::{Indices, StrategyBook};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        practice_screen
            .in_set(Draw::Page)
            .run_if(in_state(Menu::Practice)),
    );
}

/// Where a step sends the player off the page.
pub(super) enum Away {
    /// The Strategy page, to read the chart.
    Chart,
    /// The table, with the count hidden and asked for at each shuffle.
    Table,
}

/// The page on the Title; leaving it closes the flash cards' sitting in the record.
#[allow(clippy::too_many_arguments)]
fn practice_screen(
    mut contexts: EguiContexts,
    mut session: ResMut<Session>,
    mut options: ResMut<PlayOptions>,
    mut practice: ResMut<Practice>,
    mut book: ResMut<StrategyBook>,
    mut to_menu: ResMut<NextState<Menu>>,
    mut next: ResMut<NextState<Screen>>,
    (saved, mut commands): (Res<crate::game::keep::slot::Saved>, Commands),
) -> Result {
    let mut away = None;
    if page(contexts.ctx_mut()?, "Trainer", |ui| {
        away = practice_page(ui, &session, &options, &mut practice, &mut book);
    }) {
        practice.finish_flash_session();
        to_menu.set(Menu::Main);
    }
    match away {
        Some(Away::Chart) => {
            practice.finish_flash_session();
            practice.record.read_the_chart = true;
            practice.unsaved = true;
            to_menu.set(Menu::Strategy);
        }
        Some(Away::Table) => {
            practice.finish_flash_session();
            options.show_count = false;
            options.count_quiz = true;
            super::title::sit_down(&mut session, &saved, &mut next, &mut commands);
        }
        None => {}
    }
    Ok(())
}

/// A right answer's colour, and a wrong one's.
pub(super) const RIGHT: egui::Color32 = egui::Color32::from_rgb(0x7c, 0xe0, 0x8f);

/// A card's rank as printed on it: `A`, `7`, `10` (a ten of any kind, as the drills deal them).
fn printed_rank(points: u8) -> String {
    match points {
        1 => "A".to_string(),
        points => points.to_string(),
    }
}

/// A card as the felt's cards look: a white face with a thin edge, its rank and suit in the corners and a large
/// suit in the middle.
fn card_face(ui: &mut egui::Ui, points: u8, suit: usize) {
    let suits = ['♣', '♦', '♥', '♠'];
    let red = suit % 4 == 1 || suit % 4 == 2;
    let ink = if red {
        egui::Color32::from_rgb(0xc0, 0x1c, 0x28)
    } else {
        egui::Color32::from_rgb(0x1b, 0x1b, 0x1b)
    };
    let (rect, _) = ui.allocate_exact_size(egui::vec2(60.0, 84.0), egui::Sense::hover());
    let painter = ui.painter();
    painter.rect(
        rect,
        6.0,
        egui::Color32::from_rgb(0xfa, 0xf7, 0xee),
        egui::Stroke::new(1.0, egui::Color32::from_rgb(0x9a, 0x94, 0x84)),
        egui::StrokeKind::Inside,
    );
    let corner = format!("{}\n{}", printed_rank(points), suits[suit % 4]);
    let small = egui::FontId::new(
        15.0,
        egui::FontFamily::Name(crate::game::felt::fonts::BOLD_FAMILY.into()),
    );
    painter.text(
        rect.left_top() + egui::vec2(5.0, 3.0),
        egui::Align2::LEFT_TOP,
        &corner,
        small,
        ink,
    );
    painter.text(
        rect.center() + egui::vec2(6.0, 12.0),
        egui::Align2::CENTER_CENTER,
        suits[suit % 4],
        egui::FontId::proportional(30.0),
        ink,
    );
}

/// A big button for a thumb, with its key beside the word once a keyboard has been used.
fn big_button(ui: &mut egui::Ui, text: &str, key: &str) -> bool {
    let words = if key.is_empty() {
        text.to_string()
    } else {
        Theme::of(ui.ctx()).hint(text, key)
    };
    ui.add(
        egui::Button::new(bold(words).size(theme::size::LARGE))
            .min_size(egui::vec2(96.0, 48.0))
            .corner_radius(8.0),
    )
    .clicked()
}

/// A field for a number under its `label`, focused as it appears (the next key is the answer; on a phone, a tap opens
/// its number pad), Enter answering. Returns true when the player answered, by Enter or by Check.
pub(super) fn number_field(ui: &mut egui::Ui, label: &str, typed: &mut String) -> bool {
    let mut answered = false;
    let named = ui.label(label);
    ui.horizontal(|ui| {
        let field = ui
            .add(
                egui::TextEdit::singleline(typed)
                    .desired_width(96.0)
                    .font(egui::FontId::proportional(theme::size::LARGE))
                    .min_size(egui::vec2(96.0, theme::size::TARGET)),
            )
            .labelled_by(named.id);
        // Enter gives up the field's focus as it answers: read it before the focus is taken back.
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if !enter && ui.memory(|m| m.focused().is_none()) {
            field.request_focus();
        }
        // A phone opens its number pad for it (`platform::web`).
        if field.has_focus() {
            theme::wants_a_number(ui.ctx());
        }
        answered = big_button(ui, "Check", "Enter") || enter;
    });
    answered
}

/// The page: the path, the step shown with its progress, and its drill. Returns where a step's button sends the
/// player, if one was tapped.
pub(super) fn practice_page(
    ui: &mut egui::Ui,
    session: &Session,
    options: &PlayOptions,
    practice: &mut Practice,
    book: &mut StrategyBook,
) -> Option<Away> {
    let rules = session.level.rules.rules();
    let system = options.count_system();
    practice.open(&rules, session.seed);
    let theme = Theme::of(ui.ctx());
    let mut away = None;
    scrolling_column(ui, 720.0, |ui, width| {
        let inner = width - 40.0;
        panel_frame().show(ui, |ui| {
            ui.set_width(inner);
            ui.label(bold(format!("For the {} table", session.level.name)).color(GOLD));
            ui.label(
                "A path from the chart to counting at the table: each step, then the next. \
                 Tap any step to practise it.",
            );
            let next = practice.next_step(system);
            let shown = practice.shown_step(system);
            // Even rows of buttons; a hair narrower than the row, which egui would otherwise wrap on rounding.
            let (_, each) = theme::grid(inner, Step::ALL.len() + 1, 150.0);
            let each = each - 0.5;
            ui.horizontal_wrapped(|ui| {
                for (at, step) in Step::ALL.into_iter().enumerate() {
                    let progress = practice.progress(step, system);
                    let mut label = bold(format!("{} {}", at + 1, step.short()));
                    if progress.complete() {
                        label = label.color(RIGHT);
                    }
                    let button = theme
                        .button(label)
                        .selected(shown == Some(step))
                        .min_size(egui::vec2(each, theme::size::TARGET));
                    if ui.add(button).clicked() {
                        practice.show(Shown::Step(step));
                    }
                }
                let record = theme
                    .button(bold("Your record"))
                    .selected(practice.shown == Shown::Record)
                    .min_size(egui::vec2(each, theme::size::TARGET));
                if ui.add(record).clicked() {
                    practice.show(Shown::Record);
                }
            });
            match next {
                Some(step) => ui.label(format!("Next on the path: {}.", step.name())),
                None => ui.label(
                    bold("The whole path is done: keep any step sharp, or play.").color(RIGHT),
                ),
            };
        });
        ui.add_space(6.0);
        let Some(step) = practice.shown_step(system) else {
            panel_frame().show(ui, |ui| {
                ui.set_width(inner);
                progress(ui, &practice.record);
            });
            return;
        };
        panel_frame().show(ui, |ui| {
            ui.set_width(inner);
            away = step_heading(ui, practice, step, system, &theme, inner);
            ui.add_space(6.0);
            match step.drill() {
                Some(Drill::FlashCards) => flash_cards(ui, practice, &rules),
                Some(Drill::CardValues) => tagging(ui, practice, system, 1),
                Some(Drill::Pairs) => tagging(ui, practice, system, 2),
                Some(Drill::CountDown) => count_down(ui, practice, system),
                Some(Drill::Tray) => tray(ui, practice, rules.decks),
                Some(Drill::TrueCount) => true_count(ui, practice, rules.decks),
                Some(Drill::IndexPlays) => index_plays(ui, practice, book, &rules, system),
                Some(Drill::Progress) | None => {}
            }
        });
    });
    away
}

/// The step's name, what it teaches, how far along the player is, and its way on: the chart and the table are off
/// the page; a step done offers the next.
fn step_heading(
    ui: &mut egui::Ui,
    practice: &mut Practice,
    step: Step,
    system: &'static crate::engine::count::System,
    theme: &Theme,
    width: f32,
) -> Option<Away> {
    let at = Step::ALL.iter().position(|&s| s == step).unwrap_or(0) + 1;
    ui.label(
        bold(format!("Step {at} of {}: {}", Step::ALL.len(), step.name()))
            .size(theme::size::LARGE)
            .color(GOLD),
    );
    ui.label(step.about());
    let progress = practice.progress(step, system);
    let said = match step {
        Step::Chart if progress.complete() => {
            "Read. Come back to it whenever a hand puzzles you.".to_string()
        }
        Step::Chart => "Not read yet.".to_string(),
        Step::Deck => match progress.best {
            Some(best) => format!(
                "Done: your best time for a deck with {} is {best:.1} s.",
                system.name
            ),
            None => format!(
                "To do: count a whole deck (52 cards) right at your own pace with {}.",
                system.name
            ),
        },
        // "0 of 10" would read as a score out of ten answered: the goal is said as one.
        Step::AtTheTable => format!(
            "Counts right at the shuffle: {} of the {} this step asks for.",
            progress.done.min(progress.goal),
            progress.goal
        ),
        _ => format!(
            "Right answers: {} of the {} this step asks for.",
            progress.done.min(progress.goal),
            progress.goal
        ),
    };
    let colour = if progress.complete() { RIGHT } else { CREAM };
    ui.label(bold(said).color(colour));
    let mut away = None;
    match step {
        Step::Chart => {
            ui.label(
                "The chart shows, for every hand you can hold against every card the dealer shows, the play that \
                 wins the most or loses the least. Read it once; the flash cards then drill it.",
            );
            if ui.add(theme.wide_button("Open the chart", width)).clicked() {
                away = Some(Away::Chart);
            }
        }
        Step::AtTheTable => {
            ui.label(format!(
                "You play at this table with the count hidden. When the cut card comes out and the shoe is about \
                 to be shuffled, the table asks your running count ({}) and tells you the true one. Turn it off \
                 in Settings.",
                system.name
            ));
            if ui
                .add(theme.wide_button("Play with the count hidden", width))
                .clicked()
            {
                away = Some(Away::Table);
            }
        }
        _ => {}
    }
    if progress.complete()
        && let Some(next) = practice.next_step(system)
        && next != step
        && ui
            .add(theme.wide_button(&format!("Next step: {}", next.name()), width))
            .clicked()
    {
        practice.show(Shown::Step(next));
    }
    away
}

/// Basic strategy, a hand at a time; a miss shows the chart's cell in its row and column.
fn flash_cards(ui: &mut egui::Ui, practice: &mut Practice, rules: &crate::engine::Rules) {
    if practice.dealing() {
        ui.label("Shuffling up: working out every hand's value for this table…");
        return;
    }
    let Some(flash) = practice.flash.question.clone() else {
        return;
    };
    ui.label("What does the chart play?");
    ui.horizontal(|ui| {
        ui.label(bold("Dealer").size(16.0));
        card_face(ui, flash.up, 3);
        ui.add_space(24.0);
        ui.label(bold("You").size(16.0));
        card_face(ui, flash.cards[0], 1);
        card_face(ui, flash.cards[1], 0);
    });
    ui.add_space(8.0);
    // The buttons first and the verdict under them, so that Next stands where the first answer did: a thumb taps
    // the same place to answer and to go on.
    let answered = practice.flash.answer;
    match answered {
        None => {
            let mut chosen = None;
            ui.horizontal_wrapped(|ui| {
                for action in flash.offered().collect::<Vec<_>>() {
                    let label = crate::host::narrate::capitalise(action.name());
                    let key = match action {
                        Action::Hit => egui::Key::H,
                        Action::Stand => egui::Key::S,
                        Action::Double => egui::Key::D,
                        Action::Split => egui::Key::P,
                        _ => egui::Key::R,
                    };
                    if big_button(ui, &label, &action.key().to_uppercase())
                        || ui.input(|i| i.key_pressed(key))
                    {
                        chosen = Some(action);
                    }
                }
            });
            if let Some(action) = chosen
                && let Some(answer) = practice.answer_flash(action)
            {
                info!(
                    target: "holecard::practice",
                    "flash card {},{} v {}: {} ({}, the chart plays {})",
                    name_of(flash.cards[0]),
                    name_of(flash.cards[1]),
                    name_of(flash.up),
                    action.name(),
                    if answer.right { "right" } else { "wrong" },
                    flash.answer.name()
                );
            }
        }
        Some(((action, answer), _)) => {
            let next = ui
                .horizontal_wrapped(|ui| big_button(ui, "Next", "Space"))
                .inner;
            if next || ui.input(|i| i.key_pressed(egui::Key::Space)) {
                practice.next_flash();
            }
            let chart = flash.answer.name();
            if answer.right {
                ui.label(bold(format!("Right: the chart plays {chart}.")).color(RIGHT));
            } else {
                ui.label(bold(format!("The chart plays {chart}.")).color(REFUSAL));
                ui.label(format!(
                    "To {} loses {:.1}% of the bet on this hand, on average.",
                    action.name(),
                    100.0 * answer.cost
                ));
                chart_cell(ui, rules, flash.row(), flash.up);
            }
        }
    }
    ui.add_space(6.0);
    let (right, asked, cost) = practice.flash_score();
    if asked > 0 {
        ui.label(format!(
            "This sitting: {right} of {asked} right · your mistakes would cost {cost:.2} bets per 100 hands"
        ));
    }
}

/// The system's card values, grouped by value, highest first: "+1  2 3 4 5 6".
fn card_values(ui: &mut egui::Ui, system: &crate::engine::count::System) {
    let scale = f64::from(system.scale.max(1));
    let mut values: Vec<i8> = system.tags.to_vec();
    values.sort_unstable_by(|a, b| b.cmp(a));
    values.dedup();
    ui.label(bold(format!("{}: what each card adds to the count", system.name)).color(GOLD));
    // A line a value, as a printed card of the system has them (a grid would give each row a target's height).
    for value in values {
        // Twos to nines, then the tens and the ace, as a deck is sorted.
        let cards: Vec<&str> = [2u8, 3, 4, 5, 6, 7, 8, 9, 10, 1]
            .into_iter()
            .filter(|&points| system.tag_of_points(points) == i32::from(value))
            .map(|points| match points {
                10 => "10 J Q K",
                1 => "A",
                _ => ["", "", "2", "3", "4", "5", "6", "7", "8", "9"][usize::from(points)],
            })
            .collect();
        let said = signed(f64::from(value) / scale, usize::from(scale > 1.0));
        ui.label(bold(format!("{said}:  {}", cards.join("  "))).size(theme::size::LARGE));
    }
}

/// A card (or two) at a glance: the player taps what it adds to the count. Card values come first, shown above.
fn tagging(
    ui: &mut egui::Ui,
    practice: &mut Practice,
    system: &'static crate::engine::count::System,
    cards: usize,
) {
    if cards == 1 {
        card_values(ui, system);
        ui.add_space(6.0);
    }
    let asked = practice.tagging.question.as_ref();
    if asked.is_none_or(|q| q.cards.len() != cards) {
        practice.new_tagging(system, cards);
    }
    let Some(q) = practice.tagging.question.clone() else {
        return;
    };
    ui.label(if cards == 1 {
        format!("What does this card add to the {} count?", system.name)
    } else {
        format!("What do these two cards add to the {} count?", system.name)
    });
    ui.horizontal(|ui| {
        for card in &q.cards {
            card_face(ui, card.points(), card.suit() as usize);
        }
    });
    ui.add_space(6.0);
    let places = usize::from(system.scale > 1);
    match practice.tagging.answer {
        None => {
            let mut said = None;
            ui.horizontal_wrapped(|ui| {
                for choice in Tagging::choices(system, cards) {
                    if big_button(ui, &signed(choice, places), "") {
                        said = Some(choice);
                    }
                }
            });
            if let Some(said) = said
                && let Some(right) = practice.answer_tagging(said)
            {
                let what = if cards == 1 { "card value" } else { "pair" };
                let verdict = if right { "right" } else { "wrong" };
                info!(
                    target: "holecard::practice",
                    "{what}: said {} ({verdict}, the count is {})",
                    signed(said, places),
                    signed(q.answer, places)
                );
            }
        }
        Some((said, right)) => {
            let next = ui
                .horizontal_wrapped(|ui| big_button(ui, "Next", "Space"))
                .inner;
            let line = if right {
                bold(format!("Right: {}.", signed(q.answer, places))).color(RIGHT)
            } else {
                bold(format!(
                    "You said {}; {} {}.",
                    signed(said, places),
                    if cards == 1 { "it adds" } else { "they add" },
                    signed(q.answer, places)
                ))
                .color(REFUSAL)
            };
            ui.label(line);
            if next || ui.input(|i| i.key_pressed(egui::Key::Space)) {
                practice.new_tagging(system, cards);
            }
        }
    }
}

/// The chart's part a flash card's hand is in, with the hand's cell marked in its row and column.
pub(super) fn chart_cell(ui: &mut egui::Ui, rules: &crate::engine::Rules, row: RowOf, up: u8) {
    let grid = crate::engine::strategy::BasicStrategy::for_rules(rules).grid();
    let (title, rows, at) = super::strategy::part_of(&grid, row);
    let column = crate::engine::strategy::column_of_points(up);
    ui.add_space(4.0);
    ui.label(bold(format!("On the chart ({})", title.to_lowercase())).color(GOLD));
    let cell = ((ui.available_width() - 60.0) / 11.0).clamp(22.0, 30.0);
    super::strategy::marked_chart_table(ui, "missed", &rows, cell, at.map(|at| (at, column)));
}

/// A deck shown card by card, at a set pace or at the player's own against the clock; then the count, and at the
/// player's own pace the time, the best kept.
fn count_down(
    ui: &mut egui::Ui,
    practice: &mut Practice,
    system: &'static crate::engine::count::System,
) {
    let now = ui.input(|i| i.time);
    // The pace and the deck to count: first, before a deck; under the card's place once one is answered; not while
    // the cards come (on a phone the card then stands right under the step's heading).
    let choose = |ui: &mut egui::Ui, practice: &mut Practice| {
        ui.label(format!(
            "Count the cards as they come ({}, chosen in Settings), then type the running count.",
            system.name
        ));
        ui.horizontal_wrapped(|ui| {
            ui.label("Pace:");
            for (seconds, words) in [
                (OWN_PACE, "your own, timed"),
                (2.0, "2 s a card"),
                (1.0, "1 s"),
                (0.5, "½ s"),
                (0.25, "¼ s"),
            ] {
                ui.radio_value(&mut practice.pace, seconds, words);
            }
        });
        ui.horizontal_wrapped(|ui| {
            for (cards, words) in [(10, "10 cards"), (26, "half a deck"), (52, "a deck")] {
                if big_button(ui, words, "") {
                    practice.new_count_down(system, cards, now);
                }
            }
        });
    };
    let Some(deck) = practice.count_down.question.clone() else {
        choose(ui, practice);
        if let Some(best) = practice.record.best_time(&system.name, 52) {
            ui.label(format!("Your best time for a deck: {best:.1} s."));
        }
        return;
    };
    if let Some(shown) = practice.card_shown(now) {
        let card = deck.cards[shown];
        let own = practice.pace == OWN_PACE;
        ui.horizontal(|ui| {
            card_face(ui, card.points(), card.suit() as usize);
            ui.vertical(|ui| {
                ui.label(format!("Card {} of {}", shown + 1, deck.cards.len()));
                // No clock running on the screen: it would pull the eye from the cards, and a phone would draw
                // every frame for it while nothing else moves. The time comes with the answer.
                if own {
                    ui.label(
                        egui::RichText::new("Timed: your time comes with your answer.")
                            .color(QUIET),
                    );
                }
            });
        });
        if own {
            // The card is turned by a tap or by Space, as fast as the player counts.
            let turned = ui
                .horizontal_wrapped(|ui| big_button(ui, "Next card", "Space"))
                .inner
                || ui.input(|i| i.key_pressed(egui::Key::Space));
            if turned {
                practice.turn(now);
            }
        } else {
            // At a set pace the cards turn by the clock.
            ui.ctx().request_repaint();
        }
        return;
    }
    match practice.count_down.answer {
        None => {
            if number_field(ui, "The running count", &mut practice.typed)
                && let Ok(said) = as_typed(&practice.typed).parse::<f64>()
                && let Some((right, timed)) = practice.answer_count_down(said, system)
            {
                let verdict = if right { "right" } else { "wrong" };
                info!(
                    target: "holecard::practice",
                    "count a deck: said {said} ({verdict}, the count is {}){}",
                    deck.answer(),
                    timed.map_or(String::new(), |(seconds, best)| format!(
                        " in {seconds:.1} s{}",
                        if best { ", a best" } else { "" }
                    ))
                );
            }
        }
        Some((said, right)) => {
            if right {
                ui.label(bold(format!("Right: {}.", signed(deck.answer(), 0))).color(RIGHT));
                if practice.pace == OWN_PACE
                    && let (Some(start), Some(end)) = (practice.started, practice.finished)
                {
                    let cards = deck.cards.len() as u32;
                    let best = practice.record.best_time(&system.name, cards);
                    let seconds = end - start;
                    let line = match best {
                        Some(best) if (best - seconds).abs() < 1e-9 => {
                            format!("{seconds:.1} s: your best for {cards} cards.")
                        }
                        Some(best) => {
                            format!("{seconds:.1} s; your best for {cards} cards is {best:.1} s.")
                        }
                        None => format!("{seconds:.1} s."),
                    };
                    ui.label(bold(line).color(GOLD));
                }
            } else {
                ui.label(
                    bold(format!(
                        "You said {}; the count is {}.",
                        signed(said, 0),
                        signed(deck.answer(), 0)
                    ))
                    .color(REFUSAL),
                );
            }
        }
    }
    ui.add_space(6.0);
    choose(ui, practice);
}

/// A running count and a tray; the true count rounded down.
fn true_count(ui: &mut egui::Ui, practice: &mut Practice, decks: u8) {
    if practice.conversion.question.is_none() {
        practice.new_conversion(decks);
    }
    let Some(q) = practice.conversion.question else {
        return;
    };
    ui.label(format!(
        "Running count {}. The discard tray of this {}-deck shoe, and one deck beside it:",
        signed(q.running.into(), 0),
        q.decks
    ));
    tray_picture(ui, q.decks, q.tray_cards);
    match practice.conversion.answer {
        None => {
            if number_field(
                ui,
                "The true count, rounded down (decks left judged to the half deck)",
                &mut practice.typed,
            ) && let Ok(said) = as_typed(&practice.typed).parse::<i32>()
            {
                let right = said == q.answer();
                practice.conversion.answer = Some((said, right));
                heard(practice, Drill::TrueCount, said, q.answer(), right);
            }
        }
        Some((said, right)) => {
            let working = format!(
                "{} ÷ {} decks left = {}, rounded down {}",
                signed(q.running.into(), 0),
                crate::engine::count::say_decks(q.decks_left()),
                signed(f64::from(q.running) / q.decks_left(), 2),
                signed(q.answer().into(), 0)
            );
            let line = if right {
                bold(format!("Right: {working}.")).color(RIGHT)
            } else {
                bold(format!("You said {}: {working}.", signed(said.into(), 0))).color(REFUSAL)
            };
            ui.label(line);
            if big_button(ui, "Next", "Space") || ui.input(|i| i.key_pressed(egui::Key::Space)) {
                practice.new_conversion(decks);
            }
        }
    }
}

/// A picture of the discard tray: how many decks are left in the shoe, to the half deck or the quarter deck?
fn tray(ui: &mut egui::Ui, practice: &mut Practice, decks: u8) {
    use crate::engine::drill::Fineness;
    let theme = Theme::of(ui.ctx());
    ui.horizontal_wrapped(|ui| {
        for (fineness, words) in [
            (Fineness::HalfDeck, "To the half deck"),
            (Fineness::QuarterDeck, "To the quarter deck"),
        ] {
            let chosen = practice.fineness == fineness;
            if ui.add(theme.button(words).selected(chosen)).clicked() && !chosen {
                practice.fineness = fineness;
                practice.new_tray(decks);
            }
        }
    });
    if practice.tray.question.is_none_or(|q| q.decks != decks) {
        practice.new_tray(decks);
    }
    let Some(q) = practice.tray.question else {
        return;
    };
    ui.label(format!(
        "The discard tray of a {decks}-deck shoe, and one deck beside it. How many decks are left in the shoe?"
    ));
    tray_picture(ui, q.decks, q.tray_cards);
    let step = match q.fineness {
        Fineness::HalfDeck => "half deck",
        Fineness::QuarterDeck => "quarter deck",
    };
    match practice.tray.answer {
        None => {
            if number_field(
                ui,
                &format!("Decks left in the shoe, to the {step}"),
                &mut practice.typed,
            ) && let Ok(said) = as_typed(&practice.typed).parse::<f64>()
            {
                let right = q.is_right(said);
                practice.tray.answer = Some((said, right));
                heard(practice, Drill::Tray, said, q.answer(), right);
            }
        }
        Some((said, right)) => {
            let left = u32::from(q.decks) * 52 - q.tray_cards;
            let working = format!(
                "{} in the tray, {} still in the shoe: {:.2} decks, {} to the {step}",
                counted(q.tray_cards, "card", "cards"),
                counted(left, "card", "cards"),
                q.decks_left(),
                in_quarters(q.answer()),
            );
            let line = if right {
                bold(format!("Right: {working}.")).color(RIGHT)
            } else {
                bold(format!("You said {}: {working}.", in_quarters(said))).color(REFUSAL)
            };
            ui.label(line);
            if big_button(ui, "Next", "Space") || ui.input(|i| i.key_pressed(egui::Key::Space)) {
                practice.new_tray(decks);
            }
        }
    }
}

/// Decks in whole numbers and quarters, as they are said: "3¾", "½".
fn in_quarters(decks: f64) -> String {
    let quarters = (decks * 4.0).round() as i64;
    let part = ["", "¼", "½", "¾"][quarters.rem_euclid(4) as usize];
    match quarters.div_euclid(4) {
        0 if !part.is_empty() => part.to_string(),
        whole => format!("{whole}{part}"),
    }
}

/// The discard tray of a `decks`-deck shoe seen from the side, as tall as the shoe's cards stacked, holding
/// `tray_cards` of them; beside it one deck's stack at the same scale, to judge by.
fn tray_picture(ui: &mut egui::Ui, decks: u8, tray_cards: u32) {
    let deck_height = (180.0 / f32::from(decks.max(1))).clamp(22.0, 60.0);
    let tray_height = deck_height * f32::from(decks.max(1));
    let (rect, _) =
        ui.allocate_exact_size(egui::vec2(220.0, tray_height + 30.0), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    let bottom = rect.bottom() - 4.0;
    let tray = egui::Rect::from_min_max(
        egui::pos2(rect.left() + 8.0, bottom - tray_height),
        egui::pos2(rect.left() + 118.0, bottom),
    );
    painter.rect_filled(tray, 4.0, egui::Color32::from_rgb(0x1a, 0x12, 0x0c));
    let stack = |painter: &egui::Painter, x: egui::Rangef, cards: u32| {
        let height = cards as f32 / 52.0 * deck_height;
        let top = bottom - height;
        painter.rect_filled(
            egui::Rect::from_x_y_ranges(x, top..=bottom),
            1.0,
            egui::Color32::from_rgb(0xf2, 0xea, 0xd8),
        );
        // The cards' edges, one line every few cards.
        let mut y = bottom - 2.0;
        while y > top + 1.0 {
            painter.hline(x, y, egui::Stroke::new(0.6, egui::Color32::from_gray(150)));
            y -= 2.5;
        }
    };
    stack(
        &painter,
        egui::Rangef::new(tray.left() + 6.0, tray.right() - 6.0),
        tray_cards,
    );
    painter.rect_stroke(
        tray,
        4.0,
        egui::Stroke::new(2.0, GOLD),
        egui::StrokeKind::Outside,
    );
    let one = egui::Rangef::new(tray.right() + 40.0, tray.right() + 96.0);
    stack(&painter, one, 52);
    painter.text(
        egui::pos2(one.center(), bottom - deck_height - 4.0),
        egui::Align2::CENTER_BOTTOM,
        "one deck",
        egui::FontId::proportional(theme::size::SMALL),
        CREAM,
    );
}

/// An index play at a true count: which play?
fn index_plays(
    ui: &mut egui::Ui,
    practice: &mut Practice,
    book: &mut StrategyBook,
    rules: &crate::engine::Rules,
    system: &'static crate::engine::count::System,
) {
    book.ask(rules, system);
    let list = match book.indices() {
        Indices::Done(list) => list.clone(),
        Indices::Unbalanced(why) => {
            ui.label(why.as_str());
            return;
        }
        Indices::Working(done) => {
            working(ui, "Working out this table's index plays…", *done);
            return;
        }
        Indices::Unasked => return,
    };
    if practice.index.question.is_none() {
        practice.new_index(&list);
    }
    let Some(q) = practice.index.question.clone() else {
        return;
    };
    ui.label(bold(format!(
        "{} at a true count of {} ({})",
        q.index.play.name(),
        signed(q.true_count.into(), 0),
        system.name
    )));
    match practice.index.answer {
        None => {
            ui.horizontal_wrapped(|ui| {
                for choice in [q.index.play.low, q.index.play.high] {
                    let (key, letter) = choice_key(choice);
                    if big_button(ui, &crate::host::narrate::capitalise(choice.word()), letter)
                        || ui.input(|i| i.key_pressed(key))
                    {
                        let right = choice == q.answer();
                        practice.index.answer = Some((choice, right));
                        practice.score(Drill::IndexPlays, right);
                        info!(
                            target: "holecard::practice",
                            "index play: {} at {}, said {} ({}, the play is {})",
                            q.index.play.name(),
                            signed(q.true_count.into(), 0),
                            choice.word(),
                            if right { "right" } else { "wrong" },
                            q.answer().word()
                        );
                    }
                }
            });
        }
        Some((_, right)) => {
            let at = q.index.index.unwrap_or(0);
            let why = format!(
                "{} at {} and above, {} below.",
                q.index.play.high.word(),
                signed(at.into(), 0),
                q.index.play.low.word()
            );
            let line = if right {
                bold(format!("Right: {why}")).color(RIGHT)
            } else {
                bold(format!("Not this time: {why}")).color(REFUSAL)
            };
            ui.label(line);
            if let Some(why) = super::strategy::why_this_differs(&q.index, system) {
                ui.label(why);
            }
            if big_button(ui, "Next", "Space") || ui.input(|i| i.key_pressed(egui::Key::Space)) {
                practice.new_index(&list);
            }
        }
    }
}

/// The key that answers an index play with `choice`, as at the table: S stand, H hit, D double, P split, R
/// surrender, I insure, N no insurance.
fn choice_key(choice: crate::engine::exact::indices::Choice) -> (egui::Key, &'static str) {
    use crate::engine::exact::indices::Choice;
    match choice {
        Choice::Stand => (egui::Key::S, "S"),
        Choice::Hit => (egui::Key::H, "H"),
        Choice::Double => (egui::Key::D, "D"),
        Choice::Split => (egui::Key::P, "P"),
        Choice::Surrender => (egui::Key::R, "R"),
        Choice::Insure => (egui::Key::I, "I"),
        Choice::Decline => (egui::Key::N, "N"),
    }
}

/// A cell's colour on the heat map: unseen grey, then from red (always wrong) to green (always right).
pub(super) fn heat(right: u32, wrong: u32) -> egui::Color32 {
    let asked = right + wrong;
    if asked == 0 {
        return egui::Color32::from_rgb(0x58, 0x58, 0x58);
    }
    let share = right as f32 / asked as f32;
    let mix = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * share) as u8;
    egui::Color32::from_rgb(mix(0xd9, 0x4f), mix(0x4a, 0xc2), mix(0x3f, 0x6a))
}

/// The record: the heat map over the chart, and each drill's scores over time.
fn progress(ui: &mut egui::Ui, record: &Record) {
    ui.label("Flash cards by chart cell: green right, red wrong, grey not yet asked.");
    // The cells most often wrong are written out under the map: a cell's counts show under a pointer too, but a
    // touch screen has none.
    let mut missed: Vec<(u32, u32, String)> = Vec::new();
    let parts: [(&str, Vec<RowOf>); 3] = [
        ("Hard", (5..=19).rev().map(RowOf::Hard).collect()),
        ("Soft", (13..=20).rev().map(RowOf::Soft).collect()),
        (
            "Pairs",
            [1u8, 10, 9, 8, 7, 6, 5, 4, 3, 2]
                .into_iter()
                .map(RowOf::Pair)
                .collect(),
        ),
    ];
    ui.horizontal_wrapped(|ui| {
        for (title, rows) in parts {
            ui.vertical(|ui| {
                ui.label(bold(title).color(GOLD));
                egui::Grid::new(("heat", title))
                    .spacing(egui::vec2(2.0, 2.0))
                    .min_col_width(16.0)
                    .show(ui, |ui| {
                        ui.label("");
                        for up in UP_CARDS {
                            ui.label(egui::RichText::new(name_of(up)).size(theme::size::SMALL));
                        }
                        ui.end_row();
                        for row in rows {
                            let name = match row {
                                RowOf::Hard(t) => t.to_string(),
                                RowOf::Soft(t) => format!("A,{}", t - 11),
                                RowOf::Pair(p) => format!("{0},{0}", name_of(p)),
                            };
                            ui.label(egui::RichText::new(name).size(theme::size::SMALL));
                            for up in UP_CARDS {
                                let (right, wrong) =
                                    record.cell(row, up).map_or((0, 0), |c| (c.right, c.wrong));
                                let (rect, response) = ui.allocate_exact_size(
                                    egui::vec2(16.0, 13.0),
                                    egui::Sense::hover(),
                                );
                                ui.painter().rect_filled(rect, 2.0, heat(right, wrong));
                                let counts = format!(
                                    "{} v {}: {right} right, {wrong} wrong",
                                    row_name(row),
                                    name_of(up)
                                );
                                if wrong > 0 {
                                    missed.push((wrong, right, counts.clone()));
                                }
                                response.on_hover_text(counts);
                            }
                            ui.end_row();
                        }
                    });
            });
        }
    });
    missed.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if !missed.is_empty() {
        ui.label(bold("Most often wrong").color(GOLD));
        for (_, _, counts) in missed.iter().take(5) {
            ui.label(counts);
        }
    }
    ui.add_space(8.0);
    ui.label(bold("Scores over time").color(GOLD));
    if record.sessions.is_empty() {
        ui.label("Nothing yet: every drill you finish is kept here.");
        return;
    }
    // The cost of flash-card mistakes per 100 hands, session by session, as a line.
    let costs: Vec<f64> = record
        .sessions
        .iter()
        .filter_map(|s| s.cost_per_100)
        .collect();
    if costs.len() >= 2 {
        let (rect, _) = ui.allocate_exact_size(egui::vec2(280.0, 80.0), egui::Sense::hover());
        ui.painter()
            .rect_filled(rect, 4.0, egui::Color32::from_black_alpha(90));
        let top = costs.iter().copied().fold(0.01, f64::max);
        let points: Vec<egui::Pos2> = costs
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let x =
                    rect.left() + 8.0 + (rect.width() - 16.0) * i as f32 / (costs.len() - 1) as f32;
                let y = rect.bottom() - 8.0 - (rect.height() - 16.0) * (c / top) as f32;
                egui::pos2(x, y)
            })
            .collect();
        ui.painter()
            .add(egui::Shape::line(points, egui::Stroke::new(2.0, GOLD)));
        ui.label(
            egui::RichText::new(format!(
                "Flash-card mistakes, bets lost per 100 hands: from {:.2} to {:.2}",
                costs[0],
                costs[costs.len() - 1]
            ))
            .size(theme::size::SMALL),
        );
    }
    egui::Grid::new("sessions").striped(true).show(ui, |ui| {
        for session in record.sessions.iter().rev().take(12) {
            ui.label(&session.drill);
            ui.label(format!("{} of {}", session.right, session.asked));
            ui.label(
                session
                    .cost_per_100
                    .map_or(String::new(), |c| format!("{c:.2} bets per 100 hands")),
            );
            ui.end_row();
        }
    });
}

/// A typed answer to a counting drill, heard: the log says it ("count down: said -3 (wrong, the count is -2)"; the
/// browser tests read it) and the drill's score counts it.
fn heard(
    practice: &mut Practice,
    drill: Drill,
    said: impl std::fmt::Display,
    answer: impl std::fmt::Display,
    right: bool,
) {
    let (asked, what) = match drill {
        Drill::TrueCount => ("true count", "the true count"),
        Drill::Tray => ("discard tray", "the decks left"),
        _ => ("count a deck", "the count"),
    };
    let verdict = if right { "right" } else { "wrong" };
    info!(target: "holecard::practice", "{asked}: said {said} ({verdict}, {what} is {answer})");
    practice.score(drill, right);
}

/// An answer as a number reads it: a plus sign dropped, the minus sign the game writes (U+2212) taken for the
/// keyboard's, "¼", "½" and "¾" for ".25", ".5" and ".75".
pub(super) fn as_typed(answer: &str) -> String {
    answer
        .trim()
        .replace('+', "")
        .replace(crate::engine::money::MINUS, "-")
        .replace('¼', ".25")
        .replace('½', ".5")
        .replace('¾', ".75")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One frame of `number_field` with these events; whether it answered.
    fn frame(ctx: &egui::Context, events: Vec<egui::Event>, typed: &mut String) -> bool {
        let mut answered = false;
        let output = ctx.run_ui(
            egui::RawInput {
                events,
                ..Default::default()
            },
            |ui| answered = number_field(ui, "The running count", typed),
        );
        output.drop_without_applying_deltas();
        answered
    }

    fn enter(pressed: bool) -> egui::Event {
        egui::Event::Key {
            key: egui::Key::Enter,
            physical_key: Some(egui::Key::Enter),
            pressed,
            repeat: false,
            modifiers: egui::Modifiers::NONE,
        }
    }

    /// The field takes the focus as it appears, so what is typed goes into it, and Enter answers. (Enter gives up
    /// the field's focus; the field once took it back before reading that, and Enter answered nothing.)
    #[test]
    fn a_number_field_is_answered_with_enter() {
        let ctx = super::super::layout::test_context(theme::Shape::PhonePortrait);
        let mut typed = String::new();
        assert!(!frame(&ctx, Vec::new(), &mut typed));
        assert!(!frame(
            &ctx,
            vec![egui::Event::Text("-3".into())],
            &mut typed
        ));
        assert_eq!(typed, "-3");
        assert!(
            !frame(&ctx, Vec::new(), &mut typed),
            "nothing answers before Enter"
        );
        assert!(frame(&ctx, vec![enter(true), enter(false)], &mut typed));
        // The next frame takes the focus back, for the next go's answer.
        assert!(!frame(&ctx, Vec::new(), &mut typed));
        assert!(!frame(
            &ctx,
            vec![egui::Event::Text("5".into())],
            &mut typed
        ));
        assert_eq!(typed, "-35");
        assert_eq!(as_typed(" −3½ "), "-3.5");
        assert_eq!(as_typed("+2"), "2");
        assert_eq!(as_typed("3¾").parse::<f64>(), Ok(3.75));
        assert_eq!(as_typed("¼").parse::<f64>(), Ok(0.25));
        for (decks, said) in [(3.75, "3¾"), (0.5, "½"), (4.0, "4"), (2.25, "2¼")] {
            assert_eq!(in_quarters(decks), said);
            assert_eq!(as_typed(said).parse::<f64>(), Ok(decks));
        }
    }
}
