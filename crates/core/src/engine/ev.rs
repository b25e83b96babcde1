//! What a decision is worth: each play's expected value for a hand against the dealer's upcard, from an infinite
//! deck (every rank with its odds: 1/13 each, 4/13 for the ten-cards) under the table's rules — the dealer's soft 17,
//! the peek or no hole card (and what a dealer blackjack takes there), what a blackjack pays, doubles and doubling
//! after a split. It prices how far a decision off the basic-strategy chart fell short of the chart's play, for the
//! statistics; it never decides anything at the table.
//!
//! The model, and where it is approximate: the deck is infinite, so the cards already out do not shift the odds
//! (a shoe's composition moves these values by hundredths of a bet at most in the common cells); a split is valued as
//! two hands each starting from one of the pair's cards that never split again (re-splitting is worth a little more);
//! split aces take one card each unless the rules let them hit.

use super::card::Card;
use super::checks::TableState;
use super::command::{Action, Phase, SeatId};
use super::hand::Cards;
use super::money::Cents;
use super::rules::{DoubleOn, EnhcLoss, HoleCard, Payout, Rules, Soft17};

/// The chance of each card by points (index 1 = ace … 10 = any ten-card).
fn odds(points: usize) -> f64 {
    if points == 10 { 4.0 / 13.0 } else { 1.0 / 13.0 }
}

/// Where the dealer's hand ends: 17 to 21, or over.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Dealer {
    /// The chance of ending on 17, 18, 19, 20, 21.
    on: [f64; 5],
    /// The chance of going over 21.
    bust: f64,
}

impl Dealer {
    /// Where the dealer's hand ends from every start: by hard points (aces as 1, up to 31) and whether it holds an
    /// ace, filled from the highest totals down so each draw looks up what follows it.
    fn ends(h17: bool) -> [[Dealer; 2]; 32] {
        let mut ends = [[Dealer::default(); 2]; 32];
        for hard in (2..32u8).rev() {
            for ace in [false, true] {
                let soft = ace && hard + 10 <= 21;
                let value = if soft { hard + 10 } else { hard };
                let end = &mut ends[usize::from(hard)][usize::from(ace)];
                if value > 21 {
                    end.bust = 1.0;
                    continue;
                }
                if value > 17 || (value == 17 && !(soft && h17)) {
                    end.on[usize::from(value - 17)] = 1.0;
                    continue;
                }
                let mut drawn = Dealer::default();
                for points in 1..=10u8 {
                    let next = ends[usize::from(hard + points)][usize::from(ace || points == 1)];
                    let p = odds(usize::from(points));
                    for (total, chance) in drawn.on.iter_mut().zip(next.on) {
                        *total += p * chance;
                    }
                    drawn.bust += p * next.bust;
                }
                ends[usize::from(hard)][usize::from(ace)] = drawn;
            }
        }
        ends
    }
}

/// The dealer against one upcard under one table's rules: where their hand ends when it is not a blackjack, and the
/// chance that it is one (zero once the dealer has peeked and found none).
#[derive(Clone, Copy, Debug)]
pub struct Against {
    dealer: Dealer,
    /// By the player's hard points and ace: the best of standing and hitting, and hitting's value.
    hands: [[(f64, f64); 2]; 32],
    blackjack: f64,
    /// On a no-hole-card table, a dealer blackjack takes every bet on the hand (else only the original one).
    takes_all: bool,
    blackjack_pays: f64,
    double_on: DoubleOn,
    double_after_split: bool,
    hit_split_aces: bool,
}

