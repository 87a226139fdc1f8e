//! The evaluation: each living player's **strength**, and a player's **share** — its strength
//! over the sum of all living players' strengths. The share is an estimate of the player's part
//! of the game's outcome on the arena's own scale (a win is 1, a draw shared by k is 1/k), so a
//! draw, a win and a middle-game position are scored on one scale.
//!
//! Strength of a living player P = [`ALIVE`](weights::ALIVE) + the material of every army P
//! controls (its own and its vassals, [`ROLE_VALUE`](material::ROLE_VALUE)) + [`RULER`](weights::RULER) if P holds
//! the maze − chief danger (enemy attackers, corpses round it) + a little room. Orphaned and
//! hostage armies count for nobody. See `weights.rs` for each weight and why.

pub(crate) mod geometry;
pub mod material;
pub(crate) mod safety;
pub mod terms;
pub mod weights;

use djambi_core::{Army, Outcome, Player, Position};

pub use terms::{Terms, terms};
pub use weights::Weights;

/// The scale of shares: 100 000 is the whole game.
pub const SHARE_SCALE: i32 = 100_000;

/// The score of a won game (a lost one is its negative), less the plies to get there.
pub const WIN: i32 = 1_000_000;

/// Scores beyond this are forced wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1000;

/// Each living player's strength (0 for a player who is not alive), indexed by army.
pub fn strengths(pos: &Position) -> [i32; 4] {
    strengths_with(pos, None, &Weights::DEFAULT)
}

/// The strengths under `w`; a `careless` player's own without the chief-danger terms (enemy
/// attackers, corpses round its chief, room), everyone else's in full. A careless player sees
/// the danger it puts the others' chiefs in, not the danger its own chief is in: the
/// `beginner` level's view ([`careless_share`]).
fn strengths_with(pos: &Position, careless: Option<Player>, w: &Weights) -> [i32; 4] {
    let all = terms(pos);
    let mut s = [0i32; 4];
    for p in Army::ALL {
        if let Some(t) = &all[p.index()] {
            s[p.index()] = if careless == Some(p) {
                t.careless_strength(w)
            } else {
                t.strength(w)
            };
        }
    }
    s
}

/// `player`'s share of the game in a position still being played, from 0 to
/// [`SHARE_SCALE`]; 0 when `player` is not alive.
pub fn share(pos: &Position, player: Player) -> i32 {
    share_of(&strengths(pos), player)
}

/// `player`'s share as a careless player sees it (its own chief's danger left out, see
/// [`strengths`]' terms), from 0 to [`SHARE_SCALE`]; 0 when `player` is not alive.
pub fn careless_share(pos: &Position, player: Player) -> i32 {
    share_of(
        &strengths_with(pos, Some(player), &Weights::DEFAULT),
        player,
    )
}

/// `player`'s part of the total of `s`, on [`SHARE_SCALE`].
fn share_of(s: &[i32; 4], player: Player) -> i32 {
    let total: i64 = s.iter().map(|&v| i64::from(v)).sum();
    if total == 0 {
        return 0;
    }
    (i64::from(s[player.index()]) * i64::from(SHARE_SCALE) / total) as i32
}

/// The score of a finished game for `player`, `ply` plies from the search's root: a win is
/// worth [`WIN`] (sooner is better), a loss `-WIN` (later is better), a draw shared by k players
/// `SHARE_SCALE / k` for each of them (the arena's scoring), and `-WIN` for the others.
pub fn terminal(pos: &Position, player: Player, ply: usize) -> i32 {
    let ply = ply as i32;
    match pos.outcome() {
        Outcome::Winner(x) if x == player => WIN - ply,
        Outcome::Draw(d) if d.contains(player) => SHARE_SCALE / d.len().max(1) as i32,
        Outcome::Ongoing => share(pos, player),
        _ => -WIN + ply,
    }
}

/// Below this fraction of a fair share a player counts as losing. 0.7: losing an Assassin
/// at the start is 0.9 of a fair share (not losing); a lone chief against one full army is 0.64,
/// against three 0.54 (losing).
pub const LOSING_FRACTION: f64 = 0.7;

