//! The player's side: standing, hitting and doubling by recursion over the hand's compositions, memoised; splitting
//! by Farmer's algorithm; the peek's conditioning; the whole table's value.

use super::compositions::{self, Compositions, NONE};
use super::dealer;
use super::{ExactError, ExactRules, PostSplit, RANKS, Ranks};
use crate::engine::card::Card;
use crate::engine::command::Action;
use crate::engine::hand::Cards;
use crate::engine::rules::{HoleCard, Surrender};
use crate::engine::strategy::BasicStrategy;

/// A live question: a hand against an up card on the cards the seat has not seen.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// The rules that change a hand's value.
    pub rules: ExactRules,
    /// The cards not seen: where the next card comes from (the hole card among them).
    pub unseen: Ranks,
    /// The player's cards by points (1 = ace … 10 = any ten-card).
    pub hand: Vec<u8>,
    /// The dealer's up card by points.
    pub up: u8,
    /// The dealer has looked and has no blackjack (values are conditioned on it).
    pub peeked: bool,
    /// The hand came from a split: two cards making 21 are not a blackjack.
    pub split_hand: bool,
}

/// A split's value under each post-split strategy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitValues {
    /// CDZ-.
    pub cdz: f64,
    /// CDP1.
    pub cdp1: f64,
    /// CDP.
    pub cdp: f64,
}

/// What each play is worth, per unit of the initial bet; `None` where the play is not offered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Values {
    /// Standing.
    pub stand: f64,
    /// Hitting, then playing on as well as can be.
    pub hit: f64,
    /// Doubling (one card, twice the bet).
    pub double: Option<f64>,
    /// Surrendering.
    pub surrender: Option<f64>,
    /// Splitting the pair.
    pub split: Option<SplitValues>,
    /// Taking insurance (half the bet, paying 2 to 1 on a dealer blackjack): the side bet's value alone.
    pub insurance: Option<f64>,
}

/// A play, as the values name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Best {
    /// Standing.
    Stand,
    /// Hitting.
    Hit,
    /// Doubling.
    Double,
    /// Splitting.
    Split,
    /// Surrendering.
    Surrender,
}

impl Best {
    /// The chart's letter for it: S, H, D, P, R.
    pub fn letter(self) -> char {
        match self {
            Best::Stand => 'S',
            Best::Hit => 'H',
            Best::Double => 'D',
            Best::Split => 'P',
            Best::Surrender => 'R',
        }
    }
}

impl Values {
    /// The play worth most (a split by `mode`), and its value; ties go to the play listed first (stand, hit, double,
    /// split, surrender).
    pub fn best(&self, mode: PostSplit) -> (Best, f64) {
        let split = self.split.map(|split| match mode {
            PostSplit::Cdz => split.cdz,
            PostSplit::Cdp1 => split.cdp1,
            PostSplit::Cdp => split.cdp,
        });
        let mut best = (Best::Stand, self.stand);
        for (play, value) in [
            (Best::Hit, Some(self.hit)),
            (Best::Double, self.double),
            (Best::Split, split),
            (Best::Surrender, self.surrender),
        ] {
            if let Some(value) = value
                && value > best.1
            {
                best = (play, value);
            }
        }
        best
    }
}

/// Stand, hit and double for an unsplit hand, unconditioned on the peek, a dealer blackjack taking the original bet.
#[derive(Clone, Copy, Debug)]
struct Node {
    stand: f64,
    hit: f64,
    double: f64,
}

/// The same for a split hand, with hitting valued under each post-split strategy (`PostSplit::index`).
#[derive(Clone, Copy, Debug)]
struct SplitNode {
    stand: f64,
    double: f64,
    hit: [f64; 3],
}

/// The post-split strategies' places (`PostSplit::index`).
const CDZ: usize = 0;
const CDP1: usize = 1;
const CDP: usize = 2;

const STAND: u8 = 0;
const HIT: u8 = 1;
const DOUBLE: u8 = 2;

/// The best of stand, hit and double by these values, ties to the earlier (as Farmer's analyzer breaks them).
fn best(stand: f64, hit: f64, double: f64, may_double: bool) -> u8 {
    let mut value = stand;
    let mut option = STAND;
    if value < hit {
        value = hit;
        option = HIT;
    }
    if may_double && value < double {
        option = DOUBLE;
    }
    option
}

fn pick(stand: f64, hit: f64, double: f64, option: u8) -> f64 {
    match option {
        STAND => stand,
        HIT => hit,
        _ => double,
    }
}

fn natural(hand: &Ranks) -> bool {
    hand[0] == 1 && hand[9] == 1 && hand.iter().sum::<u8>() == 2
}

/// One up card's values, memoised by composition (split hands by composition for one pair and one number of pair
/// cards gone at a time).
struct Solver<'a> {
    rules: ExactRules,
    /// The shoe before the round: the unseen cards, the player's cards and the up card.
    shoe: Ranks,
    up: usize,
    slot: usize,
    hands: &'a Compositions,
    whole: Vec<Option<Node>>,
    /// Split hands with one pair card gone besides their own (Farmer's X[0]), for the pair being valued.
    first: Vec<Option<SplitNode>>,
    /// Split hands with more gone, for the number being valued.
    later: Vec<Option<SplitNode>>,
    touched_first: Vec<u32>,
    touched_later: Vec<u32>,
    /// Play by this chart instead of as well as the values say (the house edge a chart player faces).
    chart: Option<&'a BasicStrategy>,
    /// The chart's plays asked so far, by composition and whether the hand may double (`UNASKED` before).
    chart_plays: Vec<[u8; 2]>,
    /// Splits valued under CDZ- alone ([`table_cdz`]): a split hand's values are worked out only where CDZ-'s plays
    /// go, and the other strategies' values are not a number.
    cdz_only: bool,
}

/// A [`Solver`]'s memos apart from the compositions it borrows, kept between the pieces of a [`RoundSteps`].
#[derive(Default)]
struct Memo {
    whole: Vec<Option<Node>>,
    first: Vec<Option<SplitNode>>,
    later: Vec<Option<SplitNode>>,
    touched_first: Vec<u32>,
    touched_later: Vec<u32>,
    chart_plays: Vec<[u8; 2]>,
}

/// What [`Solver::cdz_reach`] has been through for one number of pair cards gone: each hand (by composition, with
/// whether it could double), and each hand whose odds (with the pair cards gone) it has already listed as needed.
struct Marks {
    through: Vec<[bool; 2]>,
    needed: Vec<bool>,
}

impl Marks {
    fn new(hands: usize) -> Marks {
        Marks {
            through: vec![[false; 2]; hands],
            needed: vec![false; hands],
        }
    }

    fn clear(&mut self) {
        self.through.fill([false; 2]);
        self.needed.fill(false);
    }

    /// True the first time hand `i` is gone through with `may_double`.
    fn go_through(&mut self, i: u32, may_double: bool) -> bool {
        !std::mem::replace(&mut self.through[i as usize][usize::from(may_double)], true)
    }

    /// Lists hand `i`'s composition with the pair cards gone (`cards`) as needed, once.
    fn need(&mut self, i: u32, cards: impl FnOnce() -> Ranks, needed: &mut Vec<Ranks>) {
        if !std::mem::replace(&mut self.needed[i as usize], true) {
            needed.push(cards());
        }
    }
}

/// A chart play not yet asked for.
const UNASKED: u8 = u8::MAX;

/// A card of these points, for asking the chart.
fn card_of(points: usize) -> Card {
    Card::of_points(points as u8)
}

/// A hand of these counts, for asking the chart (the order does not change a total-dependent chart's play).
fn cards_of(hand: &Ranks) -> Cards {
    let mut cards = Cards::default();
    for (rank, &n) in hand.iter().enumerate() {
        for _ in 0..n {
            cards.push(card_of(rank + 1));
        }
    }
    cards
}

