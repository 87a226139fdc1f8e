//! The compact list of legal turns (PROTOCOL §3.4): `{"from": {"to": "spec"}}`.
//!
//! A `spec` lists the turns of one piece to one square as alternatives separated by `|`; each
//! alternative is the rest of the turn text (`xb3` a Reporter's victim, `>d4` a maze exit), and
//! then, when the turn sets something down, `@` followed by every square it may go to, two
//! characters each. `""` is the one turn without a suffix; `"|xb3"` is a plain move or a move
//! that kills on `b3`; `"@a1a2"` is two turns, placing on `a1` or on `a2`. The client expands
//! it back into turn texts. The opening position's 30 moves take 289 bytes this way, a
//! position with 400 turns about 1.3 KB.

use djambi_core::{Square, Turn};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// The legal turns of the player to move, serialised grouped by piece and destination (see the
/// module's documentation). It keeps the turns themselves and writes their text straight into
/// the JSON, without building maps first. `pass` never appears: a player whose only turn is
/// `pass` passes at once (the server plays it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LegalView {
    /// Sorted by (from, to, victim, exit); placements keep the generator's order.
    turns: Vec<Turn>,
}

/// The sort and group keys of a move.
fn key(turn: &Turn) -> (Square, Square, Option<Square>, Option<Square>) {
    match turn {
        Turn::Move(m) => (m.from, m.to, m.victim, m.exit),
        Turn::Pass => unreachable!("passes are filtered out"),
    }
}

fn from_to(turn: &Turn) -> (Square, Square) {
    let (from, to, _, _) = key(turn);
    (from, to)
}

fn push_square(out: &mut String, sq: Square) {
    out.push(char::from(b'a' + sq.file()));
    out.push(char::from(b'1' + sq.rank()));
}

impl LegalView {
    /// The view of these turns (`pass` is left out).
    pub fn new(mut turns: Vec<Turn>) -> LegalView {
        turns.retain(|t| !t.is_pass());
        // Stable: placements keep the generator's order.
        turns.sort_by_key(key);
        LegalView { turns }
    }

    /// How many legal turns.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }
}

/// The turns of one piece (same start square), grouped by destination.
struct Destinations<'a>(&'a [Turn]);

/// Writes the spec of the turns of one piece to one square into `out`.
fn spec(turns: &[Turn], out: &mut String) {
    out.clear();
    let mut rest = turns;
    let mut first = true;
    while let Some(Turn::Move(head)) = rest.first() {
        if !first {
            out.push('|');
        }
        first = false;
        if let Some(victim) = head.victim {
            out.push('x');
            push_square(out, victim);
        }
        if let Some(exit) = head.exit {
            out.push('>');
            push_square(out, exit);
        }
        if head.place.is_none() {
            rest = &rest[1..];
            continue;
        }
        out.push('@');
        let n = rest
            .iter()
            .take_while(|t| key(t) == key(&rest[0]))
            .map_while(|t| match t {
                Turn::Move(m) => m.place,
                Turn::Pass => None,
            })
            .inspect(|sq| push_square(out, *sq))
            .count();
        rest = &rest[n.max(1)..];
    }
}

impl Serialize for Destinations<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        let mut rest = self.0;
        let mut text = String::with_capacity(128);
        let mut name = String::with_capacity(2);
        while let Some(first) = rest.first() {
            let (_, to) = from_to(first);
            let n = rest.iter().take_while(|t| from_to(t).1 == to).count();
            spec(&rest[..n], &mut text);
            name.clear();
            push_square(&mut name, to);
            map.serialize_entry(&name, &text)?;
            rest = &rest[n..];
        }
        map.end()
    }
}

impl Serialize for LegalView {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        let mut rest = &self.turns[..];
        let mut name = String::with_capacity(2);
        while let Some(first) = rest.first() {
            let (from, _) = from_to(first);
            let n = rest.iter().take_while(|t| from_to(t).0 == from).count();
            name.clear();
            push_square(&mut name, from);
            map.serialize_entry(&name, &Destinations(&rest[..n]))?;
            rest = &rest[n..];
        }
        map.end()
    }
}

