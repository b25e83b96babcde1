//! Names: which names a person may play under, and what a name looks like, so that no two people play under names
//! that look alike (an account's for good, a guest's while it plays); the accounts' looks as the ledger keeps them.

use super::{LedgerError, Store};
use crate::protocol::{MARKS_PER_LETTER, MAX_NAME_CHARS, is_mark, most_marks_on_a_letter};
use sqlx::Row;
use unicode_normalization::UnicodeNormalization;
use unicode_security::{GeneralSecurityProfile, RestrictionLevel, RestrictionLevelDetection};

/// The characters a name may have besides letters and digits, between them.
const SEPARATORS: &str = " -_.'";

/// A name a person may play under, as it will be shown (trimmed, each run of spaces one space), or why not. It has 1
/// to [`MAX_NAME_CHARS`] characters: letters and digits of the scripts Unicode recommends for identifiers, with the
/// accents and vowel signs on them (TR39's General Security Profile: no invisible, blank or technical characters such
/// as fillers or small capitals), spaces,
/// `-`, `_`, `.` and `'`; and its letters are of one script, or of Latin and one other that is neither Cyrillic nor
/// Greek (TR39's Moderately Restrictive level), so it cannot mix look-alike letters of several scripts. No letter
/// carries more than [`MARKS_PER_LETTER`] combining marks (a tower of vowel signs would cover the names around it).
pub fn check_name(name: &str) -> Result<String, LedgerError> {
    let name: String = name.nfc().collect();
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    let chars = name.chars().count();
    if chars == 0 || chars > MAX_NAME_CHARS {
        return Err(LedgerError::Invalid(format!(
            "a name has 1 to {MAX_NAME_CHARS} characters"
        )));
    }
    // A combining mark (an accent, a vowel sign, a virama) belongs to the letter before it.
    let mut after = ' ';
    let allowed = |c: char, before: char| {
        SEPARATORS.contains(c)
            || (c.is_alphanumeric() && c.identifier_allowed())
            || (is_mark(c) && c.identifier_allowed() && !SEPARATORS.contains(before))
    };
    if let Some(bad) = name.chars().find(|c| {
        let before = std::mem::replace(&mut after, *c);
        !allowed(*c, before)
    }) {
        return Err(LedgerError::Invalid(format!(
            "a name has letters, digits, spaces and - _ . ' only, not {bad:?} (U+{:04X})",
            u32::from(bad)
        )));
    }
    if most_marks_on_a_letter(&name) > MARKS_PER_LETTER {
        return Err(LedgerError::Invalid(format!(
            "a letter of a name carries at most {MARKS_PER_LETTER} accents or vowel signs"
        )));
    }
    let letters: String = name.chars().filter(|c| !SEPARATORS.contains(*c)).collect();
    if letters.is_empty() {
        return Err(LedgerError::Invalid(
            "a name has at least one letter or digit".to_string(),
        ));
    }
    if !letters
        .as_str()
        .check_restriction_level(RestrictionLevel::ModeratelyRestrictive)
    {
        return Err(LedgerError::Invalid(
            "a name's letters are of one script (Latin with at most one other, not Cyrillic or Greek)".to_string(),
        ));
    }
    Ok(name)
}

/// The version of [`look_of`]: the ledger works out every account's look again when it changes.
pub const LOOK_VERSION: i64 = 2;

/// What a name looks like, for telling names apart: its compatibility form (NFKC: a fullwidth or mathematical letter
/// is its letter), small capitals as their letters, each run of spaces one space, then its confusable skeleton
/// (Unicode TR39), case folded, and the skeleton again (so a capital I and a small l, a Cyrillic А and a Latin A, "rn"
/// and "m" are all the same). Two names that look alike cannot be played under at once, nor both be accounts.
pub fn look_of(name: &str) -> String {
    let folded: String = name.nfkc().map(small_capital_as_letter).collect();
    let spaced = folded.split_whitespace().collect::<Vec<_>>().join(" ");
    let first: String = unicode_security::skeleton(&spaced).collect();
    unicode_security::skeleton(&first.to_lowercase()).collect()
}

