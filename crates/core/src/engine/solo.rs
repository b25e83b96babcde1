//! One seat of basic strategy against the dealer, without commands or events: the simulator's fast path.
//!
//! It plays the round in the same order as [`Table`](super::table::Table) — same shoe, same generator, the same
//! rule functions from [`play`](super::play) and the same strategy — so with the same seed it deals the same
//! cards and reaches the same results; `tests/solo_matches_table.rs` checks that round by round. What it leaves
//! out is what a simulation does not need: validating commands, writing events, other seats and offers nobody takes
//! (basic strategy never insures).

use super::card::Card;
use super::command::Action;
use super::counter::Counter;
use super::event::Outcome;
use super::hand::Cards;
use super::money::Cents;
use super::play;
use super::rng::{Seed, TableRng};
use super::rules::{RuleError, Rules, Surrender};
use super::seat::{Hand, HandState};
use super::shoe::Shoe;
use super::strategy::BasicStrategy;
use arrayvec::ArrayVec;

/// Who sits in the seat beside the chart: a flat bettor ([`Flat`]) or a card counter ([`Counter`]). The round is
/// compiled once for each, so the flat bettor's rounds carry nothing of the counter's.
pub trait Bettor {
    /// Counts cards: sees each one and bets, insures and plays by the count.
    const COUNTS: bool;
    /// The shoe was shuffled.
    fn shuffled(&mut self) {}
    /// A card came out face up (or was turned).
    fn see(&mut self, _card: Card) {}
    /// Units of the table minimum to bet with `tray` cards in the discard tray.
    fn units(&self, _tray: u32) -> u32 {
        1
    }
    /// Takes insurance with `tray` cards in the discard tray.
    fn insures(&self, _tray: u32) -> bool {
        false
    }
    /// The play for `cards` against `upcard`: `basic` (the chart's), or the index play that overrides it.
    fn play(
        &self,
        basic: Action,
        _cards: &Cards,
        _upcard: Card,
        _tray: u32,
        _allowed: impl Fn(Action) -> bool,
        _without_surrender: impl FnOnce() -> Action,
    ) -> Action {
        basic
    }
}

/// The flat bettor: the table minimum every round, the chart's every play.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flat;

impl Bettor for Flat {
    const COUNTS: bool = false;
}

impl Bettor for Counter {
    const COUNTS: bool = true;

    fn shuffled(&mut self) {
        self.shuffle();
    }

    #[inline]
    fn see(&mut self, card: Card) {
        Counter::see(self, card);
    }

    fn units(&self, tray: u32) -> u32 {
        Counter::units(self, self.true_count(tray))
    }

    fn insures(&self, tray: u32) -> bool {
        self.plan().deviations.insures(self.true_count(tray))
    }

    fn play(
        &self,
        basic: Action,
        cards: &Cards,
        upcard: Card,
        tray: u32,
        allowed: impl Fn(Action) -> bool,
        without_surrender: impl FnOnce() -> Action,
    ) -> Action {
        self.plan().deviations.play(
            basic,
            cards,
            upcard,
            || self.true_count(tray),
            allowed,
            without_surrender,
        )
    }
}

/// A one-seat table played by basic strategy, by a flat bettor (`Solo`) or a counter (`Solo<Counter>`).
#[derive(Clone, Debug)]
pub struct Solo<B: Bettor = Flat> {
    rules: Rules,
    strategy: BasicStrategy,
    rng: TableRng,
    shoe: Shoe,
    hands: ArrayVec<Hand, 4>,
    dealer: Cards,
    bet: Cents,
    /// This round's initial bet (the counter's ramp moves it).
    round_bet: Cents,
    /// The seat's result so far this round.
    net: Cents,
    /// Every round from a freshly shuffled shoe (no cut card: what an exact analysis of the full shoe values).
    fresh_shoe: bool,
    /// Who bets and plays beside the chart.
    bettor: B,
}

