//! The bots' thinking: a fixed pool of OS threads, one engine each (its transposition table
//! kept between moves), as many as the machine has cores, each at the lowest scheduling
//! priority — so a thinking bot never takes a core from the threads that answer people, and the
//! cores are all used when nobody else needs them.
//! The async side sends a job and awaits its answer; a bot's move then goes through the game's
//! actor like anyone's.
//!
//! **Who goes first** ([`fair`]): a live game's bot (its turn, its answer to a draw offer)
//! before any hint, a hint before any analysis; within a class, the payer that had the least of
//! the threads lately (a hint or an analysis is charged to the address that asked; a bot's turn
//! to the address that created its game), then its game that had the least. So no address's
//! work delays another's by more than the one job each thread is running, however many jobs
//! or games it queues.
//!
//! **Bounded.** Hints wait in a bounded queue: an address has at most one hint waiting or
//! thinking ([`Refused::Yours`]); when the queue is full, the hint of the address that used the
//! most lately gives its place to a newcomer that used less, and otherwise the newcomer is the
//! one refused ([`Refused::Busy`]): never an address that asks little for one that asks much.
//! Bots' turns are bounded by the games (one think at a time each, their number capped per
//! address); an analysis has one turn queued at a time. A job whose requester went away (its
//! answer is no longer awaited: a closed HTTP request) is dropped before it runs.
//!
//! **Background work.** An analysis's turn runs only when no bot turn or hint waits; a bot or
//! a hint that finds every thread busy stops one at once (its stop flag), and that turn is asked
//! again later. So analyses never delay a bot or a hint by more than the few hundred nodes
//! between two polls of the stop flag.

pub mod fair;

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use djambi_core::{Player, Position, Turn};
use djambi_engine::{Engine, EngineConfig, Level, Limits};
use tokio::sync::oneshot;

pub use fair::{Charge, Class, Payer};

use fair::Fair;

/// How long a draw answer (an evaluation, no search) is expected to take.
const ASSESS_ESTIMATE: Duration = Duration::from_millis(5);

/// A background job's answer, before it is handed back as its own type.
type AnyAnswer = Box<dyn Any + Send>;

/// A background job: it runs on a bot thread's engine with the thread's stop flag, which is
/// set when an urgent job needs the thread.
type Background = Box<dyn FnOnce(&mut Engine, Arc<AtomicBool>) -> AnyAnswer + Send>;

/// What a bot thread is asked.
enum Work {
    /// Choose a turn for the player to move (a bot's turn).
    Think {
        pos: Position,
        level: Level,
        movetime: Duration,
        seed: u64,
        reply: oneshot::Sender<Option<Turn>>,
    },
    /// A person's hint: a turn for the player to move.
    Hint {
        pos: Position,
        movetime: Duration,
        seed: u64,
        reply: oneshot::Sender<Result<Turn, Refused>>,
    },
    /// Whether `player` is losing (a bot accepts a draw offer when it is).
    Losing {
        pos: Position,
        player: Player,
        reply: oneshot::Sender<bool>,
    },
    /// A turn of an analysis.
    Background {
        job: Background,
        reply: oneshot::Sender<AnyAnswer>,
    },
}

impl Work {
    /// Nobody waits for the answer any more.
    fn abandoned(&self) -> bool {
        match self {
            Work::Think { reply, .. } => reply.is_closed(),
            Work::Hint { reply, .. } => reply.is_closed(),
            Work::Losing { reply, .. } => reply.is_closed(),
            Work::Background { reply, .. } => reply.is_closed(),
        }
    }
}

/// Why a hint is not thought about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// This address already has a hint waiting or thinking.
    #[error("a hint you asked for is still being thought about")]
    Yours,
    /// The hint queue is full of other addresses' hints, none of which used more of the bot
    /// threads lately than this one; or this hint's place went to one of an address that used
    /// less.
    #[error("the engine is busy with other people's hints; try again in a moment")]
    Busy,
    /// The pool stopped (the server is shutting down).
    #[error("the engine is not available")]
    Stopped,
}

/// The pool's bounds.
#[derive(Clone, Copy, Debug)]
pub struct PoolLimits {
    /// Threads (at least one).
    pub threads: usize,
    /// Each thread's transposition table, in bytes.
    pub tt_bytes: usize,
    /// Hints waiting at once (not counting those thinking).
    pub hint_queue: usize,
    /// Hints one address may have waiting or thinking.
    pub hints_per_address: usize,
}

