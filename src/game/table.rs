//! The table in ECS. The table's host decides; entities for the shoe, discard tray, dealer, seats, hands, cards
//! and chips show what it decided, one beat at a time, so every card and chip move takes visible time.

use super::screen::{RoundPhase, RoundSet, Screen};
pub use super::settings::Speed;
use crate::engine::{
    Card, Cents, Command, CommandError, Event, Outcome, SeatId, Spot, TableState, TableView, Viewer,
};
use crate::host::{Host, Names, News};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use std::collections::VecDeque;

/// The table's host: the one place in the game that holds the engine's table (inside the host, where nothing else
/// can reach it). The model asks it for moves and feeds what it reports to [`Beats`]; everything it hands out is
/// public.
#[derive(Resource, Deref, DerefMut)]
pub struct Engine(Host);

impl Engine {
    /// Hosts a table in the game.
    pub fn new(host: Host) -> Engine {
        Engine(host)
    }

    /// Applies a command, queueing its news to be shown.
    pub fn apply(&mut self, command: Command, beats: &mut Beats) -> Result<(), CommandError> {
        beats.show(self.0.apply(command)?);
        Ok(())
    }
}

/// The table as the player's seat sees it, as far as the table has shown it: what the HUD and the felt draw from.
/// It follows the events `present` shows, one at a time, so it is never ahead of the cards on the felt, and it holds
/// nothing a player could not see (no shoe order, no generator, no face-down card).
#[derive(Resource, Debug, Clone)]
pub struct SeatView(pub TableView);

impl SeatView {
    /// Who the player is at this table: their seat, or a spectator when they have none or an AI plays it.
    pub fn viewer(session: &super::session::Session) -> Viewer {
        session.player_seat.map_or(Viewer::Spectator, Viewer::Seat)
    }
}

/// The seat view follows the player when they take another seat or get up.
fn follow_the_player(session: Res<super::session::Session>, seen: Option<ResMut<SeatView>>) {
    if let Some(mut seen) = seen
        && session.is_changed()
    {
        let viewer = SeatView::viewer(&session);
        if seen.0.viewer() != viewer {
            seen.0.set_viewer(viewer);
        }
    }
}

/// Events decided but not yet shown, and the time left on the beat being shown.
#[derive(Resource, Default)]
pub struct Beats {
    queue: VecDeque<News>,
    /// The table's events as they are decided, for the recorder: the hand history and the journal keep up with the
    /// table, not with the animation.
    decided: Vec<Event>,
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

    /// Queues news to be shown, in order.
    pub fn show(&mut self, news: impl IntoIterator<Item = News>) {
        for news in news {
            if let News::Event(event) = news {
                self.decided.push(event);
            }
            self.queue.push_back(news);
        }
    }

    /// The events decided since this was last asked, in order.
    pub fn take_decided(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.decided)
    }

    /// True when everything decided has been shown and the last beat has run out: the table may act again.
    pub fn settled(&self) -> bool {
        self.queue.is_empty() && self.wait <= 0.0
    }
}

/// An event the table has just shown (for the log, sounds and companions' remarks).
#[derive(Message, Clone, Copy, Debug)]
pub struct Shown(pub Event);

/// A pile of chips on the felt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pile {
    /// In front of a seat.
    Bankroll(SeatId),
    /// In a seat's bet circle.
    Circle(SeatId),
    /// The dealer's tray.
    Tray,
}

/// Chips the table has just moved from one pile to another (the piles' amounts already say so): the view flies
/// them across, the chip sounds play. `after` orders the moves of one payout, in seconds at normal speed.
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChipsMoved {
    /// Where they leave.
    pub from: Pile,
    /// Where they land.
    pub to: Pile,
    /// How much.
    pub amount: Cents,
    /// Seconds (at normal speed) after the event that they leave.
    pub after: Delay,
}

/// When a chip move starts within its event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delay {
    /// At once.
    Now,
    /// After the moves before it in a payout have landed.
    Then,
}

/// Who sits in each seat, by name, as the table has shown it (the host's own account runs a beat ahead).
#[derive(Resource, Default, Clone, Deref, DerefMut)]
pub struct Occupants(pub Names);

impl Occupants {
    /// Nobody sits at `seat`, by the names shown and by the table.
    pub fn is_free(&self, table: &impl TableState, seat: SeatId) -> bool {
        !self.taken(seat)
            && table
                .seats()
                .get(usize::from(seat))
                .is_some_and(|s| !s.occupied)
    }
}

