//! The side bets' exact values (`engine::exact::side`) against three things they must agree with: every card
//! combination counted one by one here (each physical card of the shoe its own), the published house edges and
//! combination counts for their pay tables, and a simulation of 10⁷ rounds each (within three standard errors), on
//! a full shoe and on a depleted one.
//!
//! Published sources: the Wizard of Odds' analyses — 21+3 (wizardofodds.com/games/blackjack/side-bets/21plus3/:
//! six decks, the combination counts of each hand and the flat 9-to-1 table's edge of 3.2386%), Buster Blackjack
//! (wizardofodds.com/games/blackjack/side-bets/buster-blackjack/: pay table 1, six decks, the chance of each bust
//! with the dealer hitting soft 17 and the house edges 6.21% hitting and 8.25% standing), Lucky Ladies (six decks,
//! 1000/125/19/9/4: 24.71%, as betfirm.com/lucky-ladies/ quotes it) and Perfect Pairs (30/10/5 on six decks:
//! 5.79%, live-dealers-casino.com/perfect-pairs-blackjack-side-bet/).

use holecard::engine::card::{Card, Rank, Suit};
use holecard::engine::exact::side::{SidePrice, Suited, price};
use holecard::engine::hand::Total;
use holecard::engine::rules::{Rules, Soft17};
use holecard::engine::side::{
    self, BusterPays, LadiesPays, PairPays, SideBet, SideBets, SideWin, ThreeCardPays,
};
use holecard::engine::{TableRng, seed_from_number};
use std::collections::BTreeMap;

/// Every side bet offered, on `decks` decks.
fn table(decks: u8, three: ThreeCardPays, pairs: PairPays, soft_17: Soft17) -> Rules {
    Rules {
        decks,
        soft_17,
        side_bets: SideBets {
            twenty_one_plus_three: Some(three),
            perfect_pairs: Some(pairs),
            lucky_ladies: Some(LadiesPays::THOUSAND),
            buster: Some(BusterPays::TWO_FIFTY),
            ..SideBets::default()
        },
        ..Rules::default()
    }
}

fn six_decks() -> Rules {
    table(
        6,
        ThreeCardPays::FLAT_NINE,
        PairPays::TWENTY_FIVE,
        Soft17::Hit,
    )
}

/// Every physical card of a shoe of `decks`.
fn physical(decks: u8) -> Vec<Card> {
    let mut cards = Vec::new();
    for deck in 0..decks {
        for suit in Suit::ALL {
            for rank in Rank::ALL {
                cards.push(Card::new(deck, suit, rank));
            }
        }
    }
    cards
}

/// The shoe less `seen` physical cards taken by a seeded generator, and those cards.
fn depleted(decks: u8, seen: usize, seed: u64) -> (Vec<Card>, Vec<Card>) {
    let mut cards = physical(decks);
    let mut rng = TableRng::from_seed(seed_from_number(seed));
    let mut taken = Vec::new();
    for _ in 0..seen {
        taken.extend(rng.take(&mut cards));
    }
    (cards, taken)
}

fn chance(price: &SidePrice, win: SideWin) -> f64 {
    price
        .chances
        .iter()
        .find(|(w, _, _)| *w == win)
        .map_or(0.0, |&(_, _, p)| p)
}

fn close(a: f64, b: f64, tolerance: f64, what: &str) {
    assert!((a - b).abs() <= tolerance, "{what}: {a} against {b}");
}

/// Counts of each winning hand over every set of three physical cards.
fn count_threes(cards: &[Card]) -> (BTreeMap<SideWin, u64>, u64) {
    let mut counts = BTreeMap::new();
    let mut sets = 0u64;
    for i in 0..cards.len() {
        for j in i + 1..cards.len() {
            for k in j + 1..cards.len() {
                sets += 1;
                if let Some(win) = side::three_card([cards[i], cards[j], cards[k]]) {
                    *counts.entry(win).or_insert(0) += 1;
                }
            }
        }
    }
    (counts, sets)
}

