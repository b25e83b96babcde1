//! The lobby: this server's tables and, on a ledger shared with other servers, theirs, each with where it is played.

use super::{Shared, table};
use crate::protocol::Listing;
use axum::extract::State;
use axum::response::Json;
use std::sync::Arc;

pub(super) async fn lobby(State(shared): State<Arc<Shared>>) -> Json<Vec<Listing>> {
    Json(listings(&shared).await)
}

/// The lobby: this server's tables and, when it is one of several, every other server's that said lately it is up
/// (each with the path its WebSocket is reached at); by id.
pub(super) async fn listings(shared: &Shared) -> Vec<Listing> {
    let mut all: Vec<Listing> = shared
        .tables
        .values()
        .filter_map(|t| t.listing.lock().ok().map(|l| l.clone()))
        .map(|mut listing| {
            listing.ws = shared.route.clone();
            listing
        })
        .collect();
    if let Some(route) = &shared.route {
        match shared.store.lobby(route, table::PUBLISH_EVERY * 3).await {
            Ok(others) => all.extend(others),
            Err(e) => shared.store.failed("reading the shared lobby", &e),
        }
        all.sort_by(|a, b| a.id.cmp(&b.id));
    }
    all
}
