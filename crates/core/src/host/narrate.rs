//! Engine events in words, for the round log: "Mae doubles down", "Dealer shows the king of hearts".
//!
//! Bevy-free so the terminal table and the game's log panel say the same things.

use crate::engine::{Action, Event, Outcome, SeatId, Spot};

/// The name the player's own seat goes by at a table of their own: sentences about it speak to them ("You hit.",
/// "Your turn.").
pub const YOU: &str = "You";

/// Who sits where, for naming seats in sentences.
pub trait SeatNames {
    /// The name of the player in `seat`.
    fn name(&self, seat: SeatId) -> String;

    /// The seat is the player's own, spoken to in the second person.
    fn is_you(&self, seat: SeatId) -> bool {
        self.name(seat) == YOU
    }
}

impl<F: Fn(SeatId) -> String> SeatNames for F {
    fn name(&self, seat: SeatId) -> String {
        self(seat)
    }
}

/// Who a sentence is about: a seat's hand by its player's name, or the player spoken to.
struct Who {
    name: String,
    hand: u8,
    you: bool,
}

impl Who {
    fn of(names: &impl SeatNames, seat: SeatId, hand: u8) -> Who {
        let you = names.is_you(seat);
        Who {
            name: if you {
                YOU.to_string()
            } else {
                names.name(seat)
            },
            hand,
            you,
        }
    }

    /// Which hand, after a name: "" or " (hand 2)".
    fn which(&self) -> String {
        if self.hand == 0 {
            String::new()
        } else {
            format!(" (hand {})", self.hand + 1)
        }
    }

    /// The subject and its verb, given as the third person says it: "Mae (hand 2) doubles down", "You double down".
    fn does(&self, verb: &str) -> String {
        format!("{}{} {}", self.name, self.which(), self.verb(verb))
    }

    /// A verb given as the third person says it, as this subject says it: "loses", or for the player "lose".
    fn verb(&self, verb: &str) -> String {
        if self.you {
            second_person(verb)
        } else {
            verb.to_string()
        }
    }

    /// Whose: "Mae's", "Your".
    fn whose(&self) -> String {
        if self.you {
            "Your".to_string()
        } else {
            format!("{}'s", self.name)
        }
    }

    /// After a preposition: "Mae (hand 2)", "you (hand 2)".
    fn object(&self) -> String {
        let name = if self.you { "you" } else { &self.name };
        format!("{name}{}", self.which())
    }
}

/// A verb phrase's first word turned from the third person to the second: "hits" → "hit", "doubles down" → "double
/// down", "pushes" → "push", "has" → "have".
fn second_person(phrase: &str) -> String {
    let (verb, tail) = phrase.split_once(' ').map_or((phrase, ""), |(v, t)| (v, t));
    let base = if verb == "has" {
        "have"
    } else if ["shes", "ches", "xes", "sses"]
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
    format!("{base}{space}{tail}")
}

