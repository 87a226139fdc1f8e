//! Every seat and a spectator at the table: joining them all, and playing one turn while every
//! connection follows.

use std::collections::BTreeMap;

use serde_json::json;

use crate::state::{GameState, Position};
use crate::ws::Client;
use crate::{Res, SEATS};

/// Joins every seat (with its token) and a spectator; checks each sees version `v`.
pub(crate) async fn join_all(
    url: &str,
    state: &GameState,
) -> Res<(BTreeMap<String, Client>, Position)> {
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

/// The turn the player to move plays next: a quiet one of the `legal` message the server sent
/// its socket for the current version.
pub(crate) async fn next_turn(
    clients: &mut BTreeMap<String, Client>,
    position: &Position,
    state: &mut GameState,
) -> Res<String> {
    let mover = clients
        .get_mut(&position.to_move)
        .ok_or_else(|| format!("nobody plays {}", position.to_move))?;
    let legal = mover.legal_at(state.v, state).await?;
    position.choose(state.v, &legal)
}

/// Plays one turn: sends it from the player to move, reads to its ack, and brings every other
/// connection up to the same version. Returns the position after it.
pub(crate) async fn play_turn(
    clients: &mut BTreeMap<String, Client>,
    position: &Position,
    state: &mut GameState,
) -> Res<Position> {
    let turn = next_turn(clients, position, state).await?;
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
