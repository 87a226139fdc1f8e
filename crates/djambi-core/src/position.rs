//! Positions: an unvalidated [`Setup`] and the validated [`Position`] built from it.

use std::fmt;

use crate::board::Board;
use crate::piece::{Army, ArmySet, Controller, Player, Role};
use crate::rules::{MAX_NUMBER, Rules};
use crate::square::Square;

/// Everything a position holds, unvalidated, with public fields: the eight DPN fields
/// (NOTATION §2). Turn it into a [`Position`] with [`Position::from_setup`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// What each square holds.
    pub board: Board,
    /// The player to move; `None` when the game is over.
    pub to_move: Option<Player>,
    /// Who controls each army, indexed by [`Army::index`].
    pub control: [Controller; 4],
    /// The player who played the last regular turn (R8.5); `None` before the first turn.
    pub last_regular: Option<Player>,
    /// The bonus turns the ruler still has to play, counting the current one (0–2).
    pub bonus: u8,
    /// The living players who have passed since the last turn that was not a pass (R12.3).
    pub passed: ArmySet,
    /// Consecutive turns without a kill or an elimination (R12.4).
    pub quiet: u32,
    /// The number of the turn to be played next, from 1.
    pub turn: u32,
}

impl Setup {
    /// The 4-player start position (R2.2, R2.3).
    pub fn start() -> Setup {
        Setup {
            board: Board::start(),
            to_move: Some(Army::Red),
            control: Army::ALL.map(Controller::Player),
            last_regular: None,
            bonus: 0,
            passed: ArmySet::EMPTY,
            quiet: 0,
            turn: 1,
        }
    }

    /// The 3-player start position with `hostage` as the hostage army (R11.1).
    pub fn start_hostage(hostage: Army) -> Setup {
        let mut setup = Setup::start();
        setup.control[hostage.index()] = Controller::Hostage;
        if hostage == Army::Red {
            setup.to_move = Some(Army::Blue);
        }
        setup
    }

    /// Whether `p` is a living player: its chief is on the board and its army is not the hostage.
    pub fn is_alive(&self, p: Player) -> bool {
        self.control[p.index()] != Controller::Hostage && self.board.chief(p).is_some()
    }
}

/// The DPN field (NOTATION §2) a [`SetupError`] is about.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Field {
    /// The whole line (wrong number of fields).
    Position,
    /// Field 1, the board.
    Board,
    /// Field 2, the player to move.
    ToMove,
    /// Field 3, the control of the armies.
    Control,
    /// Field 4, the player of the last regular turn.
    LastRegular,
    /// Field 5, the bonus turns owed.
    Bonus,
    /// Field 6, the players who passed.
    Passed,
    /// Field 7, the count of quiet turns.
    Quiet,
    /// Field 8, the turn number.
    Turn,
}

impl Field {
    /// The field's name as it starts error messages (`to-move`).
    pub const fn name(self) -> &'static str {
        match self {
            Field::Position => "position",
            Field::Board => "board",
            Field::ToMove => "to-move",
            Field::Control => "control",
            Field::LastRegular => "last-regular",
            Field::Bonus => "bonus",
            Field::Passed => "passed",
            Field::Quiet => "quiet",
            Field::Turn => "turn",
        }
    }
}

/// A position string or setup is not a valid position; the message starts with the field's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupError {
    /// The field that is wrong.
    pub field: Field,
    /// What is wrong with it.
    pub reason: String,
}

impl SetupError {
    pub(crate) fn new(field: Field, reason: impl Into<String>) -> SetupError {
        SetupError {
            field,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field.name(), self.reason)
    }
}

impl std::error::Error for SetupError {}

/// How a game stands (R12).
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The game goes on.
    Ongoing,
    /// Exactly one player is alive (R12.1).
    Winner(Player),
    /// The game is drawn between these living players (R12.2–R12.4).
    Draw(ArmySet),
}

impl fmt::Display for Outcome {
    /// `ongoing`, `winner P` or `draw PQ…` (NOTATION §5 `status`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Ongoing => f.write_str("ongoing"),
            Outcome::Winner(p) => write!(f, "winner {p}"),
            Outcome::Draw(players) => write!(f, "draw {players}"),
        }
    }
}

