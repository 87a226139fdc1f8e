//! Signalling the server in the middle of a turn (SIGTERM, SIGINT or SIGKILL) and checking what
//! every connection saw as the server went down.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::net::TcpStream;

use crate::http::authority;
use crate::state::{GameState, Position};
use crate::ws::{Client, Incoming};
use crate::{Res, WAIT};

/// What one connection saw after the signal.
#[derive(Debug, Default)]
struct Ending {
    restarting: Option<String>,
    close: Option<(u16, String)>,
    acked: Option<u64>,
    refused: Option<Value>,
}

/// How the server is signalled.
pub(crate) enum Trigger {
    /// `kill -s SIGNAL PID`: a server process on this machine.
    Pid(u32),
    /// A shell command run in the background that signals it, e.g. `docker compose restart
    /// server` or `docker compose kill -s SIGKILL server`; it must succeed within two minutes.
    Command(String),
}

impl Trigger {
    /// Starts the signal: `kill` is done when this returns; a command may still run.
    fn pull(&self, signal: &str) -> Res<Option<std::process::Child>> {
        match self {
            Trigger::Pid(pid) => {
                let status = std::process::Command::new("kill")
                    .args(["-s", signal, &pid.to_string()])
                    .status()
                    .map_err(|e| format!("kill: {e}"))?;
                ensure!(status.success(), "kill -s {signal} {pid} failed");
                Ok(None)
            }
            Trigger::Command(command) => std::process::Command::new("sh")
                .args(["-c", command])
                .spawn()
                .map(Some)
                .map_err(|e| format!("{command}: {e}")),
        }
    }

    fn describe(&self, signal: &str) -> String {
        match self {
            Trigger::Pid(pid) => format!("SIG{signal} to {pid}"),
            Trigger::Command(command) => format!("`{command}` (SIG{signal})"),
        }
    }
}

/// Waits for the trigger's command (if any) to end, successfully, within two minutes.
pub(crate) async fn finish(child: Option<std::process::Child>, trigger: &Trigger) -> Res<()> {
    let Some(mut child) = child else {
        return Ok(());
    };
    let started = Instant::now();
    loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) => {
                ensure!(
                    status.success(),
                    "{} failed: {status}",
                    trigger.describe("")
                );
                println!(
                    "{} done in {} ms",
                    trigger.describe("").replace(" (SIG)", ""),
                    started.elapsed().as_millis()
                );
                return Ok(());
            }
            None if started.elapsed() > Duration::from_secs(120) => {
                let _ = child.kill();
                return Err(format!(
                    "{} still running after 120 s",
                    trigger.describe("")
                ));
            }
            None => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Sends one more turn, signals the server at once, and reads every socket to its end.
pub(crate) async fn signal_mid_turn(
    url: &str,
    clients: &mut BTreeMap<String, Client>,
    position: &Position,
    state: &mut GameState,
    signal: &str,
    trigger: &Trigger,
    close_wait: Duration,
) -> Res<()> {
    let turn = crate::seats::next_turn(clients, position, state).await?;
    let mover_name = position.to_move.clone();
    let ack = state.ack();
    let mover = clients.get_mut(&mover_name).ok_or("nobody to move")?;
    mover
        .send(&json!({"type": "move", "ack": ack, "turn": turn}))
        .await?;
    let child = trigger.pull(signal)?;
    println!(
        "sent {turn} for {mover_name} (ack {ack}) and {}",
        trigger.describe(signal)
    );
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
                        // Only for a process here: a container engine's port forwarder may
                        // accept a connection on the published port whatever the server does.
                        if accepting_while_closing.is_none() && matches!(trigger, Trigger::Pid(_)) {
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
    finish(child, trigger).await?;
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
