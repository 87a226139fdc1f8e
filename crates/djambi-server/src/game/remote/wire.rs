//! What nodes say to each other about a game, encoded with postcard (compact, and an event's
//! JSON text crosses as it is): a [`Call`] to the game's owner and its [`Answer`], and each
//! [`Outbound`] message the owner publishes for the sockets on other nodes. Protocol objects
//! that only have a JSON form (a claim, a snapshot, a record) travel as their JSON text.

use std::borrow::Cow;

use axum::extract::ws::Utf8Bytes;
use bytes::Bytes;
use djambi_core::{ArmySet, Player};
use serde::{Deserialize, Serialize};

use crate::game::{
    Action, AdminAnswer, AdminWhat, Audience, CLOSE_REASONS, JoinError, JoinRequest, Outbound,
    Role, Seq, Viewer,
};
use crate::token::{SeatToken, TokenHash};

/// A request to a game's owner.
#[derive(Debug, Serialize, Deserialize)]
pub enum Call {
    /// A socket on another node joins (with a seat token, or as a spectator).
    Join(JoinRequest),
    /// A socket on another node left.
    Leave {
        /// Its connection's id.
        conn: u64,
    },
    /// A command of a socket on another node.
    Act {
        /// Who sends it (as the owner told at the join).
        viewer: WireViewer,
        /// Its ack id.
        ack: u64,
        /// What to do.
        action: Action,
    },
    /// A socket asks for what it missed.
    Sync {
        /// Who asks.
        viewer: WireViewer,
        /// The last version it saw (none: a snapshot).
        since: Option<u64>,
    },
    /// An HTTP claim of a seat (the request's JSON).
    Claim {
        /// `ClaimSeat` as JSON.
        request: String,
    },
    /// The public snapshot, as JSON.
    Snapshot,
    /// The game record, as JSON.
    Record,
    /// The creator's action.
    Admin {
        /// The admin token presented.
        token: String,
        /// What to do.
        what: WireAdmin,
    },
}

/// The owner's answer.
#[derive(Debug, Serialize, Deserialize)]
pub enum Answer {
    /// The game's actor is gone from this node (it stopped, or is being handed over): ask
    /// again, the registry will find its owner.
    Gone,
    /// Joined: who the socket is, and what to send it first.
    Joined {
        /// The socket as the game knows it.
        viewer: WireViewer,
        /// A snapshot, or `resume` and the missed events.
        initial: Vec<WireOutbound<'static>>,
    },
    /// The join was refused.
    JoinRefused(JoinError),
    /// A command's answer (after its commit).
    Reply {
        /// The version it refers to.
        v: u64,
        /// Whether it was committed.
        accepted: bool,
        /// The serialised `ack` or `error`.
        text: String,
    },
    /// Messages to send (a sync's answer).
    Messages(Vec<WireOutbound<'static>>),
    /// A JSON answer (a claimed seat, a snapshot, a record).
    Json(String),
    /// What a creator's action gave.
    Admin(WireAdminAnswer),
    /// An HTTP error: its code and message.
    Failed {
        /// [`AppError::code`](crate::error::AppError::code).
        code: String,
        /// For people.
        message: String,
    },
    /// Done (nothing to say).
    Done,
}

/// A [`Viewer`] between nodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WireViewer {
    conn: u64,
    player: Option<Player>,
    name: String,
    token: Option<String>,
    #[serde(default)]
    spectator_room: bool,
}

impl From<&Viewer> for WireViewer {
    fn from(v: &Viewer) -> WireViewer {
        WireViewer {
            conn: v.conn,
            player: v.role.seat(),
            name: v.name.clone(),
            token: v.token.map(|t| t.to_hex()),
            spectator_room: v.spectator_room,
        }
    }
}

impl WireViewer {
    /// The viewer; `None` if its token hash does not read.
    pub fn into_viewer(self) -> Option<Viewer> {
        let token = match self.token {
            Some(hex) => Some(TokenHash::from_hex(&hex)?),
            None => None,
        };
        Some(Viewer {
            conn: self.conn,
            role: self.player.map_or(Role::Spectator, Role::Player),
            name: self.name,
            token,
            spectator_room: self.spectator_room,
        })
    }
}