/// A valid Djambi position under a ruleset: the board, whose turn it is, who controls what,
/// and the counters of R8 and R12. Built only through [`Position::from_setup`] (or a parser
/// that calls it), so every `Position` satisfies NOTATION §2.
// DPN in and out (`Display`, `Debug`, `FromStr`, `from_dpn`, `to_dpn`) is implemented in
// notation.rs, which depends on this module and not the other way round.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) control: [Controller; 4],
    pub(crate) to_move: Option<Player>,
    pub(crate) last_regular: Option<Player>,
    pub(crate) bonus: u8,
    pub(crate) passed: ArmySet,
    pub(crate) quiet: u32,
    pub(crate) turn: u32,
    pub(crate) rules: Rules,
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The 4-player start position under the standard rules.
    pub fn new() -> Position {
        Position::start(Rules::default())
    }

    /// The 4-player start position under `rules`.
    pub fn start(rules: Rules) -> Position {
        Position::from_setup(Setup::start(), rules).expect("the start position is valid")
    }

    /// The 3-player start position with `hostage` as the hostage army (R11.1).
    pub fn start_hostage(hostage: Army, rules: Rules) -> Position {
        Position::from_setup(Setup::start_hostage(hostage), rules)
            .expect("the hostage start position is valid")
    }

    /// Checks `setup` against every rule of NOTATION §2 and builds the position.
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Position, SetupError> {
        validate(&setup)?;
        Ok(Position {
            board: setup.board,
            control: setup.control,
            to_move: setup.to_move,
            last_regular: setup.last_regular,
            bonus: setup.bonus,
            passed: setup.passed,
            quiet: setup.quiet,
            turn: setup.turn,
            rules,
        })
    }

    /// The position's fields as an unvalidated [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            to_move: self.to_move,
            control: self.control,
            last_regular: self.last_regular,
            bonus: self.bonus,
            passed: self.passed,
            quiet: self.quiet,
            turn: self.turn,
        }
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The ruleset in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The player to move, or `None` when the game is over.
    pub fn to_move(&self) -> Option<Player> {
        self.to_move
    }

    /// Who controls `army`.
    pub fn control(&self, army: Army) -> Controller {
        self.control[army.index()]
    }

    /// The armies `player` controls (its own and its vassals, R2.4).
    pub fn armies_of(&self, player: Player) -> ArmySet {
        Army::ALL
            .into_iter()
            .filter(|a| self.control[a.index()] == Controller::Player(player))
            .collect()
    }

    /// The player of the last regular turn (R8.5).
    pub fn last_regular(&self) -> Option<Player> {
        self.last_regular
    }

    /// The bonus turns the ruler still has to play, counting the current one.
    pub fn bonus(&self) -> u8 {
        self.bonus
    }

    /// The living players who passed since the last turn that was not a pass.
    pub fn passed(&self) -> ArmySet {
        self.passed
    }

    /// Consecutive turns without a kill or an elimination (R12.4).
    pub fn quiet(&self) -> u32 {
        self.quiet
    }

    /// The number of the turn to be played next.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The hostage army of a 3-player game, if any (R11).
    pub fn hostage(&self) -> Option<Army> {
        Army::ALL
            .into_iter()
            .find(|a| self.control[a.index()] == Controller::Hostage)
    }

    /// Whether `p` is a living player (R2.5).
    pub fn is_alive(&self, p: Player) -> bool {
        self.control[p.index()] != Controller::Hostage && self.board.chief(p).is_some()
    }

    /// The living players (R2.5).
    pub fn alive(&self) -> ArmySet {
        self.alive_in(&self.board.census())
    }

    /// The living players according to a census of this position's board.
    pub(crate) fn alive_in(&self, census: &crate::board::Census) -> ArmySet {
        Army::ALL
            .into_iter()
            .filter(|a| {
                census.chiefs[a.index()].is_some() && self.control[a.index()] != Controller::Hostage
            })
            .collect()
    }

    /// The ruler: the player whose living chief is on the maze (R7.1). A hostage chief on the
    /// maze makes nobody ruler (R11.4).
    pub fn ruler(&self) -> Option<Player> {
        let piece = self.board[Square::MAZE].piece()?;
        (piece.role == Role::Chief
            && self.control[piece.army.index()] == Controller::Player(piece.army))
        .then_some(piece.army)
    }

    /// Whether the game is over (nobody is to move).
    pub fn is_game_over(&self) -> bool {
        self.to_move.is_none()
    }

    /// The outcome: ongoing, a winner, or a draw between the living players.
    pub fn outcome(&self) -> Outcome {
        if self.to_move.is_some() {
            return Outcome::Ongoing;
        }
        let alive = self.alive();
        match alive.iter().next() {
            Some(p) if alive.len() == 1 => Outcome::Winner(p),
            _ => Outcome::Draw(alive),
        }
    }
}