/// A line someone at the table says, as the table shows it (for the log).
#[derive(Message, Clone, Debug)]
pub struct Remark {
    /// Who says it.
    pub seat: SeatId,
    /// What they say.
    pub line: String,
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
    /// Which card, once its face shows; `None` while it lies face down (the hole card), whose face nobody at the
    /// table knows until the dealer turns it.
    pub card: Option<Card>,
    /// Whose hand it is in.
    pub spot: Spot,
    /// Its place in that hand, left to right.
    pub order: u8,
}

impl CardView {
    /// The card shows its face.
    pub fn face_up(&self) -> bool {
        self.card.is_some()
    }
}

/// One hand of a seat on the felt (a seat shows two to four after splits, side by side).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HandView {
    /// The seat.
    pub seat: u8,
    /// Left to right within the seat.
    pub hand: u8,
}

/// A hand's entity on the felt, gone when the table closes.
fn hand_entity(view: HandView) -> impl Bundle {
    (
        Name::new(format!("Seat {} hand {}", view.seat, view.hand)),
        view,
        DespawnOnExit(Screen::Table),
    )
}

/// A card's entity on the felt, gone when the table closes.
fn card_entity(view: CardView) -> impl Bundle {
    (
        Name::new(match view.card {
            Some(card) => format!("Card {card}"),
            None => "Card face down".to_string(),
        }),
        view,
        DespawnOnExit(Screen::Table),
    )
}

impl HandView {
    /// Where the engine says this hand's cards go.
    pub fn spot(&self) -> Spot {
        Spot::Player {
            seat: self.seat,
            hand: self.hand,
        }
    }
}

/// A seat's bet circle and the chips in it: the bet, then during the round everything the seat has on the felt
/// (doubles, split hands, insurance).
#[derive(Component, Debug)]
pub struct BetCircle {
    /// The seat.
    pub seat: u8,
    /// Chips in the circle (as shown so far).
    pub amount: Cents,
}

/// The chips in front of a seat.
#[derive(Component, Debug)]
pub struct Bankroll {
    /// The seat.
    pub seat: u8,
    /// Chips in front of the seat (as shown so far).
    pub amount: Cents,
}

/// The dealer's chip tray: the house's money.
#[derive(Component, Debug, Default)]
pub struct DealerTray {
    /// Chips in the tray (as shown so far).
    pub amount: Cents,
}

/// How a hand ended, once it has been paid or taken.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settlement {
    /// Win, lose, push, …
    pub outcome: Outcome,
    /// What the hand won (negative: lost), net of the wager.
    pub net: Cents,
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
        .add_message::<Remark>()
        .add_message::<ChipsMoved>()
        .add_systems(Update, present.in_set(RoundSet::Present))
        .add_systems(Update, follow_the_player.before(RoundSet::Present))
        .add_systems(Update, log_round.after(RoundSet::Present))
        .add_systems(OnExit(Screen::Table), |mut commands: Commands| {
            commands.remove_resource::<OnlineTable>();
        });
}

/// The round in words, as the table shows it: the lines of the HUD's round log and of the game's log.
pub fn narrate(event: &Event, occupants: &Occupants) -> Vec<String> {
    let mut lines = Vec::new();
    if let Event::RoundStarted { round } = event {
        lines.push(format!("— Round {round} —"));
    }
    if let Some(line) = occupants.line(&News::Event(*event)) {
        lines.push(crate::narrate::to_you(&line));
    }
    lines
}

/// The round goes to the game's log too (the terminal, or the browser's console): a hand history to read back.
fn log_round(mut shown: MessageReader<Shown>, occupants: Res<Occupants>) {
    for Shown(event) in shown.read() {
        for line in narrate(event, &occupants) {
            info!(target: "holecard::round", "{line}");
        }
    }
}

/// A sitting to resume on entering the table, instead of opening a fresh one: its session, and its table hosted
/// again with who sits where (their minds included). Made from a saved sitting (`Sitting::restore`).
#[derive(Resource)]
pub struct Restore {
    /// The session as it was.
    pub session: super::session::Session,
    /// The table as it was, with its occupants.
    pub host: Host,
    /// Commands the sitting had accepted (its place in the journal).
    pub accepted: u64,
    /// The round under way as recorded so far.
    pub recorder: Option<crate::record::Recorder>,
}

/// A table a casino just seated (or re-seated) the player at, as a watcher or in a seat: what the table opens on
/// instead of a table of its own.
#[derive(Resource, Clone, Debug)]
pub struct Arrival {
    /// The table's id at the casino.
    pub table: String,
    /// The level it is shown as (its name, rules and look).
    pub level: crate::level::Level,
    /// The player's seat, or none when watching.
    pub seat: Option<SeatId>,
    /// The table from there.
    pub view: TableView,
    /// Who sits where, by name.
    pub names: Vec<Option<String>>,
}

