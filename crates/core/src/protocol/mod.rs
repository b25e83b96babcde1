//! The wire: the casino's protocol, spoken by the server (`crate::server`) and by the game's online client
//! (`crate::game::online`): versioned JSON messages over a WebSocket, one message a text frame. `docs/protocol.md` has
//! every message with an example session.
//!
//! - `messages`: every message and the records it carries. A new message goes here (and in `docs/protocol.md`).
//! - `limits`: sizes, the seat's hold and the messages' pace.
//! - `words`: names and chat lines, checked as they will show.
//! - `commands`: what a player types in the chat box that is not a chat line (`/mute Pat 10m spam`, `/block Pat`).
//!
//! Bevy-free; uses the engine and the host's public news only.

mod commands;
mod limits;
mod messages;
mod words;

pub use commands::{Typed, typed};
pub use limits::*;
pub use messages::*;
pub use words::*;

/// The protocol's version; a client says which it speaks in its first message.
pub const VERSION: u32 = 2;

/// Reads a client's message, or says exactly what is wrong with it.
pub fn parse(text: &str) -> Result<ClientMessage, (Refusal, String)> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err((
            Refusal::TooLarge,
            format!(
                "the message is {} bytes; at most {MAX_MESSAGE_BYTES} are read",
                text.len()
            ),
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        (
            Refusal::BadMessage,
            format!(
                "not a message of protocol {VERSION}: {e} (line {}, column {})",
                e.line(),
                e.column()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Action, Cents};

    #[test]
    fn messages_read_and_mistakes_say_where() {
        assert_eq!(
            parse(r#"{"type":"bet","amount":2500}"#),
            Ok(ClientMessage::Bet {
                amount: Cents(2_500),
                side_bets: Vec::new(),
            })
        );
        assert_eq!(
            parse(
                r#"{"type":"bet","amount":2500,"side_bets":[{"bet":"PerfectPairs","amount":500}]}"#
            ),
            Ok(ClientMessage::Bet {
                amount: Cents(2_500),
                side_bets: vec![SideStake {
                    bet: crate::engine::side::SideBet::PerfectPairs,
                    amount: Cents(500),
                }],
            })
        );
        let (code, message) =
            parse(r#"{"type":"bet","amount":2500,"side_bets":[{"bet":"Keno","amount":5}]}"#)
                .expect_err("no such side bet");
        assert_eq!(code, Refusal::BadMessage);
        assert!(message.contains("Keno"), "{message}");
        assert_eq!(
            parse(r#"{"type":"play","action":"Hit"}"#),
            Ok(ClientMessage::Play {
                action: Action::Hit
            })
        );
        let (code, message) = parse(r#"{"type":"bet","amount":"lots"}"#).expect_err("refused");
        assert_eq!(code, Refusal::BadMessage);
        assert!(message.contains("column"), "{message}");
        let (code, _) = parse(r#"{"type":"teleport"}"#).expect_err("refused");
        assert_eq!(code, Refusal::BadMessage);
        let (code, _) = parse(r#"{"type":"lobby","extra":1}"#).expect_err("refused");
        assert_eq!(code, Refusal::BadMessage);
        let (code, _) = parse(&"x".repeat(MAX_MESSAGE_BYTES + 1)).expect_err("refused");
        assert_eq!(code, Refusal::TooLarge);
    }

    /// The names the operator's figures give a message and a refusal are the ones on the wire.
    #[test]
    fn kinds_and_reasons_are_named_as_on_the_wire() {
        let said = [
            r#"{"type":"hello","version":2,"name":"Mae"}"#,
            r#"{"type":"lobby"}"#,
            r#"{"type":"sit","table":"strip","seat":0}"#,
            r#"{"type":"watch","table":"strip"}"#,
            r#"{"type":"bet","amount":500}"#,
            r#"{"type":"play","action":"Stand"}"#,
            r#"{"type":"stand"}"#,
            r#"{"type":"reset"}"#,
            r#"{"type":"chat","text":"hi"}"#,
            r#"{"type":"moderate","action":"mute","name":"Pat","seconds":60,"reason":"spam"}"#,
            r#"{"type":"report","name":"Pat","reason":"spam"}"#,
            r#"{"type":"block","name":"Pat"}"#,
            r#"{"type":"unblock","name":"Pat"}"#,
        ];
        for text in said {
            let message = parse(text).expect("a message");
            assert!(
                text.contains(&format!(r#""type":"{}""#, message.kind())),
                "{text}"
            );
        }
        let codes = [
            Refusal::BadMessage,
            Refusal::TooLarge,
            Refusal::WrongVersion,
            Refusal::NotIntroduced,
            Refusal::BadName,
            Refusal::NoSuchTable,
            Refusal::SeatUnavailable,
            Refusal::NotSeated,
            Refusal::NotAllowed,
            Refusal::BadChat,
            Refusal::TooFast,
            Refusal::NoReset,
            Refusal::Unavailable,
            Refusal::SessionEnded,
            Refusal::TakenOver,
            Refusal::Muted,
            Refusal::Banned,
            Refusal::SentAway,
        ];
        for code in codes {
            let wire = serde_json::to_string(&code).expect("a code");
            assert_eq!(wire, format!("\"{}\"", code.name()));
        }
    }
}
