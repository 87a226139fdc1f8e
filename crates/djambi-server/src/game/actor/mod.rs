//! The actor that owns one game. It takes one command at a time from its inbox; a command that
//! changes the game is applied to a copy of the state, committed, and only then does the copy
//! replace the state and the events go out, serialised once, on the broadcast. If the commit
//! fails nothing changed and the client is told `internal`.

mod connections;
mod seats;
mod talk;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::ws::Utf8Bytes;
use djambi_core::Player;
use tokio::sync::{broadcast, mpsc};
use uuid::Uuid;

use super::command::{self, Action, Rejection};
use super::handle::{Command, GameHandle, Reply};
use super::state::GameState;
use super::view::event_view;
use super::{Audience, Limits, Outbound, Presence, Role, Seq, Viewer};
use crate::clock::now_ms;
use crate::metrics::Metrics;
use crate::protocol::{ErrorCode, ServerMessage};
use crate::store::{ChatRow, Commit, EventKind, EventRow, Store, StoreError};

/// Forced passes in a row before the actor stops and reports a bug (R12.3 ends the game long
/// before: when every living player has passed).
const MAX_FORCED_PASSES: usize = 8;

/// What every actor shares.
pub(super) struct Context {
    pub store: Store,
    pub metrics: Arc<Metrics>,
    pub limits: Limits,
    /// The registry's map, so an idle actor can remove itself.
    pub games: Arc<Mutex<HashMap<Uuid, GameHandle>>>,
}

/// Serialises a server message (once, for every recipient).
pub(super) fn encode(message: &ServerMessage) -> Utf8Bytes {
    Utf8Bytes::from(serde_json::to_string(message).expect("protocol messages serialise"))
}

pub(super) struct Actor {
    state: GameState,
    ctx: Arc<Context>,
    tx: broadcast::Sender<Outbound>,
    presence: Arc<Presence>,
    /// Recent events, serialised, oldest first.
    recent: VecDeque<(u64, Utf8Bytes)>,
    /// Recent chat, oldest first.
    chat: VecDeque<ChatRow>,
    last_chat_id: u64,
    /// Committed commands of each seat: (player, ack) → version. Restored from the store, so
    /// a command resent after a restart is still applied at most once.
    acks: HashMap<(Player, u64), u64>,
    /// Committed chat of spectators: (connection, ack) → version, for their connection's life.
    spectator_acks: HashMap<(u64, u64), u64>,
    generation: u64,
}

impl Actor {
    pub(super) fn new(
        state: GameState,
        ctx: Arc<Context>,
        presence: Arc<Presence>,
        generation: u64,
    ) -> Actor {
        let (tx, _) = broadcast::channel(ctx.limits.event_buffer.max(16));
        Actor {
            state,
            ctx,
            tx,
            presence,
            recent: VecDeque::new(),
            chat: VecDeque::new(),
            last_chat_id: 0,
            acks: HashMap::new(),
            spectator_acks: HashMap::new(),
            generation,
        }
    }

    /// Restores what a stored game had besides its log: recent chat and committed ack ids.
    pub(super) fn with_history(
        mut self,
        events: &[EventRow],
        chat: Vec<ChatRow>,
        last_chat_id: u64,
        chat_acks: &[(Player, u64, u64)],
    ) -> Actor {
        for e in events {
            if let Some(ack) = e.ack {
                self.acks.insert((e.kind.player(), ack), e.v);
            }
        }
        for &(p, ack, v) in chat_acks {
            self.acks.insert((p, ack), v);
        }
        self.chat = chat.into();
        self.last_chat_id = last_chat_id;
        self
    }