/// Expands the compact form back into turn texts, as a client does (for tests and tools).
pub fn expand(value: &serde_json::Value) -> Vec<String> {
    let mut out = Vec::new();
    let Some(froms) = value.as_object() else {
        return out;
    };
    for (from, tos) in froms {
        let Some(tos) = tos.as_object() else { continue };
        for (to, spec) in tos {
            expand_spec(from, to, spec.as_str().unwrap_or_default(), &mut out);
        }
    }
    out
}

/// Expands one destination of the compact form: the turns of the piece on `from` to `to`
/// described by `spec` (`|`-separated alternatives, each a suffix, then `@` and placement
/// squares two characters each), pushed onto `out`.
pub fn expand_spec(from: &str, to: &str, spec: &str, out: &mut Vec<String>) {
    for alt in spec.split('|') {
        match alt.split_once('@') {
            None => out.push(format!("{from}-{to}{alt}")),
            Some((suffix, squares)) => {
                for sq in squares.as_bytes().chunks(2) {
                    let sq = std::str::from_utf8(sq).unwrap_or_default();
                    out.push(format!("{from}-{to}{suffix}@{sq}"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::{Position, Rules};

    /// Each alternative of a spec, and each placement square, is one turn.
    #[test]
    fn a_spec_expands_to_its_turns() {
        let mut out = Vec::new();
        expand_spec("c5", "c6", "@a4a5", &mut out);
        expand_spec("a8", "a5", "|xb5", &mut out);
        expand_spec("h2", "e5", ">d6@a5a6|>e8@a5", &mut out);
        assert_eq!(
            out,
            [
                "c5-c6@a4",
                "c5-c6@a5",
                "a8-a5",
                "a8-a5xb5",
                "h2-e5>d6@a5",
                "h2-e5>d6@a6",
                "h2-e5>e8@a5"
            ]
        );
    }

    /// Expanding the compact form gives back exactly the legal turns' texts.
    #[test]
    fn expands_to_the_legal_turns() {
        for dpn in [
            "CrArMr3MbRbCb/RrDrMr3MbDbAb/MrMrNr3NbMbMb/9/9/9/MgMgNg3NyMyMy/AgDgMg3MyDyRy/CgRgMg3MyAyCy r rbyg - 0 - 0 1",
            "Cr8/9/9/9/9/9/9/1Mb7/Cb8 r rb-- - 0 - 0 1",
            "Cr7Cb/7Mr1/9/9/2Mg6/Mr8/6XXX/6XMyMy/Cg5XMyCy r rbyg - 0 - 0 1",
        ] {
            let pos = Position::from_dpn(dpn, Rules::default()).unwrap();
            let mut expected: Vec<String> =
                pos.legal_turns().iter().map(|t| t.to_string()).collect();
            expected.sort();
            let view = LegalView::new(pos.legal_turns());
            assert_eq!(view.len(), expected.len());
            let value = serde_json::to_value(&view).unwrap();
            let mut got = expand(&value);
            got.sort();
            assert_eq!(got, expected, "{dpn}");
        }
        assert_eq!(
            serde_json::to_string(&LegalView::new(vec![Turn::Pass])).unwrap(),
            "{}"
        );
    }

    /// Random playouts: every position's compact list expands to its legal turns, and the
    /// list is small.
    #[test]
    fn expands_on_random_playouts() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut bytes = 0usize;
        let mut lists = 0usize;
        for _ in 0..20 {
            let mut pos = Position::new();
            for _ in 0..200 {
                let turns = pos.legal_turns();
                if turns.is_empty() {
                    break;
                }
                let mut expected: Vec<String> = turns
                    .iter()
                    .filter(|t| !t.is_pass())
                    .map(|t| t.to_string())
                    .collect();
                expected.sort();
                let text = serde_json::to_string(&LegalView::new(turns.clone())).unwrap();
                bytes += text.len();
                lists += 1;
                let mut got = expand(&serde_json::from_str(&text).unwrap());
                got.sort();
                assert_eq!(got, expected, "{}", pos.to_dpn());
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let turn = turns[(seed % turns.len() as u64) as usize];
                pos.play(&turn).unwrap();
            }
        }
        assert!(bytes / lists < 1500, "{} bytes on average", bytes / lists);
    }
}
