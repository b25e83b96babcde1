//! At the table: the limits and chips panels, the chip rack and betting buttons, the action buttons, "Sit here",
//! the round log and the pause menu.

use super::*;
use crate::engine::words::signed;

pub(super) fn plugin(app: &mut App) {
    // A table opens with the chat closed (left open at the casino's, it would hide a phone's bar here).
    app.add_systems(
        OnEnter(Screen::Table),
        (
            |mut log: ResMut<RoundLog>, mut typed: ResMut<Typed>| {
                log.lines.clear();
                typed.chat_open = false;
            },
            forget_the_bar,
        ),
    )
    .add_systems(
        Update,
        write_log
            .after(crate::game::model::screen::RoundSet::Present)
            .run_if(in_state(Screen::Table)),
    )
    .add_systems(
        EguiPrimaryContextPass,
        (
            (
                pause_key,
                seat_buttons,
                count_panel,
                info_panels,
                play_bar,
                round_log,
                pause_menu,
            )
                .chain()
                .in_set(Draw::Page)
                .run_if(in_state(Screen::Table)),
            game_over.in_set(Draw::Over).run_if(in_state(Screen::Table)),
            count_quiz.in_set(Draw::Over).run_if(
                in_state(Screen::Table)
                    .and_then(in_state(Pause::Off))
                    .and_then(|quiz: Res<ShuffleQuiz>| quiz.showing()),
            ),
            (
                frame_the_felt,
                // Only where the layout is checked: it reads every word on the felt each frame.
                mark_the_felt.run_if(resource_exists::<super::layout::LayoutCheck>),
            )
                .after(Draw::Over)
                .run_if(in_state(Screen::Table)),
        ),
    );
}

/// The round in words: what the table showed, and what the companions said.
pub(super) fn write_log(
    mut shown: MessageReader<Shown>,
    mut remarks: MessageReader<Remark>,
    occupants: Res<Occupants>,
    mut log: ResMut<RoundLog>,
) {
    for Shown(event) in shown.read() {
        for line in crate::game::model::table::narrate(event, &occupants) {
            log.push(line);
        }
    }
    for Remark { seat, line } in remarks.read() {
        let said = crate::host::News::Said {
            seat: *seat,
            line: line.clone(),
        };
        if let Some(said) = occupants.line(&said) {
            log.push(said);
        }
    }
}

/// Chip colours for the rack, matching the felt's chips.
pub(super) fn chip_fill(value: Cents) -> egui::Color32 {
    let [r, g, b] = crate::host::design::chip_colours(value).body;
    egui::Color32::from_rgb(r, g, b)
}

/// What the action bar shows beside the plays and sends them through: the coach, the advisor's values and the
/// player's choices.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Advice<'w> {
    coach: ResMut<'w, coach::Coach>,
    advisor: Res<'w, crate::game::model::advisor::Advisor>,
    sides: Res<'w, crate::game::model::sides::SideValues>,
    next_round: Res<'w, crate::game::model::next_round::NextRound>,
    edges: ResMut<'w, crate::game::model::edges::HouseEdges>,
    seen_cards: Res<'w, crate::game::model::seen::Seen>,
    choices: MessageWriter<'w, coach::Choice>,
}

/// What kind of table the bar is at: its layout (upright or wide), a casino's or the game's own, a replay, and the
/// theme it is drawn in.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct TableKind<'w> {
    layout: Res<'w, crate::game::felt::layout::TableLayout>,
    online: Option<Res<'w, crate::game::model::table::OnlineTable>>,
    replay: Option<Res<'w, crate::game::model::seat::Replay>>,
    casino: Option<Res<'w, crate::game::model::casino::Casino>>,
    theme: Res<'w, Theme>,
}

/// Where the HUD stands in the world: the camera, for pieces placed over the felt (a seat's "Sit here", the count
/// beside the shoe), and the table's layout.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Felt<'w, 's> {
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform)>,
    layout: Res<'w, crate::game::felt::layout::TableLayout>,
    framing: Res<'w, crate::game::felt::layout::Framing>,
}

impl Felt<'_, '_> {
    /// Where `point` of the felt is on the screen, in egui's points.
    fn on_screen(&self, ctx: &egui::Context, point: Vec2) -> Option<egui::Pos2> {
        let (camera, at) = self.cameras.single().ok()?;
        let screen = camera.world_to_viewport(at, point.extend(0.0)).ok()?;
        Some(egui::pos2(screen.x, screen.y) / ctx.zoom_factor())
    }
}

/// Between rounds, an empty seat can be taken with a tap (not in a replay: nobody sits at a kept round).
#[allow(clippy::too_many_arguments)]
fn seat_buttons(
    mut contexts: EguiContexts,
    seen: Option<Res<SeatView>>,
    occupants: Res<Occupants>,
    beats: Res<Beats>,
    pause: Res<State<Pause>>,
    felt: Felt,
    (replay, theme): (Option<Res<crate::game::model::seat::Replay>>, Res<Theme>),
    mut intents: MessageWriter<Intent>,
    (log, typed): (Res<RoundLog>, Res<Typed>),
    mut offered: ResMut<crate::game::felt::layout::SitOffered>,
) -> Result {
    // Which seats offer a button this frame; their "open seat" gives way to it.
    let mut offering = crate::game::felt::layout::SitOffered::default();
    let shown = (|| -> Result {
        let Some(seen) = seen else {
            return Ok(());
        };
        let table = &seen.0;
        // On a phone the round log's and the chat's sheets lie over the seats: no seat offers itself under one.
        let sheet = theme.shape.phone() && (log.open || typed.chat_open);
        if table.phase() != Phase::Betting
            || replay.is_some()
            || !beats.settled()
            || *pause.get() != Pause::Off
            || sheet
        {
            return Ok(());
        }
        let ctx = contexts.ctx_mut()?;
        // A phone's seats stand closer than a "Sit here" is wide: a short "Sit", still a thumb's target. A
        // desktop's "Sit here" gives way to a "Sit" where the table is drawn small (a panel over half the window).
        let short = ("Sit", egui::vec2(60.0, theme.target()));
        let sizes: &[(&str, egui::Vec2)] = if theme.shape.phone() {
            &[short]
        } else {
            &[("Sit here", egui::vec2(120.0, 52.0)), short]
        };
        let least = felt.framing.least_words;
        for seat in 0..7u8 {
            if !occupants.is_free(table, seat) {
                continue;
            }
            // The first button that lies clear of every other seat (none where the seats stand too close for a
            // thumb's target between them: a small phone's table; the sizes are the felt's test's)...
            let fitting = sizes.iter().find_map(|(label, size)| {
                let points = *size * ctx.zoom_factor() / felt.framing.pixels_per_unit;
                let button = felt
                    .layout
                    .sit_button(seat, least, Vec2::new(points.x, points.y))?;
                Some((*label, *size, felt.on_screen(ctx, button.center())?))
            });
            // ...and not under the bar at the thumb, the header or a panel (on a phone, the seats nearest the
            // bottom): it would lie over the chips and buttons of the bar.
            let covered = |(_, size, at): &(&str, egui::Vec2, egui::Pos2)| {
                let button = egui::Rect::from_center_size(*at, *size);
                super::layout::DOCKED.into_iter().any(|area| {
                    super::layout::shown_area(ctx, area).is_some_and(|rect| rect.intersects(button))
                })
            };
            if let Some((label, size, at)) = fitting.filter(|fit| !covered(fit)) {
                offering.0 |= 1 << seat;
                hud_area(ctx, egui::Id::new(("sit", seat)))
                    .fixed_pos(at)
                    .pivot(egui::Align2::CENTER_CENTER)
                    .show(ctx, |ui| {
                        if ui.add(theme.button(label).min_size(size)).clicked() {
                            intents.write(Intent::SitAt(seat));
                        }
                    });
            }
        }
        Ok(())
    })();
    offered.set_if_neq(offering);
    shown
}

