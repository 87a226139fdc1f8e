//! The effects of a turn or a resignation, as data: what changed on the board, in power, in
//! control and among the players, in the order it happened. The server sends them to browsers to
//! animate and narrate each turn.

use crate::piece::{ArmySet, Piece, Player};
use crate::position::Outcome;
use crate::square::Square;

/// One thing that happened during a turn (or a resignation). Serialized with a `type` tag in
/// snake case, e.g. `{"type":"moved","piece":{"army":"r","role":"Militant"},"from":"b7","to":"b5"}`.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Effect {
    /// The acting piece moved (to the maze, for a turn that acts in the maze).
    Moved {
        /// The moving piece.
        piece: Piece,
        /// Its start square.
        from: Square,
        /// Its destination.
        to: Square,
    },
    /// A living piece was killed where it stood and became a corpse (R6.3).
    Killed {
        /// The victim, as it was.
        piece: Piece,
        /// The square it was killed on.
        at: Square,
        /// The killing piece.
        by: Piece,
    },
    /// A corpse was carried from one square to another: buried by a Chief or a Militant, put on
    /// the Assassin's start square, or moved by a Necromobile.
    CorpseMoved {
        /// Where the corpse lay.
        from: Square,
        /// Where it now lies.
        to: Square,
    },
    /// A living piece was displaced by a Diplomat (R5.1).
    Displaced {
        /// The displaced piece.
        piece: Piece,
        /// Where it stood.
        from: Square,
        /// Where it was set down.
        to: Square,
    },
    /// The acting piece left the maze (R7.4 step 2).
    ExitedMaze {
        /// The piece.
        piece: Piece,
        /// Where it went.
        to: Square,
    },
    /// A player's chief came to the maze: the player is now the ruler (R7.1).
    TookPower {
        /// The new ruler.
        player: Player,
    },
    /// The ruler's chief left the maze or died: it no longer rules.
    LostPower {
        /// The former ruler.
        player: Player,
    },
    /// A player took control of armies (R9.1, R9.4, R11.3).
    TookControl {
        /// The player now controlling them.
        player: Player,
        /// The armies taken.
        armies: ArmySet,
        /// Whom they were taken from: `None` for orphaned armies or the hostage.
        from: Option<Player>,
    },
    /// Armies were left without a controller (R9.4).
    Orphaned {
        /// The orphaned armies.
        armies: ArmySet,
        /// The player who controlled them.
        from: Player,
    },
    /// A chief surrounded by corpses died (R9.3).
    Encircled {
        /// Its player.
        player: Player,
        /// The chief's square, where its corpse now lies.
        at: Square,
    },
    /// A player resigned (R9.6); its chief is a corpse on its square.
    Resigned {
        /// The player.
        player: Player,
        /// The chief's square.
        at: Square,
    },
    /// A player is out of the game (R9.1, R9.3, R9.6).
    Eliminated {
        /// The player.
        player: Player,
    },
    /// The player had no legal turn and passed (R8.6).
    Passed {
        /// The player.
        player: Player,
    },
    /// The game ended (R12).
    GameOver {
        /// How it ended.
        outcome: Outcome,
    },
}

/// Where the effects of a turn go: nowhere (fast play) or into a list.
pub(crate) trait EffectSink {
    fn push(&mut self, effect: Effect);
}

impl EffectSink for () {
    #[inline(always)]
    fn push(&mut self, _: Effect) {}
}

impl EffectSink for Vec<Effect> {
    fn push(&mut self, effect: Effect) {
        Vec::push(self, effect);
    }
}
