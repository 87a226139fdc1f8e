//! The compact list of legal turns (PROTOCOL §3.3): `{"from-to": ["suffix", …]}`.

use djambi_core::{Square, Turn};
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

/// The legal turns of the player to move, serialised grouped by `from-to`, each suffix
/// completing the turn text (`""` when there is no choice; `pass` as `{"pass": [""]}`). It keeps
/// the turns themselves and writes their text straight into the JSON, once per event, without
/// building strings or maps first (this list can hold hundreds of turns).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalView {
    /// Sorted by text, so the keys come out in order.
    turns: Vec<Turn>,
}

/// Up to 14 bytes: `a1-a2xa3>a4@a5`.
struct Text {
    bytes: [u8; 14],
    len: usize,
}

impl Text {
    fn of(turn: &Turn) -> Text {
        let mut t = Text {
            bytes: [0; 14],
            len: 0,
        };
        match turn {
            Turn::Pass => t.push_str(b"pass"),
            Turn::Move(m) => {
                t.push_square(m.from);
                t.push_str(b"-");
                t.push_square(m.to);
                for (mark, square) in [(b'x', m.victim), (b'>', m.exit), (b'@', m.place)] {
                    if let Some(square) = square {
                        t.push_str(&[mark]);
                        t.push_square(square);
                    }
                }
            }
        }
        t
    }

    fn push_str(&mut self, s: &[u8]) {
        self.bytes[self.len..self.len + s.len()].copy_from_slice(s);
        self.len += s.len();
    }

    fn push_square(&mut self, sq: Square) {
        self.push_str(&[b'a' + sq.file(), b'1' + sq.rank()]);
    }

    /// The group key (`from-to`, or `pass`) and the suffix.
    fn split(&self) -> (&str, &str) {
        let text = std::str::from_utf8(&self.bytes[..self.len]).expect("ASCII");
        text.split_at(if text == "pass" { 4 } else { 5 })
    }
}

impl LegalView {
    /// The view of these turns.
    pub fn new(mut turns: Vec<Turn>) -> LegalView {
        // Stable: within a group, the suffixes keep the generator's order.
        turns.sort_by_cached_key(|t| {
            let text = Text::of(t);
            let (key, _) = text.split();
            let mut k = [0u8; 5];
            k[..key.len()].copy_from_slice(key.as_bytes());
            k
        });
        LegalView { turns }
    }

    /// How many legal turns.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// Whether there is none (the game is over).
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }
}

/// The suffixes of one group.
struct Suffixes<'a>(&'a [Turn]);

impl Serialize for Suffixes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.0.len()))?;
        for turn in self.0 {
            let text = Text::of(turn);
            seq.serialize_element(text.split().1)?;
        }
        seq.end()
    }
}

impl Serialize for LegalView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        let mut rest = &self.turns[..];
        while let Some(first) = rest.first() {
            let head = Text::of(first);
            let key = head.split().0;
            let n = rest
                .iter()
                .take_while(|t| Text::of(t).split().0 == key)
                .count();
            map.serialize_entry(key, &Suffixes(&rest[..n]))?;
            rest = &rest[n..];
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::{Position, Rules};
    use std::collections::BTreeMap;

    /// The compact form says exactly what grouping `Display` texts in a sorted map says.
    #[test]
    fn same_as_grouping_the_texts() {
        for dpn in [
            "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1",
            "Cr8/9/9/9/9/9/9/1Mb7/Cb8 r rb-- - 0 - 0 1",
            "Cr7Cb/7Mr1/9/9/2Mg6/Mr8/6XXX/6XMyMy/Cg5XMyCy r rbyg - 0 - 0 1",
        ] {
            let pos = Position::from_dpn(dpn, Rules::default()).unwrap();
            let mut expected: BTreeMap<String, Vec<String>> = BTreeMap::new();
            for t in pos.legal_turns() {
                let text = t.to_string();
                let (k, v) = text.split_at(if text == "pass" { 4 } else { 5 });
                expected.entry(k.into()).or_default().push(v.into());
            }
            let view = LegalView::new(pos.legal_turns());
            assert_eq!(view.len(), pos.legal_turns().len());
            assert_eq!(
                serde_json::to_value(&view).unwrap(),
                serde_json::to_value(&expected).unwrap()
            );
            let text = serde_json::to_string(&view).unwrap();
            let keys: Vec<&String> = expected.keys().collect();
            let mut sorted = keys.clone();
            sorted.sort();
            assert_eq!(keys, sorted);
            assert!(text.starts_with(&format!("{{\"{}\":", keys[0])));
        }
        assert_eq!(
            serde_json::to_string(&LegalView::new(vec![Turn::Pass])).unwrap(),
            r#"{"pass":[""]}"#
        );
        assert_eq!(serde_json::to_string(&LegalView::default()).unwrap(), "{}");
    }
}