impl Solo {
    /// A table with `rules` whose cards follow from `seed`, the seat betting the table minimum every round.
    pub fn new(rules: Rules, seed: Seed) -> Result<Solo, RuleError> {
        rules.validate()?;
        Ok(Solo {
            bet: rules.min_bet,
            round_bet: rules.min_bet,
            strategy: BasicStrategy::for_rules(&rules),
            shoe: Shoe::new(rules.decks, rules.penetration),
            rng: TableRng::from_seed(seed),
            rules,
            hands: ArrayVec::new(),
            dealer: Cards::default(),
            net: Cents::ZERO,
            fresh_shoe: false,
            bettor: Flat,
        })
    }

    /// The seat is a card counter: it counts every card it sees, bets the table minimum times the ramp's units
    /// for the true count, and makes its index plays over the chart.
    pub fn with_counter(self, counter: Counter) -> Solo<Counter> {
        Solo {
            rules: self.rules,
            strategy: self.strategy,
            rng: self.rng,
            shoe: self.shoe,
            hands: self.hands,
            dealer: self.dealer,
            bet: self.bet,
            round_bet: self.round_bet,
            net: self.net,
            fresh_shoe: self.fresh_shoe,
            bettor: counter,
        }
    }
}

impl<B: Bettor> Solo<B> {
    /// The last round's initial bet.
    pub fn initial_bet(&self) -> Cents {
        self.round_bet
    }

    /// Deals every round from a freshly shuffled shoe (as a continuous shuffler nearly does), so that no cut card
    /// shifts the odds: the round's value is then the full shoe's, which the exact engine works out.
    pub fn with_fresh_shoe_each_round(mut self) -> Solo<B> {
        self.fresh_shoe = true;
        self
    }

    /// The shoe and discard tray.
    pub fn shoe(&self) -> &Shoe {
        &self.shoe
    }

    /// The last round's hands, settled.
    pub fn hands(&self) -> &[Hand] {
        &self.hands
    }

    /// The dealer's cards from the last round.
    pub fn dealer(&self) -> &Cards {
        &self.dealer
    }

    /// Plays one round and returns the seat's net result.
    pub fn play_round(&mut self) -> Cents {
        self.clear_table();
        self.net = Cents::ZERO;
        if self.fresh_shoe || self.shoe.needs_shuffle() {
            self.shoe.shuffle();
            self.bettor.shuffled();
            if self.rules.burn_card
                && let Some(card) = self.draw()
            {
                self.shoe.burn(card);
            }
        }
        self.round_bet = self.bet;
        if B::COUNTS {
            let units = self.bettor.units(self.shoe.discarded() as u32);
            self.round_bet = Cents(self.bet.0.saturating_mul(i64::from(units)));
            self.hands[0].wager = self.round_bet;
        }
        self.deal_round();
        // The hole card is seen when the dealer turns it over (or gathers it up).
        if B::COUNTS
            && !self.rules.no_hole_card()
            && let Some(&hole) = self.dealer.as_slice().get(1)
        {
            self.bettor.see(hole);
        }
        self.net
    }

    /// The round from the first card to the settlement.
    fn deal_round(&mut self) {
        let peek = !self.rules.no_hole_card();
        self.deal_to_hand(0);
        self.deal_to_dealer();
        self.deal_to_hand(0);
        if peek {
            self.deal_hole_card();
        }
        if self.hands[0].is_blackjack() {
            self.hands[0].state = HandState::Natural;
        }
        let upcard = self.dealer.as_slice()[0];
        let peeks = peek && play::upcard_may_hide_blackjack(upcard);
        if peeks
            && self.rules.surrender == Surrender::Early
            && self.hands[0].state == HandState::Playing
            && self.strategy.surrenders_early(&self.hands[0].cards, upcard)
        {
            self.surrender(0);
        }
        // Insurance and even money are offered here: basic strategy declines both, a counter takes insurance at its
        // index (on a blackjack that is even money).
        if peeks && upcard.is_ace() && self.rules.insurance {
            self.insure();
        }
        if peeks && self.dealer.is_two_card_21() {
            self.dealer_blackjack();
            return;
        }
        if peek {
            self.pay_natural();
        }
        self.play_hands(upcard);
        self.dealer_turn();
    }