/// A small capital as the letter it is a small form of (TR39's confusables leave most of them apart, and NFKC keeps
/// them).
fn small_capital_as_letter(c: char) -> char {
    match c {
        '\u{1D00}' => 'a',
        '\u{0299}' => 'b',
        '\u{1D04}' => 'c',
        '\u{1D05}' => 'd',
        '\u{1D07}' => 'e',
        '\u{A730}' => 'f',
        '\u{0262}' => 'g',
        '\u{029C}' => 'h',
        '\u{026A}' => 'i',
        '\u{1D0A}' => 'j',
        '\u{1D0B}' => 'k',
        '\u{029F}' => 'l',
        '\u{1D0D}' => 'm',
        '\u{0274}' => 'n',
        '\u{1D0F}' => 'o',
        '\u{1D18}' => 'p',
        '\u{A7AF}' => 'q',
        '\u{0280}' => 'r',
        '\u{A731}' => 's',
        '\u{1D1B}' => 't',
        '\u{1D1C}' => 'u',
        '\u{1D20}' => 'v',
        '\u{1D21}' => 'w',
        '\u{028F}' => 'y',
        '\u{1D22}' => 'z',
        other => other,
    }
}

/// Who holds a name that looks like `look` or is `key` in another case: their name, and whether it is an account's.
async fn holder_of(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    look: &str,
    key: &str,
) -> Result<Option<(String, bool)>, LedgerError> {
    let row = sqlx::query("SELECT name, account FROM name_holds WHERE look = $1 OR name_key = $2")
        .bind(look)
        .bind(key)
        .fetch_optional(executor)
        .await?;
    Ok(match row {
        Some(row) => Some((row.try_get(0)?, row.try_get::<i64, _>(1)? != 0)),
        None => None,
    })
}

/// The ledger's refusal of a name held already (or of nothing, when the holder let go meanwhile: try again).
fn held_by(holder: Option<(String, bool)>, name: &str) -> LedgerError {
    match holder {
        Some((other, true)) if other.to_lowercase() == name.to_lowercase() => {
            LedgerError::AnAccountsName
        }
        Some((other, true)) => LedgerError::LooksLike(other),
        Some((other, false)) => LedgerError::GuestPlays(other),
        None => LedgerError::Busy,
    }
}

/// Whether an insert failed on one of the table's unique keys.
fn taken(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(e) if e.is_unique_violation())
}

/// The account `key` named `name` takes its name for good, in the caller's transaction; refused when another account
/// holds a name that looks like it, or a guest plays under one now (a guest's hold that has lapsed is taken over).
pub(super) async fn hold_for_an_account(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    look: &str,
    name: &str,
    key: &str,
    now: i64,
) -> Result<(), LedgerError> {
    lapse(&mut **tx, look, key, now).await?;
    let held = sqlx::query(
        "INSERT INTO name_holds (look, name_key, name, account, holder, token_hash, expires_ms) \
         VALUES ($1, $2, $3, 1, NULL, NULL, NULL)",
    )
    .bind(look)
    .bind(key)
    .bind(name)
    .execute(&mut **tx)
    .await;
    match held {
        Ok(_) => Ok(()),
        Err(e) if taken(&e) => {
            // The transaction cannot be used after a failed statement on PostgreSQL: the caller drops it, and says
            // why from a fresh reading.
            Err(LedgerError::NameHeld {
                look: look.to_string(),
                key: key.to_string(),
            })
        }
        Err(e) => Err(e.into()),
    }
}

/// Guests' holds on these names that have lapsed are given up.
async fn lapse(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    look: &str,
    key: &str,
    now: i64,
) -> Result<(), LedgerError> {
    sqlx::query(
        "DELETE FROM name_holds WHERE account = 0 AND expires_ms < $3 AND (look = $1 OR name_key = $2)",
    )
    .bind(look)
    .bind(key)
    .bind(now)
    .execute(executor)
    .await?;
    Ok(())
}

impl Store {
    /// Why the name `name` is held, when an account could not take it.
    pub(super) async fn why_held(&self, look: &str, key: &str, name: &str) -> LedgerError {
        match holder_of(&self.pool, look, key).await {
            Ok(holder) => held_by(holder, name),
            Err(e) => e,
        }
    }

