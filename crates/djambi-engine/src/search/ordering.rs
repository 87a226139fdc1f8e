//! Move ordering: the table's move first, then kills by victim value (chiefs first), moves that
//! take or threaten the maze, the two killer moves of the ply, and the rest by history.
//! Alpha-beta prunes best when the best move comes first.

use djambi_core::{Position, Role, Turn};

use crate::eval::material::ROLE_VALUE;
use crate::search::placement::victim;

/// The value of killing a chief, for ordering: above any other victim.
const CHIEF_VICTIM: i32 = 5000;

const TT_MOVE: i32 = 1 << 30;
const KILL: i32 = 1 << 24;
const MAZE: i32 = 1 << 23;
const KILLER: i32 = 1 << 22;
/// History scores stay below the killers.
const HISTORY_MAX: i32 = (1 << 21) - 1;

/// Per-search ordering memory: killer moves per ply and a history table.
pub(crate) struct Ordering {
    killers: Vec<[Option<Turn>; 2]>,
    history: Vec<i32>,
}

impl Ordering {
    pub(crate) fn new(plies: usize) -> Ordering {
        Ordering {
            killers: vec![[None; 2]; plies],
            history: vec![0; 81 * 81],
        }
    }

    pub(crate) fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill(0);
    }

    /// Remembers a quiet move that caused a cut-off.
    pub(crate) fn cutoff(&mut self, pos: &Position, ply: usize, t: Turn, depth: i32) {
        if victim(pos, &t).is_some() {
            return;
        }
        let k = &mut self.killers[ply];
        if k[0] != Some(t) {
            k[1] = k[0];
            k[0] = Some(t);
        }
        if let Some(m) = t.as_move() {
            let h = &mut self.history[m.from.index() * 81 + m.to.index()];
            *h = (*h + depth * depth).min(HISTORY_MAX);
        }
    }

    /// The ordering score of `t` (higher first).
    pub(crate) fn score(&self, pos: &Position, ply: usize, t: &Turn, tt_move: Option<Turn>) -> i32 {
        if Some(*t) == tt_move {
            return TT_MOVE;
        }
        let Some(m) = t.as_move() else {
            return 0;
        };
        let board = pos.board();
        if let Some(v) = victim(pos, t) {
            let value = if v.role == Role::Chief {
                CHIEF_VICTIM
            } else {
                ROLE_VALUE[v.role as usize]
            };
            let attacker = board[m.from].role().map_or(0, |r| ROLE_VALUE[r as usize]);
            return KILL + value * 16 - attacker / 16;
        }
        let mover = board[m.from].role();
        if m.to.is_maze() && mover == Some(Role::Chief) {
            return MAZE;
        }
        if mover == Some(Role::Diplomat) && board[m.to].role() == Some(Role::Chief) {
            return MAZE - 1;
        }
        let k = &self.killers[ply];
        if k[0] == Some(*t) {
            return KILLER;
        }
        if k[1] == Some(*t) {
            return KILLER - 1;
        }
        self.history[m.from.index() * 81 + m.to.index()]
    }
}

/// Moves the best-scored remaining entry of `list[i..]` to `i` (selection sort, one step at a
/// time: after a cut-off the rest is never sorted).
#[inline]
pub(crate) fn pick_next(list: &mut [(Turn, i32)], i: usize) {
    let mut best = i;
    for j in i + 1..list.len() {
        if list[j].1 > list[best].1 {
            best = j;
        }
    }
    list.swap(i, best);
}
