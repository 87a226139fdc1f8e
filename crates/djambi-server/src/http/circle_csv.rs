//! A circle's exports as CSV (RFC 4180, written by the `csv` crate: a field is quoted when it
//! holds a comma, a quote or a line break; lines end in CRLF): the standings, and every seat of
//! every game. Names are people's text: one that a spreadsheet would run as a formula (`=`,
//! `+`, `-`, `@`, a tab or a carriage return first) is prefixed with `'`.

use crate::protocol::circle::CircleView;

/// People's text, defused: one a spreadsheet would run as a formula gets a `'` first.
pub(super) fn text(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    }
}

/// Writes one record per line.
struct Table(csv::Writer<Vec<u8>>);

impl Table {
    fn new(header: &[&str]) -> Table {
        let mut writer = csv::WriterBuilder::new()
            .terminator(csv::Terminator::CRLF)
            .from_writer(Vec::new());
        writer.write_record(header).expect("writing to memory");
        Table(writer)
    }

    fn line(&mut self, fields: &[String]) {
        self.0.write_record(fields).expect("writing to memory");
    }

    fn text(self) -> String {
        let bytes = self.0.into_inner().expect("writing to memory");
        String::from_utf8(bytes).expect("the fields are UTF-8")
    }
}

fn opt<T: ToString>(value: Option<T>) -> String {
    value.map(|v| v.to_string()).unwrap_or_default()
}

/// The standings, best first.
pub(super) fn standings(view: &CircleView) -> String {
    let mut out = Table::new(&[
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
    ]);
    for (i, m) in view.members.iter().enumerate() {
        out.line(&[
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
        ]);
    }
    out.text()
}

/// Every seat of every game listed, newest game first.
pub(super) fn games(view: &CircleView) -> String {
    let mut out = Table::new(&[
        "game", "status", "created", "finished", "rated", "seat", "name", "member", "bot", "place",
        "end",
    ]);
    for g in &view.games {
        for s in &g.seats {
            out.line(&[
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
            ]);
        }
    }
    out.text()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_and_formulas_defused() {
        let row = |fields: &[&str]| {
            let mut t = Table::new(&vec!["h"; fields.len()]);
            t.line(&fields.iter().map(|f| f.to_string()).collect::<Vec<_>>());
            t.text().split_once("\r\n").unwrap().1.to_string()
        };
        assert_eq!(row(&["Ann"]), "Ann\r\n");
        assert_eq!(row(&["Ann, Bea"]), "\"Ann, Bea\"\r\n");
        assert_eq!(row(&["say \"hi\""]), "\"say \"\"hi\"\"\"\r\n");
        assert_eq!(row(&[&text("=1+1")]), "'=1+1\r\n");
        assert_eq!(row(&[&text("-2,x")]), "\"'-2,x\"\r\n");
        assert_eq!(
            row(&[&text("@SUM(A1)"), "two\nlines"]),
            "'@SUM(A1),\"two\nlines\"\r\n"
        );
        // Numbers are not people's text: a negative rating stays a number.
        assert_eq!(row(&["-1.25"]), "-1.25\r\n");
    }
}
