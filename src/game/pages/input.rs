//! The keyboard: the same intents as the buttons, each button showing its key.

use super::*;

/// Keys send the same intents as the buttons; each button shows its key.
pub(super) fn keys(
    input: Res<ButtonInput<KeyCode>>,
    seen: Option<Res<SeatView>>,
    session: Res<Session>,
    slip: Res<BetSlip>,
    mut log: ResMut<RoundLog>,
    mut intents: MessageWriter<Intent>,
    (mut options, mut choices): (ResMut<PlayOptions>, MessageWriter<coach::Choice>),
) {
    let Some(seen) = seen else {
        return;
    };
    let table = &seen.0;
    for (key, _, help, _) in HELP_KEYS {
        if input.just_pressed(key) {
            let on = match help {
                Help::Log => &mut log.open,
                Help::Advisor => &mut options.advisor,
                Help::Count => &mut options.show_count,
                Help::Coach => &mut options.coach,
            };
            *on = !*on;
        }
    }
    if table.phase() == Phase::Betting && !slip.in_play {
        let chips = denominations(table.rules());
        for (i, chip) in chips.iter().enumerate() {
            if let Some(key) = DIGITS.get(i)
                && input.just_pressed(*key)
            {
                intents.write(Intent::Chip(*chip));
            }
        }
        for (key, _, intent, _) in BETTING_KEYS {
            if input.just_pressed(key) {
                intents.write(intent);
            }
        }
        if input.just_pressed(SPOT_KEY.0) {
            let spots = spots(table.rules());
            if spots.len() > 1 {
                let at = spots.iter().position(|&s| s == slip.spot).unwrap_or(0);
                intents.write(Intent::Spot(spots[(at + 1) % spots.len()]));
            }
        }
    } else if let Some(seat) = human_seat(&session) {
        // Only what the buttons offer: N means "no insurance" or "no even money", whichever is on the table.
        for action in table.legal_actions(seat).iter() {
            if let Some(key) = letter_key(action.key())
                && input.just_pressed(key)
            {
                choices.write(coach::Choice::Play(action));
            }
        }
    }
}

/// The helps a key turns on and off at the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Help {
    Log,
    Advisor,
    Count,
    Coach,
}

/// The keys that turn the helps on and off, at any time at the table: the key, its name, the help, what it does
/// (How to play lists them from here).
pub(super) const HELP_KEYS: [(KeyCode, &str, Help, &str); 4] = [
    (
        KeyCode::KeyL,
        "L",
        Help::Log,
        "the round log: the round in words",
    ),
    (KeyCode::KeyA, "A", Help::Advisor, "the advisor"),
    (KeyCode::KeyO, "O", Help::Count, "the count"),
    (KeyCode::KeyG, "G", Help::Coach, "the coach"),
];

/// The keys between rounds: the key, its name, what it asks for, and that in words (How to play lists them from
/// here). The digits put down the chips, smallest first (`DIGITS`).
pub(super) const BETTING_KEYS: [(KeyCode, &str, Intent, &str); 8] = [
    (KeyCode::Enter, "Enter", Intent::Deal, "deal"),
    (KeyCode::Space, "Space", Intent::Deal, "deal"),
    (
        KeyCode::KeyR,
        "R",
        Intent::Rebet,
        "bet the last round's bet again",
    ),
    (
        KeyCode::KeyX,
        "X",
        Intent::DoubleBet,
        "double the bet you are making",
    ),
    (KeyCode::KeyZ, "Z", Intent::Undo, "take the last chip back"),
    (
        KeyCode::Backspace,
        "Backspace",
        Intent::Undo,
        "take the last chip back",
    ),
    (KeyCode::KeyC, "C", Intent::Clear, "take every chip back"),
    (
        KeyCode::KeyB,
        "B",
        Intent::Rebuy,
        "buy chips again when you have none",
    ),
];

/// The key that moves the chips to the next spot between rounds, at a table with side bets: its name, and what it
/// does.
pub(super) const SPOT_KEY: (KeyCode, &str, &str) = (
    KeyCode::KeyS,
    "S",
    "put the next chips on the next spot: the bet, then each side bet",
);

/// The spots a player bets on at a table of `rules`: the bet (`None`), then each side bet it offers.
pub(super) fn spots(rules: &crate::engine::Rules) -> Vec<Option<crate::engine::side::SideBet>> {
    std::iter::once(None)
        .chain(rules.side_bets.offered().into_iter().map(Some))
        .collect()
}

pub(super) const DIGITS: [KeyCode; 8] = [
    KeyCode::Digit1,
    KeyCode::Digit2,
    KeyCode::Digit3,
    KeyCode::Digit4,
    KeyCode::Digit5,
    KeyCode::Digit6,
    KeyCode::Digit7,
    KeyCode::Digit8,
];

pub(super) fn letter_key(letter: &str) -> Option<KeyCode> {
    Some(match letter {
        "h" => KeyCode::KeyH,
        "s" => KeyCode::KeyS,
        "d" => KeyCode::KeyD,
        "p" => KeyCode::KeyP,
        "r" => KeyCode::KeyR,
        "k" => KeyCode::KeyK,
        "i" => KeyCode::KeyI,
        "n" => KeyCode::KeyN,
        "e" => KeyCode::KeyE,
        _ => return None,
    })
}
