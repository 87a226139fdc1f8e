//! The actor that owns one game. It takes one command at a time from its inbox; a command that
//! changes the game is applied to a copy of the state with everything that follows from it
//! (forced passes, a game that starts, a vote decided, a takeback agreed), committed, and only
//! then does the copy replace the state and the events go out, serialised once, on the
//! broadcast. If the commit fails nothing changed and the client is told `internal`. Bots and
//! clocks act through the same path: a bot's turn arrives in the inbox like a player's, and a
//! clock running out is a timer of the actor's own loop.

mod admin;
mod bots;
mod commit;
mod connections;
mod rematch;
mod remote;
mod seats;
mod talk;
mod timers;

pub(in crate::game) use remote::Owned;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Arc, Mutex};

use axum::extract::ws::{Utf8Bytes, close_code};
use djambi_core::{ArmySet, Player};
use governor::{DefaultDirectRateLimiter, RateLimiter};
use tokio::sync::{broadcast, mpsc};
use uuid::Uuid;

use super::bots::BotPool;
use super::command::{self, Action, Rejection, Table};
use super::handle::{Command, GameHandle, Reply};
use super::state::GameState;
use super::{Audience, ChatSight, Limits, Outbound, Presence, Role, Seq, Viewer, restarting};
use crate::clock::now_ms;
use crate::metrics::Metrics;
use crate::protocol::{ErrorCode, GameStatus, ServerMessage};
use crate::store::{ChatRow, EventKind, EventRow, Store};
use connections::revoked_text;

/// What every actor shares.
pub(super) struct Context {
    pub store: Store,
    pub metrics: Arc<Metrics>,
    pub limits: Limits,
    /// The registry's map, so an idle actor can remove itself.
    pub games: Arc<Mutex<HashMap<Uuid, GameHandle>>>,
    /// The bots' threads.
    pub bots: Arc<BotPool>,
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
    /// The actor's own inbox, for the answers of its bots (weak: the actor does not keep
    /// itself alive).
    me: Option<mpsc::WeakSender<Command>>,
    /// Recent events, serialised, oldest first.
    recent: VecDeque<(u64, Utf8Bytes)>,
    /// The last `legal` message serialised, and the version it is for.
    legal: Option<(u64, Utf8Bytes)>,
    /// Recent chat, oldest first.
    chat: VecDeque<ChatRow>,
    last_chat_id: u64,
    /// Committed commands of each seat: (player, ack) → version. Restored from the store, so
    /// a command resent after a restart is still applied at most once.
    acks: HashMap<(Player, u64), u64>,
    /// Committed chat of spectators: (connection, ack) → version, for their connection's life.
    spectator_acks: HashMap<(u64, u64), u64>,
    /// The connections playing each seat, oldest first.
    seat_conns: [VecDeque<u64>; 4],
    /// Since when each seat has had no connection (ms); none while connected.
    away_since: [Option<i64>; 4],
    /// The chat this game still accepts from everyone together.
    chat_budget: DefaultDirectRateLimiter,
    /// When anyone last did anything here (claims, events, chat), in ms: a game waiting for
    /// players expires when nobody touched it for long.
    touched: i64,
    /// The version a bot is thinking about (its answer is dropped if the game moved on).
    thinking: Option<u64>,
    /// The draw offer (its version) the bots were asked about, and which of them.
    asked_draw: (u64, ArmySet),
    /// A bot's turn waiting for its moment (people watch, its think time has not passed).
    held: Option<bots::HeldTurn>,
    /// The count of turns when a bot last offered a draw.
    bot_offered: Option<u32>,
    /// When the server was last seen alive before this actor started (a restart): the
    /// running clock was stopped meanwhile.
    down_since: Option<i64>,
    /// The summary last written: its status, version, and when.
    summary_written: (GameStatus, u64, i64),
    generation: u64,
    /// With several nodes: this node's ownership of the game.
    owned: Option<Owned>,
}

