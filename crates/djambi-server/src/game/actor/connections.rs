//! The actor's connections: joining (with a snapshot or the missed events), leaving, presence,
//! and catching up from memory or from the store's log.

use djambi_core::Player;

use super::Actor;
use super::calls::revoked_text;
use super::encode;
use super::talk::chat_outbound;
use crate::game::outbound::{Audience, CloseReason, Outbound, Seq, Text};
use crate::game::viewer::Viewer;
use crate::game::vocabulary::{Entry, JoinError, JoinRequest};
use crate::protocol::view::{Attendance, event_view, game_view, seat_presence};
use crate::protocol::{ErrorCode, GameView, ServerMessage, You};
use crate::table::text::display_name;
use crate::table::{ChatSight, Role, may_see};
use crate::token::TokenHash;

impl Actor {
    /// A connection joins: who it is and what to send it first, or why not.
    pub(super) fn join(&mut self, request: JoinRequest) -> Result<Entry, JoinError> {
        let JoinRequest {
            token,
            name,
            conn,
            since,
            chat_since,
        } = request;
        let limits = &self.ctx.limits;
        let (role, token) = match token {
            Some(token) => {
                let hash = TokenHash::of(&token);
                let seat = self.state.seat_of_token(&hash).ok_or(JoinError::BadToken)?;
                (Role::Player(seat), Some(hash))
            }
            None => (Role::Spectator, None),
        };
        let name = match role {
            Role::Player(p) => self
                .state
                .seat(p)
                .map(|s| s.display_name())
                .unwrap_or_else(|| p.name().to_string()),
            Role::Spectator => {
                if self.presence.spectators() as usize >= limits.max_spectators {
                    return Err(JoinError::Full);
                }
                match name {
                    Some(name) => {
                        let seats = self.state.seats.iter().filter_map(|s| s.name.as_deref());
                        display_name(&name, limits.max_name_chars, seats)
                            .map_err(|e| JoinError::BadName(e.to_string()))?
                    }
                    None => "spectator".to_string(),
                }
            }
        };
        let viewer = Viewer {
            conn,
            role,
            name,
            token,
            spectator_room: false,
            address: None,
        };
        // Seats always get in: past the cap, the seat's oldest socket makes room.
        if let Role::Player(p) = role {
            let max = limits.max_sockets_per_seat.max(1);
            self.seat_conns[p.index()].push_back(conn);
            while self.seat_conns[p.index()].len() > max {
                let Some(oldest) = self.seat_conns[p.index()].pop_front() else {
                    break;
                };
                self.send(Outbound {
                    close: Some(CloseReason::SeatOpenedElsewhere),
                    ..Outbound::new(
                        Seq::None,
                        Audience::Conn(oldest),
                        encode(&ServerMessage::Error {
                            ack: None,
                            code: ErrorCode::Replaced,
                            message: "this seat was opened in another window".into(),
                            kind: None,
                            v: self.state.v,
                        }),
                    )
                });
            }
        }
        // The caller subscribed in this same step: nothing is missed or sent twice between its
        // subscription and these first messages.
        let (mut initial, resumed) = self.catch_up(&viewer, since);
        // A snapshot carries the recent chat already; after a `resume`, the chat missed.
        if let Some(seen) = chat_since.filter(|_| resumed) {
            for row in self.chat.iter().filter(|c| c.id > seen) {
                let public = self.state.settings.players_chat_public;
                if may_see(row, viewer.sight(), public) {
                    initial.push(chat_outbound(row, public));
                }
            }
        }
        self.presence.add(role);
        self.conns.insert(conn, role);
        self.fanout.joined(conn);
        if let Role::Player(p) = role {
            self.away_since[p.index()] = None;
        }
        self.send(self.presence_message());
        tracing::debug!(game = %self.state.id, conn, ?role, "joined");
        Ok(Entry { viewer, initial })
    }

    /// Connection `conn`, at the game as `role`, left.
    pub(super) fn left(&mut self, conn: u64, role: Role) {
        self.conns.remove(&conn);
        self.fanout.left(conn);
        self.presence.remove(role);
        if let Role::Player(p) = role {
            self.seat_conns[p.index()].retain(|c| *c != conn);
            if self.presence.seat(p) == 0 {
                self.away_since[p.index()] = Some(crate::clock::now_ms());
            }
        }
        self.spectator_acks.retain(|(c, _), _| *c != conn);
        self.send(self.presence_message());
    }

    /// Whether `viewer` still holds its seat (a player whose token was replaced does not).
    pub(super) fn holds_seat(&self, viewer: &Viewer) -> bool {
        match viewer.role {
            Role::Spectator => true,
            Role::Player(p) => match (self.state.seat(p), &viewer.token) {
                (Some(seat), Some(token)) => seat.token_hash.matches(token),
                _ => false,
            },
        }
    }

    /// Tells the sockets playing `player` with its old token that they lost the seat, and
    /// closes them (the message reaches only connections that joined before the change).
    pub(super) fn revoke(&mut self, player: Player) {
        let text = revoked_text(self.state.v);
        self.send(Outbound {
            close: Some(CloseReason::SeatTokenReplaced),
            ..Outbound::new(Seq::None, Audience::Seat(player), text)
        });
    }