    /// A counter's insurance at its index: half the bet, paid 2 to 1 on a dealer blackjack.
    fn insure(&mut self) {
        if B::COUNTS && self.bettor.insures(self.shoe.discarded() as u32) {
            let insurance = Cents(self.round_bet.0 / 2);
            self.net += if self.dealer.is_two_card_21() {
                Cents(insurance.0 * 2)
            } else {
                -insurance
            };
        }
    }

    fn play_hands(&mut self, upcard: Card) {
        let mut index = 0;
        while index < self.hands.len() {
            if self.hands[index].state != HandState::Playing {
                index += 1;
                continue;
            }
            if self.hands[index].cards.len() == 1 {
                self.deal_to_hand(index);
                if self.needs_no_decision(index) {
                    index += 1;
                    continue;
                }
            }
            let hand = &self.hands[index];
            let allowed = |action| self.allows(hand, action);
            let mut action = self.strategy.play(&hand.cards, upcard, allowed);
            if B::COUNTS {
                action = self.bettor.play(
                    action,
                    &hand.cards,
                    upcard,
                    self.shoe.discarded() as u32,
                    allowed,
                    || {
                        self.strategy.play(&hand.cards, upcard, |a| {
                            a != Action::Surrender && allowed(a)
                        })
                    },
                );
            }
            match action {
                Action::Hit => {
                    self.deal_to_hand(index);
                    if self.can_go_on(index) {
                        continue;
                    }
                }
                Action::Double => {
                    let hand = &mut self.hands[index];
                    hand.wager += hand.wager;
                    hand.doubled = true;
                    self.deal_to_hand(index);
                    if self.can_go_on(index) {
                        self.hands[index].state = HandState::Stood;
                    }
                }
                Action::Split => {
                    self.split(index);
                    if !self.needs_no_decision(index) {
                        continue;
                    }
                }
                Action::Surrender => self.surrender(index),
                _ => self.hands[index].state = HandState::Stood,
            }
            index += 1;
        }
    }

    /// What the table's `check_hand_action` allows, for a seat that can always afford the bet.
    #[inline]
    fn allows(&self, hand: &Hand, action: Action) -> bool {
        let refusal = match action {
            Action::Hit => play::hit_refusal(&self.rules, hand),
            Action::Double => play::double_refusal(&self.rules, hand),
            Action::Split => play::split_refusal(&self.rules, hand, self.hands.len()),
            Action::Surrender => return play::surrender_refusal(&self.rules, hand).is_none(),
            Action::Stand => return true,
            _ => return false,
        };
        refusal.is_none() && self.shoe.available() >= 1
    }

    /// After a split hand's second card: true when it stands on its own or is finished.
    fn needs_no_decision(&mut self, index: usize) -> bool {
        let hand = &self.hands[index];
        if hand.split_aces && !self.rules.hit_split_aces {
            let finished = play::split_ace_is_finished(&self.rules, hand, self.hands.len());
            if finished {
                self.hands[index].state = HandState::Stood;
            }
            return finished;
        }
        !self.can_go_on(index)
    }

    /// After a card: a bust loses at once, 21 stands when the table auto-stands; true while the hand may act.
    fn can_go_on(&mut self, index: usize) -> bool {
        let total = self.hands[index].total();
        if total.is_bust() {
            self.settle(index, Outcome::Bust, -self.hands[index].wager);
            return false;
        }
        if total.value() == 21 && self.rules.auto_stand_on_21 {
            self.hands[index].state = HandState::Stood;
            return false;
        }
        true
    }

    fn split(&mut self, index: usize) {
        let new_hand = self.hands[index].split_off();
        self.hands.insert(index + 1, new_hand);
        self.deal_to_hand(index);
    }

