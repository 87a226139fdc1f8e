//! Postgres restarted under a live server: while it is down, commands are refused as `internal`
//! and nothing changes; once it is back the server reconnects by itself and the game goes on;
//! nothing acked is lost (a restart of the server then finds every acked move).
//!
//! This stops and starts the machine's real Postgres (`pg_ctlcluster`), so it runs only with
//! `DJAMBI_TEST_PG_RESTART=1` (CI sets it; it runs in its own test binary, alone).

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::*;

fn cluster(action: &str) {
    let version = std::fs::read_dir("/etc/postgresql")
        .expect("a Debian Postgres cluster")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().into_string().unwrap())
        .next()
        .expect("a cluster version");
    let status = Command::new("pg_ctlcluster")
        .args(["--skip-systemctl-redirect", &version, "main", action])
        .status()
        .expect("pg_ctlcluster runs");
    assert!(status.success(), "pg_ctlcluster {action}");
}

/// Starts the cluster again when dropped, so a failing assertion while Postgres is down does not
/// leave it down for the tests that follow.
struct Restart;

impl Drop for Restart {
    fn drop(&mut self) {
        if !ready() {
            cluster("start");
            wait_until("Postgres back", ready);
        }
    }
}

fn ready() -> bool {
    Command::new("pg_isready")
        .args(["-h", "127.0.0.1", "-p", "5432", "-q"])
        .status()
        .is_ok_and(|s| s.success())
}

fn wait_until(what: &str, f: impl Fn() -> bool) {
    let started = Instant::now();
    while !f() {
        assert!(started.elapsed() < Duration::from_secs(60), "{what}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[tokio::test]
async fn the_server_rides_out_a_postgres_restart() {
    if std::env::var("DJAMBI_TEST_PG_RESTART").as_deref() != Ok("1") {
        eprintln!("skipping: set DJAMBI_TEST_PG_RESTART=1 to stop and start the local Postgres");
        return;
    }
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    let server = TestServer::start(&db).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut blue, _) = Ws::join(addr, &id, Some(&tokens[1]), None).await;
    assert_eq!(red.play("b7-b5").await["type"], "ack");

    // Version 1 is the start, 2 red's move.
    let restart = Restart;
    cluster("stop");
    wait_until("Postgres stopped", || !ready());
    let answer = blue.play("h7-h5").await;
    assert_error(&answer, "internal", 2);
    let (status, _) = http(addr, "GET", "/readyz", None).await;
    assert_eq!(status, 503);

    drop(restart);
    // The same turn again, once the database answers: the server reconnected by itself.
    let started = Instant::now();
    loop {
        let answer = blue.play("h7-h5").await;
        if answer["type"] == "ack" {
            assert_eq!(answer["v"], 3);
            break;
        }
        assert_error(&answer, "internal", 2);
        assert!(started.elapsed() < Duration::from_secs(30), "{answer}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let (status, _) = http(addr, "GET", "/readyz", None).await;
    assert_eq!(status, 200);
    server.stop().await;

    // Nothing acked was lost: a new server finds both moves.
    let server = TestServer::start(&db).await;
    let (_, game) = get_json(server.addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["v"], 3, "{game}");
    assert_eq!(game["turns"].as_array().unwrap().len(), 2);
    server.stop().await;
}
