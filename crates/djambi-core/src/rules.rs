//! The ruleset options of R12.4–R12.6.

use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

/// The ruleset a game is played under (R12.6). `Rules::default()` is the standard game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rules {
    /// `own_kills` (R12.5): a player may also kill and displace living pieces of armies it
    /// controls, its own chief excepted (Italian rules). Off by default.
    #[serde(default)]
    pub own_kills: bool,
    /// `diplomat_to_maze` (R5.1): a Diplomat displacing a chief from the field may set it down
    /// on the empty maze. On by default; `false` follows the Italian rules.
    #[serde(default = "yes")]
    pub diplomat_to_maze: bool,
    /// `turn_limit=N` (R12.4): the game is drawn after N consecutive turns without a kill or an
    /// elimination. None by default. At most 999999999, as in a ruleset list (NOTATION §5).
    #[serde(default, deserialize_with = "turn_limit")]
    pub turn_limit: Option<NonZeroU32>,
}

fn yes() -> bool {
    true
}

/// `turn_limit` in JSON: `null` or a whole number from 1 to [`MAX_NUMBER`], the same as the
/// list form accepts, so every ruleset is written as a list that reads back.
fn turn_limit<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<NonZeroU32>, D::Error> {
    let limit: Option<NonZeroU32> = serde::Deserialize::deserialize(d)?;
    if limit.is_some_and(|n| n.get() > MAX_NUMBER) {
        return Err(serde::de::Error::custom(format_args!(
            "turn_limit: at most {MAX_NUMBER}"
        )));
    }
    Ok(limit)
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            own_kills: false,
            diplomat_to_maze: true,
            turn_limit: None,
        }
    }
}

/// A ruleset list (NOTATION §5) holds an item that is not an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRulesError {
    item: String,
}

impl fmt::Display for ParseRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rules: unknown option {:?} (expected own_kills[=true|false], diplomat_to_maze=true|false, turn_limit=N)",
            self.item
        )
    }
}

impl std::error::Error for ParseRulesError {}

/// The largest number the notations write (NOTATION §2: at most 9 digits). The position's
/// counters stop here, so that every position, however long its game, is written as DPN that
/// reads back.
pub(crate) const MAX_NUMBER: u32 = 999_999_999;

/// Parses a plain ASCII number as NOTATION §2 writes them: digits only, no sign, no leading zero
/// (except `0` itself), at most 9 digits (so at most [`MAX_NUMBER`]).
pub(crate) fn parse_number(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    if b.is_empty()
        || b.len() > 9
        || !b.iter().all(u8::is_ascii_digit)
        || (b[0] == b'0' && b.len() > 1)
    {
        return None;
    }
    s.parse().ok()
}

impl FromStr for Rules {
    type Err = ParseRulesError;

    /// Parses a comma-separated list (NOTATION §5): `own_kills`, `own_kills=true|false`,
    /// `diplomat_to_maze=true|false`, `turn_limit=N` (N ≥ 1). Empty items are ignored; a later
    /// item overrides an earlier one.
    fn from_str(s: &str) -> Result<Rules, ParseRulesError> {
        let mut rules = Rules::default();
        for item in s.split(',') {
            match item {
                "" => {}
                "own_kills" | "own_kills=true" => rules.own_kills = true,
                "own_kills=false" => rules.own_kills = false,
                "diplomat_to_maze=true" => rules.diplomat_to_maze = true,
                "diplomat_to_maze=false" => rules.diplomat_to_maze = false,
                _ => {
                    let n = item
                        .strip_prefix("turn_limit=")
                        .and_then(parse_number)
                        .and_then(NonZeroU32::new)
                        .ok_or_else(|| ParseRulesError {
                            item: item.to_string(),
                        })?;
                    rules.turn_limit = Some(n);
                }
            }
        }
        Ok(rules)
    }
}

impl fmt::Display for Rules {
    /// The canonical list: only the options that differ from the standard rules
    /// (an empty string for the standard rules).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut items = Vec::new();
        if self.own_kills {
            items.push("own_kills".to_string());
        }
        if !self.diplomat_to_maze {
            items.push("diplomat_to_maze=false".to_string());
        }
        if let Some(n) = self.turn_limit {
            items.push(format!("turn_limit={n}"));
        }
        f.write_str(&items.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r12_6_rules_lists_parse() {
        assert_eq!("".parse::<Rules>().unwrap(), Rules::default());
        let r: Rules = "own_kills,,diplomat_to_maze=false,turn_limit=40"
            .parse()
            .unwrap();
        assert!(r.own_kills && !r.diplomat_to_maze);
        assert_eq!(r.turn_limit.map(|n| n.get()), Some(40));
        assert_eq!(
            r.to_string(),
            "own_kills,diplomat_to_maze=false,turn_limit=40"
        );
        let r: Rules = "own_kills,own_kills=false,turn_limit=3,turn_limit=5"
            .parse()
            .unwrap();
        assert!(!r.own_kills);
        assert_eq!(r.turn_limit.map(|n| n.get()), Some(5));
        for bad in [
            "turn_limit=0",
            "turn_limit=01",
            "turn_limit=-1",
            "turn_limit=+1",
            "turn_limit=",
            "turn_limit=1234567890",
            "own_kills=yes",
            "OWN_KILLS",
            " own_kills",
            "diplomat_to_maze",
            "foo",
        ] {
            assert!(bad.parse::<Rules>().is_err(), "{bad}");
        }
    }

    /// Fuzzing finding (`fuzz/corpus/record/finding-turn-limit-beyond-nine-digits.json`): a
    /// record's JSON took any `turn_limit` up to 2^32 − 1, which the ruleset then wrote as a list
    /// (`turn_limit=1000000000`) that no list parser reads. JSON now takes what a list takes.
    #[test]
    fn fuzz_turn_limit_beyond_nine_digits() {
        let err = serde_json::from_str::<Rules>(r#"{"turn_limit": 1000000000}"#).unwrap_err();
        assert!(
            err.to_string().starts_with("turn_limit: at most 999999999"),
            "{err}"
        );
        let r: Rules = serde_json::from_str(r#"{"turn_limit": 999999999}"#).unwrap();
        assert_eq!(r.to_string().parse::<Rules>(), Ok(r));
    }

    #[test]
    fn rules_json_round_trip() {
        let r: Rules = serde_json::from_str(
            r#"{"own_kills": false, "diplomat_to_maze": true, "turn_limit": null}"#,
        )
        .unwrap();
        assert_eq!(r, Rules::default());
        let r: Rules = serde_json::from_str(r#"{"turn_limit": 7}"#).unwrap();
        assert_eq!(r.turn_limit.map(|n| n.get()), Some(7));
        assert!(serde_json::from_str::<Rules>(r#"{"turn_limit": 0}"#).is_err());
        assert_eq!(
            serde_json::to_string(&Rules::default()).unwrap(),
            r#"{"own_kills":false,"diplomat_to_maze":true,"turn_limit":null}"#
        );
    }
}
