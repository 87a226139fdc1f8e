//! Text typed by people: display names and chat. Everything is normalised to Unicode NFC and
//! trimmed; control characters, invisible formatting characters (zero-width spaces, bidi
//! overrides, …) and piles of combining marks are refused, because they let a name or a message
//! look like something it is not. A display name must also not pass for a seat, a bot, the
//! server or another person at the table: names are compared by their confusable skeleton
//! (Unicode TS #39), so `Red player`, `RED  PLAYER` and `Rеd player` (a Cyrillic `е`) are one.

use std::collections::HashSet;
use std::sync::LazyLock;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use unicode_security::GeneralSecurityProfile;
use unicode_security::general_security_profile::IdentifierType;

/// Combining marks allowed on one character (enough for any real script, not for "Zalgo").
const MAX_MARKS: usize = 3;

/// Why a text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TextError {
    /// Nothing but spaces.
    #[error("the text is empty")]
    Empty,
    /// Longer than allowed.
    #[error("the text is longer than {0} characters")]
    TooLong(usize),
    /// Control characters.
    #[error("the text contains control characters")]
    Control,
    /// Invisible or direction-changing characters.
    #[error("the text contains invisible or direction-changing characters")]
    Invisible,
    /// Too many combining marks on one character.
    #[error("the text stacks too many combining marks")]
    Marks,
    /// A name that passes for someone or something else.
    #[error("the name {0:?} is taken or reserved")]
    Impersonation(String),
    /// A name without a letter or a digit.
    #[error("a name needs at least one letter or digit")]
    NoLetters,
}

/// Bidi embeddings, overrides and isolates: they reorder what follows them on screen.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Characters that show nothing (or nothing reliable): default-ignorables such as zero-width
/// spaces, noncharacters and unassigned code points, and line or paragraph separators.
fn is_invisible(c: char) -> bool {
    matches!(
        c.identifier_type(),
        Some(IdentifierType::Default_Ignorable | IdentifierType::Not_Character)
    ) || matches!(c, '\u{2028}' | '\u{2029}')
}

/// Normalises (NFC), folds every run of white space into one space, trims, and checks the
/// characters: `invisible` refuses every invisible character (names), otherwise only bidi
/// controls are refused (chat, where joiners build emoji).
fn normalise(text: &str, max: usize, invisible: bool) -> Result<String, TextError> {
    let mut out = String::with_capacity(text.len());
    let mut marks = 0;
    let mut space = false;
    for c in text.nfc() {
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        if c.is_control() {
            return Err(TextError::Control);
        }
        if is_bidi_control(c) || (invisible && is_invisible(c)) {
            return Err(TextError::Invisible);
        }
        if is_combining_mark(c) {
            marks += 1;
            if marks > MAX_MARKS {
                return Err(TextError::Marks);
            }
        } else {
            marks = 0;
        }
        if space {
            out.push(' ');
            space = false;
        }
        out.push(c);
    }
    if out.is_empty() {
        return Err(TextError::Empty);
    }
    if out.chars().count() > max {
        return Err(TextError::TooLong(max));
    }
    Ok(out)
}

/// A chat message or whisper, cleaned, or why it is refused.
pub fn chat_text(text: &str, max: usize) -> Result<String, TextError> {
    normalise(text, max, false)
}

/// What a name is compared by: its confusable skeleton, lower-cased, without spaces,
/// punctuation or symbols.
pub fn name_key(name: &str) -> String {
    let folded: String = name.nfkc().flat_map(char::to_lowercase).collect();
    unicode_security::skeleton(&folded)
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_alphanumeric())
        .collect()
}

/// Names nobody may take: the seats (in the client's languages), the spectators' default, bots
/// and the house — as their keys, computed once.
static RESERVED: LazyLock<HashSet<String>> = LazyLock::new(|| {
    const COLOURS: [&str; 16] = [
        "red", "blue", "yellow", "green", "rouge", "bleu", "jaune", "vert", "rosso", "blu",
        "giallo", "verde", "r", "b", "y", "g",
    ];
    const SUFFIXES: [&str; 8] = [
        "",
        "player",
        "army",
        "seat",
        "joueur",
        "armee",
        "giocatore",
        "esercito",
    ];
    const OTHERS: [&str; 15] = [
        "spectator",
        "spectateur",
        "spettatore",
        "server",
        "system",
        "admin",
        "administrator",
        "moderator",
        "djambi",
        "host",
        "bot",
        "botrandom",
        "boteasy",
        "botmedium",
        "bothard",
    ];
    let mut keys: HashSet<String> = OTHERS.iter().map(|o| name_key(o)).collect();
    for c in COLOURS {
        for s in SUFFIXES {
            keys.insert(name_key(&format!("{c}{s}")));
            keys.insert(name_key(&format!("{s}{c}")));
        }
    }
    keys
});

