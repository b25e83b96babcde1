//! What a person may type onto the wire: a name to play under and a chat line, each checked and cleaned as it will be
//! shown to others.

use super::limits::{MAX_CHAT_CHARS, MAX_NAME_CHARS};

/// A name a person may play under, trimmed, or why not.
pub fn check_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(format!("a name has 1 to {MAX_NAME_CHARS} characters"));
    }
    if let Some(bad) = name
        .chars()
        .find(|c| !(c.is_alphanumeric() || " -_.'".contains(*c)))
    {
        return Err(format!(
            "a name has letters, digits, spaces and - _ . ' only, not {bad:?}"
        ));
    }
    Ok(name.to_string())
}

/// A chat line as it will be shown, or why not. It keeps no character that is not shown as itself: controls (new
/// lines included), format characters (zero-width spaces and joiners, bidi overrides, embeddings and isolates that
/// would reverse or hide what others read) and line or paragraph separators would let a line pretend to be
/// something else, or several. The length is counted on what is kept.
pub fn check_chat(text: &str) -> Result<String, String> {
    use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
    let kept: String = text
        .chars()
        .filter(|c| {
            !matches!(
                c.general_category(),
                GeneralCategory::Control
                    | GeneralCategory::Format
                    | GeneralCategory::LineSeparator
                    | GeneralCategory::ParagraphSeparator
            )
        })
        .collect();
    let kept = kept.trim();
    let chars = kept.chars().count();
    if chars == 0 || chars > MAX_CHAT_CHARS {
        return Err(format!(
            "a chat line has 1 to {MAX_CHAT_CHARS} characters that show"
        ));
    }
    Ok(kept.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_chat_lines_are_checked_and_shown_as_text() {
        assert_eq!(check_name("  Mae "), Ok("Mae".to_string()));
        assert!(check_name("").is_err());
        assert!(check_name("<script>").is_err());
        assert!(check_name(&"a".repeat(MAX_NAME_CHARS + 1)).is_err());
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
        // Accents, other scripts and emoji stay.
        assert_eq!(
            check_chat("¡Olé! Привет 👍"),
            Ok("¡Olé! Привет 👍".to_string())
        );
    }
}
