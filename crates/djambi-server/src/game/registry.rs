//! The registry of live games: finds a game's actor, loading the game from the store (by
//! replaying its log) when no actor holds it; creates and imports games; restores every
//! unfinished game at start-up; stops every actor at shutdown.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use djambi_core::{Army, Game, GameEvent, GameRecord, Player, Position, Rules};
use tokio::sync::mpsc;
use tokio_util::task::TaskTracker;
use tracing::Instrument;
use uuid::Uuid;

use super::actor::{Actor, Context};
use super::handle::{GameHandle, Gone};
use super::state::{GameState, Seat};
use super::{Limits, Presence, clean_text};
use crate::clock::{now_ms, rfc3339};
use crate::error::AppError;
use crate::metrics::Metrics;
use crate::protocol::GameStatus;
use crate::protocol::http::{CreatedGame, GameList, GameSummary, SeatInvite, SeatSummary};
use crate::store::{EventKind, EventRow, Store};
use crate::token::SeatToken;

/// Commands waiting in an actor's inbox before senders wait.
const INBOX: usize = 256;

/// A game to create.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The start position (with the ruleset).
    pub start: Position,
    /// Preset seat names.
    pub names: BTreeMap<Player, String>,
    /// Whether free seats are claimable without an invite.
    pub open: bool,
}

impl NewGame {
    /// A standard game: 4 players, or 3 with `hostage` (green by default).
    pub fn standard(players: u8, hostage: Option<Army>, rules: Rules) -> Result<NewGame, AppError> {
        let start = match (players, hostage) {
            (4, None) => Position::start(rules),
            (4, Some(_)) => {
                return Err(AppError::BadRequest(
                    "hostage: only a 3-player game has a hostage army".into(),
                ));
            }
            (3, hostage) => Position::start_hostage(hostage.unwrap_or(Army::Green), rules),
            _ => return Err(AppError::BadRequest("players: must be 3 or 4".into())),
        };
        Ok(NewGame {
            start,
            names: BTreeMap::new(),
            open: false,
        })
    }
}

/// The registry.
pub struct Registry {
    games: Arc<Mutex<HashMap<Uuid, GameHandle>>>,
    /// Held while a game is loaded, so one game never gets two actors.
    loading: tokio::sync::Mutex<()>,
    ctx: Arc<Context>,
    tasks: TaskTracker,
    generation: AtomicU64,
    closed: AtomicBool,
    max_live_games: usize,
    base_url: String,
}

impl Registry {
    /// A registry over `store`.
    pub fn new(
        store: Store,
        metrics: Arc<Metrics>,
        limits: Limits,
        max_live_games: usize,
        base_url: String,
    ) -> Registry {
        let games = Arc::new(Mutex::new(HashMap::new()));
        Registry {
            games: games.clone(),
            loading: tokio::sync::Mutex::new(()),
            ctx: Arc::new(Context {
                store,
                metrics,
                limits,
                games,
            }),
            tasks: TaskTracker::new(),
            generation: AtomicU64::new(1),
            closed: AtomicBool::new(false),
            max_live_games,
            base_url,
        }
    }

    fn metrics(&self) -> &Metrics {
        &self.ctx.metrics
    }

    fn cached(&self, id: Uuid) -> Option<GameHandle> {
        self.games.lock().expect("registry lock").get(&id).cloned()
    }

    /// The handle of a game, loading it if needed; `None` if there is no such game.
    pub async fn get(&self, id: Uuid) -> Result<Option<GameHandle>, AppError> {
        if let Some(handle) = self.cached(id) {
            return Ok(Some(handle));
        }
        if self.closed.load(Relaxed) {
            return Err(AppError::Unavailable("the server is shutting down".into()));
        }
        let _loading = self.loading.lock().await;
        if let Some(handle) = self.cached(id) {
            return Ok(Some(handle));
        }
        let limits = &self.ctx.limits;
        let Some(stored) = self.ctx.store.load_game(id, limits.recent_chat).await? else {
            return Ok(None);
        };
        let state = GameState::restore(&stored).map_err(|e| {
            tracing::error!(game = %id, error = %e, "stored game does not replay");
            AppError::Internal
        })?;
        let handle = self.spawn(state, |actor| {
            actor.with_history(
                &stored.events,
                stored.recent_chat.clone(),
                stored.last_chat_id,
                &stored.chat_acks,
            )
        });
        Ok(Some(handle))
    }