/// The count, when asked for in Settings: the system's running count, the true count, the decks left. Beside the
/// shoe on a wide screen; on a phone docked under the header. Not under the pause menu.
fn count_panel(
    mut contexts: EguiContexts,
    seen: Option<Res<SeatView>>,
    (options, theme, pause): (Res<PlayOptions>, Res<Theme>, Res<State<Pause>>),
    seen_cards: Res<crate::game::model::seen::Seen>,
    felt: Felt,
) -> Result {
    let Some(seen) = seen.filter(|_| options.show_count) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    // On a phone the count is docked under the header (on its side, in the header's column).
    let sideways = theme.shape.sideways();
    let band = if sideways { Edge::Left } else { Edge::Top };
    if *pause.get() != Pause::Off {
        // Under the pause menu the count is not drawn (its words would lie over the menu's), but on a phone its band
        // stays: the table does not move when the game pauses.
        let kept = ctx.memory(|m| m.area_rect(egui::Id::new("count")));
        if let Some(rect) = kept.filter(|_| theme.shape.phone()) {
            dock(ctx, band, rect);
        }
        return Ok(());
    }
    let system = options.count_system();
    let reading = seen_cards.reading(&seen.0, system);
    let running = bold(format!("{}  {}", system.name, signed(reading.running, 0))).color(GOLD);
    let true_count = format!("True count {}", signed(reading.true_count, 1));
    // The decks left as a counter judges them from the discards (what the true count divides by), and as they are.
    let decks = format!(
        "{} decks left by the tray",
        crate::engine::count::say_decks(reading.decks_judged)
    );
    let exactly = format!("({:.2} in fact)", reading.decks_exact);
    if theme.shape.phone() {
        // Under the header: never over a hand.
        let Some(header) = ctx.memory(|m| m.area_rect(egui::Id::new("header"))) else {
            return Ok(());
        };
        let shown = hud_area(ctx, "count".into())
            .fixed_pos(egui::pos2(header.left(), header.bottom() + SPACE))
            .show(ctx, |ui| {
                panel_frame().show(ui, |ui| {
                    ui.set_width(header.width() - 2.0 * MARGIN);
                    if sideways {
                        ui.label(running);
                        ui.label(true_count);
                        ui.label(decks);
                        ui.label(exactly);
                    } else {
                        ui.horizontal_wrapped(|ui| {
                            ui.label(running);
                            ui.label(true_count);
                            ui.label(decks);
                            ui.label(exactly);
                        });
                    }
                });
            });
        dock(ctx, band, shown.response.rect);
        return Ok(());
    }
    // Beside the shoe on the dealer's side of it, clear of the seats and the chip rack; on an upright table (a tall
    // window), under the shoe's label, clear of the dealer's cards.
    let beside = if felt.layout.portrait {
        Vec2::new(60.0, -100.0)
    } else {
        Vec2::new(-80.0, 40.0)
    };
    let Some(at) = felt.on_screen(ctx, felt.layout.shoe + beside) else {
        return Ok(());
    };
    hud_area(ctx, "count".into())
        .fixed_pos(at)
        .pivot(egui::Align2::RIGHT_TOP)
        .show(ctx, |ui| {
            panel_frame().show(ui, |ui| {
                // As wide as its widest line: an area pivoted at its right sizes itself from what it held, and
                // would wrap a line that grew.
                ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                ui.label(running);
                ui.label(true_count);
                ui.label(egui::RichText::new(decks).size(theme::size::SMALL));
                ui.label(egui::RichText::new(exactly).size(theme::size::SMALL));
            });
        });
    Ok(())
}

/// Esc opens and closes the pause menu (in the chat's text field it closes the chat, not the table).
fn pause_key(
    input: Res<ButtonInput<KeyCode>>,
    typed: Res<Typed>,
    pause: Res<State<Pause>>,
    mut to_pause: ResMut<NextState<Pause>>,
) {
    if input.just_pressed(KeyCode::Escape) && !typed.typing {
        to_pause.set(if *pause.get() == Pause::Off {
            Pause::Menu
        } else {
            Pause::Off
        });
    }
}

/// The table, its bets and rules, the player's chips, the round, the helps and Menu: on a phone one compact header
/// across the top (the rules behind Menu); on a wider screen two panels above the bottom bar, the table's at the left
/// and the player's at the right.
#[allow(clippy::too_many_arguments)]
fn info_panels(
    mut contexts: EguiContexts,
    seen: Option<Res<SeatView>>,
    session: Res<Session>,
    mut options: ResMut<PlayOptions>,
    mut log: ResMut<RoundLog>,
    mut to_pause: ResMut<NextState<Pause>>,
    (layout, replay, theme): (
        Res<crate::game::felt::layout::TableLayout>,
        Option<Res<crate::game::model::seat::Replay>>,
        Res<Theme>,
    ),
    bankrolls: Query<&crate::game::model::table::Bankroll>,
) -> Result {
    let Some(seen) = seen else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let table = &seen.0;
    let rules = table.rules();
    // The player's chips (as shown on the felt, which may be a beat behind the engine), or that they watch.
    let chips_line = match session.player_seat {
        Some(seat) => {
            let chips = bankrolls
                .iter()
                .find(|b| b.seat == seat)
                .map_or(Cents::ZERO, |b| b.amount);
            bold(format!("Your chips {chips}")).color(GOLD)
        }
        None => egui::RichText::new("Watching"),
    };
    let round = round_label(table, replay.as_deref());
    let mut menu = false;
    if theme.shape.sideways() {
        // On its side: the header is a column at the left, the bar one at the right, the felt between them.
        let header = hud_area(ctx, "header".into())
            .anchor(egui::Align2::LEFT_TOP, [SPACE, SPACE])
            .show(ctx, |ui| {
                panel_frame().show(ui, |ui| {
                    ui.set_width(PHONE_COLUMN);
                    ui.label(bold(&session.level.name).color(GOLD));
                    ui.label(format!("{}–{}", rules.min_bet, rules.max_bet));
                    ui.label(&round);
                    ui.label(chips_line);
                    let (_, each) = theme::grid(PHONE_COLUMN, 2, 60.0);
                    ui.horizontal(|ui| {
                        if ui
                            .add(theme.wide_button("Log", each).selected(log.open))
                            .clicked()
                        {
                            log.open = !log.open;
                        }
                        menu = ui.add(theme.wide_button("Menu", each)).clicked();
                    });
                });
            });
        dock(ctx, Edge::Left, header.response.rect);
    } else if theme.shape.phone() {
        let header = hud_area(ctx, "header".into())
            .anchor(egui::Align2::CENTER_TOP, [0.0, 6.0])
            .show(ctx, |ui| {
                panel_frame().show(ui, |ui| {
                    let width = bar_width(ui.ctx(), &theme);
                    ui.set_width(width);
                    ui.horizontal(|ui| {
                        ui.label(bold(&session.level.name).color(GOLD));
                        ui.label(format!("{}–{}", rules.min_bet, rules.max_bet));
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            ui.label(&round);
                        });
                    });
                    // The chips, and the round log and the menu under the thumb's reach; the advisor, the coach
                    // and the count are toggled in the menu.
                    ui.horizontal(|ui| {
                        ui.label(chips_line);
                        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                            let button = |text: String| {
                                egui::Button::new(text)
                                    .min_size(egui::vec2(72.0, theme.target()))
                                    .corner_radius(8.0)
                            };
                            menu = ui.add(button(theme.hint("Menu", "Esc"))).clicked();
                            if ui
                                .add(button(theme.hint("Log", "L")).selected(log.open))
                                .clicked()
                            {
                                log.open = !log.open;
                            }
                        });
                    });
                });
            });
        dock(ctx, Edge::Top, header.response.rect);
    } else {
        // In one band with the bar along the bottom where the window is wide enough, else above the bar's ends.
        let beside = beside_the_bar(ctx, &theme);
        let lift = -side_panels_lift(ctx, &theme, layout.portrait);
        let width = if beside { SIDE } else { 300.0 };
        let table_info = hud_area(ctx, "table info".into())
            .anchor(egui::Align2::LEFT_BOTTOM, [SPACE, lift])
            .show(ctx, |ui| {
                panel_frame().show(ui, |ui| {
                    ui.set_max_width(width);
                    ui.horizontal_wrapped(|ui| {
                        ui.label(bold(&session.level.name).color(GOLD));
                        ui.label(&round);
                    });
                    ui.label(format!("Bets {} to {}", rules.min_bet, rules.max_bet));
                    ui.label(egui::RichText::new(format!("{rules}")).size(theme::size::SMALL))
                        .on_hover_ui(|ui| theme::rule_glossary(ui, rules));
                });
            });
        let player_info = hud_area(ctx, "player info".into())
            .anchor(egui::Align2::RIGHT_BOTTOM, [-SPACE, lift])
            .show(ctx, |ui| {
                panel_frame().show(ui, |ui| {
                    ui.set_width(width);
                    ui.label(chips_line);
                    menu = help_toggles(ui, width, &theme, &mut log, &mut options);
                });
            });
        dock(ctx, Edge::Bottom, table_info.response.rect);
        dock(ctx, Edge::Bottom, player_info.response.rect);
    }
    if menu {
        to_pause.set(Pause::Menu);
    }
    Ok(())
}

