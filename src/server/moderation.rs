//! Moderation as the server does it, from a moderator's connection or the HTTP API alike: the ledger imposes the
//! action (checking the moderator's role in the statement that does it, and logging it), then this server's tables
//! tell the player and remove them as the action asks. Every other server on the ledger hears the action from it
//! (PostgreSQL's NOTIFY, sent as the action is kept) and carries it out at its own tables, a guest's ban included; a
//! banned account's sessions end everywhere the same way.

use super::ledger::{self, LedgerError, Order};
use super::table::{Removal, ToTable};
use super::{Refusal, ServerMessage, Shared};
use crate::protocol::ModAction;

/// The account `by` imposes `order`: what was done, in words for the moderator, or why not.
pub(super) async fn act(shared: &Shared, by: &str, order: &Order) -> Result<String, LedgerError> {
    let name = order.name.trim();
    if name.is_empty() {
        return Err(LedgerError::Invalid("name the player".to_string()));
    }
    // A kick names a table of this server's, or of another's on the same ledger (its lobby lists it).
    if order.action == ModAction::Kick
        && let Some(table) = &order.table
        && !shared.tables.contains_key(table)
    {
        let elsewhere = shared.store.shared_by_servers()
            && shared
                .store
                .lobby("", super::table::PUBLISH_EVERY * 3)
                .await?
                .iter()
                .any(|listing| listing.id == *table);
        if !elsewhere {
            return Err(LedgerError::Invalid(format!(
                "there is no table {table:?} here"
            )));
        }
    }
    let imposed = shared.store.impose(by, order).await?;
    shared.metrics.moderated(order.action);
    let table = order
        .table
        .as_deref()
        .filter(|_| order.action == ModAction::Kick);
    carry_out(shared, name, order.action, table, &imposed).await;
    // An account's sessions ended with the ban in the ledger (every other server hears it so): its connections here
    // close now.
    if order.action == ModAction::Ban {
        let said = ServerMessage::Refused {
            code: Refusal::Banned,
            message: imposed.told_the_banned(),
        };
        for key in &imposed.accounts {
            shared.end_account_saying(key, Some(said.clone())).await;
        }
    }
    let time = imposed.time_left();
    let done = match order.action {
        ModAction::Mute => format!("{name} is muted {time}."),
        ModAction::Timeout => format!("{name} is timed out {time}."),
        ModAction::Kick => format!("{name} is kept from this table {time}."),
        ModAction::Ban => format!(
            "{name} is banned {time}{}.",
            match (order.address, imposed.address) {
                (true, true) => " (their address too)",
                (true, false) => " (no address of theirs is known: the name only)",
                _ => "",
            }
        ),
        ModAction::Pardon => format!("{name} is pardoned."),
    };
    Ok(done)
}

/// A moderator's action another server on the ledger imposed, carried out at this server's tables.
pub(super) async fn heard(shared: &Shared, heard: &ledger::Moderated) {
    let imposed = heard.imposed();
    carry_out(
        shared,
        &heard.name,
        heard.action,
        heard.table.as_deref(),
        &imposed,
    )
    .await;
}

/// What `action` on `name` does at this server's tables (at `table` alone for a kick): the player told and sent
/// away or closed as the action asks, the others told; a banned guest's session here ended and its name given back.
async fn carry_out(
    shared: &Shared,
    name: &str,
    action: ModAction,
    table: Option<&str>,
    imposed: &ledger::Imposed,
) {
    let time = imposed.time_left();
    let because = imposed.because();
    let (tell, removal, others): (String, Removal, Option<String>) = match action {
        ModAction::Mute => (
            format!("A moderator has muted you {time}{because}."),
            Removal::Stay,
            None,
        ),
        ModAction::Timeout => (
            format!("A moderator has timed you out of the tables {time}{because}."),
            Removal::Away,
            Some(format!("A moderator has sent {name} away from the tables.")),
        ),
        ModAction::Kick => (
            format!("A moderator has removed you from this table {time}{because}."),
            Removal::Away,
            Some(format!("A moderator has removed {name} from the table.")),
        ),
        ModAction::Ban => {
            let why = imposed.told_the_banned();
            (
                why.clone(),
                Removal::Close(ServerMessage::Refused {
                    code: Refusal::Banned,
                    message: why,
                }),
                Some(format!("A moderator has banned {name}.")),
            )
        }
        ModAction::Pardon => (
            format!("A moderator has lifted what was imposed on you{because}."),
            Removal::Stay,
            None,
        ),
    };
    let look = ledger::look_of(name);
    let tables: Vec<_> = match (action, table) {
        (ModAction::Kick, Some(table)) => shared.tables.get(table).into_iter().collect(),
        _ => shared.tables.values().collect(),
    };
    for table in tables {
        let told = ToTable::Moderated {
            look: look.clone(),
            tell: tell.clone(),
            removal: removal.clone(),
            others: others.clone(),
        };
        let _ = table.tx.send(told).await;
    }
    if let Removal::Close(said) = &removal {
        // A guest's session ends here (a hello with its token is not welcomed back) and its name is free again.
        // Their connections here close now, at a table or not.
        let ended: Vec<(String, String)> = match shared.sessions.lock() {
            Ok(mut sessions) => {
                let theirs: Vec<String> = sessions
                    .iter()
                    .filter(|(_, session)| ledger::look_of(&session.name) == look)
                    .map(|(token, _)| token.clone())
                    .collect();
                theirs
                    .into_iter()
                    .filter_map(|token| sessions.remove(&token).map(|s| (s.name, token)))
                    .collect()
            }
            Err(_) => Vec::new(),
        };
        for (name, token) in ended {
            if let Err(e) = shared.store.release_guest_name(&name, &token).await {
                shared.store.failed("giving a banned guest's name back", &e);
            }
        }
        shared.end_guest_saying(&look, said.clone()).await;
    }
}
