//! Showing what the table decided, one beat at a time: each event spawns or moves cards and hands, moves chips
//! between bankrolls, bet circles and the dealer's tray, counts the shoe and the tray, and moves the round's phase.

use super::entities::{card_entity, hand_entity};
use super::*;
use crate::engine::Spot;
use crate::engine::side::SideBet;
use crate::game::model::screen::RoundPhase;
use crate::game::model::seen::Seen;
use bevy::ecs::system::SystemParam;

/// How long an event holds the table, in seconds at normal speed.
fn beat(event: &Event) -> f32 {
    match event {
        Event::Dealt { .. } | Event::HoleCardDealt => 0.45,
        Event::HoleCardRevealed { .. } => 0.6,
        Event::Shuffled { .. } => 1.2,
        Event::Split { .. } => 0.5,
        Event::Settled { .. } | Event::InsuranceSettled { .. } => 0.5,
        Event::Blackjack { .. } | Event::Busted { .. } | Event::DealerBusted { .. } => 0.6,
        Event::BetSet { .. } | Event::TableCleared { .. } => 0.3,
        _ => 0.1,
    }
}

/// The round phase an event moves the table into, if it does.
fn phase_after(event: &Event) -> Option<RoundPhase> {
    match event {
        Event::RoundStarted { .. } => Some(RoundPhase::Dealing),
        Event::Turn { .. } | Event::InsuranceOffered | Event::EarlySurrenderOffered => {
            Some(RoundPhase::PlayerTurn)
        }
        Event::HoleCardRevealed { .. } | Event::DealerChecked { blackjack: true } => {
            Some(RoundPhase::DealerTurn)
        }
        Event::DealerStood { .. } | Event::DealerBusted { .. } | Event::DealerBlackjack => {
            Some(RoundPhase::Resolution)
        }
        Event::RoundEnded { .. } => Some(RoundPhase::Betting),
        _ => None,
    }
}

