//! Representative placements. A kill by a Chief or a Militant, a Diplomat's displacement and a
//! Necromobile's carry each end with a free choice of square (R10.1): about fifty turns that
//! differ only in where a corpse or a piece is set down, and a thousand for turns that act in the
//! maze (exit × placement). Searching them all would spend the whole tree on equivalent choices,
//! so the search keeps, for each group of turns that differ only in their placement, a few
//! squares that stand for the choices that matter:
//!
//! - **encircle**: for a corpse, the empty square next to an enemy chief (off the maze) that
//!   brings it closest to encirclement (R9.3) — most corpses already round it, no Necromobile to
//!   save it;
//! - **trap**: for a displaced enemy chief, the square most closed in by corpses (possibly an
//!   encirclement at once), and the maze itself (to block it with the hostage chief, or to set a
//!   chief up as a target);
//! - **home**: the mover's own start square, the natural "put it down where I was";
//! - **far**: the square farthest from the mover's own chief (a displaced enemy piece, or a corpse
//!   that must not wall in the mover's chief);
//! - **threat**: for a piece an opponent of the searching player displaces, the square next to
//!   that player's chief. Two opponents together can kill a chief this way (one's Diplomat sets a
//!   third army's Militant down beside it, the third army kills it next turn): the classic
//!   opening trap, which the search must see;
//! - **exposed**: for the searching player's own chief displaced by an opponent's Diplomat, the
//!   square where the most enemy pieces could kill it next move (the same trap the other way
//!   round: the chief set down in an Assassin's line, the Assassin's army next to move).
//!
//! Every turn kept is one of the position's legal turns, copied from the generator's list.

use djambi_core::{Army, Controller, Player, Position, Role, Square, Turn};

/// Placements kept per group inside the tree (the quiescence search keeps one per kill).
pub(crate) const PER_GROUP: usize = 3;

/// Per-node facts about squares, computed once per position.
pub(crate) struct PlaceCtx {
    /// Corpse placement value next to enemy chiefs (0: no enemy chief beside it).
    encircle: [i8; 81],
    /// Distance (king moves) from the mover's nearest own chief; squares next to it are -1.
    far: [i8; 81],
    /// Squares next to the searching player's chief (off the maze), when an opponent moves.
    threat: [bool; 81],
    /// The searching player, when it is not the mover (an opponent's node).
    root: Option<Player>,
}

impl PlaceCtx {
    /// The facts of `pos` for a search on behalf of `root` (`None`: nobody in particular).
    pub(crate) fn new(pos: &Position, root: Option<Player>) -> PlaceCtx {
        let board = pos.board();
        let mover = pos.to_move();
        let root = root.filter(|r| Some(*r) != mover);
        let mut ctx = PlaceCtx {
            encircle: [0; 81],
            far: [8; 81],
            threat: [false; 81],
            root,
        };
        let scan = crate::eval::material::scan(board);
        if let Some(c) = root.and_then(|r| scan.chief[r.index()]) {
            for n in c.neighbours() {
                ctx.threat[n.index()] = !n.is_maze();
            }
        }
        if let Some(c) = mover.and_then(|m| scan.chief[m.index()]) {
            for sq in Square::ALL {
                let d = sq
                    .file()
                    .abs_diff(c.file())
                    .max(sq.rank().abs_diff(c.rank())) as i8;
                ctx.far[sq.index()] = if d <= 1 { -1 } else { d };
            }
        }
        for army in Army::ALL {
            let Controller::Player(p) = pos.control(army) else {
                continue;
            };
            if p != army || Some(p) == mover {
                continue;
            }
            let Some(chief) = scan.chief[p.index()] else {
                continue;
            };
            if chief.is_maze() {
                continue;
            }
            let has_necro = Army::ALL.into_iter().any(|a| {
                pos.control(a) == Controller::Player(p) && scan.has_necromobile(a.index())
            });
            let corpses = chief.neighbours().filter(|n| board[*n].is_corpse()).count() as i8;
            let value = 1 + 2 * corpses + if has_necro { 0 } else { 6 };
            for n in chief.neighbours() {
                if board[n].is_empty() {
                    let e = &mut ctx.encircle[n.index()];
                    *e = (*e).max(value);
                }
            }
        }
        ctx
    }
}

/// How closed in by corpses a square is, for setting down an enemy chief: corpses around it
/// count, open neighbours count against (all corpses: encircled at once, R9.3).
fn trap(board: &djambi_core::Board, sq: Square) -> i32 {
    let mut v = 0;
    for n in sq.neighbours() {
        v += if board[n].is_corpse() { 4 } else { -1 };
    }
    v
}

/// What is set down at the end of a group of turns.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Placed {
    Corpse,
    Piece,
    Chief,
}

