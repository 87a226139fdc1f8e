//! # djambi-core
//!
//! The rules of Djambi ("Machiavelli's chessboard", Jean Anesto, 1975) as the repository's
//! `docs/RULES.md` states them (clause ids `R1.1` … `R12.6`, cited throughout), with the
//! notations of `docs/NOTATION.md`: positions (DPN), turn text, legal-turn generation, playing
//! turns with their effects, resignations, draws, rankings and game records. Pure: no I/O, no
//! async.
//!
//! ```
//! use djambi_core::{Position, Rules, Outcome};
//!
//! let mut pos = Position::new();
//! assert_eq!(pos.legal_turns().len(), 30);
//! let turn = pos.parse_turn("b7-b5").unwrap();
//! pos.play(&turn).unwrap();
//! assert_eq!(pos.to_move().map(|p| p.char()), Some('b'));
//! assert_eq!(pos.outcome(), Outcome::Ongoing);
//!
//! // Illegal turns say which rule forbids them, and change nothing.
//! let before = pos;
//! let err = pos.parse_turn("g7-e5").unwrap_err();
//! assert_eq!(err.to_string(), "e5: only a chief may end a move on the maze (R3.5)");
//! assert_eq!(pos, before);
//!
//! // Positions read and write DPN.
//! let again = Position::from_dpn(&pos.to_dpn(), Rules::default()).unwrap();
//! assert_eq!(again, pos);
//! ```

// Modules depend on each other one way only, each on modules listed before it
// (tests/module_layers.rs checks the `crate::` paths against this order):
//
//   square   piece   rules        (no dependencies inside the crate)
//   turn     → square
//   board    → piece, square
//   position → board, piece, rules, square
//   notation → board, piece, position, rules, square   (every text form of a position)
//   movegen  → piece, position, square, turn
//   illegal  → piece, position, square, turn; calls movegen
//   effect   → piece, position, square
//   play     → effect, illegal, piece, position, rules, square, turn; calls movegen
//   perft    → position, turn; calls movegen, play
//   game     → effect, illegal, piece, play, position, rules, turn
//   record   → game, piece, position, rules, turn; calls notation
//   fuzzing  → game, illegal, notation, piece, position, record, rules, square, turn
//              (hidden: the invariants of the fuzz targets under fuzz/ and their corpus replay)
//
// "calls" marks methods of `Position` that a module uses but that another module defines
// (`impl Position` blocks are spread over movegen, illegal, play and notation); they follow the
// same order.

mod board;
mod effect;
#[doc(hidden)]
pub mod fuzzing;
mod game;
mod illegal;
mod movegen;
mod notation;
mod perft;
mod piece;
mod play;
mod position;
mod record;
mod rules;
mod square;
mod turn;

pub use board::Board;
pub use effect::Effect;
pub use game::{Game, GameError, GameEvent, GameMark};
pub use illegal::{IllegalKind, IllegalTurn};
pub use notation::{MAX_DPN_LEN, START_DPN, board_field, parse_setup};
pub use perft::perft;
pub use piece::{Army, ArmySet, Cell, Controller, Piece, Player, Role};
pub use play::StateError;
pub use position::{Field, Outcome, Position, Setup, SetupError};
pub use record::{
    ClockMeta, EventRecord, GameRecord, PlayerMeta, RECORD_FORMAT, RecordError, RecordMeta,
    ResultRecord,
};
pub use rules::{ParseRulesError, Rules};
pub use square::{Direction, ParseSquareError, Square};
pub use turn::{MAX_TURN_LEN, Move, ParseTurnError, Turn, TurnText};