/// The table's entities as `present` changes them.
#[derive(SystemParam)]
pub(crate) struct Felt<'w, 's> {
    commands: Commands<'w, 's>,
    shoe: Query<'w, 's, &'static mut ShoeStack>,
    tray: Query<'w, 's, &'static mut DiscardTray>,
    house: Query<'w, 's, &'static mut DealerTray>,
    circles: Query<'w, 's, &'static mut BetCircle>,
    sides: Query<'w, 's, &'static mut SideSpot>,
    bankrolls: Query<'w, 's, &'static mut Bankroll>,
    cards: Query<'w, 's, (Entity, &'static mut CardView)>,
    hands: Query<'w, 's, (Entity, &'static mut HandView)>,
    moves: MessageWriter<'w, ChipsMoved>,
}

impl Felt<'_, '_> {
    fn circle(&mut self, seat: SeatId, change: impl FnOnce(&mut Cents)) {
        if let Some(mut circle) = self.circles.iter_mut().find(|c| c.seat == seat) {
            change(&mut circle.amount);
        }
    }

    fn side(&mut self, seat: SeatId, bet: SideBet, change: impl FnOnce(&mut Cents)) {
        if let Some(mut spot) = self
            .sides
            .iter_mut()
            .find(|s| s.seat == seat && s.bet == bet)
        {
            change(&mut spot.amount);
        }
    }

    /// The amount on `pile` (the bankrolls, circles and side-bet spots; the tray is the house's).
    fn amount(&self, pile: Pile) -> Cents {
        match pile {
            Pile::Bankroll(seat) => self
                .bankrolls
                .iter()
                .find(|b| b.seat == seat)
                .map(|b| b.amount),
            Pile::Circle(seat) => self
                .circles
                .iter()
                .find(|c| c.seat == seat)
                .map(|c| c.amount),
            Pile::Side(seat, bet) => self
                .sides
                .iter()
                .find(|s| s.seat == seat && s.bet == bet)
                .map(|s| s.amount),
            Pile::Tray => self.house.iter().next().map(|t| t.amount),
        }
        .unwrap_or(Cents::ZERO)
    }

    /// A seat's `spot` (its circle or a side bet's) now holds `amount` and its bankroll `bankroll`: the chips fly
    /// between them.
    fn set_bet(&mut self, seat: SeatId, spot: Pile, amount: Cents, bankroll: Cents) {
        let before = self.amount(spot);
        match spot {
            Pile::Circle(_) => self.circle(seat, |c| *c = amount),
            Pile::Side(_, bet) => self.side(seat, bet, |c| *c = amount),
            Pile::Bankroll(_) | Pile::Tray => return,
        }
        self.bankroll(seat, |b| *b = bankroll);
        let (from, to) = if amount > before {
            (Pile::Bankroll(seat), spot)
        } else {
            (spot, Pile::Bankroll(seat))
        };
        if amount != before {
            self.moves.write(ChipsMoved {
                from,
                to,
                amount: Cents((amount - before).0.abs()),
                after: Delay::Now,
            });
        }
    }

    fn bankroll(&mut self, seat: SeatId, change: impl FnOnce(&mut Cents)) {
        if let Some(mut pile) = self.bankrolls.iter_mut().find(|b| b.seat == seat) {
            change(&mut pile.amount);
        }
    }

    /// Chips `stake` leave the seat's circle; the seat gets them back plus `net`, paid by (or taken into) the tray.
    /// A negative stake is the seat putting more chips in the circle (doubles, splits, insurance).
    fn pay(&mut self, seat: SeatId, stake: Cents, net: Cents) {
        self.circle(seat, |c| *c -= stake);
        self.paid(seat, Pile::Circle(seat), stake, net);
    }

    /// Chips `stake` leave the seat's spot for side bet `bet`; the seat gets them back plus `net`.
    fn pay_side(&mut self, seat: SeatId, bet: SideBet, stake: Cents, net: Cents) {
        self.side(seat, bet, |c| *c -= stake);
        self.paid(seat, Pile::Side(seat, bet), stake, net);
    }

    /// The bankroll and the tray of a payout from `circle` (the bet circle or a side bet's spot), and its chips'
    /// flights.
    fn paid(&mut self, seat: SeatId, circle: Pile, stake: Cents, net: Cents) {
        self.bankroll(seat, |b| *b += stake + net);
        for mut tray in &mut self.house {
            tray.amount -= net;
        }
        let bankroll = Pile::Bankroll(seat);
        let mut moved = |from, to, amount: Cents, after| {
            if amount.is_positive() {
                self.moves.write(ChipsMoved {
                    from,
                    to,
                    amount,
                    after,
                });
            }
        };
        if stake.0 < 0 {
            moved(bankroll, circle, -stake, Delay::Now);
        } else if net.is_positive() {
            // The dealer pays beside the bet, then the player picks up both.
            moved(Pile::Tray, circle, net, Delay::Now);
            moved(circle, bankroll, stake + net, Delay::Then);
        } else {
            // A loss is swept into the tray; whatever is left (a push, half a surrender) goes back to the player.
            moved(circle, Pile::Tray, -net, Delay::Now);
            moved(circle, bankroll, stake + net, Delay::Then);
        }
    }

    fn count_shoe(&mut self, change: impl Fn(&mut ShoeStack, &mut DiscardTray)) {
        for mut shoe in &mut self.shoe {
            for mut tray in &mut self.tray {
                change(&mut shoe, &mut tray);
            }
        }
    }
}

/// What `present` shows besides the felt: who sits where, and what they say.
#[derive(SystemParam)]
pub(crate) struct People<'w> {
    occupants: ResMut<'w, Occupants>,
    remarks: MessageWriter<'w, Remark>,
}

impl People<'_> {
    /// News that is not an event: a name to follow, or a line to pass on.
    fn take(&mut self, news: News) {
        match news {
            News::Said { seat, line } => {
                self.remarks.write(Remark { seat, line });
            }
            other => self.occupants.follow(&other),
        }
    }
}

