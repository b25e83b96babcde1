//! `holecard-lab verify`: watches a casino's table as a guest, follows its shoes from the news as the game does
//! (`host::fair::ShoeChecks`) and checks each one against its seed when it is revealed: the commitment before the
//! first card, every card seen where the revealed seed deals it.

use crate::host::fair::{Checked, ShoeChecks};
use crate::server::protocol::ServerMessage;
use futures_util::{SinkExt, StreamExt};
use std::time::Duration;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;

/// Watches `table` at the casino whose WebSocket is `url` until `shoes` shoes have been revealed and checked, or
/// `timeout` passes: the shoes checked, in order. A shoe already under way when the watch begins is checked from the
/// cards dealt after it.
pub async fn watch_shoes(
    url: &str,
    table: &str,
    shoes: usize,
    timeout: Duration,
) -> Result<Vec<Checked>, String> {
    let until = Instant::now() + timeout;
    let (mut socket, _) = tokio::time::timeout_at(until, tokio_tungstenite::connect_async(url))
        .await
        .map_err(|_| format!("no answer from {url} within {} s", timeout.as_secs()))?
        .map_err(|e| format!("connecting to {url}: {e}"))?;
    let token = crate::server::new_token().map_err(|e| e.to_string())?;
    let name = format!("Checker {}", &token[..4]);
    let said = [
        serde_json::json!({"type": "hello", "version": crate::protocol::VERSION, "name": name}),
        serde_json::json!({"type": "watch", "table": table}),
    ];
    for message in said {
        socket
            .send(Message::text(message.to_string()))
            .await
            .map_err(|e| format!("sending to {url}: {e}"))?;
    }
    let mut checks = ShoeChecks::new();
    let mut checked = Vec::new();
    while checked.len() < shoes {
        let next = tokio::time::timeout_at(until, socket.next())
            .await
            .map_err(|_| {
                format!(
                    "{} of {shoes} shoes revealed at {table} within {} s",
                    checked.len(),
                    timeout.as_secs()
                )
            })?;
        let text = match next {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(format!("the connection to {url} broke: {e}")),
            None => return Err(format!("{url} closed the connection")),
        };
        let message: ServerMessage = serde_json::from_str(text.as_str())
            .map_err(|e| format!("a message from {url} does not read: {e}: {text}"))?;
        match message {
            ServerMessage::Joined { shoe, view, .. } => checks.joined(shoe, &view),
            ServerMessage::News { news, .. } => checked.extend(checks.hear(&news)),
            ServerMessage::Refused { code, message } => {
                return Err(format!("{url} refused ({code:?}): {message}"));
            }
            _ => {}
        }
    }
    let _ = socket.close(None).await;
    Ok(checked)
}
