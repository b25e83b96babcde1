//! Properties of the exact engine (crates/core/src/engine/exact) that hold whatever the analyzer it is checked against says:
//! chances that add up, the effects of removal, a Monte Carlo of the same shoe, cards taken out and put back, the
//! relations between the no-hole-card and the peek games, and every value in range on random depleted shoes.

use holecard::engine::exact::{
    self, ExactRules, PostSplit, Question, Ranks, Values, dealer, evaluate, full_shoe, table,
};
use holecard::engine::rng::{TableRng, seed_from_number};
use holecard::engine::rules::{EnhcLoss, HoleCard, Preset};
use proptest::prelude::*;

/// The Strip: 6 decks (the shoes below are the tests' own), S17, DAS, splits to four hands, late surrender, 3:2.
fn strip() -> ExactRules {
    ExactRules::of(&Preset::LasVegasStrip.rules())
}

fn question(rules: ExactRules, unseen: Ranks, hand: &[u8], up: u8, peeked: bool) -> Question {
    Question {
        rules,
        unseen,
        hand: hand.to_vec(),
        up,
        peeked,
        split_hand: false,
    }
}

/// The shoe less these cards (by points).
fn less(shoe: Ranks, cards: &[u8]) -> Ranks {
    exact::unseen(shoe, cards).expect("cards the shoe holds")
}

#[test]
fn every_up_cards_deals_have_chances_adding_up_to_one() {
    let shoe = less(full_shoe(2), &[10, 10, 10, 5, 1, 7]);
    let whole = table(strip(), shoe);
    for up in 1..=10u8 {
        let sum: f64 = whole
            .deals
            .iter()
            .filter(|d| d.up == up)
            .map(|d| d.chance)
            .sum();
        assert!(
            (sum - 1.0).abs() < 1e-12,
            "up {up}: the deals' chances add to {sum}"
        );
    }
    for h17 in [false, true] {
        for up in 0..10 {
            let odds = dealer::odds(h17, up, &less(shoe, &[up as u8 + 1]));
            let sum = odds.on.iter().sum::<f64>() + odds.bust + odds.blackjack;
            assert!((sum - 1.0).abs() < 1e-12, "h17 {h17} up {up}: {sum}");
        }
    }
}

/// The effect of removing one card of each rank from a full shoe, weighted by how many of it the shoe holds.
fn weighted_removal(rules: ExactRules, decks: u8, mode: PostSplit) -> (f64, [f64; 10]) {
    let shoe = full_shoe(decks);
    let base = table(rules, shoe).value(mode);
    let total: f64 = shoe.iter().map(|&n| f64::from(n)).sum();
    let mut effects = [0.0; 10];
    let mut sum = 0.0;
    for rank in 0..10 {
        let value = table(rules, less(shoe, &[rank as u8 + 1])).value(mode);
        effects[rank] = value - base;
        sum += f64::from(shoe[rank]) / total * effects[rank];
    }
    (sum, effects)
}

/// The plays whose later decisions do not depend on the shoe: standing, doubling, surrendering, insurance.
fn fixed_plays(values: &Values) -> [f64; 4] {
    [
        values.stand,
        values.double.unwrap_or(0.0),
        values.surrender.unwrap_or(0.0),
        values.insurance.unwrap_or(0.0),
    ]
}

#[test]
fn the_effects_of_removal_sum_to_zero_for_a_fixed_play() {
    // Taking out an unseen card at random changes nothing on average: for a play whose later decisions are fixed,
    // the effects of removal of the ten ranks, weighted by how many of each are left, sum to zero exactly.
    let unseen = less(full_shoe(2), &[10, 10, 3, 4, 1, 9, 9, 6, 2, 2, 2, 10]);
    let total: f64 = unseen.iter().map(|&n| f64::from(n)).sum();
    for (hand, up) in [
        (&[10u8, 6][..], 10u8),
        (&[9, 2], 6),
        (&[1, 7], 1),
        (&[8, 8], 9),
        (&[5, 3, 4], 2),
    ] {
        let before = less(unseen, &[hand, &[up][..]].concat());
        let base = fixed_plays(
            &evaluate(&question(strip(), before, hand, up, false)).expect("a question"),
        );
        let mut sum = [0.0; 4];
        for rank in 0..10 {
            if before[rank] == 0 {
                continue;
            }
            let removed = less(before, &[rank as u8 + 1]);
            let values = fixed_plays(
                &evaluate(&question(strip(), removed, hand, up, false)).expect("a question"),
            );
            for play in 0..4 {
                sum[play] += f64::from(before[rank]) / (total - 1.0 - hand.len() as f64)
                    * (values[play] - base[play]);
            }
        }
        for (play, s) in ["stand", "double", "surrender", "insurance"]
            .iter()
            .zip(sum)
        {
            assert!(
                s.abs() < 1e-12,
                "{hand:?} vs {up}: {play}'s weighted effects of removal sum to {s:e}"
            );
        }
    }
}

