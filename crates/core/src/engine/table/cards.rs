//! Cards out of the shoe to the hands and the dealer, the hole card turned, and the events' bookkeeping.

use super::*;

impl Table {
    #[inline(always)]
    pub(super) fn draw(&mut self, sink: &mut impl EventSink) -> Option<Card> {
        if self.shoe.remaining() == 0 {
            let cards = self.shoe.refill_from_discards();
            if self.shoe_from_seed {
                self.shoe.in_pack_order();
            }
            sink.emit(Event::DiscardsShuffledIn { cards });
        }
        let (card, cut_now) = self.shoe.draw(&mut self.rng)?;
        if cut_now {
            sink.emit(Event::CutCardOut);
        }
        Some(card)
    }

    #[inline(always)]
    pub(super) fn deal_to_hand(&mut self, index: usize, sink: &mut impl EventSink) {
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
    pub(super) fn deal_to_dealer(&mut self, face_up: bool, sink: &mut impl EventSink) -> bool {
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

    pub(super) fn reveal_hole_card(&mut self, sink: &mut impl EventSink) {
        if !self.hole_revealed
            && let Some(&card) = self.dealer.as_slice().get(1)
        {
            self.hole_revealed = true;
            sink.emit(Event::HoleCardRevealed { card });
        }
    }

    // ----- bookkeeping -----

    pub(super) fn turn_index(&self) -> usize {
        match self.phase {
            Phase::PlayerTurn { hand } => usize::from(hand),
            _ => unreachable!("checked: a hand is in turn"),
        }
    }

    pub(super) fn first_hand(&self, seat: SeatId) -> usize {
        checks::first_hand(&self.hands, seat)
    }

    /// Emits an event about the hand at `index`; the seat and hand number are only worked out when the sink keeps
    /// events, so simulations pay nothing for them.
    #[inline(always)]
    pub(super) fn emit_at<S: EventSink>(
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

    pub(super) fn acted(&self, index: usize, action: Action, sink: &mut impl EventSink) {
        self.emit_at(sink, index, |seat, hand| Event::Acted {
            seat,
            hand,
            action,
        });
    }

    pub(super) fn decided(&mut self, seat: SeatId, action: Action, sink: &mut impl EventSink) {
        self.seats[usize::from(seat)].deciding = false;
        sink.emit(Event::Acted {
            seat,
            hand: 0,
            action,
        });
    }
}
