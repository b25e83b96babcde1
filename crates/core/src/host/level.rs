//! Table levels (`levels/*.ron`): a casino table's name, rules, limits, companions and look.
//!
//! Plain Rust and serde, shared by the game and `holecard-lab`. Every error names the file, line and column.

pub use crate::engine::ai::Personality;
use crate::engine::{Cents, Preset, Rules};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// A casino table as a level file describes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// The table's name on the Tables screen.
    pub name: String,
    /// A line about the table.
    #[serde(default)]
    pub description: String,
    /// The table's rules: a named preset or a full rule set.
    pub rules: RuleSource,
    /// Chips the player buys in with.
    #[serde(default = "default_buy_in")]
    pub buy_in: Cents,
    /// Chips in the house's tray.
    #[serde(default = "default_house")]
    pub house_bankroll: Cents,
    /// Felt colour as red, green, blue.
    #[serde(default = "default_felt")]
    pub felt: (u8, u8, u8),
    /// Which card back the shoe uses.
    #[serde(default)]
    pub card_back: CardBack,
    /// AI companions seated when the table opens.
    #[serde(default)]
    pub companions: Vec<Companion>,
    /// The seat the player takes (0 = first base … 6), or none to watch.
    #[serde(default = "default_player_seat")]
    pub player_seat: Option<u8>,
    /// Decks the player picks from when sitting down (`[1, 2, 4]`); empty: the rules' own.
    #[serde(default)]
    pub deck_choices: Vec<u8>,
    /// A match against the house: the game ends, with a screen saying who went broke, when the player's chips no
    /// longer cover the smallest bet or the house's tray no longer covers what one round can pay ([`Level::broke`]).
    #[serde(default)]
    pub until_broke: bool,
}

/// Who went broke at a table played [`until_broke`](Level::until_broke).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Broke {
    /// The player's chips no longer cover the smallest bet: the house wins.
    Player,
    /// The house's tray no longer covers what the player could win in one round: the player broke the bank.
    House,
}

impl Broke {
    /// The end screen's headline and line, in words: `player_chips` the player ends with, `buy_in` a fresh stack.
    pub fn said(self, player_chips: Cents, buy_in: Cents) -> (&'static str, String) {
        match self {
            Broke::Player => (
                "You're broke",
                format!("The house wins this time. Sit down again with a fresh {buy_in}."),
            ),
            Broke::House => (
                "You broke the bank!",
                format!("The house can't cover another round. You walk away with {player_chips}."),
            ),
        }
    }
}

/// Where a level's rules come from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RuleSource {
    /// A named table (`Preset(LasVegasStrip)`).
    Preset(Preset),
    /// A full rule set (`Custom((decks: 2, soft_17: Hit, …))`); missing fields take the Las Vegas Strip's.
    Custom(Rules),
}

impl RuleSource {
    /// The rules this source names.
    pub fn rules(&self) -> Rules {
        match self {
            RuleSource::Preset(preset) => preset.rules(),
            RuleSource::Custom(rules) => rules.clone(),
        }
    }
}

/// Card back designs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CardBack {
    /// Deep red lattice.
    #[default]
    Crimson,
    /// Navy diamonds.
    Navy,
}

/// An AI companion at the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Companion {
    /// The companion's name.
    pub name: String,
    /// How they play.
    pub personality: Personality,
    /// Chips they sit down with.
    pub bankroll: Cents,
    /// Their seat (0 = first base … 6).
    pub seat: u8,
}

/// The default table, built in so the game and the lab start from any directory.
const DEFAULT_LEVEL: &str = include_str!("../../../../levels/las-vegas-strip.ron");

fn default_buy_in() -> Cents {
    Cents::units(1_000)
}

fn default_house() -> Cents {
    Cents::units(1_000_000)
}

fn default_felt() -> (u8, u8, u8) {
    (22, 96, 58)
}

fn default_player_seat() -> Option<u8> {
    Some(3)
}

/// A level file that could not be used.
#[derive(Debug, Error)]
pub enum LevelError {
    /// The file could not be read.
    #[error("{path}: cannot read the level file: {message}")]
    Read { path: PathBuf, message: String },
    /// The file is not a valid level; the location points at the fault.
    #[error("{path}:{line}:{column}: {message}")]
    Invalid {
        path: PathBuf,
        line: usize,
        column: usize,
        message: String,
    },
}