#[test]
fn the_effects_of_removal_sum_to_a_little_above_zero_for_the_best_play() {
    // Playing best for the shoe, a card taken out and seen can only help: the weighted sum is at least zero (the
    // worth of knowing one card), and small beside the effects themselves.
    for (decks, most) in [(1, 0.1), (6, 0.03)] {
        for mode in PostSplit::ALL {
            let (sum, effects) = weighted_removal(strip(), decks, mode);
            let largest = effects.iter().fold(0.0f64, |m, e| m.max(e.abs()));
            eprintln!(
                "{decks} decks {}: weighted sum {sum:.3e}, largest effect {largest:.3e}",
                mode.name()
            );
            assert!(
                sum > -1e-12 && sum < most * largest,
                "{decks} decks {}: {sum:e}",
                mode.name()
            );
        }
    }
    // The familiar signs: a five out helps the player most, an ace or a ten out hurts.
    let (_, effects) = weighted_removal(strip(), 6, PostSplit::Cdz);
    let five = effects[4];
    assert!(
        effects.iter().all(|&e| e <= five) && effects[0] < 0.0 && effects[9] < 0.0,
        "{effects:?}"
    );
}

/// One card from `shoe`, at random by how many of each rank it holds.
fn draw(rng: &mut TableRng, shoe: &mut Ranks) -> usize {
    let left: u32 = shoe.iter().map(|&n| u32::from(n)).sum();
    let mut pick = rng.below(left);
    let rank = (0..10)
        .find(|&r| {
            let n = u32::from(shoe[r]);
            if pick < n {
                true
            } else {
                pick -= n;
                false
            }
        })
        .expect("a card left");
    shoe[rank] -= 1;
    rank
}

/// A dealer's hand played out from `shoe` with `up` showing: its total (22 for a bust) and whether it is a blackjack.
fn deal_dealer(rng: &mut TableRng, shoe: &mut Ranks, up: u8, h17: bool) -> (u8, bool) {
    let mut hand = [0u8; 10];
    hand[usize::from(up - 1)] += 1;
    let mut cards = 1;
    loop {
        let (total, soft) = dealer::total(&hand);
        if total > 21 {
            return (22, false);
        }
        if total > 17 || (total == 17 && !(soft && h17)) {
            return (total, cards == 2 && total == 21);
        }
        hand[draw(rng, shoe)] += 1;
        cards += 1;
    }
}