/// What the engine thinks of a player's chances (for the server: a bot seat accepts a draw
/// offer when [`Assessment::losing`] is true).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Assessment {
    /// The player's estimated share of the game, 0.0 to 1.0 (a win is 1).
    pub share: f64,
    /// A fair share: 1 / the number of living players (what a draw would give).
    pub fair: f64,
    /// The share is below [`LOSING_FRACTION`] of the fair share, or the player is lost or out of
    /// the game: a draw would be worth clearly more than playing on.
    pub losing: bool,
}

/// A static assessment of `player`'s chances in `pos` (microseconds; no search).
/// [`Engine::assess`](crate::Engine::assess) adds a short search.
pub fn assess(pos: &Position, player: Player) -> Assessment {
    assessment_from_score(pos, player, terminal(pos, player, 0))
}

/// Turns a score for `player` into an [`Assessment`].
pub(crate) fn assessment_from_score(pos: &Position, player: Player, score: i32) -> Assessment {
    let alive = pos.alive();
    let fair = if alive.contains(player) {
        1.0 / alive.len().max(1) as f64
    } else {
        0.0
    };
    let share = if score >= WIN_THRESHOLD {
        1.0
    } else if score <= -WIN_THRESHOLD {
        0.0
    } else {
        (f64::from(score) / f64::from(SHARE_SCALE)).clamp(0.0, 1.0)
    };
    Assessment {
        share,
        fair,
        losing: !alive.contains(player) || share < LOSING_FRACTION * fair,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    #[test]
    fn start_is_a_fair_share() {
        let p = Position::new();
        for a in Army::ALL {
            assert_eq!(share(&p, a), SHARE_SCALE / 4);
            let x = assess(&p, a);
            assert!(!x.losing && (x.share - 0.25).abs() < 1e-9);
        }
    }

    #[test]
    fn a_lonely_chief_against_an_army_is_losing() {
        let p = Position::from_dpn(
            "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/9/9/9 b rb-- - 0 - 0 5",
            Rules::default(),
        )
        .unwrap();
        assert!(!assess(&p, Army::Red).losing);
        let lonely = Position::from_dpn(
            "Cr5MbRbCb/6MbDbAb/6NbMbMb/9/9/9/9/9/9 b rb-- - 0 - 0 5",
            Rules::default(),
        )
        .unwrap();
        assert!(assess(&lonely, Army::Red).losing);
        assert!(!assess(&lonely, Army::Blue).losing);
    }

    #[test]
    fn a_careless_player_does_not_see_its_chief_in_danger() {
        // Red's chief on e1 in line with blue's Assassin on e9, or not (d9): the real share
        // tells them apart, red's careless share does not.
        let rules = Rules::default();
        let danger = Position::from_dpn("Cb3Ab4/9/9/9/9/9/9/9/4Cr4 r rb-- - 0 - 0 1", rules);
        let safe = Position::from_dpn("Cb2Ab5/9/9/9/9/9/9/9/4Cr4 r rb-- - 0 - 0 1", rules);
        let (danger, safe) = (danger.unwrap(), safe.unwrap());
        assert!(share(&danger, Army::Red) < share(&safe, Army::Red));
        assert_eq!(
            careless_share(&danger, Army::Red),
            careless_share(&safe, Army::Red)
        );
        assert!(careless_share(&danger, Army::Red) > share(&danger, Army::Red));
    }

    #[test]
    fn terminal_scores() {
        let won =
            Position::from_dpn("Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9", Rules::default()).unwrap();
        assert_eq!(terminal(&won, Army::Red, 3), WIN - 3);
        assert_eq!(terminal(&won, Army::Blue, 3), -WIN + 3);
        let draw =
            Position::from_dpn("Cr8/9/9/9/9/9/9/9/8Cy - r-y- r 0 - 0 9", Rules::default()).unwrap();
        assert_eq!(terminal(&draw, Army::Yellow, 0), SHARE_SCALE / 2);
    }
}
