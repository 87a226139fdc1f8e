//! Why the table refused something, as typed errors: a player's command ([`Refusal`]), a claim
//! of a seat ([`ClaimError`]) or the creator's action ([`AdminError`]). Nothing changed when one
//! is returned. Each says what and why in words for people; the edges turn them into their
//! wire codes (the socket's `error`, the HTTP API's error body).

use djambi_core::{IllegalKind, Player};
use serde::{Deserialize, Serialize};

/// Why a command was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Spectators may only chat (what they tried, in words).
    #[error("{0}")]
    Spectator(String),
    /// The game was cancelled.
    #[error("the game was cancelled")]
    Cancelled,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The game waits for players to claim their seats.
    #[error("the game starts when every seat is taken")]
    NotStarted,
    /// The player is out of the game.
    #[error("{} is out of the game", .0.name())]
    Eliminated(Player),
    /// A bot plays the seat.
    #[error("a bot plays your seat; take it back first")]
    BotSeat,
    /// It is this player's turn, not the sender's.
    #[error("it is {}'s turn", .0.name())]
    NotYourTurn(Player),
    /// The turn is not legal: the core's reason (it cites the rule) and kind.
    #[error("{message}")]
    Illegal {
        /// The core's reason.
        message: String,
        /// The core's kind of illegality.
        kind: IllegalKind,
    },
    /// No draw offer is pending.
    #[error("there is no draw offer")]
    NoDrawOffer,
    /// The player already agreed to the pending offer.
    #[error("you have already agreed to the draw; the others have not yet")]
    DrawPending,
    /// The player offered a draw since the last turn already (one offer per player per turn,
    /// as takebacks: an offer and its refusals cannot be repeated without end).
    #[error("you already offered a draw this turn: one offer per turn")]
    DrawOfferedThisTurn,
    /// No bot plays the seat.
    #[error("no bot plays your seat")]
    NoBot,
    /// The vote may not be opened or answered (why, in words).
    #[error("{0}")]
    NoVote(String),
    /// The takeback may not be asked for or answered (why, in words).
    #[error("{0}")]
    NoTakeback(String),
    /// A whisper to someone who is not another player of the game.
    #[error("a whisper goes to another player of this game")]
    NotAPlayer,
    /// Text that is not allowed, or not a game action (why, in words).
    #[error("{0}")]
    Malformed(String),
    /// Text longer than allowed (why, in words).
    #[error("{0}")]
    TooLarge(String),
    /// The table chats too fast.
    #[error("this table is chatting too fast; wait a moment")]
    RateLimited,
    /// No rematch now (why, in words).
    #[error("{0}")]
    NoRematch(String),
    /// The seat's token was replaced: the sender no longer plays it.
    #[error("this seat was claimed again with a new token; yours no longer works")]
    SeatRevoked,
    /// The server could not apply or save it (the details are in its log).
    #[error("{0}")]
    Internal(String),
}

impl Refusal {
    /// The failure to save a command: nothing changed.
    pub fn unsaved() -> Refusal {
        Refusal::Internal("the server could not save this; nothing changed".into())
    }
}

/// Why a seat could not be claimed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum ClaimError {
    /// The token is not one of the game's seat tokens: never was (mistyped, made up), or no
    /// longer is (the creator gave the seat a new invite, or an open game's seat was claimed
    /// with a new token), or it is another seat's than the one asked for.
    #[error("this invite link is not valid any more: it was replaced or mistyped")]
    BadToken,
    /// A claim without a token in a game by invitation only.
    #[error("this game is by invitation: a seat is claimed with its invite link")]
    InviteOnly,
    /// The game has no such seat.
    #[error("no seat {0} in this game")]
    NoSuchSeat(Player),
    /// The seat was named at creation and is kept for whoever has its invite link.
    #[error("seat {player} is kept for {name}, who has its invite link")]
    Kept {
        /// The seat.
        player: Player,
        /// The name it is kept for.
        name: String,
    },
    /// The seat is not free.
    #[error("seat {0} is taken")]
    Taken(Player),
    /// The token is this seat's, but the seat was claimed already with it: its holder plays
    /// it, on another device (the link is the seat: it may play from here too). Not a wrong
    /// token, unlike [`ClaimError::BadToken`].
    #[error("seat {0} is already held with this invite link, on another device")]
    AlreadyClaimed(Player),
    /// No seat is free.
    #[error("every seat is taken")]
    AllTaken,
    /// The game is over.
    #[error("the game is over")]
    Over,
    /// The name is not acceptable (why).
    #[error("name: {0}")]
    Name(String),
    /// A name is required.
    #[error("name: a name is required")]
    NameRequired,
    /// A circle's member asked for a seat of a game that is not their circle's.
    #[error("this game is not one of your circle's")]
    NotCircleGame,
    /// A circle's member asked for a second seat of the same game.
    #[error("you already have a seat in this game")]
    MemberSeated,
    /// The server could not save it.
    #[error("internal error")]
    Internal,
}

/// Why the creator's action was refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum AdminError {
    /// The admin token does not match.
    #[error("the seat token does not match")]
    BadToken,
    /// The game has started (or ended).
    #[error("the game has started (or ended): the creator's rights were for before")]
    Started,
    /// No such living seat.
    #[error("no seat {0} to change")]
    NoSeat(Player),
    /// The server could not save it.
    #[error("internal error")]
    Internal,
}