#[test]
fn standing_and_doubling_are_worth_what_a_monte_carlo_of_the_same_shoe_says() {
    let mut rng = TableRng::from_seed(seed_from_number(27));
    let unseen = less(full_shoe(1), &[10, 10, 10, 2, 3, 9]);
    for (hand, up) in [([10u8, 7], 10u8), ([9, 9], 7), ([6, 5], 6), ([1, 6], 1)] {
        let before = less(unseen, &[hand[0], hand[1], up]);
        let values = evaluate(&question(strip(), before, &hand, up, true)).expect("a question");
        let player = dealer::total(&{
            let mut cards = [0u8; 10];
            for card in hand {
                cards[usize::from(card - 1)] += 1;
            }
            cards
        })
        .0;
        let against = |mine: u8, theirs: u8| -> f64 {
            if mine > 21 {
                -1.0
            } else if theirs > 21 || mine > theirs {
                1.0
            } else if mine < theirs {
                -1.0
            } else {
                0.0
            }
        };
        let (mut stand, mut double) = (Vec::new(), Vec::new());
        while stand.len() < 2_000_000 {
            // After the peek: a round where the dealer has a blackjack never gets here.
            let mut shoe = before;
            let (theirs, blackjack) = deal_dealer(&mut rng, &mut shoe, up, false);
            if blackjack {
                continue;
            }
            stand.push(against(player, theirs));
            // Doubling: one card from the shoe as it was, then the dealer draws after it.
            let mut shoe = before;
            let card = draw(&mut rng, &mut shoe);
            let mut cards = [0u8; 10];
            for c in hand {
                cards[usize::from(c - 1)] += 1;
            }
            cards[card] += 1;
            let (theirs, blackjack) = deal_dealer(&mut rng, &mut shoe, up, false);
            if !blackjack {
                double.push(2.0 * against(dealer::total(&cards).0, theirs));
            }
        }
        for (play, exact, outcomes) in [
            ("stand", values.stand, &stand),
            ("double", values.double.expect("a double"), &double),
        ] {
            let n = outcomes.len() as f64;
            let mean = outcomes.iter().sum::<f64>() / n;
            let sd = (outcomes.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
            let error = sd / n.sqrt();
            eprintln!(
                "{hand:?} vs {up} {play}: exact {exact:+.5}, Monte Carlo {mean:+.5} ± {error:.5}"
            );
            assert!(
                (mean - exact).abs() < 4.0 * error,
                "{hand:?} vs {up}: {play} exact {exact}, Monte Carlo {mean} ± {error}"
            );
        }
    }
}

#[test]
fn a_card_taken_out_and_put_back_changes_nothing_and_the_order_seen_does_not_matter() {
    let seen = [10u8, 3, 7, 7, 1, 10, 5, 2, 9, 10, 4];
    let mut backwards = seen;
    backwards.reverse();
    let shoe = full_shoe(2);
    let a = less(shoe, &seen);
    assert_eq!(a, less(shoe, &backwards));
    for rank in 0..10usize {
        let mut back = less(a, &[rank as u8 + 1]);
        back[rank] += 1;
        assert_eq!(back, a);
        for (hand, up) in [(&[8u8, 8][..], 6u8), (&[1, 6], 10), (&[10, 2, 3], 4)] {
            let before = less(back, &[hand, &[up][..]].concat());
            let once = evaluate(&question(strip(), before, hand, up, true)).expect("a question");
            let again = evaluate(&question(
                strip(),
                less(a, &[hand, &[up][..]].concat()),
                hand,
                up,
                true,
            ))
            .expect("a question");
            assert_eq!(once, again, "{hand:?} vs {up}");
        }
    }
    // The hand's own order does not matter either.
    let unseen = less(a, &[9, 2, 5]);
    assert_eq!(
        evaluate(&question(strip(), unseen, &[9, 2], 5, true)),
        evaluate(&question(strip(), unseen, &[2, 9], 5, true))
    );
}

#[test]
fn a_no_hole_card_table_is_the_peek_game_before_the_peek() {
    // Where a dealer blackjack takes only the original bet, the no-hole-card game's values are the peek game's
    // before the dealer looks; where it takes every bet, a double loses the doubled half to it too.
    let unseen = less(full_shoe(6), &[10, 10, 1, 5, 5, 6]);
    let obo = ExactRules {
        hole_card: HoleCard::NoHoleCard {
            blackjack_takes: EnhcLoss::OriginalBetOnly,
        },
        ..strip()
    };
    let all = ExactRules {
        hole_card: HoleCard::NoHoleCard {
            blackjack_takes: EnhcLoss::AllBets,
        },
        ..strip()
    };
    for (hand, up) in [
        ([10u8, 1], 10u8),
        ([5, 6], 10),
        ([8, 8], 1),
        ([9, 2], 1),
        ([4, 4], 10),
        ([10, 6], 7),
    ] {
        let before = less(unseen, &[hand[0], hand[1], up]);
        let peek = evaluate(&question(strip(), before, &hand, up, false)).expect("peek");
        let enhc_obo = evaluate(&question(obo, before, &hand, up, false)).expect("obo");
        let enhc_all = evaluate(&question(all, before, &hand, up, false)).expect("all bets");
        assert_eq!(
            (peek.stand, peek.hit, peek.double),
            (enhc_obo.stand, enhc_obo.hit, enhc_obo.double)
        );
        assert_eq!(peek.split, enhc_obo.split, "{hand:?} vs {up}");
        let blackjack = dealer::blackjack_chance(usize::from(up - 1), &before);
        assert_eq!((enhc_all.stand, enhc_all.hit), (peek.stand, peek.hit));
        let (a, b) = (
            enhc_all.double.expect("double"),
            peek.double.expect("double"),
        );
        assert!(
            (a - (b - blackjack)).abs() < 1e-14,
            "{hand:?} vs {up}: {a} against {b} − {blackjack}"
        );
        if let (Some(a), Some(b)) = (enhc_all.split, peek.split) {
            // Every split hand's bet is lost to a dealer blackjack, not just the first.
            assert!(
                a.cdp <= b.cdp + 1e-15 && (blackjack == 0.0 || a.cdp < b.cdp),
                "{hand:?} vs {up}"
            );
        }
    }
}

#[test]
fn the_peek_conditions_every_value_on_no_dealer_blackjack() {
    let unseen = less(full_shoe(2), &[10, 2, 3, 9, 9]);
    for (hand, up) in [
        ([10u8, 6], 10u8),
        ([1, 10], 1),
        ([7, 7], 1),
        ([11 - 1, 1], 10),
    ] {
        let before = less(unseen, &[hand[0], hand[1], up]);
        let open = evaluate(&question(strip(), before, &hand, up, false)).expect("before the peek");
        let looked = evaluate(&question(strip(), before, &hand, up, true)).expect("after it");
        let p = 1.0 - dealer::blackjack_chance(usize::from(up - 1), &before);
        let natural = hand.contains(&1) && hand.contains(&10);
        let given = |v: f64| (v + 1.0 - p) / p;
        let stand = if natural {
            open.stand / p
        } else {
            given(open.stand)
        };
        assert!((looked.stand - stand).abs() < 1e-14);
        assert!((looked.hit - given(open.hit)).abs() < 1e-14);
        // Late surrender after the peek loses half the bet, no more; insurance is gone by then.
        assert!((looked.surrender.expect("surrender") + 0.5).abs() < 1e-14);
        assert_eq!(looked.insurance, None);
        if up == 1 {
            let tens = f64::from(before[9]) / before.iter().map(|&n| f64::from(n)).sum::<f64>();
            let insurance = open.insurance.expect("insurance against an ace");
            assert!((insurance - 0.5 * (3.0 * tens - 1.0)).abs() < 1e-14);
            assert_eq!(insurance > 0.0, tens > 1.0 / 3.0);
        }
    }
}

#[test]
fn hitting_split_aces_is_worth_at_least_standing_on_them() {
    let hsa = ExactRules {
        hit_split_aces: true,
        ..strip()
    };
    let unseen = less(full_shoe(6), &[1, 1]);
    for up in 1..=10u8 {
        let before = less(unseen, &[up]);
        let stand_on = evaluate(&question(strip(), before, &[1, 1], up, true)).expect("aces");
        let hit = evaluate(&question(hsa, before, &[1, 1], up, true)).expect("aces");
        let (a, b) = (
            hit.split.expect("split").cdp,
            stand_on.split.expect("split").cdp,
        );
        assert!(
            a >= b - 1e-15,
            "vs {up}: hitting split aces {a}, standing {b}"
        );
    }
    // Four-card and rich shoes, where hitting matters: a shoe of small cards.
    let small = [6, 8, 8, 8, 8, 2, 2, 2, 2, 6];
    let before = less(small, &[1, 1, 6]);
    let stand_on = evaluate(&question(strip(), before, &[1, 1], 6, true)).expect("aces");
    let hit = evaluate(&question(hsa, before, &[1, 1], 6, true)).expect("aces");
    assert!(hit.split.expect("split").cdp > stand_on.split.expect("split").cdp + 1e-3);
}

#[test]
fn bad_questions_get_clear_errors() {
    let unseen = full_shoe(1);
    let ask = |hand: &[u8], up: u8| evaluate(&question(strip(), unseen, hand, up, true));
    assert!(matches!(
        ask(&[10], 5),
        Err(exact::ExactError::TooFewCards(1))
    ));
    assert!(matches!(
        ask(&[10, 10, 5], 5),
        Err(exact::ExactError::Busted(25))
    ));
    assert!(matches!(
        ask(&[11, 2], 5),
        Err(exact::ExactError::NoSuchRank(11))
    ));
    assert!(matches!(
        ask(&[2, 3], 0),
        Err(exact::ExactError::NoSuchRank(0))
    ));
    assert!(matches!(
        exact::unseen(unseen, &[5, 5, 5, 5, 5]),
        Err(exact::ExactError::NoneLeft { rank: 5, .. })
    ));
    let short = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1];
    assert!(matches!(
        evaluate(&question(strip(), short, &[2, 3], 4, true)),
        Err(exact::ExactError::ShoeTooShort(10))
    ));
    assert!(matches!(
        exact::points_of("A,7,X"),
        Err(exact::ExactError::NotACard(_))
    ));
    assert_eq!(exact::points_of("a 10 K,9"), Ok(vec![1, 10, 10, 9]));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]

    /// On any depleted shoe, every value is in its range, the best play is at least losing the bet, and the whole
    /// table's deal matches the live question.
    #[test]
    fn every_value_is_in_range_on_any_depleted_shoe(
        gone in proptest::collection::vec(1u8..=10, 0..120),
        first in 1u8..=10,
        second in 1u8..=10,
        up in 1u8..=10,
        h17 in any::<bool>(),
        decks in 1u8..=6,
    ) {
        let shoe = full_shoe(decks);
        let Ok(unseen) = exact::unseen(shoe, &gone) else { return Ok(()); };
        let Ok(before) = exact::unseen(unseen, &[first, second, up]) else { return Ok(()); };
        prop_assume!(before.iter().map(|&n| u32::from(n)).sum::<u32>() >= 20);
        let rules = ExactRules { hits_soft_17: h17, ..strip() };
        let values = evaluate(&question(rules, before, &[first, second], up, true)).expect("a question");
        // Within the rounding of a sum of probabilities: a blackjack against an ace the dealer has peeked under
        // stands at 1.5000000000000002 (the saved case).
        let within = |low: f64, high: f64, v: f64| low - 1e-12 <= v && v <= high + 1e-12;
        prop_assert!(within(-1.0, 1.5, values.stand), "stand {}", values.stand);
        prop_assert!(within(-1.0, 1.0, values.hit), "hit {}", values.hit);
        if let Some(double) = values.double {
            prop_assert!(within(-2.0, 2.0, double), "double {double}");
        }
        if let Some(split) = values.split {
            for v in [split.cdz, split.cdp1, split.cdp] {
                prop_assert!(within(-8.0, 8.0, v), "split {v}");
            }
        }
        let best = values.stand.max(values.hit).max(values.surrender.unwrap_or(-1.0));
        prop_assert!(within(-1.0, f64::INFINITY, best));
        // The whole table's deal on the same shoe, valued on its own path, says the same.
        let whole = table(rules, unseen);
        let (low, high) = (first.min(second), first.max(second));
        let deal = whole.deals.iter().find(|d| d.up == up && d.cards == [low, high]).expect("the deal");
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        prop_assert!(close(deal.values.stand, values.stand) && close(deal.values.hit, values.hit));
        prop_assert_eq!(deal.values.double.is_some(), values.double.is_some());
        if let (Some(a), Some(b)) = (deal.values.split, values.split) {
            prop_assert!(close(a.cdz, b.cdz) && close(a.cdp1, b.cdp1) && close(a.cdp, b.cdp), "{a:?} {b:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, .. ProptestConfig::default() })]

    /// The round worked out a piece at a time (the browser's way, as many pieces a frame as fit) is the round worked
    /// out at once, on one thread and on two, to the last bit, on random depleted shoes.
    #[test]
    fn the_round_in_pieces_is_the_round_at_once(
        gone in proptest::collection::vec(1u8..=10, 0..150),
        h17 in any::<bool>(),
        decks in 1u8..=6,
    ) {
        let Ok(shoe) = exact::unseen(full_shoe(decks), &gone) else { return Ok(()); };
        prop_assume!(shoe.iter().map(|&n| u32::from(n)).sum::<u32>() >= 30);
        let rules = ExactRules { hits_soft_17: h17, ..strip() };
        let mut steps = exact::RoundSteps::new(rules, shoe);
        let mut pieces = 0;
        let stepped = loop {
            pieces += 1;
            // Ten listings, the needs, the plan, a few hundred pieces of walks, the assembly, 55 deals an up card.
            prop_assert!(pieces <= 2_000, "a round is some hundreds of pieces, not {}", pieces);
            if let Some(table) = steps.step() {
                break table.clone();
            }
        };
        // A deal a piece at the least.
        prop_assert!(pieces > stepped.deals.len(), "{} pieces for {} deals", pieces, stepped.deals.len());
        for threads in [1, 2] {
            let at_once = exact::table_on(rules, shoe, threads);
            prop_assert_eq!(stepped.value, at_once.value, "{} threads", threads);
            prop_assert_eq!(stepped.by_up, at_once.by_up);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

    /// The round with splits valued under CDZ- alone (the game's question between rounds: only the split hands
    /// CDZ-'s plays reach) is the whole table's CDZ- to the last bit, every deal's values and the round's, on random
    /// depleted shoes and rules (splits to two, three or four hands, with and without doubling after them, hitting
    /// and resplitting aces, surrender, the dealer's hole card or none, and what a dealer's blackjack takes then),
    /// on one thread and two, and a piece at a time.
    #[test]
    fn the_round_under_cdz_alone_is_the_whole_tables_cdz(
        gone in proptest::collection::vec(1u8..=10, 0..150),
        h17 in any::<bool>(),
        decks in 1u8..=6,
        hands in 2u8..=4,
        das in any::<bool>(),
        aces in any::<(bool, bool)>(),
        surrender in 0u8..3,
        hole_card in 0u8..3,
        threads in 1usize..=2,
    ) {
        use holecard::engine::rules::Surrender;
        let Ok(shoe) = exact::unseen(full_shoe(decks), &gone) else { return Ok(()); };
        prop_assume!(shoe.iter().map(|&n| u32::from(n)).sum::<u32>() >= 30);
        let rules = ExactRules {
            hits_soft_17: h17,
            max_split_hands: hands,
            double_after_split: das,
            resplit_aces: aces.0,
            hit_split_aces: aces.1,
            surrender: [Surrender::None, Surrender::Late, Surrender::Early][usize::from(surrender)],
            hole_card: match hole_card {
                0 => HoleCard::Peek,
                1 => HoleCard::NoHoleCard { blackjack_takes: EnhcLoss::AllBets },
                _ => HoleCard::NoHoleCard { blackjack_takes: EnhcLoss::OriginalBetOnly },
            },
            ..strip()
        };
        let whole = exact::table_on(rules, shoe, threads);
        let alone = exact::table_cdz(rules, shoe, threads);
        // A piece at a time (the browser's way), the same to the last bit.
        let mut steps = exact::RoundSteps::cdz(rules, shoe);
        let stepped = loop {
            if let Some(table) = steps.step() {
                break table.clone();
            }
        };
        prop_assert_eq!(stepped.value[0].to_bits(), alone.value[0].to_bits());
        prop_assert_eq!(stepped.by_up[0], alone.by_up[0]);
        prop_assert_eq!(alone.value(PostSplit::Cdz).to_bits(), whole.value(PostSplit::Cdz).to_bits());
        prop_assert_eq!(alone.by_up[0], whole.by_up[0]);
        prop_assert!(alone.value(PostSplit::Cdp).is_nan() && alone.value(PostSplit::Cdp1).is_nan());
        prop_assert_eq!(alone.deals.len(), whole.deals.len());
        for (a, w) in alone.deals.iter().zip(&whole.deals) {
            prop_assert_eq!((a.up, a.cards, a.chance), (w.up, w.cards, w.chance));
            let (mut a, w) = (a.values, w.values);
            prop_assert_eq!(a.split.map(|s| s.cdz.to_bits()), w.split.map(|s| s.cdz.to_bits()));
            a.split = w.split;
            prop_assert_eq!(a, w);
        }
    }
}