impl<'a> Solver<'a> {
    /// The chart's play for hand `i` as stand, hit or double, if the solver plays by a chart.
    fn chart_play(&mut self, i: u32, may_double: bool) -> Option<u8> {
        let chart = self.chart?;
        if self.chart_plays.is_empty() {
            self.chart_plays = vec![[UNASKED; 2]; self.hands.cards.len()];
        }
        let known = self.chart_plays[i as usize][usize::from(may_double)];
        if known != UNASKED {
            return Some(known);
        }
        let cards = cards_of(&self.hands.cards[i as usize]);
        let allowed = |action: Action| match action {
            Action::Hit | Action::Stand => true,
            Action::Double => may_double,
            _ => false,
        };
        let play = match chart.play(&cards, card_of(self.up + 1), allowed) {
            Action::Stand => STAND,
            Action::Double => DOUBLE,
            _ => HIT,
        };
        self.chart_plays[i as usize][usize::from(may_double)] = play;
        Some(play)
    }

    fn new(
        rules: ExactRules,
        shoe: Ranks,
        up: usize,
        slot: usize,
        hands: &'a Compositions,
    ) -> Self {
        let mut solver = Solver::with_memo(rules, shoe, hands, Memo::default());
        (solver.up, solver.slot) = (up, slot);
        solver
    }

    /// A solver on `hands` whose memos are `memo` (a fresh one's sized here).
    fn with_memo(rules: ExactRules, shoe: Ranks, hands: &'a Compositions, memo: Memo) -> Self {
        let n = hands.cards.len();
        fn sized<T: Clone>(mut memo: Vec<Option<T>>, n: usize) -> Vec<Option<T>> {
            memo.resize(n, None);
            memo
        }
        Solver {
            rules,
            shoe,
            up: 0,
            slot: 0,
            hands,
            whole: sized(memo.whole, n),
            first: sized(memo.first, n),
            later: sized(memo.later, n),
            touched_first: memo.touched_first,
            touched_later: memo.touched_later,
            chart: None,
            chart_plays: memo.chart_plays,
            cdz_only: false,
        }
    }

    /// What the solver remembers, to go on with later on the same compositions.
    fn into_memo(self) -> Memo {
        Memo {
            whole: self.whole,
            first: self.first,
            later: self.later,
            touched_first: self.touched_first,
            touched_later: self.touched_later,
            chart_plays: self.chart_plays,
        }
    }

    /// The cards the next card comes from: the shoe less the hand, the up card and `gone` more of `pair`.
    fn rest(&self, hand: &Ranks, pair: usize, gone: u8) -> (Ranks, f64) {
        let mut rest = self.shoe;
        for rank in 0..RANKS {
            rest[rank] -= hand[rank];
        }
        rest[self.up] -= 1;
        rest[pair] -= gone;
        let left = rest.iter().map(|&n| f64::from(n)).sum();
        (rest, left)
    }

    fn may_double(&self, i: u32, split: bool) -> bool {
        let hand = &self.hands.cards[i as usize];
        hand.iter().sum::<u8>() == 2
            && (!split || self.rules.double_after_split)
            && self.rules.double_on.allows(self.hands.total[i as usize])
    }

    /// Where a double's value starts: where a dealer blackjack takes only the original bet, the doubled half of it
    /// comes back.
    fn double_start(&self, blackjack: f64) -> f64 {
        if self.rules.blackjack_takes_original_only() {
            blackjack
        } else {
            0.0
        }
    }