    /// Runs until shut down, or until the game is over and nobody has watched for a while.
    pub(super) async fn run(mut self, mut inbox: mpsc::Receiver<Command>) {
        let metrics = self.ctx.metrics.clone();
        metrics.loaded_games.fetch_add(1, Relaxed);
        let mut live = !self.state.is_over();
        if live {
            metrics.live_games.fetch_add(1, Relaxed);
        }
        self.settle().await;
        loop {
            let idle = self.state.is_over() && self.presence.total() == 0;
            let next = if idle {
                match tokio::time::timeout(self.ctx.limits.idle, inbox.recv()).await {
                    Ok(next) => next,
                    Err(_) => {
                        self.unload();
                        // Whatever raced in is dropped: its sender sees the game gone and
                        // asks the registry again.
                        inbox.close();
                        break;
                    }
                }
            } else {
                inbox.recv().await
            };
            match next {
                None => break,
                Some(Command::Shutdown) => {
                    self.restarting();
                    break;
                }
                Some(command) => self.handle(command).await,
            }
            if live && self.state.is_over() {
                live = false;
                metrics.live_games.fetch_sub(1, Relaxed);
            }
        }
        if live {
            metrics.live_games.fetch_sub(1, Relaxed);
        }
        metrics.loaded_games.fetch_sub(1, Relaxed);
        tracing::debug!(game = %self.state.id, "actor stopped");
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join {
                token,
                name,
                conn,
                since,
                chat_since,
                reply,
            } => {
                let joined = self.join(token, name, conn, since, chat_since).await;
                let _ = reply.send(joined);
            }
            Command::Leave { viewer } => self.leave(&viewer),
            Command::Act {
                viewer,
                ack,
                action,
                reply,
            } => {
                let answer = self.act(&viewer, ack, action).await;
                let _ = reply.send(answer);
            }
            Command::Sync {
                viewer,
                since,
                reply,
            } => {
                let mut out = self.catch_up(&viewer, since).await;
                out.push(self.presence_message());
                let _ = reply.send(out);
            }
            Command::Claim { request, reply } => {
                let claimed = self.claim(request).await;
                let _ = reply.send(claimed);
            }
            Command::Snapshot { reply } => {
                let _ = reply.send(self.view(None));
            }
            Command::Record { reply } => {
                let _ = reply.send(self.state.game.record());
            }
            Command::Shutdown => {}
        }
    }

    fn unload(&self) {
        let mut games = self.ctx.games.lock().expect("registry lock");
        if games
            .get(&self.state.id)
            .is_some_and(|h| h.generation == self.generation)
        {
            games.remove(&self.state.id);
        }
    }

    fn send(&self, outbound: Outbound) {
        let receivers = self.tx.send(outbound).unwrap_or(0);
        self.ctx
            .metrics
            .events_sent
            .fetch_add(receivers as u64, Relaxed);
    }

    fn restarting(&self) {
        let text = encode(&ServerMessage::Restarting {
            message: "the server is restarting; reconnect in a moment".into(),
        });
        self.send(Outbound {
            seq: Seq::None,
            audience: Audience::AllThenClose,
            text,
        });
    }

    async fn act(&mut self, viewer: &Viewer, ack: u64, action: Action) -> Reply {
        if let Some(v) = self.committed(viewer, ack) {
            // A resend: the first answer again, nothing applied twice.
            return ack_reply(ack, v);
        }
        let is_turn = action.is_turn();
        let result = match action {
            Action::Chat(text) => self.chat(viewer, ack, None, text).await,
            Action::Whisper(to, text) => self.chat(viewer, ack, Some(to), text).await,
            action => self.play(viewer, ack, &action).await,
        };
        let metrics = &self.ctx.metrics;
        match result {
            Ok(v) => {
                if !is_turn {
                    metrics.commands_accepted.fetch_add(1, Relaxed);
                }
                match viewer.role {
                    Role::Player(p) => self.acks.insert((p, ack), v),
                    Role::Spectator => self.spectator_acks.insert((viewer.conn, ack), v),
                };
                ack_reply(ack, v)
            }
            Err(rejection) => {
                if is_turn {
                    metrics.turns_rejected.fetch_add(1, Relaxed);
                } else {
                    metrics.commands_rejected.fetch_add(1, Relaxed);
                }
                tracing::debug!(game = %self.state.id, code = rejection.code.as_str(), "refused");
                Reply {
                    v: self.state.v,
                    accepted: false,
                    text: encode(&ServerMessage::Error {
                        ack: Some(ack),
                        code: rejection.code,
                        message: rejection.message,
                        kind: rejection.kind,
                        v: self.state.v,
                    }),
                }
            }
        }
    }

    fn committed(&self, viewer: &Viewer, ack: u64) -> Option<u64> {
        match viewer.role {
            Role::Player(p) => self.acks.get(&(p, ack)).copied(),
            Role::Spectator => self.spectator_acks.get(&(viewer.conn, ack)).copied(),
        }
    }

    async fn commit(&self, commit: Commit) -> Result<(), StoreError> {
        let started = Instant::now();
        let result = self.ctx.store.commit(commit).await;
        if result.is_ok() {
            self.ctx.metrics.observe_commit(started.elapsed());
        }
        result
    }

    /// A game action: decided, applied to a copy with the passes it forces, committed, then
    /// made the state. Returns the version of its event.
    async fn play(&mut self, viewer: &Viewer, ack: u64, action: &Action) -> Result<u64, Rejection> {
        let kind = command::decide(&self.state, viewer.role, action)?;
        let now = now_ms();
        let mut next = self.state.clone();
        next.updated_at = now;
        let mut rows = Vec::new();
        let mut out = Vec::new();
        apply(&mut next, kind, Some(ack), now, &mut rows, &mut out).map_err(internal)?;
        force_passes(&mut next, now, &mut rows, &mut out).map_err(internal)?;
        let v = rows[0].v;
        let commit = Commit {
            game: self.state.id,
            events: rows.clone(),
            summary: Some(next.summary()),
            ..Commit::default()
        };
        self.commit(commit).await.map_err(|e| {
            tracing::error!(game = %self.state.id, error = %e, "could not commit; nothing changed");
            Rejection::new(
                ErrorCode::Internal,
                "the server could not save this; nothing changed",
            )
        })?;
        self.install(next, &rows, out);
        Ok(v)
    }

    /// Plays the passes owed right now (at start-up: a restored or imported game may owe one).
    async fn settle(&mut self) {
        if self.state.forced_pass().is_none() {
            return;
        }
        let now = now_ms();
        let mut next = self.state.clone();
        next.updated_at = now;
        let (mut rows, mut out) = (Vec::new(), Vec::new());
        if let Err(e) = force_passes(&mut next, now, &mut rows, &mut out) {
            tracing::error!(game = %self.state.id, error = %e, "could not play the owed passes");
            return;
        }
        let commit = Commit {
            game: self.state.id,
            events: rows.clone(),
            summary: Some(next.summary()),
            ..Commit::default()
        };
        match self.commit(commit).await {
            Ok(()) => self.install(next, &rows, out),
            Err(e) => tracing::error!(game = %self.state.id, error = %e, "could not commit passes"),
        }
    }

    /// The committed copy becomes the state; its events go out.
    fn install(&mut self, next: GameState, rows: &[EventRow], out: Vec<(u64, Utf8Bytes)>) {
        self.state = next;
        let turns = rows
            .iter()
            .filter(|r| matches!(r.kind, EventKind::Turn { .. }))
            .count();
        self.ctx
            .metrics
            .turns_accepted
            .fetch_add(turns as u64, Relaxed);
        if turns < rows.len() {
            self.ctx
                .metrics
                .commands_accepted
                .fetch_add((rows.len() - turns) as u64, Relaxed);
        }
        for (v, text) in out {
            self.recent.push_back((v, text.clone()));
            while self.recent.len() > self.ctx.limits.replay_memory.max(1) {
                self.recent.pop_front();
            }
            self.send(Outbound {
                seq: Seq::Event(v),
                audience: Audience::All,
                text,
            });
        }
        if self.state.is_over() {
            tracing::info!(game = %self.state.id, result = ?self.state.result(), v = self.state.v, "game over");
        }
    }
}

