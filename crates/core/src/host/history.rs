//! A player's hands, kept: the last hands as records (bounded; older ones fold into the totals), statistics over
//! them, and export to CSV and JSON. Bevy-free, built from the recorder's rounds ([`crate::host::record`]), so the terminal
//! table, the game and the server keep the same kind of history. Versioned for the file it lives in.

use crate::engine::{Action, Card, Cents, Outcome, SeatId};
use crate::host::record::{Decision, RoundRecord, SideBetRecord, cards_text, decisions_text};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;

/// The history file's version.
pub const VERSION: u32 = 1;

/// Hands kept natively; the browser keeps [`BROWSER_LIMIT`].
pub const NATIVE_LIMIT: usize = 10_000;

/// Hands kept in the browser's storage.
pub const BROWSER_LIMIT: usize = 1_000;

/// How far back [`History::extend_new`] looks for a hand it already has: more than a journal holds between two
/// writes of the history.
const RECENT: usize = 512;

/// Milliseconds since 1970, as hands are timed (the browser's clock in the browser, where the system's is absent).
pub fn now_ms() -> i64 {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::js_sys::Date::now() as i64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    }
}

/// One hand a player played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedHand {
    /// The table's name.
    pub table: String,
    /// Its rules' shorthand.
    pub rules: String,
    /// The round.
    pub round: u64,
    /// The seat.
    pub seat: SeatId,
    /// The hand of the seat (0 first; more after splits).
    pub hand: u8,
    /// The seat split this round (this is one of its split hands).
    pub split: bool,
    /// The cards as dealt.
    pub cards: Vec<Card>,
    /// Each decision, with the chart's play beside it.
    pub decisions: Vec<Decision>,
    /// The dealer's cards as shown.
    pub dealer: Vec<Card>,
    /// How it ended.
    pub outcome: Outcome,
    /// What was on it at the end.
    pub wager: Cents,
    /// What it won (negative when lost).
    pub net: Cents,
    /// On the seat's first hand: what the round's insurance brought (zero when none was taken).
    pub insurance: Cents,
    /// On the seat's first hand: the round's side bets.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub side_bets: Vec<SideBetRecord>,
    /// The bankroll after the round.
    pub bankroll: Cents,
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
    /// The cards the round dealt to this seat and the dealer, in the order they came out of the shoe (an unturned
    /// hole card is none): what a replay deals.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deal: Vec<Option<Card>>,
    /// The player's own hand; false for another seat's, kept on request. Totals count only the player's.
    #[serde(default = "yours")]
    pub yours: bool,
    /// What the round was expected to bring when it was dealt: the bet at the round's exact value on the cards the
    /// seat had not seen (every hand played as well as that shoe allows) and each side bet at its own, on the seat's
    /// first hand; zero on its other hands; none where it was not worked out (the game worked it out too late, or
    /// not at all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<Cents>,
}

fn yours() -> bool {
    true
}

impl PlayedHand {
    /// The hands `seat` played in a recorded round, with the bankroll it had after it.
    pub fn from_round(
        table: &str,
        rules: &str,
        round: &RoundRecord,
        seat: SeatId,
        bankroll: Cents,
        at_ms: i64,
    ) -> Vec<PlayedHand> {
        let Some(record) = round.seat(seat) else {
            return Vec::new();
        };
        let split = record.hands.len() > 1;
        record
            .hands
            .iter()
            .enumerate()
            .filter_map(|(i, hand)| {
                Some(PlayedHand {
                    table: table.to_string(),
                    rules: rules.to_string(),
                    round: round.round,
                    seat,
                    hand: i as u8,
                    split,
                    cards: hand.cards.clone(),
                    decisions: hand.decisions.clone(),
                    dealer: round.dealer.clone(),
                    outcome: hand.outcome?,
                    wager: hand.wager,
                    net: hand.net,
                    insurance: if i == 0 {
                        record.insurance
                    } else {
                        Cents::ZERO
                    },
                    side_bets: if i == 0 {
                        record.side_bets.clone()
                    } else {
                        Vec::new()
                    },
                    bankroll,
                    at_ms,
                    yours: true,
                    expected: None,
                    deal: round
                        .deals
                        .iter()
                        .filter(|(to, _)| to.is_none() || *to == Some(seat))
                        .map(|&(_, card)| card)
                        .collect(),
                })
            })
            .collect()
    }

