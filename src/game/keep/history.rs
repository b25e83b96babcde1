//! The player's hands in the game: recorded from the events the table shows (with the chart's play beside each
//! decision), kept in `history.json` beside the save (the last 10,000 natively, 1,000 in the browser; older hands fold
//! into the totals), and exported with `holecard --export-history FILE.csv|FILE.json`.

use crate::engine::{Cents, TableState};
use crate::game::model::frames::{DrawWhile, Redraw};
use crate::game::model::screen::Screen;
use crate::game::model::session::Session;
use crate::game::model::table::{Beats, Restored, SeatView};
use crate::game::store::Store;
use crate::host::history::{BROWSER_LIMIT, History, NATIVE_LIMIT, PlayedHand, now_ms};
use crate::host::record::Recorder;
use bevy::prelude::*;
use std::path::Path;

/// Where the history is kept, in the game's store.
pub const FILE: &str = "history.json";

/// The player's history, and the recorder following the table.
#[derive(Resource, Debug)]
pub struct Kept {
    /// Every hand kept, and the totals.
    pub history: History,
    /// Follows the table from when it opened.
    recorder: Option<Recorder>,
    /// Where it is written (none in headless runs and tests, or when there is nowhere to keep it).
    store: Option<Store>,
    /// Hands that ended since the last journal entry (they go in the next one).
    fresh: Vec<PlayedHand>,
    /// Hands not yet written, and when it was last written.
    unwritten: usize,
    written_at: Option<f64>,
    /// What went wrong reading or writing it.
    pub problem: Option<String>,
}

impl Default for Kept {
    fn default() -> Kept {
        Kept {
            history: History::new(limit()),
            recorder: None,
            store: None,
            fresh: Vec::new(),
            unwritten: 0,
            written_at: None,
            problem: None,
        }
    }
}

/// How many hands are kept as records here.
pub fn limit() -> usize {
    if cfg!(target_arch = "wasm32") {
        BROWSER_LIMIT
    } else {
        NATIVE_LIMIT
    }
}

impl Kept {
    /// The history kept in `store`. A damaged file is moved aside (never deleted) and said; the game goes on with
    /// an empty history, and the save and settings load as before.
    pub fn load(store: Store) -> Kept {
        let mut kept = Kept::default();
        match read(&store) {
            Ok(Some(history)) => kept.history = history,
            Ok(None) => {}
            Err(message) => {
                let (problem, moved) = match store.set_aside(FILE, &message) {
                    Ok(problem) => (problem, true),
                    Err(problem) => (problem, false),
                };
                error!("{problem}");
                kept.problem = Some(problem);
                if !moved {
                    // Never write over a history that could not be read or moved aside.
                    return kept;
                }
            }
        }
        // Hands journaled since the history was last written (a crash came before it was written again).
        match crate::game::keep::journal::read_journal(&store) {
            Ok(journal) => {
                let hands = journal.entries.into_iter().flat_map(|entry| entry.hands);
                let added = kept.history.extend_new(hands);
                kept.unwritten += added;
            }
            Err(message) => warn!("{message}; the hands in it are not in the history"),
        }
        kept.history.limit = limit();
        kept.store = Some(store);
        kept
    }

    /// The round under way as recorded so far.
    pub fn recorder(&self) -> Option<&Recorder> {
        self.recorder.as_ref()
    }

    /// Hands that ended since the last journal entry.
    pub fn fresh(&self) -> &[PlayedHand] {
        &self.fresh
    }

    /// The fresh hands are in the journal now.
    pub fn journaled(&mut self) {
        self.fresh.clear();
    }

    /// Keeps the history in `store` from now on, going on from what it holds there (the recording under way is
    /// kept).
    pub fn keep_in(&mut self, store: Store) {
        let recorder = self.recorder.take();
        *self = Kept::load(store);
        self.recorder = recorder;
    }

    /// Writes the hands not yet written, at most every two seconds while playing (a fast table plays many rounds a
    /// second); `now` in seconds. Leaving the table and quitting write at once ([`Kept::write`]).
    pub fn write_due(&mut self, now: f64) {
        if self.unwritten > 0 && self.written_at.is_none_or(|at| now - at >= 2.0) {
            self.write();
            self.written_at = Some(now);
        }
    }

