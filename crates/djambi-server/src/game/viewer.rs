//! A connection as its game knows it: its id, its role at the table, the name it chats under,
//! the token it joined with, and whether it opened the spectators' room.

use serde::{Deserialize, Serialize};

use crate::net::IpKey;
use crate::table::{ChatSight, Role};
use crate::token::TokenHash;

/// A connection at a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Viewer {
    /// The connection's id (unique over every node: see [`node_of`]).
    pub conn: u64,
    /// Its role.
    pub role: Role,
    /// The name it chats under.
    pub name: String,
    /// For a player, the hash of the token it joined with: it plays the seat only while that
    /// is still the seat's token.
    pub token: Option<TokenHash>,
    /// A player who opened the spectators' room on this connection: spectators' messages reach
    /// it (closed by default; a spectator is always in the room).
    #[serde(default)]
    pub spectator_room: bool,
    /// The address the connection comes from (set by the socket): what it asks that costs
    /// the server (a rematch is a game creation) is charged to it.
    #[serde(default)]
    pub address: Option<IpKey>,
}

impl Viewer {
    /// What of the table talk this connection may read.
    pub fn sight(&self) -> ChatSight {
        ChatSight {
            seat: self.role.seat(),
            spectator_room: self.spectator_room || self.role == Role::Spectator,
        }
    }
}

/// The tag of the node a connection id belongs to (ids are `tag << 32 | n`; 0 for a server
/// alone).
pub fn node_of(conn: u64) -> u32 {
    (conn >> 32) as u32
}