impl Level {
    /// Reads and checks a level file.
    /// In the browser, where there are no files, `path` names a built-in level: `levels/carnival-six-five.ron`,
    /// `carnival-six-five.ron` or `carnival-six-five`.
    pub fn load(path: &Path) -> Result<Level, LevelError> {
        if cfg!(target_arch = "wasm32") {
            return Level::built_in(path).ok_or_else(|| LevelError::Read {
                path: path.to_path_buf(),
                message: format!(
                    "no such table here; the tables are {}",
                    BUILT_IN
                        .map(|(p, _)| p.trim_start_matches("levels/"))
                        .join(", ")
                ),
            })?;
        }
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            // No such file, but a table the program carries by that name (`--level atlantic-city`): that table.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Level::built_in(path).unwrap_or_else(|| {
                    Err(LevelError::Read {
                        path: path.to_path_buf(),
                        message: e.to_string(),
                    })
                });
            }
            Err(e) => {
                return Err(LevelError::Read {
                    path: path.to_path_buf(),
                    message: e.to_string(),
                });
            }
        };
        Level::parse(path, &text)
    }

    /// The built-in level `name` names, by path, file name or file stem.
    pub fn built_in(name: &Path) -> Option<Result<Level, LevelError>> {
        BUILT_IN.iter().find_map(|(path, text)| {
            let shipped = Path::new(path);
            let named = shipped == name
                || shipped.file_name() == Some(name.as_os_str())
                || shipped.file_stem() == Some(name.as_os_str());
            named.then(|| Level::parse(shipped, text))
        })
    }

    /// The level at `path`, or the default table (Las Vegas Strip, built into the program) when none is given.
    pub fn load_or_default(path: Option<&Path>) -> Result<Level, LevelError> {
        match path {
            Some(path) => Level::load(path),
            None => Level::parse(Path::new("levels/las-vegas-strip.ron"), DEFAULT_LEVEL),
        }
    }

    /// The level with `decks` decks in the shoe (one of [`Level::deck_choices`], picked when sitting down).
    pub fn with_decks(&self, decks: u8) -> Level {
        let rules = Rules {
            decks,
            ..self.rules.rules()
        };
        Level {
            rules: RuleSource::Custom(rules),
            ..self.clone()
        }
    }

    /// At a table played until someone is broke, between rounds: who is, if anyone. The player is broke when their
    /// chips no longer cover the table's smallest bet; the house, when its tray no longer covers the most one seat
    /// can win in a round (every hand it may split to, doubled and won, and insurance).
    pub fn broke(&self, table: &impl crate::engine::TableState, seat: u8) -> Option<Broke> {
        if !self.until_broke || table.phase() != crate::engine::Phase::Betting {
            return None;
        }
        let rules = table.rules();
        let chips = table.seats().get(usize::from(seat))?.chips();
        let most = Cents(rules.max_bet.0 * (2 * i64::from(rules.max_split_hands.max(1)) + 1));
        if chips < rules.min_bet {
            Some(Broke::Player)
        } else if table.house() < most {
            Some(Broke::House)
        } else {
            None
        }
    }

    /// Parses and checks the text of a level file; `path` is only used in errors.
    pub fn parse(path: &Path, text: &str) -> Result<Level, LevelError> {
        let level: Level =
            ron::Options::default()
                .from_str(text)
                .map_err(|e| LevelError::Invalid {
                    path: path.to_path_buf(),
                    line: e.span.start.line,
                    column: e.span.start.col,
                    message: e.code.to_string(),
                })?;
        let invalid = |field: &str, message: String| {
            let (line, column) = locate_field(text, field).unwrap_or((1, 1));
            LevelError::Invalid {
                path: path.to_path_buf(),
                line,
                column,
                message,
            }
        };
        level
            .rules
            .rules()
            .validate()
            .map_err(|e| invalid(e.field, e.to_string()))?;
        let mut seats_taken = [false; crate::engine::MAX_SEATS];
        if let Some(seat) = level.player_seat {
            if usize::from(seat) >= seats_taken.len() {
                return Err(invalid(
                    "player_seat",
                    format!("`player_seat`: there is no seat {seat} (0 to 6)"),
                ));
            }
            seats_taken[usize::from(seat)] = true;
        }
        for companion in &level.companions {
            let seat = usize::from(companion.seat);
            if seat >= seats_taken.len() {
                return Err(invalid(
                    "seat",
                    format!("{}: there is no seat {seat} (0 to 6)", companion.name),
                ));
            }
            if std::mem::replace(&mut seats_taken[seat], true) {
                return Err(invalid(
                    "seat",
                    format!("{}: seat {seat} is already taken", companion.name),
                ));
            }
            if !companion.bankroll.is_positive() {
                return Err(invalid(
                    "bankroll",
                    format!("{}: a bankroll must be positive", companion.name),
                ));
            }
        }
        if !level.buy_in.is_positive() {
            return Err(invalid("buy_in", "`buy_in` must be positive".to_string()));
        }
        for &decks in &level.deck_choices {
            level
                .with_decks(decks)
                .rules
                .rules()
                .validate()
                .map_err(|e| invalid("deck_choices", format!("`deck_choices`: {e}")))?;
        }
        Ok(level)
    }
}

