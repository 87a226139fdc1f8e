//! One node of several killed in the middle of a turn (the compose profile `cluster`): every
//! client behaves as the browser does — a socket that closes (its node died, or the game moved
//! to another node: `1012`) reconnects through the load balancer with the last version it saw,
//! and the move still waiting for its ack is sent again with the same ack id. Checked: the move
//! in flight is acknowledged once the game has a new owner (within the given time), every
//! acknowledged move is kept, play goes on, and the spectator saw every event (live, resent
//! after it reconnected, or in a snapshot).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::commands::verify_game;
use crate::http::http_json;
use crate::seats::join_all;
use crate::state::{GameState, Position, snapshot_turns};
use crate::ws::{Client, Incoming};
use crate::{FailoverArgs, Res, WAIT};

/// The clients, the game's URL and state, and a deadline for the whole run.
struct Table {
    url: String,
    clients: BTreeMap<String, Client>,
    state: GameState,
    reconnects: u32,
}

/// What reading a client gave: a message, or a new connection in place of a closed one.
enum Read {
    Message(Value),
    Reconnected,
}

pub(crate) async fn failover(args: FailoverArgs) -> Res<()> {
    let state = GameState::load(&args.state)?;
    ensure!(
        state.in_flight.is_none(),
        "run verify first: a move was in flight"
    );
    let url = args.url.clone();
    let (clients, position) = join_all(&url, &state).await?;
    let spectator_from = clients["spectator"].v;
    let mut table = Table {
        url,
        clients,
        state,
        reconnects: 0,
    };
    let calm = Instant::now() + Duration::from_secs(args.max_recovery_secs);
    let mut position = position;
    for _ in 0..args.turns_before {
        position = table.play(&position, None, calm).await?.0;
        table.state.save(&args.state)?;
    }

    // The move in flight, and the kill right after it was sent.
    let kill = args.kill_cmd.clone();
    let mut killed = None;
    let deadline = Instant::now() + Duration::from_secs(args.max_recovery_secs + 15);
    let (next, acked_after) = table
        .play(
            &position,
            Some(&mut || {
                let started = Instant::now();
                let status = std::process::Command::new("sh")
                    .args(["-c", &kill])
                    .status()
                    .map_err(|e| format!("{kill}: {e}"))?;
                ensure!(status.success(), "`{kill}` failed: {status}");
                println!("ran `{kill}`");
                killed = Some(started);
                Ok(())
            }),
            deadline,
        )
        .await?;
    let killed = killed.ok_or("the node was not killed")?;
    let recovery = acked_after.saturating_duration_since(killed);
    ensure!(
        recovery <= Duration::from_secs(args.max_recovery_secs),
        "the move in flight was acknowledged {} ms after the kill (limit {} s)",
        recovery.as_millis(),
        args.max_recovery_secs
    );
    println!(
        "the move in flight was acknowledged {} ms after the kill",
        recovery.as_millis()
    );
    table.state.save(&args.state)?;

    // Play goes on, through the takeover (sockets on the dead node, and those whose game moved
    // to another node, reconnect as the browser does).
    position = next;
    let mut slowest = Duration::ZERO;
    let mut first_after = None;
    for _ in 0..args.turns_after {
        let sent = Instant::now();
        let deadline = sent + Duration::from_secs(args.max_recovery_secs + 15);
        let (next, at) = table.play(&position, None, deadline).await?;
        slowest = slowest.max(at.saturating_duration_since(sent));
        first_after.get_or_insert(at.saturating_duration_since(killed));
        position = next;
        table.state.save(&args.state)?;
    }
    let first_after = first_after.unwrap_or_default();
    ensure!(
        first_after <= Duration::from_secs(args.max_recovery_secs),
        "the first turn after the kill was acknowledged {} ms after it (limit {} s)",
        first_after.as_millis(),
        args.max_recovery_secs
    );
    println!(
        "{} more turns: the first acknowledged {} ms after the kill (through the takeover), the \
         slowest {} ms after it was sent; {} reconnections in all",
        args.turns_after,
        first_after.as_millis(),
        slowest.as_millis(),
        table.reconnects
    );

    // The spectator saw every event since it joined.
    let last = table.state.v;
    let spectator = &table.clients["spectator"];
    let missed: Vec<u64> = (spectator_from + 1..=last)
        .filter(|v| {
            !spectator.seen.events.contains(v) && !spectator.seen.resyncs.iter().any(|r| r >= v)
        })
        .collect();
    ensure!(
        missed.is_empty(),
        "the spectator missed events {missed:?} (saw {:?}, resynced at {:?})",
        spectator.seen.events,
        spectator.seen.resyncs
    );
    println!(
        "the spectator saw every event from v {} to v {last}: {} as events, resynced by snapshot at {:?}",
        spectator_from + 1,
        spectator.seen.events.len(),
        spectator.seen.resyncs
    );
    let Table {
        url,
        clients,
        state,
        ..
    } = table;
    for (_, mut client) in clients {
        let _ = client.stream.close(None).await;
    }
    state.save(&args.state)?;
    verify_game(&url, &args.state, 0).await?;
    println!(
        "failover: the move in flight acknowledged {:.1} s after the kill; {} turns in all, none lost",
        recovery.as_secs_f64(),
        state.turns.len()
    );
    Ok(())
}