    /// Holds the guest name `name` for the guest session `token` of the server process `holder` until `until_ms`
    /// (the process renews it while the guest plays: [`Store::renew_guest_names`]), played from `address`. Refused when an account's name,
    /// or another guest's that is held, looks like it or is it in another case.
    pub async fn hold_guest_name(
        &self,
        name: &str,
        token: &str,
        holder: &str,
        until_ms: i64,
        address: Option<&str>,
    ) -> Result<(), LedgerError> {
        let look = look_of(name);
        let key = name.to_lowercase();
        lapse(&self.pool, &look, &key, super::now_ms()).await?;
        let held = sqlx::query(
            "INSERT INTO name_holds (look, name_key, name, account, holder, token_hash, expires_ms, address) \
             VALUES ($1, $2, $3, 0, $4, $5, $6, $7)",
        )
        .bind(&look)
        .bind(&key)
        .bind(name)
        .bind(holder)
        .bind(super::token_hash(token))
        .bind(until_ms)
        .bind(address.map(str::to_string))
        .execute(&self.pool)
        .await;
        match held {
            Ok(_) => Ok(()),
            Err(e) if taken(&e) => Err(held_by(holder_of(&self.pool, &look, &key).await?, name)),
            Err(e) => Err(e.into()),
        }
    }

