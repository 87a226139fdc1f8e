//! A smoke-test client for a running `djambi-server`, used by `scripts/compose-check.sh`.
//!
//! It creates a four-player game over HTTP and plays it over WebSocket with every seat and a
//! spectator connected; it can signal the server in the middle of a turn (SIGTERM, SIGINT or
//! SIGKILL) and check what the connections saw; after a restart it checks the server still
//! has the game exactly as it was seen.
//!
//! ```text
//! smoke play   --url http://127.0.0.1:PORT --state FILE [--new] [--turns N]
//!              [--metrics-out FILE] [--signal TERM|INT|KILL --pid PID]
//! smoke verify --url http://127.0.0.1:PORT --state FILE [--allow-unacked N]
//! ```
//!
//! The state file holds the game id, the seat tokens and every turn seen. It only talks to a
//! server on the loopback interface. Any mismatch is printed and exits non-zero.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::{Args, Parser, Subcommand};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// How long any one answer may take.
const WAIT: Duration = Duration::from_secs(15);

/// The seats of a four-player game, and their names.
const SEATS: [(&str, &str); 4] = [("r", "Ann"), ("b", "Bea"), ("y", "Cy"), ("g", "Dee")];

type Res<T> = Result<T, String>;

macro_rules! ensure {
    ($cond:expr, $($arg:tt)+) => {
        if !$cond {
            return Err(format!($($arg)+));
        }
    };
}

#[derive(Parser)]
#[command(about = "Smoke-test client for a running djambi-server (loopback only)")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Plays turns with every seat and a spectator connected (creates the game with --new).
    Play(PlayArgs),
    /// Checks the server has the game as the state file saw it.
    Verify(VerifyArgs),
}

#[derive(Args)]
struct PlayArgs {
    /// The server's base URL (http://127.0.0.1:PORT).
    #[arg(long)]
    url: String,
    /// The state file (written after every turn).
    #[arg(long)]
    state: PathBuf,
    /// Create a new game (and check that a turn out of order is refused).
    #[arg(long)]
    new: bool,
    /// Turns to play.
    #[arg(long, default_value_t = 6)]
    turns: usize,
    /// Check /metrics while connected and write it to this file.
    #[arg(long)]
    metrics_out: Option<PathBuf>,
    /// After the turns, send one more and signal the server at once.
    #[arg(long, value_parser = ["TERM", "INT", "KILL"], requires = "pid")]
    signal: Option<String>,
    /// The server's process id, for --signal.
    #[arg(long)]
    pid: Option<u32>,
    /// How long the sockets may stay open after the signal.
    #[arg(long, default_value_t = 40)]
    close_wait_secs: u64,
    /// Before the turns, send one that the database will refuse (the check script made it
    /// fail with an error containing MARKER): it must be answered `internal` without the
    /// database's text, change nothing, and count in /metrics.
    #[arg(long, value_name = "MARKER")]
    expect_db_failure: Option<String>,
}

#[derive(Args)]
struct VerifyArgs {
    /// The server's base URL (http://127.0.0.1:PORT).
    #[arg(long)]
    url: String,
    /// The state file.
    #[arg(long)]
    state: PathBuf,
    /// Turns the server may have beyond those seen (the move in flight when it was killed).
    #[arg(long, default_value_t = 0)]
    allow_unacked: usize,
}

/// What the client knows of its game, kept between runs.
#[derive(Debug, Serialize, Deserialize)]
struct GameState {
    /// The game id.
    game: String,
    /// Seat tokens by player letter.
    tokens: BTreeMap<String, String>,
    /// The last version seen.
    v: u64,
    /// The position after it.
    dpn: String,
    /// Every turn seen (all of them committed: the server tells only after committing).
    turns: Vec<TurnSeen>,
    /// Moves acknowledged by the server, over every run.
    acked: u64,
    /// A move sent but not answered when the server went down.
    in_flight: Option<String>,
    /// The next command id: unique over every run, since a seat's resent id is answered
    /// again rather than applied.
    next_ack: u64,
}

/// One turn of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct TurnSeen {
    v: u64,
    player: String,
    turn: String,
}

impl GameState {
    fn ack(&mut self) -> u64 {
        self.next_ack += 1;
        self.next_ack - 1
    }

