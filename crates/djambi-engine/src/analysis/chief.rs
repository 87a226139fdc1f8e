//! The chief rule: a turn that lets the mover's chief be killed on the next turn, when a turn
//! existed that did not, is a blunder whatever the evaluation says. A chief killed is the whole
//! player out and its army gone to the killer (R9.1): no evaluation trade-off is worth that
//! when it could be avoided, and it is the mistake a post-game review must never miss.
//!
//! Decided with the rules alone, by playing the core's legal turns: a turn **exposes** the
//! mover's chief when, after it, the next player to move (whoever the turn order says: the
//! ruler's bonus turn included, R8.3–R8.5) has a legal turn after which that chief is no longer
//! on the board — killed by any piece, or encircled by corpses (R9.3). A turn after which the
//! mover's own chief is already gone exposes it too; a turn that ends the game does not.

use djambi_core::{Player, Position, Turn};

/// Whether playing `turn` (a legal turn) in `pos` exposes the mover's chief, as the module
/// defines it. `false` for a turn that is not legal or a finished game.
pub fn exposes_chief(pos: &Position, turn: &Turn) -> bool {
    let Some(mover) = pos.to_move() else {
        return false;
    };
    pos.is_legal(turn) && exposes(pos, mover, turn, &mut Vec::new())
}

/// The chief rule: whether `played` (a legal turn) exposes the mover's chief while another
/// legal turn of the mover does not. `hint`, a turn likely to be safe (the engine's choice), is
/// tried first; then every legal turn, until a safe one is found.
pub fn chief_blunder(pos: &Position, played: &Turn, hint: Option<&Turn>) -> bool {
    let Some(mover) = pos.to_move() else {
        return false;
    };
    if !pos.is_legal(played) {
        return false;
    }
    let mut replies = Vec::new();
    if !exposes(pos, mover, played, &mut replies) {
        return false;
    }
    if let Some(h) = hint
        && h != played
        && pos.is_legal(h)
        && !exposes(pos, mover, h, &mut replies)
    {
        return true;
    }
    pos.legal_turns()
        .iter()
        .filter(|t| *t != played && Some(*t) != hint)
        .any(|t| !exposes(pos, mover, t, &mut replies))
}

/// Whether `turn` (legal in `pos`, where `mover` is to move) exposes `mover`'s chief; `replies`
/// is scratch space for the next player's turns.
fn exposes(pos: &Position, mover: Player, turn: &Turn, replies: &mut Vec<Turn>) -> bool {
    let mut after = *pos;
    after.play_unchecked(turn);
    if after.board().chief(mover).is_none() {
        return true;
    }
    if after.is_game_over() {
        return false;
    }
    after.legal_turns_into(replies);
    replies.iter().any(|reply| {
        let mut next = after;
        next.play_unchecked(reply);
        next.board().chief(mover).is_none()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    fn pos(dpn: &str) -> Position {
        Position::from_dpn(dpn, Rules::default()).unwrap()
    }

    fn turn(p: &Position, text: &str) -> Turn {
        p.parse_turn(text).unwrap()
    }

    #[test]
    fn stepping_into_a_line_of_fire() {
        // Red's chief on a1; blue's Assassin on i9 holds the long diagonal (through the empty
        // maze), blue's chief on i5 holds rank 5. a1-a2 is safe; a1-b2 and a1-a5 are not.
        let p = pos("8Ab/9/9/9/8Cb/9/9/9/Cr8 r rb-- - 0 - 0 3");
        let safe = turn(&p, "a1-a2");
        let risky = turn(&p, "a1-b2");
        assert!(!exposes_chief(&p, &safe));
        assert!(exposes_chief(&p, &risky));
        assert!(exposes_chief(&p, &turn(&p, "a1-a5")));
        assert!(chief_blunder(&p, &risky, None));
        assert!(chief_blunder(&p, &risky, Some(&safe)));
        assert!(chief_blunder(&p, &risky, Some(&risky)));
        assert!(!chief_blunder(&p, &safe, Some(&risky)));
    }

    #[test]
    fn a_chief_lost_to_encirclement_counts() {
        // Blue's chief on a1 has corpses on a2 and b2 and no Necromobile; red's Militant on d1
        // can kill blue's Militant on c1 and bury it on b1: blue's chief is encircled (R9.3).
        // So blue's Militant standing still elsewhere exposes the chief, a1-b1 does not.
        let p = pos("8Cr/9/9/9/9/9/9/XX2Mb4/Cb1MbMr5 b rb-- - 0 - 0 3");
        let other = turn(&p, "e2-f2");
        assert!(exposes_chief(&p, &other));
        assert!(chief_blunder(&p, &other, None));
    }

    #[test]
    fn not_legal_or_game_over_is_never_a_blunder() {
        let p = pos("8Ab/9/9/9/8Cb/9/9/9/Cr8 r rb-- - 0 - 0 3");
        let wrong = Turn::Pass;
        assert!(!exposes_chief(&p, &wrong));
        assert!(!chief_blunder(&p, &wrong, None));
        let over = pos("Cr8/9/9/9/9/9/9/9/9 - r--- r 0 - 0 9");
        assert!(!chief_blunder(&over, &wrong, None));
    }
}