impl Against {
    /// The dealer showing `upcard` at a table with `rules`. `peeked`: the dealer has looked under the upcard and has
    /// no blackjack (a peek table after the peek); otherwise a blackjack is still possible.
    pub fn new(rules: &Rules, upcard: Card, peeked: bool) -> Against {
        let h17 = rules.soft_17 == Soft17::Hit;
        let up = upcard.points();
        // The hole card that would make a blackjack: a ten under an ace, an ace under a ten.
        let blackjack_card = match up {
            1 => Some(10),
            10 => Some(1),
            _ => None,
        };
        let ends = Dealer::ends(h17);
        let mut dealer = Dealer::default();
        let mut weight = 0.0;
        let mut blackjack = 0.0;
        for points in 1..=10u8 {
            let p = odds(usize::from(points));
            if Some(points) == blackjack_card {
                blackjack = p;
                continue;
            }
            let end = ends[usize::from(up + points)][usize::from(up == 1 || points == 1)];
            for (total, chance) in dealer.on.iter_mut().zip(end.on) {
                *total += p * chance;
            }
            dealer.bust += p * end.bust;
            weight += p;
        }
        for total in &mut dealer.on {
            *total /= weight;
        }
        dealer.bust /= weight;
        let takes_all = matches!(
            rules.hole_card,
            HoleCard::NoHoleCard {
                blackjack_takes: EnhcLoss::AllBets
            }
        );
        let mut against = Against {
            dealer,
            hands: [[(0.0, 0.0); 2]; 32],
            blackjack: if peeked { 0.0 } else { blackjack },
            takes_all,
            blackjack_pays: match rules.blackjack_pays {
                Payout::ThreeToTwo => 1.5,
                Payout::SixToFive => 1.2,
                Payout::TwoToOne => 2.0,
                Payout::OneToOne => 1.0,
            },
            double_on: rules.double_on,
            double_after_split: rules.double_after_split,
            hit_split_aces: rules.hit_split_aces,
        };
        // The player's best of standing and hitting from every hand, from the highest totals down.
        for hard in (2..32u8).rev() {
            for ace in [false, true] {
                let value = Self::value(hard, ace);
                against.hands[usize::from(hard)][usize::from(ace)] = if value > 21 {
                    (-1.0, -1.0)
                } else {
                    let mut hit = 0.0;
                    for points in 1..=10u8 {
                        let next = against.hands[usize::from(hard + points)]
                            [usize::from(ace || points == 1)];
                        hit += odds(usize::from(points)) * next.0;
                    }
                    (against.stand_value(value).max(hit), hit)
                };
            }
        }
        against
    }

    /// Standing on `value` against a dealer without a blackjack, per unit bet.
    fn stand_value(&self, value: u8) -> f64 {
        if value > 21 {
            return -1.0;
        }
        let mut ev = self.dealer.bust;
        for (i, chance) in self.dealer.on.iter().enumerate() {
            let dealer = 17 + i as u8;
            if value > dealer {
                ev += chance;
            } else if value < dealer {
                ev -= chance;
            }
        }
        ev
    }

    /// The best of standing and hitting on `hard` points (aces as 1) with or without an ace, per unit bet, against a
    /// dealer without a blackjack; and hitting's value alone.
    fn best_and_hit(&self, hard: u8, ace: bool) -> (f64, f64) {
        self.hands
            .get(usize::from(hard))
            .map_or((-1.0, -1.0), |h| h[usize::from(ace)])
    }

    fn value(hard: u8, ace: bool) -> u8 {
        if ace && hard + 10 <= 21 {
            hard + 10
        } else {
            hard
        }
    }

    /// Doubling on `hard`/`ace`: one card, twice the bet, against a dealer without a blackjack.
    fn double_value(&self, hard: u8, ace: bool) -> f64 {
        let mut ev = 0.0;
        for points in 1..=10u8 {
            let value = Self::value(hard + points, ace || points == 1);
            ev += odds(usize::from(points)) * self.stand_value(value);
        }
        2.0 * ev
    }

    fn may_double(&self, value: u8) -> bool {
        match self.double_on {
            DoubleOn::AnyTwo => true,
            DoubleOn::NineToEleven => (9..=11).contains(&value),
            DoubleOn::TenToEleven => (10..=11).contains(&value),
            DoubleOn::Never => false,
        }
    }

