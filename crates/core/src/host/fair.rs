//! A shoe anyone can verify. A casino deals each shoe from a seed of its own, fresh from the operating system
//! ([`crate::engine::Table::deal_next_shoe_from`]); before the shoe's first card it announces the seed's SHA-256 (its
//! *commitment*), and once the shoe's last card is out it reveals the seed. Anyone who kept the news can then deal
//! the shoe again from the seed ([`crate::engine::shoe_from_seed`]) and check it against every card they saw
//! ([`ShoeWatch`]): a casino that changed a card after committing would have to find another seed with the same
//! hash.

use crate::engine::{Card, Event, Seed, shoe_from_seed};
use sha2::{Digest, Sha256};

/// What a casino announces before a shoe's first card: which shoe of the table's it is, how many decks it holds,
/// and its seed's SHA-256 in hex.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Commitment {
    /// The table's shoes since it opened, this one included.
    pub shoe: u64,
    /// Its decks.
    pub decks: u8,
    /// Its seed's SHA-256, in lowercase hex.
    pub sha256: String,
}

/// A seed's commitment: its SHA-256, in lowercase hex.
pub fn commitment(seed: &Seed) -> String {
    hex(&Sha256::digest(seed))
}

/// Bytes in lowercase hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Why a shoe does not check out, or a seed does not read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FairError {
    /// A seed is 64 hex digits.
    #[error("a shoe's seed is 64 hex digits; this is {chars} characters: {text:?}")]
    NotASeed {
        /// What was given.
        text: String,
        /// How many characters it has.
        chars: usize,
    },
    /// The seed revealed is not the one committed to.
    #[error("the revealed seed's SHA-256 is {made}, not the {said} announced before the shoe")]
    NotCommitted {
        /// The revealed seed's SHA-256.
        made: String,
        /// The commitment announced.
        said: String,
    },
    /// The seed revealed is another shoe's.
    #[error("the seed revealed is shoe {revealed}'s, but shoe {committed} was committed to")]
    OtherShoe {
        /// The shoe the reveal names.
        revealed: u64,
        /// The shoe committed to.
        committed: u64,
    },
    /// More cards were seen than the shoe holds.
    #[error("card {place} of the shoe was seen, but a shoe of {decks} decks has {cards}")]
    PastTheShoe {
        /// The card's place, from 1.
        place: usize,
        /// The shoe's decks.
        decks: u8,
        /// Its cards.
        cards: usize,
    },
    /// A card seen is not the one the seed deals there.
    #[error("card {place} of the shoe was {seen}, but the seed deals {dealt} there")]
    OtherCard {
        /// The card's place, from 1.
        place: usize,
        /// What was seen.
        seen: Card,
        /// What the seed deals.
        dealt: Card,
    },
}

/// A seed from its 64 hex digits, or what is wrong with them.
pub fn seed_from_hex(text: &str) -> Result<Seed, FairError> {
    let text = text.trim();
    let not_a_seed = || FairError::NotASeed {
        text: text.to_string(),
        chars: text.chars().count(),
    };
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(not_a_seed());
    }
    let mut seed = [0u8; 32];
    for (i, byte) in seed.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| not_a_seed())?;
    }
    Ok(seed)
}

/// The cards of one shoe as the news showed them, by their place in the shoe: each card drawn, the burned card and
/// the hole card unknown until shown (the burned one never is; the seed tells it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShoeWatch {
    /// Cards drawn before the watcher came (it joined mid-shoe): its first card is at this place.
    pub from: usize,
    /// Every card drawn since, in order: `None` for one not shown.
    pub seen: Vec<Option<Card>>,
    /// The place of the dealer's hole card in `seen`, until it is turned.
    hole: Option<usize>,
    /// The shoe ran dry and was refilled from its tray: cards after `seen` are not in the seed's order.
    pub refilled: bool,
}

/// What checking a shoe found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// Cards seen and found where the seed deals them.
    pub cards: usize,
    /// The burned card(s) and any hole card not turned: now known from the seed.
    pub unseen: usize,
}

impl ShoeWatch {
    /// A watch of a shoe from its shuffle.
    pub fn new() -> ShoeWatch {
        ShoeWatch::default()
    }

