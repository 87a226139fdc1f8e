//! Real node processes (`--nats`) over one Postgres database, behind a real HAProxy configured as
//! deploy/haproxy.cfg, with games played through it by clients that behave as the browser
//! (reconnect, resume with `since`, resend with the same ack id). Nodes are killed with SIGKILL
//! while games go on, and come back. Checked against the database afterwards: no acknowledged
//! move lost, none applied twice, every game's log whole, every game going on after each kill;
//! measured: how long a game whose owner died waits for its next commit.
//!
//! CI runs the short version (two nodes, one kill). The soak (three nodes, 200 games, a kill
//! every 20 s for 3 minutes) is a command (docs/SCALING.md):
//! `cargo test --release -p djambi-server --test failover -- --ignored --nocapture`.
//! Needs `DJAMBI_TEST_POSTGRES_URL`, `DJAMBI_TEST_NATS_URL` and `haproxy`.

#[path = "../common/mod.rs"]
mod common;
mod nodes;
mod players;

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::TestDb;
use common::cluster::nats_url;
use nodes::{Balancer, Node};
use players::{Journal, Seat};
use sqlx::Row;

/// What to run.
#[derive(Clone, Debug)]
struct Scenario {
    nodes: usize,
    games: usize,
    seconds: u64,
    /// A node is killed every this many seconds (the first after as long), in turn.
    kill_every: u64,
    /// A killed node is started again after this long.
    restart_after: Duration,
    lease_secs: u64,
    /// Each player's thinking time before a turn.
    think: Duration,
}

impl Scenario {
    /// The soak's scenario, from `DJAMBI_SOAK_*` variables where set.
    fn soak() -> Scenario {
        let var = |name: &str, default: u64| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        Scenario {
            nodes: var("DJAMBI_SOAK_NODES", 3) as usize,
            games: var("DJAMBI_SOAK_GAMES", 200) as usize,
            seconds: var("DJAMBI_SOAK_SECS", 180),
            kill_every: var("DJAMBI_SOAK_KILL_EVERY", 20),
            restart_after: Duration::from_secs(var("DJAMBI_SOAK_RESTART_AFTER", 5)),
            lease_secs: var("DJAMBI_SOAK_LEASE", 5),
            think: Duration::from_millis(var("DJAMBI_SOAK_THINK_MS", 400)),
        }
    }
}

/// One kill: when (ms since the epoch, the servers' clock), which node, and the games it owned
/// then.
struct Kill {
    at_ms: i64,
    node: String,
    owned: Vec<String>,
}

/// Everything needed to run a scenario, or `None` when its services are missing (skipped).
async fn prerequisites() -> Option<(TestDb, String)> {
    let nats = nats_url()?;
    if !Balancer::available() {
        if std::env::var("DJAMBI_REQUIRE_NATS").as_deref() == Ok("1") {
            panic!("DJAMBI_REQUIRE_NATS=1 but haproxy is not installed");
        }
        eprintln!("skipping: haproxy is not installed");
        return None;
    }
    let db = TestDb::postgres().await?;
    Some((db, nats))
}

