//! The shoe: undealt cards, the cut card and the discard tray.

use super::card::{Card, Rank, Suit};
use super::rng::{Seed, TableRng};
use serde::{Deserialize, Serialize};

/// Every card of a shoe of `decks` decks dealt from `seed` alone, in the order they come out (the burned card first,
/// at a table that burns one): what a table told to [`Table::deal_next_shoe_from`](super::Table::deal_next_shoe_from)
/// deals, for anyone to deal again once the seed is revealed. (A shoe that runs dry mid-round deals on from its tray,
/// put back in pack order, with the same generator: those cards are not in this list.)
pub fn shoe_from_seed(decks: u8, seed: Seed) -> Vec<Card> {
    let mut shoe = Shoe::new(decks, 1.0);
    shoe.shuffle();
    shoe.in_pack_order();
    let mut rng = TableRng::from_seed(seed);
    std::iter::from_fn(|| shoe.draw(&mut rng).map(|(card, _)| card)).collect()
}

/// The dealing shoe and the discard tray beside it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shoe {
    /// Undealt cards, in no meaningful order: each draw takes a uniformly random one (a Fisher–Yates shuffle
    /// carried out one card at a time, see [`take_random`](super::rng::take_random)).
    cards: Vec<Card>,
    /// Cards set aside to come out next, in order (the last one first), for practice hands and replays of
    /// known deals. Still part of the shoe.
    #[serde(default)]
    queued: Vec<Card>,
    /// Cards played in earlier rounds (and burned cards), face down in the tray.
    discards: Vec<Card>,
    /// The first this many cards of the tray were burned: never shown to anyone.
    #[serde(default)]
    burned: u32,
    decks: u8,
    /// The cut card sits in front of this many undealt cards.
    cut_remaining: u32,
    /// The cut card has come out (or the shoe was never shuffled): shuffle before the next round.
    cut_card_out: bool,
}

impl Shoe {
    /// A shoe of `decks` fresh decks in pack order, with the cut card to go in after `penetration` of the cards.
    /// It is shuffled before the first round.
    pub fn new(decks: u8, penetration: f64) -> Shoe {
        let mut cards = Vec::with_capacity(usize::from(decks) * 52);
        for deck in 0..decks {
            for suit in Suit::ALL {
                for rank in Rank::ALL {
                    cards.push(Card::new(deck, suit, rank));
                }
            }
        }
        let total = cards.len() as u32;
        let dealt_before_cut = ((f64::from(total) * penetration).round() as u32).min(total);
        Shoe {
            queued: Vec::new(),
            discards: Vec::with_capacity(cards.len()),
            burned: 0,
            cards,
            decks,
            cut_remaining: total - dealt_before_cut,
            cut_card_out: true,
        }
    }

    /// Every card goes back in and the cut card is reinserted. Returns the card count.
    ///
    /// The order is randomised as cards are drawn, so nothing here consumes randomness.
    pub fn shuffle(&mut self) -> u32 {
        self.cards.append(&mut self.discards);
        self.burned = 0;
        self.cut_card_out = false;
        self.remaining() as u32
    }

    /// The shoe ran dry mid-round: shuffle the discards and deal on from them, as a dealer would.
    /// Returns how many cards went back in. The cut card stays out, so the next round starts with a full shuffle.
    pub fn refill_from_discards(&mut self) -> u32 {
        let count = self.discards.len() as u32;
        self.cards.append(&mut self.discards);
        self.burned = 0;
        self.cut_card_out = true;
        count
    }

    /// Takes the next card. `None` only when the shoe is empty (call [`Shoe::refill_from_discards`] first).
    /// The second value is true when this card brought out the cut card.
    #[inline(always)]
    pub fn draw(&mut self, rng: &mut TableRng) -> Option<(Card, bool)> {
        let card = match self.queued.pop() {
            Some(card) => card,
            None => rng.take(&mut self.cards)?,
        };
        let cut_now = !self.cut_card_out && self.remaining() as u32 == self.cut_remaining;
        if cut_now {
            self.cut_card_out = true;
        }
        Some((card, cut_now))
    }

    /// Sets cards of these ranks aside to be dealt next, in this order, taking them from the undealt cards or, if
    /// none is left there, the discard tray. Returns false, changing nothing, if a rank has run out.
    pub fn queue_next(&mut self, ranks: &[Rank]) -> bool {
        let (mut cards, mut discards, mut queued) =
            (self.cards.clone(), self.discards.clone(), Vec::new());
        for &rank in ranks {
            let source = if cards.iter().any(|c| c.rank() == rank) {
                &mut cards
            } else {
                &mut discards
            };
            let Some(at) = source.iter().position(|c| c.rank() == rank) else {
                return false;
            };
            queued.push(source.swap_remove(at));
        }
        // `queued` pops from the end: the new cards go in front of (under) the ones already waiting.
        queued.reverse();
        queued.extend_from_slice(&self.queued);
        if discards.len() != self.discards.len() {
            // Taken from the tray, which no longer keeps its burned cards first.
            self.burned = 0;
        }
        (self.cards, self.discards, self.queued) = (cards, discards, queued);
        true
    }

    /// Sets these cards (by rank and suit, from whichever deck holds one) aside to be dealt next, in this order, from
    /// the undealt cards. Returns false, changing nothing, if one is not among them.
    pub fn queue_exact(&mut self, cards: &[Card]) -> bool {
        let mut undealt = self.cards.clone();
        let mut queued = Vec::with_capacity(cards.len());
        for card in cards {
            let same = |c: &Card| c.rank() == card.rank() && c.suit() == card.suit();
            // The very card when this shoe has its deck, else its like from another.
            let at = undealt
                .iter()
                .position(|c| c == card)
                .or_else(|| undealt.iter().position(same));
            let Some(at) = at else {
                return false;
            };
            queued.push(undealt.remove(at));
        }
        queued.reverse();
        queued.extend_from_slice(&self.queued);
        (self.cards, self.queued) = (undealt, queued);
        true
    }