    /// Writes the hands not yet written.
    pub fn write(&mut self) {
        let Some(store) = &self.store else {
            return;
        };
        if self.unwritten == 0 {
            return;
        }
        let written = serde_json::to_string(&self.history)
            .map_err(|e| format!("cannot write the history: {e}"))
            .and_then(|text| store.write(FILE, &text));
        match written {
            Ok(()) => self.unwritten = 0,
            Err(problem) => {
                error!("{problem}");
                self.problem = Some(problem);
            }
        }
    }
}

/// The history in `store`, if there is one.
fn read(store: &Store) -> Result<Option<History>, String> {
    let Some(text) = store.read(FILE)? else {
        return Ok(None);
    };
    let history: History = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}:{}: {e}",
            store.place(FILE).display(),
            e.line(),
            e.column()
        )
    })?;
    if history.version != crate::host::history::VERSION {
        return Err(format!(
            "{}: a history of version {}, not {}",
            store.place(FILE).display(),
            history.version,
            crate::host::history::VERSION
        ));
    }
    Ok(Some(history))
}

/// `holecard --export-history FILE`: the kept history as CSV (`.csv`) or JSON (`.json`); how many hands.
pub fn export(to: &Path) -> Result<usize, String> {
    let store = Store::platform().ok_or("there is no data folder here, so no history")?;
    export_from(&store, to)
}

/// The history kept in `store`, exported to `to`.
fn export_from(store: &Store, to: &Path) -> Result<usize, String> {
    let history = read(store)?.unwrap_or_else(|| History::new(limit()));
    let text = match to.extension().and_then(|e| e.to_str()) {
        Some("csv") => history.to_csv()?,
        Some("json") => history.to_json()?,
        _ => {
            return Err(format!(
                "{}: the history is exported as .csv or .json",
                to.display()
            ));
        }
    };
    std::fs::write(to, text).map_err(|e| format!("cannot write {}: {e}", to.display()))?;
    Ok(history.hands.len())
}

/// The recorder hears the frame's news: after every system that acts at the table, before the journal.
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Recording;

/// Recording, in every app (the window's and the browser's also keep it on disk: [`keep_on_disk`]).
pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Kept>()
        .add_systems(
            Last,
            record.in_set(Recording).run_if(in_state(Screen::Table)),
        )
        .add_systems(OnExit(Screen::Table), write_now)
        .add_systems(Last, write_on_quit.after(bevy::window::ExitSystems))
        // Hands not yet written are written within two seconds, by a frame: the window draws until then (not when
        // writing failed: that is said, and tried again with the next hands).
        .draw_while(
            Redraw::EveryFrame,
            in_state(Screen::Table).and_then(|kept: Res<Kept>| {
                kept.unwritten > 0 && kept.store.is_some() && kept.problem.is_none()
            }),
        );
}

/// Reads the platform's history and keeps it there.
pub(crate) fn keep_on_disk(app: &mut App) {
    if let Some(store) = Store::platform() {
        app.insert_resource(Kept::load(store));
    }
}

/// On opening the table (right after its view is made): follow it from here, or go on with the round a restored
/// sitting was recording.
pub(crate) fn start_recording(
    view: Option<Res<SeatView>>,
    restored: Option<Res<Restored>>,
    replaying: Option<Res<crate::game::model::seat::Replay>>,
    online: Option<Res<crate::game::model::table::OnlineTable>>,
    session: Res<Session>,
    mut kept: ResMut<Kept>,
    options: Option<Res<crate::game::model::settings::PlayOptions>>,
) {
    // Watching, there is nothing of the player's to keep; a replay was kept already; a casino keeps its own
    // players' hands (its history page).
    let playing = session.player_seat.is_some() && replaying.is_none() && online.is_none();
    // Decisions off the chart are priced exactly, on the cards the seat had not seen: the player's own, and every
    // seat's where the history keeps every seat's hands.
    let every_seat = options.is_some_and(|o| o.keep_every_seat);
    kept.recorder = view.filter(|_| playing).map(|view| {
        restored
            .and_then(|r| r.recorder.clone())
            .unwrap_or_else(|| {
                let recorder = Recorder::following(view.0.clone());
                match session.player_seat {
                    _ if every_seat => recorder.pricing_every_seat_exactly(),
                    Some(seat) => recorder.pricing_exactly(seat),
                    None => recorder,
                }
            })
    });
    kept.fresh.clear();
}