impl PoolLimits {
    /// `threads` threads with tables of `tt_bytes`, and the default hint bounds: four hints
    /// waiting per thread, one per address.
    pub fn new(threads: usize, tt_bytes: usize) -> PoolLimits {
        PoolLimits {
            threads: threads.max(1),
            tt_bytes,
            hint_queue: 4 * threads.max(1),
            hints_per_address: 1,
        }
    }
}

/// What the pool did, for /metrics.
#[derive(Debug, Default)]
pub struct PoolCounts {
    /// Jobs dropped before they ran because nobody waited for them any more.
    pub abandoned: AtomicU64,
    /// Hints refused: the address had one already.
    pub refused_yours: AtomicU64,
    /// Hints refused or evicted: the queue was full.
    pub refused_busy: AtomicU64,
}

/// The jobs waiting, and what the threads are doing.
struct Queue {
    fair: Fair<Work>,
    /// Hints thinking now, per payer.
    hints_running: HashMap<Payer, usize>,
    /// Threads waiting for a job.
    idle: usize,
    /// Each thread's stop flag while it runs a background job.
    preemptible: Vec<Option<Arc<AtomicBool>>>,
    /// No new job is taken; the threads end once the urgent jobs are done.
    closed: bool,
    /// When the payers' table was last tidied.
    tidied: Instant,
}

/// What the pool's threads share.
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
    counts: PoolCounts,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().expect("bot queue lock")
    }
}

/// The pool of bot threads.
pub struct BotPool {
    shared: Arc<Shared>,
    limits: PoolLimits,
}

