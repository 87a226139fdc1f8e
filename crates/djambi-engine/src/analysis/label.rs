//! How good a played turn was: `best`, `good`, `inaccuracy`, `mistake` or `blunder`, from the
//! drop in the mover's chance of winning it caused.

use std::fmt;
use std::str::FromStr;

// The scale: the chances are calibrated probabilities of winning (docs/ENGINE.md "Analysis":
// on held-out games a predicted 20 % wins about one game in five), so a drop is points of real
// chance given away, as lichess's labels are drops of win percentage. A fair share is 1/n of
// the game (0.25 at the four-player start). On the calibration's held-out games a Max-N-2
// player's turns come out mostly `best` or `good` and 0.1 % `blunder`, the engine's `easy`
// level's thirty times as often. ENGINE.md gives the rates for each player.

/// Up to this drop in the chance of winning (0 to 1), a turn other than the engine's own is
/// still `best`: one point of chance.
pub const BEST_DROP: f64 = 0.01;

/// Up to this drop, `good`.
pub const GOOD_DROP: f64 = 0.03;

/// Up to this drop, an `inaccuracy` (lichess's inaccuracy is 10 points of a two-player game's
/// 50; this is 7 of a four-player game's 25).
pub const INACCURACY_DROP: f64 = 0.07;

/// Up to this drop, a `mistake`; beyond it, a `blunder`: more than half a fair share of the
/// four-player game given away.
pub const MISTAKE_DROP: f64 = 0.15;

/// The verdict on one played turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Label {
    /// The engine's own choice, or one that loses at most [`BEST_DROP`].
    Best,
    /// Loses at most [`GOOD_DROP`].
    Good,
    /// Loses at most [`INACCURACY_DROP`].
    Inaccuracy,
    /// Loses at most [`MISTAKE_DROP`].
    Mistake,
    /// Loses more; or lets the mover's chief be killed on the next turn when a turn existed
    /// that did not (the chief rule, whatever the drop).
    Blunder,
}

impl Label {
    /// Every label, best first.
    pub const ALL: [Label; 5] = [
        Label::Best,
        Label::Good,
        Label::Inaccuracy,
        Label::Mistake,
        Label::Blunder,
    ];

    /// The label of a turn that is not the engine's choice and breaks no chief rule, from the
    /// drop `kept − after` in the mover's chance of winning (a negative drop, a turn the
    /// engine finds better than its own, is `best`).
    pub fn from_drop(drop: f64) -> Label {
        if drop.is_nan() || drop <= BEST_DROP {
            Label::Best
        } else if drop <= GOOD_DROP {
            Label::Good
        } else if drop <= INACCURACY_DROP {
            Label::Inaccuracy
        } else if drop <= MISTAKE_DROP {
            Label::Mistake
        } else {
            Label::Blunder
        }
    }

    /// The label's name: `best`, `good`, `inaccuracy`, `mistake`, `blunder`.
    pub const fn name(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Good => "good",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A label name that is not one of [`Label::ALL`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLabelError(pub String);

impl fmt::Display for ParseLabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a label (best, good, inaccuracy, mistake, blunder)",
            self.0
        )
    }
}

impl std::error::Error for ParseLabelError {}

impl FromStr for Label {
    type Err = ParseLabelError;

    fn from_str(s: &str) -> Result<Label, ParseLabelError> {
        Label::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| ParseLabelError(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_in_order() {
        assert_eq!(Label::from_drop(-0.3), Label::Best);
        assert_eq!(Label::from_drop(0.0), Label::Best);
        assert_eq!(Label::from_drop(BEST_DROP), Label::Best);
        assert_eq!(Label::from_drop(0.02), Label::Good);
        assert_eq!(Label::from_drop(0.05), Label::Inaccuracy);
        assert_eq!(Label::from_drop(0.1), Label::Mistake);
        assert_eq!(Label::from_drop(0.25), Label::Blunder);
        assert_eq!(Label::from_drop(1.0), Label::Blunder);
        // Non-decreasing in the drop.
        let mut last = Label::Best;
        for i in -100..=1000 {
            let l = Label::from_drop(f64::from(i) / 1000.0);
            assert!(l >= last);
            last = l;
        }
    }

    #[test]
    fn names_round_trip() {
        for l in Label::ALL {
            assert_eq!(l.name().parse(), Ok(l));
            assert_eq!(l.to_string(), l.name());
        }
        assert!("Best".parse::<Label>().is_err());
    }
}
