//! At the table: the limits and chips panels, the chip rack and betting buttons, the action buttons, "Sit here",
//! the round log and the pause menu.

use super::*;

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

/// What the action bar shows beside the plays and sends them through: the coach, the advisor's values, what the
/// seat has seen (for the count) and the player's choices.
#[derive(bevy::ecs::system::SystemParam)]
pub(super) struct Advice<'w> {
    coach: ResMut<'w, coach::Coach>,
    advisor: Res<'w, crate::game::model::advisor::Advisor>,
    seen: Res<'w, crate::game::model::seen::Seen>,
    choices: MessageWriter<'w, coach::Choice>,
}

/// The table's HUD: limits and bankroll, the chip rack and betting buttons, the action buttons, the log, the pause
/// menu.
#[allow(clippy::too_many_arguments)]
pub(super) fn table_hud(
    mut contexts: EguiContexts,
    seen: Option<Res<SeatView>>,
    session: Res<Session>,
    occupants: Res<Occupants>,
    slip: Res<BetSlip>,
    phase: Option<Res<State<RoundPhase>>>,
    mut settings: Settings,
    mut log: ResMut<RoundLog>,
    pause: Res<State<Pause>>,
    mut to_pause: ResMut<NextState<Pause>>,
    input: Res<ButtonInput<KeyCode>>,
    mut intents: MessageWriter<Intent>,
    mut next: ResMut<NextState<Screen>>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    (layout, online, typed, mut advice): (
        Res<crate::game::felt::layout::TableLayout>,
        Option<Res<crate::game::model::table::OnlineTable>>,
        Res<Typed>,
        Advice,
    ),
    bankrolls: Query<&crate::game::model::table::Bankroll>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Advice {
        coach,
        advisor,
        seen: seen_cards,
        choices,
    } = &mut advice;
    let advisor = &**advisor;
    let Some(seen) = seen else {
        return Ok(());
    };
    let table = &seen.0;
    // Between rounds, an empty seat can be taken with a click.
    if table.phase() == Phase::Betting
        && settings.beats.settled()
        && *pause.get() == Pause::Off
        && let Ok((camera, at)) = cameras.single()
    {
        for seat in 0..7u8 {
            let empty = occupants.is_free(table, seat);
            let point = layout.seat_point(seat).extend(0.0);
            if let (true, Ok(screen)) = (empty, camera.world_to_viewport(at, point)) {
                hud_area(ctx, egui::Id::new(("sit", seat)))
                    .fixed_pos(egui::pos2(screen.x, screen.y) / ctx.zoom_factor())
                    .pivot(egui::Align2::CENTER_CENTER)
                    .show(ctx, |ui| {
                        if ui.button("Sit here").clicked() {
                            intents.write(Intent::SitAt(seat));
                        }
                    });
            }
        }
    }
    // The count beside the shoe, when asked for in Settings.
    if settings.options.show_count
        && let Ok((camera, at)) = cameras.single()
        // Beside the shoe on the dealer's side of it, clear of the seats and the chip rack; on an upright screen,
        // where the rack reaches the shoe, under the shoe's label.
        && let Ok(screen) = camera.world_to_viewport(
            at,
            (layout.shoe
                + if layout.portrait {
                    Vec2::new(60.0, -100.0)
                } else {
                    Vec2::new(-80.0, 40.0)
                })
            .extend(0.0),
        )
    {
        let system = settings.options.count_system();
        let reading = seen_cards.reading(table, system);
        hud_area(ctx, "count".into())
            .fixed_pos(egui::pos2(screen.x, screen.y) / ctx.zoom_factor())
            .pivot(egui::Align2::RIGHT_TOP)
            .show(ctx, |ui| {
                panel_frame().show(ui, |ui| {
                    ui.label(bold(format!("{}  {:+}", system.name, reading.running)).color(GOLD));
                    ui.label(format!("True count {:+.1}", reading.true_count));
                    ui.label(
                        egui::RichText::new(format!(
                            "{} decks left ({:.2})",
                            crate::engine::count::say_decks(reading.decks_judged),
                            reading.decks_exact
                        ))
                        .size(12.0),
                    );
                });
            });
    }
    // Esc in the chat's text field closes the chat, not the table.
    if input.just_pressed(KeyCode::Escape) && !typed.typing {
        to_pause.set(if *pause.get() == Pause::Off {
            Pause::Menu
        } else {
            Pause::Off
        });
    }
    let rules = table.rules();
    let me = human_seat(&session);
    let portrait = layout.portrait;
    let above_bar = -above_bottom_bar(portrait);

    // Bottom left: the table, its rules and limits. Bottom right: the player's chips, the round, the log.
    hud_area(ctx, "table info".into())
        .anchor(egui::Align2::LEFT_BOTTOM, [8.0, above_bar])
        .show(ctx, |ui| {
            panel_frame().show(ui, |ui| {
                ui.label(bold(&session.level.name).color(GOLD));
                ui.label(format!("Bets {} to {}", rules.min_bet, rules.max_bet));
                ui.label(egui::RichText::new(format!("{rules}")).size(12.0));
            });
        });
    hud_area(ctx, "player info".into())
        .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, above_bar])
        .show(ctx, |ui| {
            panel_frame().show(ui, |ui| {
                match session.player_seat {
                    Some(seat) => {
                        // As shown on the felt, which may be a beat behind the engine.
                        let chips = bankrolls
                            .iter()
                            .find(|b| b.seat == seat)
                            .map_or(Cents::ZERO, |b| b.amount);
                        ui.label(bold(format!("Your chips {chips}")).color(GOLD));
                    }
                    None => {
                        ui.label("Watching");
                    }
                }
                ui.label(format!("Round {}", table.round()));
                let label = if log.open {
                    "Hide log  [L]"
                } else {
                    "Round log  [L]"
                };
                if ui.button(label).clicked() {
                    log.open = !log.open;
                }
                let advising = settings.options.advisor;
                let label = if advising {
                    "Advisor off  [A]"
                } else {
                    "Advisor  [A]"
                };
                if ui.button(label).clicked() {
                    settings.options.advisor = !advising;
                }
                let coaching = settings.options.coach;
                if ui
                    .button(if coaching {
                        "Coach off  [G]"
                    } else {
                        "Coach  [G]"
                    })
                    .clicked()
                {
                    settings.options.coach = !coaching;
                }
                let counting = settings.options.show_count;
                if ui
                    .button(if counting {
                        "Count off  [O]"
                    } else {
                        "Count  [O]"
                    })
                    .clicked()
                {
                    settings.options.show_count = !counting;
                }
            });
        });

    // Bottom bar: bets between rounds, decisions in the player's turn, otherwise what the table is doing.
    bottom_bar(ctx, |ui| {
        let busy = !settings.beats.settled();
        match me {
            Some(seat) if table.phase() == Phase::Betting && !slip.in_play => {
                let mine = &table.seats()[usize::from(seat)];
                if mine.chips() < rules.min_bet {
                    ui.horizontal(|ui| {
                        ui.label("You're out of chips.");
                        let label = if online.is_some() {
                            "Reset to the starting stake  [B]".to_string()
                        } else {
                            format!("Buy in again for {}  [B]", session.level.buy_in)
                        };
                        if ui.button(label).clicked() {
                            intents.write(Intent::Rebuy);
                        }
                    });
                } else {
                    intents.write_batch(betting_bar(ui, &slip, rules, busy, portrait));
                }
            }
            Some(seat) if table.seat_to_act() == Some(seat) && !busy => {
                let legal = table.legal_actions(seat);
                let advising = settings.options.advisor;
                // A play the coach stopped: its line, and the player keeps it or chooses again.
                let stop = coach.current(table, Some(seat));
                let stop_line = stop.map(|stop| {
                    let hand = coach::hand_words(table, seat).unwrap_or_default();
                    coach::line(&stop, advisor, &hand)
                });
                let mut answer = None;
                let mut your_move = |ui: &mut egui::Ui| {
                    ui.vertical(|ui| {
                        ui.label(bold("Your move").color(GOLD));
                        if let (Some(stop), Some(line)) = (stop, &stop_line) {
                            ui.label(
                                egui::RichText::new(format!("Coach: {line}"))
                                    .size(13.0)
                                    .color(GOLD),
                            );
                            ui.horizontal(|ui| {
                                let keep = format!(
                                    "Keep {}  [{}]",
                                    stop.chosen.name(),
                                    stop.chosen.key().to_uppercase()
                                );
                                if ui.button(keep).clicked() {
                                    answer = Some(stop.chosen);
                                }
                                if ui.button("Choose again").clicked() {
                                    answer = Some(stop.book.play);
                                }
                            });
                        } else if advising && let Some(line) = counsel_line(advisor) {
                            ui.label(line);
                        }
                    });
                };
                if portrait {
                    your_move(ui);
                }
                ui.horizontal(|ui| {
                    if !portrait {
                        your_move(ui);
                    }
                    for action in legal.iter() {
                        let mut label = format!(
                            "{}  [{}]",
                            crate::host::narrate::capitalise(action.name()),
                            action.key().to_uppercase()
                        );
                        if action == Action::TakeInsurance {
                            label = format!("Insure {}  [I]", table.max_insurance(seat));
                        }
                        let counsel = advising.then(|| counsel_for(advisor, action)).flatten();
                        let mut text = egui::text::LayoutJob::default();
                        text.append(
                            &label,
                            0.0,
                            egui::TextFormat::simple(
                                egui::FontId::new(17.0, egui::FontFamily::Name(BOLD_FAMILY.into())),
                                ui.visuals().text_color(),
                            ),
                        );
                        if let Some(counsel) = &counsel {
                            text.append(
                                &format!("\n{counsel}"),
                                0.0,
                                egui::TextFormat::simple(
                                    egui::FontId::proportional(13.0),
                                    if counsel.starts_with('★') {
                                        GOLD
                                    } else {
                                        ui.visuals().text_color()
                                    },
                                ),
                            );
                        }
                        let height = if counsel.is_some() { 50.0 } else { 38.0 };
                        if ui
                            .add(egui::Button::new(text).min_size(egui::vec2(96.0, height)))
                            .clicked()
                        {
                            choices.write(coach::Choice::Play(action));
                        }
                    }
                });
                match answer {
                    // Kept: the stopped play is chosen again, and goes to the table.
                    Some(chosen) if stop.is_some_and(|stop| stop.chosen == chosen) => {
                        choices.write(coach::Choice::Play(chosen));
                    }
                    Some(_) => {
                        choices.write(coach::Choice::Again);
                    }
                    None => {}
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
                ui.label(egui::RichText::new(words).size(17.0));
            }
        }
        if let Some(refusal) = &slip.refusal {
            ui.colored_label(REFUSAL, refusal);
        }
    });

    // The round log, a collapsible side panel.
    if log.open {
        egui::Window::new("Round log")
            .anchor(egui::Align2::RIGHT_BOTTOM, [-8.0, above_bar - 102.0])
            .default_width(280.0)
            .max_height(420.0)
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                egui::ScrollArea::vertical()
                    .stick_to_bottom(true)
                    .max_height(400.0)
                    .show(ui, |ui| {
                        for line in &log.lines {
                            ui.label(line);
                        }
                    });
            });
    }

    // The pause menu (its Statistics page has a window of its own).
    if !matches!(*pause.get(), Pause::Off | Pause::Statistics) {
        egui::Window::new("Paused")
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.set_min_width(320.0);
                match *pause.get() {
                    Pause::Menu | Pause::Off => {
                        let wide = |ui: &mut egui::Ui, text: &str| {
                            ui.add(
                                egui::Button::new(bold(text).size(18.0))
                                    .min_size(egui::vec2(300.0, 36.0)),
                            )
                            .clicked()
                        };
                        if wide(ui, "Resume  [Esc]") {
                            to_pause.set(Pause::Off);
                        }
                        if wide(ui, "Settings") {
                            to_pause.set(Pause::Settings);
                        }
                        if wide(ui, "Rules of this table") {
                            to_pause.set(Pause::Rules);
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
                        settings_page(ui, &mut settings);
                        if ui.button("Back").clicked() {
                            to_pause.set(Pause::Menu);
                        }
                    }
                    Pause::Statistics => {}
                    Pause::Rules => {
                        ui.label(bold(&session.level.name).color(GOLD));
                        ui.label(&session.level.description);
                        for line in rules.felt_lines() {
                            ui.label(line);
                        }
                        ui.label(format!("{rules}"));
                        ui.label(format!(
                            "Bets {}–{} in steps of {}",
                            rules.min_bet, rules.max_bet, rules.bet_unit
                        ));
                        if ui.button("Back").clicked() {
                            to_pause.set(Pause::Menu);
                        }
                    }
                }
            });
    }
    Ok(())
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
        Counsel::Failed(message) => Some(egui::RichText::new(message).size(12.0).color(REFUSAL)),
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
                .size(12.0)
                .color(GOLD)
            }
            None => egui::RichText::new(format!("Exact values on the {} bet", decision.wager))
                .size(12.0),
        }),
    }
}

