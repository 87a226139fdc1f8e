//! Post-game analysis (`GET /api/games/{id}/analysis`): the engine judges every turn of a
//! finished game, once, and the result is stored with the game.
//!
//! - **Once.** A stored analysis is read, never computed again (a restart keeps it). While one
//!   waits or runs on this node, further requests see its progress instead of starting
//!   another; with several nodes, two may compute the same game at once, and the store keeps
//!   the first one written (insert-if-absent). A computation checks the store again before it
//!   starts, so a request that raced the end of another's finds it done.
//! - **Bounded.** At most [`AnalysisSettings::queue`] analyses wait or run on a node (more are
//!   refused as busy, to be asked again later), [`AnalysisSettings::concurrent`] of them at
//!   once, each turn a background job of the bot pool ([`BotPool::background`]): live games'
//!   bots and hints always go first, and never wait for an analysis.
//! - **Effort.** Each turn is judged by the engine's value model (no search beyond its ply:
//!   the same analysis on any machine), a few milliseconds a turn: a 100-turn game takes about
//!   a second of an idle bot thread.

mod run;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Semaphore;
use uuid::Uuid;

use crate::clock::now_ms;
use crate::game::bots::{BotPool, Charge};
use crate::net::IpKey;
use crate::protocol::analysis::{AnalysisProgress, AnalysisStatus};
use crate::store::{Store, StoreError, StoredAnalysis, StoredGame};
use crate::table::GameStatus;

/// How long a client refused for a full queue is told to wait.
pub const BUSY_RETRY: Duration = Duration::from_secs(30);

/// How analyses run.
#[derive(Clone, Copy, Debug)]
pub struct AnalysisSettings {
    /// Most analyses waiting or running at once on this node.
    pub queue: usize,
    /// Most turns of analyses waiting or running at once on this node.
    pub queue_turns: u32,
    /// Most analyses running at once.
    pub concurrent: usize,
}

/// Why an analysis cannot be given or started.
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// No such game.
    #[error("no game {0}")]
    NoGame(Uuid),
    /// The game is not finished (only finished games are analysed).
    #[error("the game is {}: only a finished game is analysed", .0.as_str())]
    NotFinished(GameStatus),
    /// As many analyses wait as allowed; ask again after this long.
    #[error("the server is busy with other analyses; try again later")]
    Busy(Duration),
    /// This address has its share of the queue already; ask again after this long.
    #[error("analyses you asked for are still waiting; ask again once they are done")]
    YourShare(Duration),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// An analysis: stored, or on its way.
#[derive(Clone, Debug)]
pub enum Status {
    /// Done: the stored analysis.
    Done(StoredAnalysis),
    /// Waiting or running (or, from [`Analyses::peek`], not started).
    InProgress(AnalysisProgress),
}

/// An analysis waiting or running on this node.
#[derive(Default)]
struct Job {
    /// Who asked (its share of the queue).
    payer: Option<IpKey>,
    /// Its game's turns (what it costs the queue).
    cost: u32,
    /// Whether it runs (else it waits for a slot).
    running: AtomicBool,
    /// Turns judged.
    done: AtomicU32,
    /// Turns to judge.
    total: AtomicU32,
}

/// The analyses of this node: the stored ones, and those on their way.
pub struct Analyses {
    store: Store,
    bots: Arc<BotPool>,
    settings: AnalysisSettings,
    jobs: Mutex<HashMap<Uuid, Arc<Job>>>,
    slots: Arc<Semaphore>,
    computed: AtomicU64,
}

impl Analyses {
    /// The analyses of games in `store`, thought on `bots`.
    pub fn new(store: Store, bots: Arc<BotPool>, settings: AnalysisSettings) -> Arc<Analyses> {
        Arc::new(Analyses {
            store,
            bots,
            settings,
            jobs: Mutex::new(HashMap::new()),
            slots: Arc::new(Semaphore::new(settings.concurrent.max(1))),
            computed: AtomicU64::new(0),
        })
    }

    /// Game `id`'s analysis if it is stored or on its way here; none if neither.
    pub async fn status(&self, id: Uuid) -> Result<Option<Status>, AnalysisError> {
        if let Some(stored) = self.store.load_analysis(id).await? {
            return Ok(Some(Status::Done(stored)));
        }
        Ok(self.progress(id).map(Status::InProgress))
    }

    /// Game `id`'s analysis if it is stored or on its way, else `not_started` for a finished
    /// game; never starts one.
    pub async fn peek(&self, id: Uuid) -> Result<Status, AnalysisError> {
        if let Some(status) = self.status(id).await? {
            return Ok(status);
        }
        match self.store.game_status(id).await? {
            None => Err(AnalysisError::NoGame(id)),
            Some(GameStatus::Finished) => Ok(Status::InProgress(AnalysisProgress {
                status: AnalysisStatus::NotStarted,
                game: id,
                done: 0,
                total: 0,
            })),
            Some(status) => Err(AnalysisError::NotFinished(status)),
        }
    }

