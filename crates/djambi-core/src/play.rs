//! Playing turns and resignations: the board change, control (R9), encirclement (R9.3), the end
//! of the game (R12) and the turn order (R8), in the order of R9.4a.

use std::fmt;

use crate::effect::{Effect, EffectSink};
use crate::illegal::IllegalTurn;
use crate::piece::{Army, ArmySet, Cell, Controller, Piece, Player, Role};
use crate::position::{Outcome, Position};
use crate::rules::MAX_NUMBER;
use crate::square::Square;
use crate::turn::Turn;

/// A resignation or a draw was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateError {
    /// The game is already over.
    GameOver,
    /// The player is not alive (eliminated, or the hostage army).
    NotAlive(Army),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::GameOver => f.write_str("the game is over"),
            StateError::NotAlive(p) => write!(f, "{p}: not a living player"),
        }
    }
}

impl std::error::Error for StateError {}

impl Position {
    /// Plays `turn` if it is legal; otherwise returns why not and leaves the position
    /// untouched. Allocates nothing.
    pub fn play(&mut self, turn: &Turn) -> Result<(), IllegalTurn> {
        if !self.is_legal(turn) {
            return Err(self.explain(turn));
        }
        self.apply(*turn, &mut ());
        Ok(())
    }

    /// Like [`play`](Position::play), and returns the turn's effects in order.
    pub fn play_with_effects(&mut self, turn: &Turn) -> Result<Vec<Effect>, IllegalTurn> {
        if !self.is_legal(turn) {
            return Err(self.explain(turn));
        }
        let mut effects = Vec::with_capacity(8);
        self.apply(*turn, &mut effects);
        Ok(effects)
    }

    /// Plays a turn known to be legal (from [`legal_turns`](Position::legal_turns) of this very
    /// position) without checking it again: for search and perft. An illegal turn gives an
    /// unspecified (but valid-typed) result.
    pub fn play_unchecked(&mut self, turn: &Turn) {
        self.apply(*turn, &mut ());
    }

    /// `player` resigns (R9.6), at any time; returns the effects.
    pub fn resign(&mut self, player: Player) -> Result<Vec<Effect>, StateError> {
        if self.to_move.is_none() {
            return Err(StateError::GameOver);
        }
        if !self.is_alive(player) {
            return Err(StateError::NotAlive(player));
        }
        let mut fx = Vec::new();
        let ruler_before = self.ruler();
        let at = self
            .board
            .chief(player)
            .expect("a living player has a chief");
        self.board[at] = Cell::CORPSE;
        fx.push(Effect::Resigned { player, at });
        fx.push(Effect::Eliminated { player });
        if ruler_before == Some(player) {
            fx.push(Effect::LostPower { player });
        }
        // R9.4: to the ruler if there is one (a resigning ruler leaves none), else orphaned.
        self.hand_over(player, self.ruler(), &mut fx);
        self.passed = self.passed.without(player);
        let (alive, _) = self.encirclements(player, &mut fx);
        self.passed = ArmySet::from_iter(self.passed.iter().filter(|p| alive.contains(*p)));
        if alive.len() == 1 {
            self.finish(&mut fx);
        } else if let Some(tm) = self.to_move {
            // R8.7: the turn passes on if its player is gone or no longer rules a bonus turn.
            if !alive.contains(tm) || (self.bonus > 0 && self.ruler() != Some(tm)) {
                self.bonus = 0;
                self.to_move = Some(self.next_regular());
            }
        }
        Ok(fx)
    }

    /// The living players agree to a draw (R12.2).
    pub fn agree_draw(&mut self) -> Result<(), StateError> {
        if self.to_move.is_none() {
            return Err(StateError::GameOver);
        }
        self.to_move = None;
        self.bonus = 0;
        Ok(())
    }

