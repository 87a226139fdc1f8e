//! The WebSocket endpoint `/ws/games/{id}` (PROTOCOL §3): upgrades the request and serves the
//! connection ([`socket`]) against the game's actor.

mod hello;
pub(crate) mod inbound;
mod reader;
mod socket;

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use axum::Extension;
use axum::Router;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::{Path, State, WebSocketUpgrade};
use axum::response::Response;
use axum::routing::get;
use governor::clock::DefaultClock;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::Instrument;

use crate::AppState;
use crate::error::{AppError, parse_game_id};
use crate::metrics::Metrics;
use crate::net::budget::Allowance;
use crate::net::{Budgets, ClientIp, ConnSlot, ConnState};

pub use inbound::{MAX_ACK, Refused, parse as parse_frame};

/// Bytes read from a socket at a time (larger frames are still read, in several reads).
const READ_CHUNK: usize = 1024;

/// What every connection shares.
pub struct WsContext {
    /// The server's metrics.
    pub metrics: Arc<Metrics>,
    /// The per-address budgets (connections, catch-ups, wrong tokens).
    pub budgets: Arc<Budgets>,
    /// The largest client message answered (larger ones get `too_large`).
    pub max_message_bytes: usize,
    /// Frames per second per connection.
    pub rate_limit: u32,
    /// Chat each connection may send.
    pub chat: Allowance,
    /// The one clock of every socket's rate limiters, cloned into each. Making a clock asks
    /// the CPU which counters it has (`cpuid`, a trap to the hypervisor on a VM): three per
    /// socket came to about 2 % of the server's CPU where games come and go (perf, bench-moves).
    pub clock: DefaultClock,
    /// How long one frame may take to write before the connection is dropped.
    pub write_timeout: std::time::Duration,
    /// How long a socket may stay silent (pinged after a third of it).
    pub idle: std::time::Duration,
    /// Connection ids.
    pub next_conn: AtomicU64,
    /// Every connection's task, so shutdown can wait for them to close.
    pub tasks: TaskTracker,
    /// Cancelled at shutdown, once the games have told their connections: closes the sockets
    /// that have not said `hello` yet.
    pub closing: CancellationToken,
}

impl WsContext {
    /// The context of every socket, configured by `flags`; connection ids start at `first_conn`.
    pub fn new(
        flags: &crate::config::SocketFlags,
        metrics: Arc<Metrics>,
        budgets: Arc<Budgets>,
        first_conn: u64,
    ) -> WsContext {
        WsContext {
            metrics,
            budgets,
            max_message_bytes: flags.max_message_bytes,
            rate_limit: flags.rate_limit,
            chat: flags.chat(),
            clock: DefaultClock::default(),
            write_timeout: flags.write_timeout(),
            idle: flags.idle(),
            next_conn: AtomicU64::new(first_conn),
            tasks: TaskTracker::new(),
            closing: CancellationToken::new(),
        }
    }
}

/// The WebSocket routes.
pub fn router() -> Router<AppState> {
    Router::new().route("/ws/games/{id}", get(upgrade))
}

async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<String>,
    client: ClientIp,
    slot: Option<Extension<Arc<ConnSlot>>>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, AppError> {
    let id = parse_game_id(&id)?;
    let ip = client.key();
    // Past the address's budget, only a seat's holder gets in (checked at `hello`): seats
    // always get in, whoever else floods from the same address.
    let over_budget = state.budgets.ws_connect.take(ip).err();
    let game = state
        .registry
        .get(id)
        .await?
        .ok_or_else(|| AppError::no_game(id))?;
    let ws = ws.map_err(|e| AppError::BadRequest(format!("not a WebSocket request: {e}")))?;
    let ctx = state.ws.clone();
    let registry = state.registry.clone();
    // Frames a little larger than the protocol's limit are still read, to answer `too_large`;
    // far larger ones close the connection.
    let hard_limit = (ctx.max_message_bytes * 4).max(64 * 1024);
    Ok(ws
        .max_message_size(hard_limit)
        .max_frame_size(hard_limit)
        // tungstenite zeroes its whole read chunk before every read (128 KiB by default); our
        // client messages are small, so a small chunk saves most of that work.
        .read_buffer_size(READ_CHUNK)
        .on_upgrade(move |socket| {
            let slot = slot.map(|Extension(slot)| slot);
            if let Some(slot) = &slot {
                slot.set_state(ConnState::SocketPending);
            }
            let tasks = ctx.tasks.clone();
            let span = tracing::debug_span!("socket", game = %id);
            let peer = socket::Peer {
                ip,
                slot,
                over_budget,
            };
            tasks.track_future(socket::run(socket, game, registry, ctx, peer).instrument(span))
        }))
}
