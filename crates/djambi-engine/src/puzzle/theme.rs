//! A puzzle's theme: what its answer does, read from the rules alone (the answer's effects and
//! who could kill whose chief), so that a person sees the reason after the fact.
//!
//! In order of precedence, the answer of the player `P` to move
//! 1. `encircle`: leaves an enemy chief surrounded by corpses, and so dead (R9.3);
//! 2. `kill_chief`: kills an enemy chief (R9.1);
//! 3. `take_maze`: puts `P`'s chief on the maze (power, R7.1) where no opponent can kill it
//!    before `P` moves again;
//! 4. `escape_trap`: `P`'s chief could be killed by two or more opponents (two enemy pieces,
//!    of one player or two: no single parry stops both), and the answer moves it where no
//!    opponent can;
//! 5. `save_chief`: `P`'s chief could be killed, and the answer (the chief stepping away from
//!    one threat, or another piece: a Necromobile carrying off a corpse, a piece covering the
//!    line, a kill of the attacker) leaves no opponent able to;
//! 6. `win_material`: kills a piece, with `P`'s chief no more in danger after it than before.
//!
//! "Could be killed" is [`threats`]: the enemy pieces of the opponents who move before `P` does
//! again that have a legal turn (if it were their player's move now) after which `P`'s chief is
//! gone — killed, or encircled by a corpse set down.

use std::fmt;
use std::str::FromStr;

use djambi_core::{ArmySet, Effect, Player, Position, Role, Turn};

/// What a puzzle is about (PUZZLE_FORMAT's `theme`, written in snake case).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// Kill an enemy chief now.
    KillChief,
    /// A chief threatened by two opponents gets out.
    EscapeTrap,
    /// Save your chief: the Necromobile, or another piece (bury, move, cover).
    SaveChief,
    /// Kill an enemy chief by encirclement (R9.3).
    Encircle,
    /// Take the maze with the chief, safely (power, R7.1).
    TakeMaze,
    /// The clearly best gain of material.
    WinMaterial,
}

impl Theme {
    /// Every theme, in the module's order of precedence.
    pub const ALL: [Theme; 6] = [
        Theme::Encircle,
        Theme::KillChief,
        Theme::TakeMaze,
        Theme::EscapeTrap,
        Theme::SaveChief,
        Theme::WinMaterial,
    ];

    /// The theme's name as the puzzle file writes it (`kill_chief`).
    pub const fn name(self) -> &'static str {
        match self {
            Theme::KillChief => "kill_chief",
            Theme::EscapeTrap => "escape_trap",
            Theme::SaveChief => "save_chief",
            Theme::Encircle => "encircle",
            Theme::TakeMaze => "take_maze",
            Theme::WinMaterial => "win_material",
        }
    }

    /// The theme's place in [`Theme::ALL`].
    pub const fn index(self) -> usize {
        match self {
            Theme::Encircle => 0,
            Theme::KillChief => 1,
            Theme::TakeMaze => 2,
            Theme::EscapeTrap => 3,
            Theme::SaveChief => 4,
            Theme::WinMaterial => 5,
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Theme {
    type Err = String;

    /// A theme's name, as [`Theme::name`] writes it.
    fn from_str(s: &str) -> Result<Theme, String> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| format!("unknown theme {s:?}"))
    }
}

/// The theme of `answer` (a legal turn) in `pos`, as the module defines it; `None` when it has
/// none (a quiet turn: not a puzzle), or `answer` is not legal.
pub fn classify(pos: &Position, answer: &Turn) -> Option<Theme> {
    let me = pos.to_move()?;
    let mut after = *pos;
    let effects = after.play_with_effects(answer).ok()?;
    let enemy_chief_killed = effects.iter().any(|e| {
        matches!(e, Effect::Killed { piece, .. } if piece.role == Role::Chief && piece.army != me)
    });
    if effects
        .iter()
        .any(|e| matches!(e, Effect::Encircled { player, .. } if *player != me))
    {
        return Some(Theme::Encircle);
    }
    if enemy_chief_killed {
        return Some(Theme::KillChief);
    }
    // A turn after which the solver's own chief is gone is no puzzle.
    after.board().chief(me)?;
    let trap = threats(pos, me);
    let (before, remaining) = (trap.players, threats(&after, me).players);
    let took_power = effects
        .iter()
        .any(|e| matches!(e, Effect::TookPower { player } if *player == me));
    if took_power && remaining.is_empty() {
        return Some(Theme::TakeMaze);
    }
    if !before.is_empty() && remaining.is_empty() {
        let chief_moved = effects.iter().any(|e| {
            matches!(e, Effect::Moved { piece, .. } if piece.role == Role::Chief && piece.army == me)
        });
        return Some(if chief_moved && trap.attackers >= 2 {
            Theme::EscapeTrap
        } else {
            Theme::SaveChief
        });
    }
    let killed = effects
        .iter()
        .any(|e| matches!(e, Effect::Killed { piece, .. } if piece.army != me));
    (killed && before.is_superset(remaining)).then_some(Theme::WinMaterial)
}

/// Who could kill a chief before its player moves again ([`threats`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Threats {
    /// The opponents who could.
    pub players: ArmySet,
    /// The enemy pieces that could (each counted once, whatever the ways it has).
    pub attackers: usize,
}

