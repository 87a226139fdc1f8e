//! The words of a push notification, in the language the subscribing browser asked for (English,
//! French or Italian, as the web client): a title and a body per notice. Kept here, on the
//! server, because the payload is shown as it comes (the service worker has no dictionary).

use djambi_core::Player;

use crate::table::{Ending, Notice};

/// A language of the notifications.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// French.
    Fr,
    /// Italian.
    It,
}

impl Lang {
    /// The language of a browser's tag (`fr`, `fr-CA`, `IT`…); English for anything else.
    pub fn of_tag(tag: &str) -> Lang {
        let primary = tag.split(['-', '_']).next().unwrap_or("");
        match primary.to_ascii_lowercase().as_str() {
            "fr" => Lang::Fr,
            "it" => Lang::It,
            _ => Lang::En,
        }
    }

    /// Its code, as stored.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
            Lang::It => "it",
        }
    }
}

/// An army's name, as the web client says it (`player.r` of its dictionaries).
fn army(lang: Lang, p: Player) -> &'static str {
    const NAMES: [[&str; 4]; 3] = [
        ["Red", "Blue", "Yellow", "Green"],
        ["Rouge", "Bleu", "Jaune", "Vert"],
        ["Rosso", "Blu", "Giallo", "Verde"],
    ];
    NAMES[lang as usize][p.index()]
}

/// A duration as a person reads it on a deadline: hours (rounded down), minutes under two
/// hours, "less than a minute" at the very end.
fn left(lang: Lang, ms: i64) -> String {
    let minutes = ms / 60_000;
    if minutes < 1 {
        return match lang {
            Lang::En => "less than a minute",
            Lang::Fr => "moins d'une minute",
            Lang::It => "meno di un minuto",
        }
        .into();
    }
    let (n, unit) = if minutes >= 120 {
        (minutes / 60, 0)
    } else {
        (minutes, 1)
    };
    let unit = match (lang, unit, n == 1) {
        (Lang::En, 0, true) => "hour",
        (Lang::En, 0, false) => "hours",
        (Lang::En, _, true) => "minute",
        (Lang::En, _, false) => "minutes",
        (Lang::Fr, 0, true) => "heure",
        (Lang::Fr, 0, false) => "heures",
        (Lang::Fr, _, _) => "min",
        (Lang::It, 0, true) => "ora",
        (Lang::It, 0, false) => "ore",
        (Lang::It, _, true) => "minuto",
        (Lang::It, _, false) => "minuti",
    };
    format!("{n} {unit}")
}

/// The title and body of the push that tells a circle's member of a new game in their circle.
pub fn circle_words(lang: Lang, circle: &str, by: &str) -> (String, String) {
    match lang {
        Lang::En => (
            format!("New game in {circle} — Djambi"),
            format!("{by} created a game: take a seat from the circle's page."),
        ),
        Lang::Fr => (
            format!("Nouvelle partie dans {circle} — Djambi"),
            format!("{by} a créé une partie : prenez une place depuis la page du cercle."),
        ),
        Lang::It => (
            format!("Nuova partita in {circle} — Djambi"),
            format!("{by} ha creato una partita: prendi un posto dalla pagina del circolo."),
        ),
    }
}