/// The bar at the thumb: bets between rounds, decisions in the player's turn (or the coach's stop), otherwise what
/// the table is doing.
#[allow(clippy::too_many_arguments)]
fn play_bar(
    mut contexts: EguiContexts,
    seen: Option<Res<SeatView>>,
    session: Res<Session>,
    occupants: Res<Occupants>,
    slip: Res<BetSlip>,
    phase: Option<Res<State<RoundPhase>>>,
    (beats, options): (Res<Beats>, Res<PlayOptions>),
    mut intents: MessageWriter<Intent>,
    at: TableKind,
    mut advice: Advice,
    (mut commands, mut next, time): (Commands, ResMut<NextState<Screen>>, Res<Time<Real>>),
    (log, typed): (Res<RoundLog>, Res<Typed>),
) -> Result {
    let Some(seen) = seen else {
        return Ok(());
    };
    // On a phone the round log's sheet and the chat's take the bar's place until closed: nothing lies under them.
    if at.theme.shape.phone() && (log.open || typed.chat_open) {
        return Ok(());
    }
    let TableKind {
        layout,
        online,
        replay,
        casino,
        theme,
    } = at;
    let ctx = contexts.ctx_mut()?;
    let table = &seen.0;
    let rules = table.rules();
    if let Some(replaying) = replay.as_deref() {
        let done = replaying.done(&seen, &beats);
        let account = casino.is_some_and(|casino| casino.account.is_some());
        let mut after = None;
        bottom_bar(ctx, |ui| {
            let width = bar_width(ui.ctx(), &theme);
            after = replay_bar(ui, replaying, (done, account), width, &theme);
        });
        if let Some(after) = after {
            after_replay(after, replaying, account, &mut commands, &mut next);
        }
        return Ok(());
    }
    let Advice {
        coach,
        advisor,
        choices,
        sides,
        next_round,
        edges,
        seen_cards,
    } = &mut advice;
    let advisor = &**advisor;
    let busy = !beats.settled();
    bottom_bar(ctx, |ui| {
        match human_seat(&session) {
            Some(seat) if table.phase() == Phase::Betting && !slip.in_play => {
                let mine = &table.seats()[usize::from(seat)];
                if mine.chips() < rules.min_bet {
                    ui.horizontal_wrapped(|ui| {
                        ui.label("You're out of chips.");
                        let label = if online.is_some() {
                            theme.hint("Reset to the starting stake", "B")
                        } else {
                            theme.hint(&format!("Buy in again for {}", session.level.buy_in), "B")
                        };
                        if ui.add(theme.button(label)).clicked() {
                            intents.write(Intent::Rebuy);
                        }
                    });
                } else {
                    if options.advisor {
                        let next = NextRoundLine::of(
                            (next_round, edges, seen_cards),
                            table,
                            mine.chips(),
                            options.kelly_percent,
                        );
                        next.show(ui, bar_width(ui.ctx(), &theme));
                    }
                    // The side bets' edges are the advisor's (they are worked out for luck and skill too).
                    let none = crate::game::model::sides::SideValues::default();
                    let sides = if options.advisor { &**sides } else { &none };
                    intents.write_batch(betting_bar(
                        ui,
                        (&slip, sides),
                        rules,
                        busy,
                        layout.portrait,
                        &theme,
                    ));
                }
            }
            Some(seat) if table.seat_to_act() == Some(seat) && !busy => {
                let width = bar_width(ui.ctx(), &theme);
                ui.set_width(width);
                // A play the coach stopped takes the whole bar until the player keeps it or chooses again: the
                // action buttons are gone, so a second tap meant for one lands on the stop, which holds for its
                // first moment (`coach::Stop::GUARD`).
                if let Some(stop) = coach.current(table, Some(seat)) {
                    coach.shown(time.elapsed());
                    let hand = coach::hand_words(table, seat).unwrap_or_default();
                    ui.label(bold("The coach stops this play").color(GOLD));
                    ui.add(egui::Label::new(coach::line(&stop, advisor, &hand)).wrap());
                    let (_, each) = theme::grid(width, 2, 120.0);
                    // Ids of their own: a tap whose press lands on one of these and whose release lands on the
                    // play that takes its place a frame later must not click that play.
                    ui.push_id("the coach's stop", |ui| {
                        ui.horizontal_wrapped(|ui| {
                            // Its key is the stopped play's own: pressed again, it keeps it.
                            let keep = theme.hint(
                                &format!("Keep {}", stop.chosen.name()),
                                &stop.chosen.key().to_uppercase(),
                            );
                            let button = |text: String| {
                                egui::Button::new(bold(text).size(theme::size::BUTTON))
                                    .min_size(egui::vec2(each, theme.target().max(48.0)))
                                    .corner_radius(8.0)
                            };
                            if ui.add(button(keep)).clicked() {
                                choices.write(coach::Choice::Play(stop.chosen));
                            }
                            if ui.add(button("Choose again".to_string())).clicked() {
                                choices.write(coach::Choice::Again);
                            }
                        })
                    });
                } else {
                    ui.label(bold("Your move").color(GOLD));
                    let advising = options.advisor.then_some(advisor);
                    if let Some(line) = advising.and_then(counsel_line) {
                        ui.add(egui::Label::new(line).wrap());
                    }
                    let legal = table.legal_actions(seat);
                    action_bar(ui, table, seat, legal, advising, width, &theme, choices);
                }
            }
            _ => {
                let words = match table.seat_to_act() {
                    Some(seat) if !busy && session.player_seat == Some(seat) => {
                        "Your move (autoplay)…".to_string()
                    }
                    Some(seat) if !busy => occupants.seats[usize::from(seat)]
                        .as_ref()
                        .map_or_else(String::new, |name| format!("{name} is thinking…")),
                    _ => match phase.as_deref().map(State::get) {
                        Some(RoundPhase::Dealing) => "Dealing…".to_string(),
                        Some(RoundPhase::DealerTurn) => "Dealer's turn".to_string(),
                        Some(RoundPhase::Resolution) => "Paying…".to_string(),
                        Some(RoundPhase::PlayerTurn) => "Players' turn".to_string(),
                        _ if slip.in_play => "Dealing…".to_string(),
                        _ => "Place your bets".to_string(),
                    },
                };
                ui.label(egui::RichText::new(words).size(theme::size::LARGE));
            }
        }
        if let Some(refusal) = &slip.refusal {
            ui.colored_label(REFUSAL, refusal);
        }
    });
    Ok(())
}

/// How much of a phone's height a sheet over the bottom of the table takes.
pub(super) const SHEET: f32 = 0.45;

/// `window` as a sheet over the bottom of a phone's table, in the bar's place: the bar's width, [`SHEET`] of the height.
pub(super) fn phone_sheet<'a>(
    window: egui::Window<'a>,
    ctx: &egui::Context,
    theme: &Theme,
) -> egui::Window<'a> {
    let tall = ctx.content_rect().height();
    if theme.shape.sideways() {
        // On its side, in the bar's column, the window's height.
        return window
            .anchor(egui::Align2::RIGHT_BOTTOM, [-SPACE, -SPACE])
            .fixed_size([bar_width(ctx, theme), tall - 4.0 * SPACE - 40.0]);
    }
    window
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
        .fixed_size([bar_width(ctx, theme), tall * SHEET])
}

