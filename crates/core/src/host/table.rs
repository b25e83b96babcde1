//! The table's host, Bevy-free: the one place that holds the engine's [`Table`]. It seats people and companions,
//! lets each companion's mind bet, play, watch and talk, sends broke or satisfied companions home and lets someone
//! new sit down between rounds, and keeps the books and the command log. The terminal table, the game and (next) the
//! server all host their tables through it, so a companion seeded the same plays the same everywhere.
//!
//! Whatever a host hands out is public: [`News`] (the engine's events carry no secret), a [`TableView`] for a viewer,
//! the public state behind [`TableState`]. The table itself never leaves: its field is private to this module, and a
//! save gets it only as an opaque [`Snapshot`].

use crate::engine::ai::{Departure, Mind, Personality};
use crate::engine::{
    Card, Cents, Command, CommandError, Event, Hand, MAX_SEATS, Phase, Rank, Rules, Seat, SeatId,
    Seed, Table, TableRng, TableState, TableView, Viewer, seed_from_number,
};
use crate::host::level::Companion;
use serde::{Deserialize, Serialize};

/// What happened at a table, in the order it happened: the engine's events, and the people at it sitting down,
/// getting up and talking. Everything in it is public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum News {
    /// The engine's event.
    Event(Event),
    /// Someone takes a seat (just before the engine's `Joined`).
    SatDown {
        /// The seat.
        seat: SeatId,
        /// Their name.
        name: String,
    },
    /// Whoever sat at `seat` has gone (just after the engine's `Left`).
    GotUp {
        /// The seat.
        seat: SeatId,
    },
    /// Someone at the table says something.
    Said {
        /// Who.
        seat: SeatId,
        /// What.
        line: String,
    },
    /// A casino commits to the shoe about to be dealt: its seed's SHA-256, before its first card (`host::fair`).
    ShoeCommitted(crate::host::fair::Commitment),
    /// A casino's shoe is done: the seed it was dealt from, in hex, to deal it again and check every card.
    ShoeRevealed {
        /// Which of the table's shoes.
        shoe: u64,
        /// Its seed.
        seed: String,
    },
}

/// Who sits where by name, as far as the news has told: what a table's log and labels name the seats by. It follows
/// the news in the order it is shown, so a line about someone leaving still has their name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Names {
    /// By seat.
    pub seats: [Option<String>; MAX_SEATS],
}

impl Names {
    /// Takes in one piece of news.
    pub fn follow(&mut self, news: &News) {
        match news {
            News::SatDown { seat, name } => {
                if let Some(slot) = self.seats.get_mut(usize::from(*seat)) {
                    *slot = Some(name.clone());
                }
            }
            News::GotUp { seat } => {
                if let Some(slot) = self.seats.get_mut(usize::from(*seat)) {
                    *slot = None;
                }
            }
            News::Event(_)
            | News::Said { .. }
            | News::ShoeCommitted(_)
            | News::ShoeRevealed { .. } => {}
        }
    }

    /// The name of whoever sits at `seat`, else "Seat N".
    pub fn name(&self, seat: SeatId) -> String {
        self.seats
            .get(usize::from(seat))
            .and_then(Option::as_ref)
            .map_or_else(|| format!("Seat {}", seat + 1), String::clone)
    }

    /// Someone sits at `seat`.
    pub fn taken(&self, seat: SeatId) -> bool {
        self.seats
            .get(usize::from(seat))
            .is_some_and(Option::is_some)
    }

    /// The news in words, for a log: the sentence for an event (if a person need read about it), what someone
    /// said with their name.
    pub fn line(&self, news: &News) -> Option<String> {
        match news {
            News::Event(event) => crate::host::narrate::describe(event, self),
            News::Said { seat, line } => Some(format!("{}: “{line}”", self.name(*seat))),
            News::SatDown { .. }
            | News::GotUp { .. }
            | News::ShoeCommitted(_)
            | News::ShoeRevealed { .. } => None,
        }
    }
}

impl crate::host::narrate::SeatNames for Names {
    fn name(&self, seat: SeatId) -> String {
        Names::name(self, seat)
    }
}

