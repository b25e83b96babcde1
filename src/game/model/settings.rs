//! What the player sets and the game remembers between launches: the table's pace, standing on 21, how cards are
//! printed and how loud each channel plays. Plain data the model, the presentation and saves share.

use bevy::prelude::*;

/// How fast the table moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Speed {
    /// A casino's pace.
    #[default]
    Normal,
    /// Brisk.
    Fast,
    /// No waiting at all (tests, soaks, skipping animations).
    Instant,
}

impl Speed {
    /// Seconds something that takes `seconds` at normal speed takes at this speed: every pause and motion of the
    /// table scales by this one rule.
    pub fn seconds(self, seconds: f32) -> f32 {
        match self {
            Speed::Normal => seconds,
            Speed::Fast => seconds / 3.0,
            Speed::Instant => 0.0,
        }
    }
}

/// Player preferences the table follows.
#[derive(Resource, Clone, Copy, Debug, PartialEq)]
pub struct PlayOptions {
    /// Stand by itself on a total of 21.
    pub auto_stand_21: bool,
    /// Keep every seat's hands in the history, not only the player's (the statistics stay the player's own).
    pub keep_every_seat: bool,
    /// The advisor: each legal play's exact value on the cards this seat has not seen, beside the buttons.
    pub advisor: bool,
    /// The count beside the shoe: running count, true count, decks left.
    pub show_count: bool,
    /// Which system counts: an index into `engine::count::systems()` (Hi-Lo first).
    pub count_system: u8,
    /// The coach: a play off the chart (or the index play, with the count shown) is stopped once and explained.
    pub coach: bool,
    /// With the count hidden, the table asks for the player's running count when the cut card comes out (the
    /// trainer's last step).
    pub count_quiz: bool,
    /// The share of Kelly's bet the advisor suggests between rounds, in percent (a quarter, a half or all of it).
    pub kelly_percent: u8,
    /// Work out each round's expected result as it is dealt (the next round's exact value, and the side bets'),
    /// so that Statistics can tell luck from skill: on another thread natively, in short pieces each frame in the browser.
    pub luck: bool,
}

impl PlayOptions {
    /// The counting system chosen (Hi-Lo where the choice is out of range).
    pub fn count_system(&self) -> &'static crate::engine::count::System {
        let systems = crate::engine::count::systems();
        systems
            .get(usize::from(self.count_system))
            .unwrap_or(crate::engine::count::hi_lo())
    }
}

impl Default for PlayOptions {
    fn default() -> PlayOptions {
        PlayOptions {
            auto_stand_21: true,
            keep_every_seat: false,
            advisor: false,
            show_count: false,
            count_system: 0,
            coach: false,
            count_quiz: false,
            kelly_percent: 50,
            luck: false,
        }
    }
}

/// How to play has been offered on the Title: on the first start it is, once, and this is remembered with the
/// settings so that it is not offered again.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Welcomed(pub bool);

/// How cards are printed: the player's choice in Settings.
#[derive(
    Resource, Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize,
)]
#[serde(default)]
pub struct Look {
    /// Clubs green and diamonds blue.
    pub four_colour: bool,
    /// Jumbo corner indices (and a wider fan so they show).
    pub large_index: bool,
    /// Fades instead of slides, flips and flying chips.
    pub reduced_motion: bool,
}

/// One channel's setting.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Fader {
    /// 0 (silent) to 1 (full).
    pub volume: f32,
    /// Off, whatever the volume.
    pub muted: bool,
}

impl Default for Fader {
    fn default() -> Fader {
        Fader {
            volume: 0.7,
            muted: false,
        }
    }
}

/// The player's volumes, remembered between launches.
#[derive(
    Resource, Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize,
)]
#[serde(default)]
pub struct Mix {
    /// Lounge music.
    pub music: Fader,
    /// Casino murmur.
    pub ambience: Fader,
    /// Cards, chips and results.
    pub effects: Fader,
}
