//! The wire protocol (docs/PROTOCOL.md) as serde types, and nothing else: no axum or tokio types,
//! so the golden JSON files under `tests/golden/` can pin every shape.
//!
//! - [`client`]: what a browser sends on the socket;
//! - [`server`]: what the server sends on the socket (snapshots, versioned events, acks, errors,
//!   chat, presence);
//! - [`http`]: the JSON bodies of the HTTP API;
//! - [`analysis`]: the engine's analysis of a finished game, as the API answers it;
//! - [`circle`]: circles of friends, their standings and games (docs/CIRCLES.md);
//! - [`hint`]: a hint in a game ("show a good turn").

pub mod analysis;
pub mod circle;
pub mod client;
mod effect;
mod event;
pub mod hint;
pub mod http;
mod legal;
pub mod lifecycle;
pub mod server;
pub mod view;

pub use client::{ClientMessage, PROTOCOL_VERSION};
pub use effect::{EffectsView, PieceCode};
pub use event::{ControlView, EventView, StateView};
pub use legal::{LegalView, expand as expand_legal, expand_spec};
pub use server::{
    CancelReason, ChatView, DrawOfferView, ErrorCode, GameStatus, GameView, SeatPresence, SeatView,
    ServerMessage, TurnEntry, You,
};
