//! The table seen from a seat: everything a player (or a spectator) at a casino table can see, and nothing else.
//!
//! A [`TableView`] holds the rules and limits, the seats with their bankrolls and bets, every hand's cards (all face
//! up), the dealer's face-up cards and whether a hole card lies face down, the shoe's count of cards and its cut
//! card, the discard tray's count, the round, the phase and whose turn it is. It has no shoe order, no generator and
//! no face of a face-down card: those stay in the host's [`Table`]. Since a table's events carry only what is seen
//! (see [`Event`]), a view made once with [`Table::view`] is kept up to date by [`TableView::apply`] on the events
//! that follow, and it answers the same questions as the table ([`TableState`]: legal actions, whose turn, the
//! insurance on offer) with the same checks.

use super::checks::{self, TableState};
use super::command::{Phase, SeatId};
use super::event::{Event, Spot};
use super::hand::Cards;
use super::money::Cents;
use super::play;
use super::rules::Rules;
use super::seat::{Hand, HandState, MAX_HANDS, MAX_SEATS, Seat};
use super::shoe::Shoe;
use super::table::Table;
use arrayvec::ArrayVec;
use serde::{Deserialize, Serialize};

/// Who is looking at the table: the player in a seat, or someone watching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Viewer {
    /// The player sitting at this seat (0 = first base).
    Seat(SeatId),
    /// Someone watching, with no seat.
    Spectator,
}

/// The dealer's side of the felt as everyone sees it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealerView {
    /// The face-up cards, in the order they lie: the upcard first, the hole card second once it is turned.
    pub cards: Cards,
    /// A hole card lies face down beside the upcard.
    pub hole_down: bool,
}

/// The shoe and the discard tray as everyone sees them: how many cards, never which.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShoeView {
    /// Decks in the shoe.
    pub decks: u8,
    /// Cards still in the shoe.
    pub remaining: u32,
    /// Cards in the discard tray.
    pub discarded: u32,
    /// The cut card sits in front of this many cards.
    pub cut_at: u32,
    /// The cut card has come out (or the shoe is yet to be shuffled): the next round starts with a shuffle.
    pub cut_card_out: bool,
}

impl ShoeView {
    /// Every card of the shoe and tray together.
    pub fn total_cards(&self) -> usize {
        usize::from(self.decks) * 52
    }

    /// Cards that could still be dealt this round: the shoe, plus the discards it would be refilled from.
    pub fn available(&self) -> usize {
        (self.remaining + self.discarded) as usize
    }

    /// Cards still in front of the cut card (0 once it is out).
    pub fn cards_before_cut(&self) -> usize {
        if self.cut_card_out {
            0
        } else {
            self.remaining.saturating_sub(self.cut_at) as usize
        }
    }

    /// A card left the shoe.
    fn draw(&mut self) -> Result<(), StreamError> {
        self.remaining = self
            .remaining
            .checked_sub(1)
            .ok_or(StreamError("a card was dealt from an empty shoe"))?;
        Ok(())
    }
}

impl Shoe {
    /// What everyone sees of the shoe.
    pub fn view(&self) -> ShoeView {
        ShoeView {
            decks: self.decks(),
            remaining: self.remaining() as u32,
            discarded: self.discarded() as u32,
            cut_at: self.cut_at(),
            cut_card_out: self.needs_shuffle(),
        }
    }
}

/// The table from one seat (or from the rail): what anyone there can see, kept up to date from events.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TableView {
    viewer: Viewer,
    rules: Rules,
    seats: [Seat; MAX_SEATS],
    hands: ArrayVec<Hand, MAX_HANDS>,
    dealer: DealerView,
    shoe: ShoeView,
    house: Cents,
    phase: Phase,
    round: u64,
}

