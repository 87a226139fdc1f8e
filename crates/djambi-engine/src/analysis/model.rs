//! The analysis's value model: every player's chance of winning in a position, as one vector
//! that sums to 1 over the living players — the same numbers whoever asks (one truth per
//! position), fitted to outcomes of games the engine did not play (the lab's `calibrate`
//! example, `crates/djambi-lab/examples/calibrate/`; docs/ENGINE.md "Analysis").
//!
//! - **Static part** ([`Model::static_chances`]): a softmax over the living players of a linear
//!   score of each player's board terms ([`crate::eval::Terms`]: the pieces of every army it
//!   controls by role, its vassal armies, the maze, the enemies that can kill its chief, the
//!   corpses and room round it, whether its chief lacks one corpse to be encircled), the
//!   enemy chiefs it can reach and its share of the living players' strength. Who is to move
//!   is left out on purpose: it would make every curve ripple as the turn goes round (the
//!   fit gives the player to move next about 3 points at the start) and the start unfair to
//!   read. Fitted Texel's way: the weights that make the outcomes of games the engine did not
//!   play most likely (a draw shared by k counts 1/k).
//! - **One ply of play** ([`Model::chances`]): the player to move would not leave a kill on
//!   the board, so a position's chances are the static chances after the turn that is best for
//!   the player to move by those chances (Max-N, one ply). So a Reporter that can take a chief
//!   now counts as taking it, and a quiet turn changes the chances only as much as the board
//!   does: the curves are steady on quiet turns.
//!
//! A finished game is what it is (1 the winner, 1/k each of k sharing a draw, 0 the rest); a
//! player out of the game has 0, and a living player never 0 nor 1 (a softmax): 0 % is only
//! for a player out or lost.

use djambi_core::{Army, Outcome, Position, Role, Turn};

use crate::eval::{geometry, material, safety, strengths, terms};

/// The number of features of one player.
pub const FEATURES: usize = 13;

/// The names of the features, in order (the fit prints them).
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "assassin",
    "reporter",
    "diplomat",
    "necromobile",
    "militant",
    "vassal armies",
    "ruler",
    "chief attackers",
    "corpses by the chief",
    "room by the chief",
    "one corpse from encircled",
    "threats to enemy chiefs",
    "ln strength share",
];

/// The model: one weight per feature.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// The weights, in [`FEATURE_NAMES`]' order.
    pub weights: [f64; FEATURES],
}

impl Model {
    /// The weights fitted by the lab's `calibrate fit` on 600 games between Max-N-2 referee
    /// players and the engine's levels mixed (docs/ENGINE.md "Analysis": the command, the
    /// data and the held-out figures).
    pub const FITTED: Model = Model {
        weights: [
            0.2657, 0.1606, 0.2355, 0.4875, 0.0658, -0.2047, 0.3768, -0.0774, -0.0365, 0.0350,
            -0.2401, 0.0659, -0.4652,
        ],
    };

    /// Every player's chance by the board alone (no play): indexed by army.
    pub fn static_chances(&self, pos: &Position) -> [f64; 4] {
        if let Some(done) = finished(pos) {
            return done;
        }
        let logits = Self::features_of(pos).map(|f| match f {
            Some(f) => dot(&self.weights, &f),
            None => f64::NEG_INFINITY,
        });
        softmax(logits)
    }

    /// Every player's chance in `pos`: the static chances after the turn that is best for the
    /// player to move by them (one ply of Max-N); the static chances themselves when it has no
    /// choice to make (a pass).
    pub fn chances(&self, pos: &Position) -> [f64; 4] {
        self.chances_with(pos).0
    }

    /// [`chances`](Self::chances), and the turn the player to move would play by them.
    pub fn chances_with(&self, pos: &Position) -> ([f64; 4], Option<Turn>) {
        let Some(mover) = pos.to_move() else {
            return (self.static_chances(pos), None);
        };
        if let Some(done) = finished(pos) {
            return (done, None);
        }
        let mut best: Option<([f64; 4], Turn)> = None;
        for turn in pos.legal_turns() {
            let mut child = *pos;
            child.play_unchecked(&turn);
            let c = self.static_chances(&child);
            if best
                .as_ref()
                .is_none_or(|(b, _)| c[mover.index()] > b[mover.index()])
            {
                best = Some((c, turn));
            }
        }
        match best {
            Some((c, t)) => (c, Some(t)),
            None => (self.static_chances(pos), None),
        }
    }

