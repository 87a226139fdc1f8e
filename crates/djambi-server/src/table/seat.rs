//! A seat of a game, defined once: the store keeps it, the state plays it, and every view of a
//! seat (snapshots, presence, lists) is derived from it.

use djambi_core::Player;
use djambi_engine::Level;
use uuid::Uuid;

use crate::token::TokenHash;

/// A seat of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// Its player.
    pub player: Player,
    /// Its display name.
    pub name: Option<String>,
    /// The hash of its token.
    pub token_hash: TokenHash,
    /// Whether someone claimed it (a bot's seat is claimed).
    pub claimed: bool,
    /// The bot that plays it now, if any (from the start, or since a timeout or a vote).
    pub bot: Option<Level>,
    /// The bot that played it when the game began (as stored); events change
    /// [`bot`](Seat::bot) during play.
    pub start_bot: Option<Level>,
    /// The member of the game's circle who took the seat (a circle game's seat taken from the
    /// circle's page, or kept for them in its rematch), if one did: the game's places are
    /// theirs (docs/CIRCLES.md).
    pub member: Option<Uuid>,
}

impl Seat {
    /// A seat as stored: `bot` plays it from the start.
    pub fn stored(
        player: Player,
        name: Option<String>,
        token_hash: TokenHash,
        claimed: bool,
        bot: Option<Level>,
    ) -> Seat {
        Seat {
            player,
            name,
            token_hash,
            claimed,
            bot,
            start_bot: bot,
            member: None,
        }
    }

    /// The same, taken by a circle's member.
    pub fn with_member(mut self, member: Option<Uuid>) -> Seat {
        self.member = member;
        self
    }

    /// The name shown for the seat: its display name, else the army's.
    pub fn display_name(&self) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| self.player.name().to_string())
    }
}

/// Who a connection is at a game's table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Role {
    /// It plays this seat.
    Player(Player),
    /// It watches.
    Spectator,
}

impl Role {
    /// The seat, for a player.
    pub fn seat(self) -> Option<Player> {
        match self {
            Role::Player(p) => Some(p),
            Role::Spectator => None,
        }
    }
}
