//! The player's side: standing, hitting and doubling by recursion over the hand's compositions, memoised; splitting
//! by Farmer's algorithm; the peek's conditioning; the whole table's value.

use super::dealer::{self, DealerOdds};
use super::{ExactError, ExactRules, PostSplit, RANKS, Ranks};
use crate::engine::rules::{HoleCard, Surrender};
use std::collections::HashMap;

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

/// Which hands a value is for: an ordinary hand, or a split hand with `removed + 1` more pair cards gone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Context {
    Whole,
    Split {
        removed: u8,
        pair: u8,
        mode: PostSplit,
    },
}

/// Stand, hit and double, unconditioned on the peek, a dealer blackjack taking the original bet.
#[derive(Clone, Copy, Debug)]
struct Node {
    stand: f64,
    hit: f64,
    double: f64,
}

/// One up card's values over a shoe, memoised by the hand's composition.
struct Solver {
    rules: ExactRules,
    /// The shoe before the round: the unseen cards, the player's cards and the up card.
    shoe: Ranks,
    up: usize,
    memo: HashMap<(Ranks, Context), Node>,
}

const OPTION_STAND: u8 = 0;
const OPTION_HIT: u8 = 1;
const OPTION_DOUBLE: u8 = 2;

impl Solver {
    fn new(rules: ExactRules, shoe: Ranks, up: usize) -> Solver {
        Solver {
            rules,
            shoe,
            up,
            memo: HashMap::new(),
        }
    }

    /// The cards the next card comes from, for a hand of `hand` in `context`.
    fn rest(&self, hand: &Ranks, context: Context) -> Ranks {
        let mut rest = self.shoe;
        for rank in 0..RANKS {
            rest[rank] -= hand[rank];
        }
        rest[self.up] -= 1;
        if let Context::Split { removed, pair, .. } = context {
            rest[usize::from(pair)] -= removed + 1;
        }
        rest
    }

    fn natural(hand: &Ranks) -> bool {
        hand[0] == 1 && hand[9] == 1 && hand.iter().sum::<u8>() == 2
    }

    fn node(&mut self, hand: &Ranks, context: Context) -> Node {
        if let Some(node) = self.memo.get(&(*hand, context)) {
            return *node;
        }
        let rest = self.rest(hand, context);
        let left: u32 = rest.iter().map(|&n| u32::from(n)).sum();
        let odds: DealerOdds = dealer::odds(self.rules.hits_soft_17, self.up, &rest);
        let (total, _) = dealer::total(hand);
        let stand = if context == Context::Whole && Self::natural(hand) {
            self.rules.blackjack_pays * (1.0 - odds.blackjack)
        } else {
            odds.stand(total)
        };
        let cards: u8 = hand.iter().sum();
        let mut hit = 0.0;
        let mut double = if self.rules.blackjack_takes_original_only() {
            odds.blackjack
        } else {
            0.0
        };
        if left > 0 {
            let mut next = *hand;
            for rank in 0..RANKS {
                if rest[rank] == 0 {
                    continue;
                }
                let p = f64::from(rest[rank]) / f64::from(left);
                next[rank] += 1;
                let (after, _) = dealer::total(&next);
                if after > 21 {
                    hit -= p;
                    double -= 2.0 * p;
                } else {
                    let later = self.node(&next, context);
                    hit += p * self.play_on(&next, context, &later);
                    double += p * 2.0 * later.stand;
                }
                next[rank] -= 1;
            }
        }
        if cards != 2 {
            double = f64::NAN; // only two cards double (never read: `may_double` says no)
        }
        let node = Node { stand, hit, double };
        self.memo.insert((*hand, context), node);
        node
    }

    fn may_double(&self, hand: &Ranks, context: Context) -> bool {
        let cards: u8 = hand.iter().sum();
        let split_ok = match context {
            Context::Whole => true,
            Context::Split { .. } => self.rules.double_after_split,
        };
        cards == 2 && split_ok && self.rules.double_on.allows(dealer::total(hand).0)
    }

    /// The best of stand, hit and double by these values, ties to the earlier (as Farmer's analyzer breaks them).
    fn best(node: &Node, may_double: bool) -> u8 {
        let mut value = node.stand;
        let mut option = OPTION_STAND;
        if value < node.hit {
            value = node.hit;
            option = OPTION_HIT;
        }
        if may_double && value < node.double {
            option = OPTION_DOUBLE;
        }
        option
    }

