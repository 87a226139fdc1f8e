//! The versioned events of a game and the state fields they carry (PROTOCOL §3.3, §3.5),
//! written compactly: players as letters, pieces as codes, fields left out when none. An event's
//! own fields are the table's [`EventKind`] as it is: no kind is spelled out here.

use djambi_core::{Army, Controller, Player, ResultRecord};
use serde::{Serialize, Serializer};

use super::effect::EffectsView;
use super::lifecycle::ClockView;
use crate::table::EventKind;

/// Who controls each army, written as four letters in army order (red, blue, yellow, green):
/// a player's letter, `-` (orphaned) or `h` (the hostage). `"rbyg"`: each army its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ControlView {
    /// Red's army.
    pub r: Controller,
    /// Blue's army.
    pub b: Controller,
    /// Yellow's army.
    pub y: Controller,
    /// Green's army.
    pub g: Controller,
}

impl ControlView {
    /// The control of the four armies through `f`.
    pub fn from_fn(f: impl Fn(Army) -> Controller) -> ControlView {
        ControlView {
            r: f(Army::Red),
            b: f(Army::Blue),
            y: f(Army::Yellow),
            g: f(Army::Green),
        }
    }
}

impl Serialize for ControlView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let letters = [self.r, self.b, self.y, self.g].map(|c| c.char() as u8);
        s.serialize_str(std::str::from_utf8(&letters).expect("ASCII letters"))
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Players written as one string of their letters (`"byg"`).
fn letters<S: Serializer>(players: &[Player], s: S) -> Result<S::Ok, S::Error> {
    let text: String = players.iter().map(|p| p.char()).collect();
    s.serialize_str(&text)
}

/// A ranking written as one string of letters per rank (`["r", "by", "g"]`).
fn ranks<S: Serializer>(ranking: &[Vec<Player>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(
        ranking
            .iter()
            .map(|rank| rank.iter().map(|p| p.char()).collect::<String>()),
    )
}

/// The state of the game after an event: everything a client needs to show it without a rules
/// engine, except the legal turns, which only the player to move receives (a `legal` message).
/// Flattened into snapshots and into the events that change the position. Fields that are
/// usually empty are left out when they are: `ruler`, `result` and `clock`.
#[derive(Clone, Debug, Serialize)]
pub struct StateView {
    /// The position (NOTATION §2), for the board and for a client to check itself.
    pub dpn: String,
    /// The player to move, none when the game is over.
    pub to_move: Option<Player>,
    /// The ruler's bonus turns still owed, counting the current one (left out: none).
    #[serde(skip_serializing_if = "is_zero")]
    pub bonus: u8,
    /// The coming turn order, starting with `to_move`, as letters (`"bygrbygr"`).
    #[serde(serialize_with = "letters")]
    pub order: Vec<Player>,
    /// The ruler (chief in the maze), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruler: Option<Player>,
    /// Who controls each army.
    pub control: ControlView,
    /// The players out of the game, in base order, as letters (left out: nobody).
    #[serde(serialize_with = "letters", skip_serializing_if = "Vec::is_empty")]
    pub eliminated: Vec<Player>,
    /// The ranking so far (R9.7), best first, each rank as letters.
    #[serde(serialize_with = "ranks")]
    pub ranking: Vec<Vec<Player>>,
    /// The result once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultRecord>,
    /// The clock of a timed game (left out: no clock).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
}

/// One versioned event: the table's event in its own serde form (tagged by `kind`, the fields
/// it records), with what its view adds: a turn's `number` and `effects` (a resignation's
/// effects too), the versions a takeback `undone`, and — for the events that change what a
/// board shows ([`EventKind::shows_state`]) — the state after it, flattened.
#[derive(Clone, Debug, Serialize)]
pub struct EventView {
    /// The event as the log records it.
    #[serde(flatten)]
    pub event: EventKind,
    /// The turn's number, for a turn.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// What a turn or a resignation changed, in order (the core's effects, pieces as codes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub effects: Option<EffectsView>,
    /// The versions of the turns a takeback removed (they leave the turn list).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub undone: Vec<u64>,
    /// The state after it, for the events that change what a board shows.
    #[serde(flatten)]
    pub state: Option<StateView>,
}
