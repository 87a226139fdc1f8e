//! Why a turn is not legal: a typed error naming the square and the rule that forbids it.

use std::fmt;

use crate::piece::Role;
use crate::position::Position;
use crate::square::Square;
use crate::turn::{Move, ParseTurnError, Turn, TurnText};

/// The kind of rule a turn breaks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IllegalKind {
    /// The text is not a turn at all (NOTATION §3).
    Malformed,
    /// The game is over.
    GameOver,
    /// A pass while a move is possible (R8.6).
    Pass,
    /// No living piece of the mover's armies on the start square (R2.4, R2.6).
    NotYourPiece,
    /// The piece cannot move that way (R3.2, R3.6).
    Movement,
    /// Something stands in the way (R3.3, R3.4).
    Blocked,
    /// The maze forbids it (R3.5, R7.3).
    Maze,
    /// The piece may not act on what stands on the destination (R3.7, R4, R5).
    Target,
    /// A choice (victim, exit, placement) is missing, superfluous or wrong (R4.4, R7.4, R10.1).
    Choice,
}

/// A turn that is not legal in a position, and why. Its message says where and which rule,
/// e.g. `e5: only a chief may end a move on the maze (R3.5)`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IllegalTurn {
    /// What kind of rule is broken.
    pub kind: IllegalKind,
    /// The reason, for people.
    pub message: String,
}

impl fmt::Display for IllegalTurn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for IllegalTurn {}

impl From<ParseTurnError> for IllegalTurn {
    fn from(e: ParseTurnError) -> IllegalTurn {
        IllegalTurn {
            kind: IllegalKind::Malformed,
            message: e.to_string(),
        }
    }
}

fn illegal(kind: IllegalKind, message: String) -> IllegalTurn {
    IllegalTurn { kind, message }
}

impl Position {
    /// Resolves a context-free turn text against this position: the turn if it is legal, else
    /// why not.
    pub fn resolve(&self, text: &TurnText) -> Result<Turn, IllegalTurn> {
        if self.is_legal(&text.0) {
            Ok(text.0)
        } else {
            Err(self.explain(&text.0))
        }
    }

    /// Parses and resolves turn text (NOTATION §3) in one step.
    pub fn parse_turn(&self, text: &str) -> Result<Turn, IllegalTurn> {
        self.resolve(&text.parse::<TurnText>()?)
    }

    /// The best reason why `turn` is not legal here (the caller knows it is not).
    pub(crate) fn explain(&self, turn: &Turn) -> IllegalTurn {
        use IllegalKind::*;
        let Some(mover) = self.to_move else {
            return illegal(GameOver, "the game is over".into());
        };
        let m = match turn {
            Turn::Pass => {
                return illegal(
                    Pass,
                    "pass: a player with a legal turn may not pass (R8.6)".into(),
                );
            }
            Turn::Move(m) => m,
        };
        let (from, to) = (m.from, m.to);
        let cell = self.board[from];
        let Some(piece) = cell.piece() else {
            let what = if cell.is_corpse() {
                "a corpse cannot move (R2.6)"
            } else {
                "no piece there"
            };
            return illegal(NotYourPiece, format!("{from}: {what}"));
        };
        if !self.controls(mover, piece) {
            return illegal(
                NotYourPiece,
                format!(
                    "{from}: {mover} does not control army {} (R2.4)",
                    piece.army
                ),
            );
        }
        let role = piece.role;
        let Some((dir, dist)) = from.line_to(to) else {
            let why = if from == to {
                "a move must change the piece's square (R3.6)".to_string()
            } else {
                format!("not on a straight line from {from} (R3.2)")
            };
            return illegal(Movement, format!("{to}: {why}"));
        };
        if role == Role::Militant && dist > 2 {
            return illegal(
                Movement,
                format!("{to}: a Militant moves 1 or 2 squares (R3.2)"),
            );
        }
        if let Some(&sq) = from.ray(dir)[..dist - 1]
            .iter()
            .find(|s| !self.board[**s].is_empty())
        {
            return illegal(
                Blocked,
                format!("{sq}: the path is blocked, no piece jumps (R3.3, R3.4)"),
            );
        }
        let target = self.board[to];
        let enemy = self.is_enemy_of(mover, to);
        if to.is_maze() {
            let acts = match role {
                Role::Chief | Role::Assassin | Role::Diplomat => {
                    target.role() == Some(Role::Chief) && enemy
                }
                Role::Necromobile => target.is_corpse(),
                _ => false,
            };
            if target.is_empty() && role != Role::Chief {
                return illegal(
                    Maze,
                    "e5: only a chief may end a move on the maze (R3.5)".into(),
                );
            }
            if !target.is_empty() && !acts {
                let article = if role == Role::Assassin { "an" } else { "a" };
                return illegal(
                    Maze,
                    format!(
                        "e5: {article} {} may not act on what occupies the maze (R7.3)",
                        role.name()
                    ),
                );
            }
        } else if !target.is_empty() {
            let why = match role {
                Role::Reporter => Some("a Reporter moves only to an empty square (R4.4)"),
                Role::Necromobile if !target.is_corpse() => {
                    Some("a Necromobile moves only to an empty square or onto a corpse (R5.2)")
                }
                Role::Necromobile => None,
                _ if target.is_corpse() => Some("only a Necromobile may move onto a corpse (R5.2)"),
                _ if !enemy => Some("not an enemy piece (R2.7)"),
                _ => None,
            };
            if let Some(why) = why {
                return illegal(Target, format!("{to}: {why}"));
            }
        }
        self.explain_choices(m, role, target.is_empty())
    }

