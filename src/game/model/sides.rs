//! The side bets' exact values: on a full shoe for the Tables page (each one's house edge for its pay table), and,
//! with the advisor on, while the player bets, on the cards the seat has not seen (`engine::exact::side`), counted
//! by rank and suit from what the seat watched since the shuffle ([`Seen`]) — never from a table's host. Each is a
//! fraction of a millisecond natively and a few in the browser (docs/engineering.md, "Side bets"), so they are
//! worked out in the frame, once for each shoe the seat has seen.

use crate::engine::exact::side::{Suited, price};
use crate::engine::side::SideBet;
use crate::engine::{Phase, Rules, TableState};
use crate::game::model::screen::{RoundPhase, RoundSet, Screen};
use crate::game::model::seen::Seen;
use crate::game::model::settings::PlayOptions;
use crate::game::model::table::SeatView;
use bevy::prelude::*;

/// Each side bet's value per unit staked on the cards the seat has not seen (positive favours the player), while
/// the seat bets with the advisor on (or luck and skill worked out); empty otherwise.
#[derive(Resource, Default, Debug)]
pub struct SideValues {
    /// The shoe and the table they were worked out for.
    shoe: Option<(Suited, Rules)>,
    values: Vec<(SideBet, f64)>,
}

impl SideValues {
    /// The value of `bet` on the seat's shoe, if worked out.
    pub fn of(&self, bet: SideBet) -> Option<f64> {
        self.values.iter().find(|(b, _)| *b == bet).map(|&(_, v)| v)
    }
}

/// Each side bet's value per unit staked on a full shoe (its house edge is the negative), remembered by what sets it:
/// the decks, the dealer's soft 17 (Buster) and the pay tables.
#[derive(Resource, Default, Debug)]
pub struct SideEdges(Vec<(SideKey, Option<f64>)>);

type SideKey = (
    u8,
    crate::engine::Soft17,
    crate::engine::side::SideBets,
    SideBet,
);

impl SideEdges {
    /// The value of `bet` per unit staked on a full shoe of `rules`, if the table offers it.
    pub fn value(&mut self, rules: &Rules, bet: SideBet) -> Option<f64> {
        let key = (rules.decks, rules.soft_17, rules.side_bets, bet);
        if let Some((_, value)) = self.0.iter().find(|(k, _)| *k == key) {
            return *value;
        }
        let value = price(bet, rules, &Suited::full(rules.decks)).map(|p| p.value());
        self.0.push((key, value));
        value
    }
}

/// Works the values out again when the seat's shoe or its table changed, between rounds, with the advisor on.
fn price_side_bets(
    options: Res<PlayOptions>,
    (view, phase): (Option<Res<SeatView>>, Option<Res<State<RoundPhase>>>),
    seen: Res<Seen>,
    mut values: ResMut<SideValues>,
) {
    let view = view.filter(|view| {
        (options.advisor || options.luck)
            // Between rounds as the table shows them (the view's phase is still Betting while the first cards go
            // out).
            && phase.as_ref().is_some_and(|p| *p.get() == RoundPhase::Betting)
            && view.0.phase() == Phase::Betting
            && !view.0.rules().side_bets.offered().is_empty()
    });
    let Some(view) = view else {
        if values.shoe.is_some() {
            *values = SideValues::default();
        }
        return;
    };
    let rules = view.0.rules();
    // With the cut card out the next deal shuffles first: a full shoe. A view the seat cannot make sense of (more
    // of a card seen than the shoe holds) gets no values.
    let seen = if view.0.shoe().cut_card_out {
        &[][..]
    } else {
        seen.tray().cards()
    };
    let Ok(shoe) = Suited::unseen(rules.decks, seen) else {
        *values = SideValues::default();
        return;
    };
    if values
        .shoe
        .as_ref()
        .is_some_and(|(s, r)| *s == shoe && r == rules)
    {
        return;
    }
    let worked = rules
        .side_bets
        .offered()
        .into_iter()
        .filter_map(|bet| price(bet, rules, &shoe).map(|p| (bet, p.value())))
        .collect();
    *values = SideValues {
        shoe: Some((shoe, rules.clone())),
        values: worked,
    };
}

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<SideValues>()
        .init_resource::<SideEdges>()
        .add_systems(OnEnter(Screen::Table), |mut values: ResMut<SideValues>| {
            *values = SideValues::default();
        })
        .add_systems(
            Update,
            price_side_bets
                .after(RoundSet::Present)
                .run_if(in_state(Screen::Table)),
        );
}
