//! The browser's page address as the game's command line: the options a player may set in a link.

/// A page address's query string as command-line words: `?seed=7&speed=fast&autoplay` becomes
/// `holecard --seed 7 --speed fast --autoplay`, and the words refused. Only the options a player may choose in a
/// browser pass (`seed`, `level`, `speed`, `start`, `hand`, `autoplay`, `advisor`, `coach`, `layout`).
pub fn address_arguments(search: &str) -> (Vec<String>, Vec<String>) {
    const VALUED: [&str; 5] = ["seed", "level", "speed", "start", "hand"];
    let mut words = vec!["holecard".to_string()];
    let mut refused = Vec::new();
    for pair in search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = percent_decode(value);
        if VALUED.contains(&key) && !value.is_empty() {
            // One word, so a value that starts with '-' is still this option's value.
            words.push(format!("--{key}={value}"));
        } else if matches!(key, "autoplay" | "advisor" | "coach" | "layout")
            && matches!(value.as_str(), "" | "1" | "true")
        {
            words.push(format!("--{key}"));
        } else {
            refused.push(pair.to_string());
        }
    }
    (words, refused)
}

/// A query-string value as typed: `+` is a space and `%2F` a slash; a broken escape stays as it is.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%')
            .then(|| bytes.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok());
        match (bytes[i], escaped) {
            (_, Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', None) => {
                out.push(b' ');
                i += 1;
            }
            (byte, None) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a page's `data-assets` names the assets folder or a folder under it (`assets/3f9c0a1b2c4d`: letters,
/// digits, `-` and `_`), and not some other address for the game to load its pictures from.
pub fn is_asset_folder(folder: &str) -> bool {
    folder == "assets"
        || folder.strip_prefix("assets/").is_some_and(|name| {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
}

#[cfg(test)]
mod tests {
    use super::{address_arguments, is_asset_folder};

    #[test]
    fn only_the_assets_folder_or_one_under_it_is_taken_from_the_page() {
        assert!(is_asset_folder("assets"));
        assert!(is_asset_folder("assets/3f9c0a1b2c4d"));
        for refused in [
            "",
            "assets/",
            "assets/../secrets",
            "assets/a/b",
            "https://elsewhere.example/assets",
            "//elsewhere.example",
            "assetsx",
            "/assets/abc",
        ] {
            assert!(!is_asset_folder(refused), "{refused:?} was taken");
        }
    }

    #[test]
    fn an_address_becomes_command_line_words() {
        let (words, refused) = address_arguments("?seed=7&speed=fast&autoplay&start=table");
        assert_eq!(
            words,
            [
                "holecard",
                "--seed=7",
                "--speed=fast",
                "--autoplay",
                "--start=table"
            ]
        );
        assert!(refused.is_empty());
        let (words, refused) = address_arguments(
            "?headless&rounds=9&seed=&screenshot=/tmp/x.png&level=levels%2Fcarnival-six-five.ron",
        );
        assert_eq!(words, ["holecard", "--level=levels/carnival-six-five.ron"]);
        assert_eq!(
            refused,
            ["headless", "rounds=9", "seed=", "screenshot=/tmp/x.png"]
        );
        assert_eq!(address_arguments("").0, ["holecard"]);
        assert_eq!(
            address_arguments("?level=a+b%2").0,
            ["holecard", "--level=a b%2"]
        );
        assert_eq!(address_arguments("?seed=-3").0, ["holecard", "--seed=-3"]);
        assert_eq!(
            address_arguments("?hand=las-vegas-strip%2F12").0,
            ["holecard", "--hand=las-vegas-strip/12"]
        );
        assert_eq!(
            address_arguments("?advisor&coach=1&coach=no"),
            (
                vec!["holecard".to_string(), "--advisor".into(), "--coach".into()],
                vec!["coach=no".to_string()]
            )
        );
    }
}