/// Runs `scenario` and checks everything it must show; prints the figures.
async fn run(scenario: Scenario) {
    let Some((db, nats)) = prerequisites().await else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("djambi-failover-{}", uuid::Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = db.url();
    let mut cluster: Vec<Node> = (1..=scenario.nodes)
        .map(|i| Node::new(&format!("n{i}"), &dir))
        .collect();
    for node in &mut cluster {
        node.start(&url, &nats, scenario.lease_secs).await;
    }
    let ports: Vec<u16> = cluster.iter().map(|n| n.port).collect();
    let balancer = Balancer::start(&ports, &dir).await;
    let lb: std::net::SocketAddr = ([127, 0, 0, 1], balancer.port).into();
    println!(
        "{scenario:?}: nodes on {ports:?}, HAProxy on {lb}, logs in {}",
        dir.display()
    );

    let journal = Arc::new(Journal::default());
    let started = Instant::now();
    let deadline = started + Duration::from_secs(scenario.seconds);
    let mut slots = Vec::new();
    for slot in 0..scenario.games {
        let (journal, think) = (journal.clone(), scenario.think);
        slots.push(tokio::spawn(async move {
            let mut games = Vec::new();
            let mut round = 0u64;
            while Instant::now() + Duration::from_secs(5) < deadline {
                let (id, tokens) = new_game(lb).await;
                games.push(id.clone());
                let mut seats = Vec::new();
                for (i, token) in tokens.into_iter().enumerate() {
                    let seat = Seat {
                        addr: lb,
                        game: id.clone(),
                        token,
                        player: ['r', 'b', 'y', 'g'][i],
                        seed: (slot as u64 * 1000 + round) * 4 + i as u64,
                        think,
                        deadline,
                    };
                    let journal = journal.clone();
                    seats.push(tokio::spawn(
                        async move { players::play(seat, &journal).await },
                    ));
                }
                for seat in seats {
                    seat.await.unwrap();
                }
                round += 1;
            }
            games
        }));
    }

    // The killer: one node at a time, in turn, each started again a little later.
    let mut kills: Vec<Kill> = Vec::new();
    let mut next = 0;
    let mut at = started + Duration::from_secs(scenario.kill_every);
    // No kill in the last stretch: the games must have time to show they go on.
    let last_kill =
        deadline - (scenario.restart_after + Duration::from_secs(scenario.lease_secs + 8));
    while at <= last_kill {
        tokio::time::sleep_until(at.into()).await;
        let victim = &mut cluster[next % scenario.nodes];
        let owned = owned_by(&url, &victim.name).await;
        let kill_at = Instant::now();
        let at_ms = djambi_server::clock::now_ms();
        victim.kill().await;
        println!(
            "t={:>5.1}s kill -9 {} (it owned {} games)",
            (kill_at - started).as_secs_f64(),
            victim.name,
            owned.len()
        );
        kills.push(Kill {
            at_ms,
            node: victim.name.clone(),
            owned,
        });
        tokio::time::sleep(scenario.restart_after).await;
        victim.start(&url, &nats, scenario.lease_secs).await;
        println!(
            "t={:>5.1}s {} is back",
            started.elapsed().as_secs_f64(),
            victim.name
        );
        next += 1;
        at += Duration::from_secs(scenario.kill_every);
    }
    let mut games = Vec::new();
    for slot in slots {
        games.extend(slot.await.unwrap());
    }
    let acked = journal.acked.lock().unwrap().clone();
    println!(
        "{} games, {} acked moves, {} reconnections, {} seats saw their game end",
        games.len(),
        acked.len(),
        journal
            .reconnects
            .load(std::sync::atomic::Ordering::Relaxed),
        journal.finished.load(std::sync::atomic::Ordering::Relaxed),
    );

    // 1. Every acked move is in the log, at the version acked, once.
    let stored = stored_moves(&url).await;
    let mut lost = Vec::new();
    for a in &acked {
        match stored.get(&(a.game.clone(), a.player, a.ack)) {
            Some(rows) if rows.iter().any(|(v, t)| *v == a.v && *t == a.turn) => {}
            other => lost.push(format!("{a:?}: stored {other:?}")),
        }
    }
    let twice: Vec<_> = stored.iter().filter(|(_, rows)| rows.len() > 1).collect();
    println!(
        "acked moves lost: {}; applied twice: {}",
        lost.len(),
        twice.len()
    );
    assert!(
        lost.is_empty(),
        "acked moves lost: {:#?}",
        &lost[..lost.len().min(5)]
    );
    assert!(twice.is_empty(), "applied twice: {twice:?}");
    // 2. Every game's log is whole: versions 1..=v, no hole.
    let holes = holes(&url).await;
    assert!(holes.is_empty(), "logs with holes: {holes:?}");
    // 3. Each game whose owner was killed went on: its next commit (by the node that took it
    // over, once a player came back and moved), and how long after the kill.
    let mut recoveries = Vec::new();
    let mut stuck = Vec::new();
    for kill in &kills {
        for game in &kill.owned {
            match next_commit(&url, game, kill.at_ms).await {
                Some(ms) => recoveries.push(Duration::from_millis(ms)),
                None if is_over(&url, game).await => {}
                None => stuck.push(format!("{game} (owner {} killed)", kill.node)),
            }
        }
    }
    let refused = journal.refused.lock().unwrap().clone();
    if !stuck.is_empty() {
        let words = journal.last_words.lock().unwrap().clone();
        for game in &stuck {
            let id = game.split(' ').next().unwrap();
            println!(
                "stuck {game}: {:?}; stored {}",
                words.get(id),
                describe(&url, id).await
            );
        }
        println!("refused: {refused:?}");
    }
    assert!(
        stuck.is_empty(),
        "games that did not go on after their owner died: {stuck:?}"
    );
    // 4. Every game still going at the end moved in the last stretch.
    let quiet_since = deadline - Duration::from_secs(8);
    let mut quiet = Vec::new();
    for game in &games {
        let moved = acked.iter().any(|a| &a.game == game && a.at > quiet_since);
        if !moved && !is_over(&url, game).await {
            quiet.push(game.clone());
        }
    }
    assert!(
        quiet.is_empty(),
        "unfinished games that stopped moving: {quiet:?}"
    );
    assert!(refused.is_empty(), "commands refused: {refused:?}");
    recoveries.sort();
    let pct =
        |p: f64| recoveries[((recoveries.len() as f64 * p) as usize).min(recoveries.len() - 1)];
    if !recoveries.is_empty() {
        println!(
            "{} kills; recovery of a game after its owner died ({} games): p50 {:.2} s, p99 {:.2} s, max {:.2} s (lease {} s)",
            kills.len(),
            recoveries.len(),
            pct(0.5).as_secs_f64(),
            pct(0.99).as_secs_f64(),
            recoveries.last().unwrap().as_secs_f64(),
            scenario.lease_secs
        );
        assert!(
            *recoveries.last().unwrap() < Duration::from_secs(scenario.lease_secs + 15),
            "a game took {:?} to recover",
            recoveries.last().unwrap()
        );
    }
    assert!(
        kills.iter().any(|k| !k.owned.is_empty()),
        "no kill hit a node that owned games"
    );
    drop(balancer);
    for mut node in cluster {
        node.kill().await;
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A four-player game with every seat claimed, through the load balancer, as a person would
/// make it while nodes die: a request that meets a node at the moment it is killed gets a 502
/// from HAProxy (it does not resend a POST it has sent), and is simply made again. A claim
/// made again with the same token after an unknown outcome may find its seat taken — by itself.
async fn new_game(lb: std::net::SocketAddr) -> (String, Vec<String>) {
    let retry = |status: u16| status == 502 || status == 503 || status == 504;
    let created = loop {
        let (status, created) =
            common::post_json(lb, "/api/games", &serde_json::json!({"players": 4})).await;
        if status == 201 {
            break created;
        }
        assert!(retry(status), "{status} {created}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let id = created["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for (i, seat) in created["seats"].as_array().unwrap().iter().enumerate() {
        let token = seat["token"].as_str().unwrap().to_string();
        let claim = serde_json::json!({"name": common::NAMES[i], "token": token});
        loop {
            let (status, answer) =
                common::post_json(lb, &format!("/api/games/{id}/seats"), &claim).await;
            if status == 200 || (status == 409 && answer["error"]["code"] == "seat_taken") {
                break;
            }
            assert!(retry(status), "{status} {answer}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        tokens.push(token);
    }
    (id, tokens)
}

async fn connect(url: &str) -> sqlx::PgConnection {
    use sqlx::Connection;
    sqlx::PgConnection::connect(url).await.expect("connect")
}

/// The `game_id` column of a query's rows.
async fn game_ids(
    url: &str,
    query: sqlx::query::Query<'_, sqlx::Postgres, sqlx::postgres::PgArguments>,
) -> Vec<String> {
    let mut conn = connect(url).await;
    query
        .fetch_all(&mut conn)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<String, _>("game_id"))
        .collect()
}

/// The games node `name` (any incarnation) owns now.
async fn owned_by(url: &str, name: &str) -> Vec<String> {
    let query = sqlx::query("SELECT game_id FROM game_owners WHERE node LIKE $1");
    game_ids(url, query.bind(format!("{name}-%"))).await
}

/// Every stored command with an ack id: (game, player, ack) → [(v, turn)].
async fn stored_moves(url: &str) -> HashMap<(String, char, u64), Vec<(u64, String)>> {
    let mut conn = connect(url).await;
    let rows = sqlx::query(
        "SELECT game_id, v, player, turn_text, ack FROM events WHERE ack IS NOT NULL AND kind = 'turn'",
    )
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let mut out: HashMap<_, Vec<_>> = HashMap::new();
    for r in rows {
        let player: String = r.get("player");
        let key = (
            r.get::<String, _>("game_id"),
            player.chars().next().unwrap(),
            r.get::<i64, _>("ack") as u64,
        );
        out.entry(key).or_default().push((
            r.get::<i64, _>("v") as u64,
            r.get::<Option<String>, _>("turn_text").unwrap_or_default(),
        ));
    }
    out
}

/// Games whose event versions are not exactly 1..=max.
async fn holes(url: &str) -> Vec<String> {
    let query = sqlx::query(
        "SELECT game_id FROM events GROUP BY game_id HAVING count(*) <> max(v) OR min(v) <> 1",
    );
    game_ids(url, query).await
}

/// A game as stored: status, version, player to move, owner and epoch.
async fn describe(url: &str, game: &str) -> String {
    let mut conn = connect(url).await;
    let row = sqlx::query(
        "SELECT g.status, g.v, g.to_move, o.node, o.epoch, \
         (SELECT max(v) FROM events e WHERE e.game_id = g.id) AS last \
         FROM games g LEFT JOIN game_owners o ON o.game_id = g.id WHERE g.id = $1",
    )
    .bind(game)
    .fetch_one(&mut conn)
    .await
    .unwrap();
    format!(
        "status {}, summary v {}, last event v {:?}, to move {:?}, owner {:?} epoch {:?}",
        row.get::<String, _>("status"),
        row.get::<i64, _>("v"),
        row.get::<Option<i64>, _>("last"),
        row.get::<Option<String>, _>("to_move"),
        row.get::<Option<String>, _>("node"),
        row.get::<Option<i64>, _>("epoch"),
    )
}

async fn is_over(url: &str, game: &str) -> bool {
    let mut conn = connect(url).await;
    let status: String = sqlx::query("SELECT status FROM games WHERE id = $1")
        .bind(game)
        .fetch_one(&mut conn)
        .await
        .unwrap()
        .get("status");
    status == "finished" || status == "cancelled"
}

/// How long after `after` (ms) the game's next event was committed, if one was.
async fn next_commit(url: &str, game: &str, after: i64) -> Option<u64> {
    let mut conn = connect(url).await;
    let next: Option<i64> =
        sqlx::query("SELECT min(at) AS next FROM events WHERE game_id = $1 AND at > $2")
            .bind(game)
            .bind(after)
            .fetch_one(&mut conn)
            .await
            .unwrap()
            .get("next");
    next.map(|at| (at - after) as u64)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_node_costs_its_games_seconds_and_no_move() {
    run(Scenario {
        nodes: 2,
        games: 12,
        seconds: 32,
        kill_every: 10,
        restart_after: Duration::from_secs(3),
        lease_secs: 2,
        think: Duration::from_millis(150),
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
#[ignore = "a long soak (minutes): run it on purpose, see docs/SCALING.md"]
async fn soak_nodes_killed_in_turn() {
    run(Scenario::soak()).await;
}
