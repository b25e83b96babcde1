//! Playing online, on screen: the login page, the lobby, the leaderboard and the player's hands from the casino; at a
//! shared table the chat panel, the turn clock and the connection's banner.

use super::*;
use crate::engine::words::counted;
use crate::game::model::casino::{Asked, Casino, CasinoRequest, Clock, Status};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            casino_screen.in_set(Draw::Page).run_if(
                in_state(Menu::Online)
                    .or_else(in_state(Menu::Lobby))
                    .or_else(in_state(Menu::Leaderboard))
                    .or_else(in_state(Menu::ServerHands))
                    .or_else(in_state(Menu::Shoes)),
            ),
            online_hud
                .in_set(Draw::Over)
                .run_if(in_state(Screen::Table)),
        ),
    );
}

/// The casino's pages on the Title: logging in, the lobby, the leaderboard, the player's hands. Back leaves the
/// casino from the login page and the lobby, and goes back to the lobby from the others.
fn casino_screen(
    mut contexts: EguiContexts,
    menu: Res<State<Menu>>,
    mut to_menu: ResMut<NextState<Menu>>,
    casino: Option<Res<Casino>>,
    mut asks: MessageWriter<CasinoRequest>,
    mut typed: ResMut<Typed>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let menu = *menu.get();
    let name = match menu {
        Menu::Online => "Play online",
        Menu::Lobby => "The casino",
        Menu::Leaderboard => "Leaderboard",
        Menu::Shoes => "Fair shoes",
        _ => "Your hands",
    };
    let mut go = None;
    let back = page(ctx, name, |ui| {
        let Some(casino) = casino.as_deref() else {
            ui.label("Playing online is not set up in this build.");
            return;
        };
        go = match menu {
            Menu::Online => online_page(ui, casino, &mut asks, &mut typed),
            Menu::Lobby => lobby_page(ui, casino, &mut asks),
            Menu::Leaderboard => {
                leaderboard_page(ui, casino);
                None
            }
            Menu::Shoes => {
                shoes_page(ui, casino);
                None
            }
            _ => {
                server_hands_page(ui, casino, &mut asks);
                None
            }
        };
    });
    if let Some(page) = go {
        to_menu.set(page);
    } else if back {
        match menu {
            Menu::Online | Menu::Lobby => {
                asks.write(CasinoRequest::Disconnect);
                to_menu.set(Menu::Main);
            }
            _ => to_menu.set(Menu::Lobby),
        }
    }
    Ok(())
}

/// What the player is typing on the login page and in the chat.
#[derive(Resource, Default)]
pub struct Typed {
    name: String,
    password: String,
    guest: String,
    /// Another casino's address, when none answered at this one.
    address: String,
    /// The address the field above was filled with, once, when no casino answered there (the player may then empty
    /// it and type another).
    address_offered: Option<String>,
    /// The chat line being written.
    pub chat: String,
    /// The chat panel is open.
    pub chat_open: bool,
    /// The chat's text field has the keyboard: the table's keys stand aside.
    pub typing: bool,
    /// The chat was just opened: its text field takes the keyboard.
    focus: bool,
    /// The player whose name was tapped in the chat: what may be done about them shows under the lines.
    about: Option<String>,
}

impl Typed {
    /// The address field, filled with `host` the first time no casino answered there, and left as the player
    /// made it afterwards (empty too).
    fn offer_address(&mut self, host: &str) {
        if self.address_offered.as_deref() != Some(host) {
            self.address = host.to_string();
            self.address_offered = Some(host.to_string());
        }
    }

    fn toggle_chat(&mut self) {
        self.chat_open = !self.chat_open;
        self.focus = self.chat_open;
    }

    /// Logging in (or registering) with the name and password typed.
    fn logging_in(&self, register: bool) -> CasinoRequest {
        CasinoRequest::LogIn {
            name: self.name.clone(),
            password: self.password.clone(),
            register,
        }
    }
}