    /// A watch that starts `drawn` cards into the shoe (a table joined mid-shoe: the cards out of the shoe so far,
    /// from the table's view).
    pub fn joined(drawn: usize) -> ShoeWatch {
        ShoeWatch {
            from: drawn,
            ..ShoeWatch::default()
        }
    }

    /// Takes in one event of the table, in order. A shuffle starts the watch again.
    pub fn hear(&mut self, event: &Event) {
        // After a refill only a shuffle matters: it starts the watch again.
        if self.refilled && !matches!(event, Event::Shuffled { .. }) {
            return;
        }
        match *event {
            Event::Shuffled { .. } => *self = ShoeWatch::new(),
            Event::Burned => self.seen.push(None),
            Event::Dealt { card, .. } => self.seen.push(Some(card)),
            Event::HoleCardDealt => {
                self.hole = Some(self.seen.len());
                self.seen.push(None);
            }
            Event::HoleCardRevealed { card } => {
                if let Some(at) = self.hole.take()
                    && let Some(slot) = self.seen.get_mut(at)
                {
                    *slot = Some(card);
                }
            }
            Event::DiscardsShuffledIn { .. } => self.refilled = true,
            _ => {}
        }
    }

    /// Checks every card seen against the shoe of `decks` decks dealt from `seed`, after checking the seed against
    /// the `commitment` announced before the shoe's first card.
    pub fn check(
        &self,
        decks: u8,
        commitment_said: &str,
        seed: &Seed,
    ) -> Result<Verified, FairError> {
        let made = commitment(seed);
        if !made.eq_ignore_ascii_case(commitment_said.trim()) {
            return Err(FairError::NotCommitted {
                made,
                said: commitment_said.trim().to_string(),
            });
        }
        let order = shoe_from_seed(decks, *seed);
        let mut verified = Verified {
            cards: 0,
            unseen: 0,
        };
        for (i, seen) in self.seen.iter().enumerate() {
            let place = self.from + i;
            let Some(&dealt) = order.get(place) else {
                return Err(FairError::PastTheShoe {
                    place: place + 1,
                    decks,
                    cards: order.len(),
                });
            };
            match *seen {
                Some(card) if card != dealt => {
                    return Err(FairError::OtherCard {
                        place: place + 1,
                        seen: card,
                        dealt,
                    });
                }
                Some(_) => verified.cards += 1,
                None => verified.unseen += 1,
            }
        }
        Ok(verified)
    }
}

/// A table's shoes as someone at it follows them from its news: the commitment to the shoe in play and the cards
/// seen of it, and each shoe checked when its seed is revealed.
#[derive(Clone, Debug, Default)]
pub struct ShoeChecks {
    shoe: Option<(Commitment, ShoeWatch)>,
}

/// A shoe checked: which, and what was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The table's shoe.
    pub shoe: u64,
    /// Its cards where its seed deals them, or the first that is not (or a seed that is not the one committed to).
    pub outcome: Result<Verified, FairError>,
    /// What was announced before its first card.
    pub commitment: Commitment,
    /// The seed revealed after its last card, as revealed.
    pub seed: String,
    /// Its cards as they were seen.
    pub watch: ShoeWatch,
}

/// One place of a shoe dealt again from its seed, beside what was seen there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The card the seed deals there.
    pub dealt: Card,
    /// What was seen there.
    pub seen: Sight,
}

/// What was seen at one place of a shoe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// Dealt before the watch began (the table was joined mid-shoe).
    Before,
    /// Shown face up: this card.
    Shown(Card),
    /// Out of the shoe unseen: burned, or a face-down card never turned.
    Unseen,
    /// Never dealt: left behind the cut card.
    Left,
}

impl Checked {
    /// The shoe dealt again from the revealed seed, place by place, beside what was seen: none when the seed is not
    /// one.
    pub fn card_for_card(&self) -> Option<Vec<Place>> {
        let seed = seed_from_hex(&self.seed).ok()?;
        let order = shoe_from_seed(self.commitment.decks, seed);
        Some(
            order
                .into_iter()
                .enumerate()
                .map(|(place, dealt)| {
                    let seen = match place.checked_sub(self.watch.from) {
                        None => Sight::Before,
                        Some(i) => match self.watch.seen.get(i) {
                            Some(Some(card)) => Sight::Shown(*card),
                            Some(None) => Sight::Unseen,
                            None => Sight::Left,
                        },
                    };
                    Place { dealt, seen }
                })
                .collect(),
        )
    }