    fn explain_choices(&self, m: &Move, role: Role, onto_empty: bool) -> IllegalTurn {
        use IllegalKind::*;
        let mover = self.to_move.expect("checked by the caller");
        let acts_in_maze = m.to.is_maze() && !onto_empty;
        if let Some(v) = m.victim {
            if role != Role::Reporter {
                return illegal(
                    Choice,
                    format!("x{v}: only a Reporter names a victim (R4.4)"),
                );
            }
            if !m.to.orthogonal_neighbours().any(|n| n == v) {
                return illegal(
                    Choice,
                    format!(
                        "{v}: the victim must be orthogonally next to {} (R4.4)",
                        m.to
                    ),
                );
            }
            if !self.is_enemy_of(mover, v) || v == m.from {
                return illegal(Target, format!("{v}: not an enemy piece (R2.7)"));
            }
        }
        match (m.exit, acts_in_maze) {
            (Some(e), false) => {
                return illegal(
                    Choice,
                    format!("{e}: only a turn that acts in the maze has an exit (R7.4)"),
                );
            }
            (None, true) if role != Role::Chief => {
                return illegal(
                    Choice,
                    "e5: a turn that acts in the maze needs an exit (>square) (R7.4)".into(),
                );
            }
            (Some(e), true) if role == Role::Chief => {
                return illegal(
                    Choice,
                    format!("{e}: a Chief stays on the maze it takes (R7.6)"),
                );
            }
            (Some(e), true) if e == m.from && role == Role::Assassin => {
                return illegal(
                    Choice,
                    format!("{e}: the Assassin's exit may not end on its start square (R7.4)"),
                );
            }
            (Some(e), true) => {
                let clear = match Square::MAZE.line_to(e) {
                    Some((dir, dist)) => Square::MAZE.ray(dir)[..dist]
                        .iter()
                        .all(|s| *s == m.from || self.board[*s].is_empty()),
                    None => false,
                };
                if !clear {
                    return illegal(
                        Choice,
                        format!("{e}: not an empty square reachable from the maze (R7.4)"),
                    );
                }
            }
            _ => {}
        }
        let needs_place = match role {
            Role::Chief | Role::Militant => !onto_empty,
            Role::Diplomat | Role::Necromobile => !onto_empty,
            _ => false,
        };
        match (m.place, needs_place) {
            (None, true) => illegal(
                Choice,
                "the turn needs a placement square (@square) (R10.1)".into(),
            ),
            (Some(p), false) => illegal(
                Choice,
                format!("@{p}: this turn places nothing (NOTATION §3)"),
            ),
            (Some(p), true) if p.is_maze() => illegal(
                Choice,
                "e5: nothing may be placed on the maze here (R6.2, R5.1)".into(),
            ),
            (Some(p), true) => illegal(
                Choice,
                format!("{p}: the placement square is not empty (R6.1)"),
            ),
            _ => illegal(Choice, "not a legal turn".into()),
        }
    }

    /// Whether the living piece on `sq` is an enemy piece for `player` (R2.7, R12.5).
    pub(crate) fn is_enemy_of(&self, player: crate::piece::Player, sq: Square) -> bool {
        self.board[sq]
            .piece()
            .is_some_and(|p| self.is_enemy_piece(player, p))
    }
}