/// The sentence for one event, or `None` for events a person need not read about.
pub fn describe(event: &Event, names: &impl SeatNames) -> Option<String> {
    let who = |seat: SeatId, hand: u8| Who::of(names, seat, hand);
    Some(match *event {
        Event::Joined { seat, buy_in } => {
            format!("{} with {buy_in}.", who(seat, 0).does("sits down"))
        }
        Event::Rebought { seat, amount, .. } => {
            format!("{} {amount} more in chips.", who(seat, 0).does("buys"))
        }
        Event::Left { seat, cash_out } => {
            format!("{} the table with {cash_out}.", who(seat, 0).does("leaves"))
        }
        Event::BetSet { seat, amount, .. } if amount.is_positive() => {
            format!("{} {amount}.", who(seat, 0).does("bets"))
        }
        Event::BetSet { .. } => return None,
        Event::SideBetSet {
            seat, bet, amount, ..
        } if amount.is_positive() => {
            format!("{} {amount} on {bet}.", who(seat, 0).does("puts"))
        }
        Event::SideBetSet { .. } => return None,
        Event::SideBetSettled {
            seat,
            bet,
            win: Some(win),
            net,
            ..
        } => format!(
            "{bet}: {} for {}, which pays {net}.",
            capitalise(&win.name()),
            who(seat, 0).object()
        ),
        Event::SideBetSettled {
            seat, bet, stake, ..
        } => format!("{} {stake} on {bet}.", who(seat, 0).does("loses")),
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
            format!("{} {}.", who(seat, hand).does("gets"), card_words(card))
        }
        Event::Blackjack { seat, hand } => format!("Blackjack for {}!", who(seat, hand).object()),
        Event::EarlySurrenderOffered => "The dealer offers early surrender.".to_string(),
        Event::InsuranceOffered => "The dealer shows an ace: insurance?".to_string(),
        // Standing and splitting are told by what follows (`Stood` with the total, `Split`), once.
        Event::Acted {
            action: Action::Stand | Action::Split,
            ..
        } => return None,
        Event::Acted { seat, hand, action } => format!("{}.", who(seat, hand).does(action.verb())),
        Event::InsuranceTaken { seat, amount } => {
            format!("{} {amount} of insurance.", who(seat, 0).does("puts up"))
        }
        Event::DealerChecked { blackjack: false } => "The dealer checks: no blackjack.".to_string(),
        Event::DealerChecked { blackjack: true } => "The dealer checks the hole card…".to_string(),
        Event::HoleCardRevealed { card } => format!("Dealer turns over {}.", card_words(card)),
        Event::DealerBlackjack => "Dealer has blackjack.".to_string(),
        Event::InsuranceSettled { seat, net, .. } if net.is_positive() => {
            format!("{} insurance pays {net}.", who(seat, 0).whose())
        }
        Event::InsuranceSettled { seat, amount, .. } => {
            format!("{} {amount} of insurance.", who(seat, 0).does("loses"))
        }
        Event::Turn { seat, hand } => {
            let who = who(seat, hand);
            format!("{} turn{}.", who.whose(), who.which())
        }
        Event::Split { seat, hand, .. } => {
            format!("{} into two hands.", who(seat, hand).does("splits"))
        }
        Event::Doubled { seat, hand, wager } => {
            format!("{} {wager} on the hand now.", who(seat, hand).does("has"))
        }
        Event::Stood { seat, hand, total } => {
            format!("{} on {total}.", who(seat, hand).does("stands"))
        }
        Event::Busted { seat, hand, total } => {
            format!(
                "{} with {}.",
                who(seat, hand).does("busts"),
                total.hard_sum()
            )
        }
        Event::DealerStood { total } => format!("Dealer stands on {total}."),
        Event::DealerBusted { total } => format!("Dealer busts with {}.", total.hard_sum()),
        Event::Settled {
            seat,
            hand,
            outcome,
            net,
            ..
        } => {
            let who = who(seat, hand);
            match outcome {
                Outcome::Win => format!("{} {net}.", who.does("wins")),
                Outcome::Blackjack => {
                    format!("{} blackjack{} pays {net}.", who.whose(), who.which())
                }
                Outcome::EvenMoney => format!("{}: {net}.", who.does("takes even money")),
                Outcome::Push => format!("{}.", who.does("pushes")),
                Outcome::Lose | Outcome::Bust => format!("{} {}.", who.does("loses"), -net),
                Outcome::Surrender => {
                    format!(
                        "{} half: {} {}.",
                        who.does("gives up"),
                        who.verb("loses"),
                        -net
                    )
                }
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
        let names = |seat: SeatId| {
            if seat == 3 {
                YOU.to_string()
            } else {
                "Mae".to_string()
            }
        };
        let said = |e: Event| describe(&e, &names).expect("said");
        let card = Card::new(0, Suit::Clubs, Rank::Two);
        let (you, mae) = (3, 0);
        let settled = |seat, hand, outcome, net| Event::Settled {
            seat,
            hand,
            outcome,
            wager: Cents(1000),
            net: Cents(net),
        };
        let cases = [
            (
                Event::Acted {
                    seat: you,
                    hand: 0,
                    action: Action::Hit,
                },
                "You hit.",
            ),
            (
                Event::Acted {
                    seat: you,
                    hand: 1,
                    action: Action::Double,
                },
                "You (hand 2) double down.",
            ),
            (
                Event::Acted {
                    seat: mae,
                    hand: 1,
                    action: Action::Double,
                },
                "Mae (hand 2) doubles down.",
            ),
            (
                Event::Dealt {
                    to: Spot::Player { seat: you, hand: 0 },
                    card,
                },
                "You get the two of clubs.",
            ),
            (Event::Turn { seat: you, hand: 0 }, "Your turn."),
            (Event::Turn { seat: you, hand: 1 }, "Your turn (hand 2)."),
            (Event::Turn { seat: mae, hand: 0 }, "Mae's turn."),
            (
                Event::Doubled {
                    seat: you,
                    hand: 0,
                    wager: Cents(2000),
                },
                "You have $20 on the hand now.",
            ),
            (
                Event::Doubled {
                    seat: mae,
                    hand: 0,
                    wager: Cents(2000),
                },
                "Mae has $20 on the hand now.",
            ),
            (
                Event::Blackjack { seat: you, hand: 0 },
                "Blackjack for you!",
            ),
            (
                Event::Blackjack { seat: mae, hand: 0 },
                "Blackjack for Mae!",
            ),
            (
                Event::Split {
                    seat: you,
                    hand: 0,
                    wager: Cents(1000),
                },
                "You split into two hands.",
            ),
            (
                Event::Joined {
                    seat: you,
                    buy_in: Cents(100_000),
                },
                "You sit down with $1,000.",
            ),
            (
                Event::InsuranceTaken {
                    seat: you,
                    amount: Cents(500),
                },
                "You put up $5 of insurance.",
            ),
            (
                Event::InsuranceSettled {
                    seat: you,
                    amount: Cents(500),
                    net: Cents(1000),
                },
                "Your insurance pays $10.",
            ),
            (
                settled(you, 0, Outcome::Blackjack, 1500),
                "Your blackjack pays $15.",
            ),
            (
                settled(mae, 0, Outcome::Blackjack, 1500),
                "Mae's blackjack pays $15.",
            ),
            (settled(you, 1, Outcome::Push, 0), "You (hand 2) push."),
            (settled(you, 0, Outcome::Lose, -1000), "You lose $10."),
            (
                settled(you, 0, Outcome::Surrender, -500),
                "You give up half: lose $5.",
            ),
            (
                settled(mae, 0, Outcome::Surrender, -500),
                "Mae gives up half: loses $5.",
            ),
            (
                settled(you, 0, Outcome::EvenMoney, 1000),
                "You take even money: $10.",
            ),
        ];
        for (event, words) in cases {
            assert_eq!(said(event), words, "{event:?}");
        }
    }
}