/// The opponents of `player` (alive in `pos`) who move before `player` does again and could,
/// if it were their move now, make a legal turn after which `player`'s chief is gone, and the
/// pieces that would make it. None when `player` is not alive or the game is over.
pub fn threats(pos: &Position, player: Player) -> Threats {
    let mut out = Threats::default();
    if !pos.is_alive(player) || pos.is_game_over() {
        return out;
    }
    let mut turns = Vec::new();
    let mut pieces = Vec::new();
    for q in movers_before(pos, player).iter() {
        let Some(as_q) = with_mover(pos, q) else {
            continue;
        };
        as_q.legal_turns_into(&mut turns);
        for t in &turns {
            let Some(m) = t.as_move() else { continue };
            if pieces.contains(&m.from) {
                continue;
            }
            let mut next = as_q;
            next.play_unchecked(t);
            if next.board().chief(player).is_none() {
                pieces.push(m.from);
                out.players = out.players.with(q);
            }
        }
    }
    out.attackers = pieces.len();
    out
}

/// The players other than `player` who move, in the rules' order, before `player`'s next turn
/// (from the player to move; `player` itself, when to move, does not count as its next turn).
fn movers_before(pos: &Position, player: Player) -> ArmySet {
    let mut out = ArmySet::EMPTY;
    let coming = pos.coming_turns(12);
    let skip = usize::from(coming.first() == Some(&player));
    for &q in &coming[skip..] {
        if q == player {
            break;
        }
        out = out.with(q);
    }
    out
}

/// `pos` with `q` to move (a bonus turn if `q` rules), nobody having passed: the position in
/// which `q`'s possible turns are read. `None` if the rules do not allow it.
fn with_mover(pos: &Position, q: Player) -> Option<Position> {
    if pos.to_move() == Some(q) {
        return Some(*pos);
    }
    let mut setup = pos.to_setup();
    setup.to_move = Some(q);
    setup.bonus = u8::from(pos.ruler() == Some(q));
    setup.passed = ArmySet::EMPTY;
    Position::from_setup(setup, pos.rules()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::{Army, Rules};

    fn pos(dpn: &str) -> Position {
        Position::from_dpn(dpn, Rules::default()).unwrap()
    }

    #[test]
    fn names_round_trip() {
        for (i, t) in Theme::ALL.into_iter().enumerate() {
            assert_eq!(t.name().parse::<Theme>(), Ok(t));
            assert_eq!(t.index(), i);
        }
        assert!("kill".parse::<Theme>().is_err());
    }

    fn theme(dpn: &str, turn: &str) -> Option<Theme> {
        let p = pos(dpn);
        classify(&p, &p.parse_turn(turn).unwrap())
    }

    #[test]
    fn each_theme_from_what_the_answer_does() {
        // Blue's chief on a1 has corpses on a2 and b2 and no Necromobile: red's Militant kills
        // on c1 and buries the corpse on b1 (R9.3); elsewhere, it only takes a Militant.
        let ring = "8Cr/9/9/9/9/9/9/XX2Mb4/Cb1MbMr5 r rb-- - 0 - 0 3";
        assert_eq!(theme(ring, "d1-c1@b1"), Some(Theme::Encircle));
        assert_eq!(theme(ring, "d1-c1@d1"), Some(Theme::WinMaterial));
        // Red's Assassin takes blue's chief up the a file.
        let kill = "Cb8/9/9/9/9/9/9/9/Ar3Cr4 r rb-- - 0 - 0 3";
        assert_eq!(theme(kill, "a1-a9"), Some(Theme::KillChief));
        // Red's chief walks to the maze; its Militant on d6 closes blue's chief's diagonal.
        let maze = "Cb8/9/9/3Mr5/9/9/9/9/4Cr4 r rb-- - 0 - 0 3";
        assert_eq!(theme(maze, "e1-e5"), Some(Theme::TakeMaze));
        assert_eq!(theme(maze, "e1-e4"), None);
        // Blue's Assassin (the long diagonal) and Militant (a3, two squares up the file) both
        // reach red's chief on a1: b1 is out of both reaches.
        let trap = "8Ab/9/9/9/8Cb/9/Mb8/9/Cr8 r rb-- - 0 - 0 3";
        assert_eq!(threats(&pos(trap), Army::Red).attackers, 2);
        assert_eq!(theme(trap, "a1-b1"), Some(Theme::EscapeTrap));
        assert_eq!(theme(trap, "a1-b2"), None);
        // An Assassin takes a Militant, no chief in danger; a quiet chief's step is no theme.
        let take = "Cb8/9/9/9/9/9/9/Mb8/Ar6Cr1 r rb-- - 0 - 0 3";
        assert_eq!(theme(take, "a1-a2"), Some(Theme::WinMaterial));
        assert_eq!(theme(take, "h1-h2"), None);
        // Not a legal turn: no theme.
        assert_eq!(classify(&pos(take), &Turn::Pass), None);
    }

    #[test]
    fn threats_count_the_opponents_who_move_first() {
        // Red's chief on a1; blue's Assassin on i9 holds the long diagonal (the maze is empty),
        // blue's chief on i5 holds rank 5. Red to move: only blue moves before red again.
        let p = pos("8Ab/9/9/9/8Cb/9/9/9/Cr8 r rb-- - 0 - 0 3");
        let t = threats(&p, Army::Red);
        assert!(t.players.contains(Army::Blue) && t.players.len() == 1);
        assert_eq!(t.attackers, 1);
        let after = {
            let mut q = p;
            q.play(&q.parse_turn("a1-a2").unwrap()).unwrap();
            q
        };
        assert_eq!(threats(&after, Army::Red), Threats::default());
        assert_eq!(
            classify(&p, &p.parse_turn("a1-a2").unwrap()),
            Some(Theme::SaveChief)
        );
    }
}