    /// Each card the next can be (from `rest`, `left` cards in all): its chance and the hand it makes of hand `i`
    /// (`NONE` past 21).
    fn draws(&self, i: u32, rest: Ranks, left: f64) -> impl Iterator<Item = (f64, u32)> + use<'a> {
        let hands = self.hands;
        let hard = u32::from(hands.hard[i as usize]);
        (0..RANKS)
            .filter(move |&rank| rest[rank] > 0)
            .map(move |rank| {
                let child = if hard + rank as u32 + 1 > 21 {
                    NONE
                } else {
                    hands.child[i as usize][rank]
                };
                (f64::from(rest[rank]) / left, child)
            })
    }

    /// An unsplit hand's values.
    fn whole(&mut self, i: u32) -> Node {
        if let Some(node) = self.whole[i as usize] {
            return node;
        }
        let hands = self.hands;
        let hand = hands.cards[i as usize];
        let (rest, left) = self.rest(&hand, 0, 0);
        let odds = hands.odds(i, self.slot);
        let stand = if natural(&hand) {
            self.rules.blackjack_pays * (1.0 - odds.blackjack)
        } else {
            odds.stand(hands.total[i as usize])
        };
        let mut hit = 0.0;
        let mut double = self.double_start(odds.blackjack);
        for (p, child) in self.draws(i, rest, left) {
            if child == NONE {
                hit -= p;
                double -= 2.0 * p;
                continue;
            }
            let next = self.whole(child);
            let may_double = self.may_double(child, false);
            let option = self
                .chart_play(child, may_double)
                .unwrap_or_else(|| best(next.stand, next.hit, next.double, may_double));
            hit += p * pick(next.stand, next.hit, next.double, option);
            double += p * 2.0 * next.stand;
        }
        let node = Node { stand, hit, double };
        self.whole[i as usize] = Some(node);
        node
    }

    /// A split hand's values with `removed + 1` pair cards gone besides its own: stand, double and CDP's hit; the
    /// other strategies' hits are worked out when their plays call for them (`split_hit`).
    fn split_node(&mut self, i: u32, pair: usize, removed: u8) -> SplitNode {
        if let Some(node) = self.split_memo(removed)[i as usize] {
            return node;
        }
        let hands = self.hands;
        let hand = hands.cards[i as usize];
        let (rest, left) = self.rest(&hand, pair, removed + 1);
        let odds = hands.odds(hands.more(i, pair, removed + 1), self.slot);
        let stand = odds.stand(hands.total[i as usize]);
        let mut double = self.double_start(odds.blackjack);
        let mut hit = 0.0;
        for (p, child) in self.draws(i, rest, left) {
            if child == NONE {
                hit -= p;
                double -= 2.0 * p;
                continue;
            }
            let next = self.split_node(child, pair, removed);
            double += p * 2.0 * next.stand;
            hit += p * self.play_split(child, pair, removed, CDP, false);
        }
        // CDP1 with one pair card gone is CDP.
        let cdp1 = if removed == 0 { hit } else { f64::NAN };
        let node = SplitNode {
            stand,
            double,
            hit: [f64::NAN, cdp1, hit],
        };
        self.remember(i, removed, node);
        node
    }

    fn split_memo(&self, removed: u8) -> &[Option<SplitNode>] {
        if removed == 0 {
            &self.first
        } else {
            &self.later
        }
    }

    fn remember(&mut self, i: u32, removed: u8, node: SplitNode) {
        let (memo, touched) = if removed == 0 {
            (&mut self.first, &mut self.touched_first)
        } else {
            (&mut self.later, &mut self.touched_later)
        };
        if memo[i as usize].is_none() {
            touched.push(i);
        }
        memo[i as usize] = Some(node);
    }

    /// Hitting split hand `i` (with `removed + 1` pair cards gone besides its own), each hand it makes played on by
    /// `play`: a bust loses the bet.
    fn split_hit_on(
        &mut self,
        i: u32,
        pair: usize,
        removed: u8,
        mut play: impl FnMut(&mut Self, u32) -> f64,
    ) -> f64 {
        let hand = self.hands.cards[i as usize];
        let (rest, left) = self.rest(&hand, pair, removed + 1);
        let mut hit = 0.0;
        for (p, child) in self.draws(i, rest, left) {
            hit += if child == NONE {
                -p
            } else {
                p * play(self, child)
            };
        }
        hit
    }

    /// Hitting split hand `i` and playing on under `mode`.
    fn split_hit(&mut self, i: u32, pair: usize, removed: u8, mode: usize) -> f64 {
        let node = self.split_node(i, pair, removed);
        if !node.hit[mode].is_nan() {
            return node.hit[mode];
        }
        let hit = self.split_hit_on(i, pair, removed, |solver, child| {
            solver.play_split(child, pair, removed, mode, false)
        });
        let mut node = node;
        node.hit[mode] = hit;
        self.remember(i, removed, node);
        hit
    }

    /// A split hand played on under post-split strategy `mode`.
    fn play_split(
        &mut self,
        i: u32,
        pair: usize,
        removed: u8,
        mode: usize,
        may_double: bool,
    ) -> f64 {
        let node = self.split_node(i, pair, removed);
        let option = match mode {
            _ if self.chart.is_some() => self.chart_play(i, may_double).unwrap_or(STAND),
            // CDZ-: the play the same cards would get unsplit.
            CDZ => {
                let whole = self.whole(i);
                best(whole.stand, whole.hit, whole.double, may_double)
            }
            // CDP1: the play for one pair card gone, whatever the number.
            CDP1 if removed > 0 => {
                let first = self.split_node(i, pair, 0);
                best(first.stand, first.hit[CDP], first.double, may_double)
            }
            _ => best(node.stand, node.hit[CDP], node.double, may_double),
        };
        match option {
            STAND => node.stand,
            DOUBLE => node.double,
            _ => self.split_hit(i, pair, removed, mode),
        }
    }

    /// A split hand of the pair card and `card`, played on under each strategy (split aces that may not hit stand).
    fn split_hand(&mut self, pair: usize, card: usize, removed: u8) -> [f64; 3] {
        let mut hand = [0u8; RANKS];
        hand[pair] += 1;
        hand[card] += 1;
        let Some(i) = self.hands.find(&hand) else {
            return [f64::NAN; 3];
        };
        if pair == 0 && !self.rules.hit_split_aces {
            let at = self.hands.more(i, pair, removed + 1);
            return [self
                .hands
                .odds(at, self.slot)
                .stand(self.hands.total[i as usize]); 3];
        }
        let may_double = self.may_double(i, true);
        std::array::from_fn(|mode| self.play_split(i, pair, removed, mode, may_double))
    }

    /// Hand `i` (a split hand) with `gone` pair cards gone besides its own: where the dealer's odds are taken.
    fn with_gone(&self, i: u32, pair: usize, gone: u8) -> Ranks {
        let mut cards = self.hands.cards[i as usize];
        cards[pair] += gone;
        cards
    }

    /// The dealer's odds against split hand `i` with `removed + 1` pair cards gone besides its own: by the child
    /// links, and under CDZ- alone (where the compositions between, with fewer pair cards gone, may not be listed)
    /// found from the top where the links break.
    fn split_odds(&self, i: u32, pair: usize, removed: u8) -> &'a dealer::DealerOdds {
        let hands = self.hands;
        let mut at = hands.more(i, pair, removed + 1);
        if at == NONE && self.cdz_only {
            let cards = self.with_gone(i, pair, removed + 1);
            at = hands
                .find(&cards)
                .expect("the walk for CDZ- lists every split hand its plays reach");
        }
        hands.odds(at, self.slot)
    }

    /// Standing on split hand `i` with `removed + 1` pair cards gone besides its own (as [`Solver::split_node`]
    /// works it out).
    fn split_stand(&self, i: u32, pair: usize, removed: u8) -> f64 {
        self.split_odds(i, pair, removed)
            .stand(self.hands.total[i as usize])
    }

    /// Doubling on split hand `i` (as [`Solver::split_node`] works it out).
    fn split_double(&self, i: u32, pair: usize, removed: u8) -> f64 {
        let hands = self.hands;
        let hand = hands.cards[i as usize];
        let (rest, left) = self.rest(&hand, pair, removed + 1);
        let mut double = self.double_start(self.split_odds(i, pair, removed).blackjack);
        for (p, child) in self.draws(i, rest, left) {
            if child == NONE {
                double -= 2.0 * p;
                continue;
            }
            double += p * 2.0 * self.split_stand(child, pair, removed);
        }
        double
    }

    /// A split hand played on under CDZ- alone: the play the same cards get unsplit, and only that play's value.
    fn play_split_cdz(&mut self, i: u32, pair: usize, removed: u8, may_double: bool) -> f64 {
        let whole = self.whole(i);
        match best(whole.stand, whole.hit, whole.double, may_double) {
            STAND => self.split_stand(i, pair, removed),
            DOUBLE => self.split_double(i, pair, removed),
            _ => self.split_hit_cdz(i, pair, removed),
        }
    }

    /// Hitting split hand `i` and playing on under CDZ- (kept in the split memos' CDZ- place).
    fn split_hit_cdz(&mut self, i: u32, pair: usize, removed: u8) -> f64 {
        if let Some(node) = self.split_memo(removed)[i as usize] {
            return node.hit[CDZ];
        }
        let hit = self.split_hit_on(i, pair, removed, |solver, child| {
            solver.play_split_cdz(child, pair, removed, false)
        });
        let node = SplitNode {
            stand: f64::NAN,
            double: f64::NAN,
            hit: [hit, f64::NAN, f64::NAN],
        };
        self.remember(i, removed, node);
        hit
    }

    /// A split hand of the pair card and `card` under CDZ- alone (split aces that may not hit stand); the other
    /// strategies' places are not a number.
    fn split_hand_cdz(&mut self, pair: usize, card: usize, removed: u8) -> [f64; 3] {
        let mut hand = [0u8; RANKS];
        hand[pair] += 1;
        hand[card] += 1;
        let Some(i) = self.hands.find(&hand) else {
            return [f64::NAN; 3];
        };
        let value = if pair == 0 && !self.rules.hit_split_aces {
            self.split_stand(i, pair, removed)
        } else {
            let may_double = self.may_double(i, true);
            self.play_split_cdz(i, pair, removed, may_double)
        };
        [value, f64::NAN, f64::NAN]
    }

    /// Every composition whose dealer's odds CDZ- takes when a pair is split against `up` (at `slot` of the
    /// compositions' up cards), every pair the rules split; on compositions with the unsplit hands' odds.
    fn cdz_splits(&mut self, up: usize, slot: usize) -> Vec<Ranks> {
        (self.up, self.slot) = (up, slot);
        self.whole.fill(None);
        let mut needed = Vec::new();
        for pair in 0..RANKS {
            if self.rules.split_hands(pair) >= 2 && self.shoe[pair] >= 2 {
                self.cdz_split_needs(pair, &mut needed);
            }
        }
        needed
    }

    /// Every composition whose dealer's odds CDZ- takes when this up card's pair of `pair` is split: each split hand
    /// its plays reach (and, where it doubles, each hand the double makes), with each number of pair cards gone that
    /// the split can leave. The same walk as [`Solver::split`]'s under CDZ-, taking no odds but the unsplit hands'.
    fn cdz_split_needs(&mut self, pair: usize, needed: &mut Vec<Ranks>) {
        let up = self.up;
        let most = self.rules.split_hands(pair).min(self.shoe[pair]);
        if most < 2 {
            return;
        }
        let most_removed = ((most - 2) * 2).min(self.shoe[pair] - 2);
        let mut reached = Marks::new(self.hands.cards.len());
        for removed in 0..=most_removed {
            let mut rest = self.shoe;
            rest[pair] -= removed + 2;
            if rest[up] == 0 {
                continue;
            }
            rest[up] -= 1;
            reached.clear();
            for (card, &count) in rest.iter().enumerate() {
                if count == 0 {
                    continue;
                }
                let mut hand = [0u8; RANKS];
                hand[pair] += 1;
                hand[card] += 1;
                let Some(i) = self.hands.find(&hand) else {
                    continue;
                };
                if pair == 0 && !self.rules.hit_split_aces {
                    reached.need(i, || self.with_gone(i, pair, removed + 1), needed);
                } else {
                    let may_double = self.may_double(i, true);
                    self.cdz_reach(i, pair, removed, may_double, &mut reached, needed);
                }
            }
        }
    }

    /// The compositions [`Solver::play_split_cdz`] takes odds at from split hand `i` (`reached`: the hands already
    /// gone through, with whether they could double, and the compositions already needed).
    fn cdz_reach(
        &mut self,
        i: u32,
        pair: usize,
        removed: u8,
        may_double: bool,
        reached: &mut Marks,
        needed: &mut Vec<Ranks>,
    ) {
        if !reached.go_through(i, may_double) {
            return;
        }
        let whole = self.whole(i);
        let option = best(whole.stand, whole.hit, whole.double, may_double);
        // Standing and doubling take the odds at the hand itself (a double the dealer's blackjack chance).
        if option != HIT {
            reached.need(i, || self.with_gone(i, pair, removed + 1), needed);
        }
        if option == STAND {
            return;
        }
        let hand = self.hands.cards[i as usize];
        let (rest, left) = self.rest(&hand, pair, removed + 1);
        let children: Vec<u32> = self
            .draws(i, rest, left)
            .map(|(_, child)| child)
            .filter(|&child| child != NONE)
            .collect();
        for child in children {
            if option == DOUBLE {
                reached.need(child, || self.with_gone(child, pair, removed + 1), needed);
            } else {
                self.cdz_reach(child, pair, removed, false, reached, needed);
            }
        }
    }

    fn forget(&mut self, first: bool) {
        let (memo, touched) = if first {
            (&mut self.first, &mut self.touched_first)
        } else {
            (&mut self.later, &mut self.touched_later)
        };
        for i in touched.drain(..) {
            memo[i as usize] = None;
        }
    }

    /// Farmer's split: the value of splitting a pair of `pair` under each post-split strategy, unconditioned on the
    /// peek.
    fn split(&mut self, pair: usize) -> [f64; 3] {
        let up = self.up;
        let most = self.rules.split_hands(pair).min(self.shoe[pair]);
        if most < 2 {
            return [f64::NAN; 3];
        }
        let most_removed = ((most - 2) * 2).min(self.shoe[pair] - 2);
        // X[a]: a split hand's value with a more pair cards gone; P[a]: the same when its second card is a pair card.
        let slots = usize::from(most_removed) + 1;
        let mut x = [vec![0.0; slots], vec![0.0; slots], vec![0.0; slots]];
        let mut p = x.clone();
        self.forget(true);
        for removed in 0..=most_removed {
            self.forget(false);
            let mut rest = self.shoe;
            rest[pair] -= removed + 2;
            if rest[up] == 0 {
                continue;
            }
            rest[up] -= 1;
            let left: f64 = rest.iter().map(|&n| f64::from(n)).sum();
            for (card, &count) in rest.iter().enumerate() {
                if count == 0 {
                    continue;
                }
                let values = if self.cdz_only {
                    self.split_hand_cdz(pair, card, removed)
                } else {
                    self.split_hand(pair, card, removed)
                };
                for mode in 0..3 {
                    x[mode][usize::from(removed)] += values[mode] * f64::from(count) / left;
                    if card == pair {
                        p[mode][usize::from(removed)] = values[mode];
                    }
                }
            }
        }
        let mut base = self.shoe;
        base[pair] -= 2;
        let base_left: f64 = base.iter().map(|&n| f64::from(n)).sum();
        let correction = self.original_only_correction(pair, most, &base);
        std::array::from_fn(|mode| {
            if self.cdz_only && mode != CDZ {
                return f64::NAN;
            }
            let splitting = Splitting {
                pairs: f64::from(base[pair]),
                base_left,
                up_is_pair: if up == pair { 1.0 } else { 0.0 },
                x: &x[mode],
                p: &p[mode],
            };
            splitting.value(most) + correction
        })
    }

    /// Where a dealer blackjack takes only the original bet, the split's values above lost every hand's bet to it:
    /// the hands past the first get theirs back.
    fn original_only_correction(&self, pair: usize, most: u8, base: &Ranks) -> f64 {
        let up = self.up;
        if !self.rules.blackjack_takes_original_only() || !(up == 0 || up == 9) {
            return 0.0;
        }
        let hole = 9 - up;
        if base[up] == 0 || base[hole] == 0 {
            return 0.0;
        }
        let mut shoe = *base;
        shoe[up] -= 1;
        let n0: f64 = shoe.iter().map(|&n| f64::from(n)).sum();
        let blackjack = f64::from(shoe[hole]) / n0;
        shoe[hole] -= 1;
        let n = n0 - 1.0;
        let pc = f64::from(shoe[pair]);
        let (p2, p3, p4);
        if most > 2 {
            p2 = (n - pc) / n * (n - pc - 1.0) / (n - 1.0);
            if most > 3 {
                p3 = 2.0 * pc / n * (n - pc) / (n - 1.0) * (n - pc - 1.0) / (n - 2.0)
                    * (n - pc - 2.0)
                    / (n - 3.0);
                p4 = 1.0 - p2 - p3;
            } else {
                p3 = 1.0 - p2;
                p4 = 0.0;
            }
        } else {
            (p2, p3, p4) = (1.0, 0.0, 0.0);
        }
        let hands = p2 * 2.0 + p3 * 3.0 + p4 * 4.0;
        (hands - 1.0) * blackjack
    }

    /// Every play's value for hand `i` (unconditioned on the peek), its split values given.
    fn values(&mut self, i: u32, split: Option<[f64; 3]>) -> Values {
        let node = self.whole(i);
        let hand = self.hands.cards[i as usize];
        let cards: u8 = hand.iter().sum();
        let (rest, _) = self.rest(&hand, 0, 0);
        let blackjack = dealer::blackjack_chance(self.up, &rest);
        let surrender = match self.rules.surrender {
            Surrender::None => None,
            _ if cards != 2 => None,
            Surrender::Early => Some(-0.5),
            Surrender::Late => Some(-0.5 - blackjack / 2.0),
        };
        Values {
            stand: node.stand,
            hit: node.hit,
            double: self.may_double(i, false).then_some(node.double),
            surrender,
            split: split.map(|[cdz, cdp1, cdp]| SplitValues { cdz, cdp1, cdp }),
            // Half the bet, paid 2 to 1 when the hole card is a ten.
            insurance: (self.up == 0).then_some(0.5 * (3.0 * blackjack - 1.0)),
        }
    }
}