/// The login page: log in, register, or play as a guest. Returns the page to go to.
pub(super) fn online_page(
    ui: &mut egui::Ui,
    casino: &Casino,
    asks: &mut MessageWriter<CasinoRequest>,
    typed: &mut Typed,
) -> Option<Menu> {
    let mut go = None;
    let connecting = matches!(casino.status, Status::Connecting { .. });
    let asking = !casino.asking.is_empty();
    page_frame().show(ui, |ui| {
        ui.set_width((ui.available_width() - 28.0).min(440.0));
        ui.vertical_centered(|ui| {
            ui.label(
                egui::RichText::new(format!("The casino at {}", casino.host))
                    .size(theme::size::BODY)
                    .color(CREAM),
            );
        });
        ui.add_space(10.0);
        if casino.unreached && !connecting {
            no_casino_there(ui, casino, asks, typed);
            ui.separator();
        }
        if let Some(account) = &casino.account {
            ui.vertical_centered(|ui| {
                ui.label(format!("You are logged in as {account}."));
                ui.add_space(6.0);
                if ui
                    .add_enabled(!connecting, Theme::of(ui.ctx()).wide_button(&format!("Play as {account}"), 320.0))
                    .clicked()
                {
                    asks.write(CasinoRequest::Connect { guest: None });
                }
                if ui.add_enabled(!connecting, Theme::of(ui.ctx()).button("Log out")).clicked() {
                    asks.write(CasinoRequest::LogOut);
                }
            });
        } else {
            // One column, a field under its label: on a phone each takes the width, and a tap opens the keyboard.
            let theme = Theme::of(ui.ctx());
            let width = ui.available_width();
            let field = |ui: &mut egui::Ui, label: &str, text: &mut String, password: bool| {
                let named = ui.label(label);
                ui.add(
                    egui::TextEdit::singleline(text)
                        .password(password)
                        .desired_width(width)
                        .min_size(egui::vec2(width, theme.target()))
                        .font(egui::FontId::proportional(theme::size::LARGE)),
                )
                .labelled_by(named.id)
            };
            field(ui, "Name", &mut typed.name, false);
            let password = field(ui, "Password", &mut typed.password, true);
            if password.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                asks.write(typed.logging_in(false));
            }
            let ready = !typed.name.trim().is_empty() && !typed.password.is_empty();
            let (_, each) = theme::grid(width, 2, 120.0);
            ui.horizontal(|ui| {
                for (words, register) in [("Log in", false), ("Register", true)] {
                    let button = egui::Button::new(bold(words).size(theme::size::BUTTON))
                        .min_size(egui::vec2(each, theme.target()))
                        .corner_radius(8.0);
                    if ui.add_enabled(ready && !asking, button).clicked() {
                        asks.write(typed.logging_in(register));
                    }
                }
            });
            ui.label(
                egui::RichText::new("An account keeps your bankroll, highscore and hands (8 or more characters of password).")
                    .size(theme::size::SMALL)
                    .color(CREAM),
            );
            ui.separator();
            field(ui, "Or play as a guest, named", &mut typed.guest, false);
            let guest = egui::Button::new(bold("Play as a guest").size(theme::size::BUTTON))
                .min_size(egui::vec2(width, theme.target()))
                .corner_radius(8.0);
            if ui
                .add_enabled(!typed.guest.trim().is_empty() && !connecting, guest)
                .clicked()
            {
                asks.write(CasinoRequest::Connect {
                    guest: Some(typed.guest.trim().to_string()),
                });
            }
        }
        if casino.asking.contains(&Asked::Hand) {
            ui.label(egui::RichText::new("Fetching the round to watch again…").color(CREAM));
        } else if connecting || asking {
            ui.label(egui::RichText::new("Talking to the casino…").color(CREAM));
        }
        // With no casino there, the words above say so plainly (the log keeps what the network said).
        if let Some(problem) = casino.problem.as_ref().filter(|_| !casino.unreached) {
            ui.colored_label(REFUSAL, problem);
        }
    });
    if casino.is_open() {
        go = Some(Menu::Lobby);
    }
    go
}

/// The command that starts a casino on this computer, from Holecard's folder (the README's).
pub const START_A_CASINO: &str =
    "cargo run --release --no-default-features --features server --bin holecard-server";

/// No casino answered at the address: what a casino is and how to start one, another address to try (natively; in
/// the browser the page's own server is the casino), and that the tables on this device still work.
fn no_casino_there(
    ui: &mut egui::Ui,
    casino: &Casino,
    asks: &mut MessageWriter<CasinoRequest>,
    typed: &mut Typed,
) {
    let theme = Theme::of(ui.ctx());
    let width = ui.available_width();
    let words = |text: &str| {
        egui::RichText::new(text)
            .size(theme::size::BODY)
            .color(CREAM)
    };
    if cfg!(target_arch = "wasm32") {
        ui.label(
            bold("This page could not reach its casino.")
                .size(theme::size::BODY)
                .color(REFUSAL),
        );
        ui.label(words(
            "You may be offline, or the casino may be closed for now. Try again in a moment.",
        ));
    } else {
        ui.label(
            bold("No casino answered at this address.")
                .size(theme::size::BODY)
                .color(REFUSAL),
        );
        ui.label(words(
            "A casino is a Holecard server: tables shared with other players, accounts, chat, and a ledger of every chip. \
             To open one on this computer, run this in Holecard's folder, then try again:",
        ));
        ui.add(egui::Label::new(
            egui::RichText::new(START_A_CASINO)
                .monospace()
                .size(theme::size::SMALL)
                .color(GOLD),
        ));
        typed.offer_address(&casino.host);
        let named = ui.label(words("Or play at another casino's address:"));
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut typed.address)
                    .hint_text("ws://HOST:PORT")
                    .desired_width(width)
                    .min_size(egui::vec2(width, theme.target()))
                    .font(egui::FontId::proportional(theme::size::LARGE)),
            )
            .labelled_by(named.id);
        let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui
            .add(theme.wide_button("Use this address", width))
            .clicked()
            || entered
        {
            asks.write(CasinoRequest::Address(typed.address.trim().to_string()));
        }
    }
    ui.label(words(
        "The tables on this device still work: go Back and choose Tables.",
    ));
}

