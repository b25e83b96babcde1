//! A kept round dealt again: the seat's hands and the dealer's from the history, as the engine plays them. The round's
//! cards come out of the shoe in the order they came then (the history keeps them: [`PlayedHand::deal`]) and the
//! seat's decisions are given again as commands, so every event — each card, the hole card turned, each payout —
//! happens again as it did, at whatever pace the table is shown. Bevy-free; the game shows it on the felt.

use crate::engine::{
    Action, Card, Cents, Command, Rank, Rules, SeatId, Suit, Table, seed_from_number,
};
use crate::host::history::PlayedHand;
use crate::host::record::Recorder;

/// A round ready to be dealt again.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The table with the seat sitting, its bet not yet down and the round's cards next in the shoe.
    pub table: Table,
    /// The seat.
    pub seat: SeatId,
    /// The commands that play the round again, in order: the side bets, the bet, the deal, each decision.
    pub commands: Vec<Command>,
}

/// The round `hands` (one seat's hands of one round, as kept) at a table with `rules` whose house holds `house`, ready to be dealt again; it is
/// played through once here to check it comes out as it was kept. An error says why it cannot be.
pub fn replay(rules: &Rules, house: Cents, hands: &[PlayedHand]) -> Result<Replay, String> {
    let first = hands.first().ok_or("there is no hand to replay")?;
    let seat = first.seat;
    if first.deal.is_empty() {
        return Err(
            "this hand was kept before hands recorded their deal, so it cannot be replayed".into(),
        );
    }
    // The same table, without the burned card (it was never seen) and with a shoe big enough for any round.
    let rules = Rules {
        burn_card: false,
        ..rules.clone()
    };
    let doubled = |hand: &PlayedHand| hand.decisions.iter().any(|d| d.action == Action::Double);
    let bet = Cents(first.wager.0 / if doubled(first) { 2 } else { 1 });
    let staked: Cents = hands.iter().map(|h| h.wager).sum();
    let before = first.bankroll - hands.iter().map(PlayedHand::total_net).sum::<Cents>();
    // The side bets as they were made, where this table still offers them.
    let side_bets: Vec<Command> = first
        .side_bets
        .iter()
        .filter(|side| rules.side_bets.offers(side.bet))
        .map(|side| Command::SideBet {
            seat,
            bet: side.bet,
            amount: side.stake,
        })
        .collect();
    let side_staked: Cents = first.side_bets.iter().map(|side| side.stake).sum();
    let buy_in = before.max(staked + bet + side_staked).max(rules.min_bet);
    let insurance = match first.insurance {
        won if won.is_positive() => Cents(won.0 / 2),
        lost if lost < Cents::ZERO => Cents(-lost.0),
        _ => Cents(bet.0 / 2),
    };
    // The hole card if it was never turned: one that cannot make a blackjack (the round went on as if it did not).
    let cards: Vec<Card> = first
        .deal
        .iter()
        .map(|card| card.unwrap_or(Card::new(0, Suit::Clubs, Rank::Two)))
        .collect();
    let mut table = Table::new(rules, seed_from_number(0), house).map_err(|e| e.to_string())?;
    table
        .apply(Command::Join { seat, buy_in })
        .map_err(|e| format!("sitting down again: {e}"))?;
    table
        .queue_exact_cards(&cards)
        .map_err(|e| format!("stacking the shoe: {e}"))?;
    let mut commands = side_bets;
    commands.extend([Command::Bet { seat, amount: bet }, Command::Deal]);
    for hand in hands {
        for decision in &hand.decisions {
            commands.push(decision.action.command(seat, insurance));
        }
    }
    let replay = Replay {
        table,
        seat,
        commands,
    };
    replay.check(hands)?;
    Ok(replay)
}