/// How far above the window's bottom edge the panels over the bottom bar stand: upright (a phone), the chip rack and
/// the betting buttons take two rows, so the panels sit higher.
pub(super) fn above_bottom_bar(portrait: bool) -> f32 {
    if portrait { 148.0 } else { 84.0 }
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

/// The panel along the bottom of the window, centred; its contents never wrap.
pub(super) fn bottom_bar(
    ctx: &egui::Context,
    contents: impl FnOnce(&mut egui::Ui),
) -> egui::Response {
    hud_area(ctx, "bottom bar".into())
        .anchor(egui::Align2::CENTER_BOTTOM, [0.0, -8.0])
        .show(ctx, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
            panel_frame().show(ui, contents);
        })
        .response
}

/// The chip rack and Rebet, 2×, Undo, Clear, Deal: one row across a wide window, two rows (the chips above the rest)
/// on an upright one. Returns what the player pressed.
pub(super) fn betting_bar(
    ui: &mut egui::Ui,
    slip: &BetSlip,
    rules: &crate::engine::Rules,
    busy: bool,
    portrait: bool,
) -> Option<Intent> {
    if portrait {
        ui.vertical(|ui| {
            let chip = ui.horizontal(|ui| chip_rack(ui, rules)).inner;
            chip.or(ui.horizontal(|ui| bet_buttons(ui, slip, busy)).inner)
        })
        .inner
    } else {
        ui.horizontal(|ui| {
            let chip = chip_rack(ui, rules);
            ui.separator();
            chip.or(bet_buttons(ui, slip, busy))
        })
        .inner
    }
}