impl Actor {
    pub(super) fn new(
        state: GameState,
        ctx: Arc<Context>,
        presence: Arc<Presence>,
        generation: u64,
    ) -> Actor {
        let (tx, _) = broadcast::channel(ctx.limits.event_buffer.max(16));
        let chat_budget = RateLimiter::direct(ctx.limits.game_chat.quota());
        presence.set_status(state.status());
        let alive = state.position().alive();
        presence.set_bots(alive.iter().any(|p| state.bot(p).is_some()));
        let touched = state.updated_at;
        let now = now_ms();
        let (status, v) = (state.status(), state.v);
        Actor {
            state,
            ctx,
            tx,
            presence,
            me: None,
            recent: VecDeque::new(),
            legal: None,
            chat: VecDeque::new(),
            last_chat_id: 0,
            acks: HashMap::new(),
            spectator_acks: HashMap::new(),
            seat_conns: Default::default(),
            away_since: [Some(now); 4],
            chat_budget,
            touched,
            thinking: None,
            asked_draw: (0, ArmySet::EMPTY),
            held: None,
            bot_offered: None,
            down_since: None,
            summary_written: (status, v, 0),
            generation,
            owned: None,
        }
    }

    /// The actor's own inbox (weakly held), for its bots' answers.
    pub(super) fn with_inbox(mut self, me: mpsc::WeakSender<Command>) -> Actor {
        self.me = Some(me);
        self
    }

    /// The summary stored with the game is of version `v` (after a crash it may lag: it is
    /// written again at start).
    pub(super) fn stored_summary(mut self, v: u64) -> Actor {
        self.summary_written.1 = v;
        self
    }