/// The compositions a split of `pair` needs: every split hand, and each with up to `most_removed + 1` more pair cards
/// gone (where the dealer's odds are taken).
fn split_needs(rules: &ExactRules, shoe: &Ranks, pair: usize, needed: &mut Vec<Ranks>) {
    let most = rules.split_hands(pair).min(shoe[pair]);
    if most < 2 {
        return;
    }
    let gone = ((most - 2) * 2).min(shoe[pair] - 2) + 1;
    let mut hands = Vec::new();
    let mut one = [0u8; RANKS];
    one[pair] = 1;
    if pair == 0 && !rules.hit_split_aces {
        for card in 0..RANKS {
            let mut hand = one;
            hand[card] += 1;
            hands.push(hand);
        }
    } else {
        compositions::grow(one, 0, 2, shoe, &mut hands);
    }
    for hand in hands {
        needed.push(hand);
        for more in 1..=gone {
            let mut cards = hand;
            cards[pair] += more;
            if cards[pair] <= shoe[pair] {
                needed.push(cards);
            }
        }
    }
}

/// The pieces of Farmer's split recursion for one pair and one up card.
struct Splitting<'a> {
    /// Pair cards left after the two split (the up card among them when it is one).
    pairs: f64,
    base_left: f64,
    up_is_pair: f64,
    x: &'a [f64],
    p: &'a [f64],
}

