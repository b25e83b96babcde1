//! Hand records from the table's events: what each seat was dealt, what it decided (with the basic-strategy play
//! beside each decision), how each hand ended, and what the dealer drew. Bevy-free and built only from the public
//! event stream, so whoever hears a table (the server, the terminal table, the game) can keep the same record
//! without seeing anything secret.

use crate::engine::exact::Tray;
use crate::engine::side::{SideBet, SideWin};
use crate::engine::{
    Action, BasicStrategy, Card, Cents, Event, Outcome, SeatId, Spot, TableState, TableView, ev,
};
use serde::{Deserialize, Serialize};

/// A decision, and what basic strategy would have done in its place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Decision {
    /// What the seat did.
    pub action: Action,
    /// The chart's play at that moment (none when the recorder was not following the table's view).
    pub book: Option<Action>,
    /// What choosing otherwise than the chart cost in expected value, in cents: zero on the chart; exact on the cards
    /// the seat had not seen where the recorder prices exactly ([`Recorder::pricing_exactly`]), and then negative
    /// where the shoe made the decision better than the chart's play; otherwise from an infinite deck
    /// ([`crate::engine::ev`]); none when it cannot be priced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cents>,
}

impl Decision {
    /// The seat did something other than the chart's play.
    pub fn off_book(&self) -> bool {
        self.book.is_some_and(|book| book != self.action)
    }
}

/// One hand as it was played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandRecord {
    /// The cards, in the order they came (after a split, the split card first).
    pub cards: Vec<Card>,
    /// The decisions taken on it, in order (offers answered before play count for the seat's first hand).
    pub decisions: Vec<Decision>,
    /// How it ended (none when the round ended without settling it, which a finished round never does).
    pub outcome: Option<Outcome>,
    /// What was on it at the end.
    pub wager: Cents,
    /// What the player gained on it (negative when lost).
    pub net: Cents,
}

/// One side bet as it was settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideBetRecord {
    /// The bet.
    pub bet: SideBet,
    /// What was on it.
    pub stake: Cents,
    /// The hand it paid for (none when it lost).
    pub win: Option<SideWin>,
    /// What the player gained on it (negative when lost).
    pub net: Cents,
}

impl SideBetRecord {
    /// "21+3 $5: a flush, +$25", "Perfect Pairs $2: lost".
    pub fn words(&self) -> String {
        match self.win {
            Some(win) => format!(
                "{} {}: {}, {}",
                self.bet,
                self.stake,
                win.name(),
                self.net.signed()
            ),
            None => format!("{} {}: lost", self.bet, self.stake),
        }
    }
}

/// One seat's round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// The seat.
    pub seat: SeatId,
    /// Its hands, left to right.
    pub hands: Vec<HandRecord>,
    /// What the insurance (or even money's side) brought: negative when lost, zero when none was taken.
    pub insurance: Cents,
    /// Its side bets, in the order they were settled.
    #[serde(default)]
    pub side_bets: Vec<SideBetRecord>,
}

impl SeatRecord {
    /// What the seat gained in the round: its hands, its insurance and its side bets.
    pub fn net(&self) -> Cents {
        self.hands.iter().map(|h| h.net).sum::<Cents>()
            + self.insurance
            + self.side_bets.iter().map(|s| s.net).sum::<Cents>()
    }
}

/// One round as the table saw it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRecord {
    /// The table's round number.
    pub round: u64,
    /// The dealer's cards as they were shown (a hole card never turned up is not in it).
    pub dealer: Vec<Card>,
    /// Every seat that played, by seat.
    pub seats: Vec<SeatRecord>,
    /// Every card that came out of the shoe in the round, in order, with the seat it went to (none: the dealer). The
    /// hole card is in its place from when it was turned (none if it never was). A replay deals from this.
    #[serde(default)]
    pub deals: Vec<(Option<SeatId>, Option<Card>)>,
}

impl RoundRecord {
    /// The seat's record, if it played.
    pub fn seat(&self, seat: SeatId) -> Option<&SeatRecord> {
        self.seats.iter().find(|s| s.seat == seat)
    }
}

/// Keeps the round under way from its events and hands it over when it ends.
///
/// Serializable, so a round under way is recorded whole across a restart: it holds only what the events showed (a
/// seat view and the round so far), and the chart is made again from the view's rules when read back.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(from = "KeptRecorder", into = "KeptRecorder")]
pub struct Recorder {
    round: Option<RoundRecord>,
    /// The table as everyone sees it, kept from the same events, and the chart for its rules: for the book play
    /// beside each decision.
    following: Option<(TableView, BasicStrategy)>,
    /// Pricing decisions exactly: one seat's (or every seat's, `None`), and the cards the table showed since the
    /// shuffle.
    exact: Option<(Option<SeatId>, Tray)>,
}