/// For the searching player's chief displaced by an opponent (the move `m`), how exposed it
/// would be on each square: the enemy pieces that could kill it next move by
/// [`crate::eval::safety::attackers`] on the board after the Diplomat's move, those of the
/// player moving next counting eight times (they strike first). `None` when `m` displaces no
/// chief of `root`.
fn exposure(pos: &Position, root: Option<Player>, m: &djambi_core::Move) -> Option<[i8; 81]> {
    let root = root?;
    let board = pos.board();
    let chief = board[m.to].piece()?;
    if chief.role != Role::Chief || chief.army != root {
        return None;
    }
    let mut cells = crate::eval::geometry::codes(board);
    cells[m.to.index()] = cells[m.from.index()];
    cells[m.from.index()] = 0;
    let control = crate::eval::safety::controllers(pos);
    let enemies = crate::eval::safety::moving_enemies(&control, root);
    let mut after = *pos;
    after.play_unchecked(&Turn::Move(*m));
    let next = after.to_move().filter(|p| *p != root);
    let first: u8 = Army::ALL
        .into_iter()
        .filter(|a| next.is_some() && control[a.index()] == next)
        .map(|a| 1 << a.index())
        .sum();
    let mut out = [0i8; 81];
    for sq in Square::ALL {
        let k = sq.index();
        if cells[k] == 0 {
            let all = crate::eval::safety::attackers(&cells, k, enemies);
            let strike = crate::eval::safety::attackers(&cells, k, first);
            out[k] = (8 * strike + all).min(i32::from(i8::MAX)) as i8;
        }
    }
    Some(out)
}

/// Calls `keep` with the turns of `all` (a position's legal turns, in generator order) that the
/// search considers: every turn without a placement, and up to `per_group` representative
/// placements of each group of turns differing only in their placement (`per_group` ≥ 1).
pub(crate) fn reduce(
    pos: &Position,
    ctx: &PlaceCtx,
    all: &[Turn],
    per_group: usize,
    keep: impl FnMut(Turn),
) {
    reduce_if(pos, ctx, all, per_group, |_| true, keep)
}

/// The turns of `legal` (a position's legal turns, in generator order) that the search's root
/// starts from: every turn without a placement, and [`PER_GROUP`] representative placements of
/// each group, chosen for nobody in particular. For players outside the engine that want the
/// search's view of a position's choices (the lab's MCTS).
pub fn representatives(pos: &Position, legal: &[Turn], keep: impl FnMut(Turn)) {
    reduce(pos, &PlaceCtx::new(pos, None), legal, PER_GROUP, keep)
}

/// Like [`reduce`], for the turns (and groups of turns) that `wanted` accepts: it is asked once
/// per group, with the group's first turn (every turn of a group moves the same piece to the same
/// square and acts on the same victim).
pub(crate) fn reduce_if(
    pos: &Position,
    ctx: &PlaceCtx,
    all: &[Turn],
    per_group: usize,
    wanted: impl Fn(&Turn) -> bool,
    mut keep: impl FnMut(Turn),
) {
    let board = pos.board();
    let mut i = 0;
    while i < all.len() {
        let t = all[i];
        let Turn::Move(m) = t else {
            if wanted(&t) {
                keep(t);
            }
            i += 1;
            continue;
        };
        if m.place.is_none() {
            if wanted(&t) {
                keep(t);
            }
            i += 1;
            continue;
        }
        // The group: consecutive turns with the same piece, destination, victim and exit.
        let mut j = i + 1;
        while j < all.len() {
            match all[j] {
                Turn::Move(n)
                    if n.from == m.from
                        && n.to == m.to
                        && n.victim == m.victim
                        && n.exit == m.exit
                        && n.place.is_some() =>
                {
                    j += 1
                }
                _ => break,
            }
        }
        let group = &all[i..j];
        if !wanted(&t) {
            i = j;
            continue;
        }
        let mover_role = board[m.from].role();
        // A piece the searching player does not control, set down by one of its opponents.
        let hostile = ctx.root.is_some_and(|r| {
            board[m.to]
                .piece()
                .is_some_and(|v| pos.control(v.army) != Controller::Player(r))
        });
        let placed = match mover_role {
            Some(Role::Diplomat) => {
                if board[m.to].role() == Some(Role::Chief) {
                    Placed::Chief
                } else {
                    Placed::Piece
                }
            }
            _ => Placed::Corpse,
        };
        let exposed = match placed {
            Placed::Chief => exposure(pos, ctx.root, &m),
            _ => None,
        };
        let mut picks: [Option<Square>; 4] = [None; 4];
        let mut best = [i32::MIN; 4];
        for g in group {
            let Some(p) = g.as_move().and_then(|x| x.place) else {
                continue;
            };
            let k = p.index();
            // Category 0: encircle (corpses) or trap (chiefs); 2: far; 3: maze.
            let cat0 = match placed {
                Placed::Corpse if ctx.encircle[k] > 0 && !p.is_maze() => {
                    i32::from(ctx.encircle[k]) * 16 + i32::from(ctx.far[k])
                }
                Placed::Chief if !p.is_maze() => trap(board, p),
                Placed::Piece if hostile && ctx.threat[k] => 1,
                _ => i32::MIN,
            };
            // Category 1: home, or for the searching player's own chief, exposed.
            let cat1 = match &exposed {
                Some(e) if e[k] > 0 => i32::from(e[k]),
                Some(_) => i32::MIN,
                None if p == m.from => 1,
                None => i32::MIN,
            };
            let scores = [
                cat0,
                cat1,
                if p.is_maze() {
                    i32::MIN
                } else {
                    i32::from(ctx.far[k])
                },
                if p.is_maze() { 1 } else { i32::MIN },
            ];
            for c in 0..4 {
                if scores[c] > best[c] {
                    best[c] = scores[c];
                    picks[c] = Some(p);
                }
            }
        }
        let mut kept = 0;
        let order: [usize; 4] = match placed {
            Placed::Corpse => [0, 1, 2, 3],
            Placed::Chief if exposed.is_some() => [1, 0, 3, 2],
            Placed::Chief => [0, 3, 2, 1],
            Placed::Piece => [0, 2, 1, 3],
        };
        let mut chosen: [Option<Square>; 4] = [None; 4];
        for c in order {
            if kept >= per_group {
                break;
            }
            if let Some(p) = picks[c]
                && !chosen.contains(&Some(p))
            {
                chosen[kept] = Some(p);
                kept += 1;
            }
        }
        if kept == 0 {
            chosen[0] = group[0].as_move().and_then(|x| x.place);
        }
        for g in group {
            if chosen.contains(&g.as_move().and_then(|x| x.place)) {
                keep(*g);
            }
        }
        i = j;
    }
}

