//! Engine events in words, for the round log: "Mae doubles down", "Dealer shows the king of hearts".
//!
//! Bevy-free so the terminal table and the game's log panel say the same things.

use crate::engine::{Action, Event, Outcome, SeatId, Spot};

/// Who sits where, for naming seats in sentences.
pub trait SeatNames {
    /// The name of the player in `seat`.
    fn name(&self, seat: SeatId) -> String;
}

impl<F: Fn(SeatId) -> String> SeatNames for F {
    fn name(&self, seat: SeatId) -> String {
        self(seat)
    }
}

/// The sentence for one event, or `None` for events a person need not read about.
pub fn describe(event: &Event, names: &impl SeatNames) -> Option<String> {
    let hand_label = |seat: SeatId, hand: u8| -> String {
        let name = names.name(seat);
        if hand == 0 {
            name
        } else {
            format!("{name} (hand {})", hand + 1)
        }
    };
    Some(match *event {
        Event::Joined { seat, buy_in } => format!("{} sits down with {buy_in}.", names.name(seat)),
        Event::Rebought { seat, amount, .. } => {
            format!("{} buys {amount} more in chips.", names.name(seat))
        }
        Event::Left { seat, cash_out } => {
            format!("{} leaves the table with {cash_out}.", names.name(seat))
        }
        Event::BetSet { seat, amount, .. } if amount.is_positive() => {
            format!("{} bets {amount}.", names.name(seat))
        }
        Event::BetSet { .. } => return None,
        Event::TableCleared { .. } => return None,
        Event::Shuffled { cards } => {
            format!("The dealer shuffles {cards} cards and places the cut card.")
        }
        Event::Burned => "The dealer burns a card.".to_string(),
        Event::CutCardOut => "The cut card is out: this is the last round of the shoe.".to_string(),
        Event::DiscardsShuffledIn { cards } => {
            format!(
                "The shoe is empty; the dealer shuffles the {} back in.",
                crate::engine::words::counted(cards, "discard", "discards")
            )
        }
        Event::RoundStarted { round } => format!("Round {round}."),
        Event::HoleCardDealt => "Dealer takes the hole card.".to_string(),
        Event::Dealt {
            to: Spot::Dealer,
            card,
        } => format!("Dealer shows {}.", card_words(card)),
        Event::Dealt {
            to: Spot::Player { seat, hand },
            card,
        } => {
            format!("{} gets {}.", hand_label(seat, hand), card_words(card))
        }
        Event::Blackjack { seat, hand } => format!("Blackjack for {}!", hand_label(seat, hand)),
        Event::EarlySurrenderOffered => "The dealer offers early surrender.".to_string(),
        Event::InsuranceOffered => "The dealer shows an ace: insurance?".to_string(),
        // Standing and splitting are told by what follows (`Stood` with the total, `Split`), once.
        Event::Acted {
            action: Action::Stand | Action::Split,
            ..
        } => return None,
        Event::Acted { seat, hand, action } => {
            format!("{} {}.", hand_label(seat, hand), action.verb())
        }
        Event::InsuranceTaken { seat, amount } => {
            format!("{} puts up {amount} of insurance.", names.name(seat))
        }
        Event::DealerChecked { blackjack: false } => "The dealer checks: no blackjack.".to_string(),
        Event::DealerChecked { blackjack: true } => "The dealer checks the hole card…".to_string(),
        Event::HoleCardRevealed { card } => format!("Dealer turns over {}.", card_words(card)),
        Event::DealerBlackjack => "Dealer has blackjack.".to_string(),
        Event::InsuranceSettled { seat, net, .. } if net.is_positive() => {
            format!("{}'s insurance pays {net}.", names.name(seat))
        }
        Event::InsuranceSettled { seat, amount, .. } => {
            format!("{} loses {amount} of insurance.", names.name(seat))
        }
        Event::Turn { seat, hand } => format!("{} to act.", hand_label(seat, hand)),
        Event::Split { seat, hand, .. } => {
            format!("{} splits into two hands.", hand_label(seat, hand))
        }
        Event::Doubled { seat, hand, wager } => {
            format!("{} now has {wager} on the hand.", hand_label(seat, hand))
        }
        Event::Stood { seat, hand, total } => {
            format!("{} stands on {total}.", hand_label(seat, hand))
        }
        Event::Busted { seat, hand, total } => format!(
            "{} busts with {}.",
            hand_label(seat, hand),
            total.hard_sum()
        ),
        Event::DealerStood { total } => format!("Dealer stands on {total}."),
        Event::DealerBusted { total } => format!("Dealer busts with {}.", total.hard_sum()),
        Event::Settled {
            seat,
            hand,
            outcome,
            net,
            ..
        } => {
            let who = hand_label(seat, hand);
            match outcome {
                Outcome::Win => format!("{who} wins {net}."),
                Outcome::Blackjack => format!("{who}'s blackjack pays {net}."),
                Outcome::EvenMoney => format!("{who} takes even money: {net}."),
                Outcome::Push => format!("{who} pushes."),
                Outcome::Lose | Outcome::Bust => format!("{who} loses {}.", -net),
                Outcome::Surrender => format!("{who} gives up half: loses {}.", -net),
            }
        }
        Event::RoundEnded { .. } => return None,
    })
}