impl Splitting<'_> {
    /// The split's value: stopping early at exactly h hands, fewer than the most; or reaching the most hands, k of
    /// them finished before the last pair card came.
    fn value(&self, most: u8) -> f64 {
        let mut value = 0.0;
        for h in 2..most {
            let q = self.chance(h - 2, h, f64::from(h - 1));
            value += self.ev_n(q * f64::from(h), f64::from(h - 2), f64::from(h - 1));
        }
        for k in 0..most - 1 {
            let m = if most == 4 && k > 0 { 2.0 } else { 1.0 };
            let r = self.chance(most - 2, k, m);
            if k > 0 {
                value += self.ev_n(r * f64::from(k), f64::from(most - 2), f64::from(k - 1));
            }
            value += self.ev_x(r * f64::from(most - k), f64::from(most - 2), f64::from(k));
        }
        value
    }

    /// `weight` times the chance that the next cards are `pair_cards` pair cards and then `others` other cards (the
    /// up card among neither when it is a pair card). Splitting exactly h hands: h − 2 pair cards then h others; the
    /// most hands with k finished first: most − 2 pair cards then k others.
    fn chance(&self, pair_cards: u8, others: u8, weight: f64) -> f64 {
        let mut v = weight;
        let mut n = self.base_left - 1.0;
        let mut pc = self.pairs - self.up_is_pair;
        let mut np = n - pc;
        for _ in 0..pair_cards {
            v *= pc / n;
            pc -= 1.0;
            n -= 1.0;
        }
        for _ in 0..others {
            v *= np / n;
            np -= 1.0;
            n -= 1.0;
        }
        v
    }

    /// X or P with `a` more pair cards gone; zero past the pair cards there are (those terms carry no weight).
    fn removed(&self, values: &[f64], a: f64) -> f64 {
        values.get(a as usize).copied().unwrap_or(0.0)
    }

    fn ev_x(&self, weight: f64, a: f64, b: f64) -> f64 {
        if b == 0.0 {
            return weight * self.removed(self.x, a);
        }
        let v = (self.pairs - a - self.up_is_pair) / (self.base_left - a - b);
        self.ev_x(weight / (1.0 - v), a, b - 1.0)
            + self.ev_x(weight * v / (v - 1.0), a + 1.0, b - 1.0)
    }

    fn ev_n(&self, weight: f64, a: f64, b: f64) -> f64 {
        let v = (self.pairs - a - self.up_is_pair) / (self.base_left - 1.0 - a - b);
        if b == 0.0 {
            let w = weight / (1.0 - v);
            return w * (self.removed(self.x, a) - v * self.removed(self.p, a));
        }
        self.ev_n(weight / (1.0 - v), a, b - 1.0)
            + self.ev_n(weight * v / (v - 1.0), a + 1.0, b - 1.0)
    }
}

/// Checks a question and turns it into the shoe before the round and the hand's counts.
fn setup(question: &Question) -> Result<(Ranks, Ranks, usize), ExactError> {
    let rank = |points: u8| {
        if (1..=10).contains(&points) {
            Ok(usize::from(points - 1))
        } else {
            Err(ExactError::NoSuchRank(points))
        }
    };
    if question.hand.len() < 2 {
        return Err(ExactError::TooFewCards(question.hand.len()));
    }
    let up = rank(question.up)?;
    let mut hand = [0u8; RANKS];
    let mut shoe = [0u32; RANKS];
    for (r, &n) in question.unseen.iter().enumerate() {
        shoe[r] = u32::from(n);
    }
    for &card in &question.hand {
        let r = rank(card)?;
        hand[r] = hand[r].saturating_add(1);
        shoe[r] += 1;
    }
    shoe[up] += 1;
    let mut whole = [0u8; RANKS];
    for r in 0..RANKS {
        let most = if r == 9 { 128 } else { 32 };
        if shoe[r] > most {
            return Err(ExactError::TooMany {
                rank: r as u8 + 1,
                count: shoe[r],
            });
        }
        whole[r] = shoe[r] as u8;
    }
    let (total, _) = dealer::total(&hand);
    if total > 21 {
        return Err(ExactError::Busted(total));
    }
    let left: u32 = question.unseen.iter().map(|&n| u32::from(n)).sum();
    if left < 12 {
        return Err(ExactError::ShoeTooShort(left));
    }
    Ok((whole, hand, up))
}

/// Every play's value for the question.
pub fn evaluate(question: &Question) -> Result<Values, ExactError> {
    prepare(question)?.finish()
}

/// A question half answered: the dealer's odds against every hand it can reach are worked out (most of the work),
/// the player's values are still to come. For answering in two slices, a frame apart, where there is one thread.
pub struct Prepared {
    question: Question,
    shoe: Ranks,
    hand: Ranks,
    up: usize,
    pair: Option<usize>,
    hands: Compositions,
}

/// The first slice of [`evaluate`]: checks the question and works out the dealer's odds.
pub fn prepare(question: &Question) -> Result<Prepared, ExactError> {
    let (shoe, hand, up) = setup(question)?;
    let rules = question.rules;
    let pair = (question.hand.len() == 2 && question.hand[0] == question.hand[1])
        .then(|| usize::from(question.hand[0] - 1))
        .filter(|&pair| rules.split_hands(pair) >= 2 && shoe[pair] >= 2);
    let mut limit = shoe;
    limit[up] -= 1;
    let mut needed = Vec::new();
    compositions::grow(hand, 0, 2, &limit, &mut needed);
    if let Some(pair) = pair {
        split_needs(&rules, &limit, pair, &mut needed);
    }
    let hands = Compositions::new(rules.hits_soft_17, &shoe, &[up], &needed, 1);
    Ok(Prepared {
        question: question.clone(),
        shoe,
        hand,
        up,
        pair,
        hands,
    })
}

impl Prepared {
    /// The second slice: every play's value.
    pub fn finish(self) -> Result<Values, ExactError> {
        let Prepared {
            question,
            shoe,
            hand,
            up,
            pair,
            hands,
        } = self;
        let rules = question.rules;
        let mut solver = Solver::new(rules, shoe, up, 0, &hands);
        let i = hands.find(&hand).ok_or(ExactError::ShoeTooShort(0))?;
        let split = pair.map(|pair| solver.split(pair));
        let mut values = solver.values(i, split);
        let blackjack_hand = natural(&hand) && !question.split_hand;
        if natural(&hand) && question.split_hand {
            // 21 on a split hand stands as 21, no blackjack.
            values.stand = hands.odds(i, 0).stand(21);
        }
        let peek = matches!(rules.hole_card, HoleCard::Peek);
        if peek && question.peeked {
            // Early surrender and insurance are offered before the dealer looks.
            if rules.surrender == Surrender::Early {
                values.surrender = None;
            }
            values.insurance = None;
            let blackjack = dealer::blackjack_chance(up, &question.unseen);
            if blackjack > 0.0 {
                condition_on_no_blackjack(&mut values, blackjack, blackjack_hand);
            }
        }
        Ok(values)
    }
}

/// After the peek: every value given that the hole card does not make a blackjack (a blackjack having taken the
/// original bet in every unconditioned value).
fn condition_on_no_blackjack(values: &mut Values, blackjack: f64, natural: bool) {
    let p = 1.0 - blackjack;
    if p <= 0.0 {
        return;
    }
    let given = |v: f64| (v + 1.0 - p) / p;
    values.stand = if natural {
        values.stand / p
    } else {
        given(values.stand)
    };
    values.hit = given(values.hit);
    values.double = values.double.map(given);
    values.surrender = values.surrender.map(given);
    if let Some(split) = values.split.as_mut() {
        split.cdz = given(split.cdz);
        split.cdp1 = given(split.cdp1);
        split.cdp = given(split.cdp);
    }
}