/// Whether `t` kills, and whom: the living piece it kills, if any.
pub(crate) fn victim(pos: &Position, t: &Turn) -> Option<djambi_core::Piece> {
    let m = t.as_move()?;
    let board = pos.board();
    if let Some(v) = m.victim {
        return board[v].piece();
    }
    let mover = board[m.from].piece()?;
    let target = board[m.to].piece()?;
    match mover.role {
        Role::Chief | Role::Militant | Role::Assassin => Some(target),
        _ => None,
    }
}

/// Game 86 of an arena match against the outside referee's Max-N-2 players (500 000 nodes,
/// `--seed 2000`, issue 24) up to yellow's 19th turn, `c6-b7@e1`, after which green's Diplomat
/// sets yellow's Chief down in red's Assassin's line: the position the tests of the chief in
/// harm's way start from.
#[cfg(test)]
pub(crate) fn game_86() -> Position {
    let mut p = Position::new();
    let line = "c7-d7 g9-e7 h3-g4 c2-d1 b8-g3@f7 g8-f7@g9 i3-g3@b8 b1-g6xg7 c9-e7@e9 f7-e7@e4 \
                g4-g6@b1 b2-g2@b5 d7-c6 h7-g6@b6 b5-c6@b2 g2-h1@c9 c8-c9@d3 e7-c9@g8";
    for t in line.split_whitespace() {
        let t = p.parse_turn(t).unwrap();
        p.play(&t).unwrap();
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Rules;

    #[test]
    fn groups_shrink_and_stay_legal() {
        // The benchmark's maze position: over a thousand turns.
        let p = Position::from_dpn(
            "1ArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr4NbMb/9/4Cr4/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy b rbyg r 0 - 1 2",
            Rules::default(),
        )
        .unwrap();
        let all = p.legal_turns();
        assert_eq!(all.len(), 1041);
        let ctx = PlaceCtx::new(&p, None);
        let mut kept = Vec::new();
        reduce(&p, &ctx, &all, 3, |t| kept.push(t));
        assert!(kept.len() < 200, "{}", kept.len());
        assert!(kept.iter().all(|t| all.contains(t)));
    }

    /// The trap the other way round (an arena game against `referee`): green's Diplomat on h1
    /// displaces yellow's Chief from i1 onto g4, in line with red's Assassin on b9, and red kills
    /// it next. Searching for yellow, that square is kept among green's placements.
    #[test]
    fn the_searching_players_chief_is_kept_in_harms_way() {
        let mut p = game_86();
        p.play(&p.parse_turn("c6-b7@e1").unwrap()).unwrap();
        let trap = p.parse_turn("h1-i1@g4").unwrap();
        let all = p.legal_turns();
        let mut kept = Vec::new();
        reduce(&p, &PlaceCtx::new(&p, Some(Army::Yellow)), &all, 3, |t| {
            kept.push(t)
        });
        assert!(kept.contains(&trap), "yellow's search keeps h1-i1@g4");
        // Searching for nobody in particular, the square stands for nothing.
        let mut kept = Vec::new();
        reduce(&p, &PlaceCtx::new(&p, None), &all, 3, |t| kept.push(t));
        assert!(!kept.contains(&trap));
        // Played out: red's Assassin takes the Chief and yellow is out.
        p.play(&trap).unwrap();
        p.play(&p.parse_turn("b9-g4").unwrap()).unwrap();
        assert!(!p.is_alive(Army::Yellow));
    }
}
