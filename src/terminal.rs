//! Blackjack at a terminal: one person at a level's table with its AI companions, every prompt with a
//! default answer (Enter takes it). Bevy-free; the same engine the game uses.

use crate::engine::ai::{Departure, Mind, Move};
use crate::engine::{
    Action, BasicStrategy, Cents, Command, CommandError, Event, Phase, SeatId, Table, TableState,
    Viewer, os_seed, seed_from_number,
};
use crate::level::Level;
use crate::narrate;
use std::io::{self, BufRead, Write};

/// The human's name in the log.
const PLAYER: &str = "Player";

/// Plays until the player quits, runs out of chips or input ends; returns the chips the player leaves with.
pub fn play(
    level: &Level,
    seed: Option<u64>,
    input: impl BufRead,
    mut out: impl Write,
) -> io::Result<Cents> {
    let rules = level.rules.rules();
    let seed = match seed {
        Some(number) => seed_from_number(number),
        None => os_seed().map_err(io::Error::other)?,
    };
    let mut table =
        Table::new(rules.clone(), seed, level.house_bankroll).map_err(io::Error::other)?;
    let seat = level.player_seat.unwrap_or(3);
    let strategy = BasicStrategy::for_rules(&rules);
    let mut minds: Vec<(SeatId, Mind)> = level
        .companions
        .iter()
        .filter(|c| c.seat != seat)
        .map(|c| {
            (
                c.seat,
                Mind::new(c.personality, &rules, companion_seed(&seed, c.seat)),
            )
        })
        .collect();
    let names = |s: SeatId| -> String {
        if s == seat {
            PLAYER.to_string()
        } else {
            level
                .companions
                .iter()
                .find(|c| c.seat == s)
                .map_or(format!("Seat {s}"), |c| c.name.clone())
        }
    };
    let mut lines = input.lines();
    let mut ask = |out: &mut dyn Write, prompt: &str| -> io::Result<Option<String>> {
        write!(out, "{prompt} ")?;
        out.flush()?;
        lines
            .next()
            .transpose()
            .map(|line| line.map(|l| l.trim().to_lowercase()))
    };

    writeln!(out, "{} — {}", level.name, rules)?;
    for line in rules.felt_lines() {
        writeln!(out, "  {line}")?;
    }
    writeln!(
        out,
        "  Table limits {} to {}.",
        rules.min_bet, rules.max_bet
    )?;
    // Narrates events, lets every companion see them, and prints what a companion says about its own luck.
    let say = |out: &mut dyn Write,
               events: &[Event],
               minds: &mut Vec<(SeatId, Mind)>|
     -> io::Result<()> {
        for event in events {
            if let Some(line) = narrate::describe(event, &names) {
                writeln!(out, "  {line}")?;
            }
            for (companion, mind) in minds.iter_mut() {
                mind.observe(event);
                if let Some(line) = mind.react(event, *companion) {
                    writeln!(out, "  {}: \"{line}\"", names(*companion))?;
                }
            }
        }
        Ok(())
    };
    let join = [(seat, level.buy_in)].into_iter().chain(
        level
            .companions
            .iter()
            .filter(|c| c.seat != seat)
            .map(|c| (c.seat, c.bankroll)),
    );
    for (s, buy_in) in join {
        let events = table
            .apply(Command::Join { seat: s, buy_in })
            .map_err(io::Error::other)?;
        say(&mut out, &events, &mut minds)?;
    }

    let mut last_bet = rules.min_bet;
    loop {
        let bankroll = table.seats()[usize::from(seat)].bankroll;
        if bankroll < rules.min_bet {
            writeln!(out, "You are out of chips.")?;
            break;
        }
        let default = last_bet.min(bankroll).min(rules.max_bet);
        let prompt = format!("\nYou have {bankroll}. Bet (Enter = {default}, q = leave):");
        let Some(answer) = ask(&mut out, &prompt)? else {
            break;
        };
        if answer == "q" {
            break;
        }
        let bet = if answer.is_empty() {
            default
        } else {
            match parse_money(&answer) {
                Some(amount) => amount,
                None => {
                    writeln!(out, "  \"{answer}\" is not an amount; type 25 or 12.50.")?;
                    continue;
                }
            }
        };
        if let Err(e) = table.apply(Command::Bet { seat, amount: bet }) {
            writeln!(out, "  {e}")?;
            continue;
        }
        for (companion, mind) in &minds {
            if table.seats()[usize::from(*companion)].occupied {
                let amount = mind.bet(&table.view(Viewer::Seat(*companion)), *companion);
                table
                    .apply(Command::Bet {
                        seat: *companion,
                        amount,
                    })
                    .map_err(io::Error::other)?;
            }
        }
        match table.apply(Command::Deal) {
            Ok(events) => say(&mut out, &events, &mut minds)?,
            Err(e) => {
                writeln!(out, "  {e}")?;
                table
                    .apply(Command::Bet {
                        seat,
                        amount: Cents::ZERO,
                    })
                    .map_err(io::Error::other)?;
                continue;
            }
        }
        last_bet = bet;
        while table.phase() != Phase::Betting {
            let Some(actor) = table.seat_to_act() else {
                break;
            };
            let command = if actor == seat {
                let suggested = strategy
                    .decide(&table.view(Viewer::Seat(actor)), actor)
                    .ok_or_else(|| io::Error::other("no move"))?;
                match ask_decision(&table, seat, suggested, &mut ask, &mut out)? {
                    Some(command) => command,
                    None => return leave(&mut table, seat, &mut out),
                }
            } else {
                let mind = minds.iter_mut().find(|(s, _)| *s == actor).map(|(_, m)| m);
                let choice = match mind {
                    Some(mind) => mind.decide(&table.view(Viewer::Seat(actor)), actor),
                    None => strategy.decide(&table, actor).map(|command| Move {
                        command,
                        remark: None,
                    }),
                };
                let choice = choice.ok_or_else(|| io::Error::other("a companion has no move"))?;
                if let Some(remark) = choice.remark {
                    writeln!(out, "  {}: \"{remark}\"", names(actor))?;
                }
                choice.command
            };
            match table.apply(command) {
                Ok(events) => say(&mut out, &events, &mut minds)?,
                Err(e) => writeln!(out, "  {e}")?,
            }
        }
        for (companion, mind) in &minds {
            let buy_in = level
                .companions
                .iter()
                .find(|c| c.seat == *companion)
                .map_or(Cents::ZERO, |c| c.bankroll);
            if table.seats()[usize::from(*companion)].occupied
                && let Some(why) =
                    mind.departure(&table.view(Viewer::Seat(*companion)), *companion, buy_in)
            {
                let events = table
                    .apply(Command::Leave { seat: *companion })
                    .map_err(io::Error::other)?;
                let reason = match why {
                    Departure::Broke => "out of chips",
                    Departure::Satisfied => "happy with the night",
                };
                writeln!(out, "  {} gets up, {reason}.", names(*companion))?;
                narrate_only(&mut out, &events, &names)?;
            }
        }
    }
    leave(&mut table, seat, &mut out)
}