/// The lobby: every table with its rules, limits, seats and watchers; sit down or watch. Returns the page to go to.
pub(super) fn lobby_page(
    ui: &mut egui::Ui,
    casino: &Casino,
    asks: &mut MessageWriter<CasinoRequest>,
) -> Option<Menu> {
    let mut go = None;
    if !casino.is_open() && !matches!(casino.status, Status::Lost { .. }) {
        // Disconnected (refused, or the casino went away before the first welcome): back to the login page.
        return Some(Menu::Online);
    }
    let (name, account) = casino.welcomed.clone().unwrap_or_default();
    // As wide as a wide window allows, narrower on an upright one.
    let width = (ui.available_width() - 16.0).min(780.0);
    ui.horizontal_wrapped(|ui| {
        ui.add_space((ui.available_width() - width).max(0.0) / 2.0);
        ui.label(
            bold(format!(
                "{name}{} · {}",
                if account { "" } else { " (guest)" },
                casino.host
            ))
            .color(CREAM),
        );
        if account {
            if ui.button("Leaderboard").clicked() {
                asks.write(CasinoRequest::Leaderboard);
                go = Some(Menu::Leaderboard);
            }
            if ui.button("Your hands").clicked() {
                asks.write(CasinoRequest::Hands);
                go = Some(Menu::ServerHands);
            }
            if ui
                .button("Reset my chips")
                .on_hover_text("Out of chips: back to the starting stake, once an hour")
                .clicked()
            {
                asks.write(CasinoRequest::Reset);
            }
        } else if ui.button("Leaderboard").clicked() {
            asks.write(CasinoRequest::Leaderboard);
            go = Some(Menu::Leaderboard);
        }
        if ui.button("Fair shoes").clicked() {
            go = Some(Menu::Shoes);
        }
        if ui.button("Refresh").clicked() {
            asks.write(CasinoRequest::Lobby);
        }
    });
    if let Some((chips, highscore)) = casino.balance {
        ui.label(
            egui::RichText::new(format!("Your chips {chips} · highscore {highscore}")).color(GOLD),
        );
    }
    if let Some(problem) = &casino.problem {
        ui.colored_label(REFUSAL, problem);
    }
    ui.add_space(6.0);
    let size = egui::vec2(width, (ui.available_height() - 48.0).max(120.0));
    let mut picked = None;
    let theme = Theme::of(ui.ctx());
    let phone = theme.shape.phone();
    ui.allocate_ui_with_layout(size, egui::Layout::top_down(egui::Align::Min), |ui| {
        egui::ScrollArea::vertical()
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if casino.lobby.is_empty() {
                    ui.label("Asking the casino for its tables…");
                }
                for table in &casino.lobby {
                    page_frame().show(ui, |ui| {
                        ui.set_width(width - 40.0);
                        let full = table.people + table.companions >= 7;
                        if phone {
                            // A phone: the name on its own line, the two buttons across the card under the rules.
                            ui.label(bold(&table.name).size(18.0).color(GOLD));
                        } else {
                            ui.horizontal(|ui| {
                                ui.label(bold(&table.name).size(18.0).color(GOLD));
                                ui.with_layout(
                                    egui::Layout::right_to_left(egui::Align::Center),
                                    |ui| {
                                        if ui.button("Watch").clicked() {
                                            picked = Some((table.id.clone(), false));
                                        }
                                        if ui
                                            .add_enabled(!full, egui::Button::new(bold("Sit down")))
                                            .clicked()
                                        {
                                            picked = Some((table.id.clone(), true));
                                        }
                                    },
                                );
                            });
                        }
                        ui.label(
                            egui::RichText::new(format!(
                                "{} · bets {}–{}",
                                table.rules, table.min_bet, table.max_bet
                            ))
                            .size(14.0),
                        );
                        if let Some(edge) = table.house_edge_thousandths {
                            ui.label(super::tables::house_edge_line(Some(
                                f64::from(edge) / 1000.0,
                            )));
                        }
                        ui.label(
                            egui::RichText::new(format!(
                                "{} · {} · {} watching · {} free",
                                counted(table.people, "player", "players"),
                                counted(table.companions, "companion", "companions"),
                                table.spectators,
                                7u8.saturating_sub(table.people + table.companions),
                            ))
                            .size(13.0)
                            .color(CREAM),
                        );
                        if phone {
                            let (_, each) = theme::grid(width - 40.0, 2, 120.0);
                            ui.horizontal(|ui| {
                                if ui
                                    .add_enabled(!full, theme.wide_button("Sit down", each))
                                    .clicked()
                                {
                                    picked = Some((table.id.clone(), true));
                                }
                                if ui.add(theme.wide_button("Watch", each)).clicked() {
                                    picked = Some((table.id.clone(), false));
                                }
                            });
                        }
                    });
                    ui.add_space(6.0);
                }
            });
    });
    if let Some((table, sit)) = picked {
        asks.write(CasinoRequest::GoToTable { table, sit });
    }
    if ui.button("Leave the casino").clicked() {
        asks.write(CasinoRequest::Disconnect);
        go = Some(Menu::Main);
    }
    go
}