    /// One hand after a split, from one card of `points`: its second card, then the best play (doubling when the
    /// rules allow it after a split), against a dealer without a blackjack.
    fn split_hand_value(&self, points: u8) -> f64 {
        let mut ev = 0.0;
        for second in 1..=10u8 {
            let (hard, ace) = (points + second, points == 1 || second == 1);
            let value = Self::value(hard, ace);
            let play = if points == 1 && !self.hit_split_aces {
                self.stand_value(value)
            } else {
                let (best, _) = self.best_and_hit(hard, ace);
                if self.double_after_split && self.may_double(value) {
                    best.max(self.double_value(hard, ace))
                } else {
                    best
                }
            };
            ev += odds(usize::from(second)) * play;
        }
        ev
    }

    /// What a play on `cards` is worth, per unit of the hand's bet, with a dealer blackjack still possible or not as
    /// made. `None` for a play that is not a hand decision (insurance, even money: see [`infinite_deck_insurance_cost`]).
    pub fn play_value(&self, cards: &Cards, action: Action) -> Option<f64> {
        let hard: u8 = cards.as_slice().iter().map(|c| c.points()).sum();
        let ace = cards.as_slice().iter().any(|c| c.is_ace());
        // What a dealer blackjack takes from this play, per unit bet: the stake at risk on a no-hole-card table that
        // takes everything, else the original bet.
        let (without, stake) = match action {
            Action::Stand => (self.stand_value(Self::value(hard, ace)), 1.0),
            Action::Hit => (self.best_and_hit(hard, ace).1, 1.0),
            Action::Double => (self.double_value(hard, ace), 2.0),
            Action::Split => {
                let [first, _] = cards.as_slice() else {
                    return None;
                };
                (2.0 * self.split_hand_value(first.points()), 2.0)
            }
            // Giving up half the bet now, whatever the dealer holds.
            Action::Surrender => return Some(-0.5),
            Action::DeclineSurrender => {
                let (best, _) = self.best_and_hit(hard, ace);
                let mut value = best;
                if cards.len() == 2 && self.may_double(Self::value(hard, ace)) {
                    value = value.max(self.double_value(hard, ace));
                }
                (value, 1.0)
            }
            _ => return None,
        };
        let lost = if self.takes_all { stake } else { 1.0 };
        Some(self.blackjack * -lost + (1.0 - self.blackjack) * without)
    }

    /// The chance the face-down card makes a dealer blackjack (as far as anyone can know).
    pub fn blackjack_chance(&self) -> f64 {
        self.blackjack
    }

    /// What a blackjack pays, per unit bet.
    pub fn blackjack_pays(&self) -> f64 {
        self.blackjack_pays
    }
}

/// The expected cost of taking `amount` of insurance against an ace rather than declining it: the side bet pays 2 to
/// 1 when the hole card is a ten-card (4 in 13), so every unit of it loses 1/13 on average.
pub fn infinite_deck_insurance_cost(amount: Cents) -> Cents {
    Cents((amount.0 as f64 / 13.0).round() as i64)
}

/// What a decision off the chart cost against the chart's play, in expected cents (never below zero: where this
/// model would rate the player's choice a little higher than the chart's, the chart's total-dependent play is still
/// what was asked of them, and nothing is counted). `None` when either is not a hand decision or the hand is not
/// the one in turn. Read from the table just before the decision.
pub fn infinite_deck_cost(
    table: &impl TableState,
    seat: SeatId,
    action: Action,
    book: Action,
) -> Option<Cents> {
    if action == book {
        return Some(Cents::ZERO);
    }
    let upcard = table.upcard()?;
    let rules = table.rules();
    let (hand, peeked) = match table.phase() {
        Phase::PlayerTurn { hand } => {
            let hand = table.hands().get(usize::from(hand))?;
            let peeked = matches!(rules.hole_card, HoleCard::Peek);
            (hand, peeked)
        }
        Phase::EarlySurrender => (table.seat_hands(seat).next()?, false),
        Phase::Insurance => {
            let hand = table.seat_hands(seat).next()?;
            return even_money_or_insurance_cost(rules, upcard, hand.wager, action);
        }
        Phase::Betting => return None,
    };
    if hand.seat != seat {
        return None;
    }
    let against = Against::new(rules, upcard, peeked);
    let chosen = against.play_value(&hand.cards, action)?;
    let chart = against.play_value(&hand.cards, book)?;
    let per_unit = (chart - chosen).max(0.0);
    Some(Cents((per_unit * hand.wager.0 as f64).round() as i64))
}