    /// What the side bets on this hand's row brought, all told.
    pub fn side_net(&self) -> Cents {
        self.side_bets.iter().map(|s| s.net).sum()
    }

    /// Everything the row moved: the hand, and on a seat's first hand the round's insurance and side bets.
    pub fn total_net(&self) -> Cents {
        self.net + self.insurance + self.side_net()
    }

    /// The decisions as text, `hit (book: stand), stand`.
    pub fn decisions_text(&self) -> String {
        decisions_text(&self.decisions)
    }

    fn won(&self) -> bool {
        self.net.is_positive()
    }

    fn lost(&self) -> bool {
        self.net < Cents::ZERO
    }
}

/// Statistics over hands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Hands played.
    pub hands: u64,
    /// Hands won (blackjacks and even money included).
    pub won: u64,
    /// Hands lost (busts and surrenders included).
    pub lost: u64,
    /// Hands pushed.
    pub pushed: u64,
    /// Naturals paid as blackjack.
    pub blackjacks: u64,
    /// Hands that went over 21.
    pub busts: u64,
    /// Hands surrendered.
    pub surrenders: u64,
    /// Hands doubled, and of those won.
    pub doubles: u64,
    /// Doubled hands won.
    pub doubles_won: u64,
    /// Hands played after a split, and of those won.
    pub split_hands: u64,
    /// Split hands won.
    pub split_hands_won: u64,
    /// Insurance bets taken, and of those won.
    pub insurance_taken: u64,
    /// Insurance bets won.
    pub insurance_won: u64,
    /// What the insurance brought, all told.
    pub insurance_net: Cents,
    /// Side bets made, and of those won.
    #[serde(default)]
    pub side_bets: u64,
    /// Side bets won.
    #[serde(default)]
    pub side_bets_won: u64,
    /// What the side bets brought, all told.
    #[serde(default)]
    pub side_net: Cents,
    /// Everything won and lost: hands, insurance and side bets.
    pub net: Cents,
    /// The best hand.
    pub biggest_win: Cents,
    /// The worst hand (negative).
    pub biggest_loss: Cents,
    /// Most hands won in a row (pushes neither break nor extend a streak).
    pub longest_winning: u64,
    /// Most hands lost in a row.
    pub longest_losing: u64,
    /// The streak now: hands won in a row (positive) or lost (negative).
    pub streak: i64,
    /// Decisions taken where the chart's play is known, and of those, how many differed from it.
    pub decisions: u64,
    /// Decisions that differed from the chart.
    pub off_book: u64,
    /// What those cost in expected value, all told (the chart's play's value less the one chosen, on the hand's bet).
    #[serde(default)]
    pub off_book_cost: Cents,
    /// The most chips held after a hand.
    pub highscore: Cents,
    /// Luck told from skill, over the rounds whose expected result was worked out when dealt: how many there were,
    /// what they brought (hands, insurance, side bets), what they were expected to bring, and what the decisions in
    /// them cost against the chart's plays.
    #[serde(default)]
    pub priced: Priced,
}

/// The rounds whose expected result is known, and what they brought, for telling luck from skill.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Priced {
    /// Rounds.
    pub rounds: u64,
    /// What they brought.
    pub net: Cents,
    /// What the bets and side bets were expected to bring, dealt.
    pub expected: Cents,
    /// What the decisions cost against the chart's plays (negative: what they gained).
    pub decisions: Cents,
}

impl Priced {
    /// What the cards gave: the net less what the bets were expected to bring and less what the decisions cost.
    pub fn luck(&self) -> Cents {
        self.net - self.expected + self.decisions
    }
}