/// The round log: a side panel on a wide screen; on a phone a sheet over the bottom of the table, with its own
/// Close under the thumb.
fn round_log(mut contexts: EguiContexts, mut log: ResMut<RoundLog>, theme: Res<Theme>) -> Result {
    if !log.open {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    let phone = theme.shape.phone();
    let tall = ctx.content_rect().height();
    let window = egui::Window::new("Round log")
        .collapsible(false)
        .resizable(false);
    let window = if phone {
        phone_sheet(window, ctx, &theme)
    } else {
        // A column at the right, above the bottom band: the felt is framed beside it while it is open.
        window
            .anchor(egui::Align2::RIGHT_TOP, [-SPACE, SPACE])
            .default_width(300.0)
    };
    let mut close = false;
    let shown = window.show(ctx, |ui| {
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .max_height(if phone { tall * SHEET - 70.0 } else { 260.0 })
            .show(ui, |ui| {
                for line in &log.lines {
                    ui.label(line);
                }
            });
        if phone {
            let width = ui.available_width();
            close = ui
                .add(
                    theme
                        .button("Close")
                        .min_size(egui::vec2(width, theme::size::TARGET)),
                )
                .clicked();
        }
    });
    if let Some(shown) = shown
        && !phone
    {
        dock(ctx, Edge::Right, shown.response.rect);
    }
    if close {
        log.open = false;
    }
    Ok(())
}

/// The pause menu: Resume, Settings, the table's rules, Statistics (a window of its own), Leave table.
fn pause_menu(
    mut contexts: EguiContexts,
    pause: Res<State<Pause>>,
    mut to_pause: ResMut<NextState<Pause>>,
    mut next: ResMut<NextState<Screen>>,
    mut settings: Settings,
    (session, seen, theme): (Res<Session>, Option<Res<SeatView>>, Res<Theme>),
) -> Result {
    let Some(seen) = seen.filter(|_| !matches!(*pause.get(), Pause::Off | Pause::Statistics))
    else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    // How to play reads better a little wider, where the window has room.
    let widest = if *pause.get() == Pause::HowToPlay {
        560.0
    } else {
        340.0
    };
    let width = (ctx.content_rect().width() - 60.0).min(widest);
    egui::Window::new("Paused")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.set_width(width);
            let wide =
                |ui: &mut egui::Ui, text: &str| ui.add(theme.wide_button(text, width)).clicked();
            match *pause.get() {
                Pause::Menu | Pause::Off | Pause::Statistics => {
                    if wide(ui, &theme.hint("Resume", "Esc")) {
                        to_pause.set(Pause::Off);
                    }
                    // The helps, lit while on (on a phone they live here, out of the table's way).
                    let options = &mut *settings.options;
                    let (_, each) = theme::grid(width, 3, 90.0);
                    ui.horizontal_wrapped(|ui| {
                        for (label, key, on) in [
                            ("Advisor", "A", &mut options.advisor),
                            ("Coach", "G", &mut options.coach),
                            ("Count", "O", &mut options.show_count),
                        ] {
                            theme.toggle(ui, label, key, on, each);
                        }
                    });
                    if wide(ui, "Settings") {
                        to_pause.set(Pause::Settings);
                    }
                    if wide(ui, "Rules of this table") {
                        to_pause.set(Pause::Rules);
                    }
                    if wide(ui, "How to play") {
                        to_pause.set(Pause::HowToPlay);
                    }
                    if wide(ui, "Statistics") {
                        to_pause.set(Pause::Statistics);
                    }
                    if wide(ui, "Leave table") {
                        to_pause.set(Pause::Off);
                        next.set(Screen::Title);
                    }
                }
                Pause::Settings => {
                    egui::ScrollArea::vertical()
                        .max_height(ui.ctx().content_rect().height() - 160.0)
                        .show(ui, |ui| settings_page(ui, &mut settings));
                    if wide(ui, "Back") {
                        to_pause.set(Pause::Menu);
                    }
                }
                Pause::HowToPlay => {
                    egui::ScrollArea::vertical()
                        .max_height(ui.ctx().content_rect().height() - 160.0)
                        .show(ui, |ui| {
                            super::how_to_play::how_to_play(
                                ui,
                                &session.level.name,
                                seen.0.rules(),
                                width,
                            );
                        });
                    if wide(ui, "Back") {
                        to_pause.set(Pause::Menu);
                    }
                }
                Pause::Rules => {
                    let rules = seen.0.rules();
                    ui.label(bold(&session.level.name).color(GOLD));
                    ui.label(&session.level.description);
                    for line in rules.felt_lines() {
                        ui.label(line);
                    }
                    ui.add_space(4.0);
                    theme::rule_glossary(ui, rules);
                    ui.label(format!(
                        "Bets {}–{} in steps of {}",
                        rules.min_bet, rules.max_bet, rules.bet_unit
                    ));
                    if wide(ui, "Back") {
                        to_pause.set(Pause::Menu);
                    }
                }
            }
        });
    Ok(())
}

/// How wide the bottom bar's contents are: the window's width less its margins on a phone (a bar across the thumb's
/// reach); elsewhere at most 760 points, and narrower where that leaves a column of panels at each side.
pub(super) fn bar_width(ctx: &egui::Context, theme: &Theme) -> f32 {
    let across = ctx.content_rect().width();
    if theme.shape.sideways() {
        PHONE_BAR
    } else if theme.shape.phone() {
        across - 40.0
    } else if beside_the_bar(ctx, theme) {
        (across - 2.0 * COLUMN - 2.0 * MARGIN).min(760.0)
    } else {
        (across - 40.0).min(760.0)
    }
}

/// The width of a column of panels beside the bottom bar (the table's at the left, the player's at the right), in
/// points.
pub(super) const SIDE: f32 = 228.0;

/// A phone on its side: the header's column at the left and the bar's at the right (contents' widths, points).
pub(super) const PHONE_COLUMN: f32 = 168.0;
const PHONE_BAR: f32 = 240.0;

/// Between a panel's edge and its contents, and between a panel and the window's edge or the next panel.
const MARGIN: f32 = 10.0;
const SPACE: f32 = 8.0;

/// A column of panels beside the bar, with its margins and the space at each side.
const COLUMN: f32 = SIDE + 2.0 * MARGIN + 2.0 * SPACE;

/// The betting bar in one row: the chip rack, a rule, the bet and its buttons.
const ONE_ROW: f32 = 52.0 * 8.0 + theme::size::GAP * 7.0 + 16.0 + 400.0;

/// The narrowest the bar is drawn between the side panels.
const LEAST_BAR: f32 = 600.0;

/// On a wide screen the betting bar takes one row where the window has room for it and a column of panels at each
/// side; otherwise it stacks the chips over the bet's buttons, as on a phone.
fn one_row_betting(ctx: &egui::Context, theme: &Theme) -> bool {
    !theme.shape.phone() && ctx.content_rect().width() >= ONE_ROW + 2.0 * MARGIN + 2.0 * COLUMN
}

/// Where the side panels of a wide screen stand: beside the bottom bar, in one band along the window's bottom, when
/// the window is wide enough for the three (the felt is framed above the band); above the bar's ends when it is not.
pub(super) fn beside_the_bar(ctx: &egui::Context, theme: &Theme) -> bool {
    !theme.shape.phone() && ctx.content_rect().width() >= LEAST_BAR + 2.0 * MARGIN + 2.0 * COLUMN
}

/// How far above the window's bottom edge the side panels of a wide screen stand (see [`beside_the_bar`]).
pub(super) fn side_panels_lift(ctx: &egui::Context, theme: &Theme, portrait: bool) -> f32 {
    if beside_the_bar(ctx, theme) {
        SPACE
    } else {
        above_bottom_bar(ctx, portrait)
    }
}