/// A name that stands for no person (a circle's): cleaned as display names are (NFC, spaces
/// folded, no control, invisible or direction-changing characters, at most `max` characters,
/// a letter or digit), but not checked against the seats' and the house's names.
pub fn plain_name(name: &str, max: usize) -> Result<String, TextError> {
    let name = normalise(name, max, true)?;
    if name_key(&name).is_empty() {
        return Err(TextError::NoLetters);
    }
    Ok(name)
}

/// A display name, cleaned, or why it is refused: `taken` are the names of the other people at
/// the table, which it must not look like.
pub fn display_name<'a>(
    name: &str,
    max: usize,
    taken: impl IntoIterator<Item = &'a str>,
) -> Result<String, TextError> {
    let name = normalise(name, max, true)?;
    let key = name_key(&name);
    if key.is_empty() {
        return Err(TextError::NoLetters);
    }
    if RESERVED.contains(&key) || taken.into_iter().any(|t| name_key(t) == key) {
        return Err(TextError::Impersonation(name));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_normalised() {
        assert_eq!(display_name("  Ann   Lee ", 32, []).unwrap(), "Ann Lee");
        // NFC: e + combining acute becomes é.
        assert_eq!(display_name("Rene\u{301}", 32, []).unwrap(), "René");
        assert_eq!(display_name("Zoë 🎲", 32, []).unwrap(), "Zoë 🎲");
        assert_eq!(display_name("", 32, []), Err(TextError::Empty));
        assert_eq!(display_name("abcdef", 5, []), Err(TextError::TooLong(5)));
    }

    #[test]
    fn invisible_and_reordering_characters_are_refused() {
        for bad in [
            "An\u{200B}n",
            "\u{202E}nnA",
            "A\u{2066}nn",
            "An\u{FEFF}n",
            "An\u{AD}n",
        ] {
            assert_eq!(
                display_name(bad, 32, []),
                Err(TextError::Invisible),
                "{bad:?}"
            );
        }
        assert_eq!(display_name("An\u{7}n", 32, []), Err(TextError::Control));
        assert_eq!(
            display_name("Z\u{300}\u{301}\u{302}\u{303}\u{304}", 32, []),
            Err(TextError::Marks)
        );
        // Chat keeps joiners (emoji sequences) but not bidi overrides.
        assert!(chat_text("👨\u{200D}👩\u{200D}👧", 100).is_ok());
        assert_eq!(
            chat_text("hi \u{202E}olleh", 100),
            Err(TextError::Invisible)
        );
        assert_eq!(chat_text("a\nb", 100).unwrap(), "a b");
    }

    #[test]
    fn names_that_impersonate_are_refused() {
        for bad in [
            "Red player",
            "RED  PLAYER",
            "red_player",
            "Rеd player", // Cyrillic е
            "Blue",
            "Green army",
            "Joueur rouge",
            "spectator",
            "Bot (hard)",
            "Server",
        ] {
            assert!(
                matches!(display_name(bad, 32, []), Err(TextError::Impersonation(_))),
                "{bad:?}"
            );
        }
        assert!(matches!(
            display_name("ANN", 32, ["Ann", "Bea"]),
            Err(TextError::Impersonation(_))
        ));
        assert_eq!(display_name("...", 32, []), Err(TextError::NoLetters));
        assert!(display_name("Annie", 32, ["Ann"]).is_ok());
        assert!(display_name("Redmond", 32, []).is_ok());
        assert!(display_name("Bobby", 32, []).is_ok());
    }

    #[test]
    fn plain_names_are_cleaned_but_not_reserved() {
        assert_eq!(
            plain_name("  Djambi   Thursdays ", 40).unwrap(),
            "Djambi Thursdays"
        );
        assert_eq!(plain_name("Djambi", 40).unwrap(), "Djambi");
        assert_eq!(plain_name("\u{202E}x", 40), Err(TextError::Invisible));
        assert_eq!(plain_name("--", 40), Err(TextError::NoLetters));
        assert_eq!(plain_name("abcdef", 5), Err(TextError::TooLong(5)));
    }
}
