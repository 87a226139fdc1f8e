//! The one command vocabulary of a game: every request a socket, an HTTP handler or another
//! node makes of a game is a [`Call`], answered by one [`Answer`] after its commit. A game this
//! node runs takes the call into its actor's inbox; a game another node runs gets the same
//! value over the cluster (serde) and answers the same way. Adding a command is a variant here,
//! its handling in the actor, and its edge.

use djambi_core::{Player, Rules};
use serde::{Deserialize, Serialize};

use super::outbound::{Outbound, Text};
use super::viewer::Viewer;
use crate::protocol::http::ClaimedSeat;
use crate::table::{
    Action, AdminAnswer, AdminError, AdminWhat, ClaimError, HintRefusal, MemberSeat,
};

/// A request to a game.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Call {
    /// A connection joins (with a seat token, or as a spectator).
    Join(JoinRequest),
    /// A connection left (nothing to answer).
    Leave {
        /// Its id.
        conn: u64,
    },
    /// A connection's command.
    Act {
        /// Who sends it (as the game told it at its join).
        viewer: Viewer,
        /// Its ack id.
        ack: u64,
        /// What to do.
        action: Action,
    },
    /// A connection asks for what it missed.
    Sync {
        /// Who asks.
        viewer: Viewer,
        /// The last version it saw (none: a snapshot).
        since: Option<u64>,
    },
    /// An HTTP claim of a seat.
    Claim {
        /// An invite's token (that seat), or none (a free seat of an open game).
        token: Option<String>,
        /// The seat wanted, without a token.
        player: Option<Player>,
        /// The display name.
        name: Option<String>,
        /// A member of the game's circle (checked against the circle by the edge), who may
        /// take a free seat of an invitation-only game.
        member: Option<MemberSeat>,
    },
    /// The public snapshot.
    Snapshot,
    /// The game record.
    Record,
    /// The creator's action, with the admin token presented.
    Admin {
        /// The admin token.
        token: String,
        /// What to do.
        what: AdminWhat,
    },
    /// Which seat a token holds (an HTTP request made with a seat token: a Web Push
    /// subscription).
    Seat {
        /// The token presented.
        token: String,
    },
    /// Cancel the game if it waits for players and was last touched before `before` (ms).
    Expire {
        /// The limit.
        before: i64,
    },
    /// A seat asks what to think about for a hint ("show a good turn"), with its token.
    Hint {
        /// The seat token.
        token: String,
    },
}

/// A game's answer to a [`Call`].
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Answer {
    /// Joined (who the connection is, and what to send it first), or why not.
    Joined(Result<Entry, JoinError>),
    /// A command's answer (after its commit).
    Reply(Reply),
    /// Messages to send (a sync's answer).
    Messages(Vec<Outbound>),
    /// A claim's answer.
    Claimed(Result<ClaimedSeat, ClaimError>),
    /// A JSON document: the public snapshot (PROTOCOL §3.3) or the record (NOTATION §4).
    Json(String),
    /// The creator's action's answer.
    Admin(Result<AdminAnswer, AdminError>),
    /// The seat a token holds, if it holds one.
    Seat(Option<Player>),
    /// Whether the game expired.
    Expired(bool),
    /// A hint's position, or why the seat may not have one.
    Hint(Result<HintAsk, HintRefusal>),
    /// Done (nothing to say).
    Done,
}

/// What a connection says to join a game (its `hello`), with its id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinRequest {
    /// A seat token (a player), or none (a spectator).
    pub token: Option<String>,
    /// A spectator's display name.
    pub name: Option<String>,
    /// The connection's id.
    pub conn: u64,
    /// The last version it saw: the missed events instead of a snapshot when possible.
    pub since: Option<u64>,
    /// The last chat id it saw.
    pub chat_since: Option<u64>,
}

/// A join the game accepted: who the connection is, and what to send it first.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Entry {
    /// Who it is.
    pub viewer: Viewer,
    /// A snapshot, or `resume` and the missed events (then the legal turns of a player to
    /// move).
    pub initial: Vec<Outbound>,
}

/// Why a connection could not join.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JoinError {
    /// The token is not one of this game's seat tokens.
    BadToken,
    /// The spectator name is not acceptable.
    BadName(String),
    /// The game has as many connections as allowed.
    Full,
}

/// The answer to a command: the serialised `ack` or `error`, and the version it refers to (the
/// connection sends the events up to it first).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Reply {
    /// The version the answer refers to.
    pub v: u64,
    /// Whether the command was committed.
    pub accepted: bool,
    /// The JSON text.
    pub text: Text,
}

/// What the engine is to think about for a seat's hint: the position (the game's own ruleset)
/// and the seat to move, at the game's version `v`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HintAsk {
    /// The position, DPN.
    pub position: String,
    /// The game's ruleset.
    pub rules: Rules,
    /// The seat to move, which asked.
    pub player: Player,
    /// The game's version.
    pub v: u64,
    /// The engine's seed (the game's bots' seed for this turn).
    pub seed: u64,
}

/// The game's actor is gone (the game was unloaded, its node stopped or died, or it is being
/// handed over): whoever asked finds the game again where it runs now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[error("the game's actor has stopped")]
pub struct Gone;
