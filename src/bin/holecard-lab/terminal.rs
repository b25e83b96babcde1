//! Blackjack at a terminal: one person at a level's table with its AI companions, every prompt with a
//! default answer (Enter takes it). Bevy-free; the same engine the game uses.

use holecard::engine::{
    Action, BasicStrategy, Cents, Command, Event, Phase, SeatId, Table, TableState, os_seed_number,
    seed_from_number,
};
use holecard::host::level::Level;
use holecard::host::{Host, Names, News, Occupant};
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
    let rules_screen = rules_screen(level);
    let mut lines = input.lines();
    // Every prompt takes `?` for the rules screen, then asks again.
    let mut ask = |out: &mut dyn Write, prompt: &str| -> io::Result<Option<String>> {
        loop {
            write!(out, "{prompt} ")?;
            out.flush()?;
            let answer = lines
                .next()
                .transpose()?
                .map(|line| line.trim().to_lowercase());
            if answer.as_deref() != Some("?") {
                return Ok(answer);
            }
            writeln!(out, "{rules_screen}")?;
        }
    };
    writeln!(out, "{}", level.name)?;
    let level = &match level.deck_choices.as_slice() {
        [] => level.clone(),
        choices => {
            let Some(decks) = ask_decks(choices, &mut ask, &mut out)? else {
                writeln!(out, "\nYou did not sit down.")?;
                return Ok(Cents::ZERO);
            };
            level.with_decks(decks)
        }
    };
    let rules = level.rules.rules();
    let seed = match seed {
        Some(number) => number,
        None => os_seed_number().map_err(io::Error::other)?,
    };
    let table = Table::new(rules.clone(), seed_from_number(seed), level.house_bankroll)
        .map_err(io::Error::other)?;
    let mut host = Host::new(table, level.companions.clone(), seed, 0);
    let seat = level.player_seat.unwrap_or(3);
    let strategy = BasicStrategy::for_rules(&rules);
    let mut names = Names::default();
    writeln!(out, "{rules}")?;
    for line in rules.felt_lines() {
        writeln!(out, "  {line}")?;
    }
    writeln!(
        out,
        "  Table limits {} to {}.",
        rules.min_bet, rules.max_bet
    )?;
    let sat = host
        .sit(seat, Occupant::person(PLAYER, level.buy_in))
        .map_err(io::Error::other)?;
    say(&mut out, &mut names, sat)?;
    say(&mut out, &mut names, host.seat_regulars())?;

    let mut last_bet = rules.min_bet;
    loop {
        say(&mut out, &mut names, host.between_rounds(false))?;
        let bankroll = host.seats()[usize::from(seat)].bankroll;
        if let Some(broke) = level.broke(&host, seat) {
            let (headline, line) = broke.said(bankroll, level.buy_in);
            writeln!(out, "\n*** {headline} ***\n{line}")?;
            break;
        }
        if bankroll < rules.min_bet {
            writeln!(out, "You are out of chips.")?;
            break;
        }
        let default = last_bet.min(bankroll).min(rules.max_bet);
        let prompt =
            format!("\nYou have {bankroll}. Bet (Enter = {default}, q = leave, ? = rules):");
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
        if let Err(e) = host.apply(Command::Bet { seat, amount: bet }) {
            writeln!(out, "  {e}")?;
            continue;
        }
        say(&mut out, &mut names, host.place_bets())?;
        match host.apply(Command::Deal) {
            Ok(news) => say(&mut out, &mut names, news)?,
            Err(e) => {
                writeln!(out, "  {e}")?;
                host.apply(Command::Bet {
                    seat,
                    amount: Cents::ZERO,
                })
                .map_err(io::Error::other)?;
                continue;
            }
        }
        last_bet = bet;
        while host.phase() != Phase::Betting {
            if let Some(moved) = host.act() {
                say(&mut out, &mut names, moved.map_err(io::Error::other)?)?;
                continue;
            }
            let Some(actor) = host.seat_to_act() else {
                break;
            };
            let suggested = strategy
                .decide(&host, actor)
                .ok_or_else(|| io::Error::other("no move"))?;
            let Some(command) = ask_decision(&host, actor, suggested, &mut ask, &mut out)? else {
                return leave(&mut host, &mut names, seat, &mut out);
            };
            match host.apply(command) {
                Ok(news) => say(&mut out, &mut names, news)?,
                Err(e) => writeln!(out, "  {e}")?,
            }
        }
    }
    leave(&mut host, &mut names, seat, &mut out)
}

/// Asks how many decks to play with, among `choices` (Enter takes the first). `None` when input ends.
fn ask_decks(
    choices: &[u8],
    ask: &mut impl FnMut(&mut dyn Write, &str) -> io::Result<Option<String>>,
    out: &mut impl Write,
) -> io::Result<Option<u8>> {
    let listed: Vec<String> = choices.iter().map(u8::to_string).collect();
    // "1, 2 or 4"
    let said = match listed.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    };
    let default = choices[0];
    loop {
        let prompt = format!("How many decks in the shoe: {said}? (Enter = {default}, ? = rules)");
        let Some(answer) = ask(out, &prompt)? else {
            return Ok(None);
        };
        if answer.is_empty() {
            return Ok(Some(default));
        }
        match answer.parse::<u8>() {
            Ok(decks) if choices.contains(&decks) => return Ok(Some(decks)),
            _ => writeln!(out, "  \"{answer}\": the shoe holds {said} decks.")?,
        }
    }
}

