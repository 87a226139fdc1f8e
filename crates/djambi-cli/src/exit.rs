//! The command's exit statuses (NOTATION §5), shared by every subcommand.

/// Exit statuses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Exit {
    /// Success.
    Ok = 0,
    /// `play`: a token was not legal; `bot`: the game is over; `puzzles`: fewer puzzles than
    /// asked (or a theme missing).
    Illegal = 1,
    /// Bad input: subcommand, option, position, argument or game record.
    Usage = 2,
}