/// Who sits in a seat: a name, what they sat down with, and whether a person or a companion plays it.
#[derive(Clone, Debug)]
pub struct Occupant {
    /// Name at the table.
    pub name: String,
    /// What they sat down with.
    pub buy_in: Cents,
    /// A person's seat: never gets up by itself, and its decisions come from outside unless it has a mind
    /// (autoplay).
    pub person: bool,
    /// Plays the seat: a companion's mind, or an autoplaying person's.
    pub mind: Option<Mind>,
}

impl Occupant {
    /// A person, playing their own seat.
    pub fn person(name: impl Into<String>, buy_in: Cents) -> Occupant {
        Occupant {
            name: name.into(),
            buy_in,
            person: true,
            mind: None,
        }
    }
}

/// The table for a save a player can read: sealed ([`Table::sealed`]), so it shows what everyone at the table saw and
/// nothing more (no generator, no order of the cards to come, no face-down card). Opaque outside this module.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Snapshot(Table);

impl Snapshot {
    /// The snapshot's public side: rules, seats, hands, chips.
    pub fn state(&self) -> &impl TableState {
        &self.0
    }

    /// Checks the saved table is whole (its cards, chips and phase agree).
    pub fn check(&self) -> Result<(), String> {
        self.0.check_consistency().map_err(|e| e.to_string())
    }
}

/// Guests who drift over from other tables.
const GUESTS: [(&str, Personality); 8] = [
    ("Dolores", Personality::ByTheBook),
    ("Vic", Personality::HunchPlayer),
    ("Priya", Personality::CardCounter),
    ("Big Sal", Personality::HighRoller),
    ("Hank", Personality::HunchPlayer),
    ("Ines", Personality::ByTheBook),
    ("Otto", Personality::CardCounter),
    ("Gloria", Personality::HighRoller),
];

/// One chance in this many each round that someone sits down in a seat that has stood empty a round or more.
const ARRIVAL_ODDS: u32 = 3;

/// What a companion says as they get up.
fn farewell(why: Departure) -> &'static str {
    match why {
        Departure::Broke => "That's me done for tonight.",
        Departure::Satisfied => "Quit while you're ahead, they say. Good night!",
    }
}

/// A table with the people and companions at it.
#[derive(Clone, Debug)]
pub struct Host {
    table: Table,
    opened: Table,
    log: Vec<Command>,
    expected_chips: Cents,
    refused: u64,
    seats: [Option<Occupant>; MAX_SEATS],
    regulars: Vec<Companion>,
    seed: u64,
    arrivals: TableRng,
    empty_for: [u32; MAX_SEATS],
    departed: Vec<String>,
    last_round: Option<u64>,
}

impl Host {
    /// Hosts `table`, with `regulars` the companions who sit at it by habit. `seed` seeds every mind and the arrivals
    /// (one seeding for every kind of host); `visit` tells visits to the same table apart.
    pub fn new(table: Table, regulars: Vec<Companion>, seed: u64, visit: u64) -> Host {
        Host {
            expected_chips: table.chips_total(),
            opened: table.clone(),
            log: Vec::new(),
            refused: 0,
            seats: Default::default(),
            regulars,
            seed,
            arrivals: TableRng::from_seed(seed_from_number(seed ^ 0xA11_1FE5 ^ visit)),
            empty_for: [0; MAX_SEATS],
            departed: Vec::new(),
            last_round: None,
            table,
        }
    }

    /// Hosts a saved table again, dealing on with a generator seeded from `reseed` (fresh entropy, never anything
    /// in the save); [`Host::resume_seat`] puts its occupants back.
    pub fn restore(
        snapshot: Snapshot,
        reseed: Seed,
        regulars: Vec<Companion>,
        seed: u64,
        visit: u64,
    ) -> Host {
        let mut table = snapshot.0;
        table.reseed(reseed);
        Host::new(table, regulars, seed, visit)
    }

    /// Puts a saved occupant back in the seat the saved table has them in, with a fresh mind for `personality` (a
    /// counter starts counting again). A seat the table has empty stays empty.
    pub fn resume_seat(
        &mut self,
        seat: SeatId,
        occupant: Occupant,
        personality: Option<Personality>,
    ) {
        let mind = personality.map(|p| self.mind(p, seat));
        let seated = self
            .table
            .seats()
            .get(usize::from(seat))
            .is_some_and(|s| s.occupied);
        if seated {
            self.seats[usize::from(seat)] = Some(Occupant { mind, ..occupant });
        }
    }