    /// Applies a legal turn.
    pub(crate) fn apply<S: EffectSink>(&mut self, turn: Turn, fx: &mut S) {
        let Some(mover) = self.to_move else { return };
        let was_bonus = self.bonus > 0;
        let ruler_before = self.ruler();
        let mut eliminated = false;
        let mut killed = false;
        let mut entered: Option<Player> = None;

        // 1) The move and its kill or displacement.
        match turn {
            Turn::Pass => {
                fx.push(Effect::Passed { player: mover });
            }
            Turn::Move(m) => {
                let Some(piece) = self.board[m.from].piece() else {
                    return;
                };
                let target = self.board[m.to];
                self.board[m.from] = Cell::EMPTY;
                fx.push(Effect::Moved {
                    piece,
                    from: m.from,
                    to: m.to,
                });
                match (m.exit, piece.role) {
                    (Some(exit), role) => {
                        // R7.4: act, exit, place.
                        self.board[m.to] = Cell::EMPTY;
                        if role == Role::Assassin
                            && let Some(victim) = target.piece()
                        {
                            eliminated |= self.kill(mover, piece, victim, m.to, fx);
                            killed = true;
                        }
                        self.board[exit] = Cell::living(piece);
                        fx.push(Effect::ExitedMaze { piece, to: exit });
                        match role {
                            Role::Assassin => {
                                self.board[m.from] = Cell::CORPSE;
                                fx.push(Effect::CorpseMoved {
                                    from: m.to,
                                    to: m.from,
                                });
                            }
                            Role::Diplomat => {
                                let place = m.place.unwrap_or(m.from);
                                self.board[place] = target;
                                if let Some(p) = target.piece() {
                                    fx.push(Effect::Displaced {
                                        piece: p,
                                        from: m.to,
                                        to: place,
                                    });
                                }
                            }
                            _ => {
                                let place = m.place.unwrap_or(m.from);
                                self.board[place] = Cell::CORPSE;
                                fx.push(Effect::CorpseMoved {
                                    from: m.to,
                                    to: place,
                                });
                            }
                        }
                    }
                    (None, role) => {
                        self.board[m.to] = Cell::living(piece);
                        if role == Role::Chief && m.to.is_maze() {
                            entered = Some(piece.army);
                        }
                        if let Some(victim_sq) = m.victim {
                            // R4.4: the Reporter's victim stays where it was.
                            if let Some(victim) = self.board[victim_sq].piece() {
                                self.board[victim_sq] = Cell::CORPSE;
                                eliminated |= self.kill(mover, piece, victim, victim_sq, fx);
                                killed = true;
                            }
                        } else if let Some(victim) = target.piece() {
                            match role {
                                Role::Diplomat => {
                                    let place = m.place.unwrap_or(m.from);
                                    self.board[place] = target;
                                    fx.push(Effect::Displaced {
                                        piece: victim,
                                        from: m.to,
                                        to: place,
                                    });
                                    if place.is_maze()
                                        && victim.role == Role::Chief
                                        && self.control[victim.army.index()]
                                            == Controller::Player(victim.army)
                                    {
                                        entered = Some(victim.army);
                                    }
                                }
                                Role::Assassin => {
                                    eliminated |= self.kill(mover, piece, victim, m.to, fx);
                                    self.board[m.from] = Cell::CORPSE;
                                    fx.push(Effect::CorpseMoved {
                                        from: m.to,
                                        to: m.from,
                                    });
                                    killed = true;
                                }
                                _ => {
                                    eliminated |= self.kill(mover, piece, victim, m.to, fx);
                                    let place = m.place.unwrap_or(m.from);
                                    self.board[place] = Cell::CORPSE;
                                    fx.push(Effect::CorpseMoved {
                                        from: m.to,
                                        to: place,
                                    });
                                    killed = true;
                                }
                            }
                        } else if target.is_corpse() {
                            let place = m.place.unwrap_or(m.from);
                            self.board[place] = Cell::CORPSE;
                            fx.push(Effect::CorpseMoved {
                                from: m.to,
                                to: place,
                            });
                        }
                    }
                }
            }
        }

        // 3) A player's chief that entered the maze takes the orphaned armies (R9.4).
        let ruler_now = self.ruler();
        if ruler_now != ruler_before {
            if let Some(old) = ruler_before {
                fx.push(Effect::LostPower { player: old });
            }
            if let Some(new) = ruler_now {
                fx.push(Effect::TookPower { player: new });
            }
        }
        if let Some(player) = entered.filter(|p| ruler_now == Some(*p)) {
            let orphans: ArmySet = Army::ALL
                .into_iter()
                .filter(|a| self.control[a.index()] == Controller::Orphaned)
                .collect();
            if !orphans.is_empty() {
                for a in orphans.iter() {
                    self.control[a.index()] = Controller::Player(player);
                }
                fx.push(Effect::TookControl {
                    player,
                    armies: orphans,
                    from: None,
                });
            }
        }

        // 4) Encirclement (R9.3).
        let (alive, encircled) = self.encirclements(mover, fx);
        let eliminated = eliminated || encircled;

        // Counters (R12.3, R12.4). They stop at the largest number DPN writes: a position a
        // billion turns deep (only a made-up start reaches one) still reads back.
        self.turn = self.turn.saturating_add(1).min(MAX_NUMBER);
        self.quiet = if killed || eliminated {
            0
        } else {
            self.quiet.saturating_add(1).min(MAX_NUMBER)
        };
        self.passed = if turn.is_pass() {
            self.passed.with(mover)
        } else {
            ArmySet::EMPTY
        };
        self.passed = ArmySet::from_iter(self.passed.iter().filter(|p| alive.contains(*p)));

        // 5) The end of the game (R12.1, R12.3, R12.4).
        let limit_reached = self.rules.turn_limit.is_some_and(|n| self.quiet >= n.get());
        if alive.len() <= 1 || self.passed == alive || limit_reached {
            self.last_regular = if was_bonus {
                self.last_regular
            } else {
                Some(mover)
            };
            self.finish(fx);
            return;
        }

        // 6) The next player (R8).
        if !was_bonus {
            self.last_regular = Some(mover);
            let owed = match ruler_now {
                Some(r) if r != mover => {
                    if alive.len() == 2 {
                        2
                    } else {
                        1
                    }
                }
                _ => 0,
            };
            if owed > 0 {
                self.bonus = owed;
                self.to_move = ruler_now;
            } else {
                self.bonus = 0;
                self.to_move = Some(self.next_regular_among(alive));
            }
        } else if ruler_now == Some(mover) && self.bonus > 1 {
            self.bonus -= 1;
        } else {
            self.bonus = 0;
            let mut next = self.next_regular_among(alive);
            // R8.5 Decision: a ruler who gave up power on a bonus turn does not play on.
            if next == mover && ruler_now != Some(mover) {
                self.last_regular = Some(mover);
                next = self.next_regular_among(alive);
            }
            self.to_move = Some(next);
        }
    }