/// An edge of the window a panel of the HUD stands along: the felt is framed clear of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Edge {
    Top,
    Bottom,
    /// A column beside the felt on a wide screen (the chat, the round log).
    Left,
    Right,
}

/// How much of each edge of the window the HUD's docked panels covered in one pass, in points.
#[derive(Clone, Copy, Debug, Default)]
struct Bands {
    pass: u64,
    top: f32,
    bottom: f32,
    left: f32,
    right: f32,
}

const BANDS: &str = "the HUD's docked bands";

/// Notes that the panel at `rect` stands along `edge` of the window this pass.
pub(super) fn dock(ctx: &egui::Context, edge: Edge, rect: egui::Rect) {
    let pass = ctx.cumulative_pass_nr();
    let screen = ctx.content_rect();
    ctx.data_mut(|data| {
        let id = egui::Id::new(BANDS);
        let mut bands: Bands = data.get_temp(id).unwrap_or_default();
        if bands.pass != pass {
            bands = Bands {
                pass,
                ..Bands::default()
            };
        }
        match edge {
            Edge::Top => bands.top = bands.top.max(rect.max.y - screen.min.y),
            Edge::Bottom => bands.bottom = bands.bottom.max(screen.max.y - rect.min.y),
            Edge::Left => bands.left = bands.left.max(rect.max.x - screen.min.x),
            Edge::Right => bands.right = bands.right.max(screen.max.x - rect.min.x),
        }
        data.insert_temp(id, bands);
    });
}

/// What of the window the HUD's bands cover this pass, in logical pixels, with a little air between a band and the
/// table: the bottom bar at its tallest (it changes height between the betting and a decision; the table does not
/// move), every panel docked at the top or the bottom, and on a wide screen the columns of the chat and the round
/// log while they are open.
pub(super) fn covered(ctx: &egui::Context, portrait: bool) -> crate::game::felt::layout::Covered {
    let pass = ctx.cumulative_pass_nr();
    let bands = ctx
        .data(|data| data.get_temp::<Bands>(egui::Id::new(BANDS)))
        .filter(|bands| bands.pass == pass)
        .unwrap_or_default();
    let zoom = ctx.zoom_factor();
    let air = |band: f32| {
        if band > 0.0 {
            (band + SPACE) * zoom
        } else {
            0.0
        }
    };
    // The bar at its tallest where it stands along the bottom; on a phone on its side its column and the header's,
    // whether drawn or not (a sheet takes the bar's place for a while: the table stays put under it).
    let sideways = Theme::of(ctx).shape.sideways();
    let (bar, columns) = if sideways {
        let column = |width: f32| width + 2.0 * MARGIN + SPACE;
        (0.0, (column(PHONE_COLUMN), column(PHONE_BAR)))
    } else {
        (above_bottom_bar(ctx, portrait) - SPACE, (0.0, 0.0))
    };
    let (left, right) = (
        air(bands.left.max(columns.0)),
        air(bands.right.max(columns.1)),
    );
    crate::game::felt::layout::Covered {
        top: air(bands.top),
        bottom: air(bands.bottom.max(bar)),
        left,
        right,
        lasting_sides: if sideways { left + right } else { 0.0 },
    }
}

/// Where the table's lasting pieces ([`TableLayout::pieces`](crate::game::felt::layout::TableLayout::pieces)), the
/// cards (where each comes to rest) and the words written on the felt are on the screen, for the layout check.
fn mark_the_felt(
    mut contexts: EguiContexts,
    felt: Felt,
    framing: Res<crate::game::felt::layout::Framing>,
    lettering: Query<FeltWords>,
    cards: Query<&crate::game::felt::motion::Glide, With<crate::game::model::table::CardView>>,
    banners: Query<(), With<crate::game::felt::motion::Banner>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let on_screen = |rect: Rect| {
        let a = felt.on_screen(ctx, rect.min)?;
        let b = felt.on_screen(ctx, rect.max)?;
        Some(egui::Rect::from_two_pos(a, b))
    };
    let pieces = felt
        .layout
        .pieces(framing.least_words)
        .into_iter()
        .filter_map(|(name, rect)| Some((name, on_screen(rect)?)))
        .collect();
    // Words as drawn: laid out at the framing's size, scaled with what carries them (a banner), over half inked.
    let drawn = |lettering: &crate::game::felt::lettering::Lettering,
                 laid: &crate::game::felt::lettering::LaidOut,
                 at: &GlobalTransform| {
        on_screen(crate::game::felt::layout::words_box(
            lettering.anchor,
            at.translation().truncate(),
            laid.size * at.scale().x,
        ))
    };
    let zoom = ctx.zoom_factor();
    let words = lettering
        .iter()
        .filter(|(lettering, _, _, shown, ink, _)| {
            lettering.arc.is_none()
                && !lettering.words.trim().is_empty()
                && shown.get()
                && ink.0.alpha() > 0.5
        })
        .filter_map(|(lettering, laid, at, _, _, _)| {
            Some(super::layout::Words {
                rect: drawn(lettering, laid, at)?,
                off_screen: false,
                cut_at_side: false,
                size: crate::game::felt::layout::written(lettering.size, framing.least_words)
                    * at.scale().x
                    * framing.pixels_per_unit
                    / zoom,
                text: lettering.words.clone(),
            })
        })
        .collect();
    // A banner ("Bust", "Blackjack!") lies over its hand for a moment: that hand's cards are not counted then.
    let over_hands: Vec<egui::Rect> = lettering
        .iter()
        .filter(|(.., parent)| parent.is_some_and(|p| banners.contains(p.parent())))
        .filter_map(|(lettering, laid, at, ..)| drawn(lettering, laid, at))
        .collect();
    let cards = cards
        .iter()
        .filter_map(|glide| {
            on_screen(Rect::from_center_size(
                glide.to.truncate(),
                crate::game::felt::layout::CARD_SIZE,
            ))
        })
        .filter(|card| !over_hands.iter().any(|banner| banner.intersects(*card)))
        .collect();
    super::layout::record_felt(ctx, pieces, cards, words);
    Ok(())
}

/// A run of the felt's words, as the layout check reads it.
type FeltWords = (
    &'static crate::game::felt::lettering::Lettering,
    &'static crate::game::felt::lettering::LaidOut,
    &'static GlobalTransform,
    &'static InheritedVisibility,
    &'static crate::game::felt::lettering::Ink,
    Option<&'static ChildOf>,
);

/// Gives the felt what the HUD covers, once the HUD is drawn: the camera frames the table in the rest.
pub(super) fn frame_the_felt(
    mut contexts: EguiContexts,
    layout: Res<crate::game::felt::layout::TableLayout>,
    mut felt: ResMut<crate::game::felt::layout::Covered>,
) -> Result {
    let covered = covered(contexts.ctx_mut()?, layout.portrait);
    if *felt != covered {
        *felt = covered;
    }
    Ok(())
}

/// One button for each play the seat may make, of one width, across `width` (in rows where they do not fit); under
/// each, with the advisor on, what it is worth. What is pressed goes to the coach as a [`coach::Choice`].
#[allow(clippy::too_many_arguments)]
pub(super) fn action_bar(
    ui: &mut egui::Ui,
    table: &crate::engine::TableView,
    seat: crate::engine::SeatId,
    legal: crate::engine::Actions,
    advisor: Option<&crate::game::model::advisor::Advisor>,
    width: f32,
    theme: &Theme,
    choices: &mut MessageWriter<coach::Choice>,
) {
    // Two or three plays side by side; four in two rows of two; five in rows of three and two.
    let (_, each) = theme::grid(width - 1.0, legal.iter().count(), 100.0);
    ui.horizontal_wrapped(|ui| {
        for action in legal.iter() {
            let name = if action == Action::TakeInsurance {
                format!("Insure {}", table.max_insurance(seat))
            } else {
                crate::host::narrate::capitalise(action.name())
            };
            let key = if action == Action::TakeInsurance {
                "I".to_string()
            } else {
                action.key().to_uppercase()
            };
            let counsel = advisor.and_then(|advisor| counsel_for(advisor, action));
            let mut text = egui::text::LayoutJob::default();
            text.append(
                &theme.hint(&name, &key),
                0.0,
                egui::TextFormat::simple(
                    egui::FontId::new(
                        theme::size::BUTTON,
                        egui::FontFamily::Name(BOLD_FAMILY.into()),
                    ),
                    ui.visuals().text_color(),
                ),
            );
            if let Some(counsel) = &counsel {
                text.append(
                    &format!("\n{counsel}"),
                    0.0,
                    egui::TextFormat::simple(
                        egui::FontId::proportional(theme::size::SMALL),
                        if counsel.starts_with('★') {
                            GOLD
                        } else {
                            ui.visuals().text_color()
                        },
                    ),
                );
            }
            let height = if counsel.is_some() { 56.0 } else { 48.0 };
            let button = egui::Button::new(text)
                .min_size(egui::vec2(each, height))
                .corner_radius(8.0);
            if ui.add(button).clicked() {
                choices.write(coach::Choice::Play(action));
            }
        }
    });
}

