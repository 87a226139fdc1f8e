//! Turns (R10.1) and their text (NOTATION §3).

use std::fmt;
use std::str::FromStr;

use crate::square::Square;

/// A move with all its choices (R10.1): the piece's square, its destination, and where the rules
/// ask for them the Reporter's victim, the maze exit and the placement square.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Move {
    /// The square the moving piece starts from.
    pub from: Square,
    /// The square the piece moves to (the maze, for a turn that acts in the maze).
    pub to: Square,
    /// The Reporter's victim (R4.4).
    pub victim: Option<Square>,
    /// The square the piece leaves the maze to (R7.4).
    pub exit: Option<Square>,
    /// Where the corpse or displaced piece is set down (R10.1).
    pub place: Option<Square>,
}

/// One turn: a move, or a pass (R8.6).
///
/// A `Turn` is only a proposal until a position accepts it:
/// [`Position::play`](crate::Position::play) checks it against the legal turns.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Turn {
    /// The automatic pass of a player with no legal turn (R8.6).
    Pass,
    /// A move.
    Move(Move),
}

impl Turn {
    /// A move without any choice (`from-to`).
    pub const fn simple(from: Square, to: Square) -> Turn {
        Turn::Move(Move {
            from,
            to,
            victim: None,
            exit: None,
            place: None,
        })
    }

    /// The move, unless the turn is a pass.
    pub const fn as_move(&self) -> Option<&Move> {
        match self {
            Turn::Pass => None,
            Turn::Move(m) => Some(m),
        }
    }

    /// Whether the turn is a pass.
    pub const fn is_pass(&self) -> bool {
        matches!(self, Turn::Pass)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)?;
        if let Some(v) = self.victim {
            write!(f, "x{v}")?;
        }
        if let Some(e) = self.exit {
            write!(f, ">{e}")?;
        }
        if let Some(p) = self.place {
            write!(f, "@{p}")?;
        }
        Ok(())
    }
}

impl fmt::Display for Turn {
    /// The canonical text (NOTATION §3): `from-to[xvictim][>exit][@place]` or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Turn::Pass => f.write_str("pass"),
            Turn::Move(m) => fmt::Display::fmt(m, f),
        }
    }
}

/// The longest turn text accepted (`a1-a2xa3>a4@a5` is 14 bytes).
pub const MAX_TURN_LEN: usize = 32;

/// A turn text does not follow NOTATION §3's grammar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTurnError {
    reason: &'static str,
}

impl fmt::Display for ParseTurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "malformed turn: {}", self.reason)
    }
}

impl std::error::Error for ParseTurnError {}

/// A turn as read from text, context-free: syntactically a turn, not yet known to be legal
/// anywhere. Resolve it against a position with
/// [`Position::resolve`](crate::Position::resolve).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TurnText(pub Turn);

impl fmt::Display for TurnText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl FromStr for TurnText {
    type Err = ParseTurnError;

    /// Parses `from-to[xvictim][>exit][@place]` or `pass`, in any letter case; nothing is
    /// trimmed.
    fn from_str(s: &str) -> Result<TurnText, ParseTurnError> {
        let e = |reason| ParseTurnError { reason };
        if s.len() > MAX_TURN_LEN {
            return Err(e("too long"));
        }
        if s.eq_ignore_ascii_case("pass") {
            return Ok(TurnText(Turn::Pass));
        }
        let b = s.as_bytes();
        let square = |i: usize| -> Result<Square, ParseTurnError> {
            b.get(i..i + 2)
                .and_then(|two| std::str::from_utf8(two).ok())
                .and_then(|t| t.parse().ok())
                .ok_or(e("expected a square (a1 to i9)"))
        };
        let from = square(0)?;
        if b.get(2) != Some(&b'-') {
            return Err(e("expected '-' after the first square"));
        }
        let to = square(3)?;
        let mut m = Move {
            from,
            to,
            victim: None,
            exit: None,
            place: None,
        };
        let mut i = 5;
        let mut stage = 0;
        while i < b.len() {
            let sq = square(i + 1)?;
            match (b[i].to_ascii_lowercase(), stage) {
                (b'x', 0) => {
                    m.victim = Some(sq);
                    stage = 1;
                }
                (b'>', 0 | 1) => {
                    m.exit = Some(sq);
                    stage = 2;
                }
                (b'@', 0..=2) => {
                    m.place = Some(sq);
                    stage = 3;
                }
                _ => return Err(e("expected x<victim>, ><exit> or @<place>, in that order")),
            }
            i += 3;
        }
        Ok(TurnText(Turn::Move(m)))
    }
}

impl FromStr for Turn {
    type Err = ParseTurnError;

    /// Parses turn text (context-free; see [`TurnText`]).
    fn from_str(s: &str) -> Result<Turn, ParseTurnError> {
        s.parse::<TurnText>().map(|t| t.0)
    }
}

impl serde::Serialize for Turn {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Reads a turn's text ([`TurnText`]'s grammar, context-free: not checked against a position).
impl<'de> serde::Deserialize<'de> for Turn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Turn, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse::<Turn>()
            .map_err(|e| serde::de::Error::custom(format!("{s:?}: {e}")))
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn turns_read_back_what_they_write() {
        for text in ["b7-b5", "h2-e5>d6@a5", "pass"] {
            let turn: Turn = text.parse().unwrap();
            let json = serde_json::to_string(&turn).unwrap();
            assert_eq!(json, format!("{text:?}"));
            assert_eq!(serde_json::from_str::<Turn>(&json).unwrap(), turn);
        }
        assert!(serde_json::from_str::<Turn>(r#""b7-""#).is_err());
        assert!(serde_json::from_str::<Turn>("7").is_err());
    }

    use super::*;

    #[test]
    fn texts_round_trip() {
        for t in [
            "b7-b5",
            "c5-c6@a4",
            "a8-a5xb5",
            "h8-e5>e8",
            "h2-e5>d6@a5",
            "pass",
        ] {
            assert_eq!(t.parse::<Turn>().unwrap().to_string(), t);
        }
        assert_eq!(
            "H2-E5>D6@A5".parse::<Turn>().unwrap().to_string(),
            "h2-e5>d6@a5"
        );
        assert_eq!("PaSs".parse::<Turn>().unwrap(), Turn::Pass);
    }

    #[test]
    fn malformed_texts_are_rejected() {
        for t in [
            "",
            " b7-b5",
            "b7-b5 ",
            "b7b5",
            "b7-",
            "b7-b",
            "b7-j5",
            "b7-b5x",
            "b7-b5@a4xb5",
            "b7-b5>a1>a2",
            "b7-b5@a1@a2",
            "b7-b5xa1xa2",
            "b7--b5",
            "passs",
            "é7-b5",
            "b7-b5é",
        ] {
            assert!(t.parse::<Turn>().is_err(), "{t:?}");
        }
    }
}