    /// What the check found, in words for the player.
    pub fn words(&self) -> String {
        match &self.outcome {
            Ok(verified) => format!(
                "Shoe {} checks out: the {} cards you saw are the ones its revealed shuffle deals.",
                self.shoe, verified.cards
            ),
            Err(why) => format!("Shoe {} does NOT check out: {why}.", self.shoe),
        }
    }
}

impl ShoeChecks {
    /// Nothing followed yet.
    pub fn new() -> ShoeChecks {
        ShoeChecks::default()
    }

    /// At a table from its `view`, with the commitment to the shoe in play if it has one: the cards out of the
    /// shoe so far were dealt before this watch began.
    pub fn joined(&mut self, commitment: Option<Commitment>, view: &crate::engine::TableView) {
        let shoe = view.shoe();
        let drawn = shoe.total_cards().saturating_sub(shoe.remaining as usize);
        self.shoe = commitment.map(|c| (c, ShoeWatch::joined(drawn)));
    }

    /// The shoe being followed: its commitment and the cards out of it since the watch began.
    pub fn following(&self) -> Option<(&Commitment, usize)> {
        self.shoe
            .as_ref()
            .map(|(commitment, watch)| (commitment, watch.seen.len()))
    }

    /// Some of the shoe's news was not heard: its cards cannot be placed, so it is not checked.
    pub fn lost(&mut self) {
        self.shoe = None;
    }

