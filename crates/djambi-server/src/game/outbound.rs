//! What a game sends its connections: each message serialised once ([`Text`]), with its place
//! among the game's versions ([`Seq`]), who may receive it ([`Audience`]) and whether it closes
//! its recipients' sockets ([`CloseReason`]). The same values cross between nodes (serde), so a
//! socket on another node gets exactly what a local one gets.

use bytes::Bytes;
use djambi_core::{ArmySet, Player};
use serde::{Deserialize, Serialize};

use super::viewer::{Viewer, node_of};
use crate::table::Role;

/// A message's JSON text, serialised once and shared by every recipient (cloning it is cheap).
#[derive(Clone, PartialEq, Eq)]
pub struct Text(Bytes);

impl Text {
    /// The JSON text of a protocol message.
    pub fn json(value: &impl Serialize) -> Text {
        Text::from(serde_json::to_string(value).expect("protocol messages serialise"))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Built only from `String`s: always UTF-8.
        std::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// Its bytes (UTF-8).
    pub fn bytes(&self) -> Bytes {
        self.0.clone()
    }

    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Bytes::from(s))
    }
}

impl From<&'static str> for Text {
    fn from(s: &'static str) -> Text {
        Text(Bytes::from_static(s.as_bytes()))
    }
}

impl std::fmt::Debug for Text {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl Serialize for Text {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        String::deserialize(d).map(Text::from)
    }
}

/// Where a message stands in the game's version sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seq {
    /// Not versioned (chat, presence, acks, …).
    None,
    /// The event with this version.
    Event(u64),
    /// A snapshot at this version.
    Snapshot(u64),
}

/// Who may receive a broadcast message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Audience {
    /// Every connection.
    All,
    /// Only connections playing one of these seats (a whisper's two players).
    Players(#[serde(with = "players")] ArmySet),
    /// Only connections playing this seat.
    Seat(Player),
    /// The spectators' room: spectators, and the players who opened it.
    Spectators,
    /// Only this connection.
    Conn(u64),
    /// Only the connections of the node with this tag (several nodes: connection ids are
    /// `tag << 32 | n`).
    Node(u32),
}

impl Audience {
    /// Whether the connection `viewer` receives it.
    pub fn admits(self, viewer: &Viewer) -> bool {
        match self {
            Audience::All => true,
            Audience::Players(set) => viewer.role.seat().is_some_and(|p| set.contains(p)),
            Audience::Seat(p) => viewer.role == Role::Player(p),
            Audience::Spectators => viewer.sight().spectator_room,
            Audience::Conn(conn) => viewer.conn == conn,
            Audience::Node(tag) => node_of(viewer.conn) == tag,
        }
    }
}

/// A set of players as their list (serde).
mod players {
    use djambi_core::{ArmySet, Player};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(set: &ArmySet, s: S) -> Result<S::Ok, S::Error> {
        // A list of known length (compact encodings need it).
        s.collect_seq(set.iter().collect::<Vec<Player>>())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ArmySet, D::Error> {
        let players = Vec::<Player>::deserialize(d)?;
        Ok(players.into_iter().fold(ArmySet::EMPTY, ArmySet::with))
    }
}

/// Why a game closes its recipients' sockets after a message (the socket layer gives each its
/// close code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum CloseReason {
    /// The server (or the game's node) restarts: reconnect and resume.
    Restarting,
    /// The seat's token was replaced: the socket lost the seat.
    SeatTokenReplaced,
    /// The seat was opened in another window, which took this socket's place.
    SeatOpenedElsewhere,
}

impl CloseReason {
    /// The reason as the close frame says it.
    pub fn as_str(self) -> &'static str {
        match self {
            CloseReason::Restarting => "server restarting",
            CloseReason::SeatTokenReplaced => "seat token replaced",
            CloseReason::SeatOpenedElsewhere => "seat opened elsewhere",
        }
    }
}

/// One message of a game, serialised once: every recipient gets the same bytes.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Outbound {
    /// Its place among the versions.
    pub seq: Seq,
    /// Who may see it.
    pub audience: Audience,
    /// The JSON text.
    pub text: Text,
    /// Whether its recipients' connections close after it.
    pub close: Option<CloseReason>,
}

impl Outbound {
    /// A message for `audience` that closes nothing.
    pub fn new(seq: Seq, audience: Audience, text: Text) -> Outbound {
        Outbound {
            seq,
            audience,
            text,
            close: None,
        }
    }

    /// The `restarting` message for `audience`, closing its recipients' sockets (they
    /// reconnect and resume).
    pub fn restarting(audience: Audience) -> Outbound {
        let message = crate::protocol::ServerMessage::Restarting {
            message: "the server is restarting; reconnect in a moment".into(),
        };
        Outbound {
            close: Some(CloseReason::Restarting),
            ..Outbound::new(Seq::None, audience, Text::json(&message))
        }
    }
}
