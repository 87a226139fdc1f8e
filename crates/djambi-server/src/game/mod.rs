//! Live games. Each game this node runs is owned by one task, its actor ([`actor`]): an `mpsc`
//! inbox, `oneshot` replies, and two ports — a [`Journal`] its commits go to and a [`Fanout`]
//! that sends what was committed, serialised once for every recipient. The actor is the only
//! writer of its game, so commands are ordered without locks; it decides with the table
//! (`crate::table`), commits, and only then tells anyone.
//!
//! Everything asked of a game is one [`Call`] of the vocabulary, answered by one [`Answer`];
//! a [`Game`] is the way to a game wherever it runs (here, or on another node: [`GameLink`]).
//! The [`Registry`] finds, creates, loads and restores games, placed by the [`Site`] (a server
//! alone, or one node of several).

mod actor;
pub mod bots;
mod error;
mod handle;
pub mod ledger;
mod limits;
mod link;
mod outbound;
mod ports;
mod presence;
mod registry;
mod site;
mod viewer;
mod vocabulary;

pub use error::GameError;
pub use handle::{GameHandle, Response};
pub use ledger::{Ledger, RegistryLimits};
pub use limits::Limits;
pub use link::{Game, GameLink, Joined, joined};
pub use outbound::{Audience, CloseReason, Outbound, Seq, Text};
pub use ports::{Alert, Alerts, Fanout, Journal, LocalFanout, LocalJournal};
pub use presence::{Digest, Presence};
pub use registry::{
    BOT_MOVETIME_MS, BOTS_ONLY_TURN_LIMIT, DEFAULT_BOT_MOVETIME_MS, NewGame, Registry, fresh_seed,
};
pub use site::{LocalSite, Site, SiteGames, Taken, Tenancy, Whereabouts};
pub use viewer::{Viewer, node_of};
pub use vocabulary::{Answer, Call, Entry, Gone, HintAsk, JoinError, JoinRequest, Reply};