    fn load(path: &Path) -> Res<GameState> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    fn save(&self, path: &Path) -> Res<()> {
        let tmp = path.with_extension("tmp");
        let text = serde_json::to_string_pretty(self).expect("state serialises");
        std::fs::write(&tmp, text).map_err(|e| format!("{}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Records a `turn` event (any client may have seen it first).
    fn see(&mut self, message: &Value) {
        if message["type"] != "event" {
            return;
        }
        let v = message["v"].as_u64().unwrap_or(0);
        if v <= self.v {
            return;
        }
        let event = &message["event"];
        if event["kind"] == "turn" {
            self.turns.push(TurnSeen {
                v,
                player: event["player"].as_str().unwrap_or("").to_string(),
                turn: event["turn"].as_str().unwrap_or("").to_string(),
            });
        }
        if let Some(dpn) = event["dpn"].as_str() {
            self.dpn = dpn.to_string();
        }
        self.v = v;
    }
}

/// What a player needs to choose a turn: who is to move, and the legal turns.
#[derive(Clone, Debug)]
struct Position {
    to_move: String,
    legal: Value,
    result: Value,
}

impl Position {
    fn from_state(state: &Value) -> Position {
        Position {
            to_move: state["to_move"].as_str().unwrap_or("").to_string(),
            legal: state["legal"].clone(),
            result: state["result"].clone(),
        }
    }

    /// A quiet legal turn (no kill, no choice) when there is one, picked by `v`.
    fn choose(&self, v: u64) -> Res<String> {
        ensure!(self.result.is_null(), "the game is over: {}", self.result);
        let legal = self
            .legal
            .as_object()
            .ok_or_else(|| format!("no legal turns: {}", self.legal))?;
        let (mut quiet, mut all) = (Vec::new(), Vec::new());
        for (key, suffixes) in legal {
            for suffix in suffixes.as_array().into_iter().flatten() {
                let suffix = suffix.as_str().unwrap_or("");
                let turn = if key == "pass" {
                    "pass".to_string()
                } else {
                    format!("{key}{suffix}")
                };
                if suffix.is_empty() {
                    quiet.push(turn.clone());
                }
                all.push(turn);
            }
        }
        let pool = if quiet.is_empty() { &all } else { &quiet };
        ensure!(!pool.is_empty(), "{} has no legal turn", self.to_move);
        Ok(pool[(v as usize * 7 + 3) % pool.len()].clone())
    }
}

// --- HTTP ------------------------------------------------------------------------------------

/// `host:port` of a loopback `http://` URL.
fn authority(url: &str) -> Res<String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("not an http:// URL: {url}"))?
        .trim_end_matches('/');
    ensure!(!rest.contains('/'), "the URL must have no path: {url}");
    let host = match rest.rsplit_once(':') {
        Some((host, port)) if port.parse::<u16>().is_ok() => host,
        _ => rest,
    };
    ensure!(
        matches!(host, "127.0.0.1" | "localhost" | "[::1]"),
        "the smoke client only talks to a loopback server, not {url}"
    );
    Ok(rest.to_string())
}

/// One HTTP/1.1 request; the status and the body.
async fn http(url: &str, method: &str, path: &str, body: Option<&Value>) -> Res<(u16, String)> {
    let authority = authority(url)?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let exchange = async {
        let mut stream = TcpStream::connect(&authority).await?;
        stream.write_all(request.as_bytes()).await?;
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await?;
        Ok::<_, std::io::Error>(raw)
    };
    let raw = tokio::time::timeout(WAIT, exchange)
        .await
        .map_err(|_| format!("{method} {path}: no answer in {WAIT:?}"))?
        .map_err(|e| format!("{method} {path}: {e}"))?;
    let raw = String::from_utf8(raw).map_err(|e| format!("{method} {path}: {e}"))?;
    let (head, rest) = raw
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("{method} {path}: incomplete answer"))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{method} {path}: no status in {head:?}"))?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(rest)?
    } else {
        rest.to_string()
    };
    Ok((status, body))
}

fn dechunk(mut s: &str) -> Res<String> {
    let mut out = String::new();
    loop {
        let (size, rest) = s.split_once("\r\n").ok_or("bad chunked body")?;
        let size = usize::from_str_radix(size.trim(), 16).map_err(|e| e.to_string())?;
        if size == 0 {
            return Ok(out);
        }
        ensure!(rest.len() >= size + 2, "truncated chunked body");
        out.push_str(&rest[..size]);
        s = &rest[size + 2..];
    }
}

