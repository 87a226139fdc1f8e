//! The two subcommands: `play` (create or resume the game, play turns, optionally signal the
//! server) and `verify` (after a restart, the server still has the game as it was seen).

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::json;

use crate::checks::{check_metrics, db_failure};
use crate::http::{authority, http_json};
use crate::seats::{join_all, play_turn};
use crate::signal::{Trigger, signal_mid_turn};
use crate::state::{GameState, snapshot_turns};
use crate::ws::Client;
use crate::{PlayArgs, Res, SEATS, VerifyArgs};

pub(crate) async fn play(args: PlayArgs) -> Res<()> {
    authority(&args.url)?;
    let mut state = if args.new {
        let mut names = serde_json::Map::new();
        for (seat, name) in SEATS {
            names.insert(seat.to_string(), json!(name));
        }
        // Listed: after a restart the smoke test finds it among the live games.
        let body = json!({"players": 4, "names": names, "listed": true});
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
        let turn = crate::seats::next_turn(&mut clients, &position, &mut state).await?;
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
        let trigger = match (args.pid, &args.signal_cmd) {
            (Some(pid), None) => Trigger::Pid(pid),
            (None, Some(command)) => Trigger::Command(command.clone()),
            _ => return Err("--signal needs --pid or --signal-cmd".into()),
        };
        let close_wait = Duration::from_secs(args.close_wait_secs);
        let result = signal_mid_turn(
            &args.url,
            &mut clients,
            &position,
            &mut state,
            signal,
            &trigger,
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

pub(crate) async fn verify(args: VerifyArgs) -> Res<()> {
    verify_game(&args.url, &args.state, args.allow_unacked).await
}

/// Checks the server has the game of the state file as its clients saw it, with at most
/// `allow_unacked` turns more (the move in flight when the server died); every seat's token
/// still works, and a reconnecting player can resume from its version.
pub(crate) async fn verify_game(
    url: &str,
    state_path: &std::path::Path,
    allow_unacked: usize,
) -> Res<()> {
    let mut state = GameState::load(state_path)?;
    let game = state.game.clone();
    let public = http_json(url, "GET", &format!("/api/games/{game}"), None, 200).await?;
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
        extra.len() <= allow_unacked,
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
    let live = http_json(url, "GET", "/api/games?status=live", None, 200).await?;
    let listed = live["games"]
        .as_array()
        .is_some_and(|games| games.iter().any(|g| g["id"] == game.as_str()));
    ensure!(listed, "the game is not listed as live: {live}");
    // Every seat's token still works, and a reconnecting player can resume from its version.
    let (clients, _) = join_all(url, &state).await?;
    for (_, mut client) in clients {
        let _ = client.stream.close(None).await;
    }
    let mut client = Client::connect(url, &game, "r").await?;
    let answer = client
        .hello(Some(&state.tokens["r"]), Some(state.v))
        .await?;
    ensure!(
        answer["v"] == state.v,
        "resume from v {}: {answer}",
        state.v
    );
    let _ = client.stream.close(None).await;
    state.save(state_path)?;
    println!(
        "game {game} intact: v {}, {} turns, same position, every seat token accepted, listed live",
        state.v,
        state.turns.len()
    );
    Ok(())
}