    /// The seed of the mind that plays `seat`.
    fn mind_seed(&self, seat: SeatId) -> Seed {
        seed_from_number(self.seed ^ (0x5EA7_0000 + u64::from(seat)))
    }

    /// A fresh mind of `personality` for `seat`.
    pub fn mind(&self, personality: Personality, seat: SeatId) -> Mind {
        Mind::new(personality, self.table.rules(), self.mind_seed(seat))
    }

    /// Rounds dealt so far.
    pub fn round(&self) -> u64 {
        self.table.round()
    }

    /// The table as `viewer` sees it.
    pub fn view(&self, viewer: Viewer) -> TableView {
        self.table.view(viewer)
    }

    /// The table for a save, sealed with `entropy` (fresh from the operating system: whoever knows it could tell
    /// the sealed cards from the real ones).
    pub fn snapshot(&self, entropy: Seed) -> Snapshot {
        Snapshot(self.table.sealed(entropy))
    }

    /// Who sits at `seat`.
    pub fn occupant(&self, seat: SeatId) -> Option<&Occupant> {
        self.seats.get(usize::from(seat)).and_then(Option::as_ref)
    }

    /// Who sits where.
    pub fn occupants(&self) -> impl Iterator<Item = (SeatId, &Occupant)> {
        self.seats
            .iter()
            .enumerate()
            .filter_map(|(seat, o)| o.as_ref().map(|o| (seat as SeatId, o)))
    }

    /// Who sits where, by name, as the table is now.
    pub fn names(&self) -> Names {
        Names {
            seats: self.seats.clone().map(|o| o.map(|o| o.name)),
        }
    }

    /// Nobody sits at `seat`.
    pub fn is_free(&self, seat: SeatId) -> bool {
        self.seats
            .get(usize::from(seat))
            .is_some_and(Option::is_none)
            && self
                .table
                .seats()
                .get(usize::from(seat))
                .is_some_and(|s| !s.occupied)
    }

    /// Commands accepted, in order.
    pub fn commands(&self) -> &[Command] {
        &self.log
    }

    /// Commands a mind asked for that the engine refused: a bug in a mind, counted so runs can fail on it.
    pub fn refused(&self) -> u64 {
        self.refused
    }

    /// Every chip is where the books say: what was at the table, plus buy-ins, less cash-outs.
    pub fn chips_conserved(&self) -> bool {
        self.table.chips_total() == self.expected_chips
    }

    /// The command log, played again from the opening table, ends at this table.
    pub fn replays(&self) -> bool {
        let mut table = self.opened.clone();
        self.log.iter().all(|&c| table.apply(c).is_ok()) && table == self.table
    }

    /// Sets the next cards out of the shoe by rank, between rounds: a practice hand, a tutorial, a test of a known
    /// deal. Outside the command log, so a sitting stacked this way no longer [`replays`](Host::replays).
    pub fn queue_next_cards(&mut self, ranks: &[Rank]) -> Result<(), CommandError> {
        self.table.queue_next_cards(ranks)
    }

    /// Deals the next shoe from `seed` alone (see [`Table::deal_next_shoe_from`]): a casino's shoe anyone can deal
    /// again once the seed is revealed. Outside the command log, as [`queue_next_cards`](Host::queue_next_cards) is.
    pub fn deal_next_shoe_from(&mut self, seed: Seed) {
        self.table.deal_next_shoe_from(seed);
    }

    /// The next round starts with a shuffle: the shoe in play is done.
    pub fn needs_shuffle(&self) -> bool {
        self.table.shoe().needs_shuffle()
    }