    /// The undealt cards in pack order (deck, suit, rank: as a new shoe has them), for a shoe dealt from a seed of its
    /// own: what comes out then depends only on which cards are in and the generator.
    pub fn in_pack_order(&mut self) {
        self.cards.sort_unstable_by_key(|c| c.index());
    }

    /// Burns a card: into the tray face down, with the tray's other burned cards.
    pub fn burn(&mut self, card: Card) {
        let at = (self.burned as usize).min(self.discards.len());
        self.discards.insert(at, card);
        self.burned += 1;
    }

    /// The first step of sealing a table ([`Table::sealed`](super::Table::sealed)): the queued cards go back among
    /// the undealt, the burned cards come out of the tray to join them, and the undealt go in card order (their
    /// order means nothing: each draw picks one at random). Returns how many cards were burned, for the caller to
    /// burn again from the undealt cards ([`Shoe::pick`], [`Shoe::burn`]).
    pub fn unseal_unseen(&mut self) -> u32 {
        let burned = (self.burned as usize).min(self.discards.len());
        self.cards.append(&mut self.queued);
        self.cards.extend(self.discards.drain(..burned));
        self.burned = 0;
        self.cards.sort_unstable_by_key(|c| c.index());
        burned as u32
    }

    /// Puts an unseen card back among the undealt cards, in card order.
    pub fn put_back(&mut self, card: Card) {
        let at = self.cards.partition_point(|c| c.index() < card.index());
        self.cards.insert(at, card);
    }

    /// Takes out an undealt card picked uniformly by `rng` among those `allowed` (`None` if none is), keeping the
    /// rest in their order: which card comes out depends only on the undealt cards and `rng`.
    pub fn pick(&mut self, rng: &mut TableRng, allowed: impl Fn(Card) -> bool) -> Option<Card> {
        let candidates: Vec<usize> = (0..self.cards.len())
            .filter(|&i| allowed(self.cards[i]))
            .collect();
        if candidates.is_empty() {
            return None;
        }
        let at = candidates[rng.below(candidates.len() as u32) as usize];
        Some(self.cards.remove(at))
    }

    /// Puts played cards into the discard tray.
    #[inline]
    pub fn discard(&mut self, cards: &[Card]) {
        // A few cards at a time: pushing one by one beats a call to memcpy (the tray has room for every card).
        for &card in cards {
            self.discards.push(card);
        }
    }

    /// Undealt cards.
    #[inline(always)]
    pub fn remaining(&self) -> usize {
        self.cards.len() + self.queued.len()
    }

    /// Cards in the discard tray.
    pub fn discarded(&self) -> usize {
        self.discards.len()
    }

    /// Cards that could still be dealt this round: the shoe, plus the discards it would be refilled from.
    pub fn available(&self) -> usize {
        self.remaining() + self.discards.len()
    }

    /// Undealt cards (in no meaningful order), queued cards included.
    pub fn undealt(&self) -> impl Iterator<Item = Card> + '_ {
        self.cards.iter().chain(&self.queued).copied()
    }

    /// The discard tray's cards.
    pub fn discards(&self) -> &[Card] {
        &self.discards
    }

    /// Number of decks.
    pub fn decks(&self) -> u8 {
        self.decks
    }

    /// Every card in the shoe and tray together.
    pub fn total_cards(&self) -> usize {
        usize::from(self.decks) * 52
    }

    /// The cut card sits in front of this many cards.
    pub fn cut_at(&self) -> u32 {
        self.cut_remaining
    }

    /// Undealt cards still in front of the cut card (0 once it is out).
    pub fn cards_before_cut(&self) -> usize {
        self.view().cards_before_cut()
    }

    /// True when the next round must start with a shuffle.
    pub fn needs_shuffle(&self) -> bool {
        self.cut_card_out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::rng::seed_from_number;

    #[test]
    fn a_fresh_shoe_holds_every_card_once_and_wants_a_shuffle() {
        let shoe = Shoe::new(6, 0.75);
        assert_eq!(shoe.remaining(), 312);
        let mut ids: Vec<usize> = shoe.undealt().map(|c| c.index()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 312);
        assert!(shoe.needs_shuffle());
    }

    #[test]
    fn the_cut_card_comes_out_at_the_penetration() {
        let mut rng = TableRng::from_seed(seed_from_number(3));
        let mut shoe = Shoe::new(1, 0.75);
        shoe.shuffle();
        let mut cut_at = None;
        for dealt in 1..=52 {
            let (_, cut) = shoe.draw(&mut rng).expect("52 cards");
            if cut {
                assert!(cut_at.is_none(), "the cut card comes out once");
                cut_at = Some(dealt);
            }
        }
        assert_eq!(cut_at, Some(39));
        assert!(shoe.needs_shuffle());
        assert!(shoe.draw(&mut rng).is_none());
    }

    #[test]
    fn discards_refill_a_dry_shoe() {
        let mut rng = TableRng::from_seed(seed_from_number(4));
        let mut shoe = Shoe::new(1, 0.75);
        shoe.shuffle();
        let mut dealt = Vec::new();
        while let Some((card, _)) = shoe.draw(&mut rng) {
            dealt.push(card);
        }
        shoe.discard(&dealt[..30]);
        assert_eq!(shoe.refill_from_discards(), 30);
        assert_eq!(shoe.remaining(), 30);
        assert_eq!(shoe.discarded(), 0);
    }
}
