//! The events of a game's log: each is one change of the game (a turn, a resignation, a draw
//! offer, a seat handed to a bot, a vote, a takeback, a timeout, …), small and `Copy`, so a game
//! keeps its whole log in memory. Applying them in order ([`GameState::apply`]) rebuilds the
//! game exactly, clocks included.
//!
//! [`EventKind`] is the one vocabulary of events: its serde form (tagged by `kind`, fields named
//! as the protocol names them) is what the database stores and what the socket sends, each
//! adding only what it derives (the store its columns, the wire the state after the event). A
//! new kind of event is a variant here and its arm in `state/apply.rs`; the client narrates it
//! (docs/SERVER.md, "Adding an event").
//!
//! [`GameState::apply`]: super::GameState::apply

use djambi_core::{ArmySet, Player, Turn};
use djambi_engine::Level;
use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use super::settings::BotLevel;

/// What an event of the log records (enough to replay it), in the form the database stores and
/// the socket sends: `{"kind": "draw_offered", "by": "r"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventKind {
    /// A turn (a pass included), by `player`.
    Turn {
        /// Who played it.
        player: Player,
        /// The turn (as its canonical text).
        turn: Turn,
    },
    /// A resignation.
    Resign {
        /// Who resigned.
        player: Player,
    },
    /// A draw offer.
    DrawOffered {
        /// Who offered it.
        by: Player,
    },
    /// An agreement to the pending offer, not yet from everyone.
    DrawAccepted {
        /// Who agreed.
        by: Player,
    },
    /// A refusal (or withdrawal) of the pending offer.
    DrawDeclined {
        /// Who declined.
        by: Player,
    },
    /// The last agreement: the game is drawn.
    DrawAgreed {
        /// Whose agreement completed it.
        by: Player,
        /// Living players whose agreement was not needed (away for longer than the grace; left
        /// out when nobody was).
        #[serde(default, skip_serializing_if = "is_nobody")]
        excused: ArmySet,
    },
    /// The game was called off before it ended.
    Cancelled {
        /// Why.
        reason: CancelReason,
    },
    /// Every seat is taken: the game (and its clock) starts.
    Started,
    /// A bot plays the seat from now on.
    SeatToBot {
        /// The seat.
        player: Player,
        /// The bot's level.
        #[serde(with = "level_name")]
        level: Level,
        /// Why.
        reason: BotReason,
    },
    /// The seat's player took it back from the bot.
    SeatToHuman {
        /// The seat.
        player: Player,
    },
    /// A vote on an absent player opened (its author votes yes).
    VoteOpened {
        /// Who opened it.
        by: Player,
        /// The absent player.
        target: Player,
        /// What it would do (`"action"`, and `"level"` for a bot).
        #[serde(flatten)]
        action: VoteAction,
        /// Who may vote.
        voters: ArmySet,
    },
    /// A vote was cast.
    VoteCast {
        /// Who voted.
        by: Player,
        /// Yes or no.
        yes: bool,
    },
    /// The vote closed: passed (its action follows as the next event) or not.
    VoteClosed {
        /// Whether a majority said yes.
        passed: bool,
    },
    /// A player asks to take back their last turn.
    TakebackRequested {
        /// Who asks.
        by: Player,
    },
    /// A player answered the takeback request.
    TakebackAnswered {
        /// Who answered.
        by: Player,
        /// Agreed or not (a no drops the request).
        yes: bool,
    },
    /// The requester's last turn (and the passes it forced) is taken back.
    TakenBack {
        /// Whose turn.
        player: Player,
    },
    /// The player's clock or deadline ran out (what the game does about it follows).
    Timeout {
        /// Whose.
        player: Player,
    },
    /// The server was down from `from` to `until` (ms): nobody's clock ran meanwhile.
    Paused {
        /// The server's last sign of life.
        from: i64,
        /// When it came back.
        until: i64,
    },
}

impl EventKind {
    /// The player who acted; none for the server's own events.
    pub fn player(&self) -> Option<Player> {
        use EventKind::*;
        match *self {
            Turn { player, .. }
            | Resign { player }
            | SeatToBot { player, .. }
            | SeatToHuman { player }
            | TakenBack { player }
            | Timeout { player } => Some(player),
            DrawOffered { by }
            | DrawAccepted { by }
            | DrawDeclined { by }
            | DrawAgreed { by, .. }
            | VoteOpened { by, .. }
            | VoteCast { by, .. }
            | TakebackRequested { by }
            | TakebackAnswered { by, .. } => Some(by),
            Cancelled { .. } | Started | VoteClosed { .. } | Paused { .. } => None,
        }
    }

    /// The turn, for a turn.
    pub fn turn(&self) -> Option<Turn> {
        match *self {
            EventKind::Turn { turn, .. } => Some(turn),
            _ => None,
        }
    }

    /// The seat whose player a bot replaced against their will (a vote or a timeout), for such
    /// an event: in a circle's standings that player is out at that moment.
    pub fn seat_taken_over(&self) -> Option<Player> {
        match *self {
            EventKind::SeatToBot {
                player,
                reason: BotReason::Vote | BotReason::Timeout,
                ..
            } => Some(player),
            _ => None,
        }
    }