/// A round button for each chip the table takes, with its number key.
pub(super) fn chip_rack(ui: &mut egui::Ui, rules: &crate::engine::Rules) -> Option<Intent> {
    let mut pressed = None;
    for (i, chip) in denominations(rules).into_iter().enumerate() {
        let fill = chip_fill(chip);
        let ink = if fill.r() as u32 + fill.g() as u32 + fill.b() as u32 > 500 {
            egui::Color32::BLACK
        } else {
            egui::Color32::WHITE
        };
        let label = bold(format!("{chip}\n[{}]", i + 1)).color(ink).size(14.0);
        let button = egui::Button::new(label)
            .fill(fill)
            .corner_radius(26.0)
            .min_size(egui::vec2(52.0, 52.0));
        if ui.add(button).clicked() {
            pressed = Some(Intent::Chip(chip));
        }
    }
    pressed
}

/// The bet so far, Rebet, 2×, Undo, Clear, and Deal.
pub(super) fn bet_buttons(ui: &mut egui::Ui, slip: &BetSlip, busy: bool) -> Option<Intent> {
    let mut pressed = ui
        .vertical(|ui| {
            ui.label(
                bold(format!("Your bet {}", slip.total()))
                    .size(18.0)
                    .color(GOLD),
            );
            let mut pressed = None;
            ui.horizontal(|ui| {
                for (label, intent, enabled) in [
                    (
                        if slip.last_bet.is_positive() {
                            format!("Rebet {} [R]", slip.last_bet)
                        } else {
                            "Rebet [R]".to_string()
                        },
                        Intent::Rebet,
                        slip.last_bet.is_positive(),
                    ),
                    (
                        "2× [X]".to_string(),
                        Intent::DoubleBet,
                        !slip.chips.is_empty(),
                    ),
                    ("Undo [Z]".to_string(), Intent::Undo, !slip.chips.is_empty()),
                    (
                        "Clear [C]".to_string(),
                        Intent::Clear,
                        !slip.chips.is_empty(),
                    ),
                ] {
                    if ui.add_enabled(enabled, egui::Button::new(label)).clicked() {
                        pressed = Some(intent);
                    }
                }
            });
            pressed
        })
        .inner;
    let deal =
        egui::Button::new(bold("Deal  [Enter]").size(20.0)).min_size(egui::vec2(130.0, 52.0));
    if ui
        .add_enabled(!busy && !slip.chips.is_empty(), deal)
        .clicked()
    {
        pressed = Some(Intent::Deal);
    }
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
    // Opaque, with a gold edge: the felt's printing and the hands must not show through the words.
    let frame = panel_frame()
        .fill(egui::Color32::from_rgb(14, 20, 17))
        .stroke(egui::Stroke::new(2.0, GOLD))
        .inner_margin(egui::Margin::same(18));
    egui::Window::new("Game over")
        .title_bar(false)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, -60.0])
        .collapsible(false)
        .resizable(false)
        .frame(frame)
        .show(ctx, |ui| {
            ui.set_min_width(460.0);
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
                if ui
                    .add(
                        egui::Button::new(bold("Back to the Title").size(20.0))
                            .min_size(egui::vec2(300.0, 40.0)),
                    )
                    .clicked()
                {
                    next.set(Screen::Title);
                }
                ui.add_space(6.0);
            });
        });
    Ok(())
}
