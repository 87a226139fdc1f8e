//! Helpers for several nodes: the NATS server to use, a node (a server in this process with
//! `--nats`), and a Postgres role per node, so that one node can be cut off from the database
//! (its role refused, its sessions ended) while the others go on.

use std::time::{Duration, Instant};

use super::{TestDb, TestServer, admin};

/// The NATS server for the cluster tests: `DJAMBI_TEST_NATS_URL`, or `None` when it is not set
/// (a failure instead when `DJAMBI_REQUIRE_NATS=1`).
pub fn nats_url() -> Option<String> {
    match std::env::var("DJAMBI_TEST_NATS_URL") {
        Ok(url) => Some(url),
        Err(_) => {
            if std::env::var("DJAMBI_REQUIRE_NATS").as_deref() == Ok("1") {
                panic!("DJAMBI_REQUIRE_NATS=1 but DJAMBI_TEST_NATS_URL is not set");
            }
            eprintln!("skipping the cluster test: DJAMBI_TEST_NATS_URL is not set");
            None
        }
    }
}

/// A Postgres database and a NATS server for a cluster test, or `None` (skipped).
pub async fn cluster_db() -> Option<(TestDb, String)> {
    let nats = nats_url()?;
    let db = TestDb::postgres().await?;
    Some((db, nats))
}

/// A node named `name` on database `url`, with a lease of `lease_secs`.
pub async fn node(url: &str, nats: &str, name: &str, lease_secs: u64) -> TestServer {
    let db = TestDb::Url(url.to_string());
    TestServer::start_with(&db, |c| {
        c.cluster.nats = Some(nats.to_string());
        c.cluster.node_name = Some(name.to_string());
        c.cluster.lease_secs = lease_secs;
        c.store.database_url = url.to_string();
    })
    .await
}

/// A Postgres role of its own for one node, so the test can cut that node off.
pub struct NodeRole {
    admin_url: String,
    pub name: String,
}

impl NodeRole {
    /// A new login role (superuser, like the test's own user).
    pub async fn create(db: &TestDb) -> NodeRole {
        let TestDb::Postgres { admin_url, .. } = db else {
            panic!("node roles need Postgres");
        };
        let name = format!("djambi_node_{}", uuid::Uuid::new_v4().simple());
        admin(admin_url, &format!("CREATE ROLE {name} LOGIN SUPERUSER")).await;
        NodeRole {
            admin_url: admin_url.clone(),
            name,
        }
    }

    /// The database's URL as this role.
    pub fn url(&self, db: &TestDb) -> String {
        let url = db.url();
        let (scheme, rest) = url.split_once("://").unwrap();
        let host = rest.split_once('@').map_or(rest, |(_, host)| host);
        format!("{scheme}://{}@{host}", self.name)
    }

    /// Cuts the node off: its role may no longer log in, and its sessions are ended.
    pub async fn cut(&self) {
        admin(
            &self.admin_url,
            &format!("ALTER ROLE {} NOLOGIN", self.name),
        )
        .await;
        admin(
            &self.admin_url,
            &format!(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '{}'",
                self.name
            ),
        )
        .await;
    }

    /// Lets the node reach the database again.
    pub async fn heal(&self) {
        admin(&self.admin_url, &format!("ALTER ROLE {} LOGIN", self.name)).await;
    }
}

impl Drop for NodeRole {
    fn drop(&mut self) {
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        let _ = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(async {
                    admin(
                        &admin_url,
                        &format!(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
                             WHERE usename = '{name}'"
                        ),
                    )
                    .await;
                    // Its database is dropped by then (it owned nothing of it).
                    let _ =
                        super::try_admin(&admin_url, &format!("DROP ROLE IF EXISTS {name}")).await;
                });
        })
        .join();
    }
}