/// What the casino answered, when it has and there is something in it; else says so (asking, the error, `empty`).
fn answered<'a, T>(
    ui: &mut egui::Ui,
    answer: &'a Option<Result<Vec<T>, String>>,
    empty: &str,
) -> Option<&'a Vec<T>> {
    match answer {
        None => {
            ui.label("Asking the casino…");
            None
        }
        Some(Err(why)) => {
            ui.colored_label(REFUSAL, why);
            None
        }
        Some(Ok(list)) if list.is_empty() => {
            ui.label(empty);
            None
        }
        Some(Ok(list)) => Some(list),
    }
}

/// The all-time highscores.
pub(super) fn leaderboard_page(ui: &mut egui::Ui, casino: &Casino) {
    let me = casino.welcomed.as_ref().map(|(name, _)| name.as_str());
    page_frame().show(ui, |ui| {
        ui.set_width((ui.available_width() - 28.0).min(520.0));
        ui.label(egui::RichText::new("The most chips an account ever held").color(CREAM));
        ui.add_space(6.0);
        if let Some(leaders) = answered(ui, &casino.leaderboard, "Nobody has an account here yet.")
        {
            {
                egui::ScrollArea::vertical()
                    .max_height(420.0)
                    .show(ui, |ui| {
                        egui::Grid::new("leaders")
                            .num_columns(4)
                            .striped(true)
                            .spacing([24.0, 6.0])
                            .show(ui, |ui| {
                                for heading in ["#", "Player", "Highscore", "Chips now"] {
                                    ui.label(bold(heading));
                                }
                                ui.end_row();
                                for (rank, leader) in leaders.iter().enumerate() {
                                    let colour = if Some(leader.name.as_str()) == me {
                                        GOLD
                                    } else {
                                        CREAM
                                    };
                                    ui.label(
                                        egui::RichText::new(format!("{}", rank + 1)).color(colour),
                                    );
                                    ui.label(egui::RichText::new(&leader.name).color(colour));
                                    ui.label(
                                        egui::RichText::new(leader.highscore.to_string())
                                            .color(colour),
                                    );
                                    ui.label(
                                        egui::RichText::new(leader.chips.to_string()).color(colour),
                                    );
                                    ui.end_row();
                                }
                            });
                    });
            }
        }
    });
}

/// The player's own hands as the casino kept them, newest first, each round with a button that watches it again
/// on the felt as its table showed it (while the casino keeps it).
pub(super) fn server_hands_page(
    ui: &mut egui::Ui,
    casino: &Casino,
    asks: &mut MessageWriter<CasinoRequest>,
) {
    page_frame().show(ui, |ui| {
        ui.set_width((ui.available_width() - 40.0).min(900.0));
        if let Some(problem) = &casino.problem {
            ui.colored_label(REFUSAL, problem);
        }
        if casino.asking.contains(&Asked::Hand) {
            ui.label(egui::RichText::new("Fetching the round to watch again…").color(CREAM));
        }
        if let Some(hands) = answered(ui, &casino.history, "No hands yet: sit down at a table.") {
            let width = ui.available_width();
            egui::ScrollArea::vertical()
                .max_height(ui.available_height().max(240.0))
                .auto_shrink([false, true])
                .show(ui, |ui| {
                    // One card a round (a round's hands come together, newest first).
                    for round in hands.chunk_by(|a, b| (&a.table, a.round) == (&b.table, b.round)) {
                        let first = &round[0];
                        let table = casino.table_name(&first.table);
                        let net: Cents = round
                            .iter()
                            .map(|hand| {
                                hand.net + hand.side_bets.iter().map(|side| side.net).sum::<Cents>()
                            })
                            .sum();
                        let watch = round_card(
                            ui,
                            width,
                            RoundHead {
                                round: first.round,
                                table: &table,
                                seat: None,
                                net,
                                button: "Watch",
                                unavailable: None,
                            },
                            |ui| {
                                for hand in round {
                                    hand_line(
                                        ui,
                                        &hand_words(
                                            &hand.cards,
                                            &hand.dealer,
                                            &hand.decisions,
                                            &format!("{} {}", hand.outcome, hand.net.signed()),
                                        ),
                                        tone(hand.net),
                                    );
                                    for side in &hand.side_bets {
                                        let result = side.won.as_deref().unwrap_or("lost");
                                        hand_line(
                                            ui,
                                            &format!(
                                                "{} {}: {result} {}",
                                                side.bet,
                                                side.stake,
                                                side.net.signed()
                                            ),
                                            tone(side.net),
                                        );
                                    }
                                }
                                let after =
                                    round.last().map_or(first.bankroll, |hand| hand.bankroll);
                                hand_line(ui, &format!("Chips after the round: {after}"), QUIET);
                            },
                        );
                        if watch {
                            asks.write(CasinoRequest::WatchAgain {
                                table: first.table.clone(),
                                round: first.round,
                            });
                        }
                    }
                });
        }
    });
}