/// A JSON answer with the expected status.
async fn http_json(
    url: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    expect: u16,
) -> Res<Value> {
    let (status, text) = http(url, method, path, body).await?;
    ensure!(
        status == expect,
        "{method} {path}: status {status}, not {expect}: {text}"
    );
    serde_json::from_str(&text).map_err(|e| format!("{method} {path}: {e}: {text}"))
}

// --- WebSocket -------------------------------------------------------------------------------

type Stream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// What a socket gave.
enum Incoming {
    Message(Value),
    /// A close frame (code and reason), or none if the connection just ended.
    Closed(Option<(u16, String)>),
    Timeout,
}

/// One WebSocket connection to the game.
struct Client {
    /// `r`, `b`, `y`, `g` or `spectator`.
    name: String,
    stream: Stream,
}

impl Client {
    async fn connect(url: &str, game: &str, name: &str) -> Res<Client> {
        let ws_url = format!("ws://{}/ws/games/{game}", authority(url)?);
        let (stream, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(ws_url))
            .await
            .map_err(|_| format!("{name}: no WebSocket in {WAIT:?}"))?
            .map_err(|e| format!("{name}: WebSocket: {e}"))?;
        Ok(Client {
            name: name.to_string(),
            stream,
        })
    }

    async fn send(&mut self, message: &Value) -> Res<()> {
        self.stream
            .send(Message::Text(message.to_string().into()))
            .await
            .map_err(|e| format!("{}: send: {e}", self.name))
    }