/// Waits until `f` holds, for at most `limit`; panics with `what` otherwise.
pub async fn eventually<F, Fut>(what: &str, limit: Duration, mut f: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let started = Instant::now();
    while !f().await {
        assert!(started.elapsed() < limit, "{what} (within {limit:?})");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One row of a database query as text (`psql`-like, for assertions).
pub async fn query_one(url: &str, sql: &str) -> Option<String> {
    use sqlx::{Connection, Row};
    let mut conn = sqlx::PgConnection::connect(url).await.expect("connect");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_optional(&mut conn)
        .await
        .expect(sql)?;
    let value: Option<String> = row
        .try_get::<Option<String>, _>(0)
        .or_else(|_| {
            row.try_get::<Option<i64>, _>(0)
                .map(|v| v.map(|n| n.to_string()))
        })
        .expect("a text or integer column");
    value
}

/// The player to move, as the latest event or snapshot in `ws`'s log says (its index in base
/// order), or `None` once the game is over.
pub fn to_move(ws: &super::Ws) -> Option<usize> {
    let last = ws
        .log
        .iter()
        .rev()
        .find(|m| m["type"] == "event" || m["type"] == "snapshot")?;
    let state = if last["type"] == "event" {
        &last["event"]
    } else {
        &last["game"]
    };
    let letter = state["to_move"].as_str()?;
    "rbyg".find(letter)
}

/// Reads `ws` until it has seen version `v` (an event or a snapshot at or past it).
pub async fn wait_version(ws: &mut super::Ws, v: u64) {
    let seen = |ws: &super::Ws| {
        ws.log.iter().any(|m| {
            (m["type"] == "event" || m["type"] == "snapshot")
                && m["v"].as_u64().is_some_and(|x| x >= v)
        })
    };
    while !seen(ws) {
        ws.recv().await;
    }
}

/// Plays `n` turns, each by the player to move (its first legal turn), and waits until every
/// player has seen each: the turns with their versions.
pub async fn play_turns(players: &mut [super::Ws], n: usize) -> Vec<(String, u64)> {
    let mut played = Vec::new();
    for _ in 0..n {
        let Some(mover) = to_move(&players[0]) else {
            break;
        };
        let Some((_, legal)) = players[mover].my_turn().await else {
            break;
        };
        let turn = legal[0].clone();
        let answer = players[mover].play(&turn).await;
        assert_eq!(answer["type"], "ack", "{turn}: {answer}");
        let v = answer["v"].as_u64().unwrap();
        for p in players.iter_mut() {
            wait_version(p, v).await;
        }
        played.push((turn, v));
    }
    played
}

/// Two nodes, `a` and `b` (lease 5 s), on a fresh database: (its owner, its URL, a, b).
pub async fn two_nodes() -> Option<(super::TestDb, String, super::TestServer, super::TestServer)> {
    let (db, nats) = cluster_db().await?;
    let url = db.url();
    let a = node(&url, &nats, "a", 5).await;
    let b = node(&url, &nats, "b", 5).await;
    Some((db, url, a, b))
}

/// Connects the four seats of game `id`, seat `i` to `addrs[i % addrs.len()]`.
pub async fn seats(addrs: &[std::net::SocketAddr], id: &str, tokens: &[String]) -> Vec<super::Ws> {
    let mut players = Vec::new();
    for (i, token) in tokens.iter().enumerate() {
        let (ws, first) = super::Ws::join(addrs[i % addrs.len()], id, Some(token), None).await;
        assert_eq!(first["type"], "snapshot", "{first}");
        players.push(ws);
    }
    players
}

/// The game's owner in the database: (node, epoch).
pub async fn owner(url: &str, id: &str) -> (Option<String>, i64) {
    let node = query_one(
        url,
        &format!("SELECT node FROM game_owners WHERE game_id = '{id}'"),
    )
    .await;
    let epoch = query_one(
        url,
        &format!("SELECT epoch FROM game_owners WHERE game_id = '{id}'"),
    )
    .await
    .map_or(0, |e| e.parse().unwrap());
    (node, epoch)
}

/// The versions of a game's stored events.
pub async fn stored_versions(url: &str, id: &str) -> u64 {
    query_one(
        url,
        &format!("SELECT COALESCE(MAX(v), 0) FROM events WHERE game_id = '{id}'"),
    )
    .await
    .unwrap()
    .parse()
    .unwrap()
}

/// Reconnects a player to `addr`, as having seen up to the version before `v`: it must get
/// `resume` and exactly the event `v` again (which tells it whose turn it is). Its ack ids go
/// on from `next_ack` (they belong to the seat, across connections).
pub async fn rejoin(
    addr: std::net::SocketAddr,
    id: &str,
    token: &str,
    v: u64,
    next_ack: u64,
) -> super::Ws {
    let (mut ws, first) = super::Ws::join(addr, id, Some(token), Some(v - 1)).await;
    ws.next_ack = next_ack;
    assert_eq!(first["type"], "resume", "{first}");
    assert_eq!(first["from"], v - 1, "{first}");
    let event = ws.event().await;
    assert_eq!(event["v"], v, "{event}");
    ws
}
