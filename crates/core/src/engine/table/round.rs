//! The round's transitions: the deal, the offers (insurance, early surrender), the turns, the dealer's play,
//! settlement and the end of the round.

use super::*;

impl Table {
    pub(super) fn deal(&mut self, sink: &mut impl EventSink) {
        self.clear_table(sink);
        if self.shoe.needs_shuffle() {
            let cards = self.shoe.shuffle();
            self.shoe_from_seed = false;
            if let Some(seed) = self.next_shoe.take() {
                self.shoe.in_pack_order();
                self.rng = TableRng::from_seed(seed);
                self.shoe_from_seed = true;
            }
            sink.emit(Event::Shuffled { cards });
            if self.rules.burn_card
                && let Some(card) = self.draw(sink)
            {
                self.shoe.burn(card);
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
        self.settle_first_cards_side_bets(sink);
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
    pub(super) fn open_offer(&mut self, offer: Phase) -> bool {
        checks::open_offer(&mut self.seats, &self.hands, offer)
    }

    pub(super) fn offer_insurance(&mut self, sink: &mut impl EventSink) {
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

    pub(super) fn after_offer(&mut self, sink: &mut impl EventSink) {
        if self.seats.iter().any(|s| s.deciding) {
            return;
        }
        match self.phase {
            Phase::EarlySurrender => self.offer_insurance(sink),
            _ => self.peek_and_play(sink),
        }
    }

    /// The dealer checks for blackjack (peek tables), naturals are paid, and the first hand's turn begins.
    pub(super) fn peek_and_play(&mut self, sink: &mut impl EventSink) {
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
            self.settle_ladies_waiting(false, sink);
            self.settle_insurance(false, sink);
            self.pay_naturals(sink);
        }
        self.next_turn(0, sink);
    }

    /// Gives the turn to the first hand from `from` that still has a decision, dealing split hands their
    /// second card on the way; with none left, the dealer plays.
    pub(super) fn next_turn(&mut self, from: usize, sink: &mut impl EventSink) {
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
    pub(super) fn hand_needs_no_decision(
        &mut self,
        index: usize,
        sink: &mut impl EventSink,
    ) -> bool {
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
    pub(super) fn finish_if_done(&mut self, index: usize, sink: &mut impl EventSink) -> bool {
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

    pub(super) fn stand(&mut self, index: usize, sink: &mut impl EventSink) {
        self.hands[index].state = HandState::Stood;
        self.emit_at(sink, index, |seat, hand| Event::Stood {
            seat,
            hand,
            total: self.hands[index].total(),
        });
    }

    pub(super) fn split(&mut self, index: usize, sink: &mut impl EventSink) {
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

    pub(super) fn surrender(&mut self, index: usize, sink: &mut impl EventSink) {
        if play::surrender_settles_at_once(&self.rules) {
            let net = play::surrender_net(self.hands[index].wager);
            self.settle(index, Outcome::Surrender, net, sink);
        } else {
            self.hands[index].state = HandState::Surrendered;
        }
    }

    pub(super) fn dealer_turn(&mut self, sink: &mut impl EventSink) {
        // A side bet still on the felt waits for the dealer's hand (Buster) or its blackjack (Lucky Ladies).
        let unsettled = self.hands.iter().any(|h| h.outcome().is_none())
            || self
                .seats
                .iter()
                .any(|s| s.insurance.is_positive() || !s.side_in_play.is_empty());
        if self.rules.no_hole_card() {
            if unsettled {
                self.deal_to_dealer(true, sink);
                self.hole_revealed = true;
                if self.dealer.is_two_card_21() {
                    self.dealer_blackjack(sink);
                    return;
                }
                self.settle_ladies_waiting(false, sink);
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
        let busters = self
            .seats
            .iter()
            .any(|s| s.side_in_play.get(SideBet::Buster).is_positive());
        // The dealer plays the hand out for a hand that stood, and for a Buster bet even when every hand is done.
        if busters || self.hands.iter().any(|h| h.state == HandState::Stood) {
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
            let busted = side::buster(self.dealer.as_slice());
            self.settle_side_bets(SideBet::Buster, |_| busted, sink);
        }
        self.end_round(sink);
    }

    /// The dealer has blackjack: insurance wins, blackjacks push and every other open hand loses.
    pub(super) fn dealer_blackjack(&mut self, sink: &mut impl EventSink) {
        sink.emit(Event::DealerBlackjack);
        self.settle_ladies_waiting(true, sink);
        self.settle_side_bets(SideBet::Buster, |_| None, sink);
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

    pub(super) fn pay_naturals(&mut self, sink: &mut impl EventSink) {
        for index in 0..self.hands.len() {
            if self.hands[index].state == HandState::Natural {
                let net = self.rules.blackjack_pays.winnings(self.hands[index].wager);
                self.settle(index, Outcome::Blackjack, net, sink);
            }
        }
    }

    pub(super) fn settle_insurance(&mut self, dealer_blackjack: bool, sink: &mut impl EventSink) {
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
    pub(super) fn settle(
        &mut self,
        index: usize,
        outcome: Outcome,
        net: Cents,
        sink: &mut impl EventSink,
    ) {
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
    pub(super) fn move_chips(&mut self, seat: usize, stake: Cents, net: Cents) {
        self.seats[seat].bankroll += stake + net;
        self.house -= net;
    }

    /// Settles the side bets that the first cards decide: 21+3 and Perfect Pairs, and Lucky Ladies unless it is two
    /// queens of hearts (whose pay waits for the dealer's blackjack, [`Table::settle_ladies_waiting`]).
    pub(super) fn settle_first_cards_side_bets(&mut self, sink: &mut impl EventSink) {
        if self.seats.iter().all(|s| s.side_in_play.is_empty()) {
            return;
        }
        let Some(up) = self.upcard() else {
            return;
        };
        // Each seat's first two cards, where it has a side bet.
        let firsts: [Option<[Card; 2]>; MAX_SEATS] = std::array::from_fn(|seat| {
            if self.seats[seat].side_in_play.is_empty() {
                return None;
            }
            match *self.hands[self.first_hand(seat as SeatId)].cards.as_slice() {
                [a, b] => Some([a, b]),
                _ => None,
            }
        });
        self.settle_side_bets(
            SideBet::TwentyOnePlusThree,
            |seat| firsts[seat].and_then(|[a, b]| side::three_card([a, b, up])),
            sink,
        );
        self.settle_side_bets(
            SideBet::PerfectPairs,
            |seat| firsts[seat].and_then(side::pair),
            sink,
        );
        for (seat, first) in firsts.iter().enumerate() {
            let win = first.and_then(|cards| side::twenty(cards, false));
            if win != Some(SideWin::QueensOfHearts) {
                self.settle_side_bet(seat, SideBet::LuckyLadies, win, sink);
            }
        }
    }

    /// Lucky Ladies still on the felt are two queens of hearts: paid now that the dealer's blackjack is known.
    pub(super) fn settle_ladies_waiting(&mut self, blackjack: bool, sink: &mut impl EventSink) {
        let win = if blackjack {
            SideWin::QueensOfHeartsAndDealerBlackjack
        } else {
            SideWin::QueensOfHearts
        };
        self.settle_side_bets(SideBet::LuckyLadies, |_| Some(win), sink);
    }

    /// Settles every seat's `bet` still on the felt with the hand `win` names for the seat.
    pub(super) fn settle_side_bets(
        &mut self,
        bet: SideBet,
        win: impl Fn(usize) -> Option<SideWin>,
        sink: &mut impl EventSink,
    ) {
        for seat in 0..MAX_SEATS {
            self.settle_side_bet(seat, bet, win(seat), sink);
        }
    }

    /// Settles `seat`'s stake on `bet`, if it has one: the stake leaves the felt, the pay (or the loss) moves.
    fn settle_side_bet(
        &mut self,
        seat: usize,
        bet: SideBet,
        win: Option<SideWin>,
        sink: &mut impl EventSink,
    ) {
        let stake = self.seats[seat].side_in_play.get(bet);
        if !stake.is_positive() {
            return;
        }
        self.seats[seat].side_in_play.set(bet, Cents::ZERO);
        let net = self.rules.side_bets.returned(bet, stake, win) - stake;
        self.move_chips(seat, stake, net);
        let win = win.filter(|_| net.is_positive());
        sink.emit(Event::SideBetSettled {
            seat: seat as SeatId,
            bet,
            stake,
            win,
            net,
        });
    }

    pub(super) fn end_round(&mut self, sink: &mut impl EventSink) {
        debug_assert!(
            self.seats.iter().all(|s| s.side_in_play.is_empty()),
            "every side bet is settled by the round's end"
        );
        self.phase = Phase::Betting;
        sink.emit(Event::RoundEnded { round: self.round });
    }

    pub(super) fn clear_table(&mut self, sink: &mut impl EventSink) {
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
}