    async fn next(&mut self, wait: Duration) -> Res<Incoming> {
        loop {
            let Ok(next) = tokio::time::timeout(wait, self.stream.next()).await else {
                return Ok(Incoming::Timeout);
            };
            match next {
                Some(Ok(Message::Text(text))) => {
                    let value = serde_json::from_str(text.as_str())
                        .map_err(|e| format!("{}: not JSON: {e}: {text}", self.name))?;
                    return Ok(Incoming::Message(value));
                }
                Some(Ok(Message::Close(frame))) => {
                    return Ok(Incoming::Closed(
                        frame.map(|f| (u16::from(f.code), f.reason.to_string())),
                    ));
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return Ok(Incoming::Closed(None)),
            }
        }
    }

    /// The next message; closing or silence is a failure.
    async fn recv(&mut self) -> Res<Value> {
        match self.next(WAIT).await? {
            Incoming::Message(value) => Ok(value),
            Incoming::Closed(frame) => Err(format!("{}: socket closed: {frame:?}", self.name)),
            Incoming::Timeout => Err(format!("{}: nothing received in {WAIT:?}", self.name)),
        }
    }

    /// Says hello; the answer (a snapshot, or `resume`), skipping presence and chat.
    async fn hello(&mut self, token: Option<&str>, since: Option<u64>) -> Res<Value> {
        let mut hello = json!({"type": "hello"});
        if let Some(token) = token {
            hello["token"] = json!(token);
        }
        if let Some(since) = since {
            hello["since"] = json!(since);
        }
        self.send(&hello).await?;
        loop {
            let message = self.recv().await?;
            match message["type"].as_str() {
                Some("snapshot" | "resume") => return Ok(message),
                Some("presence" | "chat") => continue,
                _ => return Err(format!("{}: answer to hello: {message}", self.name)),
            }
        }
    }

    /// Reads until it has seen the event `v` (every message goes through `state.see`).
    async fn catch_up(&mut self, v: u64, state: &mut GameState) -> Res<()> {
        let mut seen = 0;
        while seen < v {
            let message = self.recv().await?;
            if message["type"] == "event" {
                seen = message["v"].as_u64().unwrap_or(0);
            }
            state.see(&message);
        }
        Ok(())
    }
}

/// A snapshot's turn list.
fn snapshot_turns(game: &Value) -> Res<Vec<TurnSeen>> {
    serde_json::from_value(game["turns"].clone()).map_err(|e| format!("snapshot turns: {e}"))
}

/// Joins every seat (with its token) and a spectator; checks each sees version `v`.
async fn join_all(url: &str, state: &GameState) -> Res<(BTreeMap<String, Client>, Position)> {
    let mut clients = BTreeMap::new();
    let mut position = None;
    for (seat, _) in SEATS {
        let token = state
            .tokens
            .get(seat)
            .ok_or(format!("no token for {seat}"))?;
        let mut client = Client::connect(url, &state.game, seat).await?;
        let answer = client.hello(Some(token), None).await?;
        ensure!(answer["type"] == "snapshot", "{seat}: {answer}");
        ensure!(
            answer["you"]["role"] == "player" && answer["you"]["player"] == seat,
            "{seat} joined as {}",
            answer["you"]
        );
        ensure!(
            answer["v"] == state.v && answer["game"]["dpn"] == state.dpn.as_str(),
            "{seat} sees v {} dpn {}, expected v {} dpn {}",
            answer["v"],
            answer["game"]["dpn"],
            state.v,
            state.dpn
        );
        position = Some(Position::from_state(&answer["game"]));
        clients.insert(seat.to_string(), client);
    }
    let mut spectator = Client::connect(url, &state.game, "spectator").await?;
    let answer = spectator.hello(None, None).await?;
    ensure!(
        answer["you"]["role"] == "spectator" && answer["v"] == state.v,
        "spectator: {answer}"
    );
    clients.insert("spectator".to_string(), spectator);
    Ok((clients, position.expect("four seats")))
}

/// Plays one turn: sends it from the player to move, reads to its ack, and brings every other
/// connection up to the same version. Returns the position after it.
async fn play_turn(
    clients: &mut BTreeMap<String, Client>,
    position: &Position,
    state: &mut GameState,
) -> Res<Position> {
    let turn = position.choose(state.v)?;
    let ack = state.ack();
    let mover = clients
        .get_mut(&position.to_move)
        .ok_or_else(|| format!("nobody plays {}", position.to_move))?;
    mover
        .send(&json!({"type": "move", "ack": ack, "turn": turn}))
        .await?;
    let mut next = None;
    let v = loop {
        let message = mover.recv().await?;
        state.see(&message);
        if message["type"] == "event" {
            next = Some(Position::from_state(&message["event"]));
        }
        if message["ack"] == ack {
            ensure!(
                message["type"] == "ack",
                "{turn} by {} refused: {message}",
                position.to_move
            );
            break message["v"].as_u64().unwrap_or(0);
        }
    };
    let next = next.ok_or_else(|| format!("{turn}: acknowledged (v {v}) without an event"))?;
    state.acked += 1;
    for client in clients.values_mut() {
        if client.name != position.to_move {
            client.catch_up(v, state).await?;
        }
    }
    println!("v {v}: {} played {turn}", position.to_move);
    Ok(next)
}

/// Sends a turn the database refuses: checks the answer, that nobody got an event, and that
/// /metrics counted the failure.
async fn db_failure(
    url: &str,
    clients: &mut BTreeMap<String, Client>,
    position: &Position,
    state: &mut GameState,
    marker: &str,
) -> Res<()> {
    let errors_before = db_errors(url).await?;
    let turn = position.choose(state.v)?;
    let ack = state.ack();
    let mover = clients
        .get_mut(&position.to_move)
        .ok_or_else(|| format!("nobody plays {}", position.to_move))?;
    mover
        .send(&json!({"type": "move", "ack": ack, "turn": turn}))
        .await?;
    let answer = loop {
        let message = mover.recv().await?;
        ensure!(
            message["type"] != "event",
            "an event went out for a failed commit: {message}"
        );
        if message["ack"] == ack {
            break message;
        }
    };
    ensure!(
        answer["type"] == "error" && answer["code"] == "internal" && answer["v"] == state.v,
        "a move the database refused was answered {answer}"
    );
    let text = answer.to_string();
    ensure!(
        !text.contains(marker),
        "the database's error text reached the client: {answer}"
    );
    for client in clients.values_mut() {
        if let Incoming::Message(message) = client.next(Duration::from_millis(500)).await? {
            ensure!(
                message["type"] != "event",
                "{}: an event for a failed commit: {message}",
                client.name
            );
        }
    }
    let errors_after = db_errors(url).await?;
    ensure!(
        errors_after > errors_before,
        "djambi_db_errors_total stayed at {errors_before}"
    );
    println!(
        "a move the database refused: answered {}, no event, djambi_db_errors_total {errors_before} → {errors_after}",
        answer["code"]
    );
    Ok(())
}

async fn db_errors(url: &str) -> Res<u64> {
    let (status, text) = http(url, "GET", "/metrics", None).await?;
    ensure!(status == 200, "/metrics: status {status}");
    let errors =
        sample(&text, "djambi_db_errors_total").ok_or("/metrics has no djambi_db_errors_total")?;
    Ok(errors as u64)
}

/// The value of one sample in Prometheus text.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
}

