//! The round engine: one table's seats, hands, dealer and shoe, driven by commands that emit events.
//!
//! Every command is checked in full before anything changes, so a refused command leaves the table exactly as it
//! was. Chips only move: bankrolls + the house's tray + what is on the felt stays constant, except for chips that
//! players bring in ([`Command::Join`], [`Command::Rebuy`]) or take away ([`Command::Leave`]).

use super::card::{Card, Rank};
use super::checks::{self, TableState};
use super::command::{Action, Command, CommandError, Phase, SeatId};
use super::event::{Event, EventSink, Outcome, Spot};
use super::hand::Cards;
use super::money::Cents;
use super::play;
use super::rng::{Seed, TableRng};
use super::rules::{RuleError, Rules, Surrender};
use super::seat::{Hand, HandState, MAX_HANDS, MAX_SEATS, Seat};
use super::shoe::Shoe;
use super::side::{self, SideBet, SideWin};
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

mod cards;
mod round;
mod saved;

use saved::UncheckedTable;

/// A blackjack table: rules, shoe, seats, hands, the dealer and the house's chips.
///
/// Serializable as a whole, generator included, so a saved round resumes exactly; a loaded table is checked
/// ([`Table::check_consistency`]) before it is accepted, since a save file is input like any other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "UncheckedTable")]
pub struct Table {
    rules: Rules,
    rng: TableRng,
    shoe: Shoe,
    seats: [Seat; MAX_SEATS],
    hands: ArrayVec<Hand, MAX_HANDS>,
    dealer: Cards,
    /// The dealer's second card has been turned (peek tables) or dealt (no-hole-card tables).
    hole_revealed: bool,
    house: Cents,
    phase: Phase,
    round: u64,
    /// The seed the next shoe is dealt from on its own ([`Table::deal_next_shoe_from`]), until it is shuffled.
    #[serde(default)]
    next_shoe: Option<Seed>,
    /// The shoe in play was dealt from a seed of its own: a refill from the tray goes in pack order too.
    #[serde(default)]
    shoe_from_seed: bool,
}

impl Table {
    /// A table with `rules`, whose every card follows from `seed`, and the house's tray holding `house`.
    pub fn new(rules: Rules, seed: Seed, house: Cents) -> Result<Table, RuleError> {
        rules.validate()?;
        if house < Cents::ZERO || house > Cents::MAX_CHIPS {
            return Err(RuleError {
                field: "house_bankroll",
                message: format!(
                    "the house's chips must be between $0 and {}",
                    Cents::MAX_CHIPS
                ),
            });
        }
        Ok(Table {
            shoe: Shoe::new(rules.decks, rules.penetration),
            rng: TableRng::from_seed(seed),
            rules,
            seats: Default::default(),
            hands: ArrayVec::new(),
            dealer: Cards::default(),
            hole_revealed: false,
            house,
            phase: Phase::Betting,
            round: 0,
            next_shoe: None,
            shoe_from_seed: false,
        })
    }

    /// Deals the next shoe from `seed` alone: at its shuffle the cards go back in pack order and the generator
    /// starts again from `seed`, so the shoe's every card follows from the seed and the number of decks
    /// ([`crate::engine::shoe_from_seed`]) and can be dealt again by anyone once the seed is revealed. A casino
    /// commits to the seed's hash before the shoe's first card and reveals the seed after its last.
    pub fn deal_next_shoe_from(&mut self, seed: Seed) {
        self.next_shoe = Some(seed);
    }

    /// The dealer's cards. The second is the hole card, face down until [`Table::hole_revealed`].
    pub fn dealer(&self) -> &Cards {
        &self.dealer
    }

    /// True once the dealer's second card is face up (or dealt, on a no-hole-card table).
    pub fn hole_revealed(&self) -> bool {
        self.hole_revealed
    }

    /// The shoe and discard tray.
    pub fn shoe(&self) -> &Shoe {
        &self.shoe
    }

    /// Rounds dealt so far.
    pub fn round(&self) -> u64 {
        self.round
    }

    /// The table counting on from `rounds` dealt before it opened (a casino table going on from its ledger): its
    /// next round is numbered `rounds + 1`, so every round's number is the one its players are told and the one
    /// its records keep.
    pub fn counting_from(mut self, rounds: u64) -> Table {
        self.round = rounds;
        self
    }

