//! The table in ECS. The engine's `Table` decides; entities for the shoe, discard tray, dealer, seats, hands, cards
//! and chips show what it decided, one beat at a time, so every card and chip move takes visible time.

use super::screen::{RoundPhase, RoundSet, Screen};
use crate::engine::ai::Mind;
use crate::engine::{Card, Cents, Command, CommandError, Event, Spot, Table};
use bevy::prelude::*;
use std::collections::VecDeque;

/// How fast the table moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Speed {
    /// A casino's pace.
    #[default]
    Normal,
    /// Brisk.
    Fast,
    /// No waiting at all (tests, soaks, skipping animations).
    Instant,
}

impl Speed {
    /// Seconds a beat of this kind takes at this speed.
    fn seconds(self, beat: f32) -> f32 {
        match self {
            Speed::Normal => beat,
            Speed::Fast => beat / 3.0,
            Speed::Instant => 0.0,
        }
    }
}

/// The engine's table: the one source of truth for the round.
#[derive(Resource)]
pub struct Engine {
    /// The table.
    pub table: Table,
    /// Chips that should be at the table: what was there, plus buy-ins, less cash-outs.
    pub expected_chips: Cents,
}

impl Engine {
    /// Wraps a table.
    pub fn new(table: Table) -> Engine {
        Engine {
            expected_chips: table.chips_total(),
            table,
        }
    }

    /// Applies a command, queueing its events to be shown and keeping the chip books.
    pub fn apply(&mut self, command: Command, beats: &mut Beats) -> Result<(), CommandError> {
        let events = self.table.apply(command)?;
        for event in &events {
            match *event {
                Event::Joined { buy_in, .. } => self.expected_chips += buy_in,
                Event::Rebought { amount, .. } => self.expected_chips += amount,
                Event::Left { cash_out, .. } => self.expected_chips -= cash_out,
                _ => {}
            }
        }
        beats.queue.extend(events);
        Ok(())
    }

    /// Every chip is where the books say.
    pub fn chips_conserved(&self) -> bool {
        self.table.chips_total() == self.expected_chips
    }
}

/// Events decided but not yet shown, and the time left on the beat being shown.
#[derive(Resource, Default)]
pub struct Beats {
    queue: VecDeque<Event>,
    wait: f32,
    /// The table's pace.
    pub speed: Speed,
}

impl Beats {
    /// An empty queue at this pace.
    pub fn at(speed: Speed) -> Beats {
        Beats {
            speed,
            ..Beats::default()
        }
    }

    /// True when everything decided has been shown and the last beat has run out: the table may act again.
    pub fn settled(&self) -> bool {
        self.queue.is_empty() && self.wait <= 0.0
    }
}

/// An event the table has just shown (for the log, sounds and companions' remarks).
#[derive(Message, Clone, Copy, Debug)]
pub struct Shown(pub Event);

/// Who sits in each seat: a name, and the mind that plays for them (the player's seat has one only on autoplay).
#[derive(Resource, Default)]
pub struct Occupants {
    /// By seat.
    pub seats: [Option<Occupant>; 7],
}

/// One seat's occupant.
pub struct Occupant {
    /// Name in the log.
    pub name: String,
    /// Plays the seat, when the seat is not the player's own.
    pub mind: Option<Mind>,
    /// What they sat down with.
    pub buy_in: Cents,
}

/// The shoe: cards still to deal.
#[derive(Component, Debug, Default)]
pub struct ShoeStack {
    /// Cards left (as shown so far).
    pub remaining: u32,
}

/// The discard tray.
#[derive(Component, Debug, Default)]
pub struct DiscardTray {
    /// Cards in it (as shown so far).
    pub cards: u32,
}

/// A card on the felt.
#[derive(Component, Debug, Clone, Copy)]
pub struct CardView {
    /// Which card.
    pub card: Card,
    /// Face up or down.
    pub face_up: bool,
    /// Whose hand it is in.
    pub spot: Spot,
    /// Its place in that hand, left to right.
    pub order: u8,
}

/// One hand of a seat on the felt (a seat shows two to four after splits, side by side).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandView {
    /// The seat.
    pub seat: u8,
    /// Left to right within the seat.
    pub hand: u8,
}

/// A seat's bet circle and the chips in it.
#[derive(Component, Debug)]
pub struct BetCircle {
    /// The seat.
    pub seat: u8,
    /// Chips in the circle (as shown so far).
    pub amount: Cents,
}

/// A seat on the table's arc.
#[derive(Component, Debug)]
pub struct SeatSpot {
    /// 0 = first base.
    pub seat: u8,
}

/// The dealer's place.
#[derive(Component, Debug)]
pub struct DealerSpot;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Beats>()
        .init_resource::<Occupants>()
        .add_message::<Shown>()
        .add_systems(OnEnter(Screen::Table), spawn_table)
        .add_systems(Update, present.in_set(RoundSet::Present));
}