/// The helps as toggles that look like toggles (lit while on), their labels the same on or off so the panel keeps
/// its width, and Menu, which is how a touch screen pauses (there is no Esc): across `width`, in even rows. Returns
/// true when Menu was pressed.
fn help_toggles(
    ui: &mut egui::Ui,
    width: f32,
    theme: &Theme,
    log: &mut RoundLog,
    options: &mut PlayOptions,
) -> bool {
    let phone = theme.shape.phone();
    let helps = [
        ("Log", "L", &mut log.open),
        ("Advisor", "A", &mut options.advisor),
        ("Coach", "G", &mut options.coach),
        ("Count", "O", &mut options.show_count),
    ];
    // Three to a row in a wide panel, two in a column beside the bar.
    let (_, each) = theme::grid(
        width - 1.0,
        helps.len() + 1,
        if phone {
            60.0
        } else {
            (width / 3.0 - 8.0).max(100.0)
        },
    );
    let mut menu = false;
    ui.horizontal_wrapped(|ui| {
        ui.set_max_width(width);
        for (label, key, on) in helps {
            theme.toggle(ui, label, key, on, each);
        }
        let button = theme
            .button(theme.hint("Menu", "Esc"))
            .min_size(egui::vec2(each, theme.target()));
        menu = ui.add(button).clicked();
    });
    menu
}

/// The round the HUD names: the one being played, or between rounds the next one ("Round 1" before the first deal,
/// never "Round 0"); in a replay, the kept round's own number.
pub(super) fn round_label(
    table: &crate::engine::TableView,
    replay: Option<&crate::game::model::seat::Replay>,
) -> String {
    let number = match replay.and_then(|r| r.round.round_and_table()) {
        Some((kept, _)) => kept,
        None if table.phase() == Phase::Betting => table.round() + 1,
        None => table.round(),
    };
    format!("Round {number}")
}

/// The advisor's word on one play: its value on the bet (starred when best), "thinking…" while the engine works it
/// out, nothing when the advisor is off or has no decision.
pub(super) fn counsel_for(
    advisor: &crate::game::model::advisor::Advisor,
    action: Action,
) -> Option<String> {
    use crate::game::model::advisor::Counsel;
    match advisor.counsel() {
        Counsel::Quiet | Counsel::Failed(_) => None,
        Counsel::Thinking => Some("thinking…".to_string()),
        Counsel::Ready(_, advice) => advice.priced(action).map(|play| {
            let star = if play.action == advice.best {
                "★ "
            } else {
                ""
            };
            format!("{star}{}", play.amount.signed().to_the_cent())
        }),
    }
}

/// The advisor's line beside "Your move": where the cards left make the best play another than the chart's, says so
/// with what it is worth; otherwise which bet the values are on (or why there are none).
pub(super) fn counsel_line(
    advisor: &crate::game::model::advisor::Advisor,
) -> Option<egui::RichText> {
    use crate::game::model::advisor::Counsel;
    match advisor.counsel() {
        Counsel::Quiet | Counsel::Thinking => None,
        Counsel::Failed(message) => Some(
            egui::RichText::new(message)
                .size(theme::size::SMALL)
                .color(REFUSAL),
        ),
        Counsel::Ready(decision, advice) => Some(match advice.chart_differs {
            Some(chart) => {
                let value =
                    |action: Action| advice.priced(action).map_or(Cents::ZERO, |p| p.amount);
                let gain = value(advice.best) - value(chart);
                egui::RichText::new(format!(
                    "Chart: {}. This shoe: {}, {} better",
                    chart.name(),
                    advice.best.name(),
                    gain.to_the_cent()
                ))
                .size(theme::size::SMALL)
                .color(GOLD)
            }
            None => egui::RichText::new(format!("Exact values on the {} bet", decision.wager))
                .size(theme::size::SMALL),
        }),
    }
}

/// How far above the window's bottom edge the panels over the bottom bar stand: clear of the bar at the tallest it
/// has been drawn in a window of this size (it changes height between the betting, a decision and a line of words;
/// the panels stay put). Before the bar is first measured: upright (a phone), the chip rack and the betting buttons
/// take two rows, so the panels sit higher. Only what the bar has been counts once it is drawn: a watcher's bar, a
/// line of words, never holds the rack, and the panels over it stand on it rather than where the rack would be.
pub(super) fn above_bottom_bar(ctx: &egui::Context, portrait: bool) -> f32 {
    let before = if portrait { 148.0 } else { 84.0 };
    let screen = ctx.content_rect().size();
    let id = egui::Id::new(TALLEST_BAR);
    let drawn = egui::AreaState::load(ctx, "bottom bar".into())
        .and_then(|area| area.size)
        .map(|size| size.y + 16.0);
    ctx.data_mut(|data| {
        let kept = data
            .get_temp::<(egui::Vec2, f32)>(id)
            .filter(|(at, _)| *at == screen)
            .map(|(_, tallest)| tallest);
        let tallest = match (kept, drawn) {
            (None, None) => before,
            (kept, drawn) => kept.unwrap_or(0.0).max(drawn.unwrap_or(0.0)),
        };
        data.insert_temp(id, (screen, tallest));
        tallest
    })
}

/// Where [`above_bottom_bar`] keeps the bar's tallest height for the screen's size.
const TALLEST_BAR: &str = "the bottom bar at its tallest";

/// A table opens with no bar measured: the last table's (a player's chip rack) would leave an empty band over a
/// replay's bar, which is one line and two buttons.
/// (A headless app has no egui context, and no bar.)
fn forget_the_bar(mut contexts: EguiContexts) {
    if let Ok(ctx) = contexts.ctx_mut() {
        ctx.data_mut(|data| data.remove::<(egui::Vec2, f32)>(egui::Id::new(TALLEST_BAR)));
    }
}

/// An area of the table's HUD (a panel, a seat's "Sit here"). egui shows an area it has not seen before unseen, only
/// measuring it, and draws it a frame later; so a new area asks egui to run the pass again at once, and the HUD is
/// whole in the first frame the table is drawn (where frames are slow, as in a browser drawing in software, a frame
/// later is a visible pop). The areas appear at once rather than fading in: the table under them does too.
pub(super) fn hud_area(ctx: &egui::Context, id: egui::Id) -> egui::Area {
    if egui::AreaState::load(ctx, id).is_none() {
        ctx.request_discard("a new area of the HUD measures itself");
    }
    egui::Area::new(id).fade_in(false)
}

/// The panel along the bottom of the window, centred (on a phone on its side, a column at the right, from the
/// bottom); its contents never wrap.
pub(super) fn bottom_bar(
    ctx: &egui::Context,
    contents: impl FnOnce(&mut egui::Ui),
) -> egui::Response {
    let sideways = Theme::of(ctx).shape.sideways();
    let (anchor, offset, edge) = if sideways {
        (egui::Align2::RIGHT_BOTTOM, [-SPACE, -SPACE], Edge::Right)
    } else {
        (egui::Align2::CENTER_BOTTOM, [0.0, -SPACE], Edge::Bottom)
    };
    let response = hud_area(ctx, "bottom bar".into())
        .anchor(anchor, offset)
        .show(ctx, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            panel_frame().show(ui, |ui| {
                // A column of one width, whatever it holds: the felt beside it stays put.
                if sideways {
                    ui.set_width(PHONE_BAR);
                }
                contents(ui);
            });
        })
        .response;
    dock(ctx, edge, response.rect);
    response
}