/// One two-card deal against one up card on a whole shoe, and what each play is worth as the player sees it at the
/// decision (after the peek where the dealer peeks).
#[derive(Clone, Debug, PartialEq)]
pub struct Deal {
    /// The up card's points.
    pub up: u8,
    /// The player's two cards' points, lower first.
    pub cards: [u8; 2],
    /// The chance of these two cards, given the up card.
    pub chance: f64,
    /// Every play's value.
    pub values: Values,
}

/// A whole shoe's values: every two-card deal against every up card, and the round's value under each post-split
/// strategy.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Every deal, by up card then cards.
    pub deals: Vec<Deal>,
    /// The round's value with each up card, by post-split strategy (`PostSplit::index`).
    pub by_up: [[f64; RANKS]; 3],
    /// The round's value, by post-split strategy: the table's house edge is its negative.
    pub value: [f64; 3],
}

impl Table {
    /// The round's value when splits are played by `mode`.
    pub fn value(&self, mode: PostSplit) -> f64 {
        self.value[mode.index()]
    }
}

/// Every two-card deal's values and the round's value on `shoe` before any card is dealt, playing every hand as well
/// as the values say, insurance never taken; on two threads where there are threads (`table_on` says how many).
pub fn table(rules: ExactRules, shoe: Ranks) -> Table {
    table_on(rules, shoe, compositions::threads())
}

/// `table` on `threads` threads (1: on this one).
pub fn table_on(rules: ExactRules, shoe: Ranks, threads: usize) -> Table {
    table_with(rules, shoe, None, threads)
}

/// `table` with every hand played by `chart` where one is given: the round's value is then a chart player's on
/// this shoe (each deal's values stay every play's, played on by the chart).
pub fn table_with(
    rules: ExactRules,
    shoe: Ranks,
    chart: Option<&BasicStrategy>,
    threads: usize,
) -> Table {
    let (ups, needed) = round_needs(&rules, &shoe);
    let hands = Compositions::new(rules.hits_soft_17, &shoe, &ups, &needed, threads);
    let solver = || {
        let mut solver = Solver::new(rules, shoe, 0, 0, &hands);
        solver.chart = chart;
        solver
    };
    let results = on_each_up(&ups, threads, solver, |solver, slot, up| {
        up_card(solver, up, slot)
    });
    round_table(&shoe, &ups, results)
}

/// [`table_on`] with splits valued under CDZ- alone (the post-split strategy the game shows): the same deals and
/// CDZ- values to the last bit, the other strategies' values not a number, and in 0.56 of its time on one thread,
/// 0.67 on two (scripts/bench-exact; docs/engineering.md). It walks the dealer's odds twice: first for the unsplit hands (which give
/// CDZ-'s plays), then for those and the split hands CDZ-'s plays reach (19,253 compositions listed on a full 6-deck
/// shoe, instead of every split hand with every number of pair cards gone: 26,912). The second walk takes each up
/// card's odds only to the split hands its own plays reach: against a 5 or a 6, where CDZ- stands on most hands and
/// doubles on many, about 5,500 compositions of the 19,253.
pub fn table_cdz(rules: ExactRules, shoe: Ranks, threads: usize) -> Table {
    let mut needed = Vec::new();
    compositions::grow([0; RANKS], 0, 2, &shoe, &mut needed);
    let ups: Vec<usize> = (0..RANKS).filter(|&up| shoe[up] > 0).collect();
    let unsplit = Compositions::new(rules.hits_soft_17, &shoe, &ups, &needed, threads);
    let unsplit_solver = || Solver::new(rules, shoe, 0, 0, &unsplit);
    let splits = on_each_up(&ups, threads, unsplit_solver, |solver, slot, up| {
        solver.cdz_splits(up, slot)
    });
    // The unsplit hands' odds for every up card, each split hand's only for the up cards whose plays reach it.
    let mut route = compositions::Route::new(&needed);
    for (slot, found) in &splits {
        route.add_for(*slot, found);
    }
    let hands = Compositions::along(route, rules.hits_soft_17, &shoe, &ups, threads);
    let solver = || {
        let mut solver = Solver::new(rules, shoe, 0, 0, &hands);
        solver.cdz_only = true;
        solver
    };
    let results = on_each_up(&ups, threads, solver, |solver, slot, up| {
        up_card(solver, up, slot)
    });
    let mut table = round_table(&shoe, &ups, results);
    cdz_alone(&mut table);
    table
}

/// A table worked out under CDZ- alone says so: the other strategies' round values are not a number.
fn cdz_alone(table: &mut Table) {
    for mode in [CDP1, CDP] {
        table.value[mode] = f64::NAN;
        table.by_up[mode] = [f64::NAN; RANKS];
    }
}

/// `work` for each up card (its slot and rank) on a state `start` makes once a thread, the up cards shared out
/// between `threads` threads in order (the heaviest, ace, 2, 3: the most dealer endings, first); what each gave, by
/// slot, in the order done.
fn on_each_up<S, T: Send>(
    ups: &[usize],
    threads: usize,
    start: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize, usize) -> T + Sync,
) -> Vec<(usize, T)> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let worker = || {
        let mut state = start();
        let mut done = Vec::new();
        loop {
            let slot = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&up) = ups.get(slot) else {
                break done;
            };
            done.push((slot, work(&mut state, slot, up)));
        }
    };
    if threads > 1 {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
            handles.into_iter().flat_map(compositions::joined).collect()
        })
    } else {
        worker()
    }
}

/// The up cards a round on `shoe` can show, and every composition its hands need the dealer's odds against: each
/// two-card hand, and the split hands of each pair the rules split.
fn round_needs(rules: &ExactRules, shoe: &Ranks) -> (Vec<usize>, Vec<Ranks>) {
    let mut needed = Vec::new();
    compositions::grow([0; RANKS], 0, 2, shoe, &mut needed);
    for pair in 0..RANKS {
        if rules.split_hands(pair) >= 2 && shoe[pair] >= 2 {
            split_needs(rules, shoe, pair, &mut needed);
        }
    }
    let ups: Vec<usize> = (0..RANKS).filter(|&up| shoe[up] > 0).collect();
    (ups, needed)
}

/// The table from each up card's deals and values (`results` by slot, in any order).
fn round_table(shoe: &Ranks, ups: &[usize], mut results: Vec<(usize, UpCard)>) -> Table {
    let total: f64 = shoe.iter().map(|&n| f64::from(n)).sum();
    let mut table = Table {
        deals: Vec::new(),
        by_up: [[0.0; RANKS]; 3],
        value: [0.0; 3],
    };
    results.sort_by_key(|&(slot, _)| slot);
    for (slot, (deals, by_up)) in results {
        let up = ups[slot];
        table.deals.extend(deals);
        for (mode, value) in by_up.into_iter().enumerate() {
            table.by_up[mode][up] = value;
            table.value[mode] += value * f64::from(shoe[up]) / total;
        }
    }
    table
}

/// [`table`] on one thread, a piece at a time: each call of [`RoundSteps::step`] does one short piece — listing one
/// up card's dealer endings, listing the compositions, finding the way to them, laying out the walks, some steps of the walk for one up card's dealer odds, putting the odds
/// together, or one deal against one up card — for a caller that must keep each piece short (the browser, a frame at
/// a time, calling it while the frame has time). The same table as `table_on(rules, shoe, 1)`, to the last bit.
pub struct RoundSteps {
    rules: ExactRules,
    shoe: Ranks,
    ups: Vec<usize>,
    stage: Stage,
    /// Splits valued under CDZ- alone, as [`table_cdz`] does: the walks first for the unsplit hands, then, once
    /// CDZ-'s split hands are found, for those as well.
    cdz_only: bool,
    /// Under CDZ- alone, the split hands found for each up card (the second walk's once it is laid out).
    splits: Option<Vec<Vec<Ranks>>>,
}