    /// Runs `f` on a game's handle; if its actor was just unloaded, loads it again once.
    pub async fn with_game<T, F, Fut>(&self, id: Uuid, f: F) -> Result<T, AppError>
    where
        F: Fn(GameHandle) -> Fut,
        Fut: Future<Output = Result<T, Gone>>,
    {
        for _ in 0..2 {
            let handle = self.get(id).await?.ok_or_else(|| AppError::no_game(id))?;
            match f(handle).await {
                Ok(value) => return Ok(value),
                Err(Gone) => continue,
            }
        }
        Err(AppError::Unavailable("the game is restarting".into()))
    }

    fn spawn(&self, state: GameState, setup: impl FnOnce(Actor) -> Actor) -> GameHandle {
        let id = state.id;
        let generation = self.generation.fetch_add(1, Relaxed);
        let presence = Arc::new(Presence::default());
        let (tx, rx) = mpsc::channel(INBOX);
        let handle = GameHandle {
            id,
            generation,
            inbox: tx,
            presence: presence.clone(),
        };
        let actor = setup(Actor::new(state, self.ctx.clone(), presence, generation));
        self.games
            .lock()
            .expect("registry lock")
            .insert(id, handle.clone());
        self.tasks.spawn(
            actor
                .run(rx)
                .instrument(tracing::info_span!("game", game = %id)),
        );
        handle
    }

    fn check_capacity(&self) -> Result<(), AppError> {
        if self.closed.load(Relaxed) {
            return Err(AppError::Unavailable("the server is shutting down".into()));
        }
        if self.metrics().live_games.load(Relaxed) as usize >= self.max_live_games {
            return Err(AppError::Unavailable(
                "too many games are running; try again later".into(),
            ));
        }
        Ok(())
    }

    fn seats(
        &self,
        game: &Game,
        names: &BTreeMap<Player, String>,
    ) -> Result<Vec<(Seat, SeatToken)>, AppError> {
        for (p, name) in names {
            if !game.players().contains(*p) {
                return Err(AppError::BadRequest(format!(
                    "names: no seat {p} in this game"
                )));
            }
            clean_text(name, self.ctx.limits.max_name_chars)
                .map_err(|(_, why)| AppError::BadRequest(format!("names.{p}: {why}")))?;
        }
        Ok(game
            .players()
            .iter()
            .map(|player| {
                let token = SeatToken::generate();
                let seat = Seat {
                    player,
                    name: names
                        .get(&player)
                        .map(|n| clean_text(n, usize::MAX).unwrap_or(n).to_string()),
                    token_hash: token.hash(),
                    claimed: false,
                };
                (seat, token)
            })
            .collect())
    }

    /// Creates a game and its actor; the answer holds the seat tokens (shown only now).
    pub async fn create(&self, new: NewGame) -> Result<CreatedGame, AppError> {
        self.check_capacity()?;
        let id = Uuid::new_v4();
        let seats = self.seats(&Game::new(new.start), &new.names)?;
        let state = GameState::new(
            id,
            new.start,
            seats.iter().map(|(s, _)| s.clone()).collect(),
            new.open,
            now_ms(),
        );
        let rows: Vec<_> = state.seats.iter().map(Seat::row).collect();
        self.ctx.store.create_game(&state.row(), &rows, &[]).await?;
        tracing::info!(game = %id, players = state.players, open = state.open, "game created");
        self.spawn(state, |a| a);
        Ok(self.created(id, seats))
    }

    /// Imports a game record (NOTATION §4), checked by replaying it; the game goes on from
    /// where the record ends.
    pub async fn import(&self, record: &GameRecord) -> Result<CreatedGame, AppError> {
        let game = Game::from_record(record).map_err(|e| AppError::InvalidRecord(e.to_string()))?;
        if !game.position().is_game_over() {
            self.check_capacity()?;
        }
        let id = Uuid::new_v4();
        let seats = self.seats(&game, &BTreeMap::new())?;
        let now = now_ms();
        let mut state = GameState::new(
            id,
            *game.start(),
            seats.iter().map(|(s, _)| s.clone()).collect(),
            false,
            now,
        );
        let mut rows = Vec::new();
        for event in game.events() {
            for kind in log_events(&state, event) {
                state
                    .apply(&kind)
                    .map_err(|e| AppError::InvalidRecord(format!("event {}: {e}", state.v + 1)))?;
                rows.push(EventRow {
                    v: state.v,
                    kind,
                    ack: None,
                    at: now,
                });
            }
        }
        debug_assert_eq!(state.position(), game.position());
        let seat_rows: Vec<_> = state.seats.iter().map(Seat::row).collect();
        self.ctx
            .store
            .create_game(&state.row(), &seat_rows, &rows)
            .await?;
        tracing::info!(game = %id, events = rows.len(), "game imported");
        self.spawn(state, |a| a);
        Ok(self.created(id, seats))
    }