/// An event that cannot follow the view it was applied to: the stream is out of order, has a gap, or was not made
/// by a table. The view is left as it was before the event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the event does not fit the table as seen: {0}")]
pub struct StreamError(pub &'static str);

impl Table {
    /// The table as `viewer` sees it now.
    pub fn view(&self, viewer: Viewer) -> TableView {
        let dealer = self.dealer();
        let hole_down = !self.rules().no_hole_card() && !self.hole_revealed() && dealer.len() >= 2;
        let mut shown = Cards::default();
        for (at, &card) in dealer.as_slice().iter().enumerate() {
            if !(hole_down && at == 1) {
                shown.push(card);
            }
        }
        TableView {
            viewer,
            rules: self.rules().clone(),
            seats: self.seats().clone(),
            hands: self.hands().iter().cloned().collect(),
            dealer: DealerView {
                cards: shown,
                hole_down,
            },
            shoe: self.shoe().view(),
            house: self.house(),
            phase: self.phase(),
            round: self.round(),
        }
    }
}

impl TableView {
    /// Who is looking.
    pub fn viewer(&self) -> Viewer {
        self.viewer
    }

    /// The viewer's seat, unless they are watching.
    pub fn my_seat(&self) -> Option<SeatId> {
        match self.viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        }
    }

    /// From now on the table is seen by `viewer` (a player who takes another seat, or gets up to watch).
    pub fn set_viewer(&mut self, viewer: Viewer) {
        self.viewer = viewer;
    }

    /// The dealer's face-up cards and whether a hole card is down.
    pub fn dealer(&self) -> &DealerView {
        &self.dealer
    }

    /// The shoe's and the tray's counts.
    pub fn shoe(&self) -> &ShoeView {
        &self.shoe
    }

    /// Rounds dealt so far.
    pub fn round(&self) -> u64 {
        self.round
    }

    /// Follows the table through one of its events. An event that cannot follow this view changes nothing and
    /// says what did not fit.
    pub fn apply(&mut self, event: &Event) -> Result<(), StreamError> {
        let mut next = self.clone();
        next.follow(event)?;
        *self = next;
        Ok(())
    }

    /// [`TableView::apply`] without keeping the view as it was when the event does not fit (then the view is
    /// half-changed and must be dropped): for followers that give up on a view at its first error, saving the copy.
    pub fn apply_or_spoil(&mut self, event: &Event) -> Result<(), StreamError> {
        self.follow(event)
    }

    fn follow(&mut self, event: &Event) -> Result<(), StreamError> {
        match *event {
            Event::Joined { seat, buy_in } => {
                *self.seat(seat)? = Seat {
                    occupied: true,
                    bankroll: buy_in,
                    ..Seat::default()
                };
            }
            Event::Rebought { seat, bankroll, .. } => self.seat(seat)?.bankroll = bankroll,
            Event::Left { seat, .. } => *self.seat(seat)? = Seat::default(),
            Event::BetSet {
                seat,
                amount,
                bankroll,
            } => {
                let s = self.seat(seat)?;
                s.bet = amount;
                s.bankroll = bankroll;
            }
            Event::SideBetSet {
                seat,
                bet,
                amount,
                bankroll,
            } => {
                let s = self.seat(seat)?;
                s.side.set(bet, amount);
                s.bankroll = bankroll;
            }
            Event::SideBetSettled {
                seat,
                bet,
                stake,
                net,
                ..
            } => {
                let s = self.seat(seat)?;
                if s.side_in_play.get(bet) != stake {
                    return Err(StreamError(
                        "a side bet was settled that was not on the felt",
                    ));
                }
                s.side_in_play.set(bet, Cents::ZERO);
                s.bankroll += stake + net;
                self.house -= net;
            }
            Event::TableCleared { cards } => {
                self.dealer = DealerView::default();
                self.hands.clear();
                self.shoe.discarded += cards;
            }
            Event::Shuffled { cards } => {
                self.shoe.remaining = cards;
                self.shoe.discarded = 0;
                self.shoe.cut_card_out = false;
            }
            Event::Burned => {
                self.shoe.draw()?;
                self.shoe.discarded += 1;
            }
            Event::CutCardOut => self.shoe.cut_card_out = true,
            Event::DiscardsShuffledIn { cards } => {
                self.shoe.discarded = self
                    .shoe
                    .discarded
                    .checked_sub(cards)
                    .ok_or(StreamError("more discards went back in than the tray held"))?;
                self.shoe.remaining += cards;
                self.shoe.cut_card_out = true;
            }
            Event::RoundStarted { round } => {
                if !self.hands.is_empty() {
                    return Err(StreamError(
                        "a round started before the last one was cleared",
                    ));
                }
                self.round = round;
                checks::open_hands(&mut self.seats, &mut self.hands);
            }
            Event::Dealt { to, card } => {
                self.shoe.draw()?;
                let cards = match to {
                    Spot::Dealer => &mut self.dealer.cards,
                    Spot::Player { seat, hand } => &mut self.hand(seat, hand)?.cards,
                };
                if cards.len() >= super::hand::MAX_HAND_CARDS {
                    return Err(StreamError("a hand was dealt more cards than one can hold"));
                }
                cards.push(card);
            }
            Event::HoleCardDealt => {
                self.shoe.draw()?;
                self.dealer.hole_down = true;
            }
            Event::Blackjack { seat, hand } => self.hand(seat, hand)?.state = HandState::Natural,
            Event::EarlySurrenderOffered => self.open_offer(Phase::EarlySurrender),
            Event::InsuranceOffered => self.open_offer(Phase::Insurance),
            Event::Acted { seat, hand, action } => {
                if matches!(self.phase, Phase::EarlySurrender | Phase::Insurance) {
                    self.seat(seat)?.deciding = false;
                }
                // A surrender on a no-hole-card table waits for the dealer's second card before it is settled.
                if action == super::command::Action::Surrender
                    && !play::surrender_settles_at_once(&self.rules)
                {
                    self.hand(seat, hand)?.state = HandState::Surrendered;
                }
            }
            Event::InsuranceTaken { seat, amount } => {
                let s = self.seat(seat)?;
                s.bankroll -= amount;
                s.insurance = amount;
            }
            Event::HoleCardRevealed { card } => {
                if !self.dealer.hole_down {
                    return Err(StreamError("a hole card was turned that was never dealt"));
                }
                self.dealer.hole_down = false;
                self.dealer.cards.push(card);
            }
            Event::InsuranceSettled { seat, amount, net } => {
                let s = self.seat(seat)?;
                s.insurance = Cents::ZERO;
                s.bankroll += amount + net;
                self.house -= net;
            }
            Event::Turn { seat, hand } => {
                let index = self.index(seat, hand)?;
                self.phase = Phase::PlayerTurn { hand: index as u8 };
            }
            Event::Split { seat, hand, wager } => {
                let index = self.index(seat, hand)?;
                if self.hands.is_full() {
                    return Err(StreamError("a split made more hands than a table holds"));
                }
                let new_hand = self.hands[index].split_off();
                self.hands.insert(index + 1, new_hand);
                self.seat(seat)?.bankroll -= wager;
            }
            Event::Doubled { seat, hand, wager } => {
                let h = self.hand(seat, hand)?;
                let extra = wager - h.wager;
                h.wager = wager;
                h.doubled = true;
                self.seat(seat)?.bankroll -= extra;
            }
            Event::Stood { seat, hand, .. } => self.hand(seat, hand)?.state = HandState::Stood,
            Event::Settled {
                seat,
                hand,
                outcome,
                wager,
                net,
            } => {
                self.hand(seat, hand)?.state = HandState::Settled(outcome);
                self.seat(seat)?.bankroll += wager + net;
                self.house -= net;
            }
            Event::RoundEnded { .. } => self.phase = Phase::Betting,
            Event::DealerChecked { .. }
            | Event::DealerBlackjack
            | Event::Busted { .. }
            | Event::DealerStood { .. }
            | Event::DealerBusted { .. } => {}
        }
        Ok(())
    }

    /// The offer goes to the same seats the table asks.
    fn open_offer(&mut self, offer: Phase) {
        checks::open_offer(&mut self.seats, &self.hands, offer);
        self.phase = offer;
    }

    fn seat(&mut self, seat: SeatId) -> Result<&mut Seat, StreamError> {
        self.seats
            .get_mut(usize::from(seat))
            .ok_or(StreamError("an event names a seat the table does not have"))
    }

    fn index(&self, seat: SeatId, hand: u8) -> Result<usize, StreamError> {
        checks::hand_index(&self.hands, seat, hand)
            .ok_or(StreamError("an event names a hand the table does not have"))
    }

    fn hand(&mut self, seat: SeatId, hand: u8) -> Result<&mut Hand, StreamError> {
        let index = self.index(seat, hand)?;
        Ok(&mut self.hands[index])
    }
}

