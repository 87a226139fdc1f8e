//! Persistence: games, seats (hashed tokens), the append-only event log, chat and results, in
//! SQLite or Postgres through one implementation over `sqlx::Any` (the SQL is the same for both;
//! only the migrations differ in their header).
//!
//! Writes of live games go through a batching writer ([`writer`]): the commands of many games
//! that arrive together share one transaction, and each caller is answered only after that
//! transaction committed. With several nodes, a command's writes carry the [`Fence`] of its
//! game's ownership, checked in the same transaction ([`fence`]).

mod analysis;
mod connect_error;
mod event;
mod fence;
mod migrate;
mod rows;
mod sql;
mod writer;

use std::sync::Arc;
use std::time::Duration;

use djambi_core::{Army, Player, Position, ResultRecord, Rules};
use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyConnection, AnyPool, Executor};
use tokio::sync::{mpsc, oneshot};
use uuid::Uuid;

use crate::metrics::Metrics;
use crate::table::{
    ChatLine, Event, GameState, GameStatus, Rematch, ReplayError, Seat, Settings, seed_of_id,
};
use crate::token::TokenHash;

pub use analysis::StoredAnalysis;
pub use event::{
    StoredEvent, decode as decode_event, encode as encode_event, letters, parse_letters,
};
pub use fence::Fence;
pub(crate) use rows::game_id;
use writer::{WriteJob, WriterMsg};

/// A database failure. Its text goes to the log, never to clients.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// The migrations failed.
    #[error("migration: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value does not read back.
    #[error("corrupt row: {0}")]
    Corrupt(String),
    /// The writer is gone (the server is shutting down).
    #[error("the database writer has stopped")]
    Closed,
    /// The database cannot be used as configured; the text says what to do.
    #[error("{0}")]
    Unusable(String),
    /// The URL names no supported database.
    #[error("unsupported database URL (expected sqlite:… or postgres://…)")]
    UnsupportedUrl,
    /// The commit was made under a game's ownership that has ended: another node took the
    /// game (docs/SCALING.md, fencing). Nothing was written.
    #[error("this node no longer owns the game: the commit was refused (fenced)")]
    Fenced,
    /// This node's lease has expired in the database: it may not take a game.
    #[error("this node's lease has expired")]
    NoLease,
}

/// Which database is behind the store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// SQLite (a file).
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

impl Backend {
    /// The backend of a database URL.
    pub fn of_url(url: &str) -> Result<Backend, StoreError> {
        if url.starts_with("sqlite:") {
            Ok(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Backend::Postgres)
        } else {
            Err(StoreError::UnsupportedUrl)
        }
    }
}

/// How the store is set up.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// Connections in the pool.
    pub max_connections: u32,
    /// Most commands per write transaction.
    pub commit_batch: usize,
    /// How long to wait for a database connection before failing (a command is then refused
    /// as `internal`, quickly, while the database is down).
    pub connect_timeout: Duration,
    /// With several nodes, the lease: a session that stays inside a transaction this long (a
    /// node cut off mid-commit) is ended by Postgres, releasing its locks, and no statement
    /// waits longer than this for a lock.
    pub cluster_lease: Option<Duration>,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            max_connections: 8,
            commit_batch: 64,
            connect_timeout: Duration::from_secs(3),
            cluster_lease: None,
        }
    }
}

/// A game's row: its setup and a summary of where it stands.
#[derive(Clone, Debug)]
pub struct GameRow {
    /// The game's id.
    pub id: Uuid,
    /// 3 or 4.
    pub players: u8,
    /// The hostage army of a 3-player game.
    pub hostage: Option<Army>,
    /// The ruleset.
    pub rules: Rules,
    /// The start position (DPN).
    pub start: String,
    /// Whether free seats are claimable without an invite.
    pub open: bool,
    /// Whether the lobby lists it (`GET /api/games`).
    pub listed: bool,
    /// When it was created.
    pub created_at: i64,
    /// Where it stands now.
    pub summary: GameSummaryRow,
    /// Its options beyond the ruleset (clock, timeouts, bots' move time).
    pub settings: Settings,
    /// The hash of the creator's admin token (none for imported games).
    pub admin_hash: Option<TokenHash>,
    /// The seed of the bots' choices (none for games stored before seeds were).
    pub bot_seed: Option<u64>,
    /// The circle it was created for, if any.
    pub circle: Option<Uuid>,
}

/// The part of a game's row that changes with play.
#[derive(Clone, Debug)]
pub struct GameSummaryRow {
    /// Open, live or finished.
    pub status: GameStatus,
    /// The version of the last event.
    pub v: u64,
    /// The current position (DPN).
    pub dpn: String,
    /// The player to move.
    pub to_move: Option<Player>,
    /// The number of the next turn.
    pub turn: u32,
    /// The result, once over.
    pub result: Option<ResultRecord>,
    /// The ranking so far.
    pub ranking: Vec<Vec<Player>>,
    /// The rematch offered after the game, if any.
    pub rematch: Option<Rematch>,
    /// When it last changed.
    pub updated_at: i64,
}

