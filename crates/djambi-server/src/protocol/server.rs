//! Server → client socket messages (PROTOCOL §3.2–§3.5) and the views they carry.

use djambi_core::{Army, IllegalKind, Player, Rules};
use serde::Serialize;
use uuid::Uuid;

use super::event::{EventView, StateView};
use super::legal::LegalView;
use super::lifecycle::{BotLevel, RematchView, Settings, TakebackView, VoteView};
use crate::table::Refusal;
pub use crate::table::{CancelReason, GameStatus};

/// One message from the server, tagged by `type`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// The whole game as the recipient may see it.
    Snapshot {
        /// The version of the last event included.
        v: u64,
        /// Who the recipient is.
        you: You,
        /// The game.
        game: Box<GameView>,
    },
    /// The answer to a `hello` (or `sync`) with a `since` the server could serve: the events
    /// after `from` up to `v` follow, one `event` message each.
    Resume {
        /// The version the client said it had.
        from: u64,
        /// The current version: the last event that follows.
        v: u64,
        /// Who the recipient is.
        you: You,
    },
    /// One versioned game event.
    Event {
        /// Its version: the previous event's plus one.
        v: u64,
        /// What happened.
        event: Box<EventView>,
    },
    /// The legal turns of the player to move, sent only to that seat's sockets after the
    /// event (or snapshot) that gave it the turn (PROTOCOL §3.4).
    Legal {
        /// The version of the state they are legal in.
        v: u64,
        /// The turns, compact.
        turns: LegalView,
    },
    /// A command was committed.
    Ack {
        /// The client's id for the command.
        ack: u64,
        /// The version of the event the command made (for chat: the current version).
        v: u64,
    },
    /// A message was refused; nothing changed.
    Error {
        /// The client's id for the command, when the message had one.
        #[serde(skip_serializing_if = "Option::is_none")]
        ack: Option<u64>,
        /// What went wrong, for programs.
        code: ErrorCode,
        /// What went wrong, for people (for `illegal`: the core's reason).
        message: String,
        /// The core's kind of illegality, for `illegal` only.
        #[serde(skip_serializing_if = "Option::is_none")]
        kind: Option<IllegalKind>,
        /// The current version.
        v: u64,
    },
    /// A chat message or a whisper.
    Chat(ChatView),
    /// After the game: a rematch was asked for (PROTOCOL §6.7). Sent to every connection; also
    /// in the snapshot's `rematch`.
    Rematch(RematchView),
    /// Who is connected, and the seats' names and claims (sent when a connection comes or
    /// goes and when a seat is claimed).
    Presence {
        /// Open, live or finished (a game goes live when its last seat is claimed).
        status: GameStatus,
        /// Each seat.
        seats: Vec<SeatPresence>,
        /// How many spectators are connected.
        spectators: u32,
    },
    /// The server is going down; the socket closes next. Reconnect with `since`.
    Restarting {
        /// For people.
        message: String,
    },
    /// The answer to `ping`, with the server's time (ms since the epoch) so clients can set
    /// their clocks against the server's.
    Pong {
        /// The server's time.
        now: i64,
    },
}

/// The recipient of a snapshot, tagged by `role`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum You {
    /// The connection plays this seat.
    Player {
        /// The seat.
        player: Player,
    },
    /// The connection watches.
    Spectator,
}

