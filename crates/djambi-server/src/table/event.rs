//! The events of a game's log: each is one change of the game (a turn, a resignation, a draw
//! offer, a seat handed to a bot, a vote, a takeback, a timeout, …), small and `Copy`, so a game
//! keeps its whole log in memory. Applying them in order ([`GameState::apply`]) rebuilds the
//! game exactly, clocks included.
//!
//! [`GameState::apply`]: super::GameState::apply

use djambi_core::{ArmySet, Player, Turn};
use djambi_engine::Level;
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// What an event of the log records (enough to replay it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A turn (a pass included), by `player`.
    Turn {
        /// Who played it.
        player: Player,
        /// The turn (stored as its canonical text).
        turn: Turn,
    },
    /// A resignation.
    Resign(Player),
    /// A draw offer.
    DrawOffered(Player),
    /// An agreement to the pending offer, not yet from everyone.
    DrawAccepted(Player),
    /// A refusal (or withdrawal) of the pending offer.
    DrawDeclined(Player),
    /// The last agreement: the game is drawn.
    DrawAgreed {
        /// Whose agreement completed it.
        by: Player,
        /// Living players whose agreement was not needed (away for longer than the grace).
        excused: ArmySet,
    },
    /// The game was called off before it ended.
    Cancelled(CancelReason),
    /// Every seat is taken: the game (and its clock) starts.
    Started,
    /// A bot plays the seat from now on.
    SeatToBot {
        /// The seat.
        player: Player,
        /// The bot's level.
        level: Level,
        /// Why.
        reason: BotReason,
    },
    /// The seat's player took it back from the bot.
    SeatToHuman(Player),
    /// A vote on an absent player opened (its author votes yes).
    VoteOpened {
        /// Who opened it.
        by: Player,
        /// The absent player.
        target: Player,
        /// What it would do.
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
    TakebackRequested(Player),
    /// A player answered the takeback request.
    TakebackAnswered {
        /// Who answered.
        by: Player,
        /// Agreed or not (a no drops the request).
        yes: bool,
    },
    /// The requester's last turn (and the passes it forced) is taken back.
    TakenBack(Player),
    /// The player's clock or deadline ran out (what the game does about it follows).
    Timeout(Player),
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
            Turn { player, .. } | SeatToBot { player, .. } => Some(player),
            Resign(p) | DrawOffered(p) | DrawAccepted(p) | DrawDeclined(p) | SeatToHuman(p)
            | TakebackRequested(p) | TakenBack(p) | Timeout(p) => Some(p),
            DrawAgreed { by, .. }
            | VoteOpened { by, .. }
            | VoteCast { by, .. }
            | TakebackAnswered { by, .. } => Some(by),
            Cancelled(_) | Started | VoteClosed { .. } | Paused { .. } => None,
        }
    }

    /// The kind's name (as the protocol and the database call it).
    pub fn name(&self) -> &'static str {
        use EventKind::*;
        match self {
            Turn { .. } => "turn",
            Resign(_) => "resign",
            DrawOffered(_) => "draw_offered",
            DrawAccepted(_) => "draw_accepted",
            DrawDeclined(_) => "draw_declined",
            DrawAgreed { .. } => "draw_agreed",
            Cancelled(_) => "cancelled",
            Started => "started",
            SeatToBot { .. } => "seat_to_bot",
            SeatToHuman(_) => "seat_to_human",
            VoteOpened { .. } => "vote_opened",
            VoteCast { .. } => "vote_cast",
            VoteClosed { .. } => "vote_closed",
            TakebackRequested(_) => "takeback_requested",
            TakebackAnswered { .. } => "takeback_answered",
            TakenBack(_) => "taken_back",
            Timeout(_) => "timeout",
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

impl CancelReason {
    /// The reason as stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            CancelReason::Expired => "expired",
            CancelReason::Creator => "creator",
        }
    }

    /// Parses [`as_str`](CancelReason::as_str)'s output.
    pub fn parse(s: &str) -> Option<CancelReason> {
        match s {
            "expired" => Some(CancelReason::Expired),
            "creator" => Some(CancelReason::Creator),
            _ => None,
        }
    }
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

impl BotReason {
    /// As stored.
    pub fn as_str(self) -> &'static str {
        match self {
            BotReason::Creator => "creator",
            BotReason::Timeout => "timeout",
            BotReason::Vote => "vote",
        }
    }

    /// Parses [`as_str`](BotReason::as_str)'s output.
    pub fn parse(s: &str) -> Option<BotReason> {
        match s {
            "creator" => Some(BotReason::Creator),
            "timeout" => Some(BotReason::Timeout),
            "vote" => Some(BotReason::Vote),
            _ => None,
        }
    }
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

/// On the wire a vote's action names no level (`"bot"` or `"resign"`; the level goes apart).
impl Serialize for VoteAction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            VoteAction::Bot(_) => "bot",
            VoteAction::Resign => "resign",
        })
    }
}