    /// Applies a command: the news is its events, each followed by what the minds at the table say about it.
    pub fn apply(&mut self, command: Command) -> Result<Vec<News>, CommandError> {
        let events = self.table.apply(command)?;
        self.log.push(command);
        let mut news = Vec::with_capacity(events.len());
        for event in events {
            match event {
                Event::Joined { buy_in, .. } => self.expected_chips += buy_in,
                Event::Rebought { amount, .. } => self.expected_chips += amount,
                Event::Left { cash_out, .. } => self.expected_chips -= cash_out,
                _ => {}
            }
            news.push(News::Event(event));
            for (seat, occupant) in self.seats.iter_mut().enumerate() {
                if let Some(mind) = occupant.as_mut().and_then(|o| o.mind.as_mut()) {
                    mind.observe(&event);
                    if let Some(line) = mind.react(&event, seat as SeatId) {
                        news.push(News::Said {
                            seat: seat as SeatId,
                            line: line.to_string(),
                        });
                    }
                }
            }
        }
        Ok(news)
    }

    /// `occupant` sits down at `seat` with their buy-in.
    pub fn sit(&mut self, seat: SeatId, occupant: Occupant) -> Result<Vec<News>, CommandError> {
        let buy_in = occupant.buy_in;
        let name = occupant.name.clone();
        let mut news = self.apply(Command::Join { seat, buy_in })?;
        self.seats[usize::from(seat)] = Some(occupant);
        news.insert(0, News::SatDown { seat, name });
        Ok(news)
    }

    /// Whoever sits at `seat` cashes out and gets up; returns them with the news.
    pub fn leave(&mut self, seat: SeatId) -> Result<(Option<Occupant>, Vec<News>), CommandError> {
        let mut news = self.apply(Command::Leave { seat })?;
        let gone = self.seats[usize::from(seat)].take();
        news.push(News::GotUp { seat });
        Ok((gone, news))
    }

    /// The level's regulars take their seats (those already taken stay with whoever has them).
    pub fn seat_regulars(&mut self) -> Vec<News> {
        let mut news = Vec::new();
        for companion in self.regulars.clone() {
            let occupant = Occupant {
                name: companion.name.clone(),
                buy_in: companion.bankroll,
                person: false,
                mind: Some(self.mind(companion.personality, companion.seat)),
            };
            if self.is_free(companion.seat)
                && let Ok(sat) = self.sit(companion.seat, occupant)
            {
                news.extend(sat);
            }
        }
        news
    }

    /// Between rounds, every seat a mind plays puts its bet down (one it cannot afford is refused by the engine, and
    /// the seat sits the round out).
    pub fn place_bets(&mut self) -> Vec<News> {
        let mut news = Vec::new();
        if self.table.phase() != Phase::Betting {
            return news;
        }
        for seat in 0..MAX_SEATS as SeatId {
            let Some(mind) = self.occupant(seat).and_then(|o| o.mind.as_ref()) else {
                continue;
            };
            let view = self.table.view(Viewer::Seat(seat));
            let amount = mind.bet(&view, seat);
            let sides = mind.side_bets(&view, seat, amount);
            if self.table.seats()[usize::from(seat)].bet != amount
                && let Ok(bet) = self.apply(Command::Bet { seat, amount })
            {
                news.extend(bet);
            }
            for (bet, amount) in sides {
                if self.table.seats()[usize::from(seat)].side.get(bet) != amount
                    && let Ok(placed) = self.apply(Command::SideBet { seat, bet, amount })
                {
                    news.extend(placed);
                }
            }
        }
        news
    }

    /// The seat to act, when a mind plays it.
    pub fn mind_to_act(&self) -> Option<SeatId> {
        self.table
            .seat_to_act()
            .filter(|&seat| self.occupant(seat).is_some_and(|o| o.mind.is_some()))
    }

    /// The mind whose turn it is makes its move; `None` when the seat to act is a person's (or nobody's, or the
    /// mind has no move). A move the engine refuses is a bug in the mind: counted, and returned as the error.
    pub fn act(&mut self) -> Option<Result<Vec<News>, CommandError>> {
        let seat = self.mind_to_act()?;
        let view = self.table.view(Viewer::Seat(seat));
        let mind = self.seats[usize::from(seat)].as_mut()?.mind.as_mut()?;
        let choice = mind.decide(&view, seat)?;
        let said = choice.remark.map(|line| News::Said { seat, line });
        Some(match self.apply(choice.command) {
            Ok(events) => Ok(said.into_iter().chain(events).collect()),
            Err(error) => {
                self.refused += 1;
                Err(error)
            }
        })
    }