    /// Whether the event rewinds the game (a takeback): the state before it must keep its
    /// history, to roll back to.
    pub fn rewinds(&self) -> bool {
        matches!(self, EventKind::TakenBack { .. })
    }

    /// Whether the event changes what a board shows (the position, who controls what, the
    /// clock, a seat's bot): such events carry the state after them on the wire.
    pub fn shows_state(&self) -> bool {
        use EventKind::*;
        match self {
            Turn { .. }
            | Resign { .. }
            | DrawAgreed { .. }
            | Started
            | SeatToBot { .. }
            | SeatToHuman { .. }
            | TakenBack { .. }
            | Paused { .. } => true,
            DrawOffered { .. }
            | DrawAccepted { .. }
            | DrawDeclined { .. }
            | Cancelled { .. }
            | VoteOpened { .. }
            | VoteCast { .. }
            | VoteClosed { .. }
            | TakebackRequested { .. }
            | TakebackAnswered { .. }
            | Timeout { .. } => false,
        }
    }

    /// The kind's name (as the protocol and the database call it: its serde tag).
    pub fn name(&self) -> &'static str {
        use EventKind::*;
        match self {
            Turn { .. } => "turn",
            Resign { .. } => "resign",
            DrawOffered { .. } => "draw_offered",
            DrawAccepted { .. } => "draw_accepted",
            DrawDeclined { .. } => "draw_declined",
            DrawAgreed { .. } => "draw_agreed",
            Cancelled { .. } => "cancelled",
            Started => "started",
            SeatToBot { .. } => "seat_to_bot",
            SeatToHuman { .. } => "seat_to_human",
            VoteOpened { .. } => "vote_opened",
            VoteCast { .. } => "vote_cast",
            VoteClosed { .. } => "vote_closed",
            TakebackRequested { .. } => "takeback_requested",
            TakebackAnswered { .. } => "takeback_answered",
            TakenBack { .. } => "taken_back",
            Timeout { .. } => "timeout",
            Paused { .. } => "paused",
        }
    }
}

/// One event of a game's log, as committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Its version (the first event is 1).
    pub v: u64,
    /// What happened.
    pub kind: EventKind,
    /// The ack id of the command that made it (the acting player's).
    pub ack: Option<u64>,
    /// When (ms since the Unix epoch).
    pub at: i64,
}

/// Why a game was called off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CancelReason {
    /// Nobody claimed or touched it for too long.
    Expired,
    /// Its creator cancelled it before it started.
    Creator,
}

/// Why a bot plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BotReason {
    /// The creator gave the seat to a bot.
    Creator,
    /// The player's clock or deadline ran out.
    Timeout,
    /// The other players voted, the player being away.
    Vote,
}

/// What a vote on an absent player would do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoteAction {
    /// Hand the seat to a bot of this level.
    Bot(Level),
    /// Make the player resign.
    Resign,
}

impl VoteAction {
    /// As text (`bot:medium`, `resign`).
    pub fn to_text(self) -> String {
        match self {
            VoteAction::Bot(level) => format!("bot:{level}"),
            VoteAction::Resign => "resign".into(),
        }
    }

    /// Parses [`to_text`](VoteAction::to_text)'s output.
    pub fn parse(s: &str) -> Option<VoteAction> {
        match s.split_once(':') {
            Some(("bot", level)) => level.parse().ok().map(VoteAction::Bot),
            None if s == "resign" => Some(VoteAction::Resign),
            _ => None,
        }
    }
}

/// A vote's action is written as fields of what holds it (`#[serde(flatten)]`): `"action":
/// "bot"` with the bot's `"level"`, or `"action": "resign"`.
impl Serialize for VoteAction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            VoteAction::Bot(level) => {
                let mut map = s.serialize_map(Some(2))?;
                map.serialize_entry("action", "bot")?;
                map.serialize_entry("level", &BotLevel(*level))?;
                map.end()
            }
            VoteAction::Resign => {
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry("action", "resign")?;
                map.end()
            }
        }
    }
}

/// Reads what [`VoteAction`]'s `Serialize` writes.
impl<'de> Deserialize<'de> for VoteAction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<VoteAction, D::Error> {
        #[derive(Deserialize)]
        #[serde(rename_all = "snake_case")]
        enum Kind {
            Bot,
            Resign,
        }
        #[derive(Deserialize)]
        struct Fields {
            action: Kind,
            level: Option<BotLevel>,
        }
        let f = Fields::deserialize(d)?;
        match (f.action, f.level) {
            (Kind::Bot, Some(level)) => Ok(VoteAction::Bot(level.0)),
            (Kind::Bot, None) => Err(de::Error::custom("a vote for a bot names its level")),
            (Kind::Resign, _) => Ok(VoteAction::Resign),
        }
    }
}

/// Whether a set of players is empty (serde's `skip_serializing_if` passes a reference).
fn is_nobody(set: &ArmySet) -> bool {
    set.is_empty()
}

/// A bot level by its name (`"medium"`), for the events' `level` fields.
mod level_name {
    use super::*;

    pub fn serialize<S: Serializer>(level: &Level, s: S) -> Result<S::Ok, S::Error> {
        BotLevel(*level).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Level, D::Error> {
        BotLevel::deserialize(d).map(|l| l.0)
    }
}