/// A stored game, everything needed to rebuild its actor.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// The game's row.
    pub row: GameRow,
    /// Its seats, in base order.
    pub seats: Vec<Seat>,
    /// Its whole event log, in order.
    pub events: Vec<Event>,
    /// Its most recent chat, oldest first.
    pub recent_chat: Vec<ChatLine>,
    /// The highest chat id (0: none).
    pub last_chat_id: u64,
    /// The ack ids of the players' committed chat: (player, ack, version).
    pub chat_acks: Vec<(Player, u64, u64)>,
}

impl GameRow {
    /// The row of a new game.
    pub fn of(state: &GameState) -> GameRow {
        GameRow {
            id: state.id,
            players: state.players,
            hostage: state.hostage,
            rules: state.rules(),
            start: state.game.start().to_dpn(),
            open: state.open,
            listed: state.listed,
            created_at: state.created_at,
            summary: GameSummaryRow::of(state),
            settings: state.settings,
            admin_hash: state.admin_hash,
            bot_seed: Some(state.bot_seed),
            circle: state.circle,
        }
    }
}

impl GameSummaryRow {
    /// Where a game stands, as stored with every commit.
    pub fn of(state: &GameState) -> GameSummaryRow {
        let pos = state.position();
        GameSummaryRow {
            status: state.status(),
            v: state.v,
            dpn: pos.to_dpn(),
            to_move: pos.to_move(),
            turn: pos.turn(),
            result: state.result(),
            ranking: state.game.ranking(),
            rematch: state.rematch.clone(),
            updated_at: state.updated_at,
        }
    }
}

impl StoredGame {
    /// The game as it was before its first event.
    pub fn start(&self) -> Result<GameState, ReplayError> {
        let row = &self.row;
        let start = Position::from_dpn(&row.start, row.rules).map_err(|e| ReplayError {
            v: 0,
            message: format!("start position: {e}"),
        })?;
        let mut state = GameState::new(row.id, start, self.seats.clone(), row.open, row.created_at)
            .with_listed(row.listed)
            .with_settings(row.settings, row.admin_hash)
            .with_bot_seed(row.bot_seed.unwrap_or_else(|| seed_of_id(row.id)))
            .with_circle(row.circle);
        state.updated_at = row.summary.updated_at;
        state.rematch = row.summary.rematch.clone();
        Ok(state)
    }

    /// The game rebuilt by replaying its log from its start position.
    pub fn restore(&self) -> Result<GameState, ReplayError> {
        let mut state = self.start()?;
        for event in &self.events {
            state.replay(event)?;
        }
        // Games from before the `started` event: started when every seat was claimed.
        if !state.started && state.all_seated() {
            state.started = true;
        }
        Ok(state)
    }
}

/// The writes of one command of one game, committed together.
#[derive(Clone, Debug, Default)]
pub struct Commit {
    /// The game.
    pub game: Uuid,
    /// New events, in order.
    pub events: Vec<Event>,
    /// A new chat message.
    pub chat: Option<ChatLine>,
    /// A seat that becomes claimed (with its new name and token hash).
    pub claim: Option<Seat>,
    /// Seats changed by the creator before the start (a new invite, a bot).
    pub seats: Vec<Seat>,
    /// The game's new summary.
    pub summary: Option<GameSummaryRow>,
    /// With several nodes: the ownership it is made under (refused if that has ended).
    pub fence: Option<Fence>,
}

/// The store: a connection pool and the batching writer.
#[derive(Clone)]
pub struct Store {
    inner: Arc<Inner>,
}

struct Inner {
    pool: AnyPool,
    backend: Backend,
    writer: mpsc::Sender<WriterMsg>,
}