/// Checks /metrics while every seat and a spectator are connected.
async fn check_metrics(url: &str, played: usize, rejected: bool, out: &Path) -> Res<()> {
    let (status, text) = http(url, "GET", "/metrics", None).await?;
    ensure!(status == 200, "/metrics: status {status}");
    std::fs::write(out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
    let get = |series: &str| sample(&text, series).ok_or(format!("/metrics has no {series}"));
    let mut failures = Vec::new();
    let mut check = |what: &str, ok: Res<bool>| match ok {
        Ok(true) => println!("metrics: {what}: ok"),
        Ok(false) => failures.push(format!("{what}: wrong")),
        Err(e) => failures.push(e),
    };
    check("live games ≥ 1", get("djambi_live_games").map(|v| v >= 1.0));
    check(
        "4 player connections",
        get("djambi_connections{role=\"player\"}").map(|v| v == 4.0),
    );
    check(
        "1 spectator connection",
        get("djambi_connections{role=\"spectator\"}").map(|v| v == 1.0),
    );
    check(
        &format!("turns accepted ≥ {played}"),
        get("djambi_turns_total{result=\"accepted\"}").map(|v| v >= played as f64),
    );
    check(
        "turns rejected counted",
        get("djambi_turns_total{result=\"rejected\"}").map(|v| !rejected || v >= 1.0),
    );
    check(
        "commit latency histogram",
        get("djambi_commit_seconds_count").and_then(|count| {
            let inf = get("djambi_commit_seconds_bucket{le=\"+Inf\"}")?;
            get("djambi_commit_seconds_sum")?;
            Ok(count >= played as f64 && inf == count)
        }),
    );
    check(
        "database errors = 0",
        get("djambi_db_errors_total").map(|v| v == 0.0),
    );
    ensure!(failures.is_empty(), "/metrics: {}", failures.join("; "));
    Ok(())
}

/// What one connection saw after the signal.
#[derive(Debug, Default)]
struct Ending {
    restarting: Option<String>,
    close: Option<(u16, String)>,
    acked: Option<u64>,
    refused: Option<Value>,
}

/// Sends one more turn, signals the server at once, and reads every socket to its end.
async fn signal_mid_turn(
    url: &str,
    clients: &mut BTreeMap<String, Client>,
    position: &Position,
    state: &mut GameState,
    signal: &str,
    pid: u32,
    close_wait: Duration,
) -> Res<()> {
    let turn = position.choose(state.v)?;
    let mover_name = position.to_move.clone();
    let ack = state.ack();
    let mover = clients.get_mut(&mover_name).ok_or("nobody to move")?;
    mover
        .send(&json!({"type": "move", "ack": ack, "turn": turn}))
        .await?;
    let status = std::process::Command::new("kill")
        .args(["-s", signal, &pid.to_string()])
        .status()
        .map_err(|e| format!("kill: {e}"))?;
    ensure!(status.success(), "kill -s {signal} {pid} failed");
    println!("sent {turn} for {mover_name} (ack {ack}) and SIG{signal} to {pid}");
    let signalled = Instant::now();
    let deadline = signalled + close_wait;
    let mut endings = BTreeMap::new();
    // Checked while the server is still closing its sockets: has it stopped accepting?
    let mut accepting_while_closing = None;
    for (name, client) in clients.iter_mut() {
        let mut ending = Ending::default();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match client.next(left).await? {
                Incoming::Message(message) => {
                    state.see(&message);
                    if *name == mover_name && message["ack"] == ack {
                        if message["type"] == "ack" {
                            ending.acked = message["v"].as_u64();
                        } else {
                            ending.refused = Some(message.clone());
                        }
                    }
                    if message["type"] == "restarting" {
                        ending.restarting = message["message"].as_str().map(str::to_string);
                        if accepting_while_closing.is_none() {
                            let connect = TcpStream::connect(authority(url)?);
                            let accepted =
                                matches!(tokio::time::timeout(WAIT, connect).await, Ok(Ok(_)));
                            accepting_while_closing = Some(accepted);
                        }
                    }
                }
                Incoming::Closed(frame) => {
                    ending.close = frame;
                    break;
                }
                Incoming::Timeout => {
                    return Err(format!(
                        "{name}: socket still open {close_wait:?} after SIG{signal}"
                    ));
                }
            }
        }
        println!(
            "{name}: restarting {:?}, close frame {:?}{}",
            ending.restarting,
            ending.close,
            if *name == mover_name {
                format!(
                    ", in-flight move: {}",
                    match (&ending.acked, &ending.refused) {
                        (Some(v), _) => format!("acknowledged at v {v}"),
                        (None, Some(refused)) => format!("refused {refused}"),
                        (None, None) => "no answer".to_string(),
                    }
                )
            } else {
                String::new()
            }
        );
        endings.insert(name.clone(), ending);
    }
    println!(
        "every socket ended {} ms after the signal",
        signalled.elapsed().as_millis()
    );
    let mover = &endings[&mover_name];
    if mover.acked.is_some() {
        state.acked += 1;
        state.in_flight = None;
    } else {
        state.in_flight = Some(turn.clone());
    }
    if signal != "KILL" {
        let mut failures = Vec::new();
        for (name, ending) in &endings {
            if ending.restarting.is_none() {
                failures.push(format!("{name} was not told the server is restarting"));
            }
            match &ending.close {
                Some((code, reason)) if !reason.is_empty() => {
                    if *code != 1012 && *code != 1001 {
                        failures.push(format!("{name}: close code {code} (expected 1012)"));
                    }
                }
                Some((code, _)) => failures.push(format!("{name}: close {code} without reason")),
                None => failures.push(format!("{name}: no close frame")),
            }
        }
        match accepting_while_closing {
            Some(false) => println!("SIG{signal}: new connections refused while closing"),
            Some(true) => failures.push("a new connection was accepted while closing".into()),
            None => {}
        }
        ensure!(failures.is_empty(), "SIG{signal}: {}", failures.join("; "));
        println!(
            "SIG{signal}: every connection got restarting and a close frame with a reason; \
             the move in flight was {}",
            if mover.acked.is_some() {
                "acknowledged"
            } else {
                "not applied"
            }
        );
    }
    Ok(())
}