/// What following an event found: a decision's chart play and cost, or what insurance taken cost.
#[derive(Clone, Copy, Debug)]
enum Priced {
    Decision { book: Action, cost: Option<Cents> },
    Insurance(Option<Cents>),
}

/// A recorder as it is kept: the chart is left out (made again from the rules).
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeptRecorder {
    round: Option<RoundRecord>,
    view: Option<TableView>,
    /// The seat priced exactly (none: every seat) and the cards the table showed (absent in recorders kept before
    /// there was exact pricing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    exact: Option<(Option<SeatId>, Tray)>,
}

impl From<Recorder> for KeptRecorder {
    fn from(recorder: Recorder) -> KeptRecorder {
        KeptRecorder {
            round: recorder.round,
            view: recorder.following.map(|(view, _)| view),
            exact: recorder.exact,
        }
    }
}

impl From<KeptRecorder> for Recorder {
    fn from(kept: KeptRecorder) -> Recorder {
        let mut recorder = kept.view.map_or_else(Recorder::new, Recorder::following);
        recorder.round = kept.round;
        recorder.exact = kept.exact;
        recorder
    }
}

impl Recorder {
    /// A recorder that starts listening at the next round, without the book plays.
    pub fn new() -> Recorder {
        Recorder::default()
    }

    /// A recorder that also keeps `view` (the table as it is now, any viewer's) from the events it hears, and so
    /// records basic strategy's play beside each decision. If an event ever does not fit the view, it goes on
    /// without the book plays.
    pub fn following(view: TableView) -> Recorder {
        let strategy = BasicStrategy::for_rules(view.rules());
        Recorder {
            round: None,
            following: Some((view, strategy)),
            exact: None,
        }
    }

    /// Prices `seat`'s decisions off the chart exactly, on the cards it had not seen (the exact engine), from the
    /// events heard from now on; the other seats' stay priced from an infinite deck. Only off-chart decisions are
    /// worked out (a decision on the chart costs nothing).
    pub fn pricing_exactly(mut self, seat: SeatId) -> Recorder {
        self.exact = Some((Some(seat), Tray::default()));
        self
    }

    /// Prices every seat's decisions off the chart exactly (for a history that keeps every seat's hands): what each
    /// seat sees of the cards is the same, all of them being face up.
    pub fn pricing_every_seat_exactly(mut self) -> Recorder {
        self.exact = Some((None, Tray::default()));
        self
    }

    /// The table as the recorder follows it (none without [`Recorder::following`], or after an event that did not
    /// fit).
    pub fn view(&self) -> Option<&TableView> {
        self.following.as_ref().map(|(view, _)| view)
    }

    /// Hears one event; at the round's end, the round.
    pub fn hear(&mut self, event: &Event) -> Option<RoundRecord> {
        let priced = self.follow(event);
        self.record(event, priced)
    }

    /// Moves the view on by `event`; for a decision, the chart's play just before it and what the decision cost
    /// against it.
    fn follow(&mut self, event: &Event) -> Option<Priced> {
        let exact = &mut self.exact;
        let priced = self.following.as_mut().and_then(|(view, strategy)| {
            let exactly = |seat: SeatId| {
                exact
                    .as_ref()
                    .filter(|(priced, _)| priced.is_none_or(|priced| priced == seat))
                    .map(|(_, tray)| tray)
            };
            let priced = match *event {
                Event::Acted { seat, action, .. } => strategy
                    .decide(view, seat)
                    .and_then(|c| c.action())
                    .map(|book| {
                        let cost = match exactly(seat) {
                            Some(tray) if book != action => {
                                crate::engine::exact::unseen_cards_cost(
                                    view, tray, seat, action, book,
                                )
                            }
                            _ => ev::infinite_deck_cost(view, seat, action, book),
                        };
                        Priced::Decision { book, cost }
                    }),
                Event::InsuranceTaken { seat, amount } => {
                    Some(Priced::Insurance(match exactly(seat) {
                        Some(tray) => {
                            crate::engine::exact::unseen_cards_insurance_cost(view, tray, amount)
                        }
                        None => Some(ev::infinite_deck_insurance_cost(amount)),
                    }))
                }
                _ => None,
            };
            if view.apply_or_spoil(event).is_err() {
                return None;
            }
            Some(priced)
        });
        if let Some((_, tray)) = exact.as_mut() {
            tray.observe(event);
        }
        match priced {
            Some(priced) => priced,
            None => {
                // The view did not fit an event (or there was none): no book plays from here on.
                self.following = None;
                None
            }
        }
    }