    fn surrender(&mut self, index: usize) {
        if play::surrender_settles_at_once(&self.rules) {
            self.settle(
                index,
                Outcome::Surrender,
                play::surrender_net(self.hands[index].wager),
            );
        } else {
            self.hands[index].state = HandState::Surrendered;
        }
    }

    fn pay_natural(&mut self) {
        if self.hands[0].state == HandState::Natural {
            let net = self.rules.blackjack_pays.winnings(self.hands[0].wager);
            self.settle(0, Outcome::Blackjack, net);
        }
    }

    fn settle(&mut self, index: usize, outcome: Outcome, net: Cents) {
        self.hands[index].state = HandState::Settled(outcome);
        self.net += net;
    }

    fn dealer_blackjack(&mut self) {
        for index in 0..self.hands.len() {
            let hand = &self.hands[index];
            if hand.outcome().is_none() {
                let (outcome, net) = play::against_dealer_blackjack(&self.rules, hand, index > 0);
                self.settle(index, outcome, net);
            }
        }
    }

    fn dealer_turn(&mut self) {
        if self.rules.no_hole_card() && self.hands.iter().any(|h| h.outcome().is_none()) {
            self.deal_to_dealer();
            if self.dealer.is_two_card_21() {
                self.dealer_blackjack();
                return;
            }
            self.pay_natural();
            for index in 0..self.hands.len() {
                if self.hands[index].state == HandState::Surrendered {
                    self.settle(
                        index,
                        Outcome::Surrender,
                        play::surrender_net(self.hands[index].wager),
                    );
                }
            }
        }
        if self.hands.iter().any(|h| h.state == HandState::Stood) {
            while play::dealer_hits(&self.rules, self.dealer.total()) {
                if !self.deal_to_dealer() {
                    break;
                }
            }
            let dealer = self.dealer.total();
            for index in 0..self.hands.len() {
                let hand = &self.hands[index];
                if hand.state == HandState::Stood {
                    let (outcome, net) = play::showdown(hand.total(), dealer, hand.wager);
                    self.settle(index, outcome, net);
                }
            }
        }
    }

    /// The last round's cards go to the discard tray (dealer first, then the hands, as the table does) and the
    /// seat's first hand is made ready for the new bet, in place.
    fn clear_table(&mut self) {
        self.shoe.discard(self.dealer.as_slice());
        self.dealer.clear();
        for hand in &self.hands {
            self.shoe.discard(hand.cards.as_slice());
        }
        self.hands.truncate(1);
        if self.hands.is_empty() {
            self.hands.push(Hand {
                seat: 0,
                cards: Cards::default(),
                wager: self.bet,
                doubled: false,
                from_split: false,
                split_aces: false,
                state: HandState::Playing,
            });
        }
        let hand = &mut self.hands[0];
        hand.cards.clear();
        hand.wager = self.bet;
        (hand.doubled, hand.from_split, hand.split_aces) = (false, false, false);
        hand.state = HandState::Playing;
    }

    #[inline(always)]
    fn draw(&mut self) -> Option<Card> {
        if self.shoe.remaining() == 0 {
            self.shoe.refill_from_discards();
        }
        self.shoe.draw(&mut self.rng).map(|(card, _)| card)
    }

    #[inline(always)]
    fn deal_to_hand(&mut self, index: usize) {
        if let Some(card) = self.draw() {
            self.hands[index].cards.push(card);
            self.seen(card);
        }
    }

    #[inline(always)]
    fn deal_to_dealer(&mut self) -> bool {
        let Some(card) = self.draw() else {
            return false;
        };
        self.dealer.push(card);
        self.seen(card);
        true
    }

    /// The hole card, face down: a counter sees it at the end of the round.
    #[inline(always)]
    fn deal_hole_card(&mut self) {
        if let Some(card) = self.draw() {
            self.dealer.push(card);
        }
    }

    #[inline(always)]
    fn seen(&mut self, card: Card) {
        if B::COUNTS {
            self.bettor.see(card);
        }
    }
}