/// The rules screen (`?` at any prompt): the table's rules as the felt prints them, its limits and chips, and the
/// keys.
fn rules_screen(level: &Level) -> String {
    let rules = level.rules.rules();
    let mut text = format!("\n=== {} — the rules ===\n", level.name);
    if !level.description.is_empty() {
        text += &format!("{}\n", level.description);
    }
    for line in rules.felt_lines() {
        text += &format!("  {line}\n");
    }
    text += &format!(
        "  Bets {} to {} in steps of {}. You buy in with {}; the house's tray holds {}.\n",
        rules.min_bet, rules.max_bet, rules.bet_unit, level.buy_in, level.house_bankroll
    );
    if level.until_broke {
        text += "  The game ends when you can't cover the smallest bet, or the house can't cover a round.\n";
    }
    text += "Keys: Enter takes the default answer (for a decision, basic strategy's play).\n";
    let keys: Vec<String> = Action::ALL
        .iter()
        .map(|&a| format!("{} = {}", a.key(), a.name()))
        .collect();
    text += &format!(
        "  {}\n  q = leave the table (between rounds), ? = this screen\n",
        keys.join(", ")
    );
    text
}

/// Prints the news as it comes: what the table did and what the people at it said.
fn say(out: &mut impl Write, names: &mut Names, news: Vec<News>) -> io::Result<()> {
    for item in &news {
        names.follow(item);
        if let Some(line) = names.line(item) {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}

/// Asks the player what to do, with basic strategy's move as the default. `None` when input ends.
fn ask_decision(
    table: &impl TableState,
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
            &format!(
                "  {} — Enter takes the book play, ? = rules:",
                options.join("  ")
            ),
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
fn leave(
    host: &mut Host,
    names: &mut Names,
    seat: SeatId,
    out: &mut impl Write,
) -> io::Result<Cents> {
    say(out, names, host.finish_round())?;
    let (_, news) = host.leave(seat).map_err(io::Error::other)?;
    let cash_out = news
        .iter()
        .find_map(|n| match *n {
            News::Event(Event::Left { cash_out, .. }) => Some(cash_out),
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
            include_str!("../../../levels/las-vegas-strip.ron"),
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

    fn break_the_bank() -> Level {
        Level::parse(
            Path::new("break-the-bank.ron"),
            include_str!("../../../levels/break-the-bank.ron"),
        )
        .expect("level")
    }

    #[test]
    fn the_player_picks_the_decks_and_reads_the_rules_with_a_question_mark() {
        let level = break_the_bank();
        let mut out = Vec::new();
        // Three decks is not a choice; four is. `?` shows the rules and asks again; then one round by the book.
        let input = "3\n?\n4\n?\n\n".to_string() + &"\n".repeat(10) + "q\n";
        let cash_out = play(&level, Some(5), input.as_bytes(), &mut out).expect("plays");
        let text = String::from_utf8(out).expect("utf-8");
        assert!(
            text.contains("\"3\": the shoe holds 1, 2 or 4 decks"),
            "{text}"
        );
        assert!(
            text.contains("The dealer shuffles 208 cards"),
            "four decks: {text}"
        );
        assert!(text.contains("4D S17"), "{text}");
        assert_eq!(
            text.matches("=== Break the Bank — the rules ===").count(),
            2,
            "{text}"
        );
        assert!(text.contains("the house's tray holds $10,000"), "{text}");
        assert!(text.contains("h = hit"), "{text}");
        assert!(text.contains("Round 1."), "{text}");
        assert!(cash_out.is_positive() && cash_out <= Cents::units(200));
    }

    #[test]
    fn the_match_ends_when_either_side_is_broke() {
        // $1 against a house that can cover exactly one round's most: the first hand that is not a push decides.
        let level = Level {
            buy_in: Cents::units(1),
            house_bankroll: Cents::units(45),
            ..break_the_bank()
        };
        let (mut player, mut house) = (0, 0);
        for seed in 1..40 {
            let mut out = Vec::new();
            let input = "\n".repeat(200);
            let cash_out = play(&level, Some(seed), input.as_bytes(), &mut out).expect("plays");
            let text = String::from_utf8(out).expect("utf-8");
            if text.contains("*** You're broke ***") {
                player += 1;
                assert_eq!(cash_out, Cents::ZERO, "{text}");
            } else {
                assert!(text.contains("*** You broke the bank! ***"), "{text}");
                assert!(cash_out > level.buy_in, "{text}");
                house += 1;
            }
        }
        assert!(
            player > 0 && house > 0,
            "both ends happen: {player} broke, {house} broke the bank"
        );
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
