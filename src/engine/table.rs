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
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

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
}

/// A table as read from a save, before it is checked.
#[derive(Deserialize)]
struct UncheckedTable {
    rules: Rules,
    rng: TableRng,
    shoe: Shoe,
    seats: [Seat; MAX_SEATS],
    hands: ArrayVec<Hand, MAX_HANDS>,
    dealer: Cards,
    hole_revealed: bool,
    house: Cents,
    phase: Phase,
    round: u64,
}

impl TryFrom<UncheckedTable> for Table {
    type Error = String;

    fn try_from(saved: UncheckedTable) -> Result<Table, String> {
        let table = Table {
            rules: saved.rules,
            rng: saved.rng,
            shoe: saved.shoe,
            seats: saved.seats,
            hands: saved.hands,
            dealer: saved.dealer,
            hole_revealed: saved.hole_revealed,
            house: saved.house,
            phase: saved.phase,
            round: saved.round,
        };
        table.check_consistency()?;
        Ok(table)
    }
}

impl Table {
    /// Checks everything a damaged or hand-edited save could get wrong: the rules, that every card of the shoe is in
    /// exactly one place, that chip amounts are in range, and that hands, seats and the phase agree.
    pub fn check_consistency(&self) -> Result<(), String> {
        self.rules.validate().map_err(|e| format!("rules: {e}"))?;
        if self.shoe.decks() != self.rules.decks {
            return Err(format!(
                "the shoe holds {} decks but the rules say {}",
                self.shoe.decks(),
                self.rules.decks
            ));
        }
        let mut seen = vec![false; self.shoe.total_cards()];
        let mut count = 0;
        for card in self.all_cards() {
            count += 1;
            match seen.get_mut(card.index()) {
                Some(slot) if !*slot => *slot = true,
                Some(_) => return Err(format!("the card {card:?} is in two places")),
                None => return Err(format!("the card {card:?} is not from this shoe")),
            }
        }
        if count != seen.len() {
            return Err(format!(
                "{count} cards are on the table, not {}",
                seen.len()
            ));
        }
        let amounts = self
            .seats
            .iter()
            .flat_map(|s| [s.bankroll, s.bet, s.insurance]);
        let amounts = amounts
            .chain(self.hands.iter().map(|h| h.wager))
            .chain([self.house]);
        if let Some(bad) = amounts
            .clone()
            .find(|&a| a < Cents::ZERO || a > Cents::MAX_CHIPS)
        {
            return Err(format!("the amount {bad} is out of range"));
        }
        let mut previous_seat = 0;
        for hand in &self.hands {
            let seat = self
                .seats
                .get(usize::from(hand.seat))
                .ok_or("a hand belongs to no seat")?;
            let open_at_empty_seat = !seat.occupied && hand.outcome().is_none();
            if open_at_empty_seat || hand.seat < previous_seat || hand.cards.is_empty() {
                return Err(format!("a hand of seat {} is out of place", hand.seat));
            }
            previous_seat = hand.seat;
        }
        for seat in 0..MAX_SEATS as SeatId {
            if self.seat_hands(seat).count() > usize::from(self.rules.max_split_hands) {
                return Err(format!(
                    "seat {seat} holds more hands than the table allows"
                ));
            }
        }
        let deciding = self.seats.iter().any(|s| s.deciding);
        let phase_ok = match self.phase {
            Phase::Betting => !deciding,
            Phase::EarlySurrender | Phase::Insurance => deciding,
            Phase::PlayerTurn { hand } => {
                !deciding
                    && self
                        .hands
                        .get(usize::from(hand))
                        .is_some_and(|h| h.state == HandState::Playing)
            }
        };
        if !phase_ok {
            return Err(format!("the table cannot be in {} as saved", self.phase));
        }
        Ok(())
    }

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
        })
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

    // ----- the round -----

    fn deal(&mut self, sink: &mut impl EventSink) {
        self.clear_table(sink);
        if self.shoe.needs_shuffle() {
            let cards = self.shoe.shuffle();
            sink.emit(Event::Shuffled { cards });
            if self.rules.burn_card
                && let Some(card) = self.draw(sink)
            {
                self.shoe.discard(&[card]);
                sink.emit(Event::Burned);
            }
        }
        self.round += 1;
        sink.emit(Event::RoundStarted { round: self.round });
        checks::open_hands(&mut self.seats, &mut self.hands);
        for pass in 0..2 {
            for index in 0..self.hands.len() {
                self.deal_to_hand(index, sink);
            }
            if pass == 0 || !self.rules.no_hole_card() {
                self.deal_to_dealer(pass == 0, sink);
            }
        }
        for index in 0..self.hands.len() {
            if self.hands[index].is_blackjack() {
                self.hands[index].state = HandState::Natural;
                self.emit_at(sink, index, |seat, hand| Event::Blackjack { seat, hand });
            }
        }
        let upcard_could_be_blackjack = self.upcard().is_some_and(play::upcard_may_hide_blackjack);
        if self.rules.surrender == Surrender::Early
            && !self.rules.no_hole_card()
            && upcard_could_be_blackjack
            && self.open_offer(Phase::EarlySurrender)
        {
            self.phase = Phase::EarlySurrender;
            sink.emit(Event::EarlySurrenderOffered);
            return;
        }
        self.offer_insurance(sink);
    }

    /// Marks the seats an offer goes to as owing a decision. True if any does.
    fn open_offer(&mut self, offer: Phase) -> bool {
        checks::open_offer(&mut self.seats, &self.hands, offer)
    }

    fn offer_insurance(&mut self, sink: &mut impl EventSink) {
        if self.rules.insurance
            && self.upcard().is_some_and(Card::is_ace)
            && self.open_offer(Phase::Insurance)
        {
            self.phase = Phase::Insurance;
            sink.emit(Event::InsuranceOffered);
            return;
        }
        self.peek_and_play(sink);
    }

    fn after_offer(&mut self, sink: &mut impl EventSink) {
        if self.seats.iter().any(|s| s.deciding) {
            return;
        }
        match self.phase {
            Phase::EarlySurrender => self.offer_insurance(sink),
            _ => self.peek_and_play(sink),
        }
    }

    /// The dealer checks for blackjack (peek tables), naturals are paid, and the first hand's turn begins.
    fn peek_and_play(&mut self, sink: &mut impl EventSink) {
        if !self.rules.no_hole_card() {
            let upcard_could_be_blackjack =
                self.upcard().is_some_and(play::upcard_may_hide_blackjack);
            if upcard_could_be_blackjack {
                let blackjack = self.dealer.is_two_card_21();
                sink.emit(Event::DealerChecked { blackjack });
                if blackjack {
                    self.reveal_hole_card(sink);
                    self.dealer_blackjack(sink);
                    return;
                }
            }
            self.settle_insurance(false, sink);
            self.pay_naturals(sink);
        }
        self.next_turn(0, sink);
    }

    /// Gives the turn to the first hand from `from` that still has a decision, dealing split hands their
    /// second card on the way; with none left, the dealer plays.
    fn next_turn(&mut self, from: usize, sink: &mut impl EventSink) {
        for index in from..self.hands.len() {
            if self.hands[index].state != HandState::Playing {
                continue;
            }
            if self.hands[index].cards.len() == 1 {
                self.deal_to_hand(index, sink);
                if self.hand_needs_no_decision(index, sink) {
                    continue;
                }
            }
            self.phase = Phase::PlayerTurn { hand: index as u8 };
            self.emit_at(sink, index, |seat, hand| Event::Turn { seat, hand });
            return;
        }
        self.dealer_turn(sink);
    }

    /// After a split hand gets its second card: split aces that cannot act further, and 21s with auto-stand,
    /// stand on their own. True when the hand is done.
    fn hand_needs_no_decision(&mut self, index: usize, sink: &mut impl EventSink) -> bool {
        let hand = &self.hands[index];
        if hand.split_aces && !self.rules.hit_split_aces {
            let finished =
                play::split_ace_is_finished(&self.rules, hand, self.seat_hands(hand.seat).count());
            if finished {
                self.stand(index, sink);
            }
            return finished;
        }
        !self.finish_if_done(index, sink)
    }

    /// After a card: a bust hand loses at once; 21 stands when the table auto-stands. Returns true while the
    /// hand can still act.
    fn finish_if_done(&mut self, index: usize, sink: &mut impl EventSink) -> bool {
        let total = self.hands[index].total();
        if total.is_bust() {
            self.emit_at(sink, index, |seat, hand| Event::Busted {
                seat,
                hand,
                total,
            });
            let wager = self.hands[index].wager;
            self.settle(index, Outcome::Bust, -wager, sink);
            return false;
        }
        if total.value() == 21 && self.rules.auto_stand_on_21 {
            self.stand(index, sink);
            return false;
        }
        true
    }

    fn stand(&mut self, index: usize, sink: &mut impl EventSink) {
        self.hands[index].state = HandState::Stood;
        self.emit_at(sink, index, |seat, hand| Event::Stood {
            seat,
            hand,
            total: self.hands[index].total(),
        });
    }

    fn split(&mut self, index: usize, sink: &mut impl EventSink) {
        let new_hand = self.hands[index].split_off();
        let (seat, wager) = (new_hand.seat, new_hand.wager);
        self.seats[usize::from(seat)].bankroll -= wager;
        self.hands.insert(index + 1, new_hand);
        self.emit_at(sink, index, |seat, number| Event::Split {
            seat,
            hand: number,
            wager,
        });
        self.deal_to_hand(index, sink);
    }

    fn surrender(&mut self, index: usize, sink: &mut impl EventSink) {
        if play::surrender_settles_at_once(&self.rules) {
            let net = play::surrender_net(self.hands[index].wager);
            self.settle(index, Outcome::Surrender, net, sink);
        } else {
            self.hands[index].state = HandState::Surrendered;
        }
    }

    fn dealer_turn(&mut self, sink: &mut impl EventSink) {
        let unsettled = self.hands.iter().any(|h| h.outcome().is_none())
            || self.seats.iter().any(|s| s.insurance.is_positive());
        if self.rules.no_hole_card() {
            if unsettled {
                self.deal_to_dealer(true, sink);
                self.hole_revealed = true;
                if self.dealer.is_two_card_21() {
                    self.dealer_blackjack(sink);
                    return;
                }
                self.settle_insurance(false, sink);
                self.pay_naturals(sink);
                for index in 0..self.hands.len() {
                    if self.hands[index].state == HandState::Surrendered {
                        let net = play::surrender_net(self.hands[index].wager);
                        self.settle(index, Outcome::Surrender, net, sink);
                    }
                }
            }
        } else {
            self.reveal_hole_card(sink);
        }
        if self.hands.iter().any(|h| h.state == HandState::Stood) {
            while play::dealer_hits(&self.rules, self.dealer.total()) {
                if !self.deal_to_dealer(true, sink) {
                    break;
                }
            }
            let total = self.dealer.total();
            if total.is_bust() {
                sink.emit(Event::DealerBusted { total });
            } else {
                sink.emit(Event::DealerStood { total });
            }
            for index in 0..self.hands.len() {
                let hand = &self.hands[index];
                if hand.state == HandState::Stood {
                    let (outcome, net) = play::showdown(hand.total(), total, hand.wager);
                    self.settle(index, outcome, net, sink);
                }
            }
        }
        self.end_round(sink);
    }

    /// The dealer has blackjack: insurance wins, blackjacks push and every other open hand loses.
    fn dealer_blackjack(&mut self, sink: &mut impl EventSink) {
        sink.emit(Event::DealerBlackjack);
        self.settle_insurance(true, sink);
        for index in 0..self.hands.len() {
            let hand = &self.hands[index];
            if hand.outcome().is_none() {
                let later_split_hand = self.first_hand(hand.seat) != index;
                let (outcome, net) =
                    play::against_dealer_blackjack(&self.rules, hand, later_split_hand);
                self.settle(index, outcome, net, sink);
            }
        }
        self.end_round(sink);
    }

    fn pay_naturals(&mut self, sink: &mut impl EventSink) {
        for index in 0..self.hands.len() {
            if self.hands[index].state == HandState::Natural {
                let net = self.rules.blackjack_pays.winnings(self.hands[index].wager);
                self.settle(index, Outcome::Blackjack, net, sink);
            }
        }
    }

    fn settle_insurance(&mut self, dealer_blackjack: bool, sink: &mut impl EventSink) {
        if self.seats.iter().all(|s| s.insurance == Cents::ZERO) {
            return;
        }
        for seat in 0..MAX_SEATS {
            let amount = std::mem::take(&mut self.seats[seat].insurance);
            if !amount.is_positive() {
                continue;
            }
            let net = if dealer_blackjack {
                Cents(amount.0 * 2)
            } else {
                -amount
            };
            self.move_chips(seat, amount, net);
            sink.emit(Event::InsuranceSettled {
                seat: seat as SeatId,
                amount,
                net,
            });
        }
    }

    /// Settles a hand: its wager leaves the felt, `net` moves between the house and the player.
    fn settle(&mut self, index: usize, outcome: Outcome, net: Cents, sink: &mut impl EventSink) {
        let hand = &mut self.hands[index];
        hand.state = HandState::Settled(outcome);
        let (seat, wager) = (hand.seat, hand.wager);
        self.move_chips(usize::from(seat), wager, net);
        self.emit_at(sink, index, |seat, hand| Event::Settled {
            seat,
            hand,
            outcome,
            wager,
            net,
        });
    }

    /// `stake` leaves the felt; the player gets it back plus `net` (a loss when negative) from the house.
    fn move_chips(&mut self, seat: usize, stake: Cents, net: Cents) {
        self.seats[seat].bankroll += stake + net;
        self.house -= net;
    }

    fn end_round(&mut self, sink: &mut impl EventSink) {
        self.phase = Phase::Betting;
        sink.emit(Event::RoundEnded { round: self.round });
    }

    fn clear_table(&mut self, sink: &mut impl EventSink) {
        let mut count = self.dealer.len();
        self.shoe.discard(self.dealer.as_slice());
        self.dealer.clear();
        for hand in self.hands.drain(..) {
            count += hand.cards.len();
            self.shoe.discard(hand.cards.as_slice());
        }
        self.hole_revealed = false;
        if count > 0 {
            sink.emit(Event::TableCleared {
                cards: count as u32,
            });
        }
    }

    // ----- cards -----

    #[inline(always)]
    fn draw(&mut self, sink: &mut impl EventSink) -> Option<Card> {
        if self.shoe.remaining() == 0 {
            let cards = self.shoe.refill_from_discards();
            sink.emit(Event::DiscardsShuffledIn { cards });
        }
        let (card, cut_now) = self.shoe.draw(&mut self.rng)?;
        if cut_now {
            sink.emit(Event::CutCardOut);
        }
        Some(card)
    }

    #[inline(always)]
    fn deal_to_hand(&mut self, index: usize, sink: &mut impl EventSink) {
        // Every command that deals to a hand has checked that a card is available.
        if let Some(card) = self.draw(sink) {
            self.hands[index].cards.push(card);
            self.emit_at(sink, index, |seat, hand| Event::Dealt {
                to: Spot::Player { seat, hand },
                card,
            });
        }
    }

    /// Deals the dealer a card; the second card on a peek table goes face down. False if no card is left.
    #[inline(always)]
    fn deal_to_dealer(&mut self, face_up: bool, sink: &mut impl EventSink) -> bool {
        let Some(card) = self.draw(sink) else {
            return false;
        };
        self.dealer.push(card);
        sink.emit(if face_up {
            Event::Dealt {
                to: Spot::Dealer,
                card,
            }
        } else {
            Event::HoleCardDealt
        });
        true
    }

    fn reveal_hole_card(&mut self, sink: &mut impl EventSink) {
        if !self.hole_revealed
            && let Some(&card) = self.dealer.as_slice().get(1)
        {
            self.hole_revealed = true;
            sink.emit(Event::HoleCardRevealed { card });
        }
    }

    // ----- bookkeeping -----

    fn turn_index(&self) -> usize {
        match self.phase {
            Phase::PlayerTurn { hand } => usize::from(hand),
            _ => unreachable!("checked: a hand is in turn"),
        }
    }

    fn first_hand(&self, seat: SeatId) -> usize {
        checks::first_hand(&self.hands, seat)
    }

    /// Emits an event about the hand at `index`; the seat and hand number are only worked out when the sink keeps
    /// events, so simulations pay nothing for them.
    #[inline(always)]
    fn emit_at<S: EventSink>(
        &self,
        sink: &mut S,
        index: usize,
        event: impl FnOnce(SeatId, u8) -> Event,
    ) {
        if S::RECORDS {
            let (seat, hand) = checks::spot_of(&self.hands, index);
            sink.emit(event(seat, hand));
        }
    }

    fn acted(&self, index: usize, action: Action, sink: &mut impl EventSink) {
        self.emit_at(sink, index, |seat, hand| Event::Acted {
            seat,
            hand,
            action,
        });
    }

    fn decided(&mut self, seat: SeatId, action: Action, sink: &mut impl EventSink) {
        self.seats[usize::from(seat)].deciding = false;
        sink.emit(Event::Acted {
            seat,
            hand: 0,
            action,
        });
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