impl Totals {
    /// Takes one hand in (in the order played).
    pub fn add(&mut self, hand: &PlayedHand) {
        self.hands += 1;
        let won = hand.won();
        let lost = hand.lost();
        self.won += u64::from(won);
        self.lost += u64::from(lost);
        self.pushed += u64::from(!won && !lost);
        self.blackjacks += u64::from(hand.outcome == Outcome::Blackjack);
        self.busts += u64::from(hand.outcome == Outcome::Bust);
        self.surrenders += u64::from(hand.outcome == Outcome::Surrender);
        let doubled = hand.decisions.iter().any(|d| d.action == Action::Double);
        self.doubles += u64::from(doubled);
        self.doubles_won += u64::from(doubled && won);
        self.split_hands += u64::from(hand.split);
        self.split_hands_won += u64::from(hand.split && won);
        if hand.insurance != Cents::ZERO {
            self.insurance_taken += 1;
            self.insurance_won += u64::from(hand.insurance.is_positive());
            self.insurance_net += hand.insurance;
        }
        for side in &hand.side_bets {
            self.side_bets += 1;
            self.side_bets_won += u64::from(side.net.is_positive());
            self.side_net += side.net;
        }
        self.net += hand.total_net();
        self.biggest_win = self.biggest_win.max(hand.net);
        self.biggest_loss = self.biggest_loss.min(hand.net);
        self.streak = match (won, lost) {
            (true, _) => self.streak.max(0) + 1,
            (_, true) => self.streak.min(0) - 1,
            _ => self.streak,
        };
        self.longest_winning = self.longest_winning.max(self.streak.max(0) as u64);
        self.longest_losing = self.longest_losing.max((-self.streak).max(0) as u64);
        for decision in &hand.decisions {
            if let Some(book) = decision.book {
                self.decisions += 1;
                self.off_book += u64::from(book != decision.action);
                self.off_book_cost += decision.cost.unwrap_or(Cents::ZERO);
            }
        }
        self.highscore = self.highscore.max(hand.bankroll);
        if let Some(expected) = hand.expected {
            self.priced.rounds += u64::from(hand.hand == 0);
            self.priced.net += hand.total_net();
            self.priced.expected += expected;
            self.priced.decisions += hand.decisions.iter().filter_map(|d| d.cost).sum::<Cents>();
        }
    }

    /// `part` of the hands as a percentage (0 with no hands).
    pub fn percent(&self, part: u64) -> f64 {
        match self.hands {
            0 => 0.0,
            hands => 100.0 * part as f64 / hands as f64,
        }
    }
}

/// A player's kept hands: the last `limit` as records, and the totals of every hand before them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct History {
    /// [`VERSION`].
    pub version: u32,
    /// How many hands are kept as records.
    pub limit: usize,
    /// The kept hands, oldest first.
    pub hands: VecDeque<PlayedHand>,
    /// The totals of the hands folded out of the records.
    pub folded: Totals,
}

impl History {
    /// An empty history keeping `limit` hands.
    pub fn new(limit: usize) -> History {
        History {
            version: VERSION,
            limit: limit.max(1),
            hands: VecDeque::new(),
            folded: Totals::default(),
        }
    }

    /// Keeps a hand; the oldest folds into the totals when there are more than the limit.
    pub fn push(&mut self, hand: PlayedHand) {
        self.hands.push_back(hand);
        while self.hands.len() > self.limit {
            if let Some(old) = self.hands.pop_front()
                && old.yours
            {
                self.folded.add(&old);
            }
        }
    }

    /// Keeps the hands not already among the last kept ones (hands read back from a journal that the history may
    /// already have been written with); how many were new.
    pub fn extend_new(&mut self, hands: impl IntoIterator<Item = PlayedHand>) -> usize {
        let mut added = 0;
        for hand in hands {
            let known = self.hands.iter().rev().take(RECENT).any(|h| *h == hand);
            if !known {
                self.push(hand);
                added += 1;
            }
        }
        added
    }

    /// Every hand's totals: the folded ones and the kept ones.
    pub fn totals(&self) -> Totals {
        let mut totals = self.folded.clone();
        for hand in self.hands.iter().filter(|h| h.yours) {
            totals.add(hand);
        }
        totals
    }