/// An [`Outbound`] between nodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct WireOutbound<'a> {
    seq: Seq,
    audience: WireAudience,
    text: Cow<'a, str>,
    /// The close code and the reason's place in [`CLOSE_REASONS`].
    close: Option<(u16, u8)>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
enum WireAudience {
    All,
    Players(Vec<Player>),
    Seat(Player),
    Spectators,
    Conn(u64),
    Node(u32),
}

impl<'a> WireOutbound<'a> {
    /// The wire form of `o`, borrowing its text.
    pub fn of(o: &'a Outbound) -> WireOutbound<'a> {
        WireOutbound {
            seq: o.seq,
            audience: match o.audience {
                Audience::All => WireAudience::All,
                Audience::Players(set) => WireAudience::Players(set.iter().collect()),
                Audience::Seat(p) => WireAudience::Seat(p),
                Audience::Spectators => WireAudience::Spectators,
                Audience::Conn(c) => WireAudience::Conn(c),
                Audience::Node(t) => WireAudience::Node(t),
            },
            text: Cow::Borrowed(o.text.as_str()),
            close: o.close.map(|(code, reason)| {
                let at = CLOSE_REASONS.iter().position(|r| *r == reason);
                (code, at.map_or(u8::MAX, |i| i as u8))
            }),
        }
    }

    /// An owned copy (for an answer).
    pub fn owned(o: &Outbound) -> WireOutbound<'static> {
        let w = WireOutbound::of(o);
        WireOutbound {
            text: Cow::Owned(w.text.into_owned()),
            seq: w.seq,
            audience: w.audience,
            close: w.close,
        }
    }

    /// The message for this node's sockets.
    pub fn into_outbound(self) -> Outbound {
        Outbound {
            seq: self.seq,
            audience: match self.audience {
                WireAudience::All => Audience::All,
                WireAudience::Players(players) => Audience::Players(
                    players
                        .into_iter()
                        .fold(ArmySet::EMPTY, |set, p| set.with(p)),
                ),
                WireAudience::Seat(p) => Audience::Seat(p),
                WireAudience::Spectators => Audience::Spectators,
                WireAudience::Conn(c) => Audience::Conn(c),
                WireAudience::Node(t) => Audience::Node(t),
            },
            text: Utf8Bytes::from(self.text.into_owned()),
            close: self.close.map(|(code, at)| {
                let reason = CLOSE_REASONS.get(usize::from(at)).copied();
                (code, reason.unwrap_or(CLOSE_REASONS[0]))
            }),
        }
    }
}

/// The creator's action between nodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum WireAdmin {
    /// Cancel the game.
    Cancel,
    /// A new invite for a seat.
    Reinvite(Player),
    /// A bot of this level (its name) plays the seat.
    Bot(Player, String),
}

impl From<AdminWhat> for WireAdmin {
    fn from(what: AdminWhat) -> WireAdmin {
        match what {
            AdminWhat::Cancel => WireAdmin::Cancel,
            AdminWhat::Reinvite(p) => WireAdmin::Reinvite(p),
            AdminWhat::Bot(p, level) => WireAdmin::Bot(p, level.name().to_string()),
        }
    }
}

impl WireAdmin {
    /// The action; `None` for a level this node does not know.
    pub fn into_what(self) -> Option<AdminWhat> {
        Some(match self {
            WireAdmin::Cancel => AdminWhat::Cancel,
            WireAdmin::Reinvite(p) => AdminWhat::Reinvite(p),
            WireAdmin::Bot(p, level) => AdminWhat::Bot(p, level.parse().ok()?),
        })
    }
}

/// What a creator's action gave, between nodes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum WireAdminAnswer {
    /// Cancelled.
    Cancelled,
    /// The seat's new token.
    Invite(Player, String),
    /// A bot plays the seat.
    Bot,
}