/// How many dealer endings a piece of a walk updates: about a millisecond natively.
const WALK_PIECE: u64 = 250_000;

/// Where a [`RoundSteps`] is.
enum Stage {
    /// Listing the dealer's endings from the up card at this place of `ups` (once a run; later each is nothing).
    Listing(usize),
    /// The compositions a round needs to be listed.
    Needs,
    /// The compositions on the way to those needed to be found: `needed` for every up card, and each up card's own
    /// (by its place in `ups`).
    Routing {
        needed: Vec<Ranks>,
        by_up: Vec<Vec<Ranks>>,
    },
    /// The walks to be laid out along them.
    Planning { route: Box<compositions::Route> },
    /// Walking the tree for each up card in turn (the first walk lists the compositions), the walk under way.
    Walking {
        plan: Box<compositions::Plan>,
        walks: Vec<compositions::Found>,
        walk: Option<compositions::Walk>,
    },
    /// Every walk done, to be put together.
    Walked {
        plan: Box<compositions::Plan>,
        walks: Vec<compositions::Found>,
    },
    /// Under CDZ- alone, after the walk for the unsplit hands: the split hands CDZ-'s plays reach, an up card a
    /// piece.
    Finding {
        unsplit: Box<Compositions>,
        memo: Memo,
        /// Each up card's, so far.
        found: Vec<Vec<Ranks>>,
    },
    /// Each up card's deals in turn, a deal at a time.
    Solving {
        hands: Box<Compositions>,
        memo: Memo,
        deals: Option<Deals>,
        results: Vec<(usize, UpCard)>,
    },
    /// The answer.
    Done(Box<Table>),
}

impl RoundSteps {
    /// The round on `shoe` (every hand played as well as the values say), not yet begun.
    pub fn new(rules: ExactRules, shoe: Ranks) -> RoundSteps {
        RoundSteps {
            rules,
            shoe,
            ups: (0..RANKS).filter(|&up| shoe[up] > 0).collect(),
            stage: Stage::Listing(0),
            cdz_only: false,
            splits: None,
        }
    }

    /// The round with splits valued under CDZ- alone: [`table_cdz`]'s table, to the last bit, a piece at a time.
    pub fn cdz(rules: ExactRules, shoe: Ranks) -> RoundSteps {
        RoundSteps {
            cdz_only: true,
            ..RoundSteps::new(rules, shoe)
        }
    }

    /// Does the next piece; the table once the last is done (and at every call after).
    pub fn step(&mut self) -> Option<&Table> {
        let stage = std::mem::replace(&mut self.stage, Stage::Needs);
        self.stage = match stage {
            Stage::Listing(at) => {
                if let Some(&up) = self.ups.get(at) {
                    dealer::list_endings_now(self.rules.hits_soft_17, up as u8 + 1);
                }
                if at + 1 < self.ups.len() {
                    Stage::Listing(at + 1)
                } else {
                    Stage::Needs
                }
            }
            Stage::Needs if self.cdz_only => {
                // The unsplit hands first; then those again with the split hands found, each up card's for it alone.
                let mut needed = Vec::new();
                compositions::grow([0; RANKS], 0, 2, &self.shoe, &mut needed);
                Stage::Routing {
                    needed,
                    by_up: self.splits.clone().unwrap_or_default(),
                }
            }
            Stage::Needs => {
                let (ups, needed) = round_needs(&self.rules, &self.shoe);
                self.ups = ups;
                Stage::Routing {
                    needed,
                    by_up: Vec::new(),
                }
            }
            Stage::Routing { needed, by_up } => {
                let mut route = compositions::Route::new(&needed);
                for (slot, found) in by_up.iter().enumerate() {
                    route.add_for(slot, found);
                }
                Stage::Planning {
                    route: Box::new(route),
                }
            }
            Stage::Planning { route } => {
                let plan = compositions::Plan::along(
                    *route,
                    self.rules.hits_soft_17,
                    &self.shoe,
                    &self.ups,
                );
                Stage::Walking {
                    plan: Box::new(plan),
                    walks: Vec::new(),
                    walk: None,
                }
            }
            Stage::Walking {
                plan,
                mut walks,
                walk,
            } => {
                let slot = walks.len();
                let mut walk = walk.unwrap_or_else(|| plan.start_walk(&[slot], slot == 0));
                if walk.go_on(&plan, WALK_PIECE) {
                    walks.push(walk.found());
                    if walks.len() < self.ups.len() {
                        Stage::Walking {
                            plan,
                            walks,
                            walk: None,
                        }
                    } else {
                        Stage::Walked { plan, walks }
                    }
                } else {
                    Stage::Walking {
                        plan,
                        walks,
                        walk: Some(walk),
                    }
                }
            }
            Stage::Walked { plan, walks } => {
                let shares: Vec<Vec<usize>> = (0..walks.len()).map(|slot| vec![slot]).collect();
                let hands = Box::new(plan.assemble(walks, &shares));
                if self.cdz_only && self.splits.is_none() {
                    Stage::Finding {
                        unsplit: hands,
                        memo: Memo::default(),
                        found: Vec::new(),
                    }
                } else {
                    Stage::Solving {
                        hands,
                        memo: Memo::default(),
                        deals: None,
                        results: Vec::new(),
                    }
                }
            }
            Stage::Finding {
                unsplit,
                memo,
                mut found,
            } => {
                let slot = found.len();
                let mut solver = Solver::with_memo(self.rules, self.shoe, &unsplit, memo);
                found.push(solver.cdz_splits(self.ups[slot], slot));
                let memo = solver.into_memo();
                if found.len() < self.ups.len() {
                    Stage::Finding {
                        unsplit,
                        memo,
                        found,
                    }
                } else {
                    self.splits = Some(found);
                    Stage::Needs
                }
            }
            Stage::Solving {
                hands,
                memo,
                deals,
                mut results,
            } => {
                let slot = results.len();
                let mut solver = Solver::with_memo(self.rules, self.shoe, &hands, memo);
                solver.cdz_only = self.cdz_only;
                let mut deals =
                    deals.unwrap_or_else(|| Deals::new(&mut solver, self.ups[slot], slot));
                let deals = if deals.next_deal(&mut solver) {
                    results.push((slot, deals.done()));
                    None
                } else {
                    Some(deals)
                };
                let memo = solver.into_memo();
                if results.len() < self.ups.len() {
                    Stage::Solving {
                        hands,
                        memo,
                        deals,
                        results,
                    }
                } else {
                    let mut table = round_table(&self.shoe, &self.ups, results);
                    if self.cdz_only {
                        cdz_alone(&mut table);
                    }
                    Stage::Done(Box::new(table))
                }
            }
            done @ Stage::Done(_) => done,
        };
        match &self.stage {
            Stage::Done(table) => Some(table),
            _ => None,
        }
    }
}

/// What the chart's play of a two-card hand is worth (a split valued with the chart's plays after it).
fn chart_value(
    chart: &BasicStrategy,
    rules: &ExactRules,
    hand: &Ranks,
    up: usize,
    values: &Values,
) -> f64 {
    let cards = cards_of(hand);
    let up = card_of(up + 1);
    if rules.surrender == Surrender::Early
        && values.surrender.is_some()
        && chart.surrenders_early(&cards, up)
    {
        return -0.5;
    }
    let allowed = |action: Action| match action {
        Action::Hit | Action::Stand => true,
        Action::Double => values.double.is_some(),
        Action::Split => values.split.is_some(),
        Action::Surrender => values.surrender.is_some(),
        _ => false,
    };
    match chart.play(&cards, up, allowed) {
        Action::Stand => values.stand,
        Action::Double => values.double.unwrap_or(values.hit),
        Action::Split => values.split.map_or(values.hit, |split| split.cdz),
        Action::Surrender => values.surrender.unwrap_or(values.stand),
        _ => values.hit,
    }
}

