//! The rule book as pure functions of a hand and the table's rules: what a hand may do and how it settles.
//!
//! The table's state machine and the simulator's single-seat round both decide through these, so a rule lives in
//! exactly one place.

use super::card::Card;
use super::event::Outcome;
use super::hand::Total;
use super::money::Cents;
use super::rules::{EnhcLoss, HoleCard, Rules, Soft17, Surrender};
use super::seat::Hand;

/// Why the hand may not hit, or `None` if it may (cards in the shoe aside).
#[inline]
pub fn hit_refusal(rules: &Rules, hand: &Hand) -> Option<&'static str> {
    if hand.split_aces && !rules.hit_split_aces {
        Some("split aces take one card each")
    } else if hand.total().value() >= 21 {
        Some("the hand already has 21")
    } else {
        None
    }
}

/// Why the hand may not double, or `None` if it may (chips and cards aside).
#[inline]
pub fn double_refusal(rules: &Rules, hand: &Hand) -> Option<&'static str> {
    if hand.cards.len() != 2 {
        Some("doubling needs exactly two cards")
    } else if !rules.double_on.allows(hand.total().value()) {
        Some("the table does not allow doubling on this total")
    } else if hand.from_split && !rules.double_after_split {
        Some("the table does not allow doubling after a split")
    } else if hand.split_aces && !rules.hit_split_aces {
        Some("split aces take one card each")
    } else {
        None
    }
}

/// Why the hand may not split when its seat holds `seat_hands` hands, or `None` if it may (chips and cards aside).
#[inline]
pub fn split_refusal(rules: &Rules, hand: &Hand, seat_hands: usize) -> Option<&'static str> {
    match hand.cards.as_slice() {
        [a, b] if a.rank() == b.rank() => {}
        [a, b] if rules.split_unequal_tens && a.points() == 10 && b.points() == 10 => {}
        [_, _] => return Some("only a pair can be split"),
        _ => return Some("splitting needs exactly two cards"),
    }
    if seat_hands >= usize::from(rules.max_split_hands) {
        Some("the seat already holds the most hands the table allows")
    } else if hand.split_aces && !rules.resplit_aces {
        Some("the table does not allow resplitting aces")
    } else {
        None
    }
}

/// Why the hand may not surrender, or `None` if it may.
#[inline]
pub fn surrender_refusal(rules: &Rules, hand: &Hand) -> Option<&'static str> {
    if rules.surrender == Surrender::None {
        Some("the table does not offer surrender")
    } else if hand.from_split || hand.cards.len() != 2 {
        Some("only the first two cards of an unsplit hand can surrender")
    } else {
        None
    }
}

/// A split ace that has its second card and cannot act any more: it stands on its own. (Split aces that may hit
/// play on; an ace that caught another ace may be resplit when the table allows and the seat has room.)
#[inline]
pub fn split_ace_is_finished(rules: &Rules, hand: &Hand, seat_hands: usize) -> bool {
    hand.split_aces
        && !rules.hit_split_aces
        && !(rules.resplit_aces
            && hand.cards.as_slice().get(1).is_some_and(|c| c.is_ace())
            && seat_hands < usize::from(rules.max_split_hands))
}

/// True when this upcard obliges a peek for blackjack (an ace or a ten-value).
#[inline]
pub fn upcard_may_hide_blackjack(upcard: Card) -> bool {
    upcard.is_ace() || upcard.points() == 10
}

/// The dealer draws on this total.
#[inline]
pub fn dealer_hits(rules: &Rules, total: Total) -> bool {
    total.value() < 17 || (total.value() == 17 && total.is_soft() && rules.soft_17 == Soft17::Hit)
}

/// A standing hand against the dealer's finished hand: outcome and the player's net.
#[inline]
pub fn showdown(player: Total, dealer: Total, wager: Cents) -> (Outcome, Cents) {
    if dealer.is_bust() || player.value() > dealer.value() {
        (Outcome::Win, wager)
    } else if player.value() == dealer.value() {
        (Outcome::Push, Cents::ZERO)
    } else {
        (Outcome::Lose, -wager)
    }
}

/// A surrendered hand's net: half the wager (rounded down) comes back.
#[inline]
pub fn surrender_net(wager: Cents) -> Cents {
    -(wager - wager.half())
}

/// True when a surrender is settled at once; on a no-hole-card table a late surrender waits to see whether the
/// dealer has blackjack (and then loses the whole bet).
#[inline]
pub fn surrender_settles_at_once(rules: &Rules) -> bool {
    !(rules.no_hole_card() && rules.surrender == Surrender::Late)
}

/// What a dealer blackjack does to an open hand: a natural pushes, anything else loses — only the original bet
/// on a no-hole-card table that refunds doubles and splits. `later_split_hand` is a seat's second or later hand.
#[inline]
pub fn against_dealer_blackjack(
    rules: &Rules,
    hand: &Hand,
    later_split_hand: bool,
) -> (Outcome, Cents) {
    let original_only = matches!(
        rules.hole_card,
        HoleCard::NoHoleCard {
            blackjack_takes: EnhcLoss::OriginalBetOnly
        }
    );
    // A natural pushes; on an original-bet-only table a seat's later split hands are simply returned.
    if hand.is_blackjack() || (original_only && later_split_hand) {
        (Outcome::Push, Cents::ZERO)
    } else if original_only && hand.doubled {
        (Outcome::Lose, -hand.wager.half())
    } else {
        (Outcome::Lose, -hand.wager)
    }
}
