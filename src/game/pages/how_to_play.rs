//! How to play, for someone who has never played: the aim, a round, this table's rules in plain words (made from its
//! `Rules`), the controls for the screen in hand (touch; or mouse and keys), and what the table shows. From the Title,
//! where it is offered once on the first start, and from the pause menu.

use super::input::{BETTING_KEYS, DIGITS, HELP_KEYS, SPOT_KEY};
use super::*;
use crate::engine::{DoubleOn, HoleCard, Rules, Soft17, Surrender};
use crate::game::model::settings::Welcomed;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        how_to_play_screen
            .in_set(Draw::Page)
            .run_if(in_state(Menu::HowToPlay)),
    )
    // The offer on the main menu is made once: leaving the main menu, whichever way, is its answer.
    .add_systems(OnExit(Menu::Main), |welcomed: Option<ResMut<Welcomed>>| {
        if let Some(mut welcomed) = welcomed.filter(|w| !w.0) {
            welcomed.0 = true;
        }
    });
}

/// The page on the Title, for the table chosen there.
fn how_to_play_screen(
    mut contexts: EguiContexts,
    session: Res<Session>,
    mut to_menu: ResMut<NextState<Menu>>,
) -> Result {
    let rules = session.level.rules.rules();
    if page(contexts.ctx_mut()?, "How to play", |ui| {
        scrolling_column(ui, 680.0, |ui, width| {
            how_to_play(ui, &session.level.name, &rules, width);
        });
    }) {
        to_menu.set(Menu::Main);
    }
    Ok(())
}

/// The whole guide, `width` wide, at the table `name` playing `rules`; the controls are the screen's (its theme).
pub(super) fn how_to_play(ui: &mut egui::Ui, name: &str, rules: &Rules, width: f32) {
    let theme = Theme::of(ui.ctx());
    let touch = theme.shape.touch();
    let section = |ui: &mut egui::Ui, heading: &str, add: &mut dyn FnMut(&mut egui::Ui)| {
        page_frame().show(ui, |ui| {
            ui.set_width(width - 30.0);
            // Paragraphs read from the left edge, as a page of a book does.
            ui.with_layout(egui::Layout::top_down(egui::Align::Min), |ui| {
                ui.label(bold(heading).size(theme::size::LARGE).color(GOLD));
                ui.add_space(4.0);
                add(ui);
            });
        });
        ui.add_space(10.0);
    };
    let said = |ui: &mut egui::Ui, words: &str| {
        ui.label(egui::RichText::new(words).size(theme::size::BODY));
    };
    section(ui, "The aim", &mut |ui: &mut egui::Ui| {
        for line in aim() {
            said(ui, line);
        }
    });
    section(ui, "A round", &mut |ui: &mut egui::Ui| {
        for line in a_round(rules, touch) {
            said(ui, &line);
        }
    });
    section(
        ui,
        &format!("The rules at {name}"),
        &mut |ui: &mut egui::Ui| {
            said(
                ui,
                &format!("Its rules in short: {rules}. Each word means:"),
            );
            theme::rule_glossary(ui, rules);
            said(
                ui,
                &format!(
                    "Bets from {} to {}, in steps of {}.",
                    rules.min_bet, rules.max_bet, rules.bet_unit
                ),
            );
        },
    );
    if touch {
        section(ui, "Playing by touch", &mut |ui: &mut egui::Ui| {
            for line in by_touch() {
                said(ui, line);
            }
        });
    } else {
        section(ui, "Playing with the mouse", &mut |ui: &mut egui::Ui| {
            for line in by_mouse() {
                said(ui, line);
            }
        });
    }
    // A touch screen has no keys to tell of, unless a keyboard has been used on it.
    if !touch || theme.keyboard {
        section(ui, "Keys", &mut |ui: &mut egui::Ui| {
            for (key, does) in keys() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(bold(key).size(theme::size::BODY).color(GOLD));
                    ui.label(egui::RichText::new(does).size(theme::size::BODY));
                });
            }
            said(
                ui,
                "Once you have pressed a key, each button shows its key beside its name.",
            );
        });
    }
    section(ui, "What the table shows", &mut |ui: &mut egui::Ui| {
        for line in the_table(theme.shape) {
            said(ui, line);
        }
    });
}

/// What blackjack is about, and what the cards count.
fn aim() -> [&'static str; 4] {
    [
        "Finish closer to 21 than the dealer without going over. Each player plays against the dealer alone, not \
         against the others at the table.",
        "Cards from 2 to 10 count their number; a jack, a queen and a king count 10. An ace counts 11, or 1 when 11 \
         would take the hand over 21. A hand that counts an ace as 11 is soft: an ace and a six is a soft 17.",
        "A blackjack is an ace with a ten, jack, queen or king as the first two cards: it beats any other 21.",
        "Going over 21 is a bust: the bet is lost at once, whatever the dealer does afterwards.",
    ]
}