    /// The players of the next `n` turns as the rules give them if nobody is eliminated and
    /// power does not change hands (R8.2–R8.5), starting with the player to move; empty when
    /// the game is over.
    pub fn coming_turns(&self, n: usize) -> Vec<Player> {
        let mut out = Vec::with_capacity(n);
        let mut sim = *self;
        let ruler = self.ruler();
        let alive = self.alive().len();
        while out.len() < n {
            let Some(p) = sim.to_move else { break };
            out.push(p);
            if sim.bonus > 1 {
                sim.bonus -= 1;
                continue;
            }
            if sim.bonus == 0 {
                sim.last_regular = Some(p);
                if let Some(r) = ruler.filter(|r| *r != p) {
                    sim.bonus = if alive == 2 { 2 } else { 1 };
                    sim.to_move = Some(r);
                    continue;
                }
            }
            sim.bonus = 0;
            sim.to_move = Some(sim.next_regular());
        }
        out
    }

    /// The first living player after the last regular turn's player in base order, skipping the
    /// ruler (R8.5); red first before any regular turn.
    pub(crate) fn next_regular(&self) -> Player {
        self.next_regular_among(self.alive())
    }

    /// [`next_regular`](Position::next_regular) with the living players already known.
    fn next_regular_among(&self, alive: ArmySet) -> Player {
        let ruler = self.ruler();
        let start = self.last_regular.map_or(0, |p| p.index() + 1);
        (0..4)
            .map(|i| Army::from_index(start + i))
            .find(|p| alive.contains(*p) && Some(*p) != ruler)
            .or_else(|| alive.iter().next())
            .expect("a game in progress has a living player")
    }