/// Hears what the table decided this frame (the animation shows it later); at each round's end, keeps the player's
/// hands (whoever plays the seat: the player, or the AI with `--autoplay`).
fn record(
    mut beats: ResMut<Beats>,
    mut kept: ResMut<Kept>,
    session: Res<Session>,
    journal: Option<Res<crate::game::keep::slot::SaveSlot>>,
    options: Option<Res<crate::game::model::settings::PlayOptions>>,
    (time, dealt): (
        Res<Time<Real>>,
        Option<Res<crate::game::model::next_round::Dealt>>,
    ),
) {
    let every_seat = options.is_some_and(|o| o.keep_every_seat);
    let kept = &mut *kept;
    let decided = beats.take_decided();
    let Some(recorder) = kept.recorder.as_mut() else {
        return;
    };
    for event in &decided {
        let Some(round) = recorder.hear(event) else {
            continue;
        };
        let Some(player) = session.player_seat else {
            continue;
        };
        // The player's seat, and on request every other seat that played the round.
        let seats: Vec<_> = round
            .seats
            .iter()
            .map(|s| s.seat)
            .filter(|&seat| seat == player || every_seat)
            .collect();
        let rules = session.level.rules.rules().to_string();
        let at = now_ms();
        for seat in seats {
            let bankroll = recorder
                .view()
                .map(|v| v.seats()[usize::from(seat)].chips())
                .unwrap_or_default();
            let hands =
                PlayedHand::from_round(&session.level.name, &rules, &round, seat, bankroll, at);
            // The round's expected result as it was dealt, where it was worked out: on its first hand, the rest
            // of its hands nothing more.
            let expected = dealt
                .as_deref()
                .filter(|d| seat == player && d.round == round.round)
                .and_then(|d| d.expected);
            for mut hand in hands {
                hand.yours = seat == player;
                hand.expected = expected.map(|e| if hand.hand == 0 { e } else { Cents::ZERO });
                if journal.is_some() {
                    kept.fresh.push(hand.clone());
                }
                kept.history.push(hand);
                kept.unwritten += 1;
            }
        }
    }
    // With a journal, the history is written after the journal entry holding its new hands is synced (a history
    // ahead of the journal would keep a round that a crash then plays again from an earlier entry).
    if journal.is_none() {
        kept.write_due(time.elapsed_secs_f64());
    }
}

// With a journal, the save writes the history when it folds the journal in (after the last entry), not here.
fn write_now(mut kept: ResMut<Kept>, journal: Option<Res<crate::game::keep::slot::SaveSlot>>) {
    if journal.is_none() {
        kept.write();
    }
}

