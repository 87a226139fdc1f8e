//! Shared test helpers: databases (a temporary SQLite file, or a fresh Postgres database per
//! test), a real server on 127.0.0.1 port 0 (its HTTP API reached through its router with
//! `tower::ServiceExt::oneshot`), and real `tokio-tungstenite` WebSocket clients.
#![allow(dead_code, missing_docs)]

pub mod circle;
pub mod cluster;
pub mod golden;
mod http;
mod ws;

pub use ws::*;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use djambi_server::{AppState, Config};
use serde_json::{Value, json};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// How long a test waits for any one message before failing.
pub const WAIT: Duration = Duration::from_secs(10);

/// The custom start of the scripted game: red can kill blue's chief (h8-i9) and, later,
/// green's (a3-a1); yellow's corner is walled in by its own pieces and corpses, so it can only
/// pass, and the server passes for it.
pub const SCRIPT_START: &str = "Cr7Cb/7Mr1/9/9/2Mg6/Mr8/6XXX/6XMyMy/Cg5XMyCy r rbyg - 0 - 0 1";

// --- databases -------------------------------------------------------------------------------

/// A database for one test, removed afterwards.
pub enum TestDb {
    Sqlite(PathBuf),
    Postgres {
        admin_url: String,
        name: String,
        url: String,
    },
    /// A database another `TestDb` owns (another node's URL to it): nothing to remove.
    Url(String),
}

impl TestDb {
    pub fn sqlite() -> TestDb {
        let path = std::env::temp_dir().join(format!("djambi-test-{}.db", uuid::Uuid::new_v4()));
        TestDb::Sqlite(path)
    }

    /// A fresh Postgres database on `DJAMBI_TEST_POSTGRES_URL`, or `None` when it is not set
    /// (a failure instead when `DJAMBI_REQUIRE_POSTGRES=1`).
    pub async fn postgres() -> Option<TestDb> {
        let Ok(admin_url) = std::env::var("DJAMBI_TEST_POSTGRES_URL") else {
            if std::env::var("DJAMBI_REQUIRE_POSTGRES").as_deref() == Ok("1") {
                panic!("DJAMBI_REQUIRE_POSTGRES=1 but DJAMBI_TEST_POSTGRES_URL is not set");
            }
            eprintln!("skipping the Postgres run: DJAMBI_TEST_POSTGRES_URL is not set");
            return None;
        };
        let name = format!("djambi_test_{}", uuid::Uuid::new_v4().simple());
        admin(&admin_url, &format!("CREATE DATABASE {name}")).await;
        let url = with_database(&admin_url, &name);
        Some(TestDb::Postgres {
            admin_url,
            name,
            url,
        })
    }

    pub fn url(&self) -> String {
        match self {
            TestDb::Sqlite(path) => format!("sqlite:{}", path.display()),
            TestDb::Postgres { url, .. } => url.clone(),
            TestDb::Url(url) => url.clone(),
        }
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        match self {
            TestDb::Sqlite(path) => {
                for suffix in ["", "-wal", "-shm"] {
                    let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
                }
            }
            TestDb::Postgres {
                admin_url, name, ..
            } => {
                let (admin_url, sql) = (
                    admin_url.clone(),
                    format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
                );
                // Drop runs inside the test's runtime: use a thread with its own.
                let _ = std::thread::spawn(move || {
                    tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .unwrap()
                        .block_on(admin(&admin_url, &sql));
                })
                .join();
            }
            TestDb::Url(_) => {}
        }
    }
}

async fn admin(url: &str, sql: &str) {
    try_admin(url, sql).await.expect(sql);
}

/// Runs `sql` as the administrator of `DJAMBI_TEST_POSTGRES_URL`.
async fn try_admin(url: &str, sql: &str) -> Result<(), sqlx::Error> {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(url).await?;
    sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_string()))
        .execute(&mut conn)
        .await?;
    Ok(())
}