/// A companion's own generator seed: the table's seed with the seat folded in.
fn companion_seed(seed: &crate::engine::Seed, seat: SeatId) -> crate::engine::Seed {
    let mut own = *seed;
    own[0] ^= 0xA5;
    own[1] ^= seat;
    own
}

fn narrate_only(
    out: &mut impl Write,
    events: &[Event],
    names: &impl narrate::SeatNames,
) -> io::Result<()> {
    for event in events {
        if let Some(line) = narrate::describe(event, names) {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}

/// Asks the player what to do, with basic strategy's move as the default. `None` when input ends.
fn ask_decision(
    table: &Table,
    seat: SeatId,
    suggested: Command,
    ask: &mut impl FnMut(&mut dyn Write, &str) -> io::Result<Option<String>>,
    out: &mut impl Write,
) -> io::Result<Option<Command>> {
    let legal = table.legal_actions(seat);
    if let Some((_, hand)) = table.hand_in_turn() {
        let index = table.hand_index(seat, hand).unwrap_or(0);
        let cards: Vec<String> = table.hands()[index]
            .cards
            .as_slice()
            .iter()
            .map(|c| c.to_string())
            .collect();
        let upcard = table.upcard().map_or(String::new(), |c| c.to_string());
        writeln!(
            out,
            "  Your hand: {} ({}) against the dealer's {upcard}.",
            cards.join(" "),
            table.hands()[index].total()
        )?;
    }
    let suggested_action = suggested.action();
    let options: Vec<String> = legal
        .iter()
        .map(|a| {
            let (key, name) = key_of(a);
            if Some(a) == suggested_action {
                format!("[{key}] {name} (book)")
            } else {
                format!("[{key}] {name}")
            }
        })
        .collect();
    loop {
        let Some(answer) = ask(
            out,
            &format!("  {} — Enter takes the book play:", options.join("  ")),
        )?
        else {
            return Ok(None);
        };
        if answer.is_empty() {
            return Ok(Some(suggested));
        }
        match legal.iter().find(|&a| key_of(a).0 == answer) {
            Some(action) => return Ok(Some(action.command(seat, table.max_insurance(seat)))),
            None => writeln!(out, "  \"{answer}\" is not one of the choices.")?,
        }
    }
}

/// The key and name shown for an action.
fn key_of(action: Action) -> (&'static str, &'static str) {
    (action.key(), action.name())
}

/// Leaves the table between rounds (a round in play is finished by the book first) and reports the chips.
fn leave(table: &mut Table, seat: SeatId, out: &mut impl Write) -> io::Result<Cents> {
    let strategy = BasicStrategy::for_rules(table.rules());
    while table.phase() != Phase::Betting {
        let command = table
            .seat_to_act()
            .and_then(|a| strategy.decide(table, a))
            .ok_or_else(|| io::Error::other("stuck"))?;
        table
            .apply(command)
            .map_err(|e: CommandError| io::Error::other(e.to_string()))?;
    }
    let events = table
        .apply(Command::Leave { seat })
        .map_err(io::Error::other)?;
    let cash_out = events
        .iter()
        .find_map(|e| match *e {
            crate::engine::Event::Left { cash_out, .. } => Some(cash_out),
            _ => None,
        })
        .unwrap_or(Cents::ZERO);
    writeln!(out, "\nYou leave the table with {cash_out}.")?;
    Ok(cash_out)
}

/// "25" → $25, "12.50" → $12.50, "$7" → $7.
fn parse_money(text: &str) -> Option<Cents> {
    let text = text.trim().trim_start_matches('$').replace(',', "");
    let (units, cents) = match text.split_once('.') {
        Some((units, cents)) if cents.len() <= 2 && cents.chars().all(|c| c.is_ascii_digit()) => {
            (units, format!("{cents:0<2}").parse::<i64>().ok()?)
        }
        Some(_) => return None,
        None => (text.as_str(), 0),
    };
    let units: i64 = units.parse().ok()?;
    units.checked_mul(100)?.checked_add(cents).map(Cents)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn strip() -> Level {
        Level::parse(
            Path::new("strip.ron"),
            include_str!("../levels/las-vegas-strip.ron"),
        )
        .expect("level")
    }

    #[test]
    fn amounts_parse_in_dollars_and_cents() {
        assert_eq!(parse_money("25"), Some(Cents(2_500)));
        assert_eq!(parse_money("$12.5"), Some(Cents(1_250)));
        assert_eq!(parse_money("1,000"), Some(Cents(100_000)));
        assert_eq!(parse_money("12.505"), None);
        assert_eq!(parse_money("lots"), None);
    }

    #[test]
    fn enter_plays_the_book_until_the_player_leaves() {
        let level = strip();
        let input = "\n".repeat(60) + "q\n";
        let mut out = Vec::new();
        let cash_out = play(&level, Some(7), input.as_bytes(), &mut out).expect("plays");
        let text = String::from_utf8(out).expect("utf-8");
        assert!(text.contains("BLACKJACK PAYS 3 TO 2"), "{text}");
        assert!(text.contains("Round 1."), "{text}");
        assert!(
            text.contains(&format!("You leave the table with {cash_out}.")),
            "{text}"
        );
        assert!(cash_out.is_positive());
    }

    #[test]
    fn bad_answers_are_explained_and_nothing_is_lost() {
        let level = strip();
        let mut out = Vec::new();
        let input = "lots\n999999\nq\n";
        let cash_out = play(&level, Some(3), input.as_bytes(), &mut out).expect("plays");
        let text = String::from_utf8(out).expect("utf-8");
        assert!(text.contains("\"lots\" is not an amount"), "{text}");
        assert!(text.contains("over the table maximum"), "{text}");
        assert_eq!(cash_out, level.buy_in, "no round was played");
    }

    #[test]
    fn input_ending_mid_round_finishes_it_by_the_book() {
        let level = strip();
        let mut out = Vec::new();
        let cash_out = play(&level, Some(11), "25\n".as_bytes(), &mut out).expect("plays");
        let text = String::from_utf8(out).expect("utf-8");
        assert!(text.contains("You leave the table with"), "{text}");
        assert!(cash_out >= level.buy_in - Cents::units(200));
    }
}