    fn pick(node: &Node, option: u8) -> f64 {
        match option {
            OPTION_STAND => node.stand,
            OPTION_HIT => node.hit,
            _ => node.double,
        }
    }

    /// What a hand reached by hitting (or a split hand's first two cards) is worth, played on.
    fn play_on(&mut self, hand: &Ranks, context: Context, node: &Node) -> f64 {
        let may_double = self.may_double(hand, context);
        match context {
            Context::Whole => Self::pick(node, Self::best(node, may_double)),
            Context::Split {
                removed,
                pair,
                mode,
            } => {
                let option = match mode {
                    PostSplit::Cdz => {
                        // The play the same cards would get unsplit, on the shoe less only themselves.
                        let whole = self.node(hand, Context::Whole);
                        Self::best(&whole, may_double)
                    }
                    PostSplit::Cdp1 if removed > 0 => {
                        let first = Context::Split {
                            removed: 0,
                            pair,
                            mode,
                        };
                        let once = self.node(hand, first);
                        Self::best(&once, may_double)
                    }
                    _ => Self::best(node, may_double),
                };
                Self::pick(node, option)
            }
        }
    }

    /// A split hand of the pair card and `card`, played on (split aces that may not hit stand).
    fn split_hand(&mut self, pair: usize, card: usize, context: Context) -> f64 {
        let mut hand = [0u8; RANKS];
        hand[pair] += 1;
        hand[card] += 1;
        let node = self.node(&hand, context);
        if pair == 0 && !self.rules.hit_split_aces {
            node.stand
        } else {
            self.play_on(&hand, context, &node)
        }
    }