    /// Starts analysing game `id`, which must be finished; if it is already on its way, its
    /// progress.
    ///
    /// An analysis costs the queue its game's turns, read from the game's row alone: a start
    /// the queue refuses (full, or the address's share taken) loads nothing.
    pub async fn start(
        self: &Arc<Self>,
        id: Uuid,
        requester: Option<IpKey>,
    ) -> Result<Status, AnalysisError> {
        let (status, turns) = self
            .store
            .game_size(id)
            .await?
            .ok_or(AnalysisError::NoGame(id))?;
        if status != GameStatus::Finished {
            return Err(AnalysisError::NotFinished(status));
        }
        let job = {
            let mut jobs = self.jobs.lock().expect("analyses lock");
            if let Some(job) = jobs.get(&id) {
                return Ok(Status::InProgress(progress(id, job)));
            }
            self.admit(&jobs, requester, turns)?;
            let job = Arc::new(Job {
                payer: requester,
                cost: turns,
                ..Job::default()
            });
            jobs.insert(id, job.clone());
            job
        };
        let stored = match self.store.load_game(id, 0).await {
            Ok(Some(stored)) => stored,
            outcome => {
                self.jobs.lock().expect("analyses lock").remove(&id);
                return match outcome {
                    Err(e) => Err(e.into()),
                    _ => Err(AnalysisError::NoGame(id)),
                };
            }
        };
        let progress = progress(id, &job);
        let guard = JobGuard {
            analyses: self.clone(),
            id,
        };
        tokio::spawn(async move {
            let charge = Charge::new(requester, Some(id));
            if let Err(e) = guard.analyses.compute(id, stored, &job, charge).await {
                tracing::warn!(game = %id, error = %e, "the analysis failed");
            }
            drop(guard);
        });
        Ok(Status::InProgress(progress))
    }

    /// Whether an analysis of `turns` turns asked for by `payer` fits the queue: at most
    /// [`AnalysisSettings::queue`] analyses and [`AnalysisSettings::queue_turns`] turns in all,
    /// and a quarter of each per address (an address with nothing queued always fits an
    /// empty queue: a long game can be analysed).
    fn admit(
        &self,
        jobs: &HashMap<Uuid, Arc<Job>>,
        payer: Option<IpKey>,
        turns: u32,
    ) -> Result<(), AnalysisError> {
        let queue = self.settings.queue.max(1);
        let queue_turns = u64::from(self.settings.queue_turns.max(1));
        let total: u64 = jobs.values().map(|j| u64::from(j.cost)).sum();
        if payer.is_some() {
            let mine: Vec<&Arc<Job>> = jobs.values().filter(|j| j.payer == payer).collect();
            let my_turns: u64 = mine.iter().map(|j| u64::from(j.cost)).sum();
            if !mine.is_empty()
                && (mine.len() + 1 > (queue / 4).max(1)
                    || my_turns + u64::from(turns) > (queue_turns / 4).max(1))
            {
                return Err(AnalysisError::YourShare(BUSY_RETRY));
            }
        }
        if jobs.len() >= queue || (!jobs.is_empty() && total + u64::from(turns) > queue_turns) {
            return Err(AnalysisError::Busy(BUSY_RETRY));
        }
        Ok(())
    }

    /// How many analyses this node computed and stored since it started.
    pub fn computed(&self) -> u64 {
        self.computed.load(Ordering::Relaxed)
    }

    fn progress(&self, id: Uuid) -> Option<AnalysisProgress> {
        let jobs = self.jobs.lock().expect("analyses lock");
        jobs.get(&id).map(|job| progress(id, job))
    }

    /// Computes and stores game `id`'s analysis, when a slot is free.
    async fn compute(
        &self,
        id: Uuid,
        stored: StoredGame,
        job: &Job,
        charge: Charge,
    ) -> Result<(), AnalysisError> {
        let Ok(_slot) = self.slots.clone().acquire_owned().await else {
            return Ok(());
        };
        // Stored meanwhile (by a request that raced the end of another, or by another node).
        if self.store.load_analysis(id).await?.is_some() {
            return Ok(());
        }
        let state = tokio::task::spawn_blocking(move || stored.restore())
            .await
            .map_err(|_| StoreError::Corrupt(format!("game {id}: the replay panicked")))?
            .map_err(|e| StoreError::Corrupt(format!("game {id}: {e}")))?;
        job.total.store(state.turn_count(), Ordering::Relaxed);
        job.running.store(true, Ordering::Relaxed);
        let Some(view) = run::analyse(&self.bots, &state, &job.done, charge).await else {
            // The bot pool stopped: the server is shutting down.
            return Ok(());
        };
        let analysis = StoredAnalysis {
            movetime_ms: 0,
            body: serde_json::to_string(&view).expect("an analysis serialises"),
            created_at: now_ms(),
        };
        if self.store.save_analysis(id, &analysis).await? {
            tracing::info!(game = %id, turns = view.turns.len(), "analysed");
        }
        self.computed.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }
}

/// The progress of a job.
fn progress(id: Uuid, job: &Job) -> AnalysisProgress {
    let running = job.running.load(Ordering::Relaxed);
    AnalysisProgress {
        status: if running {
            AnalysisStatus::Running
        } else {
            AnalysisStatus::Pending
        },
        game: id,
        done: job.done.load(Ordering::Relaxed),
        total: job.total.load(Ordering::Relaxed),
    }
}

/// Forgets a job when its task ends, however it ends (a panic included), so the game can be
/// asked for again: after its analysis is stored, or to try again after a failure.
struct JobGuard {
    analyses: Arc<Analyses>,
    id: Uuid,
}

impl Drop for JobGuard {
    fn drop(&mut self) {
        if let Ok(mut jobs) = self.analyses.jobs.lock() {
            jobs.remove(&self.id);
        }
    }
}