    /// The player's kept hands by sitting, oldest first. A sitting is the rounds played at one table from sitting
    /// down: it deals from round 1, and one resumed where it was kept goes on counting, so a round numbered no
    /// higher than the one before it, or another table, begins the next sitting. The first may have begun before
    /// the oldest hand kept.
    pub fn sittings(&self) -> Vec<Sitting> {
        let mut sittings: Vec<Sitting> = Vec::new();
        let mut last: Option<&PlayedHand> = None;
        for hand in self.hands.iter().filter(|h| h.yours) {
            // The same round: its hands come together, one deal's time on each, in their order at the seat.
            let same_round = last.is_some_and(|l| {
                (l.table.as_str(), l.round, l.at_ms)
                    == (hand.table.as_str(), hand.round, hand.at_ms)
                    && hand.hand > l.hand
            });
            let goes_on = last.is_some_and(|l| l.table == hand.table && hand.round > l.round);
            match sittings.last_mut() {
                Some(sitting) if same_round || goes_on => sitting.last_round = hand.round,
                _ => sittings.push(Sitting {
                    table: hand.table.clone(),
                    first_round: hand.round,
                    last_round: hand.round,
                    started_ms: hand.at_ms,
                    totals: Totals::default(),
                }),
            }
            if let Some(sitting) = sittings.last_mut() {
                sitting.totals.add(hand);
            }
            last = Some(hand);
        }
        sittings
    }

    /// The sitting being played at `table` when `dealt` rounds have been dealt there: the last sitting, when it was
    /// at that table and none of its rounds came after the `dealt`th. A table just sat down at afresh has dealt none
    /// yet, so the sitting before it at the same table, whose rounds go further, is not taken for it; a sitting
    /// resumed goes on from its own count and is.
    pub fn sitting_at(&self, table: &str, dealt: u64) -> Option<Sitting> {
        self.sittings()
            .pop()
            .filter(|s| s.table == table && s.last_round <= dealt)
    }

    /// The kept hands as CSV: a header row, then a row a hand (amounts in dollars and cents).
    pub fn to_csv(&self) -> Result<String, String> {
        let mut out = csv::Writer::from_writer(Vec::new());
        for hand in &self.hands {
            out.serialize(CsvRow::of(hand))
                .map_err(|e| format!("writing the history as CSV: {e}"))?;
        }
        let bytes = out
            .into_inner()
            .map_err(|e| format!("writing the history as CSV: {e}"))?;
        String::from_utf8(bytes).map_err(|e| format!("writing the history as CSV: {e}"))
    }

    /// The history as JSON: every kept hand with its cards and decisions, and the totals.
    pub fn to_json(&self) -> Result<String, String> {
        #[derive(Serialize)]
        struct Export<'a> {
            version: u32,
            totals: Totals,
            sittings: Vec<Sitting>,
            hands: &'a VecDeque<PlayedHand>,
        }
        serde_json::to_string_pretty(&Export {
            version: self.version,
            totals: self.totals(),
            sittings: self.sittings(),
            hands: &self.hands,
        })
        .map_err(|e| format!("writing the history as JSON: {e}"))
    }
}

/// The player's rounds at one table from sitting down ([`History::sittings`]), and their totals.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sitting {
    /// The table's name.
    pub table: String,
    /// Its first round kept.
    pub first_round: u64,
    /// Its last round kept.
    pub last_round: u64,
    /// When its first round kept was played, in milliseconds since 1970.
    pub started_ms: i64,
    /// Its hands' totals, luck told from skill among them.
    pub totals: Totals,
}

/// One row of the CSV export.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CsvRow {
    /// The round.
    pub round: u64,
    /// The table.
    pub table: String,
    /// Its rules.
    pub rules: String,
    /// The seat, 1 (first base) to 7.
    pub seat: u8,
    /// The hand of the seat, 1 first.
    pub hand: u8,
    /// The player's own hand (false: another seat's, kept on request).
    pub yours: bool,
    /// The cards, `A♠ 10♥`.
    pub cards: String,
    /// The dealer's cards.
    pub dealer: String,
    /// The decisions, with the chart's play after one that differs.
    pub decisions: String,
    /// Dollars of expected value the decisions off the chart gave away.
    pub off_chart_cost: String,
    /// How it ended.
    pub outcome: String,
    /// Dollars on it.
    pub wager: String,
    /// Dollars won or lost.
    pub net: String,
    /// Dollars the insurance brought.
    pub insurance: String,
    /// The side bets: each one's name, stake and what it made.
    #[serde(default)]
    pub side_bets: String,
    /// Dollars the side bets brought.
    #[serde(default)]
    pub side_net: String,
    /// The bankroll after the round, in dollars.
    pub bankroll: String,
    /// Dollars the round was expected to bring when dealt (its first hand; empty where not worked out).
    #[serde(default)]
    pub expected: String,
    /// When, in milliseconds since 1970.
    pub at_ms: i64,
}