impl From<AdminAnswer> for WireAdminAnswer {
    fn from(answer: AdminAnswer) -> WireAdminAnswer {
        match answer {
            AdminAnswer::Cancelled => WireAdminAnswer::Cancelled,
            AdminAnswer::Invite(p, token) => WireAdminAnswer::Invite(p, token.as_str().into()),
            AdminAnswer::Bot => WireAdminAnswer::Bot,
        }
    }
}

impl From<WireAdminAnswer> for AdminAnswer {
    fn from(answer: WireAdminAnswer) -> AdminAnswer {
        match answer {
            WireAdminAnswer::Cancelled => AdminAnswer::Cancelled,
            WireAdminAnswer::Invite(p, token) => {
                AdminAnswer::Invite(p, SeatToken::from_client(token))
            }
            WireAdminAnswer::Bot => AdminAnswer::Bot,
        }
    }
}

/// Encodes a message for another node.
pub fn encode<T: Serialize>(message: &T) -> Bytes {
    Bytes::from(postcard::to_allocvec(message).expect("node messages serialise"))
}

/// Decodes a message from another node.
pub fn decode<'a, T: Deserialize<'a>>(bytes: &'a [u8]) -> Option<T> {
    postcard::from_bytes(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::lifecycle::VoteAction;

    fn round_trip(o: &Outbound) -> Outbound {
        let bytes = encode(&WireOutbound::of(o));
        decode::<WireOutbound>(&bytes).unwrap().into_outbound()
    }

    #[test]
    fn outbound_messages_cross_unchanged() {
        let players = ArmySet::EMPTY.with(Player::Red).with(Player::Green);
        for (seq, audience, close) in [
            (Seq::Event(7), Audience::All, None),
            (Seq::Snapshot(3), Audience::Players(players), None),
            (Seq::None, Audience::Seat(Player::Blue), None),
            (Seq::None, Audience::Spectators, None),
            (
                Seq::None,
                Audience::Conn(5 << 32 | 9),
                Some((1008, "seat opened elsewhere")),
            ),
            (
                Seq::None,
                Audience::Node(5),
                Some((1012, "server restarting")),
            ),
        ] {
            let o = Outbound {
                seq,
                audience,
                text: Utf8Bytes::from_static(r#"{"type":"event","text":"é \"q\""}"#),
                close,
            };
            let back = round_trip(&o);
            assert_eq!(back.seq, o.seq);
            assert_eq!(back.audience, o.audience);
            assert_eq!(back.text, o.text);
            assert_eq!(back.close, o.close);
        }
    }

    #[test]
    fn calls_and_answers_cross_unchanged() {
        let viewer = Viewer {
            conn: 3 << 32 | 1,
            role: Role::Player(Player::Yellow),
            name: "Ann".into(),
            token: Some(TokenHash::of("secret")),
            spectator_room: true,
        };
        let call = Call::Act {
            viewer: WireViewer::from(&viewer),
            ack: 12,
            action: Action::Vote(Player::Red, VoteAction::Bot(djambi_engine::Level::Easy)),
        };
        let Some(Call::Act {
            viewer: back,
            ack,
            action,
        }) = decode::<Call>(&encode(&call))
        else {
            panic!("not an act");
        };
        assert_eq!(back.into_viewer(), Some(viewer));
        assert_eq!(ack, 12);
        assert_eq!(
            action,
            Action::Vote(Player::Red, VoteAction::Bot(djambi_engine::Level::Easy))
        );
        let answer = Answer::JoinRefused(JoinError::BadName("x".into()));
        assert!(matches!(
            decode::<Answer>(&encode(&answer)),
            Some(Answer::JoinRefused(JoinError::BadName(n))) if n == "x"
        ));
    }

    #[test]
    fn garbage_is_refused_not_a_panic() {
        assert!(decode::<Call>(&[0xff, 0xff, 0xff]).is_none());
        assert!(decode::<WireOutbound>(&[]).is_none());
    }
}