/// A round at a table of `rules`, in order, in the words of the screen in hand (`touch`).
fn a_round(rules: &Rules, touch: bool) -> Vec<String> {
    let (put, press) = if touch {
        ("Tap chips", "tap")
    } else {
        ("Click chips", "click")
    };
    let mut lines = vec![format!(
        "1. Bet. {put} in the rack to put them on your spot, from {} to {} at this table, then {press} Deal.",
        rules.min_bet, rules.max_bet
    )];
    let sides = rules.side_bets.offered();
    if !sides.is_empty() {
        let names: Vec<&str> = sides.iter().map(|bet| bet.name()).collect();
        lines.push(format!(
            "Side bets, if you like: this table also takes {}, each up to {} beside your bet. {} a side bet's spot \
             over the chips, then chips to put on it; Bet takes you back to your circle. Each side bet is paid on \
             its own, by what your cards make (the Tables page lists what each pays).",
            crate::engine::words::listed(&names),
            rules.side_bets.max_bet,
            if touch { "Tap" } else { "Click" },
        ));
    }
    lines.push(match rules.hole_card {
        HoleCard::Peek => "2. The deal. Everyone gets two cards face up; the dealer one up and one face down. When \
                           the up card is an ace or a ten, the dealer looks at the other first and, with a \
                           blackjack, turns it over at once and the round ends."
            .to_string(),
        HoleCard::NoHoleCard { .. } => "2. The deal. Everyone gets two cards face up; the dealer one, and a \
                                        second only after everyone has played."
            .to_string(),
    });
    let mut choices = vec![
        "Hit takes another card",
        "Stand keeps your total and ends your turn",
    ];
    if rules.double_on != DoubleOn::Never {
        choices.push("Double doubles your bet for exactly one more card");
    }
    if rules.max_split_hands >= 2 {
        choices.push("Split makes a pair into two hands, each with a bet the size of your first");
    }
    if rules.surrender != Surrender::None {
        choices.push("Surrender gives up the hand and hands back half your bet");
    }
    lines.push(format!(
        "3. Your turn. {press_up} the play you want in the bar at the bottom: {}.",
        choices.join("; "),
        press_up = if touch { "Tap" } else { "Click" },
    ));
    if rules.insurance {
        let mut insurance =
            "When the dealer shows an ace you are offered insurance: a second bet, half the size \
                             of your first, that the dealer has a blackjack; it pays 2 to 1."
                .to_string();
        if rules.even_money {
            insurance.push_str(
                " Holding a blackjack yourself, it is offered as even money: your bet paid 1 to 1 at once.",
            );
        }
        lines.push(insurance);
    }
    lines.push(format!(
        "4. The dealer plays by a fixed rule, with no choices: takes cards until the hand makes 17 or more, and {}.",
        match rules.soft_17 {
            Soft17::Stand => "stands on every 17, a soft 17 too",
            Soft17::Hit => "takes another card on a soft 17",
        }
    ));
    let (num, den) = rules.blackjack_pays.odds();
    lines.push(format!(
        "5. The pay. A win pays your bet again; a tie (a push) gives it back; a loss takes it. Your blackjack pays \
         {num} to {den}, unless the dealer has one too."
    ));
    lines
}

/// The controls on a touch screen.
fn by_touch() -> [&'static str; 4] {
    [
        "Tap a chip to add it to your bet. Undo takes the last chip back, Clear takes them all, Rebet puts down \
         last round's bet and 2× doubles the bet you are making. Deal starts the round.",
        "In your turn your choices take the place of the chips at the bottom of the screen: tap one.",
        "Menu, at the top, pauses the game. In it: the Advisor, the Coach and the Count (each on or off), \
         Settings, the table's rules, this page, your statistics, and Leave table.",
        "Log, beside Menu, opens the round in words: every card, play and payment.",
    ]
}

/// The controls with a mouse.
fn by_mouse() -> [&'static str; 4] {
    [
        "Click a chip to add it to your bet. Undo takes the last chip back, Clear takes them all, Rebet puts down \
         last round's bet and 2× doubles the bet you are making. Deal starts the round.",
        "In your turn your choices take the place of the chips at the bottom of the window: click one.",
        "The Advisor, Coach and Count buttons at the bottom right turn those helps on and off; Log opens the \
         round in words.",
        "Menu (or Esc) pauses the game: Settings, the table's rules, this page, your statistics, and Leave table.",
    ]
}

