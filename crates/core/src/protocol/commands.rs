//! What a player types in the chat box: a chat line, or a command that starts with `/` — a moderator's
//! (`/mute Pat 10m spam`), a report (`/report Pat spam`), a block (`/block Pat`), or `/help`. A name with spaces goes
//! in quotes (`/block "Mae West"`); a time is a number and a unit (`30s`, `10m`, `2h`, `7d`) or `forever`.

use super::messages::{ClientMessage, ModAction};

/// What a typed line comes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// A message to send (a chat line, or a command's message).
    Send(ClientMessage),
    /// Words to show the player only: the commands' help, or what was wrong with the command.
    Show(String),
}

/// The commands, as `/help` shows them.
pub const HELP: &str = "Commands: /report NAME why · /block NAME · /unblock NAME. Moderators: /mute, /timeout, \
/kick, /ban NAME [time] [why] (a time is 30s, 10m, 2h, 7d or forever), /banip (the address too), /pardon NAME. A name \
with spaces goes in quotes.";

/// Reads what a player typed: a chat line as it is, a command as its message, or what to show them instead.
pub fn typed(text: &str) -> Typed {
    let text = text.trim();
    let Some(command) = text.strip_prefix('/') else {
        return Typed::Send(ClientMessage::Chat {
            text: text.to_string(),
        });
    };
    let (word, rest) = command
        .split_once(char::is_whitespace)
        .unwrap_or((command, ""));
    let action = match word.to_lowercase().as_str() {
        "help" | "?" => return Typed::Show(HELP.to_string()),
        "mute" => Some((ModAction::Mute, false)),
        "timeout" => Some((ModAction::Timeout, false)),
        "kick" => Some((ModAction::Kick, false)),
        "ban" => Some((ModAction::Ban, false)),
        "banip" => Some((ModAction::Ban, true)),
        "pardon" | "unmute" | "unban" => Some((ModAction::Pardon, false)),
        "report" | "block" | "unblock" => None,
        other => {
            return Typed::Show(format!("There is no command /{other}. {HELP}"));
        }
    };
    let Some((name, rest)) = name_in(rest) else {
        return Typed::Show(format!("/{word} needs a name: /{word} NAME"));
    };
    let reason = |rest: &str| rest.trim().to_string();
    Typed::Send(match action {
        Some((action, address)) => {
            let (seconds, rest) = match action {
                ModAction::Pardon => (None, rest),
                _ => match time_in(rest) {
                    // Only a ban is for good; a mute, a timeout or a kick "forever" is for the longest time there is.
                    Ok(Some((None, rest))) if action != ModAction::Ban => (Some(u64::MAX), rest),
                    Ok(Some((seconds, rest))) => (seconds, rest),
                    Ok(None) => (action.usual_seconds(), rest),
                    Err(why) => return Typed::Show(why),
                },
            };
            ClientMessage::Moderate {
                action,
                name,
                seconds,
                reason: reason(rest),
                address,
                table: None,
            }
        }
        None => match word.to_lowercase().as_str() {
            "report" => ClientMessage::Report {
                name,
                reason: reason(rest),
            },
            "block" => ClientMessage::Block { name },
            _ => ClientMessage::Unblock { name },
        },
    })
}

/// The name at the start of `text` (in quotes when it has spaces), and what follows it.
fn name_in(text: &str) -> Option<(String, &str)> {
    let text = text.trim_start();
    let (name, rest) = match text.strip_prefix('"') {
        Some(quoted) => quoted.split_once('"')?,
        None => text.split_once(char::is_whitespace).unwrap_or((text, "")),
    };
    let name = name.trim();
    (!name.is_empty()).then(|| (name.to_string(), rest))
}

