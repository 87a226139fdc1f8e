//! Legal-turn generation (R3–R7, R10.1): the single source of truth for legality.

use crate::piece::{Army, Cell, Controller, Piece, Player, Role};
use crate::position::Position;
use crate::square::{Direction, Square};
use crate::turn::{Move, Turn};

const MAZE_BIT: u128 = 1 << Square::MAZE.index();

#[inline]
fn bit(sq: Square) -> u128 {
    1 << sq.index()
}

/// Calls `f` with every square of `mask`, lowest index first.
#[inline]
fn for_each_square(mut mask: u128, mut f: impl FnMut(Square)) {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        f(Square::ALL[i]);
    }
}

/// What the player to move may move and act on, as lookup tables over [`Cell::bits`], computed
/// once per generation.
struct Ctx {
    /// Per cell value: a living enemy piece (R2.7, R11.2, R12.5); the mover's own chief never
    /// is, even with `own_kills`.
    enemy: [bool; Cell::VALUES],
    /// Per cell value: a living piece of an army the mover controls (R2.4).
    movable: [bool; Cell::VALUES],
    /// Empty squares before the move.
    empty: u128,
    diplomat_to_maze: bool,
}

impl Ctx {
    fn new(pos: &Position, mover: Player) -> Ctx {
        let mut enemy = [false; Cell::VALUES];
        let mut movable = [false; Cell::VALUES];
        for army in Army::ALL {
            let control = pos.control[army.index()];
            for role in Role::ALL {
                let piece = Piece { army, role };
                let bits = Cell::living(piece).bits() as usize;
                enemy[bits] = pos.is_enemy_piece(mover, piece);
                movable[bits] = control == Controller::Player(mover);
            }
        }
        Ctx {
            enemy,
            movable,
            empty: pos.board.empty_mask(),
            diplomat_to_maze: pos.rules.diplomat_to_maze,
        }
    }

    #[inline]
    fn is_enemy(&self, cell: Cell) -> bool {
        self.enemy[cell.bits() as usize]
    }
}

impl Position {
    /// Whether the living `piece` is an enemy piece for `player` (R2.7, R11.2): a piece of an
    /// army another player controls, or of the hostage, never of an orphaned army; with
    /// `own_kills` (R12.5) also of the player's own armies, its own chief excepted.
    pub(crate) fn is_enemy_piece(&self, player: Player, piece: Piece) -> bool {
        match self.control[piece.army.index()] {
            Controller::Hostage => true,
            Controller::Orphaned => false,
            Controller::Player(q) if q != player => true,
            Controller::Player(_) => {
                self.rules.own_kills && !(piece.role == Role::Chief && piece.army == player)
            }
        }
    }

    /// Whether the player to move controls the army of `piece` (R2.4).
    pub(crate) fn controls(&self, mover: Player, piece: Piece) -> bool {
        self.control[piece.army.index()] == Controller::Player(mover)
    }

    /// Calls `f` with every legal move (not the pass) of the player to move.
    pub(crate) fn for_each_move(&self, mut f: impl FnMut(Turn)) {
        let Some(mover) = self.to_move else { return };
        let ctx = Ctx::new(self, mover);
        for (from, cell) in self.board.iter() {
            if ctx.movable[cell.bits() as usize]
                && let Some(piece) = cell.piece()
            {
                self.piece_moves(&ctx, from, piece, &mut f);
            }
        }
    }

    /// Calls `f` with every legal move of the piece on `from`, if the player to move controls it.
    pub(crate) fn for_each_move_from(&self, from: Square, mut f: impl FnMut(Turn)) {
        let Some(mover) = self.to_move else { return };
        let Some(piece) = self.board[from].piece() else {
            return;
        };
        if self.controls(mover, piece) {
            self.piece_moves(&Ctx::new(self, mover), from, piece, &mut f);
        }
    }

    /// Every legal turn of the player to move: its moves, or `pass` alone when it has none
    /// (R8.6); nothing when the game is over.
    pub fn legal_turns(&self) -> Vec<Turn> {
        let mut out = Vec::new();
        self.legal_turns_into(&mut out);
        out
    }

    /// Like [`legal_turns`](Position::legal_turns), into a reused buffer (cleared first).
    pub fn legal_turns_into(&self, out: &mut Vec<Turn>) {
        out.clear();
        self.for_each_move(|t| out.push(t));
        if out.is_empty() && self.to_move.is_some() {
            out.push(Turn::Pass);
        }
    }

    /// The number of legal turns (what [`legal_turns`](Position::legal_turns) would list).
    pub fn count_legal(&self) -> usize {
        let mut n = 0;
        self.for_each_move(|_| n += 1);
        if n == 0 && self.to_move.is_some() {
            1
        } else {
            n
        }
    }

    /// Whether the player to move has a move other than a pass.
    pub fn has_move(&self) -> bool {
        // The generator does not stop early; positions without moves are rare.
        let mut any = false;
        self.for_each_move(|_| any = true);
        any
    }

    /// Whether `turn` is one of [`legal_turns`](Position::legal_turns). Allocates nothing.
    pub fn is_legal(&self, turn: &Turn) -> bool {
        match turn {
            Turn::Pass => self.to_move.is_some() && !self.has_move(),
            Turn::Move(m) => {
                let mut found = false;
                self.for_each_move_from(m.from, |t| found |= t == *turn);
                found
            }
        }
    }