async fn play(args: PlayArgs) -> Res<()> {
    authority(&args.url)?;
    let mut state = if args.new {
        let mut names = serde_json::Map::new();
        for (seat, name) in SEATS {
            names.insert(seat.to_string(), json!(name));
        }
        let body = json!({"players": 4, "names": names});
        let created = http_json(&args.url, "POST", "/api/games", Some(&body), 201).await?;
        let game = created["id"].as_str().ok_or("no game id")?.to_string();
        let mut tokens = BTreeMap::new();
        for seat in created["seats"].as_array().ok_or("no seats")? {
            let player = seat["player"].as_str().ok_or("seat without player")?;
            let token = seat["token"].as_str().ok_or("seat without token")?;
            tokens.insert(player.to_string(), token.to_string());
        }
        ensure!(tokens.len() == 4, "expected 4 seat tokens: {created}");
        // Each friend follows their invitation and claims the seat; the game starts with the
        // last claim.
        for (seat, name) in SEATS {
            let body = json!({"name": name, "token": tokens[seat]});
            let path = format!("/api/games/{game}/seats");
            let claimed = http_json(&args.url, "POST", &path, Some(&body), 200).await?;
            ensure!(claimed["player"] == seat, "claiming {seat}: {claimed}");
        }
        let snapshot =
            http_json(&args.url, "GET", &format!("/api/games/{game}"), None, 200).await?;
        let state = GameState {
            game,
            tokens,
            v: snapshot["v"].as_u64().unwrap_or(0),
            dpn: snapshot["dpn"].as_str().unwrap_or("").to_string(),
            turns: Vec::new(),
            acked: 0,
            in_flight: None,
            next_ack: 1,
        };
        println!("game {} created", state.game);
        state.save(&args.state)?;
        state
    } else {
        GameState::load(&args.state)?
    };
    ensure!(
        state.in_flight.is_none(),
        "run verify first: a move was in flight"
    );
    let (mut clients, mut position) = join_all(&args.url, &state).await?;
    let mut rejected = false;
    if args.new {
        let turn = position.choose(state.v)?;
        let (wrong, _) = SEATS
            .iter()
            .find(|(seat, _)| *seat != position.to_move)
            .expect("another seat");
        let ack = state.ack();
        let client = clients.get_mut(*wrong).expect("joined");
        client
            .send(&json!({"type": "move", "ack": ack, "turn": turn}))
            .await?;
        loop {
            let message = client.recv().await?;
            if message["ack"] == ack {
                ensure!(
                    message["type"] == "error" && message["code"] == "not_your_turn",
                    "a move out of turn: {message}"
                );
                break;
            }
        }
        println!("a move out of turn was refused (not_your_turn)");
        rejected = true;
    }
    if let Some(marker) = &args.expect_db_failure {
        db_failure(&args.url, &mut clients, &position, &mut state, marker).await?;
        state.save(&args.state)?;
    }
    for _ in 0..args.turns {
        position = play_turn(&mut clients, &position, &mut state).await?;
        state.save(&args.state)?;
    }
    if let Some(out) = &args.metrics_out {
        check_metrics(&args.url, args.turns, rejected, out).await?;
    }
    if let Some(signal) = &args.signal {
        let pid = args.pid.ok_or("--signal needs --pid")?;
        let close_wait = Duration::from_secs(args.close_wait_secs);
        let result = signal_mid_turn(
            &args.url,
            &mut clients,
            &position,
            &mut state,
            signal,
            pid,
            close_wait,
        )
        .await;
        state.save(&args.state)?;
        result?;
    } else {
        for (_, mut client) in clients {
            let _ = client.stream.close(None).await;
        }
    }
    println!(
        "game {}: v {}, {} turns, {} moves acknowledged",
        state.game,
        state.v,
        state.turns.len(),
        state.acked
    );
    Ok(())
}