/// The table on the felt is a casino's: no host here; the player's intents go over the wire (`online`).
#[derive(Resource, Clone, Debug)]
pub struct OnlineTable {
    /// The table's id at the casino.
    pub id: String,
}

/// Opens the session's table afresh: a new engine table, an empty queue of beats and empty seats. Runs first on
/// entering the table, so a second visit starts clean.
#[allow(clippy::too_many_arguments)] // Bevy systems take their world as parameters.
pub(super) fn open(
    mut session: ResMut<super::session::Session>,
    restore: Option<Res<Restore>>,
    arrival: Option<Res<Arrival>>,
    home: Option<Res<super::session::HomeSession>>,
    mut commands: Commands,
    mut beats: ResMut<Beats>,
    mut occupants: ResMut<Occupants>,
    mut screen: ResMut<NextState<Screen>>,
) {
    *beats = Beats::at(beats.speed);
    *occupants = Occupants::default();
    commands.remove_resource::<Restored>();
    if let Some(arrival) = arrival {
        // A casino's table: its view and names; the server hosts it. The player's own session comes back on
        // returning to the Title.
        if home.is_none() {
            commands.insert_resource(super::session::HomeSession(session.clone()));
        }
        session.level = arrival.level.clone();
        session.player_seat = arrival.seat;
        session.autoplay = false;
        let mut view = arrival.view.clone();
        view.set_viewer(SeatView::viewer(&session));
        for (seat, name) in arrival.names.iter().enumerate().take(occupants.seats.len()) {
            occupants.seats[seat] = name.clone();
        }
        commands.insert_resource(SeatView(view));
        commands.insert_resource(OnlineTable {
            id: arrival.table.clone(),
        });
        commands.remove_resource::<Arrival>();
        commands.remove_resource::<Engine>();
        return;
    }
    if let Some(restore) = restore {
        *session = restore.session.clone();
        occupants.0 = restore.host.names();
        commands.insert_resource(SeatView(
            restore.host.view(SeatView::viewer(&restore.session)),
        ));
        commands.insert_resource(Engine::new(restore.host.clone()));
        commands.insert_resource(Restored {
            accepted: restore.accepted,
            recorder: restore.recorder.clone(),
        });
        commands.remove_resource::<Restore>();
        return;
    }
    match session.new_table() {
        Ok(table) => {
            let host = Host::new(
                table,
                session.level.companions.clone(),
                session.seed,
                session.visits,
            );
            commands.insert_resource(SeatView(host.view(SeatView::viewer(&session))));
            commands.insert_resource(Engine::new(host));
        }
        Err(error) => {
            // Levels are checked when loaded, so this is a bug; say so and go back rather than sit at no table.
            error!("cannot open {}: {error}", session.level.name);
            screen.set(Screen::Title);
        }
    }
}

/// The table on the felt was restored from a save: its seats are taken and its cards are out.
#[derive(Resource, Debug)]
pub struct Restored {
    /// Commands the sitting had accepted before this visit (the host's log counts from here).
    pub accepted: u64,
    /// The round under way as it had been recorded.
    pub recorder: Option<crate::record::Recorder>,
}

/// A restored table (or a casino's, joined mid-way) shows what its seat view has: cards on the felt (the hole card face down, with no face), hands,
/// and the round's phase (the chips are counted out by `spawn_table`).
pub(super) fn show_restored(
    restored: Option<Res<Restored>>,
    online: Option<Res<OnlineTable>>,
    seen: Option<Res<SeatView>>,
    mut commands: Commands,
    mut next_phase: ResMut<NextState<RoundPhase>>,
) {
    let (true, Some(seen)) = (restored.is_some() || online.is_some(), seen) else {
        return;
    };
    let table = &seen.0;
    let mut numbers = [0u8; 7];
    for hand in table.hands() {
        let number = numbers[usize::from(hand.seat)];
        numbers[usize::from(hand.seat)] += 1;
        let view = HandView {
            seat: hand.seat,
            hand: number,
        };
        commands.spawn(hand_entity(view));
        for (order, &card) in hand.cards.as_slice().iter().enumerate() {
            commands.spawn(card_entity(CardView {
                card: Some(card),
                spot: view.spot(),
                order: order as u8,
            }));
        }
    }
    let dealer = table.dealer();
    let mut faces = dealer
        .cards
        .as_slice()
        .iter()
        .copied()
        .map(Some)
        .collect::<Vec<_>>();
    if dealer.hole_down {
        // The hole card lies beside the upcard, face down.
        faces.insert(faces.len().min(1), None);
    }
    for (order, card) in faces.into_iter().enumerate() {
        commands.spawn(card_entity(CardView {
            card,
            spot: Spot::Dealer,
            order: order as u8,
        }));
    }
    let phase = match table.phase() {
        crate::engine::Phase::Betting => RoundPhase::Betting,
        _ => RoundPhase::PlayerTurn,
    };
    NextState::set_if_neq(&mut *next_phase, phase);
}