    /// Plays the round in progress to its end, every seat without a mind by the book (a person who leaves
    /// mid-round, input that ends).
    pub fn finish_round(&mut self) -> Vec<News> {
        let book = crate::engine::BasicStrategy::for_rules(self.table.rules());
        let mut news = Vec::new();
        while self.table.phase() != Phase::Betting {
            match self.act() {
                Some(Ok(moved)) => {
                    news.extend(moved);
                    continue;
                }
                Some(Err(_)) => break,
                None => {}
            }
            let Some(command) = self.table.seat_to_act().and_then(|s| book.decide(self, s)) else {
                break;
            };
            match self.apply(command) {
                Ok(events) => news.extend(events),
                Err(_) => break,
            }
        }
        news
    }

    /// Between rounds: companions who are broke or satisfied leave; now and then someone new sits down in a seat
    /// that has stood empty a round, never more companions than the table's regulars. Looks once a round;
    /// `again` looks again in the same round (a table nobody sits at, whose rounds have stopped).
    pub fn between_rounds(&mut self, again: bool) -> Vec<News> {
        let round = self.table.round();
        let mut news = Vec::new();
        if self.table.phase() != Phase::Betting || round == 0 {
            return news;
        }
        let new_round = self.last_round.replace(round) != Some(round);
        if !new_round && !again {
            return news;
        }
        for seat in 0..MAX_SEATS as SeatId {
            let leaving = match self.occupant(seat) {
                Some(Occupant {
                    person: false,
                    mind: Some(mind),
                    buy_in,
                    ..
                }) => mind.departure(&self.table.view(Viewer::Seat(seat)), seat, *buy_in),
                _ => None,
            };
            if let Some(why) = leaving
                && let Ok((gone, left)) = self.leave(seat)
            {
                news.push(News::Said {
                    seat,
                    line: farewell(why).to_string(),
                });
                news.extend(left);
                self.departed.extend(gone.map(|o| o.name));
            }
        }
        let companions = self.occupants().filter(|(_, o)| !o.person).count();
        let mut room = self.regulars.len().saturating_sub(companions);
        for seat in 0..MAX_SEATS as SeatId {
            let empty = self.is_free(seat);
            let waited = &mut self.empty_for[usize::from(seat)];
            *waited = if empty { *waited + 1 } else { 0 };
            if !empty || *waited < 2 || room == 0 || self.arrivals.below(ARRIVAL_ODDS) != 0 {
                continue;
            }
            // Someone not already at the table and not gone home, picked by the table's seeded dice.
            let free: Vec<(String, Personality)> = self
                .regulars
                .iter()
                .map(|c| (c.name.clone(), c.personality))
                .chain(GUESTS.map(|(name, p)| (name.to_string(), p)))
                .filter(|(name, _)| {
                    !self.occupants().any(|(_, o)| &o.name == name) && !self.departed.contains(name)
                })
                .collect();
            if free.is_empty() {
                continue;
            }
            let (name, personality) = free[self.arrivals.below(free.len() as u32) as usize].clone();
            let units = 20 + i64::from(self.arrivals.below(41));
            let occupant = Occupant {
                name,
                buy_in: Cents(self.table.rules().min_bet.0 * units),
                person: false,
                mind: Some(Mind::new(
                    personality,
                    self.table.rules(),
                    self.mind_seed(seat).map(|b| b ^ (round as u8)),
                )),
            };
            if let Ok(sat) = self.sit(seat, occupant) {
                news.extend(sat);
                news.push(News::Said {
                    seat,
                    line: "Mind if I join you?".to_string(),
                });
                room -= 1;
            }
        }
        news
    }
}

impl TableState for Host {
    fn rules(&self) -> &Rules {
        self.table.rules()
    }
    fn phase(&self) -> Phase {
        self.table.phase()
    }
    fn seats(&self) -> &[Seat; MAX_SEATS] {
        self.table.seats()
    }
    fn hands(&self) -> &[Hand] {
        self.table.hands()
    }
    fn house(&self) -> Cents {
        self.table.house()
    }
    fn cards_available(&self) -> usize {
        self.table.cards_available()
    }
    fn upcard(&self) -> Option<Card> {
        self.table.upcard()
    }
}