impl BotPool {
    /// A pool of `limits.threads` threads.
    pub fn new(limits: PoolLimits) -> Arc<BotPool> {
        let threads = limits.threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                fair: Fair::default(),
                hints_running: HashMap::new(),
                idle: 0,
                preemptible: vec![None; threads],
                closed: false,
                tidied: Instant::now(),
            }),
            ready: Condvar::new(),
            counts: PoolCounts::default(),
        });
        for i in 0..threads {
            let shared = shared.clone();
            let tt_bytes = limits.tt_bytes;
            std::thread::Builder::new()
                .name(format!("djambi-bot-{i}"))
                .spawn(move || work(&shared, i, tt_bytes))
                .expect("a bot thread starts");
        }
        Arc::new(BotPool { shared, limits })
    }

    /// The pool's default size: every core of the machine (the threads run at the lowest
    /// priority, so the threads answering people still come first).
    pub fn default_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    /// How many threads think at most at once.
    pub fn threads(&self) -> usize {
        self.limits.threads
    }

    /// What the pool refused and dropped so far.
    pub fn counts(&self) -> &PoolCounts {
        &self.shared.counts
    }

    /// Jobs waiting now, of `class`.
    pub fn waiting(&self, class: Class) -> usize {
        self.shared.lock().fair.waiting(class)
    }

    /// Queues an urgent job; if every thread is busy, stops one that runs a background job.
    fn send(&self, work: Work, class: Class, charge: Charge, estimate: Duration) {
        let mut queue = self.shared.lock();
        if queue.closed {
            return;
        }
        queue.fair.push(work, class, charge, estimate);
        preempt(&queue);
        drop(queue);
        self.shared.ready.notify_one();
    }

    /// Runs `job` on a bot thread's engine when no bot turn or hint waits, charged to `charge`
    /// (an analysis: the address that asked), and answers what it returns; none if the pool
    /// stopped first. The job is handed the thread's stop flag (for its [`Limits`]): when the
    /// flag is set, an urgent job wants the thread, and the job should return at once (its
    /// search cut short) and be asked again later.
    pub async fn background<T: Send + 'static>(
        &self,
        charge: Charge,
        estimate: Duration,
        job: impl FnOnce(&mut Engine, Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Option<T> {
        let (reply, answer) = oneshot::channel();
        {
            let mut queue = self.shared.lock();
            if queue.closed {
                return None;
            }
            let job: Background = Box::new(move |engine, stop| Box::new(job(engine, stop)));
            queue.fair.push(
                Work::Background { job, reply },
                Class::Analysis,
                charge,
                estimate,
            );
        }
        self.shared.ready.notify_one();
        answer.await.ok()?.downcast::<T>().ok().map(|t| *t)
    }

    /// A bot's turn for the player to move in `pos`, chosen at `level` within `movetime` from
    /// the choices `seed` makes, charged to `charge` (the game's creator); none if the game is
    /// over or the pool stopped.
    pub async fn think(
        &self,
        pos: Position,
        level: Level,
        movetime: Duration,
        seed: u64,
        charge: Charge,
    ) -> Option<Turn> {
        let (reply, answer) = oneshot::channel();
        let work = Work::Think {
            pos,
            level,
            movetime,
            seed,
            reply,
        };
        self.send(work, Class::Turn, charge, movetime);
        answer.await.ok().flatten()
    }

    /// A person's hint: a turn for the player to move in `pos` (the hard level), within
    /// `movetime`, charged to `charge` (the address that asked). Refused when that address has
    /// one on its way, or when the queue is full and every hint in it comes from an address
    /// that used no more of the threads lately.
    pub async fn hint(
        &self,
        pos: Position,
        movetime: Duration,
        seed: u64,
        charge: Charge,
    ) -> Result<Turn, Refused> {
        let (reply, answer) = oneshot::channel();
        {
            let mut queue = self.shared.lock();
            if queue.closed {
                return Err(Refused::Stopped);
            }
            let payer = charge.payer();
            let counts = &self.shared.counts;
            let dropped = queue.fair.drop_abandoned(Work::abandoned);
            counts
                .abandoned
                .fetch_add(dropped.len() as u64, Ordering::Relaxed);
            let mine = queue.fair.waiting_for(Class::Hint, payer)
                + queue.hints_running.get(&payer).copied().unwrap_or(0);
            let now = Instant::now();
            if mine >= self.limits.hints_per_address.max(1) {
                queue.fair.charge_refused(charge, movetime, now);
                counts.refused_yours.fetch_add(1, Ordering::Relaxed);
                return Err(Refused::Yours);
            }
            if queue.fair.waiting(Class::Hint) >= self.limits.hint_queue.max(1) {
                match queue.fair.evict_for(Class::Hint, payer, now) {
                    Some(Work::Hint { reply, .. }) => {
                        let _ = reply.send(Err(Refused::Busy));
                        counts.refused_busy.fetch_add(1, Ordering::Relaxed);
                    }
                    Some(_) => unreachable!("evict_for returns a job of the class asked"),
                    None => {
                        queue.fair.charge_refused(charge, movetime, now);
                        counts.refused_busy.fetch_add(1, Ordering::Relaxed);
                        return Err(Refused::Busy);
                    }
                }
            }
            let work = Work::Hint {
                pos,
                movetime,
                seed,
                reply,
            };
            queue.fair.push(work, Class::Hint, charge, movetime);
            preempt(&queue);
        }
        self.shared.ready.notify_one();
        answer.await.unwrap_or(Err(Refused::Stopped))
    }

    /// Whether `player` is losing in `pos`, by the engine's evaluation (a bot's answer to a
    /// draw offer), charged to `charge` (the game's creator).
    pub async fn losing(&self, pos: Position, player: Player, charge: Charge) -> bool {
        let (reply, answer) = oneshot::channel();
        let work = Work::Losing { pos, player, reply };
        self.send(work, Class::Turn, charge, ASSESS_ESTIMATE);
        answer.await.unwrap_or(false)
    }

    /// Stops the threads once the bots' turns and hints already sent are done; analyses not
    /// started are dropped (their callers get none).
    pub fn stop(&self) {
        let mut queue = self.shared.lock();
        queue.closed = true;
        let waiting = queue.fair.clear();
        for work in waiting {
            match work {
                Work::Background { .. } => {}
                urgent => queue
                    .fair
                    .push(urgent, Class::Turn, Charge::default(), Duration::ZERO),
            }
        }
        drop(queue);
        self.shared.ready.notify_all();
    }
}

/// If no thread is idle, asks one that runs a background job to stop (an urgent job waits).
fn preempt(queue: &Queue) {
    if queue.idle == 0
        && let Some(flag) = queue
            .preemptible
            .iter()
            .flatten()
            .find(|f| !f.load(Ordering::Relaxed))
    {
        flag.store(true, Ordering::Relaxed);
    }
}

/// What a thread does next.
enum Next {
    Job(fair::Started<Work>),
    Stop,
}