    /// The server was last seen alive at `at` before this start: the clock stood still since.
    pub(super) fn down_since(mut self, at: Option<i64>) -> Actor {
        self.down_since = at;
        self
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
            if let (Some(ack), Some(player)) = (e.ack, e.kind.player()) {
                self.acks.insert((player, ack), e.v);
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
        self.announce_takeover();
        self.settle().await;
        let mut purge = tokio::time::interval(remote::PURGE_EVERY);
        purge.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            if self.lost() {
                break;
            }
            let idle = self.state.is_over() && self.presence.total() == 0;
            let deadline = self.next_timer();
            let held = self.held.map(|h| h.due);
            let summary_due = self.summary_due();
            let remote_viewers = self.has_remote_viewers();
            let next = tokio::select! {
                _ = sleep_until_ms(summary_due), if summary_due.is_some() => {
                    self.write_summary().await;
                    continue;
                }
                _ = purge.tick(), if remote_viewers => {
                    self.forget_dead_nodes();
                    self.after_change();
                    continue;
                }
                next = inbox.recv() => next,
                _ = tokio::time::sleep(self.ctx.limits.idle), if idle => {
                    self.unload();
                    self.withdraw_digest();
                    // Whatever raced in is dropped: its sender sees the game gone and asks the
                    // registry again.
                    inbox.close();
                    break;
                }
                _ = sleep_until_ms(deadline), if deadline.is_some() => {
                    self.on_timer().await;
                    self.after_change();
                    continue;
                }
                _ = sleep_until_ms(held), if held.is_some() => {
                    self.release_held().await;
                    self.after_change();
                    continue;
                }
            };
            match next {
                None => break,
                Some(Command::Shutdown) => {
                    if self.summary_due().is_some() {
                        self.write_summary().await;
                    }
                    self.restarting();
                    break;
                }
                Some(command) => self.handle(command).await,
            }
            self.after_change();
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

    /// After any command: what others read without asking, and what bots should do next.
    fn after_change(&mut self) {
        self.presence.set_status(self.state.status());
        let alive = self.state.position().alive();
        self.presence
            .set_bots(alive.iter().any(|p| self.state.bot(p).is_some()));
        self.presence.set_deadline(
            self.state
                .clock
                .and_then(|c| c.deadline())
                .map(|(_, at)| at),
        );
        self.publish_digest();
        if !self.lost() {
            self.schedule_bots();
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Join { request, reply } => {
                let joined = self.join(request).await;
                let _ = reply.send(joined);
                self.follow_up().await;
            }
            Command::Leave { viewer } => {
                self.left(viewer.conn, viewer.role);
            }
            Command::Depart { conn } => {
                if let Some(role) = self.remote_left(conn) {
                    self.left(conn, role);
                }
            }
            Command::Act {
                viewer,
                ack,
                action,
                reply,
            } => {
                let answer = self.act(&viewer, ack, action).await;
                // A command whose commit was fenced has no answer here: its socket reconnects
                // to the game's new owner and sends it again.
                if !self.lost() {
                    let _ = reply.send(answer);
                }
            }
            Command::Sync {
                viewer,
                since,
                reply,
            } => {
                if !self.holds_seat(&viewer) {
                    let _ = reply.send(vec![Outbound {
                        close: Some((close_code::POLICY, "seat token replaced")),
                        ..Outbound::new(Seq::None, Audience::All, revoked_text(self.state.v))
                    }]);
                    return;
                }
                let (mut out, _) = self.catch_up(&viewer, since);
                out.push(self.presence_message());
                let _ = reply.send(out);
            }
            Command::Claim { request, reply } => {
                let claimed = self.claim(request).await;
                if !self.lost() {
                    let _ = reply.send(claimed);
                }
            }
            Command::Admin { action, reply } => {
                let answer = self.admin(action).await;
                if !self.lost() {
                    let _ = reply.send(answer);
                }
            }
            Command::Snapshot { reply } => {
                let _ = reply.send(self.view(ChatSight::SPECTATOR));
            }
            Command::Record { reply } => {
                let _ = reply.send(self.state.record());
            }
            Command::Expire { before, reply } => {
                let expire = self.state.status() == crate::protocol::GameStatus::Open
                    && self.touched < before;
                let expired = expire
                    && self
                        .advance(
                            vec![EventKind::Cancelled(crate::protocol::CancelReason::Expired)],
                            None,
                        )
                        .await
                        .is_ok();
                if expired {
                    tracing::info!(game = %self.state.id, "expired: nobody claimed it in time");
                }
                let _ = reply.send(expired);
            }
            Command::BotTurn { v, player, turn } => self.bot_turn(v, player, turn).await,
            Command::BotOffer { v, player } => self.bot_offer(v, player).await,
            Command::BotDraw {
                offer,
                player,
                accept,
            } => self.bot_draw(offer, player, accept).await,
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
        self.publish(&outbound);
        let receivers = self.tx.send(outbound).unwrap_or(0);
        self.ctx
            .metrics
            .events_sent
            .fetch_add(receivers as u64, Relaxed);
    }

    fn restarting(&self) {
        self.send(restarting(Audience::All));
    }

    /// Who is at the table now.
    fn table(&self, now: i64) -> Table {
        Table {
            connected: self
                .state
                .seats
                .iter()
                .map(|s| s.player)
                .filter(|p| self.presence.seat(*p) > 0)
                .collect(),
            away_since: self.away_since,
            now,
            grace_ms: i64::try_from(self.ctx.limits.absent_grace.as_millis()).unwrap_or(i64::MAX),
        }
    }

    async fn act(&mut self, viewer: &Viewer, ack: u64, action: Action) -> Reply {
        if !self.holds_seat(viewer) {
            // A socket whose seat token was replaced acts for nobody (it is being closed).
            return error_reply(
                Some(ack),
                Rejection::new(
                    ErrorCode::SeatRevoked,
                    "this seat was claimed again with a new token; yours no longer works",
                ),
                self.state.v,
            );
        }
        if let Some(v) = self.committed(viewer, ack) {
            // A resend: the first answer again, nothing applied twice.
            return ack_reply(ack, v);
        }
        let is_turn = action.is_turn();
        let result = match action {
            Action::Chat(text) => self.chat(viewer, ack, None, text).await,
            Action::Whisper(to, text) => self.chat(viewer, ack, Some(to), text).await,
            Action::Rematch => self.rematch(viewer).await,
            action => {
                let table = self.table(now_ms());
                match command::decide(&self.state, viewer.role, &action, &table) {
                    Ok(kind) => self.advance(vec![kind], Some(ack)).await,
                    Err(rejection) => Err(rejection),
                }
            }
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
                error_reply(Some(ack), rejection, self.state.v)
            }
        }
    }

    fn committed(&self, viewer: &Viewer, ack: u64) -> Option<u64> {
        match viewer.role {
            Role::Player(p) => self.acks.get(&(p, ack)).copied(),
            Role::Spectator => self.spectator_acks.get(&(viewer.conn, ack)).copied(),
        }
    }
}

/// Sleeps until a time in ms since the epoch (forever for none).
async fn sleep_until_ms(at: Option<i64>) {
    match at {
        Some(at) => {
            let wait = (at - now_ms()).max(0) as u64;
            tokio::time::sleep(std::time::Duration::from_millis(wait)).await;
        }
        None => std::future::pending().await,
    }
}

fn ack_reply(ack: u64, v: u64) -> Reply {
    Reply {
        v,
        accepted: true,
        text: encode(&ServerMessage::Ack { ack, v }),
    }
}

fn error_reply(ack: Option<u64>, rejection: Rejection, v: u64) -> Reply {
    Reply {
        v,
        accepted: false,
        text: encode(&ServerMessage::Error {
            ack,
            code: rejection.code,
            message: rejection.message,
            kind: rejection.kind,
            v,
        }),
    }
}