impl TableState for TableView {
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

    fn upcard(&self) -> Option<super::card::Card> {
        self.dealer.cards.as_slice().first().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Card, Command, Rank, Suit, seed_from_number};

    fn table() -> Table {
        let rules = Rules {
            burn_card: false,
            ..Rules::default()
        };
        let mut table =
            Table::new(rules, seed_from_number(5), Cents::units(100_000)).expect("valid rules");
        table
            .apply(Command::Join {
                seat: 2,
                buy_in: Cents::units(500),
            })
            .expect("a free seat");
        table
    }

    #[test]
    fn an_event_that_does_not_fit_changes_nothing_and_says_why() {
        let mut view = table().view(Viewer::Seat(2));
        let before = view.clone();
        let card = Card::new(0, Suit::Spades, Rank::Ace);
        let strays = [
            Event::Dealt {
                to: Spot::Player { seat: 2, hand: 0 },
                card,
            },
            Event::HoleCardRevealed { card },
            Event::Joined {
                seat: 9,
                buy_in: Cents::units(1),
            },
            Event::Split {
                seat: 2,
                hand: 1,
                wager: Cents::units(5),
            },
        ];
        for stray in strays {
            let error = view.apply(&stray).expect_err("a stray event");
            assert!(
                error.to_string().starts_with("the event does not fit"),
                "{error}"
            );
            assert_eq!(view, before, "{stray:?} changed the view");
        }
    }

    #[test]
    fn the_hole_card_is_down_in_every_view_until_it_turns() {
        let mut table = table();
        table
            .queue_next_cards(&[Rank::Nine, Rank::Six, Rank::Ten, Rank::Seven, Rank::Two])
            .expect("cards in the shoe");
        table
            .apply(Command::Bet {
                seat: 2,
                amount: Cents::units(10),
            })
            .expect("a bet");
        table.apply(Command::Deal).expect("a deal");
        for viewer in [Viewer::Seat(2), Viewer::Seat(0), Viewer::Spectator] {
            let view = table.view(viewer);
            assert!(view.dealer().hole_down);
            assert_eq!(view.dealer().cards.len(), 1, "only the upcard shows");
            assert_eq!(view.upcard().map(|c| c.rank()), Some(Rank::Six));
        }
        let events = table.apply(Command::Stand { seat: 2 }).expect("a stand");
        assert!(events.contains(&Event::HoleCardRevealed {
            card: table.dealer().as_slice()[1]
        }));
        let view = table.view(Viewer::Spectator);
        assert!(!view.dealer().hole_down);
        assert_eq!(view.dealer().cards, *table.dealer());
    }
}