    /// Kills `victim` (already a corpse on the board or about to be): R9.1, R11.3.
    fn kill<S: EffectSink>(
        &mut self,
        mover: Player,
        by: Piece,
        victim: Piece,
        at: Square,
        fx: &mut S,
    ) -> bool {
        fx.push(Effect::Killed {
            piece: victim,
            at,
            by,
        });
        if victim.role != Role::Chief {
            return false;
        }
        match self.control[victim.army.index()] {
            Controller::Player(q) => {
                fx.push(Effect::Eliminated { player: q });
                let armies: ArmySet = Army::ALL
                    .into_iter()
                    .filter(|a| self.control[a.index()] == Controller::Player(q))
                    .collect();
                for a in armies.iter() {
                    self.control[a.index()] = Controller::Player(mover);
                }
                fx.push(Effect::TookControl {
                    player: mover,
                    armies,
                    from: Some(q),
                });
                true
            }
            Controller::Hostage => {
                self.control[victim.army.index()] = Controller::Player(mover);
                fx.push(Effect::TookControl {
                    player: mover,
                    armies: ArmySet::single(victim.army),
                    from: None,
                });
                false
            }
            Controller::Orphaned => false,
        }
    }

    /// Gives the armies of the eliminated `player` to `to`, or orphans them (R9.4).
    fn hand_over<S: EffectSink>(&mut self, player: Player, to: Option<Player>, fx: &mut S) {
        let armies: ArmySet = Army::ALL
            .into_iter()
            .filter(|a| self.control[a.index()] == Controller::Player(player))
            .collect();
        let new = to.map_or(Controller::Orphaned, Controller::Player);
        for a in armies.iter() {
            self.control[a.index()] = new;
        }
        if armies.is_empty() {
            return;
        }
        match to {
            Some(to) => fx.push(Effect::TookControl {
                player: to,
                armies,
                from: Some(player),
            }),
            None => fx.push(Effect::Orphaned {
                armies,
                from: player,
            }),
        }
    }

    /// R9.3: examines each living player once, in base order from the one after `last`, ending
    /// with `last`; stops when only one player is alive.
    /// Returns the living players afterwards and whether anyone was encircled.
    fn encirclements<S: EffectSink>(&mut self, last: Player, fx: &mut S) -> (ArmySet, bool) {
        let mut census = self.board.census();
        let mut alive = self.alive_in(&census);
        let mut any = false;
        for i in 1..=4 {
            let p = Army::from_index(last.index() + i);
            if alive.len() <= 1 {
                break;
            }
            if !alive.contains(p) {
                continue;
            }
            let Some(at) = census.chiefs[p.index()] else {
                continue;
            };
            if at.is_maze() || !at.neighbours().all(|n| self.board[n].is_corpse()) {
                continue;
            }
            // Any living Necromobile of any army the player controls saves it.
            let has_necromobile = Army::ALL.into_iter().any(|a| {
                census.necromobiles[a.index()] > 0
                    && self.control[a.index()] == Controller::Player(p)
            });
            if has_necromobile {
                continue;
            }
            self.board[at] = Cell::CORPSE;
            census.chiefs[p.index()] = None;
            alive = alive.without(p);
            any = true;
            fx.push(Effect::Encircled { player: p, at });
            fx.push(Effect::Eliminated { player: p });
            self.hand_over(p, self.ruler(), fx);
        }
        (alive, any)
    }

    /// Ends the game: nobody to move, no bonus (NOTATION §2).
    fn finish<S: EffectSink>(&mut self, fx: &mut S) {
        self.to_move = None;
        self.bonus = 0;
        let outcome = self.outcome();
        debug_assert!(outcome != Outcome::Ongoing);
        fx.push(Effect::GameOver { outcome });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn pos(dpn: &str) -> Position {
        Position::from_dpn(dpn, Rules::default()).unwrap()
    }

    fn letters(ps: Vec<Player>) -> String {
        ps.into_iter().map(Army::char).collect()
    }

    #[test]
    fn r8_3_coming_turns_with_a_ruler() {
        // Red in power, four living players, blue to play its regular turn.
        let p = pos("Cb8/9/9/9/4Cr4/9/9/9/Cy7Cg b rbyg g 0 - 0 9");
        assert_eq!(letters(p.coming_turns(8)), "bryrgrbr");
        let p = pos("Cb8/9/9/9/4Cr4/9/9/9/9 b rb-- g 0 - 0 9");
        assert_eq!(letters(p.coming_turns(6)), "brrbrr");
        assert_eq!(letters(Position::new().coming_turns(5)), "rbygr");
    }
}