impl Table {
    /// Plays the next turn (running `between` right after sending it): the mover reads its
    /// legal turns, sends one, and sends it again with the same ack id after each reconnection
    /// until it is acknowledged; then every other client reads up to it. Returns the position
    /// after it and when the ack came.
    async fn play(
        &mut self,
        position: &Position,
        mut between: Option<&mut dyn FnMut() -> Res<()>>,
        deadline: Instant,
    ) -> Res<(Position, Instant)> {
        let mover = position.to_move.clone();
        let v = self.state.v;
        let legal = loop {
            if let Some((at, turns)) = &self.clients[&mover].legal
                && *at == self.state.v
            {
                break turns.clone();
            }
            let _ = self.read(&mover, deadline).await?;
        };
        let turn = position.choose(v, &legal)?;
        let ack = self.state.ack();
        let command = json!({"type": "move", "ack": ack, "turn": turn});
        self.client(&mover)?.send(&command).await?;
        self.state.in_flight = Some(turn.clone());
        if let Some(between) = between.as_mut() {
            between()?;
        }
        let acked = loop {
            match self.read(&mover, deadline).await? {
                Read::Reconnected => self.client(&mover)?.send(&command).await?,
                Read::Message(message) if message["ack"] == ack => {
                    if message["type"] == "ack" {
                        break message["v"].as_u64().unwrap_or(0);
                    }
                    // Refused while the game has no owner (it is being taken over): again, with
                    // the same ack id, in a moment.
                    println!("{mover}: {turn} answered {message}; sending it again");
                    tokio::time::sleep(Duration::from_millis(250)).await;
                    self.client(&mover)?.send(&command).await?;
                }
                Read::Message(_) => {}
            }
        };
        let at = Instant::now();
        self.state.acked += 1;
        self.state.in_flight = None;
        let names: Vec<String> = self.clients.keys().cloned().collect();
        for name in names {
            while self.clients[&name].v < acked {
                let _ = self.read(&name, deadline).await?;
            }
        }
        println!("v {acked}: {mover} played {turn}");
        let public = http_json(
            &self.url,
            "GET",
            &format!("/api/games/{}", self.state.game),
            None,
            200,
        )
        .await?;
        Ok((Position::from_state(&public), at))
    }

    fn client(&mut self, name: &str) -> Res<&mut Client> {
        self.clients
            .get_mut(name)
            .ok_or_else(|| format!("no client {name}"))
    }

    /// The next message of `name`'s socket; a closed socket is replaced (retrying until the
    /// deadline) with `hello` and the last version it saw. Silence on an open socket for as
    /// long as a message may take is a failure.
    async fn read(&mut self, name: &str, deadline: Instant) -> Res<Read> {
        let left = deadline.saturating_duration_since(Instant::now());
        ensure!(!left.is_zero(), "{name}: the deadline passed");
        let client = self.clients.get_mut(name).ok_or("no such client")?;
        match client.next(left.min(WAIT)).await? {
            Incoming::Message(message) => {
                self.state.see(&message);
                Ok(Read::Message(message))
            }
            Incoming::Closed(frame) => {
                println!("{name}: socket closed {frame:?}; reconnecting");
                self.rejoin(name, deadline).await?;
                Ok(Read::Reconnected)
            }
            Incoming::Timeout => Err(format!(
                "{name}: its open socket received nothing for {WAIT:?} at v {}",
                client.v
            )),
        }
    }

    /// A new connection for `name`, retried until the deadline; `hello` with its last version.
    /// A snapshot newer than anything seen brings the state file up to it.
    async fn rejoin(&mut self, name: &str, deadline: Instant) -> Res<()> {
        let token = self.state.tokens.get(name).cloned();
        let (url, game) = (self.url.clone(), self.state.game.clone());
        let client = self.clients.get_mut(name).ok_or("no such client")?;
        let answer = loop {
            let attempt = async {
                client.reconnect(&url, &game).await?;
                let since = client.v;
                client.hello(token.as_deref(), Some(since)).await
            };
            match attempt.await {
                Ok(answer) => break answer,
                Err(e) if Instant::now() < deadline => {
                    println!("{name}: reconnecting: {e}");
                    tokio::time::sleep(Duration::from_millis(250)).await;
                }
                Err(e) => return Err(format!("{name}: could not reconnect: {e}")),
            }
        };
        self.reconnects += 1;
        if answer["type"] == "snapshot" && answer["v"].as_u64() > Some(self.state.v) {
            let game = &answer["game"];
            self.state.turns = snapshot_turns(game)?;
            self.state.v = answer["v"].as_u64().unwrap_or(0);
            self.state.dpn = game["dpn"].as_str().unwrap_or("").to_string();
        }
        Ok(())
    }
}