    fn record(&mut self, event: &Event, priced: Option<Priced>) -> Option<RoundRecord> {
        if let Event::RoundStarted { round } = *event {
            self.round = Some(RoundRecord {
                round,
                ..RoundRecord::default()
            });
            return None;
        }
        let round = self.round.as_mut()?;
        match *event {
            Event::Dealt { to, card } => round.deals.push((
                match to {
                    Spot::Dealer => None,
                    Spot::Player { seat, .. } => Some(seat),
                },
                Some(card),
            )),
            Event::HoleCardDealt => round.deals.push((None, None)),
            Event::HoleCardRevealed { card } => {
                if let Some(hole) = round
                    .deals
                    .iter_mut()
                    .find(|(seat, card)| seat.is_none() && card.is_none())
                {
                    hole.1 = Some(card);
                }
            }
            _ => {}
        }
        match *event {
            Event::Dealt {
                to: Spot::Dealer,
                card,
            }
            | Event::HoleCardRevealed { card } => round.dealer.push(card),
            Event::Dealt {
                to: Spot::Player { seat, hand },
                card,
            } => hand_mut(round, seat, hand).cards.push(card),
            Event::Acted { seat, hand, action } => {
                let (book, cost) = match priced {
                    Some(Priced::Decision { book, cost }) => (Some(book), cost),
                    _ => (None, None),
                };
                hand_mut(round, seat, hand)
                    .decisions
                    .push(Decision { action, book, cost })
            }
            Event::Split { seat, hand, wager } => {
                let record = seat_mut(round, seat);
                let at = usize::from(hand);
                if let Some(pair) = record.hands.get_mut(at) {
                    let moved = pair.cards.pop();
                    pair.wager = wager;
                    let split = HandRecord {
                        cards: moved.into_iter().collect(),
                        decisions: Vec::new(),
                        outcome: None,
                        wager,
                        net: Cents(0),
                    };
                    record.hands.insert(at + 1, split);
                }
            }
            Event::Doubled { seat, hand, wager } => hand_mut(round, seat, hand).wager = wager,
            Event::InsuranceSettled { seat, net, .. } => seat_mut(round, seat).insurance += net,
            Event::SideBetSettled {
                seat,
                bet,
                stake,
                win,
                net,
            } => seat_mut(round, seat).side_bets.push(SideBetRecord {
                bet,
                stake,
                win,
                net,
            }),
            // Insurance is priced once its amount is known (a thirteenth of it from an infinite deck), when the chart
            // declined it.
            Event::InsuranceTaken { seat, .. } => {
                let taken = seat_mut(round, seat)
                    .hands
                    .first_mut()
                    .and_then(|hand| hand.decisions.last_mut())
                    .filter(|d| d.action == Action::TakeInsurance && d.off_book());
                if let (Some(decision), Some(Priced::Insurance(cost))) = (taken, priced) {
                    decision.cost = cost;
                }
            }
            Event::Settled {
                seat,
                hand,
                outcome,
                wager,
                net,
            } => {
                let record = hand_mut(round, seat, hand);
                record.outcome = Some(outcome);
                record.wager = wager;
                record.net = net;
            }
            Event::RoundEnded { .. } => {
                let mut done = self.round.take()?;
                done.seats.sort_by_key(|s| s.seat);
                return Some(done);
            }
            _ => {}
        }
        None
    }
}

fn seat_mut(round: &mut RoundRecord, seat: SeatId) -> &mut SeatRecord {
    let at = match round.seats.iter().position(|s| s.seat == seat) {
        Some(at) => at,
        None => {
            round.seats.push(SeatRecord {
                seat,
                hands: Vec::new(),
                insurance: Cents(0),
                side_bets: Vec::new(),
            });
            round.seats.len() - 1
        }
    };
    &mut round.seats[at]
}

fn hand_mut(round: &mut RoundRecord, seat: SeatId, hand: u8) -> &mut HandRecord {
    let record = seat_mut(round, seat);
    let at = usize::from(hand);
    while record.hands.len() <= at {
        record.hands.push(HandRecord {
            cards: Vec::new(),
            decisions: Vec::new(),
            outcome: None,
            wager: Cents(0),
            net: Cents(0),
        });
    }
    &mut record.hands[at]
}

