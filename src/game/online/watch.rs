//! A round a casino kept, watched again on the felt as its table showed it (`/hand/TABLE/ROUND`, or the player's
//! hands there): the table opens on what a spectator saw before the round, and the round's news go to the felt at
//! the table's pace, each card as it was dealt and the dealer's face-down card when it was turned. Nothing of it goes
//! over the connection (there may be none: a link needs no account), and no seat can be taken at it.

use super::*;
use crate::game::model::seat::{OpenTable, Replay, Replayed};

/// The kept round's news, waiting for the table to open on its view.
#[derive(Resource, Debug, Default)]
pub(super) struct KeptNews(Vec<crate::host::News>);

/// A round the casino sent back is asked to open (on the Title, where tables open; once the game has loaded).
pub(super) fn open_when_answered(
    mut online: ResMut<Online>,
    screen: Res<State<Screen>>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) {
    let Some(round) = online.kept_round.take() else {
        return;
    };
    commands.insert_resource(OpenTable::Replay(round));
    if *screen.get() != Screen::Title {
        next.set(Screen::Title);
    }
}

/// On the Title, a casino's round asked for: the table opens on it as a spectator saw it, the news to follow.
pub(super) fn open_kept_round(
    request: Option<Res<OpenTable>>,
    mut casino: ResMut<Casino>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) {
    let Some(OpenTable::Replay(round @ Replayed::Casino { kept, .. })) = request.as_deref() else {
        return;
    };
    commands.remove_resource::<OpenTable>();
    let level = match level_for(&kept.table, Some(&kept.name), &kept.view) {
        Ok(level) => level,
        Err(e) => {
            casino.say(format!("Cannot watch round {} again: {e}", kept.round));
            return;
        }
    };
    info!(target: "holecard::online", "watching round {} of {} again", kept.round, kept.table);
    commands.insert_resource(Arrival {
        table: kept.table.clone(),
        level,
        seat: None,
        view: (*kept.view).clone(),
        names: kept.names.clone(),
    });
    commands.insert_resource(KeptNews(
        kept.news.iter().map(|(_, news)| news.clone()).collect(),
    ));
    commands.insert_resource(Replay {
        round: round.clone(),
        dealt: false,
    });
    next.set(Screen::Table);
}

/// Once the table is open on the round's view, its news go to the felt, shown one beat at a time.
pub(super) fn show_kept_news(
    news: Option<ResMut<KeptNews>>,
    replay: Option<ResMut<Replay>>,
    mut beats: ResMut<Beats>,
    mut commands: Commands,
) {
    let (Some(mut news), Some(mut replay)) = (news, replay) else {
        return;
    };
    beats.show(std::mem::take(&mut news.0));
    replay.dealt = true;
    commands.remove_resource::<KeptNews>();
}