/// The semantic checks of NOTATION §2 (the parser has already checked the syntax).
fn validate(s: &Setup) -> Result<(), SetupError> {
    use Field::*;
    let err = |f: Field, r: String| SetupError::new(f, r);
    // Board: at most one chief per army, only chiefs alive on the maze.
    let mut chiefs = [0u8; 4];
    for (_, p) in s.board.pieces() {
        if p.role == Role::Chief {
            chiefs[p.army.index()] += 1;
        }
    }
    if let Some(a) = Army::ALL.into_iter().find(|a| chiefs[a.index()] > 1) {
        return Err(err(Board, format!("more than one chief of army {a}")));
    }
    if let Some(p) = s.board[Square::MAZE].piece()
        && p.role != Role::Chief
    {
        return Err(err(
            Board,
            format!("e5: a living {} cannot stand on the maze", p.role.name()),
        ));
    }
    // Control.
    let hostages = s
        .control
        .iter()
        .filter(|c| **c == Controller::Hostage)
        .count();
    if hostages > 1 {
        return Err(err(Control, "more than one army is the hostage".into()));
    }
    for a in Army::ALL {
        let chief_alive = chiefs[a.index()] == 1;
        match s.control[a.index()] {
            Controller::Hostage if !chief_alive => {
                return Err(err(
                    Control,
                    format!("the hostage army {a} has no living chief"),
                ));
            }
            Controller::Player(p) if !s.is_alive(p) => {
                return Err(err(
                    Control,
                    format!("army {a} is controlled by {p}, who is not a living player"),
                ));
            }
            c if chief_alive && c != Controller::Hostage && c != Controller::Player(a) => {
                return Err(err(
                    Control,
                    format!("living player {a} does not control its own army"),
                ));
            }
            _ => {}
        }
    }
    let alive: ArmySet = Army::ALL.into_iter().filter(|p| s.is_alive(*p)).collect();
    if alive.is_empty() {
        return Err(err(Control, "no living player".into()));
    }
    // To move.
    let ruler = s.board[Square::MAZE]
        .piece()
        .filter(|p| {
            p.role == Role::Chief && s.control[p.army.index()] == Controller::Player(p.army)
        })
        .map(|p| p.army);
    if let Some(p) = s.to_move {
        if !alive.contains(p) {
            return Err(err(ToMove, format!("player {p} is not alive")));
        }
        if alive.len() == 1 {
            return Err(err(
                ToMove,
                "only one player is alive: the game is over (to-move must be -)".into(),
            ));
        }
    }
    // Last regular.
    if let Some(p) = s.last_regular
        && s.control[p.index()] == Controller::Hostage
    {
        return Err(err(
            LastRegular,
            format!("{p} is the hostage army, not a player"),
        ));
    }
    // Bonus.
    let to_move_rules = s.to_move.is_some() && s.to_move == ruler;
    if s.bonus > 2 {
        return Err(err(Bonus, "must be 0, 1 or 2".into()));
    }
    if s.bonus > 0 && !to_move_rules {
        return Err(err(Bonus, "bonus turns without the ruler to move".into()));
    }
    if s.bonus == 0 && to_move_rules {
        return Err(err(
            Bonus,
            "the ruler is to move with no bonus turn (a ruler only plays bonus turns)".into(),
        ));
    }
    if s.bonus == 2 && alive.len() != 2 {
        return Err(err(
            Bonus,
            "2 bonus turns need exactly 2 living players".into(),
        ));
    }
    // Passed.
    if let Some(p) = s.passed.iter().find(|p| !alive.contains(*p)) {
        return Err(err(Passed, format!("player {p} is not alive")));
    }
    // Counters: what DPN writes (at most 9 digits).
    if s.quiet > MAX_NUMBER {
        return Err(err(Quiet, format!("at most {MAX_NUMBER}")));
    }
    if s.turn == 0 || s.turn > MAX_NUMBER {
        return Err(err(
            Turn,
            format!("must be a number from 1 to {MAX_NUMBER}"),
        ));
    }
    Ok(())
}
