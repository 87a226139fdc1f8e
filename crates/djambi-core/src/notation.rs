//! DPN, the Djambi Position Notation (NOTATION §2): strict parsing and canonical formatting.
//!
//! Every text form of a board or a position lives here — `Position::from_dpn`, `to_dpn`,
//! `FromStr`, and the `Display`/`Debug` impls of `Position` and `Board` — so that board.rs and
//! position.rs need nothing from this module.

use std::fmt::{self, Write};
use std::str::FromStr;

use crate::board::Board;
use crate::piece::{Army, ArmySet, Cell, Controller, Piece, Role};
use crate::position::{Field, Position, Setup, SetupError};
use crate::rules::{Rules, parse_number};
use crate::square::Square;

/// The 4-player start position in DPN.
pub const START_DPN: &str = "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1";

/// The longest DPN this parser reads: far above any real position (at most ~190 bytes), and a
/// bound on the work an untrusted string can cause.
pub const MAX_DPN_LEN: usize = 512;

/// Formats the board field: ranks 9 to 1 separated by `/`.
pub fn board_field(board: &Board) -> String {
    let mut out = String::with_capacity(96);
    for rank in (0..9).rev() {
        let mut run = 0;
        for file in 0..9 {
            let sq = Square::from_coords(file, rank).expect("on the board");
            let cell = board[sq];
            if cell.is_empty() {
                run += 1;
                continue;
            }
            if run > 0 {
                out.push((b'0' + run) as char);
                run = 0;
            }
            match cell.piece() {
                Some(p) => {
                    out.push(p.role.char());
                    out.push(p.army.char());
                }
                None => out.push('X'),
            }
        }
        if run > 0 {
            out.push((b'0' + run) as char);
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

fn player_or_dash(p: Option<Army>) -> char {
    p.map_or('-', Army::char)
}

/// Formats a position in DPN.
pub fn dpn(pos: &Position) -> String {
    let mut out = board_field(pos.board());
    let control: String = Army::ALL.iter().map(|a| pos.control(*a).char()).collect();
    let _ = write!(
        out,
        " {} {} {} {} {} {} {}",
        player_or_dash(pos.to_move()),
        control,
        player_or_dash(pos.last_regular()),
        pos.bonus(),
        pos.passed(),
        pos.quiet(),
        pos.turn()
    );
    out
}

fn parse_board(s: &str) -> Result<Board, SetupError> {
    let err = |r: String| SetupError::new(Field::Board, r);
    let ranks: Vec<&str> = s.split('/').collect();
    if ranks.len() != 9 {
        return Err(err(format!(
            "{} ranks, expected 9 separated by /",
            ranks.len()
        )));
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = 8 - i as u8;
        let mut file: u32 = 0;
        let mut chars = text.chars().peekable();
        let mut last_digit = false;
        while let Some(c) = chars.next() {
            let at = |file: u32| {
                Square::from_coords(file as u8, rank)
                    .ok_or_else(|| err(format!("rank {} describes more than 9 squares", rank + 1)))
            };
            match c {
                '1'..='9' => {
                    if last_digit {
                        return Err(err(format!("rank {}: two digits in a row", rank + 1)));
                    }
                    last_digit = true;
                    file += c as u32 - '0' as u32;
                    if file > 9 {
                        return Err(err(format!(
                            "rank {} describes more than 9 squares",
                            rank + 1
                        )));
                    }
                    continue;
                }
                'X' => {
                    board[at(file)?] = Cell::CORPSE;
                }
                _ => {
                    let role = Role::from_char(c)
                        .ok_or_else(|| err(format!("rank {}: unknown letter {c:?}", rank + 1)))?;
                    let army = chars.next().and_then(Army::from_char).ok_or_else(|| {
                        err(format!(
                            "rank {}: {c} must be followed by an army letter r, b, y or g",
                            rank + 1
                        ))
                    })?;
                    board[at(file)?] = Cell::living(Piece { army, role });
                }
            }
            last_digit = false;
            file += 1;
        }
        if file != 9 {
            return Err(err(format!(
                "rank {} describes {file} squares, expected 9",
                rank + 1
            )));
        }
    }
    Ok(board)
}

fn parse_player(field: Field, s: &str) -> Result<Option<Army>, SetupError> {
    match s {
        "-" => Ok(None),
        _ => {
            let mut chars = s.chars();
            match (chars.next().and_then(Army::from_char), chars.next()) {
                (Some(a), None) => Ok(Some(a)),
                _ => Err(SetupError::new(
                    field,
                    format!("expected r, b, y, g or -, found {s:?}"),
                )),
            }
        }
    }
}

fn parse_control(s: &str) -> Result<[Controller; 4], SetupError> {
    let chars: Vec<char> = s.chars().collect();
    if chars.len() != 4 {
        return Err(SetupError::new(
            Field::Control,
            format!("expected 4 characters, found {s:?}"),
        ));
    }
    let mut control = [Controller::Orphaned; 4];
    for (i, c) in chars.into_iter().enumerate() {
        control[i] = match c {
            '-' => Controller::Orphaned,
            'h' => Controller::Hostage,
            _ => Controller::Player(Army::from_char(c).ok_or_else(|| {
                SetupError::new(
                    Field::Control,
                    format!("unknown letter {c:?} (expected r, b, y, g, - or h)"),
                )
            })?),
        };
    }
    Ok(control)
}

fn parse_passed(s: &str) -> Result<ArmySet, SetupError> {
    let err = |r: String| SetupError::new(Field::Passed, r);
    if s == "-" {
        return Ok(ArmySet::EMPTY);
    }
    let mut set = ArmySet::EMPTY;
    let mut last: Option<Army> = None;
    for c in s.chars() {
        let a = Army::from_char(c).ok_or_else(|| err(format!("unknown letter {c:?}")))?;
        if set.contains(a) {
            return Err(err(format!("player {a} named twice")));
        }
        if last.is_some_and(|l| l > a) {
            return Err(err("players out of base order (r, b, y, g)".into()));
        }
        set = set.with(a);
        last = Some(a);
    }
    if set.is_empty() {
        return Err(err("empty (use -)".into()));
    }
    Ok(set)
}

/// Parses a DPN string into an unvalidated [`Setup`] (syntax only).
pub fn parse_setup(s: &str) -> Result<Setup, SetupError> {
    if s.len() > MAX_DPN_LEN {
        return Err(SetupError::new(
            Field::Position,
            format!("longer than {MAX_DPN_LEN} bytes"),
        ));
    }
    let fields: Vec<&str> = s.split(' ').collect();
    if fields.len() != 8 {
        return Err(SetupError::new(
            Field::Position,
            format!(
                "expected 8 fields separated by single spaces, found {}",
                fields.len()
            ),
        ));
    }
    let board = parse_board(fields[0])?;
    let to_move = parse_player(Field::ToMove, fields[1])?;
    let control = parse_control(fields[2])?;
    let last_regular = parse_player(Field::LastRegular, fields[3])?;
    let bonus = match fields[4] {
        "0" => 0,
        "1" => 1,
        "2" => 2,
        other => {
            return Err(SetupError::new(
                Field::Bonus,
                format!("expected 0, 1 or 2, found {other:?}"),
            ));
        }
    };
    let passed = parse_passed(fields[5])?;
    let quiet = parse_number(fields[6])
        .ok_or_else(|| SetupError::new(Field::Quiet, format!("not a number: {:?}", fields[6])))?;
    let turn = parse_number(fields[7]).filter(|n| *n >= 1).ok_or_else(|| {
        SetupError::new(Field::Turn, format!("not a number ≥ 1: {:?}", fields[7]))
    })?;
    Ok(Setup {
        board,
        to_move,
        control,
        last_regular,
        bonus,
        passed,
        quiet,
        turn,
    })
}

impl Position {
    /// Parses and validates a DPN string under `rules` (a position does not carry its ruleset).
    pub fn from_dpn(s: &str, rules: Rules) -> Result<Position, SetupError> {
        Position::from_setup(parse_setup(s)?, rules)
    }

    /// The position in DPN.
    pub fn to_dpn(&self) -> String {
        dpn(self)
    }
}

impl FromStr for Position {
    type Err = SetupError;

    /// Parses a DPN string under the standard rules.
    fn from_str(s: &str) -> Result<Position, SetupError> {
        Position::from_dpn(s, Rules::default())
    }
}

impl fmt::Display for Position {
    /// The position in DPN (NOTATION §2).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&dpn(self))
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", dpn(self))
    }
}

impl fmt::Debug for Board {
    /// The DPN board field (NOTATION §2).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&board_field(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(s: &str) -> String {
        Position::from_dpn(s, Rules::default())
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn start_round_trips() {
        let pos = Position::new();
        assert_eq!(pos.to_dpn(), START_DPN);
        assert_eq!(
            Position::from_dpn(START_DPN, Rules::default()).unwrap(),
            pos
        );
        let hostage = START_DPN.replace("rbyg", "rbyh");
        assert_eq!(
            Position::start_hostage(Army::Green, Rules::default()).to_dpn(),
            hostage
        );
    }

    #[test]
    fn rejections_name_their_field() {
        let cases: &[(&str, &str)] = &[
            ("9/9/9/9/9/9/9/9/9 r rbyg - 0 - 0", "position:"),
            ("9/9/9/9/9/9/9/9/9  r rbyg - 0 - 0 1", "position:"),
            ("9/9/9/9/9/9/9/9 r rbyg - 0 - 0 1", "board:"),
            ("9/9/9/9/9/9/9/9/54 r rbyg - 0 - 0 1", "board:"),
            ("9/9/9/9/9/9/9/9/8 r rbyg - 0 - 0 1", "board:"),
            ("9/9/9/9/9/9/9/9/Cr9 r rbyg - 0 - 0 1", "board:"),
            ("9/9/9/9/9/9/9/9/Qr8 r rbyg - 0 - 0 1", "board:"),
            ("9/9/9/9/9/9/9/9/Cx8 r rbyg - 0 - 0 1", "board:"),
            ("9/9/9/9/9/9/9/9/CrCr7 r r--- - 0 - 0 1", "board:"),
            ("9/9/9/9/4Mr4/9/9/9/Cr8 r r--- - 0 - 0 1", "board:"),
        ];
        for (s, prefix) in cases {
            assert!(err(s).starts_with(prefix), "{s}: {}", err(s));
        }
    }
}