/// A time at the start of `text` (`30s`, `10m`, `2h`, `7d`, `forever`: seconds, none for good) and what follows,
/// nothing when the first word is not one, or why a time does not read.
fn time_in(text: &str) -> Result<Option<(Option<u64>, &str)>, String> {
    let text = text.trim_start();
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    if word.eq_ignore_ascii_case("forever") {
        return Ok(Some((None, rest)));
    }
    let Some(unit) = word.chars().last().filter(|_| word.len() > 1) else {
        return Ok(None);
    };
    let Ok(number) = word[..word.len() - unit.len_utf8()].parse::<u64>() else {
        return Ok(None);
    };
    let seconds = match unit.to_ascii_lowercase() {
        's' => 1,
        'm' => 60,
        'h' => 3_600,
        'd' => 86_400,
        _ => return Ok(None),
    };
    match number.checked_mul(seconds) {
        Some(0) | None => Err(format!(
            "{word}: a time is at least 1s and at most a few years, or forever"
        )),
        Some(seconds) => Ok(Some((Some(seconds), rest))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moderate(action: ModAction, name: &str, seconds: Option<u64>, reason: &str) -> Typed {
        Typed::Send(ClientMessage::Moderate {
            action,
            name: name.to_string(),
            seconds,
            reason: reason.to_string(),
            address: false,
            table: None,
        })
    }

    #[test]
    fn a_line_is_chat_and_a_command_its_message() {
        assert_eq!(
            typed("  good luck all "),
            Typed::Send(ClientMessage::Chat {
                text: "good luck all".to_string()
            })
        );
        assert_eq!(
            typed("/mute Pat 10m spamming the table"),
            moderate(ModAction::Mute, "Pat", Some(600), "spamming the table")
        );
        assert_eq!(
            typed("/MUTE Pat"),
            moderate(ModAction::Mute, "Pat", Some(600), "")
        );
        assert_eq!(
            typed(r#"/timeout "Mae West" 2h rude"#),
            moderate(ModAction::Timeout, "Mae West", Some(7_200), "rude")
        );
        assert_eq!(
            typed("/ban Pat forever cheating"),
            moderate(ModAction::Ban, "Pat", None, "cheating")
        );
        assert_eq!(
            typed("/ban Pat 7d"),
            moderate(ModAction::Ban, "Pat", Some(604_800), "")
        );
        // A reason that starts with a word is not a time.
        assert_eq!(
            typed("/kick Pat rude words"),
            moderate(ModAction::Kick, "Pat", Some(600), "rude words")
        );
        assert_eq!(
            typed("/pardon Pat 10m was a mistake"),
            moderate(ModAction::Pardon, "Pat", None, "10m was a mistake")
        );
        let Typed::Send(ClientMessage::Moderate { address, .. }) = typed("/banip Pat 1d") else {
            panic!("a ban");
        };
        assert!(address);
        assert_eq!(
            typed("/report Pat said rude things"),
            Typed::Send(ClientMessage::Report {
                name: "Pat".to_string(),
                reason: "said rude things".to_string()
            })
        );
        assert_eq!(
            typed(r#"/block "Mae West""#),
            Typed::Send(ClientMessage::Block {
                name: "Mae West".to_string()
            })
        );
        assert_eq!(
            typed("/unblock Pat"),
            Typed::Send(ClientMessage::Unblock {
                name: "Pat".to_string()
            })
        );
    }

    #[test]
    fn a_command_that_does_not_read_says_why_and_sends_nothing() {
        assert_eq!(typed("/help"), Typed::Show(HELP.to_string()));
        let Typed::Show(said) = typed("/shout hello") else {
            panic!("not sent");
        };
        assert!(said.starts_with("There is no command /shout."), "{said}");
        assert_eq!(
            typed("/mute"),
            Typed::Show("/mute needs a name: /mute NAME".to_string())
        );
        assert_eq!(
            typed(r#"/block "Mae West"#),
            Typed::Show("/block needs a name: /block NAME".to_string())
        );
        let Typed::Show(said) = typed("/mute Pat 0m") else {
            panic!("not sent");
        };
        assert!(said.starts_with("0m: a time is at least 1s"), "{said}");
        let Typed::Show(said) = typed("/ban Pat 99999999999999999d") else {
            panic!("not sent");
        };
        assert!(said.contains("a time is"), "{said}");
    }
}