    /// The guest session `token` no longer holds its name.
    pub async fn release_guest_name(&self, name: &str, token: &str) -> Result<(), LedgerError> {
        sqlx::query("DELETE FROM name_holds WHERE look = $1 AND token_hash = $2 AND account = 0")
            .bind(look_of(name))
            .bind(super::token_hash(token))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// The names held for guests by this server when it last ran, given back as it starts: those guests'
    /// sessions lived in that run's memory and are gone with it. On SQLite (one server to a ledger) every guest's
    /// name; on PostgreSQL those of `holder` when it is the server's route (`routed`), the same from run to run
    /// (a server with no route holds under a token of each run's own, and its names lapse when their hold runs
    /// out). How many.
    pub async fn release_earlier_guest_names(
        &self,
        holder: &str,
        routed: bool,
    ) -> Result<u64, LedgerError> {
        let released = if !self.shared_by_servers() {
            sqlx::query("DELETE FROM name_holds WHERE account = 0")
                .execute(&self.pool)
                .await?
        } else if routed {
            sqlx::query("DELETE FROM name_holds WHERE holder = $1 AND account = 0")
                .bind(holder)
                .execute(&self.pool)
                .await?
        } else {
            return Ok(0);
        };
        Ok(released.rows_affected())
    }

    /// The names the process `holder` holds for its guests, still held, are held until `until_ms`.
    pub async fn renew_guest_names(&self, holder: &str, until_ms: i64) -> Result<(), LedgerError> {
        sqlx::query(
            "UPDATE name_holds SET expires_ms = $2 WHERE holder = $1 AND account = 0 AND expires_ms >= $3",
        )
        .bind(holder)
        .bind(until_ms)
        .bind(super::now_ms())
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The name of an account whose name looks like this one (in any case, or with look-alike letters), if any.
    pub async fn name_taken(&self, name: &str) -> Result<Option<String>, LedgerError> {
        Ok(
            match holder_of(&self.pool, &look_of(name), &name.to_lowercase()).await? {
                Some((other, true)) => Some(other),
                _ => None,
            },
        )
    }
}

/// Brings the accounts' looks up to [`LOOK_VERSION`] (every account's worked out again when the way of working it out
/// has changed, and each account's look held in `name_holds`). Two accounts made before looks were kept may look
/// alike: the first keeps the look, and the other is said in the server's log (its name still logs in; no one new
/// may take a name like either).
pub(super) async fn refresh_looks(pool: &sqlx::AnyPool) -> Result<(), sqlx::Error> {
    let version = sqlx::query("SELECT value FROM meta WHERE key = 'look_version'")
        .fetch_optional(pool)
        .await?
        .map(|row| row.try_get::<i64, _>(0))
        .transpose()?;
    if version == Some(LOOK_VERSION) {
        return Ok(());
    }
    let rows = sqlx::query("SELECT name_key, name FROM accounts ORDER BY created_ms, name_key")
        .fetch_all(pool)
        .await?;
    let mut tx = pool.begin().await?;
    sqlx::query("DELETE FROM name_holds WHERE account = 1")
        .execute(&mut *tx)
        .await?;
    for row in rows {
        let (key, name): (String, String) = (row.try_get(0)?, row.try_get(1)?);
        let look = look_of(&name);
        sqlx::query("UPDATE accounts SET name_look = $1 WHERE name_key = $2")
            .bind(&look)
            .bind(&key)
            .execute(&mut *tx)
            .await?;
        let held = sqlx::query(
            "INSERT INTO name_holds (look, name_key, name, account, holder, token_hash, expires_ms) \
             VALUES ($1, $2, $3, 1, NULL, NULL, NULL) ON CONFLICT DO NOTHING",
        )
        .bind(&look)
        .bind(&key)
        .bind(&name)
        .execute(&mut *tx)
        .await?;
        if held.rows_affected() == 0 {
            tracing::info!(
                "the account {name} looks like an older account's name; it keeps its name, and no \
                 one new may take one like it"
            );
        }
    }
    sqlx::query(
        "INSERT INTO meta (key, value) VALUES ('look_version', $1) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )
    .bind(LOOK_VERSION)
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_show_nothing_mix_scripts_or_hide_letters_are_refused() {
        assert_eq!(
            check_name("  Mae   West ").ok().as_deref(),
            Some("Mae West")
        );
        assert_eq!(
            check_name("José O'Neil-Ruiz").ok().as_deref(),
            Some("José O'Neil-Ruiz")
        );
        assert_eq!(
            check_name("Jose\u{301}").ok().as_deref(),
            Some("José"),
            "a letter and its accent, composed"
        );
        assert_eq!(
            check_name("Анна").ok().as_deref(),
            Some("Анна"),
            "one script"
        );
        assert_eq!(check_name("王小明").ok().as_deref(), Some("王小明"));
        // Letters with their vowel signs, as Arabic and Devanagari write them, are names; a tower of them is not.
        assert_eq!(check_name("سَلِيم").ok().as_deref(), Some("سَلِيم"));
        assert_eq!(check_name("लक्ष्मी").ok().as_deref(), Some("लक्ष्मी"));
        assert!(check_name("Ann \u{301}Lee").is_err(), "a mark on no letter");
        let marked = |marks: usize| format!("س{}ليم", "\u{650}".repeat(marks));
        assert!(check_name(&marked(MARKS_PER_LETTER)).is_ok());
        assert!(
            check_name(&marked(MARKS_PER_LETTER + 1)).is_err(),
            "a tower of marks"
        );
        for refused in [
            "",
            "   ",
            "\u{3164}\u{3164}",
            "Camilla\u{115F}Olsen",
            "Camilla\u{200B}Olsen",
            "ᴄᴀᴍɪʟʟᴀ ᴏʟꜱᴇɴ",
            "\u{410}lice",
            "Pay\u{440}al",
            "<script>",
            "-.'",
        ] {
            assert!(check_name(refused).is_err(), "{refused:?} was let through");
        }
        assert!(check_name(&"a".repeat(MAX_NAME_CHARS + 1)).is_err());
    }

    #[test]
    fn names_that_look_alike_have_one_look() {
        assert_eq!(look_of("\u{410}lice"), look_of("alice"), "a Cyrillic A");
        assert_eq!(look_of("AIice"), look_of("Alice"), "a capital I for an l");
        assert_eq!(look_of("Bob"), look_of("\u{412}\u{43e}b"));
        assert_eq!(
            look_of("ᴄᴀᴍɪʟʟᴀ ᴏʟꜱᴇɴ"),
            look_of("Camilla Olsen"),
            "small capitals"
        );
        assert_eq!(
            look_of("Camilla   Olsen"),
            look_of("Camilla Olsen"),
            "spaces"
        );
        assert_eq!(
            look_of("Ｃａｍｉｌｌａ"),
            look_of("Camilla"),
            "fullwidth letters"
        );
        assert_ne!(look_of("Alice"), look_of("Alicia"));
    }
}
