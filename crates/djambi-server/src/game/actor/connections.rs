//! The actor's connections: joining (with a snapshot or the missed events), leaving, presence,
//! and catching up from memory or from the store's log.

use axum::extract::ws::Utf8Bytes;
use djambi_core::Player;

use super::Actor;
use super::encode;
use super::talk::chat_outbound;
use crate::game::handle::{JoinError, Joined};
use crate::game::view::{event_view, game_view, may_see};
use crate::game::{Audience, Outbound, Role, Seq, Viewer, clean_text};
use crate::protocol::{GameView, SeatPresence, ServerMessage, You};
use crate::token::TokenHash;

impl Actor {
    pub(super) async fn join(
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

    pub(super) fn leave(&mut self, viewer: &Viewer) {
        self.presence.remove(viewer.role);
        self.spectator_acks
            .retain(|(conn, _), _| *conn != viewer.conn);
        self.send(self.presence_message());
    }

    pub(super) fn presence_message(&self) -> Outbound {
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

    pub(super) fn view(&self, seat: Option<Player>) -> GameView {
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
    pub(super) async fn catch_up(&self, viewer: &Viewer, since: Option<u64>) -> Vec<Outbound> {
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
}