/// `url` with its database name replaced by `name`.
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map_or(0, |i| i + 3);
    let host_and_path = &base[scheme_end..];
    let host = host_and_path.split('/').next().unwrap();
    let mut out = format!("{}{host}/{name}", &base[..scheme_end]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

// --- servers ---------------------------------------------------------------------------------

/// A server running in this process on 127.0.0.1, port 0.
pub struct TestServer {
    pub addr: SocketAddr,
    pub state: AppState,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
}

impl TestServer {
    pub async fn start(db: &TestDb) -> TestServer {
        TestServer::start_with(db, |_| {}).await
    }

    pub async fn start_with(db: &TestDb, tweak: impl FnOnce(&mut Config)) -> TestServer {
        let mut config = Config::for_database(&db.url());
        config.web_dir = Some(PathBuf::from("/nonexistent-web-dir"));
        tweak(&mut config);
        let state = AppState::new(config).await.expect("server state");
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        http::register(
            addr,
            djambi_server::app(state.clone()),
            state.config.net.trusted_proxy.clone(),
        );
        let task = tokio::spawn(djambi_server::serve(listener, state.clone(), async move {
            let _ = stopped.await;
        }));
        TestServer {
            addr,
            state,
            stop: Some(stop),
            task: Some(task),
        }
    }

    /// Keeps every bot thread busy until the answer is dropped (jobs queued meanwhile, an
    /// analysis's turns say, wait): returns once every thread runs one of the holding jobs.
    #[allow(dead_code)]
    pub async fn hold_bots(&self) -> BotHold {
        let bots = self.state.registry.bots().clone();
        let released = Arc::new(AtomicBool::new(false));
        let running = Arc::new(AtomicUsize::new(0));
        for _ in 0..bots.threads() {
            let (bots, released, running) = (bots.clone(), released.clone(), running.clone());
            tokio::spawn(async move {
                let charge = djambi_server::game::bots::Charge::new(None, None);
                bots.background(charge, Duration::from_millis(1), move |_, _| {
                    running.fetch_add(1, Ordering::SeqCst);
                    while !released.load(Ordering::SeqCst) {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                })
                .await
            });
        }
        while running.load(Ordering::SeqCst) < bots.threads() {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        BotHold(released)
    }

    /// Shuts down gracefully and waits for it.
    pub async fn stop(mut self) {
        http::unregister(self.addr);
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await.unwrap().unwrap();
        }
    }
}

/// Every bot thread held busy ([`TestServer::hold_bots`]) until this is dropped.
pub struct BotHold(Arc<AtomicBool>);

impl Drop for BotHold {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

// --- HTTP --------------------------------------------------------------------------------------

/// One HTTP request; returns the status and the body.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let (status, _, body) = http_full(addr, method, path, body).await;
    (status, body)
}

/// One HTTP request; returns the status, the response's head and the body.
pub async fn http_full(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (u16, String, String) {
    http_with(addr, method, path, body, "").await
}

/// One HTTP request with extra header lines (each ending in `\r\n`).
pub async fn http_with(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &str,
) -> (u16, String, String) {
    http::send(addr, method, path, body, headers).await
}

pub async fn get_json(addr: SocketAddr, path: &str) -> (u16, Value) {
    let (status, body) = http(addr, "GET", path, None).await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

/// A POST whose client, behind a trusted proxy, is `client` (`X-Forwarded-For`).
pub async fn post_json_as(
    addr: SocketAddr,
    path: &str,
    body: &Value,
    client: &str,
) -> (u16, Value) {
    post_json_with(addr, path, body, &format!("X-Forwarded-For: {client}\r\n")).await
}

/// A POST with a bearer token (the creator's admin token).
pub async fn post_json_bearer(
    addr: SocketAddr,
    path: &str,
    body: &Value,
    token: &str,
) -> (u16, Value) {
    post_json_with(
        addr,
        path,
        body,
        &format!("Authorization: Bearer {token}\r\n"),
    )
    .await
}

/// A POST with extra header lines (each ending in `\r\n`); the body read as JSON when it is.
async fn post_json_with(addr: SocketAddr, path: &str, body: &Value, headers: &str) -> (u16, Value) {
    let (status, _, body) = http_with(addr, "POST", path, Some(&body.to_string()), headers).await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

/// Every HTTP failure has `{"error": {"code", "message"}}` with this code, and nothing else.
pub fn assert_api_error(status: u16, body: &Value, expected_status: u16, code: &str) {
    assert_eq!(status, expected_status, "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(body["error"]["message"].is_string(), "{body}");
    assert_eq!(body.as_object().unwrap().len(), 1, "{body}");
}

/// A refusal for a spent budget: `429 rate_limited` in the one error shape, with `Retry-After`
/// (from [`http_full`]'s or [`http_with`]'s status, head and body).
pub fn assert_rate_limited(status: u16, head: &str, body: &str) {
    let body: Value = serde_json::from_str(body).unwrap_or(Value::String(body.to_string()));
    assert_api_error(status, &body, 429, "rate_limited");
    assert!(head.to_ascii_lowercase().contains("retry-after:"), "{head}");
}

pub async fn post_json(addr: SocketAddr, path: &str, body: &Value) -> (u16, Value) {
    let (status, body) = http(addr, "POST", path, Some(&body.to_string())).await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

/// Display names for the seats, in base order (names at one table must differ).
pub const NAMES: [&str; 4] = ["Ann", "Bea", "Cid", "Dee"];

/// A game created from the scripted start by import: (id, the four seat tokens in base order).
pub async fn scripted_game(addr: SocketAddr) -> (String, Vec<String>) {
    import_game(addr, SCRIPT_START, &[]).await
}

/// Imports a record from `start` with `moves`, then claims every seat with its token.
pub async fn import_game(
    addr: SocketAddr,
    start: &str,
    moves: &[(&str, &str)],
) -> (String, Vec<String>) {
    let events: Vec<Value> = moves
        .iter()
        .enumerate()
        .map(|(i, (p, m))| json!({"turn": i + 1, "player": p, "move": m}))
        .collect();
    let record = json!({
        "format": "djambi-game/1",
        "rules": {},
        "start": start,
        "events": events,
    });
    let (status, created) = post_json(addr, "/api/games/import", &record).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for (i, seat) in created["seats"].as_array().unwrap().iter().enumerate() {
        let token = seat["token"].as_str().unwrap().to_string();
        let name = NAMES[i];
        let (status, claimed) = post_json(
            addr,
            &format!("/api/games/{id}/seats"),
            &json!({"name": name, "token": token}),
        )
        .await;
        assert_eq!(status, 200, "{claimed}");
        tokens.push(token);
    }
    (id, tokens)
}

/// A standard 4-player game with every seat claimed: (id, tokens in base order).
pub async fn standard_game(addr: SocketAddr) -> (String, Vec<String>) {
    game_from(addr, &json!({"players": 4})).await
}

/// A game created with `body`, every seat claimed: (id, tokens in base order).
pub async fn game_from(addr: SocketAddr, body: &Value) -> (String, Vec<String>) {
    let (status, created) = post_json(addr, "/api/games", body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for (i, seat) in created["seats"].as_array().unwrap().iter().enumerate() {
        let token = seat["token"].as_str().unwrap().to_string();
        let (status, answer) = post_json(
            addr,
            &format!("/api/games/{id}/seats"),
            &json!({"name": NAMES[i], "token": token}),
        )
        .await;
        assert_eq!(status, 200, "{answer}");
        tokens.push(token);
    }
    (id, tokens)
}