    fn created(&self, id: Uuid, seats: Vec<(Seat, SeatToken)>) -> CreatedGame {
        let url = format!("{}/game/{id}", self.base_url);
        CreatedGame {
            id,
            seats: seats
                .into_iter()
                .map(|(seat, token)| SeatInvite {
                    player: seat.player,
                    name: seat.name,
                    invite_url: format!("{url}#seat={}&token={}", seat.player, token.as_str()),
                    token: token.as_str().to_string(),
                })
                .collect(),
            url,
        }
    }

    /// Games from the store, with who is connected now.
    pub async fn list(&self, status: Option<GameStatus>, limit: u32) -> Result<GameList, AppError> {
        let rows = self.ctx.store.list_games(status, limit).await?;
        let games = rows
            .into_iter()
            .map(|(row, seats)| {
                let live = self.cached(row.id);
                let presence = live.as_ref().map(|h| h.presence());
                let s = row.summary;
                GameSummary {
                    id: row.id,
                    players: row.players,
                    hostage: row.hostage,
                    open: row.open,
                    status: s.status,
                    seats: seats
                        .into_iter()
                        .map(|seat| SeatSummary {
                            player: seat.player,
                            name: seat.name,
                            claimed: seat.claimed,
                            connected: presence.is_some_and(|p| p.seat(seat.player) > 0),
                        })
                        .collect(),
                    spectators: presence.map_or(0, |p| p.spectators()),
                    to_move: s.to_move,
                    turn: s.turn,
                    v: s.v,
                    result: s.result,
                    created_at: rfc3339(row.created_at),
                    updated_at: rfc3339(s.updated_at),
                }
            })
            .collect();
        Ok(GameList { games })
    }

    /// Loads every unfinished game (replaying its log), so play resumes where it stopped.
    pub async fn restore_all(&self) -> Result<usize, AppError> {
        let ids = self.ctx.store.unfinished_games().await?;
        let mut restored = 0;
        for id in ids {
            match self.get(id).await {
                Ok(Some(_)) => restored += 1,
                Ok(None) => {}
                Err(e) => tracing::error!(game = %id, error = %e, "could not restore"),
            }
        }
        Ok(restored)
    }

    /// Stops every actor: each finishes the commands it was sent before, tells its connections
    /// that the server restarts, and ends. Waits at most `timeout`.
    pub async fn shutdown(&self, timeout: Duration) {
        self.closed.store(true, Relaxed);
        let handles: Vec<GameHandle> = self
            .games
            .lock()
            .expect("registry lock")
            .values()
            .cloned()
            .collect();
        for handle in handles {
            handle.shutdown().await;
        }
        self.tasks.close();
        if tokio::time::timeout(timeout, self.tasks.wait())
            .await
            .is_err()
        {
            tracing::warn!("some games did not stop in time");
        }
    }
}

/// The log events of one record event: a turn or a resignation is one; an agreed draw is the
/// offer, the agreements and the last agreement, as it happens live.
fn log_events(state: &GameState, event: &GameEvent) -> Vec<EventKind> {
    match *event {
        GameEvent::Turn { player, turn, .. } => vec![EventKind::Turn {
            player,
            text: turn.to_string(),
        }],
        GameEvent::Resign(p) => vec![EventKind::Resign(p)],
        GameEvent::Draw => {
            let alive: Vec<Player> = state.position().alive().iter().collect();
            let mut kinds = Vec::new();
            for (i, p) in alive.iter().enumerate() {
                kinds.push(match i {
                    0 => EventKind::DrawOffered(*p),
                    i if i + 1 == alive.len() => EventKind::DrawAgreed(*p),
                    _ => EventKind::DrawAccepted(*p),
                });
            }
            kinds
        }
    }
}