/// The table's fixed pieces, their counts and chips as the seat view has them: empty at a fresh table, the saved
/// amounts at a restored one.
pub(super) fn spawn_table(mut commands: Commands, seen: Option<Res<SeatView>>) {
    let Some(seen) = seen else {
        return;
    };
    let table = &seen.0;
    let (house, remaining, discards) = (
        table.house(),
        table.shoe().remaining,
        table.shoe().discarded,
    );
    commands.spawn((
        Name::new("Shoe"),
        ShoeStack { remaining },
        DespawnOnExit(Screen::Table),
    ));
    commands.spawn((
        Name::new("Discard tray"),
        DiscardTray { cards: discards },
        DespawnOnExit(Screen::Table),
    ));
    commands.spawn((
        Name::new("Dealer"),
        DealerSpot,
        DealerTray { amount: house },
        DespawnOnExit(Screen::Table),
    ));
    for seat in 0..7u8 {
        commands.spawn((
            Name::new(format!("Seat {seat}")),
            SeatSpot { seat },
            Bankroll {
                seat,
                amount: table.seats()[usize::from(seat)].bankroll,
            },
            DespawnOnExit(Screen::Table),
        ));
        commands.spawn((
            Name::new(format!("Bet circle {seat}")),
            BetCircle {
                seat,
                amount: table.seat_on_felt(seat),
            },
            DespawnOnExit(Screen::Table),
        ));
    }
}

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
pub(super) struct Felt<'w, 's> {
    commands: Commands<'w, 's>,
    shoe: Query<'w, 's, &'static mut ShoeStack>,
    tray: Query<'w, 's, &'static mut DiscardTray>,
    house: Query<'w, 's, &'static mut DealerTray>,
    circles: Query<'w, 's, &'static mut BetCircle>,
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

    fn bankroll(&mut self, seat: SeatId, change: impl FnOnce(&mut Cents)) {
        if let Some(mut pile) = self.bankrolls.iter_mut().find(|b| b.seat == seat) {
            change(&mut pile.amount);
        }
    }

    /// Chips `stake` leave the seat's circle; the seat gets them back plus `net`, paid by (or taken into) the tray.
    /// A negative stake is the seat putting more chips in the circle (doubles, splits, insurance).
    fn pay(&mut self, seat: SeatId, stake: Cents, net: Cents) {
        self.circle(seat, |c| *c -= stake);
        self.bankroll(seat, |b| *b += stake + net);
        for mut tray in &mut self.house {
            tray.amount -= net;
        }
        let (circle, bankroll) = (Pile::Circle(seat), Pile::Bankroll(seat));
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
pub(super) struct People<'w> {
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
pub(super) fn present(
    time: Res<Time>,
    mut beats: ResMut<Beats>,
    mut shown: MessageWriter<Shown>,
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
        }
        Event::BetSet {
            seat,
            amount,
            bankroll,
        } => {
            let before = felt
                .circles
                .iter()
                .find(|c| c.seat == seat)
                .map_or(Cents::ZERO, |c| c.amount);
            felt.circle(seat, |c| *c = amount);
            felt.bankroll(seat, |b| *b = bankroll);
            let (from, to) = if amount > before {
                (Pile::Bankroll(seat), Pile::Circle(seat))
            } else {
                (Pile::Circle(seat), Pile::Bankroll(seat))
            };
            if amount != before {
                felt.moves.write(ChipsMoved {
                    from,
                    to,
                    amount: Cents((amount - before).0.abs()),
                    after: Delay::Now,
                });
            }
        }
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
    shown.write(Shown(event));
    // What is said about this event is shown with it. A seat it empties loses its name at the next beat, so the
    // round log (written after this, from the names) still says who left.
    while let Some(News::Said { .. }) = beats.queue.front() {
        if let Some(news) = beats.queue.pop_front() {
            people.take(news);
        }
    }
}