/// Cards as text: `A♠ 10♥`.
pub fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Decisions as text: `split, hit, stand`, with the chart's play after one that differs: `hit (book: stand)`, and
/// where the cards left made it the better play, `hit (book: stand; better on this shoe by $0.40)`.
pub fn decisions_text(decisions: &[Decision]) -> String {
    decisions
        .iter()
        .map(|d| match (d.book, d.cost) {
            (Some(book), Some(cost)) if d.off_book() && cost < Cents::ZERO => format!(
                "{} (book: {}; better on this shoe by {})",
                d.action.name(),
                book.name(),
                (-cost).to_the_cent()
            ),
            (Some(book), _) if d.off_book() => {
                format!("{} (book: {})", d.action.name(), book.name())
            }
            _ => d.action.name().to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Command, Rules, Table, Viewer, seed_from_number};

    /// Plays `rounds` rounds of three seats with basic strategy, recording every one.
    fn recorded(seed: u64, rounds: usize) -> Vec<(RoundRecord, [Cents; 4], [Cents; 4])> {
        let rules = Rules::default();
        let mut table = Table::new(
            rules.clone(),
            seed_from_number(seed),
            Cents::units(1_000_000),
        )
        .expect("default rules are valid");
        let mut events = Vec::new();
        for seat in 0..3 {
            table
                .apply(Command::Join {
                    seat,
                    buy_in: Cents::units(10_000),
                })
                .map(|e| events.extend(e))
                .expect("a free seat");
        }
        let strategy = crate::engine::BasicStrategy::for_rules(&rules);
        let mut recorder = Recorder::following(table.view(Viewer::Spectator));
        events.clear();
        let mut out = Vec::new();
        for _ in 0..rounds {
            let house = table.house();
            let before = [0, 1, 2].map(|s| table.seats()[s].chips());
            for seat in 0..3 {
                let amount = Cents::units(10 + 5 * i64::from(seat));
                table
                    .apply(Command::Bet { seat, amount })
                    .map(|e| events.extend(e))
                    .expect("a bet within limits");
            }
            table
                .apply(Command::Deal)
                .map(|e| events.extend(e))
                .expect("bets are down");
            while let Some(seat) = table.seat_to_act() {
                // The third seat always insures (basic strategy never does), so insurance is recorded too.
                let insure = seat == 2 && table.legal_actions(seat).contains(Action::TakeInsurance);
                let command = match insure {
                    true => Action::TakeInsurance.command(seat, table.max_insurance(seat)),
                    false => strategy
                        .decide(&table, seat)
                        .expect("a seat in turn has a play"),
                };
                table
                    .apply(command)
                    .map(|e| events.extend(e))
                    .expect("a legal action");
            }
            let after = [0, 1, 2].map(|s| table.seats()[s].chips());
            let (before, after) = (
                [before[0], before[1], before[2], house],
                [after[0], after[1], after[2], table.house()],
            );
            let mut finished = None;
            for event in events.drain(..) {
                if let Some(round) = recorder.hear(&event) {
                    finished = Some(round);
                }
            }
            out.push((finished.expect("every round ends"), before, after));
        }
        out
    }

    #[test]
    fn a_seats_record_adds_up_to_its_chips() {
        let mut splits = 0;
        let mut insured = 0;
        for (round, before, after) in recorded(11, 600) {
            for seat in 0..3u8 {
                let record = round.seat(seat).expect("every seat bet");
                let change = after[usize::from(seat)] - before[usize::from(seat)];
                assert_eq!(
                    record.net(),
                    change,
                    "round {} seat {seat}: {record:?}",
                    round.round
                );
                for hand in &record.hands {
                    assert!(
                        hand.outcome.is_some(),
                        "round {}: an unsettled hand",
                        round.round
                    );
                    assert!(hand.cards.len() >= 2, "round {}: {hand:?}", round.round);
                }
                // Seats 0 and 1 play the chart; seat 2 too, except that it insures.
                for decision in record.hands.iter().flat_map(|h| &h.decisions) {
                    assert!(
                        decision.book.is_some(),
                        "round {}: {decision:?}",
                        round.round
                    );
                    let insured = decision.action == Action::TakeInsurance;
                    assert_eq!(
                        decision.off_book(),
                        insured,
                        "round {} seat {seat}: {decision:?}",
                        round.round
                    );
                }
                splits += record.hands.len() - 1;
                insured += usize::from(record.insurance != Cents(0));
            }
            assert!(!round.dealer.is_empty());
            let players: Cents = round.seats.iter().map(SeatRecord::net).sum();
            assert_eq!(
                after[3] - before[3],
                -players,
                "round {}: the house's side",
                round.round
            );
        }
        assert!(splits > 0, "600 rounds of three seats split at least once");
        assert!(
            insured > 0,
            "600 rounds of three seats settle an insurance at least once"
        );
    }
}