/// The casino's shoes as the player followed them: the one in play with its fingerprint, and each one finished, dealt
/// again from the shuffle revealed after its last card and checked card for card against what the player saw.
pub(super) fn shoes_page(ui: &mut egui::Ui, casino: &Casino) {
    use crate::host::fair::Sight;
    let name_of = |id: &str| casino.table_name(id);
    let small = |text: String| {
        egui::RichText::new(text)
            .size(theme::size::SMALL)
            .color(CREAM)
    };
    page_frame().show(ui, |ui| {
        ui.set_width((ui.available_width() - 28.0).min(720.0));
        ui.add(
            egui::Label::new(
                "Before a shoe's first card, the casino shows a fingerprint of its shuffle. After the shoe's last \
                 card, it shows the shuffle itself. Holecard deals that shoe again from it and checks every card you \
                 saw: to change a card, the casino would need another shuffle with the same fingerprint.",
            )
            .wrap(),
        );
        ui.add_space(8.0);
        match (casino.shoes.following(), &casino.table) {
            (Some((commitment, seen)), Some(table)) => {
                ui.add(
                    egui::Label::new(bold(format!(
                        "Now: shoe {} at {}, {} out since you came.",
                        commitment.shoe,
                        name_of(&table.id),
                        counted(seen as u64, "card", "cards")
                    )))
                    .wrap(),
                );
                ui.add(
                    egui::Label::new(small(format!("Fingerprint (SHA-256): {}", commitment.sha256)))
                        .wrap()
                        .selectable(true),
                );
            }
            _ => {
                ui.add(egui::Label::new("Sit down at a table, or watch one, to follow its shoe.").wrap());
            }
        }
        if casino.checked.is_empty() {
            ui.add_space(6.0);
            ui.add(
                egui::Label::new(
                    "No shoe has ended while you were at a table yet. A shoe is checked once its last card is out.",
                )
                .wrap(),
            );
            return;
        }
        egui::ScrollArea::vertical()
            .max_height(ui.available_height().max(240.0))
            .show(ui, |ui| {
                for (table, checked) in casino.checked.iter().rev() {
                    ui.separator();
                    let colour = if checked.outcome.is_ok() { GOLD } else { REFUSAL };
                    ui.add(
                        egui::Label::new(bold(format!("{} · {}", name_of(table), checked.words())).color(colour))
                            .wrap(),
                    );
                    for (what, value) in [
                        ("Fingerprint (SHA-256)", &checked.commitment.sha256),
                        ("Shuffle revealed", &checked.seed),
                    ] {
                        ui.add(egui::Label::new(small(format!("{what}: {value}"))).wrap().selectable(true));
                    }
                    let Some(places) = checked.card_for_card() else {
                        continue;
                    };
                    egui::CollapsingHeader::new(format!("Shoe {}, card for card", checked.shoe))
                        .id_salt(("shoe", table.as_str(), checked.shoe))
                        .show(ui, |ui| {
                            ui.add(
                                egui::Label::new(small(
                                    "Each place in the shoe with the card the shuffle deals there: in cream the \
                                     cards you saw there, in grey the burned and face-down cards you did not see, \
                                     and those dealt before you came or never dealt; in red a card you saw that \
                                     is not the shuffle's."
                                        .to_string(),
                                ))
                                .wrap(),
                            );
                            ui.horizontal_wrapped(|ui| {
                                for (at, place) in places.iter().enumerate() {
                                    // The place, small and quiet, then the card in its colour.
                                    let (card, colour) = match place.seen {
                                        Sight::Shown(card) if card == place.dealt => {
                                            (place.dealt.to_string(), CREAM)
                                        }
                                        Sight::Shown(card) => {
                                            (format!("{} (you saw {card})", place.dealt), REFUSAL)
                                        }
                                        Sight::Unseen | Sight::Before | Sight::Left => {
                                            (place.dealt.to_string(), QUIET)
                                        }
                                    };
                                    let mut shown = egui::text::LayoutJob::default();
                                    let format = |size: f32, color| egui::TextFormat {
                                        font_id: egui::FontId::proportional(size),
                                        color,
                                        valign: egui::Align::BOTTOM,
                                        ..Default::default()
                                    };
                                    shown.append(
                                        &format!("{} ", at + 1),
                                        0.0,
                                        format(theme::size::SMALL, QUIET),
                                    );
                                    shown.append(&card, 0.0, format(theme::size::BODY, colour));
                                    ui.label(shown);
                                }
                            });
                        });
                }
            });
    });
}

