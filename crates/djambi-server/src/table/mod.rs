//! The pure domain of one live game: its state and how events change it ([`GameState`],
//! [`GameState::apply`]), what a command becomes ([`decide`]: an event, or a typed
//! [`Refusal`]) and what follows by itself ([`consequences`]), checkpoints and rollback, the
//! event kinds of the log, seats, names and chat text, clocks, votes, takebacks, rematches, who
//! may be shown a good turn, and how bots behave at the table.
//!
//! It knows nothing of where it runs: no async runtime, no HTTP or WebSocket types, no database,
//! no message broker, and none of the server's edges (`store`, `protocol`, `http`, `ws`,
//! `error`, `cluster`); `tests/layers.rs` keeps it so. Its errors are typed enums, turned into
//! wire errors at the edges. Everything here runs in unit tests without a runtime.

mod admin;
pub mod alerts;
mod bots;
mod chat;
mod claim;
pub mod decide;
mod event;
mod hint;
mod refusal;
mod rematch;
mod seat;
pub mod settings;
pub mod state;
mod status;
pub mod text;

pub use admin::{AdminAnswer, AdminWhat};
pub use alerts::{Before, Ending, Notice, deadline_warning, notices};
pub use bots::{BOT_OFFER_GAP, STALE_QUIET_TURNS, STALE_REPETITIONS};
pub use chat::{ChatLine, ChatSight, may_see};
pub use claim::{Claim, MemberSeat};
pub use decide::{Action, AtTable, agreed_draw, bot_answer, consequences, decide, timeout};
pub use event::{BotReason, CancelReason, Event, EventKind, VoteAction};
pub use hint::HintRefusal;
pub use refusal::{AdminError, ClaimError, Refusal};
pub use rematch::{Rematch, rotation};
pub use seat::{Role, Seat};
pub use settings::{BotLevel, ClockSpec, OnTimeout, Settings};
pub use state::{
    Applied, ApplyError, BOTS_ALONE_QUIET_TURNS, Checkpoint, Clock, DrawOffer, GameState,
    HOUSE_QUIET_TURNS, NoTakeback, ReplayError, StandingTurn, Takeback, Vote, seed_of_id,
    table_level,
};
pub use status::GameStatus;
