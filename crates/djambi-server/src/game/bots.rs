//! The bots' thinking: a fixed pool of OS threads, one engine each (its transposition table
//! kept between moves), never more of them than the machine's cores minus one, each at the
//! lowest scheduling priority — so a thinking bot never takes the core that answers the
//! players, and never delays another game's acks.
//! The async side sends a job and awaits its answer; the move then goes through the game's
//! actor like anyone's.

use std::sync::mpsc as std_mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use djambi_core::{Player, Position, Turn};
use djambi_engine::{Engine, EngineConfig, Level, Limits};
use tokio::sync::oneshot;

/// What a bot thread is asked.
enum Job {
    /// Choose a turn for the player to move.
    Think {
        pos: Position,
        level: Level,
        movetime: Duration,
        seed: u64,
        reply: oneshot::Sender<Option<Turn>>,
    },
    /// Whether `player` is losing (a bot accepts a draw offer when it is).
    Losing {
        pos: Position,
        player: Player,
        reply: oneshot::Sender<bool>,
    },
}

/// The pool of bot threads.
pub struct BotPool {
    jobs: Mutex<Option<std_mpsc::Sender<Job>>>,
    threads: usize,
}

impl BotPool {
    /// A pool of `threads` threads (at least one), each with an engine of `tt_bytes`.
    pub fn new(threads: usize, tt_bytes: usize) -> Arc<BotPool> {
        let threads = threads.max(1);
        let (tx, rx) = std_mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name(format!("djambi-bot-{i}"))
                .spawn(move || work(&rx, tt_bytes, i as u64))
                .expect("a bot thread starts");
        }
        Arc::new(BotPool {
            jobs: Mutex::new(Some(tx)),
            threads,
        })
    }

    /// The pool's size: all the machine's cores but one (at least one).
    pub fn default_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
    }

    /// How many threads think at most at once.
    pub fn threads(&self) -> usize {
        self.threads
    }

    fn send(&self, job: Job) {
        if let Some(tx) = self.jobs.lock().expect("bot pool lock").as_ref() {
            let _ = tx.send(job);
        }
    }

    /// A turn for the player to move in `pos`, chosen at `level` within `movetime` from the
    /// choices `seed` makes; none if the game is over or the pool stopped.
    pub async fn think(
        &self,
        pos: Position,
        level: Level,
        movetime: Duration,
        seed: u64,
    ) -> Option<Turn> {
        let (reply, answer) = oneshot::channel();
        self.send(Job::Think {
            pos,
            level,
            movetime,
            seed,
            reply,
        });
        answer.await.ok().flatten()
    }

    /// Whether `player` is losing in `pos`, by the engine's evaluation.
    pub async fn losing(&self, pos: Position, player: Player) -> bool {
        let (reply, answer) = oneshot::channel();
        self.send(Job::Losing { pos, player, reply });
        answer.await.unwrap_or(false)
    }

    /// Stops the threads once the jobs already sent are done.
    pub fn stop(&self) {
        self.jobs.lock().expect("bot pool lock").take();
    }
}

fn work(rx: &Mutex<std_mpsc::Receiver<Job>>, tt_bytes: usize, seed: u64) {
    // The lowest priority (nice 19 on Linux): a thread answering people always runs first,
    // whatever the bots think about.
    if let Err(e) =
        thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min)
    {
        tracing::warn!(error = ?e, "could not lower a bot thread's priority");
    }
    // The table is allocated on the first job, so an idle server does not hold it.
    let mut engine: Option<Engine> = None;
    loop {
        let job = {
            let rx = rx.lock().expect("bot queue lock");
            match rx.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        let engine = engine.get_or_insert_with(|| Engine::new(EngineConfig { tt_bytes, seed }));
        match job {
            Job::Think {
                pos,
                level,
                movetime,
                seed,
                reply,
            } => {
                engine.set_seed(seed);
                let turn = engine
                    .think(&pos, level, &Limits::movetime(movetime))
                    .ok()
                    .map(|r| r.best);
                let _ = reply.send(turn);
            }
            Job::Losing { pos, player, reply } => {
                let _ = reply.send(engine.assess(&pos, player).losing);
            }
        }
    }
}