/// The next job of thread `i`: a bot's turn or a hint first, then an analysis (registered as
/// stoppable), waiting for one if there is none. Jobs nobody waits for are dropped.
fn next(shared: &Shared, i: usize, stop: &Arc<AtomicBool>) -> Next {
    let mut queue = shared.lock();
    queue.preemptible[i] = None;
    loop {
        let now = Instant::now();
        if now.duration_since(queue.tidied) > fair::HALF_LIFE {
            queue.fair.forget_idle(now);
            queue.tidied = now;
        }
        let dropped = queue.fair.drop_abandoned(Work::abandoned);
        shared
            .counts
            .abandoned
            .fetch_add(dropped.len() as u64, Ordering::Relaxed);
        let closed = queue.closed;
        if let Some(started) = queue
            .fair
            .pop(now, |class| class != Class::Analysis || !closed)
        {
            if started.class == Class::Analysis {
                stop.store(false, Ordering::Relaxed);
                queue.preemptible[i] = Some(stop.clone());
            }
            if started.class == Class::Hint {
                *queue
                    .hints_running
                    .entry(started.charge.payer())
                    .or_default() += 1;
            }
            return Next::Job(started);
        }
        if closed {
            return Next::Stop;
        }
        queue.idle += 1;
        queue = shared.ready.wait(queue).expect("bot queue lock");
        queue.idle -= 1;
    }
}

fn work(shared: &Shared, i: usize, tt_bytes: usize) {
    // The lowest priority (nice 19 on Linux): a thread answering people always runs first,
    // whatever the bots think about.
    if let Err(e) =
        thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min)
    {
        tracing::warn!(error = ?e, "could not lower a bot thread's priority");
    }
    // The table is allocated on the first job, so an idle server does not hold it.
    let mut engine: Option<Engine> = None;
    let stop = Arc::new(AtomicBool::new(false));
    loop {
        let started = match next(shared, i, &stop) {
            Next::Stop => return,
            Next::Job(started) => started,
        };
        let engine = engine.get_or_insert_with(|| new_engine(tt_bytes, i));
        let began = Instant::now();
        let payer = started.charge.payer();
        let class = started.class;
        let answer = run(engine, started.job, &stop);
        let mut queue = shared.lock();
        queue.fair.done(
            started.charge,
            started.estimate,
            began.elapsed(),
            Instant::now(),
        );
        if class == Class::Hint
            && let Some(n) = queue.hints_running.get_mut(&payer)
        {
            *n -= 1;
            if *n == 0 {
                queue.hints_running.remove(&payer);
            }
        }
        drop(queue);
        answer.send();
    }
}

/// A job's answer, sent once the pool's books are up to date (so that a requester told its
/// hint is done may ask for the next one at once).
enum Answer {
    Turn(oneshot::Sender<Option<Turn>>, Option<Turn>),
    Hint(
        oneshot::Sender<Result<Turn, Refused>>,
        Result<Turn, Refused>,
    ),
    Losing(oneshot::Sender<bool>, bool),
    Any(oneshot::Sender<AnyAnswer>, AnyAnswer),
}

impl Answer {
    fn send(self) {
        match self {
            Answer::Turn(reply, v) => drop(reply.send(v)),
            Answer::Hint(reply, v) => drop(reply.send(v)),
            Answer::Losing(reply, v) => drop(reply.send(v)),
            Answer::Any(reply, v) => drop(reply.send(v)),
        }
    }
}

/// Runs one job on the thread's engine; its answer, to send.
fn run(engine: &mut Engine, work: Work, stop: &Arc<AtomicBool>) -> Answer {
    match work {
        Work::Think {
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
            Answer::Turn(reply, turn)
        }
        Work::Hint {
            pos,
            movetime,
            seed,
            reply,
        } => {
            engine.set_seed(seed);
            let turn = engine
                .think(&pos, Level::Hard, &Limits::movetime(movetime))
                .map(|r| r.best)
                .map_err(|_| Refused::Stopped);
            Answer::Hint(reply, turn)
        }
        Work::Losing { pos, player, reply } => {
            Answer::Losing(reply, engine.assess(&pos, player).losing)
        }
        Work::Background { job, reply } => Answer::Any(reply, job(engine, stop.clone())),
    }
}

fn new_engine(tt_bytes: usize, i: usize) -> Engine {
    Engine::new(EngineConfig {
        tt_bytes,
        seed: i as u64,
    })
}

#[cfg(test)]
mod tests;
