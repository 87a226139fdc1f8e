//! The effects of a turn as protocol 2 sends them: the core's effects, with each piece written
//! as its DPN code (`"Mr"`, a red Militant) instead of an object (PROTOCOL §3.4).

use djambi_core::{Effect, Piece, Square};
use serde::{Serialize, Serializer};

/// A piece as its two-letter DPN code: role letter, then army letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceCode(pub Piece);

impl Serialize for PieceCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let code = [self.0.role.char() as u8, self.0.army.char() as u8];
        s.serialize_str(std::str::from_utf8(&code).expect("ASCII letters"))
    }
}

/// The effects that name a piece, with the piece as its code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum PieceEffect {
    Moved {
        piece: PieceCode,
        from: Square,
        to: Square,
    },
    Killed {
        piece: PieceCode,
        at: Square,
        by: PieceCode,
    },
    Displaced {
        piece: PieceCode,
        from: Square,
        to: Square,
    },
    ExitedMaze {
        piece: PieceCode,
        to: Square,
    },
}

/// One effect on the wire: the core's serialisation, pieces as codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
enum Wire {
    Piece(PieceEffect),
    Other(Effect),
}

/// A turn's effects as sent.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EffectsView(pub Vec<Effect>);

impl Serialize for EffectsView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|e| match *e {
            Effect::Moved { piece, from, to } => Wire::Piece(PieceEffect::Moved {
                piece: PieceCode(piece),
                from,
                to,
            }),
            Effect::Killed { piece, at, by } => Wire::Piece(PieceEffect::Killed {
                piece: PieceCode(piece),
                at,
                by: PieceCode(by),
            }),
            Effect::Displaced { piece, from, to } => Wire::Piece(PieceEffect::Displaced {
                piece: PieceCode(piece),
                from,
                to,
            }),
            Effect::ExitedMaze { piece, to } => Wire::Piece(PieceEffect::ExitedMaze {
                piece: PieceCode(piece),
                to,
            }),
            other => Wire::Other(other),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::{Army, Player, Role};

    #[test]
    fn pieces_are_written_as_codes_and_the_rest_as_the_core_writes_it() {
        let militant = Piece {
            army: Army::Red,
            role: Role::Militant,
        };
        let chief = Piece {
            army: Army::Blue,
            role: Role::Chief,
        };
        let a1: Square = "a1".parse().unwrap();
        let b2: Square = "b2".parse().unwrap();
        let effects = EffectsView(vec![
            Effect::Moved {
                piece: militant,
                from: a1,
                to: b2,
            },
            Effect::Killed {
                piece: chief,
                at: b2,
                by: militant,
            },
            Effect::Eliminated {
                player: Player::Blue,
            },
        ]);
        assert_eq!(
            serde_json::to_string(&effects).unwrap(),
            r#"[{"type":"moved","piece":"Mr","from":"a1","to":"b2"},{"type":"killed","piece":"Cb","at":"b2","by":"Mr"},{"type":"eliminated","player":"b"}]"#
        );
    }
}