/// The typed errors of the socket (PROTOCOL §3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The client speaks another version of the protocol (it must reload).
    Protocol,
    /// Not JSON, not a known message, a missing or wrong field, or text that is not allowed.
    Malformed,
    /// The frame, the chat text or the name is longer than allowed.
    TooLarge,
    /// The first message must be `hello`.
    HelloFirst,
    /// The token is not this game's seat token.
    BadToken,
    /// Spectators may only chat.
    Spectator,
    /// The game waits for players to claim their seats.
    NotStarted,
    /// It is another player's turn.
    NotYourTurn,
    /// The turn is not legal (the message is the core's reason).
    Illegal,
    /// The game is over.
    GameOver,
    /// The seat's player is no longer in the game.
    Eliminated,
    /// There is no draw offer to accept or decline.
    NoDrawOffer,
    /// The player has already agreed to the pending draw offer.
    DrawPending,
    /// The whisper's recipient is not another player of this game.
    NotAPlayer,
    /// Too many messages: slow down.
    RateLimited,
    /// The game has as many connections as allowed.
    Full,
    /// The server could not do it (for example the database failed); nothing changed.
    Internal,
    /// The seat's token was replaced (the seat was claimed again): this socket lost the seat.
    SeatRevoked,
    /// The seat was opened in another window, which took this socket's place.
    Replaced,
    /// The game was cancelled.
    Cancelled,
    /// A bot plays the seat: take it back (`reclaim`) first.
    BotSeat,
    /// No bot plays the seat.
    NoBot,
    /// No such vote, or the vote may not be opened or answered.
    NoVote,
    /// No such takeback, or it may not be asked for or answered.
    NoTakeback,
    /// A rematch before the game is over, or for a seat no person played.
    NoRematch,
}

impl ErrorCode {
    /// The code as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Protocol => "protocol",
            ErrorCode::Malformed => "malformed",
            ErrorCode::TooLarge => "too_large",
            ErrorCode::HelloFirst => "hello_first",
            ErrorCode::BadToken => "bad_token",
            ErrorCode::Spectator => "spectator",
            ErrorCode::NotStarted => "not_started",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::Illegal => "illegal",
            ErrorCode::GameOver => "game_over",
            ErrorCode::Eliminated => "eliminated",
            ErrorCode::NoDrawOffer => "no_draw_offer",
            ErrorCode::DrawPending => "draw_pending",
            ErrorCode::NotAPlayer => "not_a_player",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::Full => "full",
            ErrorCode::Internal => "internal",
            ErrorCode::SeatRevoked => "seat_revoked",
            ErrorCode::Replaced => "replaced",
            ErrorCode::Cancelled => "cancelled",
            ErrorCode::BotSeat => "bot_seat",
            ErrorCode::NoBot => "no_bot",
            ErrorCode::NoVote => "no_vote",
            ErrorCode::NoTakeback => "no_takeback",
            ErrorCode::NoRematch => "no_rematch",
        }
    }
}

/// A seat as a snapshot shows it.
#[derive(Clone, Debug, Serialize)]
pub struct SeatView {
    /// The seat's player.
    pub player: Player,
    /// The display name (the creator's preset until claimed).
    pub name: Option<String>,
    /// Whether someone claimed the seat.
    pub claimed: bool,
    /// Whether a connection plays it now.
    pub connected: bool,
    /// Whether its player is still in the game.
    pub alive: bool,
    /// The level of the bot playing it, if a bot does.
    pub bot: Option<BotLevel>,
    /// Since when nobody has been connected to it (RFC 3339; `null` while connected).
    pub away_since: Option<String>,
    /// The circle's member who took it (a circle game's; left out otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<Uuid>,
}

/// A seat in a `presence` message.
#[derive(Clone, Debug, Serialize)]
pub struct SeatPresence {
    /// The seat's player.
    pub player: Player,
    /// Its display name.
    pub name: Option<String>,
    /// Whether someone claimed it.
    pub claimed: bool,
    /// Whether a connection plays it now.
    pub connected: bool,
    /// The level of the bot playing it, if a bot does.
    pub bot: Option<BotLevel>,
    /// Since when nobody has been connected to it (RFC 3339; `null` while connected).
    pub away_since: Option<String>,
}

/// One turn in a snapshot's move list.
#[derive(Clone, Debug, Serialize)]
pub struct TurnEntry {
    /// The event's version.
    pub v: u64,
    /// The turn number.
    pub number: u32,
    /// Who played it.
    pub player: Player,
    /// The canonical turn text.
    pub turn: String,
}

/// A pending draw offer.
#[derive(Clone, Debug, Serialize)]
pub struct DrawOfferView {
    /// Who offered it.
    pub by: Player,
    /// The players who agreed so far (the author included), in base order.
    pub accepted: Vec<Player>,
}