/// "the king of hearts".
pub fn card_words(card: crate::engine::Card) -> String {
    format!("the {} of {}", card.rank().name(), card.suit().name())
}

/// The text with its first letter a capital: a button's word, or a server's refusal as a sentence.
pub fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A sentence about the player, named "You", in the second person: "You hits." → "You hit.",
/// "You (hand 2) pushes." → "You (hand 2) push.".
pub fn to_you(line: &str) -> String {
    let Some(rest) = line.strip_prefix("You ") else {
        return line.to_string();
    };
    let (subject, rest) = match rest.strip_prefix('(').and_then(|r| r.split_once(") ")) {
        Some((hand, after)) => (format!("You ({hand}) "), after),
        None => ("You ".to_string(), rest),
    };
    let (verb, tail) = rest.split_once(' ').unwrap_or((rest, ""));
    let (verb, punctuation) = match verb.strip_suffix(['.', ',', '!']) {
        Some(bare) => (bare, &verb[bare.len()..]),
        None => (verb, ""),
    };
    let base = if ["shes", "ches", "xes", "sses"]
        .iter()
        .any(|e| verb.ends_with(e))
    {
        &verb[..verb.len() - 2]
    } else if verb.ends_with('s') && !verb.ends_with("ss") {
        &verb[..verb.len() - 1]
    } else {
        verb
    };
    let space = if tail.is_empty() { "" } else { " " };
    format!("{subject}{base}{punctuation}{space}{tail}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, Card, Cents, Rank, Suit};

    fn names(seat: SeatId) -> String {
        if seat == 3 {
            "Ada".to_string()
        } else {
            format!("Seat {seat}")
        }
    }

    #[test]
    fn events_read_as_sentences() {
        let card = Card::new(0, Suit::Hearts, Rank::King);
        let said = |e: Event| describe(&e, &names).expect("said");
        assert_eq!(
            said(Event::Dealt {
                to: Spot::Dealer,
                card,
            }),
            "Dealer shows the king of hearts."
        );
        assert_eq!(
            said(Event::Acted {
                seat: 3,
                hand: 1,
                action: Action::Double
            }),
            "Ada (hand 2) doubles down."
        );
        let settled = Event::Settled {
            seat: 0,
            hand: 0,
            outcome: Outcome::Win,
            wager: Cents(500),
            net: Cents(500),
        };
        assert_eq!(said(settled), "Seat 0 wins $5.");
        let lost = Event::Settled {
            seat: 0,
            hand: 0,
            outcome: Outcome::Bust,
            wager: Cents(500),
            net: Cents(-500),
        };
        assert_eq!(said(lost), "Seat 0 loses $5.");
        assert_eq!(describe(&Event::RoundEnded { round: 1 }, &names), None);
    }

    #[test]
    fn the_player_is_spoken_to() {
        assert_eq!(to_you("You hits."), "You hit.");
        assert_eq!(
            to_you("You gets the two of clubs."),
            "You get the two of clubs."
        );
        assert_eq!(to_you("You pushes."), "You push.");
        assert_eq!(to_you("You loses $10."), "You lose $10.");
        assert_eq!(
            to_you("You (hand 2) doubles down."),
            "You (hand 2) double down."
        );
        assert_eq!(to_you("You to act."), "You to act.");
        assert_eq!(to_you("Mae hits."), "Mae hits.");
    }
}