impl Store {
    /// Connects (creating a SQLite file if missing) and starts the writer. Run
    /// [`migrate`](Store::migrate) before use.
    pub async fn connect(
        url: &str,
        options: &StoreOptions,
        metrics: Arc<Metrics>,
    ) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = Backend::of_url(url)?;
        let url = match backend {
            Backend::Sqlite if !url.contains("mode=") => {
                let sep = if url.contains('?') { '&' } else { '?' };
                format!("{url}{sep}mode=rwc")
            }
            _ => url.to_string(),
        };
        let lease_ms = options.cluster_lease.map(|l| l.as_millis().max(1));
        let pool = AnyPoolOptions::new()
            .max_connections(options.max_connections.max(2))
            .acquire_timeout(options.connect_timeout)
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if let (Backend::Postgres, Some(ms)) = (backend, lease_ms) {
                        // A node cut off inside a transaction must not hold its rows (a game's
                        // ownership) past its lease, nor wait on a lock longer than one.
                        conn.execute(sqlx::AssertSqlSafe(format!(
                            "SET idle_in_transaction_session_timeout = {ms}; SET lock_timeout = {ms}"
                        )))
                        .await?;
                    }
                    if backend == Backend::Sqlite {
                        // WAL lets readers run beside the one writer; FULL keeps every
                        // acknowledged commit through a crash of the machine, not only of the
                        // process; the busy timeout rides out checkpoints.
                        conn.execute("PRAGMA journal_mode = WAL").await?;
                        conn.execute("PRAGMA synchronous = FULL").await?;
                        conn.execute("PRAGMA busy_timeout = 10000").await?;
                        conn.execute("PRAGMA foreign_keys = ON").await?;
                    }
                    Ok(())
                })
            })
            .connect(&url)
            .await
            .map_err(|e| connect_error::explain(e, &url))?;
        let (tx, rx) = mpsc::channel(options.commit_batch.max(1) * 16);
        tokio::spawn(writer::run(
            pool.clone(),
            rx,
            options.commit_batch.max(1),
            metrics,
        ));
        Ok(Store {
            inner: Arc::new(Inner {
                pool,
                backend,
                writer: tx,
            }),
        })
    }

    /// Which database this is.
    pub fn backend(&self) -> Backend {
        self.inner.backend
    }

    /// The connection pool (the cluster's own SQL runs on it).
    pub(crate) fn pool(&self) -> &AnyPool {
        &self.inner.pool
    }

    /// Brings the schema up to date (the migrations under `migrations/<backend>/`).
    pub async fn migrate(&self) -> Result<(), StoreError> {
        migrate::migrator(self.inner.backend)
            .run(&self.inner.pool)
            .await?;
        Ok(())
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.inner.pool).await?;
        Ok(())
    }

    /// Stores a new game with its seats and (for an imported game) its events, in one
    /// transaction.
    pub async fn create_game(
        &self,
        game: &GameRow,
        seats: &[Seat],
        events: &[Event],
    ) -> Result<(), StoreError> {
        self.create_game_and(game, seats, events, |_| async { Ok(()) }.boxed())
            .await
    }

    /// [`create_game`](Store::create_game), and `and` in the same transaction (several nodes:
    /// the game's first ownership, so that no node ever sees the new game without an owner).
    /// Nothing is stored if `and` fails.
    pub async fn create_game_and<T>(
        &self,
        game: &GameRow,
        seats: &[Seat],
        events: &[Event],
        and: impl for<'c> FnOnce(&'c mut AnyConnection) -> BoxFuture<'c, Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let mut tx = self.inner.pool.begin().await?;
        sql::insert_game(&mut tx, game).await?;
        for seat in seats {
            sql::insert_seat(&mut tx, game.id, seat).await?;
        }
        for event in events {
            sql::insert_event(&mut tx, game.id, event).await?;
        }
        let done = and(&mut tx).await?;
        tx.commit().await?;
        Ok(done)
    }

    /// Commits one command's writes (batched with other games'); returns once committed.
    pub async fn commit(&self, commit: Commit) -> Result<(), StoreError> {
        let (reply, done) = oneshot::channel();
        self.inner
            .writer
            .send(WriterMsg::Job(WriteJob { commit, reply }))
            .await
            .map_err(|_| StoreError::Closed)?;
        done.await.map_err(|_| StoreError::Closed)?
    }

    /// Loads a game with its seats, log and recent chat; `None` if there is no such game.
    pub async fn load_game(
        &self,
        id: Uuid,
        recent_chat: usize,
    ) -> Result<Option<StoredGame>, StoreError> {
        sql::load_game(&self.inner.pool, id, recent_chat).await
    }

    /// A game's events after version `since`, in order.
    pub async fn events_since(&self, id: Uuid, since: u64) -> Result<Vec<Event>, StoreError> {
        sql::events_since(&self.inner.pool, id, since).await
    }

    /// The ids of the games not finished.
    pub async fn unfinished_games(&self) -> Result<Vec<Uuid>, StoreError> {
        sql::unfinished_games(&self.inner.pool).await
    }

    /// Games with their seats, most recently changed first.
    pub async fn list_games(
        &self,
        status: Option<GameStatus>,
        limit: u32,
    ) -> Result<Vec<(GameRow, Vec<Seat>)>, StoreError> {
        sql::list_games(&self.inner.pool, status, limit).await
    }

    /// These games (at most 50) with their seats, most recently changed first.
    pub async fn games_by_ids(
        &self,
        ids: &[Uuid],
    ) -> Result<Vec<(GameRow, Vec<Seat>)>, StoreError> {
        sql::games_by_ids(&self.inner.pool, &ids[..ids.len().min(50)]).await
    }

    /// Records that the server is alive now (see [`last_alive`](Store::last_alive)).
    pub async fn heartbeat(&self, at: i64) -> Result<(), StoreError> {
        sql::heartbeat(&self.inner.pool, at).await
    }

    /// When the server was last recorded alive (before this start), if ever.
    pub async fn last_alive(&self) -> Result<Option<i64>, StoreError> {
        sql::last_alive(&self.inner.pool).await
    }

    /// Stops the writer once it has committed what it was given, then closes the pool. Later
    /// commits fail with [`StoreError::Closed`].
    pub async fn close(&self) {
        let (tx, rx) = oneshot::channel();
        if self.inner.writer.send(WriterMsg::Stop(tx)).await.is_ok() {
            let _ = rx.await;
        }
        self.inner.pool.close().await;
    }
}
