//! The advisor's question, from what a seat sees and nothing else: the table's rules, the cards face up on the felt,
//! and the cards of earlier rounds the seat watched go to the tray since the shuffle. Not the shoe's order, not the
//! generator, not a face-down card: two tables that differ only in those ask the same question.

use super::play::{Question, Values};
use super::{ExactRules, RANKS, Ranks, full_shoe};
use crate::engine::card::Card;
use crate::engine::checks::TableState;
use crate::engine::command::{Action, Phase, SeatId};
use crate::engine::event::Event;
use crate::engine::money::Cents;
use crate::engine::rules::HoleCard;
use crate::engine::strategy::BasicStrategy;
use crate::engine::view::{TableView, Viewer};

/// The cards a seat has watched since the shuffle, kept from the events it hears: this round's, and earlier rounds'
/// now in the tray. Cards it did not see (before it came, burned, the hole card until turned) are simply unseen.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Tray {
    earlier: Ranks,
    this_round: Ranks,
    /// The same cards with their suits, for the side bets that read them (earlier rounds' first).
    #[serde(default)]
    cards: Vec<Card>,
    /// How many of `cards` are earlier rounds'.
    #[serde(default)]
    cards_earlier: usize,
}

impl Tray {
    /// Takes in one event the seat heard.
    pub fn observe(&mut self, event: &Event) {
        let add = |counts: &mut Ranks, points: u8| {
            let rank = usize::from(points.clamp(1, 10) - 1);
            counts[rank] = counts[rank].saturating_add(1);
        };
        match *event {
            Event::Shuffled { .. } => *self = Tray::default(),
            // The tray went back into the shoe: what lay there is unseen again.
            Event::DiscardsShuffledIn { .. } => {
                self.earlier = [0; RANKS];
                self.cards.drain(..self.cards_earlier);
                self.cards_earlier = 0;
            }
            Event::Dealt { card, .. } | Event::HoleCardRevealed { card } => {
                add(&mut self.this_round, card.points());
                self.cards.push(card);
            }
            Event::TableCleared { .. } => {
                for rank in 0..RANKS {
                    self.earlier[rank] = self.earlier[rank].saturating_add(self.this_round[rank]);
                }
                self.this_round = [0; RANKS];
                self.cards_earlier = self.cards.len();
            }
            _ => {}
        }
    }

    /// Earlier rounds' cards, by points (ace first, tens together).
    pub fn earlier(&self) -> &Ranks {
        &self.earlier
    }

    /// Every card watched since the shuffle, this round's with earlier rounds' (what a counter has counted).
    pub fn seen(&self) -> Ranks {
        let mut seen = self.earlier;
        for (total, &now) in seen.iter_mut().zip(&self.this_round) {
            *total = total.saturating_add(now);
        }
        seen
    }

    /// Every card watched since the shuffle with its suit, earlier rounds' first.
    pub fn cards(&self) -> &[Card] {
        &self.cards
    }
}

/// A decision the seat faces now, and the question that values it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// The seat deciding.
    pub seat: SeatId,
    /// Its hand in turn (0 on an offer before the turns).
    pub hand: u8,
    /// The question for the engine.
    pub question: Question,
    /// The bet the values are per unit of: the hand's wager.
    pub wager: Cents,
    /// What the seat may do now.
    pub legal: Vec<Action>,
    /// The basic-strategy chart's play.
    pub chart: Option<Action>,
}

/// The decision the viewer's seat faces, if it faces one now: a hand in turn, or an offer of insurance, even money
/// or early surrender. None when the seat has nothing to decide or the felt and tray hold more of a rank than the
/// shoe (a view that cannot be).
pub fn decision(view: &TableView, tray: &Tray) -> Option<Decision> {
    let Viewer::Seat(me) = view.viewer() else {
        return None;
    };
    decision_for(view, tray, me)
}

/// The decision `me` faces, as anyone at the table sees it (every hand's cards are face up to all).
pub fn decision_for(view: &TableView, tray: &Tray, me: SeatId) -> Option<Decision> {
    let (hand_no, hand) = view.deciding_hand(me)?;
    let up = view.upcard()?;
    let unseen = unseen_by(view, tray)?;
    let rules = view.rules();
    let mut exact = ExactRules::of(rules);
    let hands_now = view.seat_hands(me).count() as u8;
    if hand.from_split {
        // This pair may become only as many more hands as the seat has left.
        exact.max_split_hands = exact.max_split_hands.saturating_sub(hands_now - 1).max(1);
    }
    let legal: Vec<Action> = view.legal_actions(me).iter().collect();
    let peek = rules.hole_card == HoleCard::Peek;
    let question = Question {
        rules: exact,
        unseen,
        hand: hand
            .cards
            .as_slice()
            .iter()
            .map(|card| card.points())
            .collect(),
        up: up.points(),
        // In the turns of a peek game the dealer has looked (with an ace or a ten up); offers come before.
        peeked: peek && matches!(view.phase(), Phase::PlayerTurn { .. }),
        split_hand: hand.from_split,
    };
    let chart = matches!(view.phase(), Phase::PlayerTurn { .. }).then(|| {
        let book = BasicStrategy::for_rules(rules);
        book.play(&hand.cards, up, |action| legal.contains(&action))
    });
    Some(Decision {
        seat: me,
        hand: hand_no,
        question,
        wager: hand.wager,
        legal,
        chart,
    })
}

