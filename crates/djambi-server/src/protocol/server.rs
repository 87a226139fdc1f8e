//! Server → client socket messages (PROTOCOL §3.2–§3.4) and the views they carry.

use djambi_core::{Army, Controller, Effect, IllegalKind, Player, ResultRecord, Rules};
use serde::Serialize;
use uuid::Uuid;

use super::legal::LegalView;

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
    /// The answer to `ping`.
    Pong,
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
}

impl ErrorCode {
    /// The code as it appears on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
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
        }
    }
}

/// Where a game stands, for lists and snapshots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// Waiting for players to claim their seats.
    Open,
    /// Being played.
    Live,
    /// Over: won or drawn.
    Finished,
}

impl GameStatus {
    /// The status as stored and sent (`open`, `live`, `finished`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Open => "open",
            GameStatus::Live => "live",
            GameStatus::Finished => "finished",
        }
    }

    /// Parses [`as_str`](GameStatus::as_str)'s output.
    pub fn parse(s: &str) -> Option<GameStatus> {
        match s {
            "open" => Some(GameStatus::Open),
            "live" => Some(GameStatus::Live),
            "finished" => Some(GameStatus::Finished),
            _ => None,
        }
    }
}

/// Who controls each army: a player's letter, `-` (orphaned) or `h` (the hostage).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
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

/// The state of the game after an event: everything a client needs to show it without a rules
/// engine. Flattened into snapshots and into the events that change the position.
#[derive(Clone, Debug, Serialize)]
pub struct StateView {
    /// The position (NOTATION §2), for the board and for a client to check itself.
    pub dpn: String,
    /// The player to move, none when the game is over.
    pub to_move: Option<Player>,
    /// The ruler's bonus turns still owed, counting the current one.
    pub bonus: u8,
    /// The coming turn order, starting with `to_move`.
    pub order: Vec<Player>,
    /// The ruler (chief in the maze), if any.
    pub ruler: Option<Player>,
    /// Who controls each army.
    pub control: ControlView,
    /// The players out of the game, in base order.
    pub eliminated: Vec<Player>,
    /// The ranking so far (R9.7), best first.
    pub ranking: Vec<Vec<Player>>,
    /// The result once the game is over.
    pub result: Option<ResultRecord>,
    /// The legal turns of the player to move.
    pub legal: LegalView,
}

/// One versioned event, tagged by `kind`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventView {
    /// A turn (a pass included).
    Turn {
        /// The turn number.
        number: u32,
        /// Who played it.
        player: Player,
        /// The canonical turn text.
        turn: String,
        /// What the turn changed, in order (the core's effects).
        effects: Vec<Effect>,
        /// The state after it.
        #[serde(flatten)]
        state: StateView,
    },
    /// A player resigned.
    Resign {
        /// Who resigned.
        player: Player,
        /// What the resignation changed.
        effects: Vec<Effect>,
        /// The state after it.
        #[serde(flatten)]
        state: StateView,
    },
    /// A player offered a draw.
    DrawOffered {
        /// Who offered it.
        by: Player,
    },
    /// A player agreed to the pending offer; others still have to.
    DrawAccepted {
        /// Who agreed.
        by: Player,
    },
    /// A player declined (or withdrew) the pending offer, which is gone.
    DrawDeclined {
        /// Who declined.
        by: Player,
    },
    /// Every living player agreed: the game is drawn.
    DrawAgreed {
        /// The state after it.
        #[serde(flatten)]
        state: StateView,
    },
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
    /// Recent public chat and the recipient's own whispers, oldest first.
    pub chat: Vec<ChatView>,
    /// When the game was created (RFC 3339).
    pub created_at: String,
    /// When it last changed (RFC 3339).
    pub updated_at: String,
}