#[test]
fn twenty_one_plus_three_counts_every_set_of_three_cards_as_published() {
    let rules = six_decks();
    let (counts, sets) = count_threes(&physical(6));
    // The Wizard of Odds' six-deck counts: straight flush 10368, three of a kind 26312 (1040 of them suited),
    // straight 155520, flush 236736 + 56160 with a pair, of 5013320.
    assert_eq!(sets, 5_013_320);
    let published = [
        (SideWin::SuitedTrips, 1_040),
        (SideWin::ThreeOfAKind, 25_272),
        (SideWin::StraightFlush, 10_368),
        (SideWin::Straight, 155_520),
        (SideWin::Flush, 292_896),
    ];
    for (win, count) in published {
        assert_eq!(counts.get(&win), Some(&count), "{win:?}");
    }
    let flat = price(SideBet::TwentyOnePlusThree, &rules, &Suited::full(6)).expect("offered");
    for (win, count) in published {
        close(
            chance(&flat, win),
            count as f64 / sets as f64,
            1e-13,
            "chance",
        );
    }
    close(
        flat.value(),
        -0.032386,
        5e-7,
        "flat 9 to 1, six decks: 3.2386%",
    );
    let hundred = table(
        6,
        ThreeCardPays::HUNDRED_TO_FIVE,
        PairPays::TWENTY_FIVE,
        Soft17::Hit,
    );
    let priced = price(SideBet::TwentyOnePlusThree, &hundred, &Suited::full(6)).expect("offered");
    // From the same published counts: 100·1040 + 40·10368 + 30·25272 + 10·155520 + 5·292896 won, the rest lost.
    let lost = sets - published.iter().map(|(_, n)| n).sum::<u64>();
    let won = 100 * 1_040 + 40 * 10_368 + 30 * 25_272 + 10 * 155_520 + 5 * 292_896;
    close(
        priced.value(),
        (won as f64 - lost as f64) / sets as f64,
        1e-12,
        "100/40/30/10/5, six decks",
    );

    // On a depleted shoe, the same count card by card.
    let (left, seen) = depleted(6, 150, 41);
    let (counts, sets) = count_threes(&left);
    let shoe = Suited::unseen(6, &seen).expect("a shoe");
    let priced = price(SideBet::TwentyOnePlusThree, &hundred, &shoe).expect("offered");
    agrees(&priced, &counts, sets, 1e-12);
}

/// Each paying hand's chance in `priced` is its count among `total` deals, counted card by card.
fn agrees(priced: &SidePrice, counts: &BTreeMap<SideWin, u64>, total: u64, tolerance: f64) {
    for &(win, _, p) in &priced.chances {
        let count = counts.get(&win).copied().unwrap_or(0);
        close(
            p,
            count as f64 / total as f64,
            tolerance,
            &format!("{win:?}"),
        );
    }
}

/// Counts of each winning hand over every pair of physical cards (`read` names it).
fn count_pairs(
    cards: &[Card],
    read: impl Fn([Card; 2]) -> Option<SideWin>,
) -> (BTreeMap<SideWin, u64>, u64) {
    let mut counts = BTreeMap::new();
    let mut pairs = 0u64;
    for i in 0..cards.len() {
        for j in i + 1..cards.len() {
            pairs += 1;
            if let Some(win) = read([cards[i], cards[j]]) {
                *counts.entry(win).or_insert(0) += 1;
            }
        }
    }
    (counts, pairs)
}

#[test]
fn perfect_pairs_counts_every_pair_of_cards_and_matches_the_published_edges() {
    for (seen, seed) in [(0, 0), (120, 7)] {
        let (left, taken) = depleted(6, seen, seed);
        let (counts, pairs) = count_pairs(&left, side::pair);
        let shoe = Suited::unseen(6, &taken).expect("a shoe");
        let priced = price(SideBet::PerfectPairs, &six_decks(), &shoe).expect("offered");
        agrees(&priced, &counts, pairs, 1e-13);
    }
    // Six decks: a pair's second card is one of the 23 of its rank among 311 others: 5 perfect, 6 of one colour.
    let rules = six_decks();
    let priced = price(SideBet::PerfectPairs, &rules, &Suited::full(6)).expect("offered");
    close(
        priced.value(),
        (25.0 * 5.0 + 12.0 * 6.0 + 6.0 * 12.0 - 288.0) / 311.0,
        1e-13,
        "25/12/6",
    );
    let thirty = table(6, ThreeCardPays::FLAT_NINE, PairPays::THIRTY, Soft17::Hit);
    let priced = price(SideBet::PerfectPairs, &thirty, &Suited::full(6)).expect("offered");
    close(priced.value(), -0.0579, 5e-5, "30/10/5, six decks: 5.79%");
}