fn write_on_quit(
    mut exits: MessageReader<AppExit>,
    mut kept: ResMut<Kept>,
    journal: Option<Res<crate::game::keep::slot::SaveSlot>>,
) {
    if exits.read().next().is_some() && journal.is_none() {
        kept.write();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Cents;

    #[test]
    fn every_seat_is_kept_on_request_and_the_totals_stay_the_players() {
        let level = crate::host::level::Level::load_or_default(None).expect("the default level");
        let seat = level.player_seat.expect("a seat for the player");
        let mut app = crate::game::platform::headless::app_with(
            level,
            7,
            crate::game::model::settings::Speed::Instant,
            true,
        )
        .expect("the app");
        app.world_mut()
            .resource_mut::<crate::game::model::settings::PlayOptions>()
            .keep_every_seat = true;
        for _ in 0..20_000 {
            let kept = app.world().resource::<Kept>();
            if kept.history.hands.iter().filter(|h| h.yours).count() >= 20 {
                break;
            }
            app.update();
        }
        let history = &app.world().resource::<Kept>().history;
        let (yours, others): (Vec<&PlayedHand>, Vec<&PlayedHand>) =
            history.hands.iter().partition(|h| h.yours);
        assert!(yours.len() >= 20 && yours.iter().all(|h| h.seat == seat));
        assert!(
            !others.is_empty() && others.iter().all(|h| h.seat != seat),
            "the companions' hands are kept too"
        );
        // The statistics are the player's own.
        let totals = history.totals();
        assert_eq!(totals.hands, yours.len() as u64);
        assert_eq!(
            totals.net,
            yours.iter().map(|h| h.total_net()).sum::<Cents>()
        );
        // Every seat's round replays on its own.
        let level = crate::host::level::Level::load_or_default(None).expect("the default level");
        let rules = crate::game::model::session::table_rules(&level);
        for round in crate::host::replay::rounds(&history.hands) {
            crate::host::replay::replay(&rules, Cents::units(10_000), &round)
                .unwrap_or_else(|e| panic!("seat {}: {e}: {round:?}", round[0].seat));
        }
    }

    #[test]
    fn an_autoplayed_seat_is_recorded_round_after_round_with_its_chips() {
        let level = crate::host::level::Level::load_or_default(None).expect("the default level");
        let buy_in = level.buy_in;
        let seat = level
            .player_seat
            .expect("the default level has a seat for the player");
        let mut app = crate::game::platform::headless::app_with(
            level,
            7,
            crate::game::model::settings::Speed::Instant,
            true,
        )
        .expect("the app");
        // The autoplayed seat sits down with the table's buy-in.
        let start = buy_in;
        let rounds = |app: &App| {
            let hands = &app.world().resource::<Kept>().history.hands;
            hands.back().map_or(0, |h| h.round)
        };
        for _ in 0..20_000 {
            if rounds(&app) >= 40 {
                break;
            }
            app.update();
        }
        let kept = app.world().resource::<Kept>();
        let history = &kept.history;
        assert!(rounds(&app) >= 40, "40 rounds were played and recorded");
        // Every round from the first, none twice; the nets are the chips' change, round by round.
        let mut expected = 1;
        let mut bankroll = start;
        let mut hands = history.hands.iter().peekable();
        while let Some(first) = hands.next() {
            assert_eq!(first.round, expected, "no round missing or twice");
            bankroll += first.total_net();
            while let Some(next) = hands.next_if(|h| h.round == first.round) {
                bankroll += next.total_net();
            }
            assert_eq!(first.bankroll, bankroll, "round {}", first.round);
            expected += 1;
        }
        assert_eq!(start + history.totals().net, bankroll);
        assert!(
            history
                .hands
                .iter()
                .all(|h| h.seat == seat && h.table == "Las Vegas Strip")
        );
        assert!(
            history.totals().decisions > 0 && history.totals().off_book == 0,
            "the autoplaying AI plays the chart: {:?}",
            history.totals()
        );
        assert_ne!(bankroll, Cents::ZERO);

        // Kept on disk, it reads back whole and exports; a damaged file is set aside and said.
        let dir = std::env::temp_dir().join(format!("holecard-history-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Store::Folder(dir.clone());
        let mut disk = Kept::load(store.clone());
        disk.history = history.clone();
        disk.unwritten = 1;
        disk.write();
        assert_eq!(Kept::load(store.clone()).history, *history);
        let csv = dir.join("hands.csv");
        assert_eq!(export_from(&store, &csv), Ok(history.hands.len()));
        let text = std::fs::read_to_string(&csv).expect("the export");
        assert_eq!(
            text.lines().count(),
            history.hands.len() + 1,
            "a header and a row a hand"
        );
        assert!(export_from(&store, &dir.join("hands.txt")).is_err());
        store
            .write(FILE, "{\"version\": 1, \"hands\": [")
            .expect("a damaged file");
        let damaged = Kept::load(store.clone());
        assert!(damaged.history.hands.is_empty());
        let problem = damaged.problem.expect("the damage is said");
        assert!(
            problem.contains("history.json:1:") && problem.contains("kept as"),
            "{problem}"
        );
        assert!(dir.join("history.json.damaged").is_file());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
