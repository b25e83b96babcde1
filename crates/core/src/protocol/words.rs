//! What a person may type onto the wire as text others read: a chat line, checked and cleaned as it will be shown.
//! (Names are the server's to judge, with its ledger: `server::ledger::check_name`.)

use super::limits::MAX_CHAT_CHARS;

/// The most combining marks kept on one letter: enough for any written language (Vietnamese stacks two), not enough
/// to pile a tower over the lines above.
pub const MARKS_PER_LETTER: usize = 4;

/// A chat line as it will be shown, or why not. It keeps no character that is not shown as itself: controls (new
/// lines included), format characters (zero-width spaces and joiners, bidi overrides, embeddings and isolates that
/// would reverse or hide what others read) and line or paragraph separators would let a line pretend to be
/// something else, or several; a letter keeps at most [`MARKS_PER_LETTER`] combining marks. A line must have a
/// character that shows: one of only blanks, fillers, variation selectors or marks is refused. The length is counted
/// on what is kept.
pub fn check_chat(text: &str) -> Result<String, String> {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    let mut kept = String::with_capacity(text.len());
    let mut marks = 0;
    for c in text.chars() {
        match c.general_category() {
            GeneralCategory::Control
            | GeneralCategory::Format
            | GeneralCategory::LineSeparator
            | GeneralCategory::ParagraphSeparator => continue,
            _ if is_mark(c) => {
                marks += 1;
                if marks > MARKS_PER_LETTER {
                    continue;
                }
            }
            _ => marks = 0,
        }
        kept.push(c);
    }
    let kept = kept.trim();
    let chars = kept.chars().count();
    if chars == 0 || chars > MAX_CHAT_CHARS || !kept.chars().any(shows) {
        return Err(format!(
            "a chat line has 1 to {MAX_CHAT_CHARS} characters that show"
        ));
    }
    Ok(kept.to_string())
}

/// A character that shows as something: not a space or a blank (a Hangul filler, the blank Braille pattern), not a
/// mark or a variation selector on its own, not the invisible combining grapheme joiner.
fn shows(c: char) -> bool {
    let blank = matches!(
        c,
        '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{2800}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FFA0}'
            | '\u{E0100}'..='\u{E01EF}'
    );
    !(c.is_whitespace() || blank || is_mark(c))
}

/// A combining mark: an accent, a vowel sign or an enclosing circle drawn on the letter before it.
pub fn is_mark(c: char) -> bool {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    matches!(
        c.general_category(),
        GeneralCategory::NonspacingMark
            | GeneralCategory::EnclosingMark
            | GeneralCategory::SpacingMark
    )
}

/// The most combining marks on any one letter of `text` (a name with more is refused, as a chat line keeps no more
/// than [`MARKS_PER_LETTER`]).
pub fn most_marks_on_a_letter(text: &str) -> usize {
    let (mut most, mut run) = (0, 0);
    for c in text.chars() {
        run = if is_mark(c) { run + 1 } else { 0 };
        most = most.max(run);
    }
    most
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chat_lines_are_checked_and_shown_as_text() {
        assert_eq!(
            check_chat("nice <b>hand</b>\nSYSTEM: you win"),
            Ok("nice <b>hand</b>SYSTEM: you win".to_string())
        );
        assert!(check_chat("   ").is_err());
        assert!(check_chat(&"a".repeat(MAX_CHAT_CHARS + 1)).is_err());
        // Nothing invisible, nothing that turns the text around, no line breaks of Unicode's own.
        assert_eq!(
            check_chat(
                "pay\u{200B}pal \u{202E}evil\u{202C} one\u{2028}two\u{2029}\u{2066}x\u{2069}\u{FEFF}"
            ),
            Ok("paypal evil onetwox".to_string())
        );
        assert!(
            check_chat("\u{200B}\u{202E} \u{2028}").is_err(),
            "nothing that shows"
        );
        // Nothing but blanks, fillers, marks or variation selectors shows nothing.
        for blank in [
            "\u{3164}\u{3164}",
            "\u{2800}",
            "\u{034F}",
            "\u{FE0F}",
            "\u{301}\u{301}",
            " \u{115F} ",
        ] {
            assert!(check_chat(blank).is_err(), "{blank:?} was let through");
        }
        // A letter under 299 marks keeps four of them.
        let tower = format!("a{}", "\u{301}".repeat(299));
        assert_eq!(
            check_chat(&tower),
            Ok(format!("a{}", "\u{301}".repeat(MARKS_PER_LETTER)))
        );
        // Accents, other scripts and emoji stay.
        assert_eq!(
            check_chat("¡Olé! Привет 👍 ❤\u{FE0F} Tiếng Việt"),
            Ok("¡Olé! Привет 👍 ❤\u{FE0F} Tiếng Việt".to_string())
        );
    }
}