/// Shows decided news one beat at a time: spawns and moves card and hand entities, moves chips between
/// bankrolls, bet circles and the dealer's tray, shows the shoe's and tray's counts from the seat view; names who sits down and gets up, and passes on
/// what they say.
pub(crate) fn present(
    time: Res<Time>,
    mut beats: ResMut<Beats>,
    (mut shown, mut cards_seen): (MessageWriter<Shown>, ResMut<Seen>),
    mut next_phase: ResMut<NextState<RoundPhase>>,
    mut seen: Option<ResMut<SeatView>>,
    mut people: People,
    mut felt: Felt,
) {
    beats.wait -= time.delta_secs();
    // At most one event a frame, even at instant speed: entities spawned for one event exist (commands applied)
    // before the next event looks for them. Names and remarks take no time, and go with the event before them.
    if beats.wait > 0.0 {
        return;
    }
    let event = loop {
        match beats.queue.pop_front() {
            Some(News::Event(event)) => break event,
            Some(other) => people.take(other),
            None => {
                beats.wait = 0.0;
                return;
            }
        }
    };
    let speed = beats.speed;
    beats.wait += speed.seconds(beat(&event));
    if let Some(seen) = seen.as_mut() {
        if let Err(error) = seen.0.apply(&event) {
            // The events come from this table's own engine, so this is a bug: say so, and keep showing the felt.
            error!("{error} ({event:?})");
        }
        // The shoe and the tray show the seat view's counts: one account of them, kept from the events.
        let counts = *seen.0.shoe();
        felt.count_shoe(|shoe, tray| {
            shoe.remaining = counts.remaining;
            tray.cards = counts.discarded;
        });
    }
    match event {
        Event::Joined { seat, buy_in } => felt.bankroll(seat, |b| *b = buy_in),
        Event::Rebought { seat, bankroll, .. } => felt.bankroll(seat, |b| *b = bankroll),
        Event::Left { seat, .. } => {
            felt.bankroll(seat, |b| *b = Cents::ZERO);
            felt.circle(seat, |c| *c = Cents::ZERO);
            for mut spot in felt.sides.iter_mut().filter(|s| s.seat == seat) {
                spot.amount = Cents::ZERO;
            }
        }
        Event::BetSet {
            seat,
            amount,
            bankroll,
        } => felt.set_bet(seat, Pile::Circle(seat), amount, bankroll),
        Event::SideBetSet {
            seat,
            bet,
            amount,
            bankroll,
        } => felt.set_bet(seat, Pile::Side(seat, bet), amount, bankroll),
        Event::SideBetSettled {
            seat,
            bet,
            stake,
            net,
            ..
        } => felt.pay_side(seat, bet, stake, net),
        Event::InsuranceTaken { seat, amount } => felt.pay(seat, -amount, Cents::ZERO),
        Event::Doubled { seat, wager, .. } => felt.pay(seat, -wager.half(), Cents::ZERO),
        Event::InsuranceSettled { seat, amount, net } => felt.pay(seat, amount, net),
        Event::Settled {
            seat,
            hand,
            outcome,
            wager,
            net,
        } => {
            felt.pay(seat, wager, net);
            if let Some((entity, _)) = felt
                .hands
                .iter()
                .find(|(_, h)| **h == HandView { seat, hand })
            {
                felt.commands
                    .entity(entity)
                    .insert(Settlement { outcome, net });
            }
        }
        Event::TableCleared { .. } => {
            for (entity, _) in &felt.cards {
                felt.commands.entity(entity).despawn();
            }
            for (entity, _) in &felt.hands {
                felt.commands.entity(entity).despawn();
            }
        }
        Event::Dealt { to, card } => {
            let order = felt.cards.iter().filter(|(_, c)| c.spot == to).count() as u8;
            // Without a hole card the dealer's turn starts with the second card, dealt face up.
            if to == Spot::Dealer && order >= 1 {
                NextState::set_if_neq(&mut *next_phase, RoundPhase::DealerTurn);
            }
            if let Spot::Player { seat, hand } = to
                && order == 0
                && !felt
                    .hands
                    .iter()
                    .any(|(_, h)| *h == HandView { seat, hand })
            {
                felt.commands.spawn(hand_entity(HandView { seat, hand }));
            }
            felt.commands.spawn(card_entity(CardView {
                card: Some(card),
                spot: to,
                order,
            }));
        }
        Event::HoleCardDealt => {
            let order = felt
                .cards
                .iter()
                .filter(|(_, c)| c.spot == Spot::Dealer)
                .count() as u8;
            felt.commands.spawn(card_entity(CardView {
                card: None,
                spot: Spot::Dealer,
                order,
            }));
        }
        Event::HoleCardRevealed { card } => {
            for (_, mut view) in &mut felt.cards {
                if view.spot == Spot::Dealer && view.card.is_none() {
                    view.card = Some(card);
                }
            }
        }
        Event::Split { seat, hand, wager } => {
            felt.pay(seat, -wager, Cents::ZERO);
            // Later hands of the seat move one place right; the second card of the split hand starts the new one.
            for (_, mut view) in &mut felt.hands {
                if view.seat == seat && view.hand > hand {
                    view.hand += 1;
                }
            }
            felt.commands.spawn(hand_entity(HandView {
                seat,
                hand: hand + 1,
            }));
            for (_, mut view) in &mut felt.cards {
                if let Spot::Player { seat: s, hand: h } = view.spot
                    && s == seat
                {
                    if h > hand {
                        view.spot = Spot::Player { seat, hand: h + 1 };
                    } else if h == hand && view.order == 1 {
                        view.spot = Spot::Player {
                            seat,
                            hand: hand + 1,
                        };
                        view.order = 0;
                    }
                }
            }
        }
        _ => {}
    }
    if let Some(phase) = phase_after(&event) {
        NextState::set_if_neq(&mut *next_phase, phase);
    }
    // Shown, it is seen from the player's seat: the advisor, the count and the coach work from it.
    cards_seen.observe(&event);
    shown.write(Shown(event));
    // What is said about this event is shown with it. A seat it empties loses its name at the next beat, so the
    // round log (written after this, from the names) still says who left.
    while let Some(News::Said { .. }) = beats.queue.front() {
        if let Some(news) = beats.queue.pop_front() {
            people.take(news);
        }
    }
}
