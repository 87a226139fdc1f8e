//! The actor that owns one game. It takes one command at a time from its inbox; a command that
//! changes the game is applied to the state in place with everything that follows from it
//! (forced passes, a game that starts, a vote decided, a takeback agreed), committed to its
//! [`Journal`], and only then do the events go out, serialised once, through its [`Fanout`]. If
//! the commit fails, the state is rolled back to the checkpoint taken before (nothing changed)
//! and the client is told `internal`. Bots and clocks act through the same path: a bot's turn
//! arrives in the inbox like a player's, and a clock running out is a timer of the actor's own
//! loop.
//!
//! [`Journal`]: super::ports::Journal
//! [`Fanout`]: super::ports::Fanout

mod admin;
mod alerts;
mod bots;
mod calls;
mod commit;
mod connections;
mod rematch;
mod seats;
mod talk;
mod timers;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use djambi_core::{ArmySet, Player};
use governor::{DefaultDirectRateLimiter, RateLimiter};
use tokio::sync::mpsc;
use uuid::Uuid;

use super::bots::BotPool;
use super::handle::{Command, GameHandle};
use super::limits::Limits;
use super::outbound::{Audience, Outbound, Text};
use super::ports::Alerts;
use super::ports::{Fanout, Journal};
use super::presence::Presence;
use crate::clock::now_ms;
use crate::metrics::Metrics;
use crate::protocol::ServerMessage;
use crate::store::Store;
use crate::table::{AtTable, ChatLine, Event, GameState, GameStatus, Role};

/// What every actor shares.
pub(super) struct Context {
    /// The database (a rematch creates its game there).
    pub store: Store,
    pub metrics: Arc<Metrics>,
    pub limits: Limits,
    /// The registry's map, so an idle actor can remove itself.
    pub games: Arc<Mutex<HashMap<Uuid, GameHandle>>>,
    /// The bots' threads.
    pub bots: Arc<BotPool>,
    /// Where alerts for seats nobody has open go (none: push is off).
    pub alerts: Option<Arc<dyn Alerts>>,
    /// Who created which game: the caps on games with bots, the payer of the bots' thinking.
    pub ledger: Arc<super::ledger::Ledger>,
}

/// Serialises a server message (once, for every recipient).
pub(super) fn encode(message: &ServerMessage) -> Text {
    Text::json(message)
}

pub(super) struct Actor {
    state: GameState,
    ctx: Arc<Context>,
    journal: Arc<dyn Journal>,
    fanout: Box<dyn Fanout>,
    presence: Arc<Presence>,
    /// The actor's own inbox, for the answers of its bots (weak: the actor does not keep
    /// itself alive).
    me: Option<mpsc::WeakSender<Command>>,
    /// Recent events, serialised, oldest first.
    recent: VecDeque<(u64, Text)>,
    /// The last `legal` message serialised, and the version it is for.
    legal: Option<(u64, Text)>,
    /// Recent chat, oldest first.
    chat: VecDeque<ChatLine>,
    last_chat_id: u64,
    /// Committed commands of each seat: (player, ack) → version. Restored from the store, so
    /// a command resent after a restart is still applied at most once.
    acks: HashMap<(Player, u64), u64>,
    /// Committed chat of spectators: (connection, ack) → version, for their connection's life.
    spectator_acks: HashMap<(u64, u64), u64>,
    /// Every connection at the game (of any node), with its role.
    conns: HashMap<u64, Role>,
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
    /// Since when the game's clock stood still before this actor started (the server was
    /// down, or nobody ran the game): the running clock is paused for that time.
    down_since: Option<i64>,
    /// The summary last written: its status, version, and when.
    summary_written: (GameStatus, u64, i64),
    generation: u64,
    /// The game was taken by another node (a commit was fenced): the actor stops.
    lost: bool,
    /// The correspondence deadline whose warning was given: (player, deadline ms).
    warned: Option<(Player, i64)>,
}