    /// Farmer's split: the value of splitting a pair of `pair`, unconditioned on the peek.
    fn split(&mut self, pair: usize, mode: PostSplit) -> f64 {
        let up = self.up;
        let most = self.rules.split_hands(pair).min(self.shoe[pair]);
        if most < 2 {
            return f64::NAN;
        }
        let most_removed = ((most - 2) * 2).min(self.shoe[pair] - 2);
        // X[a]: a split hand's value with a more pair cards gone; P[a]: the same when its second card is a pair card.
        let mut x = vec![0.0; usize::from(most_removed) + 1];
        let mut p = vec![0.0; usize::from(most_removed) + 1];
        for removed in 0..=most_removed {
            let context = Context::Split {
                removed,
                pair: pair as u8,
                mode,
            };
            let mut rest = self.shoe;
            rest[pair] -= removed + 2;
            if rest[up] == 0 {
                continue;
            }
            rest[up] -= 1;
            let left: u32 = rest.iter().map(|&n| u32::from(n)).sum();
            for (card, &count) in rest.iter().enumerate() {
                if count == 0 {
                    continue;
                }
                let value = self.split_hand(pair, card, context);
                x[usize::from(removed)] += value * f64::from(count) / f64::from(left);
                if card == pair {
                    p[usize::from(removed)] = value;
                }
            }
        }
        let mut base = self.shoe;
        base[pair] -= 2;
        let base_left: f64 = base.iter().map(|&n| f64::from(n)).sum();
        let pairs = f64::from(base[pair]);
        let up_is_pair = if up == pair { 1.0 } else { 0.0 };
        let splitting = Splitting {
            pairs,
            base_left,
            up_is_pair,
            x: &x,
            p: &p,
        };
        let mut value = 0.0;
        // Stopping early: exactly h hands, fewer than the most.
        for h in 2..most {
            let q = splitting.chance(h - 2, h, f64::from(h - 1));
            value += splitting.ev_n(q * f64::from(h), f64::from(h - 2), f64::from(h - 1));
        }
        // The most hands, k of them finished before the last pair card came.
        for k in 0..most - 1 {
            let m = if most == 4 && k > 0 { 2.0 } else { 1.0 };
            let r = splitting.chance(most - 2, k, m);
            if k > 0 {
                value += splitting.ev_n(r * f64::from(k), f64::from(most - 2), f64::from(k - 1));
            }
            value += splitting.ev_x(r * f64::from(most - k), f64::from(most - 2), f64::from(k));
        }
        // A dealer blackjack takes only the original bet.
        if self.rules.blackjack_takes_original_only() && (up == 0 || up == 9) {
            let hole = 9 - up;
            if base[up] > 0 && base[hole] > 0 {
                let mut shoe = base;
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
                value += (hands - 1.0) * blackjack;
            }
        }
        value
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
    let (shoe, hand, up) = setup(question)?;
    let rules = question.rules;
    let mut solver = Solver::new(rules, shoe, up);
    let node = solver.node(&hand, Context::Whole);
    let cards = question.hand.len();
    let pair = (cards == 2 && question.hand[0] == question.hand[1])
        .then(|| usize::from(question.hand[0] - 1));
    let split = pair
        .filter(|&pair| rules.split_hands(pair) >= 2 && shoe[pair] >= 2)
        .map(|pair| SplitValues {
            cdz: solver.split(pair, PostSplit::Cdz),
            cdp1: solver.split(pair, PostSplit::Cdp1),
            cdp: solver.split(pair, PostSplit::Cdp),
        });
    let double = solver
        .may_double(&hand, Context::Whole)
        .then_some(node.double);
    let blackjack = dealer::odds(rules.hits_soft_17, up, &question.unseen).blackjack;
    let peek = matches!(rules.hole_card, HoleCard::Peek);
    let surrender = match rules.surrender {
        Surrender::None => None,
        _ if cards != 2 => None,
        // Early surrender is offered before the dealer looks, so not after a peek.
        Surrender::Early if peek && question.peeked => None,
        Surrender::Early => Some(-0.5),
        Surrender::Late => Some(-0.5 - blackjack / 2.0),
    };
    let mut values = Values {
        stand: node.stand,
        hit: node.hit,
        double,
        surrender,
        split,
        insurance: None,
    };
    if up == 0 && !(peek && question.peeked) {
        // Half the bet, paid 2 to 1 when the hole card is a ten.
        values.insurance = Some(0.5 * (3.0 * blackjack - 1.0));
    }
    if peek && question.peeked && blackjack > 0.0 {
        condition_on_no_blackjack(&mut values, blackjack, Solver::natural(&hand));
    }
    Ok(values)
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

/// The value of a round on a shoe, before any card is dealt, playing every hand as well as the values say (splits by
/// `mode`), insurance never taken: the table's edge is its negative. With the value for each up card.
pub fn overall(rules: ExactRules, shoe: Ranks, mode: PostSplit) -> (f64, [f64; RANKS]) {
    let total: f64 = shoe.iter().map(|&n| f64::from(n)).sum();
    let mut by_up = [0.0; RANKS];
    let mut value = 0.0;
    for up in 0..RANKS {
        if shoe[up] == 0 {
            continue;
        }
        let mut solver = Solver::new(rules, shoe, up);
        let mut rest = shoe;
        rest[up] -= 1;
        let left: f64 = total - 1.0;
        let mut splits = [None; RANKS];
        for first in 0..RANKS {
            for second in 0..RANKS {
                if rest[first] == 0 || rest[second] == 0 || (first == second && rest[first] < 2) {
                    continue;
                }
                let p = f64::from(rest[first]) / left
                    * f64::from(rest[second] - u8::from(first == second))
                    / (left - 1.0);
                let mut hand = [0u8; RANKS];
                hand[first] += 1;
                hand[second] += 1;
                let node = solver.node(&hand, Context::Whole);
                let mut best = node.stand.max(node.hit);
                if solver.may_double(&hand, Context::Whole) {
                    best = best.max(node.double);
                }
                if first == second && rules.split_hands(first) >= 2 {
                    let split = *splits[first].get_or_insert_with(|| solver.split(first, mode));
                    best = best.max(split);
                }
                let mut after = rest;
                after[first] -= 1;
                after[second] -= 1;
                let blackjack = match up {
                    0 => f64::from(after[9]) / (left - 2.0),
                    9 => f64::from(after[0]) / (left - 2.0),
                    _ => 0.0,
                };
                match rules.surrender {
                    Surrender::None => {}
                    Surrender::Late => best = best.max(-0.5 - blackjack / 2.0),
                    Surrender::Early => best = best.max(-0.5),
                }
                by_up[up] += p * best;
            }
        }
        value += by_up[up] * f64::from(shoe[up]) / total;
    }
    (value, by_up)
}
