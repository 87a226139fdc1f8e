//! Seat tokens: 192 random bits, base64url, shown once; the server keeps only their SHA-256.

use std::fmt;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use sha2::{Digest, Sha256};

/// Random bytes in a token (192 bits).
const TOKEN_BYTES: usize = 24;

/// A secret seat token. Its `Debug` hides it, so it never reaches a log by accident; its serde
/// form (between nodes, to answer its holder) is the token itself.
#[derive(Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct SeatToken(String);

impl SeatToken {
    /// A new random token from the operating system's generator.
    pub fn generate() -> SeatToken {
        let mut bytes = [0u8; TOKEN_BYTES];
        getrandom::fill(&mut bytes).expect("the operating system's random generator works");
        SeatToken(URL_SAFE_NO_PAD.encode(bytes))
    }

    /// A token a client presented (already checked against a stored hash).
    pub fn from_client(token: String) -> SeatToken {
        SeatToken(token)
    }

    /// The token as the client sends it.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Its hash, the only form stored.
    pub fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }
}

impl fmt::Debug for SeatToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SeatToken(…)")
    }
}

/// The SHA-256 of a seat token.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TokenHash([u8; 32]);

impl TokenHash {
    /// The hash of what a client presented (any text; a wrong one simply matches nothing).
    pub fn of(token: &str) -> TokenHash {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }

    /// Compares in constant time, so timing says nothing about how much of a hash matched.
    pub fn matches(&self, other: &TokenHash) -> bool {
        let diff = self
            .0
            .iter()
            .zip(other.0.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        std::hint::black_box(diff) == 0
    }

    /// Lower-case hex, as stored.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Parses [`to_hex`](TokenHash::to_hex)'s output.
    pub fn from_hex(s: &str) -> Option<TokenHash> {
        if s.len() != 64 || !s.is_ascii() {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(TokenHash(out))
    }
}

/// Between nodes a hash travels as its hex (the token itself never does).
impl serde::Serialize for TokenHash {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> serde::Deserialize<'de> for TokenHash {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TokenHash, D::Error> {
        let hex = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        TokenHash::from_hex(&hex).ok_or_else(|| serde::de::Error::custom("not a token hash"))
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenHash(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_hidden() {
        let a = SeatToken::generate();
        let b = SeatToken::generate();
        assert_ne!(a, b);
        assert_eq!(a.as_str().len(), 32);
        assert!(!format!("{a:?}").contains(a.as_str()));
        assert!(a.hash().matches(&TokenHash::of(a.as_str())));
        assert!(!a.hash().matches(&b.hash()));
    }

    #[test]
    fn hashes_round_trip_through_hex() {
        let h = SeatToken::generate().hash();
        assert!(TokenHash::from_hex(&h.to_hex()).unwrap().matches(&h));
        assert!(TokenHash::from_hex("zz").is_none());
    }
}