fn spawn_table(mut commands: Commands) {
    commands.spawn((
        Name::new("Shoe"),
        ShoeStack::default(),
        DespawnOnExit(Screen::Table),
    ));
    commands.spawn((
        Name::new("Discard tray"),
        DiscardTray::default(),
        DespawnOnExit(Screen::Table),
    ));
    commands.spawn((
        Name::new("Dealer"),
        DealerSpot,
        DespawnOnExit(Screen::Table),
    ));
    for seat in 0..7u8 {
        commands.spawn((
            Name::new(format!("Seat {seat}")),
            SeatSpot { seat },
            DespawnOnExit(Screen::Table),
        ));
        commands.spawn((
            Name::new(format!("Bet circle {seat}")),
            BetCircle {
                seat,
                amount: Cents::ZERO,
            },
            DespawnOnExit(Screen::Table),
        ));
    }
}

/// How long an event holds the table, in seconds at normal speed.
fn beat(event: &Event) -> f32 {
    match event {
        Event::Dealt { .. } => 0.45,
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

/// Shows decided events one beat at a time: spawns and moves card and hand entities, fills bet circles, counts the
/// shoe.
#[allow(clippy::too_many_arguments)]
pub(super) fn present(
    time: Res<Time>,
    mut beats: ResMut<Beats>,
    mut commands: Commands,
    mut shown: MessageWriter<Shown>,
    mut next_phase: ResMut<NextState<RoundPhase>>,
    mut shoe: Single<&mut ShoeStack>,
    mut tray: Single<&mut DiscardTray>,
    mut circles: Query<&mut BetCircle>,
    mut cards: Query<(Entity, &mut CardView)>,
    mut hands: Query<(Entity, &mut HandView)>,
) {
    beats.wait -= time.delta_secs();
    // At most one event a frame, even at instant speed: entities spawned for one event exist (commands applied)
    // before the next event looks for them.
    if beats.wait <= 0.0 {
        let Some(event) = beats.queue.pop_front() else {
            beats.wait = 0.0;
            return;
        };
        let speed = beats.speed;
        beats.wait += speed.seconds(beat(&event));
        match event {
            Event::Shuffled { cards } => {
                shoe.remaining = cards;
                tray.cards = 0;
            }
            Event::Burned { .. } => {
                shoe.remaining = shoe.remaining.saturating_sub(1);
                tray.cards += 1;
            }
            Event::DiscardsShuffledIn { cards } => {
                shoe.remaining += cards;
                tray.cards = tray.cards.saturating_sub(cards);
            }
            Event::TableCleared { cards: count } => {
                for (entity, _) in &cards {
                    commands.entity(entity).despawn();
                }
                for (entity, _) in &hands {
                    commands.entity(entity).despawn();
                }
                tray.cards += count;
            }
            Event::Dealt { to, card, face_up } => {
                shoe.remaining = shoe.remaining.saturating_sub(1);
                let order = cards.iter().filter(|(_, c)| c.spot == to).count() as u8;
                // Without a hole card the dealer's turn starts with the second card, dealt face up.
                if to == Spot::Dealer && face_up && order >= 1 {
                    NextState::set_if_neq(&mut *next_phase, RoundPhase::DealerTurn);
                }
                if let Spot::Player { seat, hand } = to
                    && order == 0
                    && !hands.iter().any(|(_, h)| *h == HandView { seat, hand })
                {
                    commands.spawn((
                        Name::new(format!("Seat {seat} hand {hand}")),
                        HandView { seat, hand },
                        DespawnOnExit(Screen::Table),
                    ));
                }
                commands.spawn((
                    Name::new(format!("Card {card}")),
                    CardView {
                        card,
                        face_up,
                        spot: to,
                        order,
                    },
                    DespawnOnExit(Screen::Table),
                ));
            }
            Event::HoleCardRevealed { .. } => {
                for (_, mut view) in &mut cards {
                    if view.spot == Spot::Dealer {
                        view.face_up = true;
                    }
                }
            }
            Event::Split { seat, hand, .. } => {
                // Later hands of the seat move one place right; the second card of the split hand starts the new one.
                for (_, mut view) in &mut hands {
                    if view.seat == seat && view.hand > hand {
                        view.hand += 1;
                    }
                }
                commands.spawn((
                    Name::new(format!("Seat {seat} hand {}", hand + 1)),
                    HandView {
                        seat,
                        hand: hand + 1,
                    },
                    DespawnOnExit(Screen::Table),
                ));
                for (_, mut view) in &mut cards {
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
            Event::BetSet { seat, amount, .. } => set_circle(&mut circles, seat, amount),
            Event::RoundStarted { .. } => {
                for mut circle in &mut circles {
                    circle.amount = Cents::ZERO;
                }
            }
            _ => {}
        }
        if let Some(phase) = phase_after(&event) {
            NextState::set_if_neq(&mut *next_phase, phase);
        }
        shown.write(Shown(event));
    }
}

fn set_circle(circles: &mut Query<&mut BetCircle>, seat: u8, amount: Cents) {
    for mut circle in circles.iter_mut() {
        if circle.seat == seat {
            circle.amount = amount;
        }
    }
}