fn internal(why: String) -> Rejection {
    tracing::error!(error = %why, "a decided event did not apply");
    Rejection::new(ErrorCode::Internal, "the server could not apply this")
}

fn ack_reply(ack: u64, v: u64) -> Reply {
    Reply {
        v,
        accepted: true,
        text: encode(&ServerMessage::Ack { ack, v }),
    }
}

/// Applies one event to `next` and serialises it (with the state right after it).
fn apply(
    next: &mut GameState,
    kind: EventKind,
    ack: Option<u64>,
    now: i64,
    rows: &mut Vec<EventRow>,
    out: &mut Vec<(u64, Utf8Bytes)>,
) -> Result<(), String> {
    let effects = next.apply(&kind)?;
    let event = event_view(next, &kind, effects);
    out.push((
        next.v,
        encode(&ServerMessage::Event {
            v: next.v,
            event: Box::new(event),
        }),
    ));
    rows.push(EventRow {
        v: next.v,
        kind,
        ack,
        at: now,
    });
    Ok(())
}

/// Plays every pass owed: while the player to move has no turn but `pass`, it passes (R8.6).
fn force_passes(
    next: &mut GameState,
    now: i64,
    rows: &mut Vec<EventRow>,
    out: &mut Vec<(u64, Utf8Bytes)>,
) -> Result<(), String> {
    for _ in 0..MAX_FORCED_PASSES {
        let Some(pass) = next.forced_pass() else {
            return Ok(());
        };
        apply(next, pass, None, now, rows, out)?;
    }
    match next.forced_pass() {
        None => Ok(()),
        Some(_) => Err("too many forced passes in a row".into()),
    }
}