/// One up card's deals, and the round's value with it showing by post-split strategy.
type UpCard = (Vec<Deal>, [f64; 3]);

/// The deals against `up` (the composition's odds at `slot`), on a solver whose split memos are clear.
fn up_card(solver: &mut Solver, up: usize, slot: usize) -> UpCard {
    let mut deals = Deals::new(solver, up, slot);
    while !deals.next_deal(solver) {}
    deals.done()
}

/// One up card's deals, worked out a deal at a time.
struct Deals {
    up: usize,
    slot: usize,
    /// The shoe less the up card.
    rest: Ranks,
    left: f64,
    /// The next deal's cards, lower first (`RANKS` for the first once all are done).
    next: (usize, usize),
    deals: Vec<Deal>,
    by_up: [f64; 3],
}

impl Deals {
    /// The deals against `up`, none worked out yet: the solver's memos of unsplit hands (another up card's) are
    /// cleared.
    fn new(solver: &mut Solver, up: usize, slot: usize) -> Deals {
        solver.whole.fill(None);
        solver.chart_plays.clear();
        let mut rest = solver.shoe;
        rest[up] -= 1;
        Deals {
            up,
            slot,
            rest,
            left: rest.iter().map(|&n| f64::from(n)).sum(),
            next: (0, 0),
            deals: Vec::new(),
            by_up: [0.0; 3],
        }
    }

    /// Works out the next deal there is; true once every deal is done.
    fn next_deal(&mut self, solver: &mut Solver) -> bool {
        (solver.up, solver.slot) = (self.up, self.slot);
        while self.next.0 < RANKS {
            let (first, second) = self.next;
            self.next = if second + 1 < RANKS {
                (first, second + 1)
            } else {
                (first + 1, first + 1)
            };
            if self.deal(solver, first, second) {
                break;
            }
        }
        self.next.0 >= RANKS
    }

    /// The deal of `first` and `second` if the shoe can deal it (false if not).
    fn deal(&mut self, solver: &mut Solver, first: usize, second: usize) -> bool {
        let (rules, hands, up, rest) = (solver.rules, solver.hands, self.up, self.rest);
        if rest[first] == 0 || rest[second] == 0 || (first == second && rest[first] < 2) {
            return false;
        }
        let left = self.left;
        let orders = if first == second { 1.0 } else { 2.0 };
        let chance = orders * f64::from(rest[first]) / left
            * f64::from(rest[second] - u8::from(first == second))
            / (left - 1.0);
        let mut hand = [0u8; RANKS];
        hand[first] += 1;
        hand[second] += 1;
        let Some(i) = hands.find(&hand) else {
            return false;
        };
        let split = (first == second && rules.split_hands(first) >= 2).then(|| solver.split(first));
        let values = solver.values(i, split);
        if let Some(chart) = solver.chart {
            let value = chart_value(chart, &rules, &hand, up, &values);
            self.by_up.iter_mut().for_each(|v| *v += chance * value);
        }
        for (mode, value) in self
            .by_up
            .iter_mut()
            .enumerate()
            .filter(|_| solver.chart.is_none())
        {
            let mut best = values.stand.max(values.hit);
            for other in [
                values.double,
                split.map(|split| split[mode]),
                values.surrender,
            ] {
                best = best.max(other.unwrap_or(f64::NEG_INFINITY));
            }
            *value += chance * best;
        }
        let mut seen = values;
        // After the peek (early surrender comes before it, and is compared with values before it).
        if matches!(rules.hole_card, HoleCard::Peek) && rules.surrender != Surrender::Early {
            seen.insurance = None;
            let mut after = rest;
            after[first] -= 1;
            after[second] -= 1;
            let blackjack = dealer::blackjack_chance(up, &after);
            if blackjack > 0.0 {
                condition_on_no_blackjack(&mut seen, blackjack, natural(&hand));
            }
        }
        self.deals.push(Deal {
            up: up as u8 + 1,
            cards: [first as u8 + 1, second as u8 + 1],
            chance,
            values: seen,
        });
        true
    }

    fn done(self) -> UpCard {
        (self.deals, self.by_up)
    }
}

/// A hand a chart player reaches and decides on against one up card: two cards or more, by hitting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reached {
    /// Its hard total (every ace one).
    pub hard: u8,
    /// Its total counts an ace as eleven.
    pub soft: bool,
    /// How many cards it holds.
    pub cards: u8,
    /// The chance of reaching it as a decision, given the up card (a dealer blackjack not ruled out).
    pub chance: f64,
    /// Standing, unconditioned on the peek.
    pub stand: f64,
    /// Hitting and playing on as well as can be, unconditioned on the peek.
    pub hit: f64,
}

/// Every hand a player of `chart` decides on against `up` (by points) on `shoe`: the two-card hands, then each hand
/// reached by hitting where the chart hits (surrender left aside), with its chance and its stand and hit values. A
/// pair the chart splits and a blackjack are not listed; nor are split hands.
pub fn reached(rules: ExactRules, shoe: Ranks, up: u8, chart: &BasicStrategy) -> Vec<Reached> {
    let up = usize::from(up.clamp(1, 10) - 1);
    let mut limit = shoe;
    if limit[up] == 0 {
        return Vec::new();
    }
    limit[up] -= 1;
    let mut needed = Vec::new();
    compositions::grow([0; RANKS], 0, 2, &limit, &mut needed);
    let hands = Compositions::new(rules.hits_soft_17, &shoe, &[up], &needed, 1);
    let mut solver = Solver::new(rules, shoe, up, 0, &hands);
    let size = |i: usize| hands.cards[i].iter().sum::<u8>();
    let mut chance = vec![0.0; hands.cards.len()];
    let left: f64 = limit.iter().map(|&n| f64::from(n)).sum();
    for first in 0..RANKS {
        for second in first..RANKS {
            if limit[first] == 0 || limit[second] == 0 || (first == second && limit[first] < 2) {
                continue;
            }
            let orders = if first == second { 1.0 } else { 2.0 };
            let mut hand = [0u8; RANKS];
            hand[first] += 1;
            hand[second] += 1;
            if let Some(i) = hands.find(&hand) {
                chance[i as usize] = orders * f64::from(limit[first]) / left
                    * f64::from(limit[second] - u8::from(first == second))
                    / (left - 1.0);
            }
        }
    }
    let mut order: Vec<usize> = (0..hands.cards.len()).filter(|&i| size(i) >= 2).collect();
    order.sort_by_key(|&i| size(i));
    let mut out = Vec::new();
    for i in order {
        let reach = chance[i];
        let hand = hands.cards[i];
        if reach <= 0.0 || natural(&hand) {
            continue;
        }
        let two = size(i) == 2;
        let pair = two && hand.contains(&2);
        let total = hands.total[i];
        let cards = cards_of(&hand);
        let allowed = |action: Action| match action {
            Action::Hit | Action::Stand => true,
            Action::Double => two && rules.double_on.allows(total),
            Action::Split => {
                pair && hand
                    .iter()
                    .position(|&n| n == 2)
                    .is_some_and(|rank| rules.split_hands(rank) >= 2)
            }
            _ => false,
        };
        let play = chart.play(&cards, card_of(up + 1), allowed);
        if play == Action::Split {
            continue;
        }
        let node = solver.whole(i as u32);
        out.push(Reached {
            hard: hands.hard[i],
            soft: total != hands.hard[i],
            cards: size(i),
            chance: reach,
            stand: node.stand,
            hit: node.hit,
        });
        if play == Action::Hit {
            let (rest, left) = solver.rest(&hand, 0, 0);
            let draws: Vec<(f64, u32)> = solver.draws(i as u32, rest, left).collect();
            for (p, child) in draws {
                if child != NONE {
                    chance[child as usize] += reach * p;
                }
            }
        }
    }
    out
}