impl CsvRow {
    /// A hand's row.
    pub fn of(hand: &PlayedHand) -> CsvRow {
        CsvRow {
            round: hand.round,
            table: hand.table.clone(),
            rules: hand.rules.clone(),
            seat: hand.seat + 1,
            hand: hand.hand + 1,
            yours: hand.yours,
            cards: cards_text(&hand.cards),
            dealer: cards_text(&hand.dealer),
            decisions: hand.decisions_text(),
            off_chart_cost: hand
                .decisions
                .iter()
                .filter_map(|d| d.cost)
                .sum::<Cents>()
                .decimal()
                .to_string(),
            outcome: hand.outcome.label().trim_end_matches('!').to_string(),
            wager: hand.wager.decimal().to_string(),
            net: hand.net.decimal().to_string(),
            insurance: hand.insurance.decimal().to_string(),
            side_bets: hand
                .side_bets
                .iter()
                .map(SideBetRecord::words)
                .collect::<Vec<_>>()
                .join("; "),
            side_net: hand.side_net().decimal().to_string(),
            bankroll: hand.bankroll.decimal().to_string(),
            expected: hand
                .expected
                .map_or_else(String::new, |e| e.decimal().to_string()),
            at_ms: hand.at_ms,
        }
    }
}

/// A history played at a table: for the tests of the history and of the pages that show kept hands.
pub mod sample {
    use super::*;
    use crate::engine::{Command, Rules, Table, TableState, Viewer, seed_from_number};
    use crate::host::record::Recorder;

    /// The Strip's rules with 21+3 and Buster Blackjack offered, as [`played`] plays them.
    pub fn side_bet_rules() -> Rules {
        let mut rules = Rules::default();
        rules
            .side_bets
            .offer(crate::engine::side::SideBet::TwentyOnePlusThree);
        rules.side_bets.offer(crate::engine::side::SideBet::Buster);
        rules
    }

    /// `rounds` rounds of one seat at a table: basic strategy, except that it hits every hard 12 (off the chart
    /// against a 4, 5 or 6) and always insures, with $5 on 21+3 every round and $2 on Buster every third; the
    /// history and the bankroll after each round.
    pub fn played(rounds: usize, limit: usize) -> (History, Vec<Cents>) {
        use crate::engine::side::SideBet;
        let rules = side_bet_rules();
        let mut table = Table::new(rules.clone(), seed_from_number(5), Cents::units(1_000_000))
            .expect("default rules are valid");
        table
            .apply(Command::Join {
                seat: 3,
                buy_in: Cents::units(100_000),
            })
            .expect("a free seat");
        let strategy = crate::engine::BasicStrategy::for_rules(&rules);
        let mut recorder = Recorder::following(table.view(Viewer::Seat(3)));
        let mut history = History::new(limit);
        let mut bankrolls = Vec::new();
        for round in 0..rounds {
            let mut events = Vec::new();
            for (bet, units, every) in
                [(SideBet::TwentyOnePlusThree, 5, 1), (SideBet::Buster, 2, 3)]
            {
                if round % every == 0 {
                    events.extend(
                        table
                            .apply(Command::SideBet {
                                seat: 3,
                                bet,
                                amount: Cents::units(units),
                            })
                            .expect("a side bet"),
                    );
                }
            }
            events.extend(
                table
                    .apply(Command::Bet {
                        seat: 3,
                        amount: Cents::units(25),
                    })
                    .expect("a bet"),
            );
            events.extend(table.apply(Command::Deal).expect("a deal"));
            while let Some(seat) = table.seat_to_act() {
                let hard_12 = table.seat_hands(seat).any(|h| {
                    h.state == crate::engine::HandState::Playing
                        && !h.cards.total().is_soft()
                        && h.cards.total().value() == 12
                });
                let legal = table.legal_actions(seat);
                let action = if legal.contains(Action::TakeInsurance) {
                    Action::TakeInsurance
                } else if hard_12 && legal.contains(Action::Hit) {
                    Action::Hit
                } else {
                    match strategy.decide(&table, seat).and_then(|c| c.action()) {
                        Some(action) => action,
                        None => break,
                    }
                };
                let command = action.command(seat, table.max_insurance(seat));
                events.extend(table.apply(command).expect("a legal action"));
            }
            let bankroll = table.seats()[3].chips();
            for event in &events {
                if let Some(round) = recorder.hear(event) {
                    for hand in PlayedHand::from_round("Strip", "6D S17", &round, 3, bankroll, 0) {
                        history.push(hand);
                    }
                }
            }
            bankrolls.push(bankroll);
        }
        (history, bankrolls)
    }
}

