//! The way to a game, wherever it runs: one trait ([`GameLink`]) over the one vocabulary
//! ([`Call`]/[`Answer`]), implemented by a game this node runs ([`GameHandle`]) and by a game
//! another node runs (in `cluster`). Sockets and HTTP handlers hold a [`Game`] and never know
//! which.
//!
//! [`GameHandle`]: super::GameHandle

use std::any::Any;
use std::sync::Arc;

use futures_util::future::BoxFuture;
use tokio::sync::broadcast;
use uuid::Uuid;

use super::outbound::Outbound;
use super::viewer::Viewer;
use super::vocabulary::{Answer, Call, Entry, Gone, JoinError, JoinRequest, Reply};
use crate::protocol::http::ClaimedSeat;
use crate::table::{Action, AdminAnswer, AdminError, AdminWhat, ClaimError, MemberSeat};

/// A connection that joined a game.
pub struct Joined {
    /// Who it is.
    pub viewer: Viewer,
    /// The game's messages from the moment `initial` was taken.
    pub events: broadcast::Receiver<Outbound>,
    /// What to send first: a snapshot, or `resume` and the missed events.
    pub initial: Vec<Outbound>,
    /// What must live as long as the connection (another node's game: its mirror here).
    pub keep: Option<Arc<dyn Any + Send + Sync>>,
}

/// A game, on this node or another.
pub trait GameLink: Send + Sync {
    /// The game's id.
    fn id(&self) -> Uuid;

    /// Asks the game; the answer comes after the commit of what it changed.
    fn call(&self, call: Call) -> BoxFuture<'_, Result<Answer, Gone>>;

    /// Tells the game something that needs no answer.
    fn tell(&self, call: Call) -> BoxFuture<'_, ()>;

    /// Joins: the game's messages from the join on, and what to send first.
    fn join(&self, request: JoinRequest) -> BoxFuture<'_, Result<Result<Joined, JoinError>, Gone>>;
}

/// A cheap, cloneable way to a game, with a typed method per call.
#[derive(Clone)]
pub struct Game(Arc<dyn GameLink>);

impl Game {
    /// The game behind `link`.
    pub fn new(link: impl GameLink + 'static) -> Game {
        Game(Arc::new(link))
    }

    /// The game's id.
    pub fn id(&self) -> Uuid {
        self.0.id()
    }

    /// Any call of the vocabulary; its answer after the commit of what it changed (the typed
    /// methods below are this with the answer's shape checked).
    pub async fn call(&self, call: Call) -> Result<Answer, Gone> {
        self.0.call(call).await
    }

    /// Joins with a seat token (a player) or without (a spectator). With `since`, the missed
    /// events are sent instead of a snapshot when possible.
    pub async fn join(&self, request: JoinRequest) -> Result<Result<Joined, JoinError>, Gone> {
        self.0.join(request).await
    }

    /// The connection left.
    pub async fn leave(&self, viewer: &Viewer) {
        self.0.tell(Call::Leave { conn: viewer.conn }).await;
    }

    /// Runs a command; the reply comes after its commit.
    pub async fn act(&self, viewer: Viewer, ack: u64, action: Action) -> Result<Reply, Gone> {
        match self
            .0
            .call(Call::Act {
                viewer,
                ack,
                action,
            })
            .await?
        {
            Answer::Reply(reply) => Ok(reply),
            _ => Err(Gone),
        }
    }

    /// The events after `since` (with a `resume` first), or a snapshot.
    pub async fn sync(&self, viewer: Viewer, since: Option<u64>) -> Result<Vec<Outbound>, Gone> {
        match self.0.call(Call::Sync { viewer, since }).await? {
            Answer::Messages(out) => Ok(out),
            _ => Err(Gone),
        }
    }

    /// Claims a seat (with an invite's token, or a free one of an open game, or a free one
    /// for a `member` of the game's circle).
    pub async fn claim(
        &self,
        token: Option<String>,
        player: Option<djambi_core::Player>,
        name: Option<String>,
        member: Option<MemberSeat>,
    ) -> Result<Result<ClaimedSeat, ClaimError>, Gone> {
        match self
            .0
            .call(Call::Claim {
                token,
                player,
                name,
                member,
            })
            .await?
        {
            Answer::Claimed(claimed) => Ok(claimed),
            _ => Err(Gone),
        }
    }

    /// The public snapshot (PROTOCOL §3.3), as JSON.
    pub async fn snapshot_json(&self) -> Result<String, Gone> {
        self.json(Call::Snapshot).await
    }

    /// The game record (NOTATION §4), as JSON.
    pub async fn record_json(&self) -> Result<String, Gone> {
        self.json(Call::Record).await
    }

    async fn json(&self, call: Call) -> Result<String, Gone> {
        match self.0.call(call).await? {
            Answer::Json(json) => Ok(json),
            _ => Err(Gone),
        }
    }

    /// The creator's action, with the admin token presented.
    pub async fn admin(
        &self,
        token: String,
        what: AdminWhat,
    ) -> Result<Result<AdminAnswer, AdminError>, Gone> {
        match self.0.call(Call::Admin { token, what }).await? {
            Answer::Admin(answer) => Ok(answer),
            _ => Err(Gone),
        }
    }

    /// The seat `token` holds in this game, if any.
    pub async fn seat_of(&self, token: String) -> Result<Option<djambi_core::Player>, Gone> {
        match self.0.call(Call::Seat { token }).await? {
            Answer::Seat(seat) => Ok(seat),
            _ => Err(Gone),
        }
    }

    /// Cancels the game if it still waits for players and nobody touched it since `before`
    /// (ms); whether it did.
    pub async fn expire(&self, before: i64) -> Result<bool, Gone> {
        match self.0.call(Call::Expire { before }).await? {
            Answer::Expired(expired) => Ok(expired),
            _ => Err(Gone),
        }
    }
}

/// A join's answer as a connection uses it: the entry with the messages from `events`.
pub fn joined(
    answer: Answer,
    events: broadcast::Receiver<Outbound>,
    keep: Option<Arc<dyn Any + Send + Sync>>,
) -> Result<Result<Joined, JoinError>, Gone> {
    match answer {
        Answer::Joined(Ok(Entry { viewer, initial })) => Ok(Ok(Joined {
            viewer,
            events,
            initial,
            keep,
        })),
        Answer::Joined(Err(refused)) => Ok(Err(refused)),
        _ => Err(Gone),
    }
}