/// The levels shipped in `levels/`, built in, for when there is no `levels` folder beside the game (the browser).
const BUILT_IN: [(&str, &str); 7] = [
    ("levels/las-vegas-strip.ron", DEFAULT_LEVEL),
    (
        "levels/break-the-bank.ron",
        include_str!("../../../../levels/break-the-bank.ron"),
    ),
    (
        "levels/downtown-single-deck.ron",
        include_str!("../../../../levels/downtown-single-deck.ron"),
    ),
    (
        "levels/atlantic-city.ron",
        include_str!("../../../../levels/atlantic-city.ron"),
    ),
    (
        "levels/european-no-hole-card.ron",
        include_str!("../../../../levels/european-no-hole-card.ron"),
    ),
    (
        "levels/carnival-six-five.ron",
        include_str!("../../../../levels/carnival-six-five.ron"),
    ),
    (
        "levels/double-deck-custom.ron",
        include_str!("../../../../levels/double-deck-custom.ron"),
    ),
];

/// One entry on the Tables screen: a level file and what became of reading it.
#[derive(Debug)]
pub struct Listing {
    /// The file.
    pub path: PathBuf,
    /// The table, or why the file is broken.
    pub level: Result<Level, LevelError>,
}

/// Every `*.ron` file in `dir`, sorted by file name, each read on its own so one broken file does not hide the
/// others. Without a readable `dir`, the levels built into the game.
pub fn catalogue(dir: &Path) -> Vec<Listing> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BUILT_IN
            .iter()
            .map(|(path, text)| Listing {
                path: PathBuf::from(path),
                level: Level::parse(Path::new(path), text),
            })
            .collect();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| Listing {
            level: Level::load(&path),
            path,
        })
        .collect()
}

