//! The bots' thinking: a fixed pool of OS threads, one engine each (its transposition table
//! kept between moves), never more of them than the machine's cores minus one, each at the
//! lowest scheduling priority — so a thinking bot never takes the core that answers the
//! players, and never delays another game's acks.
//! The async side sends a job and awaits its answer; the move then goes through the game's
//! actor like anyone's.
//!
//! Two queues: the **urgent** one (bots' turns, draw answers, hints: someone waits for them)
//! and the **background** one (post-game analysis, a turn at a time). A thread takes a
//! background job only when no urgent one waits, and an urgent job that finds every thread
//! busy stops a background job at once (its stop flag): that job is cut short and its owner
//! asks again later. So background work never delays a bot or a hint by more than the few
//! hundred nodes between two polls of the stop flag.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
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

/// A background job: it runs on a bot thread's engine with the thread's stop flag, which is
/// set when an urgent job needs the thread.
type Background = Box<dyn FnOnce(&mut Engine, Arc<AtomicBool>) + Send>;

/// The jobs waiting, and what the threads are doing.
struct Queue {
    urgent: VecDeque<Job>,
    background: VecDeque<Background>,
    /// Threads waiting for a job.
    idle: usize,
    /// Each thread's stop flag while it runs a background job.
    preemptible: Vec<Option<Arc<AtomicBool>>>,
    /// No new job is taken; the threads end once the urgent jobs are done.
    closed: bool,
}

/// What the pool's threads share.
struct Shared {
    queue: Mutex<Queue>,
    ready: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().expect("bot queue lock")
    }
}

/// The pool of bot threads.
pub struct BotPool {
    shared: Arc<Shared>,
    threads: usize,
}

impl BotPool {
    /// A pool of `threads` threads (at least one), each with an engine of `tt_bytes`.
    pub fn new(threads: usize, tt_bytes: usize) -> Arc<BotPool> {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            queue: Mutex::new(Queue {
                urgent: VecDeque::new(),
                background: VecDeque::new(),
                idle: 0,
                preemptible: vec![None; threads],
                closed: false,
            }),
            ready: Condvar::new(),
        });
        for i in 0..threads {
            let shared = shared.clone();
            std::thread::Builder::new()
                .name(format!("djambi-bot-{i}"))
                .spawn(move || work(&shared, i, tt_bytes))
                .expect("a bot thread starts");
        }
        Arc::new(BotPool { shared, threads })
    }

    /// The pool's size: all the machine's cores but one (at least one).
    pub fn default_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
    }

    /// How many threads think at most at once.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Queues an urgent job; if every thread is busy, stops one that runs a background job.
    fn send(&self, job: Job) {
        let mut queue = self.shared.lock();
        if queue.closed {
            return;
        }
        queue.urgent.push_back(job);
        if queue.idle == 0
            && let Some(flag) = queue
                .preemptible
                .iter()
                .flatten()
                .find(|f| !f.load(Ordering::Relaxed))
        {
            flag.store(true, Ordering::Relaxed);
        }
        drop(queue);
        self.shared.ready.notify_one();
    }

    /// Runs `job` on a bot thread's engine when no urgent job waits, and answers what it
    /// returns; none if the pool stopped first. The job is handed the thread's stop flag (for
    /// its [`Limits`]): when the flag is set, an urgent job wants the thread, and the job should
    /// return at once (its search cut short) and be asked again later.
    pub async fn background<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut Engine, Arc<AtomicBool>) -> T + Send + 'static,
    ) -> Option<T> {
        let (reply, answer) = oneshot::channel();
        {
            let mut queue = self.shared.lock();
            if queue.closed {
                return None;
            }
            queue.background.push_back(Box::new(move |engine, stop| {
                let _ = reply.send(job(engine, stop));
            }));
        }
        self.shared.ready.notify_one();
        answer.await.ok()
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

    /// Stops the threads once the urgent jobs already sent are done; background jobs not
    /// started are dropped (their callers get none).
    pub fn stop(&self) {
        let mut queue = self.shared.lock();
        queue.closed = true;
        queue.background.clear();
        drop(queue);
        self.shared.ready.notify_all();
    }
}

/// What a thread does next.
enum Next {
    Urgent(Job),
    Background(Background, Arc<AtomicBool>),
    Stop,
}

/// The next job of thread `i`: an urgent one first, then a background one (registered as
/// stoppable), waiting for one if there is none.
fn next(shared: &Shared, i: usize, stop: &Arc<AtomicBool>) -> Next {
    let mut queue = shared.lock();
    queue.preemptible[i] = None;
    loop {
        if let Some(job) = queue.urgent.pop_front() {
            return Next::Urgent(job);
        }
        if queue.closed {
            return Next::Stop;
        }
        if let Some(job) = queue.background.pop_front() {
            stop.store(false, Ordering::Relaxed);
            queue.preemptible[i] = Some(stop.clone());
            return Next::Background(job, stop.clone());
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
        let job = match next(shared, i, &stop) {
            Next::Stop => return,
            Next::Background(job, stop) => {
                let engine = engine.get_or_insert_with(|| new_engine(tt_bytes, i));
                job(engine, stop);
                continue;
            }
            Next::Urgent(job) => job,
        };
        let engine = engine.get_or_insert_with(|| new_engine(tt_bytes, i));
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

fn new_engine(tt_bytes: usize, i: usize) -> Engine {
    Engine::new(EngineConfig {
        tt_bytes,
        seed: i as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Position;
    use std::time::Instant;

    #[tokio::test]
    async fn an_urgent_job_stops_a_background_one_on_a_busy_pool() {
        let pool = BotPool::new(1, 1 << 20);
        let (started, running) = oneshot::channel();
        let background = tokio::spawn({
            let pool = pool.clone();
            async move {
                pool.background(move |_, stop| {
                    let _ = started.send(());
                    // Stands for a long search: it polls its stop flag (bounded, so a broken
                    // pool fails the test instead of hanging it).
                    let since = Instant::now();
                    while !stop.load(Ordering::Relaxed) && since.elapsed() < Duration::from_secs(60)
                    {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    stop.load(Ordering::Relaxed)
                })
                .await
            }
        });
        running.await.unwrap();
        let turn = pool
            .think(Position::new(), Level::Random, Duration::from_millis(5), 1)
            .await;
        assert!(turn.is_some_and(|t| Position::new().is_legal(&t)));
        assert_eq!(
            background.await.unwrap(),
            Some(true),
            "the background job was stopped"
        );
        // The next background job starts with its flag down, and runs to its end.
        let stopped = pool
            .background(|_, stop| stop.load(Ordering::Relaxed))
            .await;
        assert_eq!(stopped, Some(false));
        pool.stop();
        assert_eq!(pool.background(|_, _| ()).await, None);
    }
}