/// The spots to bet on (at a table with side bets), the chip rack and Rebet, 2×, Undo, Clear, Deal: one row across a
/// wide window; on an upright one the chips in a rack across the bottom, and the rest in a row under them. Returns
/// what the player pressed.
pub(super) fn betting_bar(
    ui: &mut egui::Ui,
    (slip, sides): (&BetSlip, &SideValues),
    rules: &crate::engine::Rules,
    busy: bool,
    portrait: bool,
    theme: &Theme,
) -> Option<Intent> {
    let width = bar_width(ui.ctx(), theme);
    let one_row = !portrait && one_row_betting(ui.ctx(), theme);
    let bar = if one_row {
        52.0 * 8.0 + theme::size::GAP * 7.0 + 400.0
    } else {
        width
    };
    let spot = spot_row(ui, (slip, sides), rules, bar, theme);
    let sided = !rules.side_bets.offered().is_empty();
    let pressed = if one_row {
        ui.horizontal(|ui| {
            let chip = chip_rack(ui, rules, 52.0 * 8.0 + theme::size::GAP * 7.0, theme);
            ui.separator();
            chip.or(bet_buttons(ui, slip, (busy, sided), 400.0, theme))
        })
        .inner
    } else {
        ui.set_width(width);
        ui.vertical(|ui| {
            let chip = chip_rack(ui, rules, width, theme);
            chip.or(bet_buttons(ui, slip, (busy, sided), width, theme))
        })
        .inner
    };
    spot.or(pressed)
}

/// At a table with side bets, a button for each side bet with what is on it, lit while the chips go there; with the
/// advisor on, each one's edge on the cards the seat has not seen.
fn spot_row(
    ui: &mut egui::Ui,
    (slip, sides): (&BetSlip, &SideValues),
    rules: &crate::engine::Rules,
    width: f32,
    theme: &Theme,
) -> Option<Intent> {
    let offered = rules.side_bets.offered();
    if offered.is_empty() {
        return None;
    }
    let stakes = slip.side_stakes();
    // The bet's own spot is "Your bet" under the rack (`bet_buttons`).
    let spots = offered
        .iter()
        .map(|&bet| (Some(bet), bet.name(), stakes.get(bet)));
    let mut pressed = None;
    ui.horizontal_wrapped(|ui| {
        ui.set_max_width(width);
        for (spot, name, amount) in spots {
            let colour = if slip.spot == spot { GOLD } else { CREAM };
            let mut words = egui::text::LayoutJob::default();
            if let Some(bet) = spot {
                // The colour of its spot on the felt.
                let [r, g, b] = crate::host::design::side_colour(bet);
                let dot = egui::Color32::from_rgb(r, g, b);
                words.append("● ", 0.0, text_format(theme::size::BODY, dot, false));
            }
            let line = if amount.is_positive() {
                format!("{name} {amount}")
            } else {
                name.to_string()
            };
            words.append(&line, 0.0, text_format(theme::size::BODY, colour, true));
            if let Some(value) = spot.and_then(|bet| sides.of(bet)) {
                words.append(
                    &format!("\n{}", edge_words(value)),
                    0.0,
                    text_format(14.0, colour, false),
                );
            }
            let button = egui::Button::new(words)
                .selected(slip.spot == spot)
                .min_size(egui::vec2(theme.target().max(72.0), theme.target()))
                .corner_radius(8.0);
            if ui.add(button).clicked() {
                pressed = Some(Intent::Spot(spot));
            }
        }
    });
    pressed
}

/// The advisor's line over the chips between rounds: the next round's exact edge on the cards the seat has not seen,
/// Hi-Lo's estimate of it, and the bet they suggest.
struct NextRoundLine {
    /// The exact value per unit bet (none while it is worked out).
    exact: Option<f64>,
    /// Hi-Lo's estimate (none until the full shoe's edge is known).
    estimate: Option<f64>,
    /// The bet the exact value suggests, and the share of Kelly's it is.
    bet: Option<(Cents, u8)>,
}

impl NextRoundLine {
    fn of(
        (next, edges, seen): (
            &crate::game::model::next_round::NextRound,
            &mut crate::game::model::edges::HouseEdges,
            &crate::game::model::seen::Seen,
        ),
        table: &crate::engine::TableView,
        chips: Cents,
        kelly_percent: u8,
    ) -> NextRoundLine {
        use crate::game::model::next_round::{count_estimate, kelly_bet};
        let rules = table.rules();
        let true_count = seen
            .reading(table, crate::engine::count::hi_lo())
            .true_count;
        let estimate = edges
            .edge(rules)
            .map(|edge| count_estimate(-edge / 100.0, true_count));
        let exact = next.value();
        let bet = exact.map(|value| {
            let fraction = f64::from(kelly_percent) / 100.0;
            (kelly_bet(value, chips, fraction, rules), kelly_percent)
        });
        NextRoundLine {
            exact,
            estimate,
            bet,
        }
    }

    fn show(&self, ui: &mut egui::Ui, width: f32) {
        let edge = match self.exact {
            Some(value) => edge_words_to(value, 2),
            None => "working it out…".to_string(),
        };
        let mut line = format!("Next round: {edge} on the cards left");
        if let Some(estimate) = self.estimate {
            line += &format!(" (Hi-Lo's estimate: {})", edge_words_to(estimate, 2));
        }
        if let Some((bet, percent)) = self.bet {
            let share = match percent {
                100 => "Kelly".to_string(),
                50 => "half Kelly".to_string(),
                25 => "a quarter Kelly".to_string(),
                n => format!("{n}% Kelly"),
            };
            line += &format!(" · bet {bet} ({share})");
        }
        ui.scope(|ui| {
            ui.set_max_width(width);
            ui.add(
                egui::Label::new(
                    egui::RichText::new(line)
                        .size(theme::size::BODY)
                        .color(GOLD),
                )
                .wrap(),
            );
        });
    }
}

/// A value per unit staked as an edge in plain words: the house's, or the player's when it favours them.
pub(super) fn edge_words(value: f64) -> String {
    edge_words_to(value, 1)
}

/// [`edge_words`] to `places` decimals.
fn edge_words_to(value: f64, places: usize) -> String {
    if value < 0.0 {
        format!("house edge {:.*}%", places, -value * 100.0)
    } else {
        format!("your edge {:.*}%", places, value * 100.0)
    }
}

/// Words of `size` in `colour`, bold or not, for a layout job.
fn text_format(size: f32, colour: egui::Color32, strong: bool) -> egui::TextFormat {
    let family = if strong {
        egui::FontFamily::Name(crate::game::felt::fonts::BOLD_FAMILY.into())
    } else {
        egui::FontFamily::Proportional
    };
    egui::TextFormat {
        font_id: egui::FontId::new(size, family),
        color: colour,
        ..Default::default()
    }
}

/// A round button for each chip the table takes, across `width` (two even rows where one does not fit), with its
/// number key once a keyboard has been used.
pub(super) fn chip_rack(
    ui: &mut egui::Ui,
    rules: &crate::engine::Rules,
    width: f32,
    theme: &Theme,
) -> Option<Intent> {
    let chips = denominations(rules);
    let (_, each) = theme::grid(width - 4.0, chips.len(), 52.0);
    let side = each.min(64.0);
    let mut pressed = None;
    ui.horizontal_wrapped(|ui| {
        ui.set_max_width(width);
        for (i, chip) in chips.into_iter().enumerate() {
            let fill = chip_fill(chip);
            let ink = if fill.r() as u32 + fill.g() as u32 + fill.b() as u32 > 500 {
                egui::Color32::BLACK
            } else {
                egui::Color32::WHITE
            };
            let words = if theme.keyboard {
                format!("{chip}\n[{}]", i + 1)
            } else {
                chip.to_string()
            };
            let button = egui::Button::new(bold(words).color(ink).size(15.0))
                .fill(fill)
                .corner_radius(side / 2.0)
                .min_size(egui::vec2(side, side));
            // Each chip round, in the middle of a cell of the rack's even width, so the rows line up.
            let cell = ui.allocate_ui_with_layout(
                egui::vec2(each, side),
                egui::Layout::top_down(egui::Align::Center),
                |ui| ui.add_sized([side, side], button),
            );
            if cell.inner.clicked() {
                pressed = Some(Intent::Chip(chip));
            }
        }
    });
    pressed
}

