//! Helpers shared by the engine's integration tests.

#![allow(dead_code)]

use djambi_core::{Position, Rules};

/// A position from DPN under the standard rules.
pub fn pos(dpn: &str) -> Position {
    Position::from_dpn(dpn, Rules::default()).expect("test positions are valid")
}

/// A position from DPN under `rules`.
pub fn pos_with(dpn: &str, rules: &str) -> Position {
    Position::from_dpn(dpn, rules.parse().expect("a ruleset")).expect("test positions are valid")
}

/// Reached by 18 quiet random turns from the start: 356 legal turns, 316 of them kills.
pub const MIDDLE: &str = "CrXMr1Nb1MbRbCb/Rr5MbDbAb/MrMrDr4Mb1/Nr1Mr6/3My3Mb1/3Ng5/MgMg2Mg1NyArMy/AgDgMg1Rg1Dy1Ry/Cg5MyAyCy y rbyg b 0 - 1 19";

/// Red rules from the maze; Blue's Diplomat can take the chief off it: 1041 legal turns.
pub const MAZE: &str = "1ArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr4NbMb/9/4Cr4/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy b rbyg r 0 - 1 2";