async fn verify(args: VerifyArgs) -> Res<()> {
    let mut state = GameState::load(&args.state)?;
    let game = state.game.clone();
    let public = http_json(&args.url, "GET", &format!("/api/games/{game}"), None, 200).await?;
    let server_turns = snapshot_turns(&public)?;
    let seen = state.turns.len();
    ensure!(
        server_turns.len() >= seen && server_turns[..seen] == state.turns[..],
        "the server lost or changed turns: it has {:?}, the clients saw {:?}",
        server_turns,
        state.turns
    );
    let extra = &server_turns[seen..];
    ensure!(
        extra.len() <= args.allow_unacked,
        "the server has {} turns nobody saw: {extra:?}",
        extra.len()
    );
    if let Some(turn) = extra.first() {
        ensure!(
            state.in_flight.as_deref() == Some(turn.turn.as_str()),
            "unexpected extra turn {turn:?} (in flight: {:?})",
            state.in_flight
        );
        println!(
            "the move in flight when the server died ({}) was committed without its ack reaching \
             the client; adopting it",
            turn.turn
        );
        state.turns = server_turns.clone();
        state.v = public["v"].as_u64().unwrap_or(0);
        state.dpn = public["dpn"].as_str().unwrap_or("").to_string();
    } else {
        ensure!(
            public["v"] == state.v && public["dpn"] == state.dpn.as_str(),
            "the server has v {} dpn {}, the clients saw v {} dpn {}",
            public["v"],
            public["dpn"],
            state.v,
            state.dpn
        );
        if let Some(turn) = &state.in_flight {
            println!("the move in flight ({turn}) was not committed; it was never acknowledged");
        }
    }
    state.in_flight = None;
    let live = http_json(&args.url, "GET", "/api/games?status=live", None, 200).await?;
    let listed = live["games"]
        .as_array()
        .is_some_and(|games| games.iter().any(|g| g["id"] == game.as_str()));
    ensure!(listed, "the game is not listed as live: {live}");
    // Every seat's token still works, and a reconnecting player can resume from its version.
    let (clients, _) = join_all(&args.url, &state).await?;
    for (_, mut client) in clients {
        let _ = client.stream.close(None).await;
    }
    let mut client = Client::connect(&args.url, &game, "r").await?;
    let answer = client
        .hello(Some(&state.tokens["r"]), Some(state.v))
        .await?;
    ensure!(
        answer["v"] == state.v,
        "resume from v {}: {answer}",
        state.v
    );
    let _ = client.stream.close(None).await;
    state.save(&args.state)?;
    println!(
        "game {game} intact: v {}, {} turns, same position, every seat token accepted, listed live",
        state.v,
        state.turns.len()
    );
    Ok(())
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Play(args) => play(args).await,
        Command::Verify(args) => verify(args).await,
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("smoke: FAIL: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
