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
    if input.just_pressed(KeyCode::KeyL) {
        log.open = !log.open;
    }
    if input.just_pressed(KeyCode::KeyA) {
        options.advisor = !options.advisor;
    }
    if input.just_pressed(KeyCode::KeyO) {
        options.show_count = !options.show_count;
    }
    if input.just_pressed(KeyCode::KeyG) {
        options.coach = !options.coach;
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
        let pairs = [
            (KeyCode::KeyR, Intent::Rebet),
            (KeyCode::KeyX, Intent::DoubleBet),
            (KeyCode::KeyZ, Intent::Undo),
            (KeyCode::Backspace, Intent::Undo),
            (KeyCode::KeyC, Intent::Clear),
            (KeyCode::Enter, Intent::Deal),
            (KeyCode::Space, Intent::Deal),
            (KeyCode::KeyB, Intent::Rebuy),
        ];
        for (key, intent) in pairs {
            if input.just_pressed(key) {
                intents.write(intent);
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
