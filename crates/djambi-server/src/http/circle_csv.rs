//! A circle's exports as CSV (RFC 4180): the standings, and every seat of every game. Names are
//! people's text: a field is quoted when it holds a comma, a quote or a line break, and one
//! that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, a tab or a carriage return
//! first) is prefixed with `'`.

use crate::protocol::circle::CircleView;

/// People's text, defused: one a spreadsheet would run as a formula gets a `'` first.
pub(super) fn text(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// One CSV field, quoted when it must be.
pub(super) fn field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

fn line(fields: &[String]) -> String {
    let mut out = fields
        .iter()
        .map(|f| field(f))
        .collect::<Vec<_>>()
        .join(",");
    out.push_str("\r\n");
    out
}

fn opt<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// The standings, best first.
pub(super) fn standings(view: &CircleView) -> String {
    let mut out = line(
        &[
            "rank",
            "member",
            "name",
            "status",
            "rating",
            "mu",
            "sigma",
            "provisional",
            "games",
            "wins",
            "draws",
            "average_place",
            "last_played",
        ]
        .map(String::from),
    );
    for (i, m) in view.members.iter().enumerate() {
        out.push_str(&line(&[
            (i + 1).to_string(),
            m.id.to_string(),
            text(&m.name),
            m.status.to_string(),
            m.rating.to_string(),
            m.mu.to_string(),
            m.sigma.to_string(),
            m.provisional.to_string(),
            m.games.to_string(),
            m.wins.to_string(),
            m.draws.to_string(),
            opt(m.average_place),
            opt(m.last_played.clone()),
        ]));
    }
    out
}

/// Every seat of every game listed, newest game first.
pub(super) fn games(view: &CircleView) -> String {
    let mut out = line(
        &[
            "game", "status", "created", "finished", "rated", "seat", "name", "member", "bot",
            "place", "end",
        ]
        .map(String::from),
    );
    for g in &view.games {
        for s in &g.seats {
            out.push_str(&line(&[
                g.id.to_string(),
                g.status.as_str().to_string(),
                g.created_at.clone(),
                opt(g.finished.clone()),
                g.rated.to_string(),
                s.player.char().to_string(),
                s.name.as_deref().map(text).unwrap_or_default(),
                opt(s.member),
                opt(s.bot.map(|b| b.0.name())),
                opt(g.places.get(&s.player)),
                opt(s.end),
            ]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_and_formulas_defused() {
        assert_eq!(field("Ann"), "Ann");
        assert_eq!(field("Ann, Bea"), "\"Ann, Bea\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(field(&text("=1+1")), "'=1+1");
        assert_eq!(field(&text("-2,x")), "\"'-2,x\"");
        assert_eq!(field(&text("@SUM(A1)")), "'@SUM(A1)");
        // Numbers are not people's text: a negative rating stays a number.
        assert_eq!(field("-1.25"), "-1.25");
    }
}
