//! The actor that owns one game. It takes one command at a time from its inbox; a command that
//! changes the game is applied to a copy of the state, committed, and only then does the copy
//! replace the state and the events go out, serialised once, on the broadcast. If the commit
//! fails nothing changed and the client is told `internal`.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use axum::extract::ws::Utf8Bytes;
use djambi_core::{ArmySet, Player};
use tokio::sync::{broadcast, mpsc};
use uuid::Uuid;

use super::command::{self, Action, Rejection};
use super::handle::{Command, GameHandle, JoinError, Joined, Reply};
use super::state::GameState;
use super::view::{chat_view, event_view, game_view, may_see};
use super::{Audience, Limits, Outbound, Presence, Role, Seq, Viewer, clean_text};
use crate::clock::now_ms;
use crate::error::AppError;
use crate::metrics::Metrics;
use crate::protocol::http::{ClaimSeat, ClaimedSeat};
use crate::protocol::{ErrorCode, GameView, SeatPresence, ServerMessage, You};
use crate::store::{ChatRow, Commit, EventKind, EventRow, Store, StoreError};
use crate::token::{SeatToken, TokenHash};

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

    // --- connections -------------------------------------------------------------------------

    async fn join(
        &mut self,
        token: Option<String>,
        name: Option<String>,
        conn: u64,
        since: Option<u64>,
        chat_since: Option<u64>,
    ) -> Result<Joined, JoinError> {
        let role = match token {
            Some(token) => Role::Player(
                self.state
                    .seat_of_token(&TokenHash::of(&token))
                    .ok_or(JoinError::BadToken)?,
            ),
            None => Role::Spectator,
        };
        if self.presence.total() as usize >= self.ctx.limits.max_connections_per_game {
            return Err(JoinError::Full);
        }
        let name = match role {
            Role::Player(p) => self
                .state
                .seat(p)
                .map(|s| s.display_name())
                .unwrap_or_else(|| p.name().to_string()),
            Role::Spectator => match name {
                Some(name) => clean_text(&name, self.ctx.limits.max_name_chars)
                    .map_err(|(_, why)| JoinError::BadName(why))?
                    .to_string(),
                None => "spectator".to_string(),
            },
        };
        let viewer = Viewer { conn, role, name };
        // Subscribing and taking the first messages in the same step: nothing is missed or
        // sent twice between them.
        let events = self.tx.subscribe();
        let mut initial = self.catch_up(&viewer, since).await;
        if let Some(seen) = chat_since {
            for row in self.chat.iter().filter(|c| c.id > seen) {
                if may_see(row, role.seat()) {
                    initial.push(chat_outbound(row));
                }
            }
        }
        self.presence.add(role);
        self.send(self.presence_message());
        tracing::debug!(game = %self.state.id, conn, ?role, "joined");
        Ok(Joined {
            viewer,
            events,
            initial,
        })
    }

    fn leave(&mut self, viewer: &Viewer) {
        self.presence.remove(viewer.role);
        self.spectator_acks
            .retain(|(conn, _), _| *conn != viewer.conn);
        self.send(self.presence_message());
    }

    fn presence_message(&self) -> Outbound {
        let seats = self
            .state
            .seats
            .iter()
            .map(|s| SeatPresence {
                player: s.player,
                name: s.name.clone(),
                claimed: s.claimed,
                connected: self.presence.seat(s.player) > 0,
            })
            .collect();
        Outbound {
            seq: Seq::None,
            audience: Audience::All,
            text: encode(&ServerMessage::Presence {
                status: self.state.status(),
                seats,
                spectators: self.presence.spectators(),
            }),
        }
    }

    fn view(&self, seat: Option<Player>) -> GameView {
        game_view(
            &self.state,
            seat,
            |p| self.presence.seat(p) > 0,
            self.presence.spectators(),
            self.chat.iter(),
        )
    }

    fn snapshot(&self, viewer: &Viewer) -> Outbound {
        let you = match viewer.role {
            Role::Player(player) => You::Player { player },
            Role::Spectator => You::Spectator,
        };
        Outbound {
            seq: Seq::Snapshot(self.state.v),
            audience: Audience::All,
            text: encode(&ServerMessage::Snapshot {
                v: self.state.v,
                you,
                game: Box::new(self.view(viewer.role.seat())),
            }),
        }
    }

    /// `resume` and the events after `since` when they can be had (from memory, else rebuilt
    /// from the store's log), else a snapshot.
    async fn catch_up(&self, viewer: &Viewer, since: Option<u64>) -> Vec<Outbound> {
        let v = self.state.v;
        if let Some(since) = since.filter(|s| *s <= v && v - s <= self.ctx.limits.max_catchup) {
            if let Some(events) = self.missed(since).await {
                let you = match viewer.role {
                    Role::Player(player) => You::Player { player },
                    Role::Spectator => You::Spectator,
                };
                let mut out = Vec::with_capacity(events.len() + 1);
                // The client has everything up to `since`; the events after it follow.
                out.push(Outbound {
                    seq: Seq::Snapshot(since),
                    audience: Audience::All,
                    text: encode(&ServerMessage::Resume {
                        from: since,
                        v,
                        you,
                    }),
                });
                out.extend(events.into_iter().map(|(v, text)| Outbound {
                    seq: Seq::Event(v),
                    audience: Audience::All,
                    text,
                }));
                return out;
            }
        }
        vec![self.snapshot(viewer)]
    }

    async fn missed(&self, since: u64) -> Option<Vec<(u64, Utf8Bytes)>> {
        if since == self.state.v {
            return Some(Vec::new());
        }
        if self.recent.front().is_some_and(|(v, _)| *v <= since + 1) {
            return Some(
                self.recent
                    .iter()
                    .filter(|(v, _)| *v > since)
                    .cloned()
                    .collect(),
            );
        }
        // Older than memory: replay the stored log from the start and serialise the events
        // after `since` again (the same bytes as when they happened, the clock aside).
        let rows = match self.ctx.store.events_since(self.state.id, 0).await {
            Ok(rows) => rows,
            Err(e) => {
                tracing::warn!(game = %self.state.id, error = %e, "could not read the log");
                return None;
            }
        };
        let mut replay = self.state.at_start();
        let mut out = Vec::new();
        for row in rows.iter().take_while(|r| r.v <= self.state.v) {
            let effects = replay.replay(row).ok()?;
            if row.v > since {
                let event = event_view(&replay, &row.kind, effects);
                out.push((
                    row.v,
                    encode(&ServerMessage::Event {
                        v: row.v,
                        event: Box::new(event),
                    }),
                ));
            }
        }
        (replay.v == self.state.v).then_some(out)
    }

    // --- commands ----------------------------------------------------------------------------

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

    async fn chat(
        &mut self,
        viewer: &Viewer,
        ack: u64,
        to: Option<Player>,
        text: String,
    ) -> Result<u64, Rejection> {
        let text = clean_text(&text, self.ctx.limits.max_chat_chars)
            .map_err(|(too_long, why)| {
                let code = if too_long {
                    ErrorCode::TooLarge
                } else {
                    ErrorCode::Malformed
                };
                Rejection::new(code, why)
            })?
            .to_string();
        let from = viewer.role.seat();
        let audience = match to {
            None => Audience::All,
            Some(to) => {
                let Some(from) = from else {
                    return Err(Rejection::new(
                        ErrorCode::Spectator,
                        "spectators cannot whisper",
                    ));
                };
                if to == from || self.state.seat(to).is_none() {
                    return Err(Rejection::new(
                        ErrorCode::NotAPlayer,
                        "a whisper goes to another player of this game",
                    ));
                }
                Audience::Players(ArmySet::EMPTY.with(from).with(to))
            }
        };
        let row = ChatRow {
            id: self.last_chat_id + 1,
            v: self.state.v,
            from,
            name: viewer.name.clone(),
            to,
            text,
            ack: from.map(|_| ack),
            at: now_ms(),
        };
        let commit = Commit {
            game: self.state.id,
            chat: Some(row.clone()),
            ..Commit::default()
        };
        self.commit(commit).await.map_err(|e| {
            tracing::error!(game = %self.state.id, error = %e, "could not commit chat");
            Rejection::new(
                ErrorCode::Internal,
                "the server could not save this; nothing changed",
            )
        })?;
        self.last_chat_id = row.id;
        let mut outbound = chat_outbound(&row);
        outbound.audience = audience;
        self.chat.push_back(row);
        while self.chat.len() > self.ctx.limits.recent_chat.max(1) {
            self.chat.pop_front();
        }
        self.send(outbound);
        Ok(self.state.v)
    }

    async fn claim(&mut self, request: ClaimSeat) -> Result<ClaimedSeat, AppError> {
        let (player, token) = match &request.token {
            Some(token) => {
                let player = self
                    .state
                    .seat_of_token(&TokenHash::of(token))
                    .ok_or(AppError::BadToken)?;
                if request.player.is_some_and(|p| p != player) {
                    return Err(AppError::BadToken);
                }
                (player, SeatToken::from_client(token.clone()))
            }
            None => {
                if !self.state.open {
                    return Err(AppError::BadToken);
                }
                let free = |p: Player| {
                    self.state.seat(p).is_some_and(|s| !s.claimed)
                        && self.state.position().is_alive(p)
                };
                let player = match request.player {
                    Some(p) if self.state.seat(p).is_none() => {
                        return Err(AppError::BadRequest(format!("no seat {p} in this game")));
                    }
                    Some(p) if !free(p) => {
                        return Err(AppError::SeatTaken(format!("seat {p} is taken")));
                    }
                    Some(p) => p,
                    None => self
                        .state
                        .seats
                        .iter()
                        .map(|s| s.player)
                        .find(|p| free(*p))
                        .ok_or_else(|| AppError::NoOpenSeat("every seat is taken".into()))?,
                };
                (player, SeatToken::generate())
            }
        };
        if self.state.is_over() {
            return Err(AppError::NoOpenSeat("the game is over".into()));
        }
        let seat = self.state.seat(player).expect("the seat exists");
        if seat.claimed {
            return Err(AppError::SeatTaken(format!(
                "seat {player} is already claimed"
            )));
        }
        let name = match request.name.as_deref().or(seat.name.as_deref()) {
            Some(name) => clean_text(name, self.ctx.limits.max_name_chars)
                .map_err(|(_, why)| AppError::BadRequest(format!("name: {why}")))?
                .to_string(),
            None => return Err(AppError::BadRequest("name: a name is required".into())),
        };
        let mut next = self.state.clone();
        next.updated_at = now_ms();
        let seat = next
            .seats
            .iter_mut()
            .find(|s| s.player == player)
            .expect("the seat exists");
        seat.claimed = true;
        seat.name = Some(name.clone());
        seat.token_hash = token.hash();
        let commit = Commit {
            game: self.state.id,
            claim: Some(seat.row()),
            summary: Some(next.summary()),
            ..Commit::default()
        };
        self.commit(commit).await?;
        self.state = next;
        tracing::info!(game = %self.state.id, seat = %player, "seat claimed");
        self.send(self.presence_message());
        Ok(ClaimedSeat {
            player,
            name,
            token: token.as_str().to_string(),
        })
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

fn chat_outbound(row: &ChatRow) -> Outbound {
    let audience = match (row.from, row.to) {
        (Some(from), Some(to)) => Audience::Players(ArmySet::EMPTY.with(from).with(to)),
        _ => Audience::All,
    };
    Outbound {
        seq: Seq::None,
        audience,
        text: encode(&ServerMessage::Chat(chat_view(row))),
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
