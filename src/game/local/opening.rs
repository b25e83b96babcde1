//! The tables the pages ask for with the model's `OpenTable`, on the Title: the sitting kept from last time resumed,
//! or a kept round dealt again. Made ready for the table to open on (`table::open`), or refused in words.

use crate::game::keep::slot::Saved;
use crate::game::model::screen::Screen;
use crate::game::model::seat::{OpenRefused, OpenTable, Replayed};
use crate::game::model::session::Session;
use bevy::prelude::*;

/// On the Title, a table the player asked for (to resume the kept sitting, or to replay a kept round): made ready to
/// open, and the table entered; or why not, for the page that asked.
pub(crate) fn answer_requests(
    request: Option<Res<OpenTable>>,
    saved: Option<Res<Saved>>,
    session: Res<Session>,
    mut refused: ResMut<OpenRefused>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
) {
    // A casino's round is its driver's to show.
    let Some(request) =
        request.filter(|r| !matches!(**r, OpenTable::Replay(Replayed::Casino { .. })))
    else {
        return;
    };
    commands.remove_resource::<OpenTable>();
    let opened = match &*request {
        OpenTable::Resume => saved
            .and_then(|saved| saved.sitting.clone())
            .ok_or_else(|| "there is no sitting to resume".to_string())
            .and_then(|sitting| sitting.restore())
            .map(|restore| commands.insert_resource(restore))
            .map_err(|problem| format!("Cannot resume: {problem}")),
        OpenTable::Replay(Replayed::Casino { .. }) => return,
        OpenTable::Replay(Replayed::Own(round)) => {
            crate::game::local::replay::prepare(round, &session)
                .map(|(restore, replay, script)| {
                    commands.insert_resource(restore);
                    commands.insert_resource(replay);
                    commands.insert_resource(script);
                })
                .map_err(|problem| {
                    let round = round.first().map_or(0, |hand| hand.round);
                    format!("Cannot replay round {round}: {problem}")
                })
        }
    };
    match opened {
        Ok(()) => {
            refused.0 = None;
            next.set(Screen::Table);
        }
        Err(problem) => {
            error!("{problem}");
            refused.0 = Some(problem);
        }
    }
}