impl Replay {
    /// Plays the round through on a copy and compares it with the hands as kept: the same cards, decisions, outcomes,
    /// wagers and nets.
    fn check(&self, hands: &[PlayedHand]) -> Result<(), String> {
        let mut table = self.table.clone();
        let mut recorder = Recorder::new();
        let mut round = None;
        for (i, &command) in self.commands.iter().enumerate() {
            let events = table.apply(command).map_err(|e| {
                format!(
                    "the replay's command {} ({command:?}) was refused: {e}",
                    i + 1
                )
            })?;
            for event in &events {
                round = round.or(recorder.hear(event));
            }
        }
        let round = round.ok_or("the replay did not finish the round")?;
        let again = round
            .seat(self.seat)
            .ok_or("the replay dealt the seat no hand")?;
        let same = again.hands.len() == hands.len()
            && again.hands.iter().zip(hands).all(|(a, kept)| {
                let faces = |cards: &[Card]| -> Vec<(Rank, Suit)> {
                    cards.iter().map(|c| (c.rank(), c.suit())).collect()
                };
                faces(&a.cards) == faces(&kept.cards)
                    && a.outcome == Some(kept.outcome)
                    && a.wager == kept.wager
                    && a.net == kept.net
                    && a.decisions
                        .iter()
                        .map(|d| d.action)
                        .eq(kept.decisions.iter().map(|d| d.action))
            })
            && again
                .side_bets
                .iter()
                .all(|side| hands[0].side_bets.contains(side));
        if same {
            Ok(())
        } else {
            Err(format!(
                "the replay did not come out as the round was kept (round {})",
                hands[0].round
            ))
        }
    }
}

/// Where each kept round lies among `hands`, newest first: the rows one seat played in it (rows of one round share its
/// time, number and seat).
pub fn round_spans(
    hands: &std::collections::VecDeque<PlayedHand>,
) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let same = |a: &PlayedHand, b: &PlayedHand| {
        a.round == b.round && a.seat == b.seat && a.at_ms == b.at_ms && a.table == b.table
    };
    let mut end = hands.len();
    std::iter::from_fn(move || {
        let last = hands.get(end.checked_sub(1)?)?;
        let mut start = end - 1;
        while start > 0 && same(&hands[start - 1], last) {
            start -= 1;
        }
        let span = start..end;
        end = start;
        Some(span)
    })
}

/// The kept rounds, newest first (see [`round_spans`]), each copied out as it is reached: a page that shows the
/// newest hundred copies only those.
pub fn rounds(
    hands: &std::collections::VecDeque<PlayedHand>,
) -> impl Iterator<Item = Vec<PlayedHand>> + '_ {
    round_spans(hands).map(|span| hands.range(span).cloned().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::TableState;

    #[test]
    fn every_kept_round_deals_again_as_it_was() {
        // 2,000 rounds at the Strip with the hunch player's deviations: splits, doubles, insurance, surrenders.
        let (history, _) =
            crate::host::history::sample::played(2_000, crate::host::history::NATIVE_LIMIT);
        let rules = crate::host::history::sample::side_bet_rules();
        let rounds: Vec<_> = rounds(&history.hands).collect();
        assert_eq!(rounds.len(), 2_000);
        let mut kinds = (0, 0, 0);
        for round in &rounds {
            let replay = replay(&rules, Cents::units(10_000), round)
                .unwrap_or_else(|e| panic!("{e}: {round:?}"));
            kinds.0 += usize::from(round.len() > 1);
            kinds.1 += usize::from(
                round
                    .iter()
                    .any(|h| h.decisions.iter().any(|d| d.action == Action::Double)),
            );
            kinds.2 += usize::from(round[0].insurance != Cents::ZERO);
            let side_bets = round[0].side_bets.len();
            assert!(side_bets >= 1, "21+3 every round");
            assert_eq!(replay.commands[side_bets + 1], Command::Deal);
            assert!(replay.table.seats()[usize::from(replay.seat)].occupied);
        }
        assert!(
            kinds.0 > 0 && kinds.1 > 0 && kinds.2 > 0,
            "splits, doubles, insurance: {kinds:?}"
        );
    }

    #[test]
    fn a_round_that_does_not_add_up_is_refused_in_words() {
        let (history, _) =
            crate::host::history::sample::played(20, crate::host::history::NATIVE_LIMIT);
        let rules = crate::host::history::sample::side_bet_rules();
        let mut round = rounds(&history.hands).next().expect("a round");
        round[0].net += Cents::units(1);
        let error = replay(&rules, Cents::units(10_000), &round).expect_err("a changed net");
        assert!(
            error.contains("did not come out as the round was kept"),
            "{error}"
        );
        round[0].deal.clear();
        let error = replay(&rules, Cents::units(10_000), &round).expect_err("no deal");
        assert!(error.contains("cannot be replayed"), "{error}");
        assert!(replay(&rules, Cents::units(10_000), &[]).is_err());
    }
}
