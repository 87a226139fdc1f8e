//! The versioned events of a game and the state fields they carry (PROTOCOL §3.3, §3.5),
//! written compactly: players as letters, pieces as codes, fields left out when none.

use djambi_core::{Army, Controller, Player, ResultRecord};
use serde::{Serialize, Serializer};

use super::effect::EffectsView;
use super::lifecycle::{BotLevel, BotReason, ClockView, VoteAction};
use super::server::CancelReason;

/// Who controls each army, written as four letters in army order (red, blue, yellow, green):
/// a player's letter, `-` (orphaned) or `h` (the hostage). `"rbyg"`: each army its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ControlView {
    /// Red's army.
    pub r: Controller,
    /// Blue's army.
    pub b: Controller,
    /// Yellow's army.
    pub y: Controller,
    /// Green's army.
    pub g: Controller,
}

impl ControlView {
    /// The control of the four armies through `f`.
    pub fn from_fn(f: impl Fn(Army) -> Controller) -> ControlView {
        ControlView {
            r: f(Army::Red),
            b: f(Army::Blue),
            y: f(Army::Yellow),
            g: f(Army::Green),
        }
    }
}

impl Serialize for ControlView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let letters = [self.r, self.b, self.y, self.g].map(|c| c.char() as u8);
        s.serialize_str(std::str::from_utf8(&letters).expect("ASCII letters"))
    }
}

fn is_zero(n: &u8) -> bool {
    *n == 0
}

/// Players written as one string of their letters (`"byg"`).
fn letters<S: Serializer>(players: &[Player], s: S) -> Result<S::Ok, S::Error> {
    let text: String = players.iter().map(|p| p.char()).collect();
    s.serialize_str(&text)
}

/// A ranking written as one string of letters per rank (`["r", "by", "g"]`).
fn ranks<S: Serializer>(ranking: &[Vec<Player>], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(
        ranking
            .iter()
            .map(|rank| rank.iter().map(|p| p.char()).collect::<String>()),
    )
}

/// The state of the game after an event: everything a client needs to show it without a rules
/// engine, except the legal turns, which only the player to move receives (a `legal` message).
/// Flattened into snapshots and into the events that change the position. Fields that are
/// usually empty are left out when they are: `ruler`, `result` and `clock`.
#[derive(Clone, Debug, Serialize)]
pub struct StateView {
    /// The position (NOTATION §2), for the board and for a client to check itself.
    pub dpn: String,
    /// The player to move, none when the game is over.
    pub to_move: Option<Player>,
    /// The ruler's bonus turns still owed, counting the current one (left out: none).
    #[serde(skip_serializing_if = "is_zero")]
    pub bonus: u8,
    /// The coming turn order, starting with `to_move`, as letters (`"bygrbygr"`).
    #[serde(serialize_with = "letters")]
    pub order: Vec<Player>,
    /// The ruler (chief in the maze), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ruler: Option<Player>,
    /// Who controls each army.
    pub control: ControlView,
    /// The players out of the game, in base order, as letters (left out: nobody).
    #[serde(serialize_with = "letters", skip_serializing_if = "Vec::is_empty")]
    pub eliminated: Vec<Player>,
    /// The ranking so far (R9.7), best first, each rank as letters.
    #[serde(serialize_with = "ranks")]
    pub ranking: Vec<Vec<Player>>,
    /// The result once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<ResultRecord>,
    /// The clock of a timed game (left out: no clock).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
}

/// One versioned event, tagged by `kind`.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EventView {
    /// A turn (a pass included).
    Turn {
        /// The turn number.
        number: u32,
        /// Who played it.
        player: Player,
        /// The canonical turn text.
        turn: String,
        /// What the turn changed, in order (the core's effects, pieces as codes).
        effects: EffectsView,
        /// The state after it.
        #[serde(flatten)]
        state: StateView,
    },
    /// A player resigned.
    Resign {
        /// Who resigned.
        player: Player,
        /// What the resignation changed.
        effects: EffectsView,
        /// The state after it.
        #[serde(flatten)]
        state: StateView,
    },
    /// A player offered a draw.
    DrawOffered {
        /// Who offered it.
        by: Player,
    },
    /// A player agreed to the pending offer; others still have to.
    DrawAccepted {
        /// Who agreed.
        by: Player,
    },
    /// A player declined (or withdrew) the pending offer, which is gone.
    DrawDeclined {
        /// Who declined.
        by: Player,
    },
    /// Every living player agreed: the game is drawn.
    DrawAgreed {
        /// The state after it.
        #[serde(flatten)]
        state: StateView,
    },
    /// The game was called off before it ended: nobody plays it any more.
    Cancelled {
        /// Why.
        reason: CancelReason,
    },
    /// Every seat is taken: the game starts (and its clock with it).
    Started {
        /// The state (the clock running).
        #[serde(flatten)]
        state: StateView,
    },
    /// A bot plays the seat from now on.
    SeatToBot {
        /// The seat.
        player: Player,
        /// The bot's level.
        level: BotLevel,
        /// Why.
        reason: BotReason,
        /// The state (a bot's clock does not run).
        #[serde(flatten)]
        state: StateView,
    },
    /// The seat's player took it back from the bot.
    SeatToHuman {
        /// The seat.
        player: Player,
        /// The state.
        #[serde(flatten)]
        state: StateView,
    },
    /// A vote on an absent player opened (its author votes yes).
    VoteOpened {
        /// Who opened it.
        by: Player,
        /// The absent player.
        target: Player,
        /// `bot` (hand the seat to a bot) or `resign`.
        action: VoteAction,
        /// The bot's level, for `bot`.
        level: Option<BotLevel>,
        /// Who may vote.
        voters: Vec<Player>,
    },
    /// A vote was cast.
    VoteCast {
        /// Who voted.
        by: Player,
        /// Yes or no.
        yes: bool,
    },
    /// The vote closed; when it passed, its action is the next event.
    VoteClosed {
        /// Whether a majority said yes.
        passed: bool,
    },
    /// A player asks to take back their last turn.
    TakebackRequested {
        /// Who asks.
        by: Player,
    },
    /// A player answered the takeback request (a no drops it).
    TakebackAnswered {
        /// Who answered.
        by: Player,
        /// Agreed or not.
        yes: bool,
    },
    /// The requester's last turn (and the passes it forced) is taken back.
    TakenBack {
        /// Whose turn.
        player: Player,
        /// The versions of the turns taken back (they leave the turn list).
        undone: Vec<u64>,
        /// The state after it.
        #[serde(flatten)]
        state: StateView,
    },
    /// The player's clock or deadline ran out; what the game does about it is the next event.
    Timeout {
        /// Whose.
        player: Player,
    },
    /// The server was down: that time is charged to nobody.
    Paused {
        /// When the server was last seen (ms).
        from: i64,
        /// When it came back (ms).
        until: i64,
        /// The state (the clock as it is now).
        #[serde(flatten)]
        state: StateView,
    },
}