/// The cards a seat has not seen: the full shoe less everything face up now and the tray it watched (none when they
/// hold more of a rank than the shoe: a view that cannot be).
pub fn unseen_by(view: &TableView, tray: &Tray) -> Option<Ranks> {
    let mut seen = *tray.earlier();
    let felt = view
        .hands()
        .iter()
        .flat_map(|hand| hand.cards.as_slice())
        .chain(view.dealer().cards.as_slice());
    for card in felt {
        let rank = usize::from(card.points() - 1);
        seen[rank] = seen[rank].saturating_add(1);
    }
    let mut unseen = full_shoe(view.rules().decks);
    for rank in 0..RANKS {
        unseen[rank] = unseen[rank].checked_sub(seen[rank])?;
    }
    Some(unseen)
}

/// What `action` cost against `book` on the cards `seat` had not seen, exactly, on the hand's wager: negative where
/// the shoe made it the better play. None where the engine cannot say (no such decision in the view).
pub fn unseen_cards_cost(
    view: &TableView,
    tray: &Tray,
    seat: SeatId,
    action: Action,
    book: Action,
) -> Option<Cents> {
    let decision = decision_for(view, tray, seat)?;
    let values = super::evaluate(&decision.question).ok()?;
    let advice = advise(&decision, &values);
    let lost = advice.priced(book)?.value - advice.priced(action)?.value;
    Some(Cents((lost * decision.wager.0 as f64).round() as i64))
}

/// What taking `amount` of insurance cost against declining it on the cards not seen: the amount times one less three
/// times the chance of a ten in the hole (negative when tens are rich enough to make it a good bet).
pub fn unseen_cards_insurance_cost(view: &TableView, tray: &Tray, amount: Cents) -> Option<Cents> {
    let unseen = unseen_by(view, tray)?;
    let left: u32 = unseen.iter().map(|&n| u32::from(n)).sum();
    if left == 0 {
        return None;
    }
    let tens = f64::from(unseen[9]) / f64::from(left);
    Some(Cents((amount.0 as f64 * (1.0 - 3.0 * tens)).round() as i64))
}

/// One legal play's value, per unit of the wager and in money.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Priced {
    /// The play.
    pub action: Action,
    /// Its value per unit of the wager.
    pub value: f64,
    /// Its value on the wager, to the cent (for showing; the table's money never passes through here).
    pub amount: Cents,
}

/// What the advisor says: each legal play's value, the best one, and whether the shoe makes it differ from the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// Each legal play, in the order the table lists them.
    pub plays: Vec<Priced>,
    /// The play worth most.
    pub best: Action,
    /// The chart's play, where it is not the best on this shoe.
    pub chart_differs: Option<Action>,
}

impl Advice {
    /// The legal play `action`, priced; None where it is not legal.
    pub fn priced(&self, action: Action) -> Option<&Priced> {
        self.plays.iter().find(|play| play.action == action)
    }
}

/// Prices the legal plays of `decision` with the engine's `values` (splits by CDP: each split hand played best for
/// what its own cards leave, as the advisor then advises it).
pub fn advise(decision: &Decision, values: &Values) -> Advice {
    let value_of = |action: Action| -> Option<f64> {
        match action {
            Action::Stand => Some(values.stand),
            Action::Hit => Some(values.hit),
            Action::Double => values.double,
            Action::Split => values.split.map(|split| split.cdp),
            Action::Surrender => values.surrender,
            // Keeping the hand: the best of playing it out (valued before the dealer looks, as the offer is).
            Action::DeclineSurrender => Some(
                [values.double, values.split.map(|split| split.cdp)]
                    .into_iter()
                    .flatten()
                    .fold(values.stand.max(values.hit), f64::max),
            ),
            // Insurance is a side bet of half the wager: its value alone, against nothing for declining it.
            Action::TakeInsurance => values.insurance,
            Action::DeclineInsurance => Some(0.0),
            // Even money is the wager won at once, against the blackjack's value if the dealer may have one too.
            Action::TakeEvenMoney => Some(1.0),
            Action::DeclineEvenMoney => Some(values.stand),
        }
    };
    let plays: Vec<Priced> = decision
        .legal
        .iter()
        .filter_map(|&action| {
            let value = value_of(action)?;
            let amount = Cents((value * decision.wager.0 as f64).round() as i64);
            Some(Priced {
                action,
                value,
                amount,
            })
        })
        .collect();
    let best = plays
        .iter()
        .fold(None::<Priced>, |best, &play| match best {
            Some(b) if b.value >= play.value => Some(b),
            _ => Some(play),
        })
        .map_or(Action::Stand, |play| play.action);
    let chart_differs = decision.chart.filter(|&chart| {
        // A tie is no difference.
        let chart_value = plays.iter().find(|p| p.action == chart).map(|p| p.value);
        let best_value = plays.iter().find(|p| p.action == best).map(|p| p.value);
        chart != best
            && chart_value
                .zip(best_value)
                .is_none_or(|(c, b)| b - c > 1e-12)
    });
    Advice {
        plays,
        best,
        chart_differs,
    }
}
