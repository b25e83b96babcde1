//! The exact engine's live question as a bare WebAssembly module, to time it in a browser's JavaScript engine
//! (scripts/bench-exact runs it in Node, whose V8 is Chromium's): `live` answers one question on a full shoe, every
//! legal play of one two-card hand against one up card, splits included, and returns the best play's value (so that
//! nothing is left out as unused); `side` prices a side bet, `edge` the whole round.
//!
//! Built with `cargo build --profile web --target wasm32-unknown-unknown --no-default-features --features exact-wasm
//! --bin holecard-exact-wasm` (the browser game's profile), or `--profile release` for comparison. Natively it does
//! nothing.

use holecard::engine::exact::{ExactRules, Question, evaluate, full_shoe};
use holecard::engine::rules::Preset;

/// Every play of `first`,`second` against `up` (points, 1 = ace, 10 = a ten) on a full shoe of `decks` decks, the
/// Strip's rules but the dealer standing on soft 17 (`h17` = 0) or hitting it (1): the best play's value, or NaN
/// where the question is not one.
#[unsafe(no_mangle)]
pub extern "C" fn live(decks: u32, h17: u32, up: u32, first: u32, second: u32) -> f64 {
    let rules = ExactRules {
        hits_soft_17: h17 == 1,
        ..ExactRules::of(&Preset::LasVegasStrip.rules())
    };
    let mut unseen = full_shoe(decks.clamp(1, 8) as u8);
    for card in [up, first, second] {
        let Some(rank) = (card as usize).checked_sub(1).filter(|&rank| rank < 10) else {
            return f64::NAN;
        };
        if unseen[rank] == 0 {
            return f64::NAN;
        }
        unseen[rank] -= 1;
    }
    let question = Question {
        rules,
        unseen,
        hand: vec![first as u8, second as u8],
        up: up as u8,
        peeked: true,
        split_hand: false,
    };
    match evaluate(&question) {
        Ok(values) => {
            let mut best = values.stand.max(values.hit);
            for other in [values.double, values.surrender, values.split.map(|s| s.cdz)] {
                best = best.max(other.unwrap_or(f64::NEG_INFINITY));
            }
            best
        }
        Err(_) => f64::NAN,
    }
}

fn main() {}

/// Side bet `bet` (0 21+3, 1 Perfect Pairs, 2 Lucky Ladies, 3 Buster Blackjack, each with its usual pay table) on a
/// full shoe of `decks` decks, the dealer standing on soft 17 (`h17` = 0) or hitting it (1): its value per unit bet,
/// or NaN for a bet that is none.
#[unsafe(no_mangle)]
pub extern "C" fn side(bet: u32, decks: u32, h17: u32) -> f64 {
    use holecard::engine::exact::side::{Suited, price};
    use holecard::engine::side::SideBet;
    let Some(&bet) = SideBet::ALL.get(bet as usize) else {
        return f64::NAN;
    };
    let mut rules = Preset::LasVegasStrip.rules();
    rules.decks = decks.clamp(1, 8) as u8;
    if h17 == 1 {
        rules.soft_17 = holecard::engine::rules::Soft17::Hit;
    }
    rules.side_bets.offer(bet);
    price(bet, &rules, &Suited::full(rules.decks)).map_or(f64::NAN, |priced| priced.value())
}

/// The whole table's value on a full shoe of `decks` decks, the Strip's rules but the dealer's soft 17 (`h17`), every
/// hand played as well as can be with splits under CDZ- alone (`chart` = 0: the game's question between rounds), by
/// the basic-strategy chart (1), or as well as can be under all three post-split strategies (2, CDZ-'s value given).
#[unsafe(no_mangle)]
pub extern "C" fn edge(decks: u32, h17: u32, chart: u32) -> f64 {
    let mut rules = Preset::LasVegasStrip.rules();
    rules.decks = decks.clamp(1, 8) as u8;
    if h17 == 1 {
        rules.soft_17 = holecard::engine::rules::Soft17::Hit;
    }
    if chart == 0 {
        return holecard::engine::exact::table_cdz(
            ExactRules::of(&rules),
            full_shoe(rules.decks),
            1,
        )
        .value[0];
    }
    let basic = holecard::engine::strategy::BasicStrategy::for_rules(&rules);
    holecard::engine::exact::table_with(
        ExactRules::of(&rules),
        full_shoe(rules.decks),
        (chart == 1).then_some(&basic),
        1,
    )
    .value[0]
}
