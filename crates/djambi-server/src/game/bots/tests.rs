use super::*;
use djambi_core::Position;
use std::net::IpAddr;
use uuid::Uuid;

use crate::net::IpKey;

fn charge(n: u8) -> Charge {
    Charge::new(Some(IpKey::of(IpAddr::from([10, 0, 0, n]))), None)
}

fn pool(threads: usize, hint_queue: usize) -> Arc<BotPool> {
    let mut limits = PoolLimits::new(threads, 1 << 20);
    limits.hint_queue = hint_queue;
    BotPool::new(limits)
}

/// Keeps the pool's one thread busy with a bot's turn of `ms` milliseconds.
fn busy(pool: &Arc<BotPool>, ms: u64) -> tokio::task::JoinHandle<Option<Turn>> {
    let pool = pool.clone();
    let game = Charge::new(None, Some(Uuid::from_u128(7)));
    tokio::spawn(async move {
        pool.think(
            Position::new(),
            Level::Hard,
            Duration::from_millis(ms),
            1,
            game,
        )
        .await
    })
}

async fn until_waiting(pool: &BotPool, class: Class, n: usize) {
    for _ in 0..500 {
        if pool.waiting(class) == n {
            return;
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    panic!("{n} jobs of {class:?} never waited");
}

#[tokio::test]
async fn an_urgent_job_stops_a_background_one_on_a_busy_pool() {
    let pool = pool(1, 4);
    let (started, running) = oneshot::channel();
    let background = tokio::spawn({
        let pool = pool.clone();
        async move {
            pool.background(charge(1), Duration::from_millis(100), move |_, stop| {
                let _ = started.send(());
                // Stands for a long search: it polls its stop flag (bounded, so a broken
                // pool fails the test instead of hanging it).
                let since = Instant::now();
                while !stop.load(Ordering::Relaxed) && since.elapsed() < Duration::from_secs(60) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                stop.load(Ordering::Relaxed)
            })
            .await
        }
    });
    running.await.unwrap();
    let turn = pool
        .think(
            Position::new(),
            Level::Random,
            Duration::from_millis(5),
            1,
            charge(2),
        )
        .await;
    assert!(turn.is_some_and(|t| Position::new().is_legal(&t)));
    assert_eq!(
        background.await.unwrap(),
        Some(true),
        "the background job was stopped"
    );
    // The next background job starts with its flag down, and runs to its end.
    let stopped = pool
        .background(charge(1), Duration::ZERO, |_, stop| {
            stop.load(Ordering::Relaxed)
        })
        .await;
    assert_eq!(stopped, Some(false));
    pool.stop();
    assert_eq!(
        pool.background(charge(1), Duration::ZERO, |_, _| ()).await,
        None
    );
}

#[tokio::test]
async fn an_address_has_one_hint_on_its_way_and_a_full_queue_drops_the_greediest() {
    let pool = pool(1, 2);
    let thinking = busy(&pool, 300);
    let hint = |n: u8| {
        let pool = pool.clone();
        tokio::spawn(async move {
            pool.hint(Position::new(), Duration::from_millis(20), 1, charge(n))
                .await
        })
    };
    let a = hint(1);
    until_waiting(&pool, Class::Hint, 1).await;
    // The same address again, while its first waits: refused at once (and counted as asked).
    assert_eq!(hint(1).await.unwrap(), Err(Refused::Yours));
    let b = hint(2);
    until_waiting(&pool, Class::Hint, 2).await;
    // The queue is full: a newcomer that asked nothing yet takes the place of the address that
    // asked most (the first, which asked twice).
    let c = hint(3);
    assert_eq!(a.await.unwrap(), Err(Refused::Busy));
    assert!(thinking.await.unwrap().is_some());
    assert!(b.await.unwrap().is_ok());
    assert!(c.await.unwrap().is_ok());
    // And an address is refused when every hint waiting is of an address that used less: the
    // sixth has just had a long hint.
    pool.hint(Position::new(), Duration::from_millis(150), 1, charge(6))
        .await
        .unwrap();
    let thinking = busy(&pool, 300);
    let d = hint(4);
    until_waiting(&pool, Class::Hint, 1).await;
    let e = hint(5);
    until_waiting(&pool, Class::Hint, 2).await;
    assert_eq!(hint(6).await.unwrap(), Err(Refused::Busy));
    thinking.await.unwrap();
    assert!(d.await.unwrap().is_ok() && e.await.unwrap().is_ok());
    let counts = pool.counts();
    assert_eq!(counts.refused_yours.load(Ordering::Relaxed), 1);
    assert_eq!(counts.refused_busy.load(Ordering::Relaxed), 2);
    pool.stop();
}

#[tokio::test]
async fn a_hint_nobody_waits_for_is_dropped_before_it_runs() {
    let pool = pool(1, 8);
    let thinking = busy(&pool, 200);
    let gone = {
        let pool = pool.clone();
        tokio::spawn(async move {
            pool.hint(Position::new(), Duration::from_millis(500), 1, charge(1))
                .await
        })
    };
    until_waiting(&pool, Class::Hint, 1).await;
    // The requester goes away (a closed HTTP request drops its future).
    gone.abort();
    let _ = gone.await;
    thinking.await.unwrap();
    // The thread takes the next job: the abandoned hint is dropped, not thought about.
    let honest = pool
        .hint(Position::new(), Duration::from_millis(20), 1, charge(2))
        .await;
    assert!(honest.is_ok());
    assert_eq!(pool.counts().abandoned.load(Ordering::Relaxed), 1);
    pool.stop();
}