/// (line, column), both 1-based, of the first `field:` in `text`, skipping `//` comments.
fn locate_field(text: &str, field: &str) -> Option<(usize, usize)> {
    for (number, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut from = 0;
        while let Some(found) = code[from..].find(field) {
            let start = from + found;
            let end = start + field.len();
            let before_ok = code[..start]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            let after_ok = code[end..].trim_start().starts_with(':');
            if before_ok && after_ok {
                return Some((number + 1, code[..start].chars().count() + 1));
            }
            from = end;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_files_rule_shorthand_is_explained() {
        let levels = catalogue(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../levels"
        )));
        assert!(levels.len() >= 7, "{} levels", levels.len());
        for listing in &levels {
            let level = listing.level.as_ref().expect("a shipped level reads");
            crate::engine::rules::tests::assert_explained(
                &listing.path.display().to_string(),
                &level.rules.rules(),
            );
        }
    }

    #[test]
    fn the_catalogue_lists_broken_files_beside_good_ones() {
        let dir = std::env::temp_dir().join(format!("holecard-levels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(
            dir.join("a-good.ron"),
            r#"(name: "Good", rules: Preset(Carnival))"#,
        )
        .expect("write");
        std::fs::write(
            dir.join("b-bad.ron"),
            "(\n  name: \"Bad\",\n  rules: Preset(Nowhere),\n)",
        )
        .expect("write");
        std::fs::write(dir.join("notes.txt"), "not a level").expect("write");
        let listings = catalogue(&dir);
        std::fs::remove_dir_all(&dir).expect("clean up");
        assert_eq!(listings.len(), 2);
        assert_eq!(listings[0].level.as_ref().expect("good").name, "Good");
        let error = listings[1].level.as_ref().expect_err("bad").to_string();
        assert!(error.contains("b-bad.ron:3:"), "{error}");
        assert!(error.contains("Nowhere"), "{error}");
    }

    #[test]
    fn the_tables_with_side_bets_are_their_presets_with_the_side_bets() {
        use crate::engine::side::{BusterPays, LadiesPays, PairPays, SideBet, ThreeCardPays};
        // Named on the command line, a table the program carries is found with no file of that name.
        let missing = Level::load(Path::new("nowhere-city")).expect_err("no such table");
        assert!(missing.to_string().contains("nowhere-city"), "{missing}");
        for (file, preset, offered, most) in [
            (
                "atlantic-city",
                Preset::AtlanticCity,
                [SideBet::TwentyOnePlusThree, SideBet::PerfectPairs],
                Cents::units(100),
            ),
            (
                "carnival-six-five",
                Preset::Carnival,
                [SideBet::LuckyLadies, SideBet::Buster],
                Cents::units(25),
            ),
        ] {
            let level = Level::built_in(Path::new(file))
                .expect("shipped")
                .expect("valid");
            let named = Level::load(Path::new(file)).expect("the shipped table");
            assert_eq!(named, level);
            let rules = level.rules.rules();
            let side = rules.side_bets;
            assert_eq!(side.offered(), offered, "{file}");
            assert_eq!(side.max_bet, most, "{file}");
            assert_eq!(
                rules,
                Rules {
                    side_bets: side,
                    ..preset.rules()
                },
                "{file}: its preset's rules and its side bets"
            );
        }
        let pays = |file| {
            let level = Level::built_in(Path::new(file))
                .expect("shipped")
                .expect("valid");
            level.rules.rules().side_bets
        };
        let boardwalk = pays("atlantic-city");
        assert_eq!(
            boardwalk.twenty_one_plus_three,
            Some(ThreeCardPays::HUNDRED_TO_FIVE)
        );
        assert_eq!(boardwalk.perfect_pairs, Some(PairPays::TWENTY_FIVE));
        let carnival = pays("carnival-six-five");
        assert_eq!(carnival.lucky_ladies, Some(LadiesPays::THOUSAND));
        assert_eq!(carnival.buster, Some(BusterPays::TWO_FIFTY));
    }

    #[test]
    fn a_tables_side_bets_and_their_pay_tables_are_written_in_its_file() {
        let text = r#"(
    name: "Side bets",
    rules: Custom((
        decks: 6,
        side_bets: (
            twenty_one_plus_three: Some((suited_trips: 100, straight_flush: 40, three_of_a_kind: 30, straight: 10, flush: 5)),
            perfect_pairs: Some((perfect: 30, colored: 10, mixed: 5)),
            buster: Some((three: 2, four: 2, five: 4, six: 12, seven: 50, eight_or_more: 250)),
            max_bet: 2500,
        ),
    )),
)"#;
        let level = Level::parse(Path::new("side.ron"), text).expect("a valid level");
        let rules = level.rules.rules();
        use crate::engine::side::{PairPays, SideBet, ThreeCardPays};
        assert_eq!(
            rules.side_bets.offered(),
            [
                SideBet::TwentyOnePlusThree,
                SideBet::PerfectPairs,
                SideBet::Buster
            ]
        );
        assert_eq!(
            rules.side_bets.twenty_one_plus_three,
            Some(ThreeCardPays::HUNDRED_TO_FIVE)
        );
        assert_eq!(rules.side_bets.perfect_pairs, Some(PairPays::THIRTY));
        assert_eq!(rules.side_bets.max_bet, Cents::units(25));
        // A pay table past the ceiling is refused with the field named; a misspelt hand with its line.
        let lavish = text.replace("eight_or_more: 250", "eight_or_more: 9999");
        let error = Level::parse(Path::new("side.ron"), &lavish)
            .expect_err("too much")
            .to_string();
        assert!(
            error.contains("side_bets") && error.contains("5000 to 1"),
            "{error}"
        );
        let misspelt = text.replace("colored: 10", "coloured: 10");
        let error = Level::parse(Path::new("side.ron"), &misspelt)
            .expect_err("no such hand")
            .to_string();
        assert!(
            error.contains("side.ron:7:") && error.contains("coloured"),
            "{error}"
        );
    }

    #[test]
    fn a_match_knows_who_went_broke_and_a_deck_choice_is_checked() {
        use crate::engine::{Command, Table, seed_from_number};
        let level = Level::built_in(Path::new("break-the-bank"))
            .expect("built in")
            .expect("valid");
        assert_eq!(level.deck_choices, [1, 2, 4]);
        assert_eq!(level.with_decks(4).rules.rules().decks, 4);
        let table = |house: Cents, player: Cents| {
            let mut table =
                Table::new(level.rules.rules(), seed_from_number(1), house).expect("table");
            table
                .apply(Command::Join {
                    seat: 3,
                    buy_in: player,
                })
                .expect("joins");
            table
        };
        // $5 bets split to four hands and doubled, and insurance: the house must cover $45 a round.
        assert_eq!(
            level.broke(&table(Cents::units(45), Cents::units(1)), 3),
            None
        );
        assert_eq!(
            level.broke(&table(Cents::units(44), Cents::units(1)), 3),
            Some(Broke::House)
        );
        assert_eq!(
            level.broke(&table(Cents::units(10_000), Cents(99)), 3),
            Some(Broke::Player)
        );
        let endless = Level {
            until_broke: false,
            ..level.clone()
        };
        assert_eq!(endless.broke(&table(Cents::ZERO, Cents(99)), 3), None);
        let text =
            include_str!("../../../../levels/break-the-bank.ron").replace("[1, 2, 4]", "[1, 9]");
        let error = Level::parse(Path::new("bad.ron"), &text)
            .expect_err("nine decks")
            .to_string();
        assert!(
            error.contains("bad.ron:") && error.contains("deck_choices"),
            "{error}"
        );
    }

    #[test]
    fn every_built_in_level_parses_and_matches_its_file() {
        for listing in catalogue(Path::new("/no/such/folder")) {
            let level = listing.level.expect("built-in levels are valid");
            assert_eq!(Level::load(&listing.path).expect("file"), level);
        }
        assert_eq!(catalogue(Path::new("levels")).len(), BUILT_IN.len());
        for name in [
            "levels/carnival-six-five.ron",
            "carnival-six-five.ron",
            "carnival-six-five",
        ] {
            let level = Level::built_in(Path::new(name))
                .expect("named")
                .expect("valid");
            assert_eq!(
                level.rules.rules().blackjack_pays,
                crate::engine::Payout::SixToFive
            );
        }
        assert!(Level::built_in(Path::new("carnival")).is_none());
    }

    #[test]
    fn a_preset_level_parses() {
        let level = Level::parse(
            Path::new("t.ron"),
            r#"(name: "Strip", rules: Preset(LasVegasStrip))"#,
        )
        .expect("valid level");
        assert_eq!(level.rules.rules(), Preset::LasVegasStrip.rules());
        assert_eq!(level.buy_in, Cents::units(1_000));
    }

    #[test]
    fn an_unknown_field_names_file_line_and_column() {
        let text = "(\n  name: \"X\",\n  rules: Custom((decks: 2, dekcs: 3)),\n)";
        let err = Level::parse(Path::new("levels/x.ron"), text).expect_err("typo");
        let message = err.to_string();
        assert!(message.starts_with("levels/x.ron:3:"), "{message}");
        assert!(message.contains("dekcs"), "{message}");
    }

    #[test]
    fn a_contradiction_points_at_the_field() {
        let text = "(\n  name: \"X\",\n  rules: Custom((\n    decks: 2,\n    max_split_hands: 2,\n    resplit_aces: true,\n  )),\n)";
        let err = Level::parse(Path::new("x.ron"), text).expect_err("contradiction");
        assert_eq!(
            err.to_string(),
            "x.ron:6:5: `resplit_aces`: resplitting aces needs `max_split_hands` of at least 3"
        );
    }

    #[test]
    fn two_companions_in_one_seat_are_refused() {
        let text = r#"(name: "X", rules: Preset(Carnival), player_seat: None, companions: [
            (name: "A", personality: ByTheBook, bankroll: 100000, seat: 2),
            (name: "B", personality: HighRoller, bankroll: 100000, seat: 2),
        ])"#;
        let err = Level::parse(Path::new("x.ron"), text).expect_err("same seat");
        assert!(
            err.to_string().contains("B: seat 2 is already taken"),
            "{err}"
        );
    }
}