/// Every key of the table and what it does: the betting keys, the plays, the helps and the pause, as the keyboard
/// reads them (`input`). A key that does one thing between rounds and another in a turn (R) is listed once with both.
fn keys() -> Vec<(String, String)> {
    let mut all = vec![(
        format!("1 to {}", DIGITS.len()),
        "put down a chip from the rack, the smallest first".to_string(),
    )];
    all.extend(
        BETTING_KEYS
            .iter()
            .map(|(_, key, _, does)| (key.to_string(), does.to_string())),
    );
    all.push((SPOT_KEY.1.to_string(), SPOT_KEY.2.to_string()));
    all.extend(
        crate::engine::Action::ALL
            .iter()
            .map(|action| (action.key().to_uppercase(), action.name().to_string())),
    );
    all.extend(
        HELP_KEYS
            .iter()
            .map(|(_, key, _, does)| (key.to_string(), format!("turn {does} on or off"))),
    );
    all.push(("Esc".to_string(), "pause, and back to the game".to_string()));
    let mut keys: Vec<(String, String)> = Vec::new();
    for (key, does) in all {
        match keys.iter_mut().find(|(k, _)| *k == key) {
            Some((_, listed)) if !listed.contains(&does) => {
                listed.push_str(", or ");
                listed.push_str(&does);
            }
            Some(_) => {}
            None => keys.push((key, does)),
        }
    }
    keys
}

/// What each part of the table shows, where it is on this shape of screen.
fn the_table(shape: theme::Shape) -> [&'static str; 5] {
    let panels = if shape.phone() {
        "At the top: the table's name, its smallest and largest bet, the round's number and your chips."
    } else {
        "At the bottom left: the table's name, the round's number, its bets and its rules in short (point at them \
         for what they mean). At the bottom right: your chips and the helps."
    };
    [
        panels,
        "On the felt: the dealer and the shoe at the top, each seat round the table with its player's name, bet and \
         cards, and each hand's total beside it. Chips move as bets are paid and taken.",
        "The Advisor shows, on each play you may make, what it wins or loses on average for your bet, on the cards \
         still in the shoe as far as your seat has seen them.",
        "The Coach stops a play that the basic strategy chart would not make, once, and says what it costs on \
         average; play it again to go ahead.",
        "The Count keeps a card counter's count of the cards seen since the shuffle: the running count, the true \
         count (the running count for each deck left) and the decks left.",
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Preset;

    #[test]
    fn every_key_the_table_reads_is_listed_once_with_what_it_does() {
        let keys = keys();
        let listed = |name: &str| keys.iter().filter(|(k, _)| k == name).count();
        for (_, name, _, does) in BETTING_KEYS {
            assert_eq!(listed(name), 1, "{name}");
            let (_, said) = keys.iter().find(|(k, _)| k == name).expect("listed");
            assert!(said.contains(does), "{name}: {said}");
        }
        for (_, name, _, _) in HELP_KEYS {
            assert_eq!(listed(name), 1, "{name}");
        }
        for action in crate::engine::Action::ALL {
            let key = action.key().to_uppercase();
            assert_eq!(listed(&key), 1, "{key}");
            let (_, does) = keys.iter().find(|(k, _)| *k == key).expect("listed");
            assert!(does.contains(action.name()), "{key}: {does}");
        }
        assert_eq!(listed("Esc"), 1);
        assert!(keys.iter().all(|(_, does)| !does.is_empty()));
    }

    #[test]
    fn a_round_is_told_by_the_tables_own_rules() {
        let vegas = a_round(&Preset::LasVegasStrip.rules(), true).join("\n");
        assert!(vegas.contains("pays 3 to 2"), "{vegas}");
        assert!(vegas.contains("stands on every 17"), "{vegas}");
        assert!(vegas.contains("Surrender"), "{vegas}");
        assert!(vegas.contains("looks at the other first"), "{vegas}");
        assert!(vegas.contains("Tap the play"), "{vegas}");
        let carnival = a_round(&Preset::Carnival.rules(), false).join("\n");
        assert!(carnival.contains("pays 6 to 5"), "{carnival}");
        assert!(
            carnival.contains("takes another card on a soft 17"),
            "{carnival}"
        );
        assert!(carnival.contains("Click the play"), "{carnival}");
        let europe = a_round(&Preset::EuropeanNoHoleCard.rules(), true).join("\n");
        assert!(
            europe.contains("a second only after everyone has played"),
            "{europe}"
        );
        assert!(!europe.contains("Surrender"), "{europe}");
        let mut never = Preset::LasVegasStrip.rules();
        never.double_on = DoubleOn::Never;
        never.max_split_hands = 1;
        never.insurance = false;
        let never = a_round(&never, true).join("\n");
        assert!(
            !never.contains("Double") && !never.contains("Split"),
            "{never}"
        );
        assert!(!never.contains("insurance"), "{never}");
    }
}
