//! The weights of the evaluation's terms, each with why. Units: a Militant is 100.

/// A living player's own worth beyond its pieces: being in the game at all. It vanishes when
/// the player is eliminated, so every elimination shrinks the total that shares are taken of.
/// About one army's material: a player with a chief and nothing else can still win (it can take
/// the maze, kill a chief and take an army), so it is far from worthless.
pub const ALIVE: i32 = 1500;

/// Holding the maze: the ruler plays after every other player's turn (R8.3), three turns a
/// round of four, and takes every orphaned army (R9.4). Worth about an Assassin and a Militant,
/// not more: the chief in power is a target for every Assassin, Reporter, Diplomat and Chief.
pub const RULER: i32 = 550;

/// Per enemy piece that can kill a player's chief in one move (any of: Chief or Assassin on a
/// clear line, Militant within two clear squares, Reporter able to reach a square beside it).
/// The search sees the kill itself when it is within its horizon; this term makes positions
/// just beyond it look as dangerous as they are.
pub const CHIEF_ATTACKER: i32 = 220;

/// Per corpse next to a chief off the maze, when its player has a living Necromobile (which can
/// clear corpses away, so the danger is mild).
pub const CORPSE_NEIGHBOUR: i32 = 15;

/// Per corpse next to a chief off the maze, when its player has no living Necromobile: the
/// chief dies when every neighbour holds a corpse (R9.3).
pub const CORPSE_NEIGHBOUR_NO_NECRO: i32 = 60;

/// Extra when a chief without Necromobile lacks only one corpse to be encircled.
pub const ONE_CORPSE_FROM_ENCIRCLED: i32 = 700;

/// Per open square next to a player's chief that no piece of its own stands on: a little
/// freedom to flee. Small: freedom is not safety.
pub const CHIEF_ROOM: i32 = 5;

/// The lowest strength a living player is counted with, so that shares stay positive.
pub const MIN_STRENGTH: i32 = 300;

/// Every weight of the evaluation in one value: a player's strength is linear in its
/// [`Terms`](super::Terms) under them, so they can be fitted on games (the lab's `eval_fit`).
/// Units: a Militant is 100.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A living piece of each role, indexed by `Role as usize` (a chief's is not used: a
    /// living chief is worth [`Weights::alive`]).
    pub role: [i32; 6],
    /// [`ALIVE`].
    pub alive: i32,
    /// [`RULER`].
    pub ruler: i32,
    /// [`CHIEF_ATTACKER`].
    pub chief_attacker: i32,
    /// [`CORPSE_NEIGHBOUR`].
    pub corpse_neighbour: i32,
    /// [`CORPSE_NEIGHBOUR_NO_NECRO`].
    pub corpse_neighbour_no_necro: i32,
    /// [`ONE_CORPSE_FROM_ENCIRCLED`].
    pub one_corpse_from_encircled: i32,
    /// [`CHIEF_ROOM`].
    pub chief_room: i32,
}

impl Weights {
    /// The crate's weights: the constants above and [`ROLE_VALUE`](super::material::ROLE_VALUE).
    pub const DEFAULT: Weights = Weights {
        role: super::material::ROLE_VALUE,
        alive: ALIVE,
        ruler: RULER,
        chief_attacker: CHIEF_ATTACKER,
        corpse_neighbour: CORPSE_NEIGHBOUR,
        corpse_neighbour_no_necro: CORPSE_NEIGHBOUR_NO_NECRO,
        one_corpse_from_encircled: ONE_CORPSE_FROM_ENCIRCLED,
        chief_room: CHIEF_ROOM,
    };
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}