    fn piece_moves(&self, ctx: &Ctx, from: Square, piece: Piece, f: &mut impl FnMut(Turn)) {
        let role = piece.role;
        let reach = if role == Role::Militant { 2 } else { 8 };
        for dir in Direction::ALL {
            for &to in from.ray(dir).iter().take(reach) {
                let cell = self.board[to];
                if cell.is_empty() {
                    if to.is_maze() {
                        // R3.4, R3.5: only a chief ends on the empty maze; others pass through.
                        if role == Role::Chief {
                            f(Turn::simple(from, to));
                        }
                        continue;
                    }
                    f(Turn::simple(from, to));
                    if role == Role::Reporter {
                        // R4.4: at most one victim, orthogonally next to the destination.
                        for n in to.orthogonal_neighbours() {
                            if n != from && ctx.is_enemy(self.board[n]) {
                                f(Turn::Move(Move {
                                    from,
                                    to,
                                    victim: Some(n),
                                    exit: None,
                                    place: None,
                                }));
                            }
                        }
                    }
                    continue;
                }
                if to.is_maze() {
                    self.maze_moves(ctx, from, piece, cell, f);
                } else {
                    self.field_action(ctx, from, to, piece, cell, f);
                }
                break; // R3.3: nothing jumps.
            }
        }
    }

    /// A destination on the field that holds a piece or a corpse (R4, R5).
    fn field_action(
        &self,
        ctx: &Ctx,
        from: Square,
        to: Square,
        piece: Piece,
        cell: Cell,
        f: &mut impl FnMut(Turn),
    ) {
        // R6.1: the start square is free for placement; R6.2: never the maze.
        let places = (ctx.empty | bit(from)) & !MAZE_BIT;
        let with_place = |place| {
            Turn::Move(Move {
                from,
                to,
                victim: None,
                exit: None,
                place: Some(place),
            })
        };
        match piece.role {
            Role::Chief | Role::Militant if ctx.is_enemy(cell) => {
                for_each_square(places, |p| f(with_place(p)));
            }
            Role::Assassin if ctx.is_enemy(cell) => f(Turn::simple(from, to)),
            Role::Diplomat if ctx.is_enemy(cell) => {
                let mut places = places;
                // R5.1 Decision: a displaced chief may be set down on the empty maze.
                if cell.role() == Some(Role::Chief)
                    && ctx.diplomat_to_maze
                    && ctx.empty & MAZE_BIT != 0
                {
                    places |= MAZE_BIT;
                }
                for_each_square(places, |p| f(with_place(p)));
            }
            Role::Necromobile if cell.is_corpse() => {
                for_each_square(places, |p| f(with_place(p)));
            }
            _ => {}
        }
    }

    /// The occupied maze as a destination (R7.3, R7.4, R7.6, R11.4).
    fn maze_moves(
        &self,
        ctx: &Ctx,
        from: Square,
        piece: Piece,
        occupant: Cell,
        f: &mut impl FnMut(Turn),
    ) {
        let maze = Square::MAZE;
        let chief_there = occupant.role() == Some(Role::Chief) && ctx.is_enemy(occupant);
        match piece.role {
            Role::Chief if chief_there => {
                // R7.6: the chief kills the occupant, takes the maze, buries the corpse.
                let places = (ctx.empty | bit(from)) & !MAZE_BIT;
                for_each_square(places, |p| {
                    f(Turn::Move(Move {
                        from,
                        to: maze,
                        victim: None,
                        exit: None,
                        place: Some(p),
                    }))
                });
            }
            Role::Assassin if chief_there => {
                // R7.4 Decision: the exit may pass over the start square but not end on it.
                let exits = self.maze_exits(ctx, from) & !bit(from);
                for_each_square(exits, |e| {
                    f(Turn::Move(Move {
                        from,
                        to: maze,
                        victim: None,
                        exit: Some(e),
                        place: None,
                    }))
                });
            }
            Role::Diplomat if chief_there => self.exit_and_place(ctx, from, f),
            Role::Necromobile if occupant.is_corpse() => self.exit_and_place(ctx, from, f),
            _ => {}
        }
    }

    /// R7.4 steps 2–3 for the Diplomat and the Necromobile: every exit, then every placement.
    fn exit_and_place(&self, ctx: &Ctx, from: Square, f: &mut impl FnMut(Turn)) {
        let exits = self.maze_exits(ctx, from);
        for_each_square(exits, |e| {
            let places = (ctx.empty | bit(from)) & !bit(e) & !MAZE_BIT;
            for_each_square(places, |p| {
                f(Turn::Move(Move {
                    from,
                    to: Square::MAZE,
                    victim: None,
                    exit: Some(e),
                    place: Some(p),
                }))
            });
        });
    }

    /// The empty field squares a piece can reach from the maze while the maze's occupant is
    /// off the board and the piece's start square is empty (R7.4 step 2).
    fn maze_exits(&self, ctx: &Ctx, from: Square) -> u128 {
        let free = ctx.empty | bit(from);
        let mut exits = 0u128;
        for dir in Direction::ALL {
            for &sq in Square::MAZE.ray(dir) {
                if free & bit(sq) == 0 {
                    break;
                }
                exits |= bit(sq);
            }
        }
        exits
    }
}
