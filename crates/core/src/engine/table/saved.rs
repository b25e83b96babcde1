//! A table read back from a save: checked in full before it is accepted, since a save file is input like any other.

use super::*;

/// A table as read from a save, before it is checked.
#[derive(Deserialize)]
pub(super) struct UncheckedTable {
    rules: Rules,
    rng: TableRng,
    shoe: Shoe,
    seats: [Seat; MAX_SEATS],
    hands: ArrayVec<Hand, MAX_HANDS>,
    dealer: Cards,
    hole_revealed: bool,
    house: Cents,
    phase: Phase,
    round: u64,
    #[serde(default)]
    next_shoe: Option<Seed>,
    #[serde(default)]
    shoe_from_seed: bool,
}

impl TryFrom<UncheckedTable> for Table {
    type Error = String;

    fn try_from(saved: UncheckedTable) -> Result<Table, String> {
        let table = Table {
            rules: saved.rules,
            rng: saved.rng,
            shoe: saved.shoe,
            seats: saved.seats,
            hands: saved.hands,
            dealer: saved.dealer,
            hole_revealed: saved.hole_revealed,
            house: saved.house,
            phase: saved.phase,
            round: saved.round,
            next_shoe: saved.next_shoe,
            shoe_from_seed: saved.shoe_from_seed,
        };
        table.check_consistency()?;
        Ok(table)
    }
}

impl Table {
    /// Checks everything a damaged or hand-edited save could get wrong: the rules, that every card of the shoe is in
    /// exactly one place, that chip amounts are in range, and that hands, seats and the phase agree.
    pub fn check_consistency(&self) -> Result<(), String> {
        self.rules.validate().map_err(|e| format!("rules: {e}"))?;
        if self.shoe.decks() != self.rules.decks {
            return Err(format!(
                "the shoe holds {} decks but the rules say {}",
                self.shoe.decks(),
                self.rules.decks
            ));
        }
        let mut seen = vec![false; self.shoe.total_cards()];
        let mut count = 0;
        for card in self.all_cards() {
            count += 1;
            match seen.get_mut(card.index()) {
                Some(slot) if !*slot => *slot = true,
                Some(_) => return Err(format!("the card {card:?} is in two places")),
                None => return Err(format!("the card {card:?} is not from this shoe")),
            }
        }
        if count != seen.len() {
            return Err(format!(
                "{count} cards are on the table, not {}",
                seen.len()
            ));
        }
        let amounts = self.seats.iter().flat_map(|s| {
            [s.bankroll, s.bet, s.insurance]
                .into_iter()
                .chain(s.side.0)
                .chain(s.side_in_play.0)
        });
        let amounts = amounts
            .chain(self.hands.iter().map(|h| h.wager))
            .chain([self.house]);
        if let Some(bad) = amounts
            .clone()
            .find(|&a| a < Cents::ZERO || a > Cents::MAX_CHIPS)
        {
            return Err(format!("the amount {bad} is out of range"));
        }
        let mut previous_seat = 0;
        for hand in &self.hands {
            let seat = self
                .seats
                .get(usize::from(hand.seat))
                .ok_or("a hand belongs to no seat")?;
            let open_at_empty_seat = !seat.occupied && hand.outcome().is_none();
            if open_at_empty_seat || hand.seat < previous_seat || hand.cards.is_empty() {
                return Err(format!("a hand of seat {} is out of place", hand.seat));
            }
            previous_seat = hand.seat;
        }
        for seat in 0..MAX_SEATS as SeatId {
            if self.seat_hands(seat).count() > usize::from(self.rules.max_split_hands) {
                return Err(format!(
                    "seat {seat} holds more hands than the table allows"
                ));
            }
        }
        let deciding = self.seats.iter().any(|s| s.deciding);
        let phase_ok = match self.phase {
            Phase::Betting => !deciding,
            Phase::EarlySurrender | Phase::Insurance => deciding,
            Phase::PlayerTurn { hand } => {
                !deciding
                    && self
                        .hands
                        .get(usize::from(hand))
                        .is_some_and(|h| h.state == HandState::Playing)
            }
        };
        if !phase_ok {
            return Err(format!("the table cannot be in {} as saved", self.phase));
        }
        for (seat, s) in self.seats.iter().enumerate() {
            let staked = s.side.staked().chain(s.side_in_play.staked());
            for (bet, _) in staked {
                if !self.rules.side_bets.offers(bet) {
                    return Err(format!(
                        "seat {seat} has chips on {bet}, which this table does not offer"
                    ));
                }
            }
            let side_chips = !(s.side.is_empty() && s.side_in_play.is_empty());
            if side_chips && !s.occupied {
                return Err(format!("the empty seat {seat} has chips on a side bet"));
            }
            let in_round =
                self.phase != Phase::Betting && self.seat_hands(seat as SeatId).count() > 0;
            if !s.side_in_play.is_empty() && !in_round {
                return Err(format!(
                    "seat {seat} has a side bet in play outside a round it plays"
                ));
            }
        }
        Ok(())
    }

    /// The table as it may be written where a player can read it (a save file): everyone sees the same table, and
    /// nothing in it tells what nobody at the table has seen. The generator is left blank (give the table a fresh
    /// one with [`Table::reseed`] before dealing from it again), the undealt cards are in card order, and the
    /// face-down hole card and the burned cards are exchanged for cards picked by a generator seeded from `entropy`
    /// among the unseen ones (after the dealer's peek, only among those that do not make a blackjack). Each card to
    /// come has the odds it had; which card was face down is nowhere in the result.
    pub fn sealed(&self, entropy: Seed) -> Table {
        let mut table = self.clone();
        let mut rng = TableRng::from_seed(entropy);
        // Every card nobody has seen goes into one pool; the hole card and then the burned cards are drawn from it
        // again (the hole card first: its odds are the ones the peek narrowed).
        let burned = table.shoe.unseal_unseen();
        let hole_down = !table.hole_revealed && !table.rules.no_hole_card();
        if let (true, &[upcard, hole]) = (hole_down, table.dealer.as_slice()) {
            // The dealer has looked under an ace or a ten-card: the hole card is known not to make a blackjack.
            let peeked = matches!(table.phase, Phase::PlayerTurn { .. })
                && play::upcard_may_hide_blackjack(upcard);
            table.shoe.put_back(hole);
            let allowed = |card| {
                let mut two = Cards::default();
                two.push(upcard);
                two.push(card);
                !(peeked && two.is_two_card_21())
            };
            // The real hole card is allowed, so a card comes out (else, in a table that contradicts its own peek,
            // the real one goes back).
            let new = match table.shoe.pick(&mut rng, allowed) {
                Some(card) => card,
                None => table
                    .shoe
                    .pick(&mut rng, |card| card == hole)
                    .unwrap_or(hole),
            };
            table.dealer.clear();
            table.dealer.push(upcard);
            table.dealer.push(new);
        }
        for _ in 0..burned {
            if let Some(card) = table.shoe.pick(&mut rng, |_| true) {
                table.shoe.burn(card);
            }
        }
        table.rng = TableRng::from_seed([0; 32]);
        // A seed waiting for the next shoe is that shoe's whole order: not for a save.
        table.next_shoe = None;
        table.shoe_from_seed = false;
        table
    }

    /// Gives the table a fresh generator: the order the undealt cards come out in follows from `seed` from now on.
    pub fn reseed(&mut self, seed: Seed) {
        self.rng = TableRng::from_seed(seed);
    }
}