#[test]
fn lucky_ladies_counts_every_twenty_and_every_dealer_blackjack_behind_two_queens_of_hearts() {
    for (seen, seed) in [(0, 0), (90, 3)] {
        let (left, taken) = depleted(6, seen, seed);
        let (mut counts, pairs) = count_pairs(&left, |cards| side::twenty(cards, false));
        // Behind each pair of queens of hearts, every dealer's up card and hole card from the rest.
        let queens: Vec<usize> = (0..left.len())
            .filter(|&i| left[i].rank() == Rank::Queen && left[i].suit() == Suit::Hearts)
            .collect();
        let (mut with_blackjack, mut behind) = (0.0f64, 0.0f64);
        for (n, &a) in queens.iter().enumerate() {
            for &b in &queens[n + 1..] {
                let rest: Vec<Card> = (0..left.len())
                    .filter(|&i| i != a && i != b)
                    .map(|i| left[i])
                    .collect();
                let (mut blackjacks, mut deals) = (0u64, 0u64);
                for (i, &up) in rest.iter().enumerate() {
                    for (j, &hole) in rest.iter().enumerate() {
                        if i != j {
                            deals += 1;
                            if Total::of(&[up, hole]).value() == 21 {
                                blackjacks += 1;
                            }
                        }
                    }
                }
                with_blackjack += blackjacks as f64 / deals as f64;
                behind += 1.0;
            }
        }
        let queen_pairs = counts.remove(&SideWin::QueensOfHearts).unwrap_or(0) as f64;
        assert_eq!(queen_pairs, behind);
        let shoe = Suited::unseen(6, &taken).expect("a shoe");
        let priced = price(SideBet::LuckyLadies, &six_decks(), &shoe).expect("offered");
        let total = pairs as f64;
        close(
            chance(&priced, SideWin::QueensOfHeartsAndDealerBlackjack),
            with_blackjack / total,
            1e-15,
            "queens and a blackjack",
        );
        close(
            chance(&priced, SideWin::QueensOfHearts),
            (behind - with_blackjack) / total,
            1e-13,
            "queens",
        );
        for win in [
            SideWin::MatchedTwenty,
            SideWin::SuitedTwenty,
            SideWin::AnyTwenty,
        ] {
            let count = counts.get(&win).copied().unwrap_or(0);
            close(chance(&priced, win), count as f64 / total, 1e-13, "a 20");
        }
    }
    let priced = price(SideBet::LuckyLadies, &six_decks(), &Suited::full(6)).expect("offered");
    close(
        priced.value(),
        -0.2471,
        5e-5,
        "1000/125/19/9/4, six decks: 24.71%",
    );
}

/// The dealer's busts by number of cards, every order of drawing followed one card at a time from the counts.
fn busts_drawn_in_order(
    h17: bool,
    shoe: &mut [u32; 10],
    hand: &mut Vec<u8>,
    p: f64,
    out: &mut [f64; 9],
) {
    let hard: u32 = hand.iter().map(|&c| u32::from(c)).sum();
    let soft = hand.contains(&1) && hard + 10 <= 21;
    let value = if soft { hard + 10 } else { hard };
    if hand.len() >= 2 && (value > 17 || (value == 17 && !(soft && h17))) {
        if value > 21 {
            out[hand.len().min(8)] += p;
        }
        return;
    }
    let left: u32 = shoe.iter().sum();
    for points in 1..=10u8 {
        let held = shoe[usize::from(points - 1)];
        if held == 0 {
            continue;
        }
        let q = p * f64::from(held) / f64::from(left);
        shoe[usize::from(points - 1)] -= 1;
        hand.push(points);
        busts_drawn_in_order(h17, shoe, hand, q, out);
        hand.pop();
        shoe[usize::from(points - 1)] += 1;
    }
}

#[test]
fn buster_follows_every_dealer_draw_and_matches_the_published_chances_and_edges() {
    for (seen, seed) in [(0, 0), (140, 11)] {
        let (_, taken) = depleted(6, seen, seed);
        let shoe = Suited::unseen(6, &taken).expect("a shoe");
        for soft_17 in [Soft17::Hit, Soft17::Stand] {
            let rules = table(6, ThreeCardPays::FLAT_NINE, PairPays::TWENTY_FIVE, soft_17);
            let mut counts = shoe.points().map(u32::from);
            let mut drawn = [0.0; 9];
            busts_drawn_in_order(
                soft_17 == Soft17::Hit,
                &mut counts,
                &mut Vec::new(),
                1.0,
                &mut drawn,
            );
            let priced = price(SideBet::Buster, &rules, &shoe).expect("offered");
            for cards in 3..=8u8 {
                close(
                    chance(&priced, SideWin::DealerBust(cards)),
                    drawn[usize::from(cards)],
                    1e-13,
                    &format!("{cards} cards"),
                );
            }
        }
    }
    // The Wizard of Odds' pay table 1, six decks, dealer hits soft 17: each bust's chance, to six places.
    let hits = price(SideBet::Buster, &six_decks(), &Suited::full(6)).expect("offered");
    for (cards, published) in [
        (8, 0.000012),
        (7, 0.000214),
        (6, 0.002638),
        (5, 0.020473),
        (4, 0.089392),
        (3, 0.173032),
    ] {
        close(
            chance(&hits, SideWin::DealerBust(cards)),
            published,
            5e-7,
            "bust chance",
        );
    }
    close(hits.value(), -0.0621, 5e-5, "H17: 6.21%");
    let stands = table(
        6,
        ThreeCardPays::FLAT_NINE,
        PairPays::TWENTY_FIVE,
        Soft17::Stand,
    );
    let priced = price(SideBet::Buster, &stands, &Suited::full(6)).expect("offered");
    close(priced.value(), -0.0825, 5e-5, "S17: 8.25%");
}

