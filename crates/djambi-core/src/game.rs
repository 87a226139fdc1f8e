//! A game: a start position, the events played from it, and what follows from them (the
//! current position, the outcome and the ranking of R9.7).

use std::fmt;

use crate::effect::Effect;
use crate::illegal::IllegalTurn;
use crate::piece::{Army, ArmySet, Controller, Player};
use crate::play::StateError;
use crate::position::{Outcome, Position};
use crate::rules::Rules;
use crate::turn::Turn;

/// One event of a game (NOTATION §4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameEvent {
    /// A turn (a pass included), with its number and player.
    Turn {
        /// The turn number (DPN field 8 before the turn).
        number: u32,
        /// The player who played it.
        player: Player,
        /// The turn.
        turn: Turn,
    },
    /// A player resigned (R9.6).
    Resign(Player),
    /// The living players agreed a draw (R12.2).
    Draw,
}

/// Why a game refused an event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// The turn is not legal.
    Illegal(IllegalTurn),
    /// The resignation or the draw is not possible.
    State(StateError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Illegal(e) => fmt::Display::fmt(e, f),
            GameError::State(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for GameError {}

impl From<IllegalTurn> for GameError {
    fn from(e: IllegalTurn) -> GameError {
        GameError::Illegal(e)
    }
}

impl From<StateError> for GameError {
    fn from(e: StateError) -> GameError {
        GameError::State(e)
    }
}

/// A point of a [`Game`] to come back to ([`Game::rewind`]): what undoing the events played
/// since needs, and nothing more (a `Copy` value, so marking a game costs nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameMark {
    position: Position,
    events: usize,
    eliminations: usize,
}

/// A game in progress or finished: its start, its events, its current position, and the order
/// in which players were eliminated.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    events: Vec<GameEvent>,
    /// Players eliminated by each event, in order (one entry per event that eliminated any).
    eliminations: Vec<ArmySet>,
}

impl Game {
    /// A game starting from `start`.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            position: start,
            events: Vec::new(),
            eliminations: Vec::new(),
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The ruleset.
    pub fn rules(&self) -> Rules {
        self.start.rules()
    }

    /// The events so far.
    pub fn events(&self) -> &[GameEvent] {
        &self.events
    }

    /// The outcome so far.
    pub fn outcome(&self) -> Outcome {
        self.position.outcome()
    }

    /// Where the game is now, to come back to with [`rewind`](Game::rewind).
    pub fn mark(&self) -> GameMark {
        GameMark {
            position: self.position,
            events: self.events.len(),
            eliminations: self.eliminations.len(),
        }
    }

    /// Undoes every event played since `mark` was taken. Only events added since can be undone:
    /// a mark of another game, or of a later point, leaves the game as it is and returns
    /// `false`.
    pub fn rewind(&mut self, mark: GameMark) -> bool {
        if mark.events > self.events.len() || mark.eliminations > self.eliminations.len() {
            return false;
        }
        self.events.truncate(mark.events);
        self.eliminations.truncate(mark.eliminations);
        self.position = mark.position;
        true
    }

    /// Plays a turn; on error nothing changes.
    pub fn play(&mut self, turn: &Turn) -> Result<Vec<Effect>, GameError> {
        let before = self.position;
        let player = before.to_move().ok_or(StateError::GameOver)?;
        let effects = self.position.play_with_effects(turn)?;
        self.events.push(GameEvent::Turn {
            number: before.turn(),
            player,
            turn: *turn,
        });
        self.note_eliminations(&before);
        Ok(effects)
    }

    /// Parses turn text (NOTATION §3) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<(Turn, Vec<Effect>), GameError> {
        let turn = self.position.parse_turn(text)?;
        let effects = self.play(&turn)?;
        Ok((turn, effects))
    }

    /// `player` resigns (R9.6).
    pub fn resign(&mut self, player: Player) -> Result<Vec<Effect>, GameError> {
        let before = self.position;
        let effects = self.position.resign(player)?;
        self.events.push(GameEvent::Resign(player));
        self.note_eliminations(&before);
        Ok(effects)
    }

    /// The living players agree a draw (R12.2).
    pub fn agree_draw(&mut self) -> Result<(), GameError> {
        self.position.agree_draw()?;
        self.events.push(GameEvent::Draw);
        Ok(())
    }

    /// Plays any event.
    pub fn apply(&mut self, event: &GameEvent) -> Result<Vec<Effect>, GameError> {
        match event {
            GameEvent::Turn { turn, .. } => self.play(turn),
            GameEvent::Resign(p) => self.resign(*p),
            GameEvent::Draw => self.agree_draw().map(|()| Vec::new()),
        }
    }

    fn note_eliminations(&mut self, before: &Position) {
        let gone: ArmySet = before
            .alive()
            .iter()
            .filter(|p| !self.position.is_alive(*p))
            .collect();
        if !gone.is_empty() {
            self.eliminations.push(gone);
        }
    }

    /// The players of this game: every army that is not the hostage at the start.
    pub fn players(&self) -> ArmySet {
        Army::ALL
            .into_iter()
            .filter(|a| self.start.control(*a) != Controller::Hostage)
            .collect()
    }

    /// The ranking (R9.7), best first: the players still alive (the winner, or those sharing a
    /// draw, or those still playing), then those eliminated, latest first, players eliminated by
    /// the same event sharing a rank. Players already dead at the start come last, together.
    pub fn ranking(&self) -> Vec<Vec<Player>> {
        let mut ranks = Vec::new();
        let alive = self.position.alive();
        if !alive.is_empty() {
            ranks.push(alive.iter().collect());
        }
        for group in self.eliminations.iter().rev() {
            ranks.push(group.iter().collect());
        }
        let ranked: ArmySet = ranks.iter().flatten().copied().collect();
        let rest: Vec<Player> = self
            .players()
            .iter()
            .filter(|p| !ranked.contains(*p))
            .collect();
        if !rest.is_empty() {
            ranks.push(rest);
        }
        ranks
    }

    /// Every position of the game: the start, then one after each event.
    pub fn positions(&self) -> Vec<Position> {
        let mut replay = Game::new(self.start);
        let mut out = vec![self.start];
        for e in &self.events {
            replay.apply(e).expect("events of a game replay");
            out.push(replay.position);
        }
        out
    }
}