    /// Every physical card: shoe, discard tray, dealer and hands. Each card of the shoe appears exactly once.
    pub fn all_cards(&self) -> impl Iterator<Item = Card> + '_ {
        self.shoe
            .undealt()
            .chain(self.shoe.discards().iter().copied())
            .chain(self.dealer.as_slice().iter().copied())
            .chain(
                self.hands
                    .iter()
                    .flat_map(|h| h.cards.as_slice().iter().copied()),
            )
    }

    /// Sets the next cards out of the shoe, in order, by rank: a practice hand, a tutorial, or a test of a known
    /// deal. Only between rounds; with a burn card on, the first queued card is the one burned.
    pub fn queue_next_cards(&mut self, ranks: &[Rank]) -> Result<(), CommandError> {
        checks::between_rounds(self.phase)?;
        if self.shoe.queue_next(ranks) {
            Ok(())
        } else {
            Err(CommandError::NoCardsLeft)
        }
    }

    /// Sets exactly these cards (rank and suit) to come out of the shoe next, in order: a replay of a recorded
    /// round. Only between rounds; the table should not burn a card.
    pub fn queue_exact_cards(&mut self, cards: &[Card]) -> Result<(), CommandError> {
        checks::between_rounds(self.phase)?;
        if self.shoe.queue_exact(cards) {
            Ok(())
        } else {
            Err(CommandError::NoCardsLeft)
        }
    }

    /// Applies a command and returns the events it caused, or refuses it and changes nothing.
    pub fn apply(&mut self, command: Command) -> Result<Vec<Event>, CommandError> {
        let mut events = Vec::new();
        self.apply_to(command, &mut events)?;
        Ok(events)
    }

    /// Applies a command, writing its events to `sink`; refused commands write nothing and change nothing.
    pub fn apply_to(
        &mut self,
        command: Command,
        sink: &mut impl EventSink,
    ) -> Result<(), CommandError> {
        self.check(command)?;
        self.execute(command, sink);
        Ok(())
    }

    fn execute(&mut self, command: Command, sink: &mut impl EventSink) {
        match command {
            Command::Join { seat, buy_in } => {
                self.seats[usize::from(seat)] = Seat {
                    occupied: true,
                    bankroll: buy_in,
                    ..Seat::default()
                };
                sink.emit(Event::Joined { seat, buy_in });
            }
            Command::Rebuy { seat, amount } => {
                let s = &mut self.seats[usize::from(seat)];
                s.bankroll += amount;
                sink.emit(Event::Rebought {
                    seat,
                    amount,
                    bankroll: s.bankroll,
                });
            }
            Command::Leave { seat } => {
                let s = std::mem::take(&mut self.seats[usize::from(seat)]);
                sink.emit(Event::Left {
                    seat,
                    cash_out: s.chips(),
                });
            }
            Command::Bet { seat, amount } => {
                let s = &mut self.seats[usize::from(seat)];
                s.bankroll += s.bet - amount;
                s.bet = amount;
                sink.emit(Event::BetSet {
                    seat,
                    amount,
                    bankroll: s.bankroll,
                });
            }
            Command::SideBet { seat, bet, amount } => {
                let s = &mut self.seats[usize::from(seat)];
                s.bankroll += s.side.get(bet) - amount;
                s.side.set(bet, amount);
                sink.emit(Event::SideBetSet {
                    seat,
                    bet,
                    amount,
                    bankroll: s.bankroll,
                });
            }
            Command::Deal => self.deal(sink),
            Command::TakeInsurance { seat, amount } => {
                let s = &mut self.seats[usize::from(seat)];
                s.bankroll -= amount;
                s.insurance = amount;
                self.decided(seat, Action::TakeInsurance, sink);
                sink.emit(Event::InsuranceTaken { seat, amount });
                self.after_offer(sink);
            }
            Command::TakeEvenMoney { seat } => {
                self.decided(seat, Action::TakeEvenMoney, sink);
                let index = self.first_hand(seat);
                let wager = self.hands[index].wager;
                self.settle(index, Outcome::EvenMoney, wager, sink);
                self.after_offer(sink);
            }
            Command::DeclineInsurance { seat } | Command::DeclineEvenMoney { seat } => {
                self.decided(
                    seat,
                    command.action().unwrap_or(Action::DeclineInsurance),
                    sink,
                );
                self.after_offer(sink);
            }
            Command::DeclineSurrender { seat } => {
                self.decided(seat, Action::DeclineSurrender, sink);
                self.after_offer(sink);
            }
            Command::Surrender { seat } if self.phase == Phase::EarlySurrender => {
                self.decided(seat, Action::Surrender, sink);
                let index = self.first_hand(seat);
                self.surrender(index, sink);
                self.after_offer(sink);
            }
            Command::Hit { .. } => {
                let index = self.turn_index();
                self.acted(index, Action::Hit, sink);
                self.deal_to_hand(index, sink);
                if !self.finish_if_done(index, sink) {
                    self.next_turn(index + 1, sink);
                }
            }
            Command::Stand { .. } => {
                let index = self.turn_index();
                self.acted(index, Action::Stand, sink);
                self.stand(index, sink);
                self.next_turn(index + 1, sink);
            }
            Command::Double { seat } => {
                let index = self.turn_index();
                let extra = self.hands[index].wager;
                self.seats[usize::from(seat)].bankroll -= extra;
                let hand = &mut self.hands[index];
                hand.wager += extra;
                hand.doubled = true;
                let wager = hand.wager;
                self.acted(index, Action::Double, sink);
                self.emit_at(sink, index, |seat, number| Event::Doubled {
                    seat,
                    hand: number,
                    wager,
                });
                self.deal_to_hand(index, sink);
                if self.finish_if_done(index, sink) {
                    self.stand(index, sink);
                }
                self.next_turn(index + 1, sink);
            }
            Command::Split { .. } => {
                let index = self.turn_index();
                self.acted(index, Action::Split, sink);
                self.split(index, sink);
                if self.hand_needs_no_decision(index, sink) {
                    self.next_turn(index + 1, sink);
                }
            }
            Command::Surrender { .. } => {
                let index = self.turn_index();
                self.acted(index, Action::Surrender, sink);
                self.surrender(index, sink);
                self.next_turn(index + 1, sink);
            }
        }
    }
}

impl TableState for Table {
    fn rules(&self) -> &Rules {
        &self.rules
    }

    fn phase(&self) -> Phase {
        self.phase
    }

    fn seats(&self) -> &[Seat; MAX_SEATS] {
        &self.seats
    }

    fn hands(&self) -> &[Hand] {
        &self.hands
    }

    fn house(&self) -> Cents {
        self.house
    }

    fn cards_available(&self) -> usize {
        self.shoe.available()
    }

    fn upcard(&self) -> Option<Card> {
        self.dealer.as_slice().first().copied()
    }
}