#[cfg(test)]
mod tests {
    use super::sample::played;
    use super::*;

    #[test]
    fn the_totals_are_the_sum_of_the_hands_and_the_bankroll_follows_the_table() {
        let (history, bankrolls) = played(2_000, NATIVE_LIMIT);
        let totals = history.totals();
        let start = Cents::units(100_000);
        // Every hand's net and every insurance add up to the bankroll's change, round by round.
        let mut bankroll = start;
        let mut rounds = history.hands.iter().peekable();
        let mut i = 0;
        while let Some(first) = rounds.next() {
            bankroll += first.total_net();
            while let Some(next) = rounds.next_if(|h| h.round == first.round) {
                bankroll += next.total_net();
            }
            assert_eq!(first.bankroll, bankroll, "round {}", first.round);
            assert_eq!(bankrolls[i], bankroll);
            i += 1;
        }
        assert_eq!(i, 2_000, "every round played is in the history");
        assert_eq!(start + totals.net, *bankrolls.last().expect("rounds"));
        let counted = totals.won + totals.lost + totals.pushed;
        assert_eq!(
            (counted, totals.hands),
            (history.hands.len() as u64, counted)
        );
        assert!(
            totals.blackjacks > 0
                && totals.busts > 0
                && totals.doubles > 0
                && totals.split_hands > 0
        );
        assert!(totals.insurance_taken > 0 && totals.insurance_taken >= totals.insurance_won);
        // 21+3 every round and Buster every third: each settled, each in the net.
        assert_eq!(totals.side_bets, 2_000 + 667);
        assert!(totals.side_bets_won > 0 && totals.side_bets_won < totals.side_bets);
        let side: Cents = history.hands.iter().map(PlayedHand::side_net).sum();
        assert_eq!(totals.side_net, side);
        assert!(
            history.hands.iter().any(|h| h
                .side_bets
                .iter()
                .any(|s| s.bet == crate::engine::side::SideBet::Buster && s.net.is_positive())),
            "a Buster bet paid"
        );
        // Hitting every hard 12 is off the chart against 4 to 6 (and insurance always is): both are counted.
        assert!(totals.off_book > totals.insurance_taken, "{totals:?}");
        assert!(totals.off_book < totals.decisions / 4, "{totals:?}");
        // Each of those is priced, never as a gain, and the totals add the prices up.
        let decisions = || history.hands.iter().flat_map(|h| &h.decisions);
        assert!(
            decisions()
                .filter(|d| d.book.is_some_and(|book| book != d.action))
                .all(|d| d.cost.is_some_and(|c| c >= Cents::ZERO)),
            "every decision off the chart has a price"
        );
        assert!(
            decisions()
                .filter(|d| d.book == Some(d.action))
                .all(|d| d.cost == Some(Cents::ZERO)),
            "the chart's play costs nothing"
        );
        let priced: Cents = decisions().filter_map(|d| d.cost).sum();
        assert_eq!(totals.off_book_cost, priced);
        assert!(totals.off_book_cost > Cents::ZERO, "{totals:?}");
        assert!(
            totals.longest_winning >= 3 && totals.longest_losing >= 3,
            "{totals:?}"
        );
        assert_eq!(
            totals.highscore,
            bankrolls.iter().copied().max().unwrap_or_default()
        );
    }