    /// Takes in one piece of news, in order: a shoe checked when its seed is revealed.
    pub fn hear(&mut self, news: &crate::host::News) -> Option<Checked> {
        use crate::host::News;
        match news {
            News::ShoeCommitted(commitment) => {
                self.shoe = Some((commitment.clone(), ShoeWatch::new()));
                None
            }
            News::Event(event) => {
                if let Some((_, watch)) = &mut self.shoe {
                    watch.hear(event);
                }
                None
            }
            News::ShoeRevealed { shoe, seed } => {
                let (commitment, watch) = self.shoe.take()?;
                let outcome = if commitment.shoe != *shoe {
                    Err(FairError::OtherShoe {
                        revealed: *shoe,
                        committed: commitment.shoe,
                    })
                } else {
                    seed_from_hex(seed)
                        .and_then(|seed| watch.check(commitment.decks, &commitment.sha256, &seed))
                };
                Some(Checked {
                    shoe: commitment.shoe,
                    outcome,
                    commitment,
                    seed: seed.clone(),
                    watch,
                })
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Command, Rules, Table, seed_from_number};

    /// A table dealing from seeds of its own, a seat playing every round through: what a watcher of its events sees
    /// checks against the shoe dealt again from each revealed seed, card for card, the burned and the hole cards
    /// included; a seed other than the one committed to, or a card changed, is caught.
    #[test]
    fn a_shoe_dealt_from_its_seed_checks_card_for_card() {
        let rules = Rules {
            burn_card: true,
            ..Rules::default()
        };
        let (decks, min_bet) = (rules.decks, rules.min_bet);
        let mut table = Table::new(
            rules.clone(),
            seed_from_number(1),
            crate::engine::Cents::units(10_000),
        )
        .expect("a table");
        table
            .apply(Command::Join {
                seat: 0,
                buy_in: crate::engine::Cents::units(100_000),
            })
            .expect("sits");
        let strategy = crate::engine::BasicStrategy::for_rules(&rules);
        let mut watch = ShoeWatch::new();
        let mut shoes = 0;
        let mut seed = seed_from_number(100);
        table.deal_next_shoe_from(seed);
        let mut committed = commitment(&seed);
        for _ in 0..400 {
            let mut events = table
                .apply(Command::Bet {
                    seat: 0,
                    amount: min_bet,
                })
                .expect("bets");
            events.extend(table.apply(Command::Deal).expect("deals"));
            while let Some(command) = strategy.decide(&table, 0) {
                events.extend(table.apply(command).expect("plays"));
            }
            for event in &events {
                watch.hear(event);
            }
            if table.shoe().needs_shuffle() {
                let verified = watch
                    .check(decks, &committed, &seed)
                    .expect("the shoe checks");
                assert!(verified.cards > 150, "{verified:?}");
                assert!(verified.unseen >= 1, "the burned card: {verified:?}");
                let other = seed_from_number(999);
                assert!(watch.check(decks, &committed, &other).is_err());
                assert!(watch.check(decks, &commitment(&other), &other).is_err());
                // The first card seen swapped for the one after it in the shoe: a different card.
                let mut changed = watch.clone();
                let first = changed
                    .seen
                    .iter()
                    .position(Option::is_some)
                    .expect("a card");
                changed.seen[first] = Some(shoe_from_seed(decks, seed)[first + 1]);
                let caught = changed.check(decks, &committed, &seed).expect_err("caught");
                assert!(
                    matches!(caught, FairError::OtherCard { place, .. } if place == first + 1),
                    "{caught}"
                );
                shoes += 1;
                seed = seed_from_number(100 + shoes);
                table.deal_next_shoe_from(seed);
                committed = commitment(&seed);
            }
        }
        assert!(shoes >= 3, "{shoes} shoes played through");
    }

    #[test]
    fn a_seed_reads_from_hex_and_says_what_is_wrong() {
        let seed = seed_from_number(5);
        assert_eq!(seed_from_hex(&hex(&seed)), Ok(seed));
        let wrong = seed_from_hex("abc").expect_err("not a seed");
        assert!(wrong.to_string().contains("64 hex digits"), "{wrong}");
        assert!(seed_from_hex(&"g".repeat(64)).is_err());
    }

    /// A shoe followed from its commitment to its reveal: checked, and dealt again place by place beside what was seen
    /// (joined two cards in: those two before the watch, the hole card unseen until turned, the rest left).
    #[test]
    fn a_checked_shoe_is_dealt_again_place_by_place_beside_what_was_seen() {
        use crate::engine::Event;
        use crate::host::News;
        let seed = seed_from_number(42);
        let order = shoe_from_seed(1, seed);
        let committed = Commitment {
            shoe: 3,
            decks: 1,
            sha256: commitment(&seed),
        };
        let mut checks = ShoeChecks::new();
        assert_eq!(checks.hear(&News::ShoeCommitted(committed.clone())), None);
        let news = [
            Event::Burned,
            Event::Dealt {
                card: order[1],
                to: crate::engine::Spot::Dealer,
            },
            Event::HoleCardDealt,
            Event::Dealt {
                card: order[3],
                to: crate::engine::Spot::Dealer,
            },
        ];
        for event in news {
            assert_eq!(checks.hear(&News::Event(event)), None);
        }
        assert_eq!(checks.following().map(|(c, n)| (c.shoe, n)), Some((3, 4)));
        let checked = checks
            .hear(&News::ShoeRevealed {
                shoe: 3,
                seed: hex(&seed),
            })
            .expect("checked at the reveal");
        assert_eq!(
            checked.outcome,
            Ok(Verified {
                cards: 2,
                unseen: 2
            })
        );
        assert!(
            checked
                .words()
                .starts_with("Shoe 3 checks out: the 2 cards")
        );
        let places = checked.card_for_card().expect("the seed reads");
        assert_eq!(places.len(), 52);
        assert!(places.iter().zip(&order).all(|(p, card)| p.dealt == *card));
        let sights: Vec<Sight> = places.iter().take(5).map(|p| p.seen).collect();
        assert_eq!(
            sights,
            [
                Sight::Unseen,
                Sight::Shown(order[1]),
                Sight::Unseen,
                Sight::Shown(order[3]),
                Sight::Left
            ]
        );
        // Joined mid-shoe: the cards before are marked so.
        let mut late = checked.clone();
        late.watch.from = 2;
        let places = late.card_for_card().expect("the seed reads");
        assert_eq!(places[1].seen, Sight::Before);
        assert_eq!(places[2].seen, Sight::Unseen);
        late.seed = "not a seed".into();
        assert_eq!(late.card_for_card(), None);
    }
}