impl Actor {
    pub(super) fn new(
        state: GameState,
        ctx: Arc<Context>,
        (journal, fanout): (Arc<dyn Journal>, Box<dyn Fanout>),
        presence: Arc<Presence>,
        generation: u64,
    ) -> Actor {
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
            journal,
            fanout,
            presence,
            me: None,
            recent: VecDeque::new(),
            legal: None,
            chat: VecDeque::new(),
            last_chat_id: 0,
            acks: HashMap::new(),
            spectator_acks: HashMap::new(),
            conns: HashMap::new(),
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
            lost: false,
            warned: None,
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

    /// The game's clock stood still since `at` before this start.
    pub(super) fn down_since(mut self, at: Option<i64>) -> Actor {
        self.down_since = at;
        self
    }

    /// Restores what a stored game had besides its log: recent chat and committed ack ids.
    pub(super) fn with_history(
        mut self,
        events: &[Event],
        chat: Vec<ChatLine>,
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
        metrics.loaded_games.inc();
        let mut live = !self.state.is_over();
        if live {
            metrics.live_games.inc();
        }
        self.fanout.started();
        self.settle().await;
        let mut check = tokio::time::interval(
            self.fanout
                .check_every()
                .unwrap_or(Duration::from_secs(3600)),
        );
        check.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            if self.lost {
                break;
            }
            let idle = self.state.is_over() && self.presence.total() == 0;
            let deadline = self.next_timer();
            let warning = self.next_warning();
            let held = self.held.map(|h| h.due);
            let summary_due = self.summary_due();
            let watching = self.fanout.watching();
            let next = tokio::select! {
                _ = sleep_until_ms(summary_due), if summary_due.is_some() => {
                    self.write_summary().await;
                    continue;
                }
                _ = check.tick(), if watching => {
                    self.forget_gone();
                    self.after_change();
                    continue;
                }
                next = inbox.recv() => next,
                _ = tokio::time::sleep(self.ctx.limits.idle), if idle => {
                    self.unload();
                    self.fanout.unloaded();
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
                _ = sleep_until_ms(warning), if warning.is_some() => {
                    self.warn_deadline();
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
                Some(Command::Unload) if idle => {
                    self.unload();
                    self.fanout.unloaded();
                    inbox.close();
                    break;
                }
                Some(Command::Shutdown) => {
                    if self.summary_due().is_some() {
                        self.write_summary().await;
                    }
                    self.send(Outbound::restarting(Audience::All));
                    break;
                }
                Some(command) => self.handle(command).await,
            }
            self.after_change();
            if live && self.state.is_over() {
                live = false;
                metrics.live_games.dec();
            }
        }
        if live {
            metrics.live_games.dec();
        }
        metrics.loaded_games.dec();
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
        self.fanout.presence(&self.presence);
        if !self.lost {
            self.schedule_bots();
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Call { call, reply } => {
                let response = self.call(call).await;
                // A call whose commit was fenced has no answer here: its caller finds the
                // game's new owner and asks again.
                if let (Some(reply), Some(response)) = (reply, response)
                    && !self.lost
                {
                    let _ = reply.send(response);
                }
            }
            Command::BotTurn { v, player, turn } => self.bot_turn(v, player, turn).await,
            Command::BotOffer { v, player } => self.bot_offer(v, player).await,
            Command::BotDraw {
                offer,
                player,
                accept,
            } => self.bot_draw(offer, player, accept).await,
            Command::Shutdown | Command::Unload => {}
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

    /// Sends a message to the game's connections (this node's and, through the fanout,
    /// others').
    fn send(&mut self, outbound: Outbound) {
        let receivers = self.fanout.send(outbound);
        self.ctx.metrics.events_sent.inc_by(receivers as u64);
    }

    /// Who is at the table now.
    fn at_table(&self, now: i64) -> AtTable {
        AtTable {
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
}

/// Sleeps until a time in ms since the epoch (forever for none).
async fn sleep_until_ms(at: Option<i64>) {
    match at {
        Some(at) => {
            let wait = (at - now_ms()).max(0) as u64;
            tokio::time::sleep(Duration::from_millis(wait)).await;
        }
        None => std::future::pending().await,
    }
}