/// Plays `rounds` of `bet` from `cards` (each round's cards drawn at random from all of them) and returns the mean
/// result per unit staked.
fn simulate(bet: SideBet, rules: &Rules, cards: &[Card], rounds: u64, seed: u64) -> f64 {
    let mut rng = TableRng::from_seed(seed_from_number(seed));
    let mut shoe = cards.to_vec();
    let h17 = rules.soft_17 == Soft17::Hit;
    let mut total = 0.0f64;
    for _ in 0..rounds {
        // A partial shuffle: the last `drawn` cards are the round's, each uniformly random among the rest.
        let mut drawn = 0usize;
        let mut draw = |rng: &mut TableRng| {
            let end = shoe.len() - drawn;
            let pick = rng.below(end as u32) as usize;
            shoe.swap(pick, end - 1);
            drawn += 1;
            shoe[end - 1]
        };
        let win = match bet {
            SideBet::TwentyOnePlusThree => {
                side::three_card([draw(&mut rng), draw(&mut rng), draw(&mut rng)])
            }
            SideBet::PerfectPairs => side::pair([draw(&mut rng), draw(&mut rng)]),
            SideBet::LuckyLadies => {
                let first = [draw(&mut rng), draw(&mut rng)];
                let dealer = [draw(&mut rng), draw(&mut rng)];
                side::twenty(first, Total::of(&dealer).value() == 21)
            }
            SideBet::Buster => {
                let mut dealer = vec![draw(&mut rng), draw(&mut rng)];
                loop {
                    let total = Total::of(&dealer);
                    let value = total.value();
                    if value > 17 || (value == 17 && !(total.is_soft() && h17)) {
                        break;
                    }
                    dealer.push(draw(&mut rng));
                }
                side::buster(&dealer)
            }
        };
        let back = rules
            .side_bets
            .returned(bet, holecard::engine::Cents(1), win)
            .0;
        total += back as f64 - 1.0;
    }
    total / rounds as f64
}

#[test]
fn each_exact_value_agrees_with_ten_million_simulated_rounds() {
    const ROUNDS: u64 = 10_000_000;
    let rules = table(
        6,
        ThreeCardPays::HUNDRED_TO_FIVE,
        PairPays::TWENTY_FIVE,
        Soft17::Hit,
    );
    for (seen, seed) in [(0, 0), (160, 23)] {
        let (left, taken) = depleted(6, seen, seed);
        let shoe = Suited::unseen(6, &taken).expect("a shoe");
        for (n, bet) in SideBet::ALL.into_iter().enumerate() {
            let exact = price(bet, &rules, &shoe).expect("offered");
            let simulated = simulate(bet, &rules, &left, ROUNDS, seed * 10 + n as u64);
            let error = (exact.variance() / ROUNDS as f64).sqrt();
            println!(
                "{bet}, {seen} cards seen: exact {:+.5}, simulated {simulated:+.5} ± {error:.5}",
                exact.value()
            );
            assert!(
                (simulated - exact.value()).abs() < 3.0 * error,
                "{bet} with {seen} seen: simulated {simulated} is over three standard errors ({error}) from {}",
                exact.value()
            );
        }
    }
}

#[test]
fn a_bet_the_table_does_not_offer_or_a_shoe_too_short_has_no_price() {
    let plain = Rules::default();
    assert_eq!(price(SideBet::Buster, &plain, &Suited::full(6)), None);
    let (_, taken) = depleted(1, 45, 1);
    let short = Suited::unseen(1, &taken).expect("seven cards left");
    assert_eq!(
        price(SideBet::TwentyOnePlusThree, &six_decks(), &short),
        None
    );
    let mut twice = taken.clone();
    twice.push(taken[0]);
    let error = Suited::unseen(1, &twice).expect_err("a card seen twice in one deck");
    assert!(error.to_string().contains("holds 1 of the"), "{error}");
}
