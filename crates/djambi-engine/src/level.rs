//! The bot levels (`random`, `beginner`, `easy`, `medium`, `hard`) and their names.

use std::fmt;
use std::str::FromStr;

/// How strongly the engine plays. See `docs/ENGINE.md` for what each level does and how it
/// measured in the arena.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Level {
    /// A uniformly random legal turn (seeded).
    Random,
    /// Sees what it can take, not what it risks: one ply, blind to its own chief's danger, much
    /// noise and many random turns. For a first game.
    Beginner,
    /// One ply of greedy evaluation with noise, and an occasional random turn.
    Easy,
    /// The Paranoid search on a small fixed node budget (at least a Max-N-2 material player).
    Medium,
    /// The full search, as deep as the move time allows.
    #[default]
    Hard,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Random,
        Level::Beginner,
        Level::Easy,
        Level::Medium,
        Level::Hard,
    ];

    /// The level's name as the command line writes it.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Beginner => "beginner",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
        }
    }

    /// What the level does, in one line for people choosing an opponent: the English text the
    /// lobby shows (`web/`'s `level_desc_*`; docs/ARENA.md's ladder says how strong each one
    /// measured).
    pub const fn summary(self) -> &'static str {
        match self {
            Level::Random => "plays any legal turn, at random",
            Level::Beginner => "sees what it can take, not what it risks",
            Level::Easy => "weighs its own turn only, and slips now and then",
            Level::Medium => "looks a few turns ahead",
            Level::Hard => "searches deeply: a real fight",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The text is not a level name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLevelError(String);

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown level {:?} (expected random, beginner, easy, medium or hard)",
            self.0
        )
    }
}

impl std::error::Error for ParseLevelError {}

impl FromStr for Level {
    type Err = ParseLevelError;

    /// Parses `random`, `beginner`, `easy`, `medium` or `hard` (lowercase, as NOTATION §5 writes them).
    fn from_str(s: &str) -> Result<Level, ParseLevelError> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| ParseLevelError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for l in Level::ALL {
            assert_eq!(l.to_string().parse::<Level>().unwrap(), l);
        }
        for bad in ["", "Hard", "expert", " hard"] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
        assert_eq!(Level::default(), Level::Hard);
        assert_eq!("beginner".parse::<Level>(), Ok(Level::Beginner));
        assert!(Level::ALL.iter().all(|l| !l.summary().is_empty()));
        let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(names, ["random", "beginner", "easy", "medium", "hard"]);
        let err = "expert".parse::<Level>().unwrap_err().to_string();
        assert!(err.contains("beginner"), "{err}");
    }
}
