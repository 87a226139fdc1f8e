//! The real server binary: killed with SIGKILL mid-game and started again on the same database,
//! the game goes on at the same version and position with no acknowledged move lost (SQLite and
//! Postgres); stopped with SIGTERM, it tells its clients it restarts and closes their sockets.

mod common;

use std::net::SocketAddr;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The server binary running on a database.
struct Server {
    child: Child,
    addr: SocketAddr,
    /// Everything it logged.
    logs: Arc<Mutex<Vec<String>>>,
}

impl Server {
    async fn start(url: &str) -> Server {
        Server::start_logging(url, "info").await
    }

    async fn start_logging(url: &str, level: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_djambi-server"))
            .args([
                "--bind",
                "127.0.0.1:0",
                "--database-url",
                url,
                "--web-dir",
                "/nonexistent-web-dir",
                "--log-format",
                "text",
                "--log",
                level,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("start the server binary");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let logs = Arc::new(Mutex::new(Vec::new()));
        let addr = tokio::time::timeout(WAIT, async {
            while let Some(line) = lines.next_line().await.unwrap() {
                logs.lock().unwrap().push(line.clone());
                if let Some(rest) = line.split("listening on http://").nth(1) {
                    return rest.split_whitespace().next().unwrap().parse().unwrap();
                }
            }
            panic!("the server stopped before listening");
        })
        .await
        .expect("the server listens in time");
        // Keep reading its logs, so it never blocks on a full pipe.
        let kept = logs.clone();
        tokio::spawn(async move {
            while let Ok(Some(line)) = lines.next_line().await {
                kept.lock().unwrap().push(line);
            }
        });
        Server { child, addr, logs }
    }

    fn signal(&self, name: &str) {
        let pid = self.child.id().expect("running").to_string();
        let status = std::process::Command::new("kill")
            .args([&format!("-{name}"), &pid])
            .status()
            .unwrap();
        assert!(status.success());
    }
}

/// The answer to `ack` if one comes before the socket closes.
async fn answer_or_close(ws: &mut Ws, ack: u64) -> Option<Value> {
    loop {
        match ws.try_recv(WAIT).await {
            Some(Ok(m)) if m["ack"] == ack => return Some(m),
            Some(Ok(_)) => continue,
            Some(Err(_)) => return None,
            None => panic!("neither an answer nor a close in {WAIT:?}"),
        }
    }
}

async fn killed_mid_game(url: &str) {
    let server = Server::start(url).await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let mut players = Vec::new();
    for token in &tokens {
        players.push(Ws::join(addr, &id, Some(token), None).await.0);
    }
    let script = [
        (0, "b7-b5"),
        (1, "h7-h5"),
        (2, "h3-h4"),
        (3, "b3-b4"),
        (0, "a7-a6"),
    ];
    for (v, (p, turn)) in script.iter().enumerate() {
        let answer = players[*p].play(turn).await;
        // Version 1 is the game's start.
        assert_eq!(answer["v"], v as u64 + 2, "{turn}: {answer}");
    }
    let (_, before) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(before["v"], 6);

    // Blue sends a move and the server dies at once: acknowledged or not, never half done.
    let ack = players[1].ack();
    players[1]
        .send(&json!({"type": "move", "ack": ack, "turn": "i7-i6"}))
        .await;
    let mut server = server;
    server.child.start_kill().unwrap();
    server.child.wait().await.unwrap();
    let acked = answer_or_close(&mut players[1], ack).await;
    if let Some(answer) = &acked {
        assert_eq!(answer["type"], "ack", "{answer}");
    }

    let server = Server::start(url).await;
    let addr = server.addr;
    let (status, after) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{after}");
    let v = after["v"].as_u64().unwrap();
    if acked.is_some() {
        assert_eq!(v, 7, "an acknowledged move survives");
    } else {
        assert!(v == 6 || v == 7, "{v}");
    }
    if v == 6 {
        assert_eq!(after["dpn"], before["dpn"]);
        assert_eq!(after["to_move"], "b");
    }

    // Blue comes back where it was and resends its command: applied at most once.
    let (mut blue, first) = Ws::join(addr, &id, Some(&tokens[1]), Some(6)).await;
    assert_eq!(first["type"], "resume", "{first}");
    assert_eq!(
        blue.events_within(Duration::from_millis(200)).await.len(),
        (v - 6) as usize
    );
    blue.next_ack = ack;
    let answer = blue.play("i7-i6").await;
    assert_eq!(answer, json!({"type": "ack", "ack": ack, "v": 7}));
    let (_, now) = get_json(addr, &format!("/api/games/{id}")).await;
    assert_eq!(now["v"], 7);
    assert_eq!(now["to_move"], "y");
    // And play goes on.
    let (mut yellow, _) = Ws::join(addr, &id, Some(&tokens[2]), None).await;
    yellow.next_ack = 10;
    assert_eq!(yellow.play("g3-g4").await["v"], 8);
    drop(server);
}

#[tokio::test]
async fn sigkill_mid_game_on_sqlite() {
    let db = TestDb::sqlite();
    killed_mid_game(&db.url()).await;
}

#[tokio::test]
async fn sigkill_mid_game_on_postgres() {
    let Some(db) = TestDb::postgres().await else {
        return;
    };
    killed_mid_game(&db.url()).await;
}

/// SIGTERM: clients are told `restarting` and their sockets closed with a reason; the process
/// exits cleanly; acknowledged moves are kept. Even at debug level, no token is ever logged.
#[tokio::test]
async fn sigterm_restarts_gracefully() {
    let db = TestDb::sqlite();
    let mut server = Server::start_logging(&db.url(), "debug").await;
    let addr = server.addr;
    let (id, tokens) = standard_game(addr).await;
    let (mut red, _) = Ws::join(addr, &id, Some(&tokens[0]), None).await;
    let (mut spectator, _) = Ws::join(addr, &id, None, None).await;
    assert_eq!(red.play("b7-b5").await["v"], 2);
    let mut silent = Ws::connect(addr, &id).await;

    server.signal("TERM");
    for ws in [&mut red, &mut spectator] {
        let restarting = ws.recv_type("restarting").await;
        assert!(restarting["message"].is_string());
        let closed = ws.try_recv(WAIT).await.expect("closed").unwrap_err();
        assert_eq!(closed, "1012 server restarting");
    }
    // A socket that never said hello is closed too, at once.
    let closed = silent.try_recv(WAIT).await.expect("closed").unwrap_err();
    assert_eq!(closed, "1012 server restarting");
    let status = tokio::time::timeout(Duration::from_secs(5), server.child.wait())
        .await
        .expect("exits in time")
        .unwrap();
    assert!(status.success(), "{status}");
    let logs = server.logs.lock().unwrap().join("\n");
    assert!(logs.contains(&id), "logs name the game");
    for token in &tokens {
        assert!(!logs.contains(token.as_str()), "a token was logged");
    }

    let server = Server::start(&db.url()).await;
    let (_, game) = get_json(server.addr, &format!("/api/games/{id}")).await;
    assert_eq!(game["v"], 2);
}