/// Taking even money when the chart keeps the blackjack: even money pays the bet for certain; keeping it pays the
/// blackjack's odds unless the hole card is a ten-card. Taking insurance is priced when its amount is known
/// ([`infinite_deck_insurance_cost`]); here it is none yet.
fn even_money_or_insurance_cost(
    rules: &Rules,
    upcard: Card,
    wager: Cents,
    action: Action,
) -> Option<Cents> {
    match action {
        Action::TakeEvenMoney => {
            let against = Against::new(rules, upcard, false);
            let keep = (1.0 - against.blackjack_chance()) * against.blackjack_pays();
            let per_unit = (keep - 1.0).max(0.0);
            Some(Cents((per_unit * wager.0 as f64).round() as i64))
        }
        Action::TakeInsurance => None,
        _ => Some(Cents::ZERO),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::card::{Rank, Suit};
    use crate::engine::rules::Preset;

    fn cards(ranks: &[Rank]) -> Cards {
        let mut hand = Cards::default();
        for &rank in ranks {
            hand.push(Card::new(0, Suit::Spades, rank));
        }
        hand
    }

    fn card(rank: Rank) -> Card {
        Card::new(0, Suit::Hearts, rank)
    }

    fn value(rules: &Rules, hand: &[Rank], up: Rank, action: Action) -> f64 {
        Against::new(rules, card(up), true)
            .play_value(&cards(hand), action)
            .expect("a hand decision")
    }

    #[test]
    fn the_dealers_ends_are_the_published_infinite_deck_odds() {
        // Infinite deck, dealer stands on soft 17, no peek conditioning: a 6 up busts 42.3 %, a 10 up 21.4 %
        // (conditioned on no blackjack: 23.0 %), an ace (no blackjack) 11.5 %… the published values (Wizard of Odds,
        // "Dealer bust odds", infinite deck S17: 2 → 35.4 %, 6 → 42.3 %, 7 → 26.2 %).
        let s17 = Preset::LasVegasStrip.rules();
        let bust = |up: Rank| Against::new(&s17, card(up), true).dealer.bust;
        assert!(
            (bust(Rank::Two) - 0.3536).abs() < 0.001,
            "{}",
            bust(Rank::Two)
        );
        assert!(
            (bust(Rank::Six) - 0.4232).abs() < 0.001,
            "{}",
            bust(Rank::Six)
        );
        assert!(
            (bust(Rank::Seven) - 0.2623).abs() < 0.001,
            "{}",
            bust(Rank::Seven)
        );
        for up in [Rank::Ace, Rank::Five, Rank::Ten] {
            let against = Against::new(&s17, card(up), true);
            let sum: f64 = against.dealer.on.iter().sum::<f64>() + against.dealer.bust;
            assert!((sum - 1.0).abs() < 1e-12, "{up:?}: the ends add up to one");
        }
        // Hitting soft 17 busts more often against a 6 than standing on it does.
        let h17 = Preset::Carnival.rules();
        assert!(Against::new(&h17, card(Rank::Six), true).dealer.bust > bust(Rank::Six));
    }

    #[test]
    fn plays_have_the_values_of_the_published_tables() {
        let rules = Preset::LasVegasStrip.rules();
        use Rank::*;
        // Hard 16 against a 10 after the peek: standing -0.540, hitting -0.535 (close; the chart hits), surrender
        // -0.5 is best.
        let stand = value(&rules, &[Ten, Six], Ten, Action::Stand);
        let hit = value(&rules, &[Ten, Six], Ten, Action::Hit);
        assert!((stand - -0.5404).abs() < 0.002, "stand {stand}");
        assert!((hit - -0.5398).abs() < 0.006, "hit {hit}");
        assert!(value(&rules, &[Ten, Six], Ten, Action::Surrender) > hit);
        // 11 against a 6: doubling is worth about +0.667, hitting +0.333.
        let double = value(&rules, &[Six, Five], Six, Action::Double);
        assert!((double - 0.6674).abs() < 0.005, "double {double}");
        assert!(double > value(&rules, &[Six, Five], Six, Action::Hit));
        // 20 against a 10 stands (+0.554); hitting it throws that away.
        let twenty = value(&rules, &[Ten, King], Ten, Action::Stand);
        assert!((twenty - 0.5544).abs() < 0.003, "twenty {twenty}");
        assert!(value(&rules, &[Ten, King], Ten, Action::Hit) < -0.8);
        // Splitting eights against a 6 beats standing on 16 by far; splitting tens against a 6 is worse than 20.
        assert!(
            value(&rules, &[Eight, Eight], Six, Action::Split)
                > value(&rules, &[Eight, Eight], Six, Action::Stand) + 0.3
        );
        assert!(
            value(&rules, &[Ten, Ten], Six, Action::Split)
                < value(&rules, &[Ten, Ten], Six, Action::Stand)
        );
    }

    #[test]
    fn a_dealer_blackjack_still_possible_weighs_on_every_play() {
        use Rank::*;
        let strip = Preset::LasVegasStrip.rules();
        let before = Against::new(&strip, card(Ten), false);
        let after = Against::new(&strip, card(Ten), true);
        assert!((before.blackjack_chance() - 1.0 / 13.0).abs() < 1e-12);
        let hand = cards(&[Six, Five]);
        let double_before = before.play_value(&hand, Action::Double).expect("a play");
        let double_after = after.play_value(&hand, Action::Double).expect("a play");
        assert!(double_before < double_after);
        // With no hole card, a blackjack that takes every bet makes the double cost the doubled stake.
        let european = Preset::EuropeanNoHoleCard.rules();
        let all = Against::new(&european, card(Ten), false)
            .play_value(&hand, Action::Double)
            .expect("a play");
        let obo_rules = Rules {
            hole_card: HoleCard::NoHoleCard {
                blackjack_takes: EnhcLoss::OriginalBetOnly,
            },
            ..european.clone()
        };
        let obo = Against::new(&obo_rules, card(Ten), false)
            .play_value(&hand, Action::Double)
            .expect("a play");
        assert!((obo - all - 1.0 / 13.0).abs() < 1e-9, "obo {obo} all {all}");
    }

    #[test]
    fn the_chart_costs_nothing_and_a_blunder_costs_what_the_values_say() {
        use Rank::*;
        let rules = Preset::LasVegasStrip.rules();
        let mut table = crate::engine::Table::new(
            rules.clone(),
            crate::engine::seed_from_number(3),
            Cents::units(10_000),
        )
        .expect("a table");
        table
            .apply(crate::engine::Command::Join {
                seat: 0,
                buy_in: Cents::units(1_000),
            })
            .expect("joins");
        table
            .apply(crate::engine::Command::Bet {
                seat: 0,
                amount: Cents::units(100),
            })
            .expect("bets");
        // The player gets 10 and 10, the dealer shows a 6 (after the burned card, when the table burns one).
        let deal = [Two, Ten, Six, King, Nine];
        let from = usize::from(!rules.burn_card);
        table.queue_next_cards(&deal[from..]).expect("queued");
        table.apply(crate::engine::Command::Deal).expect("deals");
        assert_eq!(
            infinite_deck_cost(&table, 0, Action::Stand, Action::Stand),
            Some(Cents::ZERO)
        );
        let cost =
            infinite_deck_cost(&table, 0, Action::Hit, Action::Stand).expect("a hand decision");
        let per_unit = value(&rules, &[Ten, King], Six, Action::Stand)
            - value(&rules, &[Ten, King], Six, Action::Hit);
        assert_eq!(cost, Cents((per_unit * 10_000.0).round() as i64));
        assert!(
            cost > Cents::units(80),
            "hitting 20 against a 6 throws away {cost}"
        );
        assert_eq!(
            infinite_deck_cost(&table, 1, Action::Hit, Action::Stand),
            None
        );
        // Insurance loses a thirteenth of what is staked, on average.
        assert_eq!(
            infinite_deck_insurance_cost(Cents::units(13)),
            Cents::units(1)
        );
    }
}