    #[test]
    fn hands_over_the_limit_fold_into_the_totals_unchanged() {
        let (all, _) = played(600, NATIVE_LIMIT);
        let (kept, _) = played(600, 100);
        assert_eq!(kept.hands.len(), 100);
        assert_eq!(
            kept.totals(),
            all.totals(),
            "folding loses nothing from the totals"
        );
        assert_eq!(kept.hands.back(), all.hands.back());
    }

    /// A round with its expected result counts once, all its hands' net with it; the net splits into what the bets
    /// were worth, what the plays added against the chart and what the cards gave; a round without one is left out.
    #[test]
    fn luck_is_told_from_skill_over_the_rounds_with_an_expected_result() {
        let (history, _) = played(40, NATIVE_LIMIT);
        let mut hands: Vec<PlayedHand> = history.hands.iter().cloned().collect();
        let first = hands
            .iter()
            .position(|h| h.yours && h.hand == 0)
            .expect("a hand");
        let round = (hands[first].table.clone(), hands[first].round);
        let mut net = Cents::ZERO;
        let mut cost = Cents::ZERO;
        for hand in hands
            .iter_mut()
            .filter(|h| (h.table.clone(), h.round) == round)
        {
            hand.expected = Some(if hand.hand == 0 {
                Cents(-12)
            } else {
                Cents::ZERO
            });
            net += hand.total_net();
            cost += hand.decisions.iter().filter_map(|d| d.cost).sum::<Cents>();
        }
        let mut totals = Totals::default();
        for hand in hands.iter().filter(|h| h.yours) {
            totals.add(hand);
        }
        let p = totals.priced;
        assert_eq!(p.rounds, 1);
        assert_eq!((p.net, p.expected, p.decisions), (net, Cents(-12), cost));
        assert_eq!(p.expected - p.decisions + p.luck(), p.net);
        let csv = CsvRow::of(&hands[first]);
        assert_eq!(csv.expected, "-0.12");
        assert_eq!(
            CsvRow::of(&hands[first + 1]).expected.is_empty(),
            hands[first + 1].expected.is_none()
        );
    }

    #[test]
    fn the_exports_read_back_to_the_same_hands() {
        let (history, _) = played(300, NATIVE_LIMIT);
        let csv = history.to_csv().expect("CSV");
        assert!(csv.starts_with(
            "round,table,rules,seat,hand,yours,cards,dealer,decisions,off_chart_cost,outcome,wager,net,insurance,\
             side_bets,side_net,bankroll,expected,at_ms\n"
        ));
        let rows: Vec<CsvRow> = csv::Reader::from_reader(csv.as_bytes())
            .deserialize()
            .collect::<Result<_, _>>()
            .expect("the CSV reads back");
        let expected: Vec<CsvRow> = history.hands.iter().map(CsvRow::of).collect();
        assert_eq!(rows, expected);
        assert!(
            rows.iter().any(|r| r.decisions.contains("(book: ")),
            "deviations are marked"
        );
        assert!(
            rows.iter().any(|r| r.side_bets.contains("21+3 $5: lost")),
            "{:?}",
            rows[0].side_bets
        );
        assert!(
            rows.iter().any(|r| r
                .side_bets
                .contains("Buster Blackjack $2: a dealer bust of")),
            "a Buster bet paid in the export"
        );
        let json: serde_json::Value =
            serde_json::from_str(&history.to_json().expect("JSON")).expect("the JSON reads back");
        let hands: Vec<PlayedHand> =
            serde_json::from_value(json["hands"].clone()).expect("every hand reads back");
        assert_eq!(hands, Vec::from(history.hands.clone()));
        let totals: Totals =
            serde_json::from_value(json["totals"].clone()).expect("the totals read back");
        assert_eq!(totals, history.totals());
        let sittings: Vec<Sitting> =
            serde_json::from_value(json["sittings"].clone()).expect("the sittings read back");
        assert_eq!(sittings, history.sittings());
    }

