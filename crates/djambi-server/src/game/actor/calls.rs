//! The calls of the game's vocabulary, each handled by the actor: joins and leaves, commands,
//! syncs, claims, snapshots, records, the creator's actions, expiry and hints.

use super::{Actor, encode};
use crate::clock::now_ms;
use crate::game::handle::Response;
use crate::game::outbound::{Audience, CloseReason, Outbound, Seq};
use crate::game::viewer::Viewer;
use crate::game::vocabulary::{Answer, Call, HintAsk, Reply};
use crate::protocol::{ErrorCode, ServerMessage};
use crate::table::{
    Action, CancelReason, ChatSight, EventKind, GameStatus, HintRefusal, Refusal, Role,
};
use crate::token::TokenHash;

impl Actor {
    /// Handles a call; its answer (none when the game was lost to another node meanwhile).
    pub(super) async fn call(&mut self, call: Call) -> Option<Response> {
        let answer = match call {
            Call::Join(request) => {
                let events = self.fanout.subscribe();
                let entry = self.join(request);
                let joined = entry.is_ok();
                let response = Response {
                    answer: Answer::Joined(entry),
                    events: joined.then_some(events),
                };
                // A player who came back may end a vote about them.
                self.follow_up().await;
                return Some(response);
            }
            Call::Leave { conn } => {
                if let Some(role) = self.conns.get(&conn).copied() {
                    self.left(conn, role);
                }
                Answer::Done
            }
            Call::Act {
                viewer,
                ack,
                action,
            } => Answer::Reply(self.act(&viewer, ack, action).await),
            Call::Sync { viewer, since } => Answer::Messages(self.sync(&viewer, since)),
            Call::Claim {
                token,
                player,
                name,
                member,
            } => Answer::Claimed(self.claim(token, player, name, member).await),
            Call::Snapshot => Answer::Json(
                serde_json::to_string(&self.view(ChatSight::SPECTATOR)).expect("a view serialises"),
            ),
            Call::Record => Answer::Json(
                serde_json::to_string(&self.state.record()).expect("a record serialises"),
            ),
            Call::Admin { token, what } => Answer::Admin(self.admin(&token, what).await),
            Call::Seat { token } => Answer::Seat(self.state.seat_of_token(&TokenHash::of(&token))),
            Call::Expire { before } => Answer::Expired(self.expire(before).await),
            Call::Hint { token } => Answer::Hint(self.hint(&token)),
        };
        Some(Response {
            answer,
            events: None,
        })
    }

    async fn act(&mut self, viewer: &Viewer, ack: u64, action: Action) -> Reply {
        if !self.holds_seat(viewer) {
            // A socket whose seat token was replaced acts for nobody (it is being closed).
            return error_reply(Some(ack), &Refusal::SeatRevoked, self.state.v);
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
                let table = self.at_table(now_ms());
                match crate::table::decide(&self.state, viewer.role, &action, &table) {
                    Ok(kind) => match self.bot_vote_allowed(&kind) {
                        Ok(()) => self.advance(vec![kind], Some(ack)).await,
                        Err(refusal) => Err(refusal),
                    },
                    Err(refusal) => Err(refusal),
                }
            }
        };
        let metrics = &self.ctx.metrics;
        match result {
            Ok(v) => {
                if !is_turn {
                    metrics.commands_accepted.inc();
                }
                match viewer.role {
                    Role::Player(p) => self.acks.insert((p, ack), v),
                    Role::Spectator => self.spectator_acks.insert((viewer.conn, ack), v),
                };
                ack_reply(ack, v)
            }
            Err(refusal) => {
                if is_turn {
                    metrics.turns_rejected.inc();
                } else {
                    metrics.commands_rejected.inc();
                }
                let code = ErrorCode::from(&refusal);
                tracing::debug!(game = %self.state.id, code = code.as_str(), "refused");
                error_reply(Some(ack), &refusal, self.state.v)
            }
        }
    }

    fn committed(&self, viewer: &Viewer, ack: u64) -> Option<u64> {
        match viewer.role {
            Role::Player(p) => self.acks.get(&(p, ack)).copied(),
            Role::Spectator => self.spectator_acks.get(&(viewer.conn, ack)).copied(),
        }
    }

    /// What a connection missed since `since` (or a snapshot), with who is connected; a socket
    /// that lost its seat is told so and closed.
    fn sync(&mut self, viewer: &Viewer, since: Option<u64>) -> Vec<Outbound> {
        if !self.holds_seat(viewer) {
            return vec![Outbound {
                close: Some(CloseReason::SeatTokenReplaced),
                ..Outbound::new(Seq::None, Audience::All, revoked_text(self.state.v))
            }];
        }
        let (mut out, _) = self.catch_up(viewer, since);
        out.push(self.presence_message());
        out
    }

    /// What the engine is to think about for the hint of the seat whose token is `token`.
    fn hint(&self, token: &str) -> Result<HintAsk, HintRefusal> {
        let player = self
            .state
            .seat_of_token(&TokenHash::of(token))
            .ok_or(HintRefusal::BadToken)?;
        self.state.may_hint(player)?;
        let pos = self.state.position();
        Ok(HintAsk {
            position: pos.to_dpn(),
            rules: pos.rules(),
            player,
            v: self.state.v,
            seed: self.state.turn_seed(),
        })
    }

    /// Cancels the game if it waits for players and nobody touched it since `before` (ms).
    async fn expire(&mut self, before: i64) -> bool {
        let expire = self.state.status() == GameStatus::Open && self.touched < before;
        let expired = expire
            && self
                .advance(
                    vec![EventKind::Cancelled {
                        reason: CancelReason::Expired,
                    }],
                    None,
                )
                .await
                .is_ok();
        if expired {
            tracing::info!(game = %self.state.id, "expired: nobody claimed it in time");
        }
        expired
    }
}

/// The answer to a committed command.
pub(super) fn ack_reply(ack: u64, v: u64) -> Reply {
    Reply {
        v,
        accepted: true,
        text: encode(&ServerMessage::Ack { ack, v }),
    }
}

/// The answer to a refused command, at version `v`.
pub(super) fn error_reply(ack: Option<u64>, refusal: &Refusal, v: u64) -> Reply {
    let kind = match refusal {
        Refusal::Illegal { kind, .. } => Some(*kind),
        _ => None,
    };
    Reply {
        v,
        accepted: false,
        text: encode(&ServerMessage::Error {
            ack,
            code: ErrorCode::from(refusal),
            message: refusal.to_string(),
            kind,
            v,
        }),
    }
}

/// The error a socket that lost its seat receives.
pub(super) fn revoked_text(v: u64) -> crate::game::outbound::Text {
    encode(&ServerMessage::Error {
        ack: None,
        code: ErrorCode::SeatRevoked,
        message: Refusal::SeatRevoked.to_string(),
        kind: None,
        v,
    })
}