/// The title and body of `notice` to the player of `seat`, in `lang`.
pub fn words(lang: Lang, seat: Player, notice: &Notice) -> (String, String) {
    let you = army(lang, seat);
    match (lang, *notice) {
        (Lang::En, Notice::YourTurn) => (
            "Your turn — Djambi".into(),
            format!("It is your turn to play {you}."),
        ),
        (Lang::Fr, Notice::YourTurn) => (
            "À vous de jouer — Djambi".into(),
            format!("C'est à vous de jouer avec {you}."),
        ),
        (Lang::It, Notice::YourTurn) => (
            "Tocca a te — Djambi".into(),
            format!("Tocca a te giocare {you}."),
        ),
        (Lang::En, Notice::DrawOffer { by }) => (
            "Draw offered — Djambi".into(),
            format!("{} offers a draw: do you agree?", army(lang, by)),
        ),
        (Lang::Fr, Notice::DrawOffer { by }) => (
            "Nulle proposée — Djambi".into(),
            format!("{} propose la nulle : acceptez-vous ?", army(lang, by)),
        ),
        (Lang::It, Notice::DrawOffer { by }) => (
            "Patta proposta — Djambi".into(),
            format!("{} propone la patta: accetti?", army(lang, by)),
        ),
        (Lang::En, Notice::Vote { by, target }) => (
            "A vote needs you — Djambi".into(),
            format!(
                "{} calls a vote about {}, who is away.",
                army(lang, by),
                army(lang, target)
            ),
        ),
        (Lang::Fr, Notice::Vote { by, target }) => (
            "Un vote vous attend — Djambi".into(),
            format!(
                "{} lance un vote sur {}, qui est absent.",
                army(lang, by),
                army(lang, target)
            ),
        ),
        (Lang::It, Notice::Vote { by, target }) => (
            "Una votazione ti aspetta — Djambi".into(),
            format!(
                "{} apre una votazione su {}, che è assente.",
                army(lang, by),
                army(lang, target)
            ),
        ),
        (Lang::En, Notice::Takeback { by }) => (
            "Takeback asked — Djambi".into(),
            format!("{} asks to take back their last turn.", army(lang, by)),
        ),
        (Lang::Fr, Notice::Takeback { by }) => (
            "Reprise demandée — Djambi".into(),
            format!("{} demande à reprendre son dernier coup.", army(lang, by)),
        ),
        (Lang::It, Notice::Takeback { by }) => (
            "Ripresa richiesta — Djambi".into(),
            format!("{} chiede di riprendere l'ultima mossa.", army(lang, by)),
        ),
        (Lang::En, Notice::Deadline { left_ms }) => (
            "Time is running out — Djambi".into(),
            format!(
                "{} left to play your turn as {you}.",
                capitalised(&left(lang, left_ms))
            ),
        ),
        (Lang::Fr, Notice::Deadline { left_ms }) => (
            "Le temps presse — Djambi".into(),
            format!(
                "Il vous reste {} pour jouer votre coup avec {you}.",
                left(lang, left_ms)
            ),
        ),
        (Lang::It, Notice::Deadline { left_ms }) => (
            "Il tempo stringe — Djambi".into(),
            format!(
                "Ti restano {} per giocare la tua mossa con {you}.",
                left(lang, left_ms)
            ),
        ),
        (lang, Notice::GameOver(ending)) => game_over(lang, ending),
    }
}

fn game_over(lang: Lang, ending: Ending) -> (String, String) {
    let title = match lang {
        Lang::En => "Game over — Djambi",
        Lang::Fr => "Partie terminée — Djambi",
        Lang::It => "Partita finita — Djambi",
    };
    let body = match (lang, ending) {
        (Lang::En, Ending::Won(p)) => format!("{} wins the game.", army(lang, p)),
        (Lang::Fr, Ending::Won(p)) => format!("{} gagne la partie.", army(lang, p)),
        (Lang::It, Ending::Won(p)) => format!("{} vince la partita.", army(lang, p)),
        (Lang::En, Ending::Drawn) => "The game is drawn.".into(),
        (Lang::Fr, Ending::Drawn) => "La partie est nulle.".into(),
        (Lang::It, Ending::Drawn) => "La partita è patta.".into(),
        (Lang::En, Ending::Cancelled) => "The game was called off.".into(),
        (Lang::Fr, Ending::Cancelled) => "La partie a été annulée.".into(),
        (Lang::It, Ending::Cancelled) => "La partita è stata annullata.".into(),
    };
    (title.into(), body)
}

fn capitalised(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use djambi_core::Army::*;

    #[test]
    fn languages_from_browser_tags() {
        assert_eq!(Lang::of_tag("fr-CA"), Lang::Fr);
        assert_eq!(Lang::of_tag("IT"), Lang::It);
        assert_eq!(Lang::of_tag("de"), Lang::En);
        assert_eq!(Lang::of_tag(""), Lang::En);
    }

    #[test]
    fn every_notice_has_words_in_every_language() {
        let notices = [
            Notice::YourTurn,
            Notice::DrawOffer { by: Blue },
            Notice::Vote {
                by: Blue,
                target: Green,
            },
            Notice::Takeback { by: Yellow },
            Notice::Deadline { left_ms: 3_600_000 },
            Notice::GameOver(Ending::Won(Red)),
            Notice::GameOver(Ending::Drawn),
            Notice::GameOver(Ending::Cancelled),
        ];
        for lang in [Lang::En, Lang::Fr, Lang::It] {
            for n in &notices {
                let (title, body) = words(lang, Red, n);
                assert!(
                    title.ends_with("— Djambi") && !body.is_empty(),
                    "{lang:?} {n:?}"
                );
            }
        }
        assert_eq!(
            words(Lang::Fr, Blue, &Notice::YourTurn).1,
            "C'est à vous de jouer avec Bleu."
        );
        assert_eq!(
            words(
                Lang::En,
                Red,
                &Notice::Deadline {
                    left_ms: 5 * 3_600_000
                }
            )
            .1,
            "5 hours left to play your turn as Red."
        );
        assert_eq!(
            words(
                Lang::It,
                Red,
                &Notice::Deadline {
                    left_ms: 90 * 60_000
                }
            )
            .1,
            "Ti restano 90 minuti per giocare la tua mossa con Rosso."
        );
    }
}