/// The chat panel at a shared table: the lines (said as text, never markup), the table's notices, and a line to
/// type (Enter sends, Esc closes). On a phone it is a sheet over the bottom of the table, in the bar's place (as the
/// round log's is), with Send and Close under the thumb: a phone's keyboard may have no Enter to press.
pub(super) fn chat_window(
    ctx: &egui::Context,
    casino: &mut Casino,
    asks: &mut MessageWriter<CasinoRequest>,
    typed: &mut Typed,
    theme: &Theme,
) {
    typed.typing = false;
    if !typed.chat_open {
        return;
    }
    casino.unread = 0;
    let phone = theme.shape.phone();
    let tall = ctx.content_rect().height();
    let width = if phone {
        super::table_hud::bar_width(ctx, theme)
    } else {
        300.0
    };
    // On a phone the sheet hides the table under it (as the round log's does); elsewhere a panel beside it.
    let frame = if phone {
        egui::Frame::window(&ctx.global_style())
    } else {
        page_frame()
    };
    let window = egui::Window::new("Chat")
        .collapsible(false)
        .resizable(false)
        .frame(frame)
        .title_bar(false);
    let window = if phone {
        super::table_hud::phone_sheet(window, ctx, theme)
    } else {
        // A column at the left, above the bottom band: the felt is framed beside it while it is open.
        window.anchor(egui::Align2::LEFT_TOP, [8.0, 8.0])
    };
    let mut send = false;
    let mut chosen = None;
    let mut tapped = None;
    let shown = window.show(ctx, |ui| {
        ui.set_width(width);
        let heading = ui.horizontal(|ui| {
            let heading = ui.label(bold("Chat").color(GOLD));
            if theme.keyboard {
                ui.label(
                    egui::RichText::new("[T] to close")
                        .size(theme::size::SMALL)
                        .color(CREAM),
                );
            }
            heading
        });
        // On a phone the lines take what the sheet leaves above the field and its buttons.
        let lines_height = if phone {
            (tall * super::table_hud::SHEET - 2.0 * theme.target() - 60.0).max(80.0)
        } else {
            220.0
        };
        let me = casino.welcomed.as_ref().map(|(name, _)| name);
        let target = if phone { theme.target() } else { 0.0 };
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .max_height(lines_height)
            .auto_shrink([false, !phone])
            .show(ui, |ui| {
                for line in &casino.chat {
                    match &line.from {
                        Some(from) if Some(from) == me => {
                            ui.horizontal_wrapped(|ui| {
                                ui.label(bold(format!("{from}:")).color(GOLD));
                                // A label shows its text as text: nothing in a line is markup.
                                ui.label(&line.text);
                            });
                        }
                        // Another's name opens what a player may do about them (under the lines).
                        Some(from) => {
                            ui.horizontal_wrapped(|ui| {
                                let name = ui.add(
                                    egui::Button::new(bold(format!("{from}:")).color(GOLD))
                                        .frame(false)
                                        .min_size(egui::vec2(target, target)),
                                );
                                if name.clicked() {
                                    tapped = Some(from.clone());
                                }
                                ui.label(&line.text);
                            });
                        }
                        None => {
                            ui.label(
                                egui::RichText::new(&line.text)
                                    .italics()
                                    .size(theme::size::SMALL)
                                    .color(CREAM),
                            );
                        }
                    }
                }
            });
        // A name tapped: hide their chat, or report them to the moderators, or neither.
        if let Some(about) = typed.about.clone() {
            ui.horizontal_wrapped(|ui| {
                let size = egui::vec2(0.0, target);
                if ui
                    .add(egui::Button::new(format!("Hide {about}'s chat")).min_size(size))
                    .clicked()
                {
                    chosen = Some(format!("/block \"{about}\""));
                }
                if ui
                    .add(egui::Button::new(format!("Report {about}")).min_size(size))
                    .clicked()
                {
                    chosen = Some(format!("/report \"{about}\" reported from the chat panel"));
                }
                if ui
                    .add(egui::Button::new("Never mind").min_size(size))
                    .clicked()
                {
                    typed.about = None;
                }
            });
        }
        // `/help` lists the commands (report, block, and a moderator's).
        let hint = "Say something, or /help";
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut typed.chat)
                    .hint_text(hint)
                    .char_limit(crate::protocol::MAX_CHAT_CHARS)
                    .min_size(egui::vec2(0.0, if phone { theme.target() } else { 0.0 }))
                    .desired_width(width - 10.0),
            )
            .labelled_by(heading.inner.id);
        if std::mem::take(&mut typed.focus) {
            field.request_focus();
        }
        if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            send = true;
            field.request_focus();
        }
        if phone {
            ui.add_space(theme::size::GAP);
            let (_, each) = theme::grid(width, 2, 100.0);
            ui.horizontal(|ui| {
                send |= ui.add(theme.wide_button("Send", each)).clicked();
                if ui.add(theme.wide_button("Close", each)).clicked() {
                    typed.chat_open = false;
                }
            });
        }
        if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            typed.chat_open = false;
        }
        typed.typing = field.has_focus();
    });
    if let Some(shown) = shown
        && !phone
    {
        dock(ctx, Edge::Left, shown.response.rect);
    }
    if send {
        if let Ok(text) = crate::protocol::check_chat(&typed.chat) {
            asks.write(CasinoRequest::Chat(text));
        }
        typed.chat.clear();
    }
    if let Some(command) = chosen {
        asks.write(CasinoRequest::Chat(command));
        typed.about = None;
    }
    if tapped.is_some() {
        typed.about = tapped;
    }
}