/// The bet so far, Rebet, 2×, Undo, Clear, and Deal, across `width`. At a table with side bets (`sided`) the bet is
/// a button that brings the chips back to the bet's circle, lit while they go there.
pub(super) fn bet_buttons(
    ui: &mut egui::Ui,
    slip: &BetSlip,
    (busy, sided): (bool, bool),
    width: f32,
    theme: &Theme,
) -> Option<Intent> {
    let mut pressed = None;
    ui.vertical(|ui| {
        ui.set_max_width(width);
        // The bet, and Deal at the right, large; under them the four ways to change the bet, one width each.
        ui.horizontal(|ui| {
            // The side bets' chips are on their own buttons, over the rack.
            let words = format!("Your bet {}", slip.total());
            if sided {
                let chosen = slip.spot.is_none();
                let colour = if chosen { GOLD } else { CREAM };
                let button = egui::Button::new(bold(words).size(theme::size::LARGE).color(colour))
                    .selected(chosen)
                    .min_size(egui::vec2(theme.target(), theme.target()))
                    .corner_radius(8.0);
                if ui.add(button).clicked() {
                    pressed = Some(Intent::Spot(None));
                }
            } else {
                ui.label(bold(words).size(theme::size::LARGE).color(GOLD));
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let deal =
                    egui::Button::new(bold(theme.hint("Deal", "Enter")).size(theme::size::LARGE))
                        .min_size(egui::vec2(140.0_f32.min(width * 0.45), 48.0))
                        .corner_radius(8.0);
                if ui
                    .add_enabled(!busy && !slip.chips.is_empty(), deal)
                    .clicked()
                {
                    pressed = Some(Intent::Deal);
                }
            });
        });
        let rebet = if slip.last_bet.is_positive() {
            format!("Rebet {}", slip.last_bet)
        } else {
            "Rebet".to_string()
        };
        let some = !slip.is_empty();
        let buttons = [
            (
                theme.hint(&rebet, "R"),
                Intent::Rebet,
                slip.last_bet.is_positive(),
            ),
            (theme.hint("2×", "X"), Intent::DoubleBet, some),
            (theme.hint("Undo", "Z"), Intent::Undo, some),
            (theme.hint("Clear", "C"), Intent::Clear, some),
        ];
        let (_, each) = theme::grid(width - 1.0, buttons.len(), 60.0);
        ui.horizontal_wrapped(|ui| {
            for (label, intent, enabled) in buttons {
                let button =
                    egui::Button::new(egui::RichText::new(label).size(theme::size::BUTTON))
                        .min_size(egui::vec2(each, theme.target()))
                        .corner_radius(8.0);
                if ui.add_enabled(enabled, button).clicked() {
                    pressed = Some(intent);
                }
            }
        });
    });
    pressed
}

/// The end of a table played until someone is broke: who went broke, the chips, and the way back to the Title (where
/// Play sits down again with a fresh stack).
pub(super) fn game_over(
    mut contexts: EguiContexts,
    over: Option<Res<crate::game::model::player::GameOver>>,
    seen: Res<SeatView>,
    session: Res<Session>,
    mut next: ResMut<NextState<Screen>>,
) -> Result {
    let Some(over) = over else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let chips = session
        .player_seat
        .and_then(|seat| seen.0.seats().get(usize::from(seat)))
        .map_or(Cents::ZERO, |s| s.chips());
    let (headline, line) = over.0.said(chips, session.level.buy_in);
    let frame = sheet_frame(18);
    egui::Window::new("Game over")
        .title_bar(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, -60.0])
        .collapsible(false)
        .resizable(false)
        .frame(frame)
        .show(ctx, |ui| {
            ui.set_min_width((ui.ctx().content_rect().width() - 60.0).min(460.0));
            ui.vertical_centered(|ui| {
                ui.add_space(8.0);
                ui.label(bold(headline).size(34.0).color(GOLD));
                ui.add_space(6.0);
                ui.label(egui::RichText::new(line).size(18.0));
                ui.label(
                    egui::RichText::new(format!(
                        "{} · the house's tray: {}",
                        session.level.name,
                        seen.0.house()
                    ))
                    .size(14.0),
                );
                ui.add_space(12.0);
                let width = (ui.ctx().content_rect().width() - 100.0).min(300.0);
                if ui
                    .add(Theme::of(ui.ctx()).wide_button("Back to the Title", width))
                    .clicked()
                {
                    next.set(Screen::Title);
                }
                ui.add_space(6.0);
            });
        });
    Ok(())
}

/// A window over the felt that asks for the player's attention (the game over, the count at the shuffle): opaque,
/// with a gold edge, so the felt's printing and the hands do not show through its words; `margin` points inside.
fn sheet_frame(margin: i8) -> egui::Frame {
    panel_frame()
        .fill(egui::Color32::from_rgb(14, 20, 17))
        .stroke(egui::Stroke::new(2.0, GOLD))
        .inner_margin(egui::Margin::same(margin))
}

/// The table asks for the player's running count when the cut card is out (`model::practice::ShuffleQuiz`): typed
/// in, checked against the count of every card the seat saw since the shuffle, kept in the trainer's record. The
/// table's keys wait while it is up; "Not now" passes this shoe.
fn count_quiz(
    mut contexts: EguiContexts,
    mut quiz: ResMut<ShuffleQuiz>,
    mut practice: ResMut<crate::game::model::practice::Practice>,
    (options, theme): (Res<PlayOptions>, Res<Theme>),
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let system = options.count_system();
    let places = usize::from(system.scale > 1);
    let Some(count) = quiz.asked else {
        return Ok(());
    };
    let frame = sheet_frame(14);
    let width = (ctx.content_rect().width() - 60.0).min(420.0);
    egui::Window::new("The cut card is out")
        .title_bar(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, -40.0])
        .collapsible(false)
        .resizable(false)
        .frame(frame)
        .show(ctx, |ui| {
            ui.set_width(width);
            ui.label(
                bold("The cut card is out")
                    .size(theme::size::LARGE)
                    .color(GOLD),
            );
            ui.label("The shoe is shuffled before the next round.");
            match quiz.answer {
                None => {
                    let label = format!("Your running count ({})", system.name);
                    let mut typed = std::mem::take(&mut quiz.typed);
                    let answered = super::practice::number_field(ui, &label, &mut typed);
                    quiz.typed = typed;
                    if answered
                        && let Ok(said) = super::practice::as_typed(&quiz.typed).parse::<f64>()
                        && let Some(right) = quiz.answer(said)
                    {
                        practice.score_named(crate::game::model::practice::AT_THE_TABLE, right);
                        let verdict = if right { "right" } else { "wrong" };
                        info!(
                            target: "holecard::practice",
                            "count at the shuffle: said {said} ({verdict}, the count is {count})"
                        );
                    }
                    if ui.add(theme.wide_button("Not now", width)).clicked() {
                        quiz.closed = true;
                    }
                }
                Some((said, right)) => {
                    let line = if right {
                        bold(format!("Right: {}.", signed(count, places)))
                            .color(super::practice::RIGHT)
                    } else {
                        bold(format!(
                            "You said {}; the count was {}.",
                            signed(said, places),
                            signed(count, places)
                        ))
                        .color(REFUSAL)
                    };
                    ui.label(line);
                    if ui
                        .add(theme.wide_button(&theme.hint("Deal on", "Space"), width))
                        .clicked()
                        || ui.input(|i| i.key_pressed(egui::Key::Space))
                    {
                        quiz.closed = true;
                    }
                }
            }
        });
    Ok(())
}
