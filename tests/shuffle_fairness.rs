//! The shuffle is fair: exactly uniform over permutations given uniform draws, and statistically uniform in use.

use holecard::engine::rng::{TableRng, below_u32, seed_from_number, take_random};
use holecard::engine::{Card, Shoe};
use std::collections::HashSet;

/// Every sequence of draw outcomes the production dealing code can see for `n` items, each yielding one deal order.
fn every_deal_order(n: usize) -> Vec<Vec<usize>> {
    // Mixed-radix counter over the picks: draw k (k = 0..n−1) sees n−k items and needs a pick in 0..n−k.
    let radices: Vec<u32> = (0..n).map(|k| (n - k) as u32).collect();
    let total: usize = radices.iter().map(|&r| r as usize).product();
    let mut orders = Vec::with_capacity(total);
    for mut code in 0..total {
        let mut items: Vec<usize> = (0..n).collect();
        let mut order = Vec::with_capacity(n);
        for &radix in &radices {
            let pick = (code % radix as usize) as u32;
            code /= radix as usize;
            let mut asked = false;
            let item = take_random(&mut items, |bound| {
                assert_eq!(
                    bound, radix,
                    "the deal asks for a pick over every remaining item"
                );
                asked = true;
                pick
            });
            assert!(
                asked || radix == 1,
                "a single remaining item needs no randomness"
            );
            order.push(item.expect("an item remains"));
        }
        orders.push(order);
    }
    orders
}

#[test]
fn every_permutation_of_a_small_deck_is_exactly_equally_likely() {
    // With uniform picks every pick sequence is equally likely; if each sequence gives a different order, every
    // order has probability exactly 1/n!. (The pick itself is shown exactly uniform in rng.rs's exhaustive test.)
    for n in 1..=7 {
        let orders = every_deal_order(n);
        let factorial: usize = (1..=n).product();
        assert_eq!(orders.len(), factorial);
        let distinct: HashSet<Vec<usize>> = orders.into_iter().collect();
        assert_eq!(
            distinct.len(),
            factorial,
            "n = {n}: some deal order is reachable two ways"
        );
    }
}

#[test]
fn card_positions_pass_a_chi_square_test() {
    // Deal a full deck 20,800 times and count where each card lands; 52×52 cells, 2,601 degrees of freedom.
    const SHUFFLES: usize = 20_800;
    let mut rng = TableRng::from_seed(seed_from_number(2026));
    let mut counts = vec![[0u32; 52]; 52];
    for _ in 0..SHUFFLES {
        let mut shoe = Shoe::new(1, 0.75);
        shoe.shuffle();
        let mut position = 0;
        while let Some((card, _)) = shoe.draw(&mut rng) {
            counts[card_slot(card)][position] += 1;
            position += 1;
        }
        assert_eq!(position, 52);
    }
    let expected = SHUFFLES as f64 / 52.0;
    let chi_square: f64 = counts
        .iter()
        .flat_map(|row| row.iter())
        .map(|&observed| (f64::from(observed) - expected).powi(2) / expected)
        .sum();
    // Mean 2,601, standard deviation about 72: 2,601 ± 5 s.d. bounds a fair shuffle with p < 10⁻⁶ either way,
    // and catches a biased one (a modulo-biased or off-by-one shuffle lands far above, a rigged one far below).
    assert!(
        (2_240.0..2_962.0).contains(&chi_square),
        "chi-square {chi_square:.1} for 2,601 d.f."
    );
}

fn card_slot(card: Card) -> usize {
    card.index() % 52
}

#[test]
fn the_production_bounded_draw_covers_its_range() {
    let mut word = 0u32;
    let mut seen = [false; 7];
    for _ in 0..1000 {
        let value = below_u32(7, || {
            word = word.wrapping_add(0x9E37_79B9);
            word
        });
        seen[value as usize] = true;
    }
    assert!(seen.iter().all(|&s| s));
}