/// The top of a shared table: the connection's state when it is not playing, in a banner.
pub(super) fn connection_banner(ctx: &egui::Context, casino: &Casino, now: f64) {
    let words = match &casino.status {
        Status::Lost {
            why,
            attempt,
            retry_at,
        } => {
            let wait = (retry_at - now).max(0.0).ceil();
            if wait > 0.0 {
                format!(
                    "Connection lost ({why}). Reconnecting in {wait:.0} s, try {attempt}… your seat is held."
                )
            } else {
                format!("Connection lost ({why}). Reconnecting, try {attempt}… your seat is held.")
            }
        }
        Status::Connecting { .. } => "Connecting to the casino…".to_string(),
        Status::Offline => "Not connected to the casino.".to_string(),
        Status::Open => return,
    };
    hud_area(ctx, "connection banner".into())
        .anchor(egui::Align2::CENTER_TOP, [0.0, 12.0])
        .show(ctx, |ui| {
            panel_frame()
                .fill(egui::Color32::from_rgb(0x5a, 0x14, 0x14))
                .stroke(egui::Stroke::new(1.5, GOLD))
                .show(ui, |ui| {
                    ui.label(bold(words).size(16.0).color(egui::Color32::WHITE));
                });
        });
}

/// At a shared table: the T key and the chat panel, the connection's banner, and the panel saying where the player
/// plays, whose turn it is and how long the clock gives them.
#[allow(clippy::too_many_arguments)] // Bevy systems take their world as parameters.
pub(super) fn online_hud(
    mut contexts: EguiContexts,
    casino: Option<ResMut<Casino>>,
    mut asks: MessageWriter<CasinoRequest>,
    table: Option<Res<crate::game::model::table::OnlineTable>>,
    mut typed: ResMut<Typed>,
    input: Res<ButtonInput<KeyCode>>,
    occupants: Res<Occupants>,
    session: Res<Session>,
    time: Res<Time<Real>>,
    layout: Res<crate::game::felt::layout::TableLayout>,
    seen: Option<Res<SeatView>>,
    (mut log, theme, mut sheets): (ResMut<RoundLog>, Res<Theme>, Local<(bool, bool)>),
    replay: Option<Res<crate::game::model::seat::Replay>>,
) -> Result {
    // A round watched again has no chat, clock or connection of its own.
    let (Some(mut casino), Some(_), Some(seen), None) = (casino, table, seen, replay) else {
        typed.typing = false;
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let now = time.elapsed_secs_f64();
    if !typed.typing && input.just_pressed(KeyCode::KeyT) {
        typed.toggle_chat();
    }
    let phone = theme.shape.phone();
    // On a phone the round log and the chat are sheets in one place: the one opened last stays.
    if phone && log.open && typed.chat_open {
        if sheets.0 {
            log.open = false;
        } else {
            typed.chat_open = false;
        }
    }
    *sheets = (log.open, typed.chat_open);
    connection_banner(ctx, &casino, now);
    // The clock is shown once the felt has caught up with what it waits for (the cards still moving may be a beat or
    // two behind the server).
    let felt = &seen.0;
    let waiting = |clock: &Clock| match clock.seat {
        None => felt.phase() == Phase::Betting,
        Some(seat) => felt.seat_to_act() == Some(seat),
    };
    let turn = casino.clock.filter(waiting).map(|clock| {
        let left = clock.seconds_left(now);
        match clock.seat {
            None => format!("Bets close in {left} s"),
            Some(seat) if Some(seat) == session.player_seat => format!("Your turn · {left} s"),
            Some(seat) => format!("{}'s turn · {left} s", occupants.name(seat)),
        }
    });
    let name = casino
        .welcomed
        .as_ref()
        .map_or(String::new(), |(name, _)| name.clone());
    let chat_label = match casino.unread {
        0 if typed.chat_open => theme.hint("Hide chat", "T"),
        0 => theme.hint("Chat", "T"),
        n => format!("{} ({n} new)", theme.hint("Chat", "T")),
    };
    if phone {
        // One row across the thumb's reach, over the bar: who plays here, whose turn, and the chat; under a sheet,
        // nothing.
        if !log.open && !typed.chat_open {
            // On its side, at the foot of the header's column at the left.
            let sideways = theme.shape.sideways();
            let (anchor, offset, width, edge) = if sideways {
                let width = super::table_hud::PHONE_COLUMN;
                (egui::Align2::LEFT_BOTTOM, [8.0, -8.0], width, Edge::Left)
            } else {
                let above = -above_bottom_bar(ctx, layout.portrait);
                let width = super::table_hud::bar_width(ctx, &theme);
                (
                    egui::Align2::CENTER_BOTTOM,
                    [0.0, above],
                    width,
                    Edge::Bottom,
                )
            };
            let panel = hud_area(ctx, "online panel".into())
                .anchor(anchor, offset)
                .show(ctx, |ui| {
                    panel_frame().show(ui, |ui| {
                        ui.set_width(width);
                        ui.horizontal(|ui| {
                            ui.vertical(|ui| {
                                ui.label(bold(&name).color(GOLD));
                                if let Some(turn) = &turn {
                                    ui.label(bold(turn).color(egui::Color32::WHITE));
                                }
                            });
                            ui.with_layout(
                                egui::Layout::right_to_left(egui::Align::Center),
                                |ui| {
                                    let chat = egui::Button::new(chat_label.as_str())
                                        .min_size(egui::vec2(96.0, theme.target()))
                                        .corner_radius(8.0);
                                    if ui.add(chat).clicked() {
                                        typed.toggle_chat();
                                    }
                                },
                            );
                        });
                    });
                });
            dock(ctx, edge, panel.response.rect);
        }
    } else {
        // On the table's own panel at the bottom left (the felt is framed above them both).
        let table_info = egui::AreaState::load(ctx, "table info".into())
            .and_then(|area| area.size)
            .map_or(84.0, |size| size.y);
        let above = -side_panels_lift(ctx, &theme, layout.portrait) - table_info - 8.0;
        let panel = hud_area(ctx, "online panel".into())
            .anchor(egui::Align2::LEFT_BOTTOM, [8.0, above])
            .show(ctx, |ui| {
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                panel_frame().show(ui, |ui| {
                    ui.label(bold(format!("Online · {name}")).color(GOLD));
                    ui.label(
                        egui::RichText::new(&casino.host)
                            .size(theme::size::SMALL)
                            .color(CREAM),
                    );
                    if let Some(turn) = &turn {
                        ui.label(bold(turn).size(17.0).color(egui::Color32::WHITE));
                    }
                    if ui.add(theme.button(chat_label)).clicked() {
                        typed.toggle_chat();
                    }
                });
            });
        dock(ctx, Edge::Bottom, panel.response.rect);
    }
    chat_window(ctx, &mut casino, &mut asks, &mut typed, &theme);
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_address_field_is_filled_once_for_each_casino_that_did_not_answer() {
        let mut typed = super::Typed::default();
        typed.offer_address("ws://127.0.0.1:8080");
        assert_eq!(typed.address, "ws://127.0.0.1:8080");
        // Emptied to type another: it stays empty frame after frame.
        typed.address.clear();
        typed.offer_address("ws://127.0.0.1:8080");
        typed.offer_address("ws://127.0.0.1:8080");
        assert_eq!(typed.address, "");
        typed.address = "10.0.0.2:9000".to_string();
        typed.offer_address("ws://127.0.0.1:8080");
        assert_eq!(typed.address, "10.0.0.2:9000");
        // That one did not answer either: the field shows the address tried.
        typed.offer_address("ws://10.0.0.2:9000");
        assert_eq!(typed.address, "ws://10.0.0.2:9000");
    }

    #[test]
    fn the_command_that_starts_a_casino_is_the_readmes() {
        let readme = include_str!("../../../README.md");
        assert!(
            readme.contains(super::START_A_CASINO),
            "{}",
            super::START_A_CASINO
        );
    }
}