/// A chat message or whisper, as sent and as listed in snapshots.
#[derive(Clone, Debug, Serialize)]
pub struct ChatView {
    /// Its id, growing by one within the game.
    pub id: u64,
    /// The author's seat, none for a spectator.
    pub from: Option<Player>,
    /// The author's display name.
    pub name: String,
    /// The recipient of a whisper, none for public chat.
    pub to: Option<Player>,
    /// The text, raw: clients escape it.
    pub text: String,
    /// When it was said (RFC 3339, UTC).
    pub at: String,
}

/// A game as a snapshot shows it (PROTOCOL §3.3).
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: Uuid,
    /// The version of the last event.
    pub v: u64,
    /// Open, live or finished.
    pub status: GameStatus,
    /// The ruleset.
    pub rules: Rules,
    /// 3 or 4.
    pub players: u8,
    /// The hostage army of a 3-player game.
    pub hostage: Option<Army>,
    /// Whether free seats may be claimed without an invite.
    pub open: bool,
    /// The start position (DPN).
    pub start: String,
    /// The seats, in base order.
    pub seats: Vec<SeatView>,
    /// How many spectators are connected.
    pub spectators: u32,
    /// The current state.
    #[serde(flatten)]
    pub state: StateView,
    /// The turns so far.
    pub turns: Vec<TurnEntry>,
    /// The pending draw offer.
    pub draw_offer: Option<DrawOfferView>,
    /// Why the game was called off, when its status is `cancelled`.
    pub cancelled: Option<CancelReason>,
    /// The options beyond the ruleset (clock, timeouts, bots' move time).
    pub settings: Settings,
    /// Seconds a player must be away on its turn before the others may vote on it.
    pub absent_grace_s: u64,
    /// The open vote on an absent player.
    pub vote: Option<VoteView>,
    /// The pending takeback request.
    pub takeback: Option<TakebackView>,
    /// Recent public chat and the recipient's own whispers, oldest first.
    pub chat: Vec<ChatView>,
    /// The rematch offered after the game (left out until someone asks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<RematchView>,
    /// When the game was created (RFC 3339).
    pub created_at: String,
    /// When it last changed (RFC 3339).
    pub updated_at: String,
    /// The circle the game is for (left out for other games).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub circle: Option<Uuid>,
}

/// The socket's code for each refusal of the table.
impl From<&Refusal> for ErrorCode {
    fn from(refusal: &Refusal) -> ErrorCode {
        match refusal {
            Refusal::Spectator(_) => ErrorCode::Spectator,
            Refusal::Cancelled => ErrorCode::Cancelled,
            Refusal::GameOver => ErrorCode::GameOver,
            Refusal::NotStarted => ErrorCode::NotStarted,
            Refusal::Eliminated(_) => ErrorCode::Eliminated,
            Refusal::BotSeat => ErrorCode::BotSeat,
            Refusal::NotYourTurn(_) => ErrorCode::NotYourTurn,
            Refusal::Illegal { .. } => ErrorCode::Illegal,
            Refusal::NoDrawOffer => ErrorCode::NoDrawOffer,
            Refusal::DrawPending => ErrorCode::DrawPending,
            Refusal::DrawOfferedThisTurn => ErrorCode::RateLimited,
            Refusal::NoBot => ErrorCode::NoBot,
            Refusal::NoVote(_) => ErrorCode::NoVote,
            Refusal::NoTakeback(_) => ErrorCode::NoTakeback,
            Refusal::NotAPlayer => ErrorCode::NotAPlayer,
            Refusal::Malformed(_) => ErrorCode::Malformed,
            Refusal::TooLarge(_) => ErrorCode::TooLarge,
            Refusal::RateLimited => ErrorCode::RateLimited,
            Refusal::NoRematch(_) => ErrorCode::NoRematch,
            Refusal::SeatRevoked => ErrorCode::SeatRevoked,
            Refusal::Internal(_) => ErrorCode::Internal,
        }
    }
}