    /// The features of each living player in `pos` (indexed by army; none for a player out).
    pub fn features_of(pos: &Position) -> [Option<[f64; FEATURES]>; 4] {
        let all = terms(pos);
        let cells = geometry::codes(pos.board());
        let scan = material::scan_codes(&cells);
        let strengths = strengths(pos);
        let total: f64 = strengths.iter().map(|&s| f64::from(s.max(0))).sum();
        Army::ALL.map(|p| {
            let t = all[p.index()].as_ref()?;
            let armies = pos.armies_of(p);
            let mask = armies.iter().fold(0u8, |m, a| m | 1 << a.index());
            let threats: i32 = Army::ALL
                .iter()
                .filter(|&&q| q != p && all[q.index()].is_some())
                .filter_map(|q| scan.chief[q.index()])
                .map(|chief| safety::attackers(&cells, chief.index(), mask))
                .sum();
            let share = f64::from(strengths[p.index()].max(1)) / total.max(1.0);
            Some([
                f64::from(t.pieces[Role::Assassin as usize]),
                f64::from(t.pieces[Role::Reporter as usize]),
                f64::from(t.pieces[Role::Diplomat as usize]),
                f64::from(t.pieces[Role::Necromobile as usize]),
                f64::from(t.pieces[Role::Militant as usize]),
                armies.len().saturating_sub(1) as f64,
                f64::from(u8::from(t.ruler)),
                f64::from(t.attackers),
                f64::from(t.corpses),
                f64::from(t.room),
                f64::from(u8::from(t.one_from_encircled)),
                f64::from(threats),
                share.ln(),
            ])
        })
    }
}

/// A finished game's chances (the outcome), else none.
fn finished(pos: &Position) -> Option<[f64; 4]> {
    match pos.outcome() {
        Outcome::Ongoing => None,
        Outcome::Winner(w) => Some(Army::ALL.map(|p| if p == w { 1.0 } else { 0.0 })),
        Outcome::Draw(d) => Some(Army::ALL.map(|p| {
            if d.contains(p) {
                1.0 / d.len() as f64
            } else {
                0.0
            }
        })),
    }
}

fn dot(w: &[f64; FEATURES], f: &[f64; FEATURES]) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

/// The softmax of the living players' logits (`-inf` for players out).
pub fn softmax(logits: [f64; 4]) -> [f64; 4] {
    let top = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return [0.0; 4];
    }
    let e = logits.map(|l| if l.is_finite() { (l - top).exp() } else { 0.0 });
    let total: f64 = e.iter().sum();
    e.map(|x| x / total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    fn pos(dpn: &str) -> Position {
        Position::from_dpn(dpn, Rules::default()).unwrap()
    }

    #[test]
    fn the_start_is_nearly_fair_and_the_chances_add_up() {
        let start = Position::new();
        for c in [
            Model::FITTED.static_chances(&start),
            Model::FITTED.chances(&start),
        ] {
            assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{c:?}");
            for p in c {
                assert!((0.15..0.35).contains(&p), "{c:?}");
            }
        }
    }

    #[test]
    fn finished_games_and_players_out() {
        let won = pos("Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9");
        assert_eq!(Model::FITTED.chances(&won), [1.0, 0.0, 0.0, 0.0]);
        let draw = pos("Cr8/9/9/9/9/9/9/9/8Cy - r-y- r 0 - 0 9");
        assert_eq!(Model::FITTED.chances(&draw), [0.5, 0.0, 0.5, 0.0]);
        // Blue is out in a game still going on: 0 for blue, and the others are never 0 or 1.
        let out = pos("1Cr7/9/9/9/9/9/9/9/8Cy y r-y- r 0 - 0 9");
        let c = Model::FITTED.chances(&out);
        assert_eq!(c[Army::Blue.index()], 0.0);
        assert!(
            c[0] > 0.0 && c[0] < 1.0 && c[2] > 0.0 && c[2] < 1.0,
            "{c:?}"
        );
        assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{c:?}");
    }

    #[test]
    fn more_material_is_more_chance() {
        // A lone red chief against blue's whole army.
        let lonely = pos("Cr5MbRbCb/6MbDbAb/6NbMbMb/9/9/9/9/9/9 b rb-- - 0 - 0 5");
        let c = Model::FITTED.chances(&lonely);
        assert!(c[Army::Blue.index()] > 0.7, "{c:?}");
    }

    #[test]
    fn the_softmax_of_nobody_is_nothing() {
        assert_eq!(softmax([f64::NEG_INFINITY; 4]), [0.0; 4]);
        let s = softmax([0.0, f64::NEG_INFINITY, 0.0, f64::NEG_INFINITY]);
        assert_eq!(s, [0.5, 0.0, 0.5, 0.0]);
    }
}