    pub(super) fn presence_message(&self) -> Outbound {
        let seats = self
            .state
            .seats
            .iter()
            .map(|s| {
                let connected = self.presence.seat(s.player) > 0;
                seat_presence(s, connected, self.away_since[s.player.index()])
            })
            .collect();
        Outbound::new(
            Seq::None,
            Audience::All,
            encode(&ServerMessage::Presence {
                status: self.state.status(),
                seats,
                spectators: self.presence.spectators(),
            }),
        )
    }

    pub(super) fn view(&self, sight: ChatSight) -> GameView {
        let table = Attendance {
            away_since: self.away_since,
            spectators: self.presence.spectators(),
            grace_s: self.ctx.limits.absent_grace.as_secs(),
        };
        game_view(&self.state, sight, table, self.chat.iter())
    }

    fn snapshot(&self, viewer: &Viewer) -> Outbound {
        let you = match viewer.role {
            Role::Player(player) => You::Player { player },
            Role::Spectator => You::Spectator,
        };
        Outbound::new(
            Seq::Snapshot(self.state.v),
            Audience::All,
            encode(&ServerMessage::Snapshot {
                v: self.state.v,
                you,
                game: Box::new(self.view(viewer.sight())),
            }),
        )
    }

    /// `resume` and the events after `since` when memory still holds them all, else a
    /// snapshot, then the legal turns of a player to move; and whether it is a `resume`. Never reads the database: what a reconnecting
    /// client costs is bounded by the memory window (`--replay-memory` events) or one snapshot.
    pub(super) fn catch_up(
        &mut self,
        viewer: &Viewer,
        since: Option<u64>,
    ) -> (Vec<Outbound>, bool) {
        let (mut out, resumed) = self.catch_up_events(viewer, since);
        // A player to move learns its legal turns last.
        if let Some(legal) = viewer.role.seat().and_then(|seat| self.legal_for(seat)) {
            out.push(legal);
        }
        (out, resumed)
    }

    /// [`catch_up`](Actor::catch_up) without the legal turns.
    fn catch_up_events(&mut self, viewer: &Viewer, since: Option<u64>) -> (Vec<Outbound>, bool) {
        let v = self.state.v;
        let Some(since) = since.filter(|s| *s <= v && v - s <= self.ctx.limits.max_catchup) else {
            return (vec![self.snapshot(viewer)], false);
        };
        let Some(events) = self.missed(since) else {
            return (vec![self.snapshot(viewer)], false);
        };
        let you = match viewer.role {
            Role::Player(player) => You::Player { player },
            Role::Spectator => You::Spectator,
        };
        let mut out = Vec::with_capacity(events.len() + 1);
        // The client has everything up to `since`; the events after it follow.
        out.push(Outbound::new(
            Seq::Snapshot(since),
            Audience::All,
            encode(&ServerMessage::Resume {
                from: since,
                v,
                you,
            }),
        ));
        out.extend(
            events
                .into_iter()
                .map(|(v, text)| Outbound::new(Seq::Event(v), Audience::All, text)),
        );
        (out, true)
    }

    /// The serialised events after `since`, if the memory window holds them all.
    fn missed(&mut self, since: u64) -> Option<Vec<(u64, Text)>> {
        let v = self.state.v;
        if since == v {
            return Some(Vec::new());
        }
        let window = self.ctx.limits.replay_memory.max(1) as u64;
        if v - since > window {
            return None;
        }
        if self
            .recent
            .front()
            .is_none_or(|(first, _)| *first > since + 1)
        {
            // A game loaded from the database starts with an empty window: fill it once,
            // from the game in memory (no database read).
            self.fill_recent();
        }
        self.recent
            .front()
            .is_some_and(|(first, _)| *first <= since + 1)
            .then(|| {
                self.recent
                    .iter()
                    .filter(|(v, _)| *v > since)
                    .cloned()
                    .collect()
            })
    }

    /// Serialises the last `--replay-memory` events again by replaying the game in memory.
    fn fill_recent(&mut self) {
        let window = self.ctx.limits.replay_memory.max(1) as u64;
        let first = self.state.v.saturating_sub(window) + 1;
        let mut replay = self.state.at_start();
        let mut recent = std::collections::VecDeque::new();
        for (kind, at) in &self.state.log {
            let Ok(applied) = replay.apply(kind, *at) else {
                tracing::error!(game = %self.state.id, v = replay.v + 1, "the game does not replay");
                return;
            };
            if replay.v >= first {
                recent.push_back((
                    replay.v,
                    encode(&ServerMessage::Event {
                        v: replay.v,
                        event: Box::new(event_view(&replay, kind, applied)),
                    }),
                ));
            }
        }
        if replay.v == self.state.v {
            self.recent = recent;
        }
    }
}

impl Actor {
    /// Forgets the connections whose node went away without saying goodbye (several nodes).
    pub(super) fn forget_gone(&mut self) {
        for conn in self.fanout.gone() {
            if let Some(role) = self.conns.get(&conn).copied() {
                self.left(conn, role);
            }
        }
    }
}
