//! Monte-Carlo Tree Search with progressive bias: the arena's `mcts` opponent (issue 24), a
//! player that thinks unlike the Paranoid search. Each player is assumed to play for itself
//! (the rewards are vectors, as in max^n; Sturtevant 2008 "An Analysis of UCT in Multi-player
//! Games"), and there are no random playouts: a new leaf is valued by the evaluation's shares,
//! the usual replacement for playouts in games whose random games say little (Winands et al.
//! 2010, "Monte Carlo Tree Search in Lines of Action").
//!
//! Exactly:
//! 1. A node's children are its legal turns with `hard`'s representative placements
//!    ([`representatives`]), each with a prior: the mover's share after the turn
//!    ([`crate::eval::share`]), on 0 to 1.
//! 2. Selection from the root takes the child maximising
//!    `Q + C · sqrt(ln N / n) + W · prior / (n + 1)` (UCB1 plus progressive bias, Chaslot et
//!    al. 2008), where `Q` is the mean reward of the child's mover, `n` its visits, `N` the
//!    parent's; unvisited children go first, the highest prior first.
//! 3. The selected leaf is expanded (its children made and their priors evaluated) and its own
//!    value, every player's share (a finished game: 1 to the winner, 1/k to each of a draw's
//!    k players), is added along the path.
//! 4. It stops when the node budget is spent (one node per position evaluated) and plays the
//!    most visited child of the root, ties to the higher mean.

use djambi_core::{Army, Outcome, Player, Position, Turn};

use djambi_engine::eval::{self, SHARE_SCALE};
use djambi_engine::search::representatives;

/// The exploration constant `C`.
const EXPLORE: f64 = 0.4;

/// The weight `W` of the prior.
const BIAS: f64 = 1.0;

/// One node of the tree: the turn that led to it and its statistics.
struct Node {
    turn: Turn,
    /// Who played `turn`: the player whose reward `total` sums.
    mover: Player,
    prior: f64,
    visits: u32,
    total: f64,
    /// Children, `children..children + len` in the tree's node list, once expanded.
    children: u32,
    len: u32,
    expanded: bool,
}

/// Every player's value of a position, on 0 to 1.
fn values(pos: &Position) -> [f64; 4] {
    match pos.outcome() {
        Outcome::Winner(w) => {
            let mut v = [0.0; 4];
            v[w.index()] = 1.0;
            v
        }
        Outcome::Draw(d) => {
            let mut v = [0.0; 4];
            for p in d.iter() {
                v[p.index()] = 1.0 / d.len() as f64;
            }
            v
        }
        Outcome::Ongoing => {
            Army::ALL.map(|p| f64::from(eval::share(pos, p)) / f64::from(SHARE_SCALE))
        }
    }
}

/// A tree search within `budget` positions; reuses its memory between calls.
#[derive(Default)]
pub struct Mcts {
    nodes: Vec<Node>,
    raw: Vec<Turn>,
    path: Vec<u32>,
}

impl Mcts {
    /// The turn MCTS chooses for the player to move in `pos` after evaluating about `budget`
    /// positions, or `None` when the game is over. Deterministic.
    pub fn choose(&mut self, pos: &Position, budget: u64) -> Option<Turn> {
        let mover = pos.to_move()?;
        self.nodes.clear();
        self.nodes.push(Node {
            turn: Turn::Pass,
            mover,
            prior: 0.0,
            visits: 0,
            total: 0.0,
            children: 0,
            len: 0,
            expanded: false,
        });
        let mut spent = self.expand(0, pos);
        if self.nodes[0].len > 1 {
            while spent < budget {
                spent += self.iterate(pos);
            }
        }
        let root = &self.nodes[0];
        let kids = &self.nodes[root.children as usize..(root.children + root.len) as usize];
        kids.iter()
            .max_by(|a, b| {
                rank(a)
                    .partial_cmp(&rank(b))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|n| n.turn)
    }

    /// One selection, expansion and backup. Returns the positions evaluated.
    fn iterate(&mut self, root: &Position) -> u64 {
        self.path.clear();
        let mut at = 0u32;
        let mut pos = *root;
        self.path.push(at);
        while self.nodes[at as usize].expanded && self.nodes[at as usize].len > 0 {
            at = self.select(at);
            pos.play_unchecked(&self.nodes[at as usize].turn);
            self.path.push(at);
        }
        let mut spent = 1;
        if !pos.is_game_over() && !self.nodes[at as usize].expanded {
            spent += self.expand(at, &pos);
        }
        let v = values(&pos);
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.total += v[n.mover.index()];
        }
        spent
    }

    /// The child of `at` to follow (progressive bias over UCB1).
    fn select(&self, at: u32) -> u32 {
        let parent = &self.nodes[at as usize];
        let ln_n = f64::from(parent.visits.max(1)).ln();
        let mut best = (f64::NEG_INFINITY, parent.children);
        for i in parent.children..parent.children + parent.len {
            let c = &self.nodes[i as usize];
            let score = if c.visits == 0 {
                1e9 + c.prior
            } else {
                let n = f64::from(c.visits);
                c.total / n + EXPLORE * (ln_n / n).sqrt() + BIAS * c.prior / (n + 1.0)
            };
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    /// Makes the children of `at` (position `pos`) with their priors: every legal turn with
    /// representative placements. Returns their number.
    fn expand(&mut self, at: u32, pos: &Position) -> u64 {
        let Some(mover) = pos.to_move() else {
            return 0;
        };
        let first = self.nodes.len() as u32;
        let nodes = &mut self.nodes;
        let push = |t: Turn| {
            let mut child = *pos;
            child.play_unchecked(&t);
            let prior = f64::from(eval::terminal(&child, mover, 1).clamp(0, SHARE_SCALE))
                / f64::from(SHARE_SCALE);
            nodes.push(Node {
                turn: t,
                mover,
                prior,
                visits: 0,
                total: 0.0,
                children: 0,
                len: 0,
                expanded: false,
            });
        };
        let mut raw = std::mem::take(&mut self.raw);
        pos.legal_turns_into(&mut raw);
        representatives(pos, &raw, push);
        self.raw = raw;
        let len = self.nodes.len() as u32 - first;
        let n = &mut self.nodes[at as usize];
        n.children = first;
        n.len = len;
        n.expanded = true;
        u64::from(n.len)
    }
}

/// What ranks a root child: its visits, then its mean reward.
fn rank(n: &Node) -> (u32, f64) {
    (n.visits, n.total / f64::from(n.visits.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    #[test]
    fn answers_legally_and_repeatably() {
        let p = Position::new();
        let a = Mcts::default().choose(&p, 3000).unwrap();
        assert!(p.is_legal(&a));
        assert_eq!(Mcts::default().choose(&p, 3000), Some(a));
    }

    #[test]
    fn takes_the_last_chief() {
        let p = Position::from_dpn("Cb8/9/9/9/9/9/9/9/Ar7Cr r rb-- - 0 - 0 3", Rules::default())
            .unwrap();
        let t = Mcts::default().choose(&p, 2000).unwrap();
        let mut q = p;
        q.play(&t).unwrap();
        assert_eq!(q.outcome(), Outcome::Winner(Army::Red), "{t}");
    }
}