    #[test]
    fn the_sitting_at_a_table_is_the_last_one_only_while_its_rounds_are_the_tables() {
        // Strip, rounds 1 to 30, then the same table afresh: nothing dealt, then 2 rounds.
        let (played, _) = played(40, NATIVE_LIMIT);
        let mut history = History::new(NATIVE_LIMIT);
        for hand in played.hands.iter().filter(|h| h.round <= 30) {
            let mut hand = hand.clone();
            hand.table = "Strip".to_string();
            history.push(hand);
        }
        let first = history.sittings().pop().expect("a sitting of 30 rounds");
        assert_eq!((first.first_round, first.last_round), (1, 30));
        // Resumed at round 30, before its next round: the same sitting.
        assert_eq!(history.sitting_at("Strip", 30), Some(first.clone()));
        assert_eq!(history.sitting_at("Strip", 31), Some(first.clone()));
        // Another table, or the Strip sat down at afresh with nothing dealt: no sitting yet.
        assert_eq!(history.sitting_at("Atlantic City", 30), None);
        assert_eq!(history.sitting_at("Strip", 0), None);
        // Two rounds into the new sitting: those two rounds alone.
        for hand in played.hands.iter().filter(|h| (31..=32).contains(&h.round)) {
            let mut hand = hand.clone();
            hand.table = "Strip".to_string();
            hand.round -= 30;
            hand.at_ms += 1_000_000;
            history.push(hand);
        }
        let now = history.sitting_at("Strip", 2).expect("the new sitting");
        assert_eq!((now.first_round, now.last_round), (1, 2));
        assert_ne!(now.totals, first.totals);
        let mut totals = Totals::default();
        for hand in played
            .hands
            .iter()
            .filter(|h| h.yours && (31..=32).contains(&h.round))
        {
            totals.add(hand);
        }
        assert_eq!(now.totals, totals);
    }

    #[test]
    fn hands_are_told_apart_by_sitting() {
        // 120 rounds played, then dealt out to five sittings as a player would have played them, each hand labelled
        // with its sitting: Strip from round 1 to 40, kept and resumed at 41 (one sitting); Strip afresh from round
        // 1 (rounds 51–90 numbered again); Atlantic City from round 1; then a sitting of a single round 1 at the
        // Strip, twice, one after the other.
        let (played, _) = played(120, NATIVE_LIMIT);
        let mut history = History::new(NATIVE_LIMIT);
        let mut labelled = Vec::new();
        for hand in &played.hands {
            let mut hand = hand.clone();
            let round = hand.round;
            let (sitting, table, number) = match round {
                1..=50 => (0, "Strip", round),
                51..=90 => (1, "Strip", round - 50),
                91..=118 => (2, "Atlantic City", round - 90),
                119 => (3, "Strip", 1),
                _ => (4, "Strip", 1),
            };
            hand.table = table.to_string();
            hand.round = number;
            hand.at_ms = 1_000 * round as i64;
            labelled.push(sitting);
            history.push(hand);
        }
        // Another seat's hands, kept on request, are not the player's.
        let mut other = history.hands[3].clone();
        other.yours = false;
        other.round = 1;
        history.hands.insert(4, other);
        let sittings = history.sittings();
        assert_eq!(sittings.len(), 5, "{sittings:?}");
        for (index, sitting) in sittings.iter().enumerate() {
            let mut totals = Totals::default();
            let mine = played
                .hands
                .iter()
                .zip(&labelled)
                .filter(|(_, label)| **label == index);
            for (hand, _) in mine {
                totals.add(hand);
            }
            assert_eq!(sitting.totals, totals, "sitting {index}");
        }
        let rounds: Vec<_> = sittings
            .iter()
            .map(|s| (s.table.as_str(), s.first_round, s.last_round))
            .collect();
        assert_eq!(
            rounds,
            [
                ("Strip", 1, 50),
                ("Strip", 1, 40),
                ("Atlantic City", 1, 28),
                ("Strip", 1, 1),
                ("Strip", 1, 1)
            ]
        );
        assert!(
            played.hands.iter().any(|h| h.split),
            "the rounds hold a split, whose hands share their round"
        );
        let all: u64 = sittings.iter().map(|s| s.totals.hands).sum();
        assert_eq!(all, history.totals().hands);
    }
}
