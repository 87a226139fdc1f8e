//! The source text as the layering tests read it: comments and literals blanked, `#[cfg(test)]`
//! items removed, and the paths the code names (`crate::a::{b, c}` expanded).

/// The code of a source file: comments and the contents of string and character literals
/// blanked, and every item marked `#[cfg(test)]` (a test module, a test helper) removed.
pub fn code_of(source: &str) -> String {
    remove_test_items(&blank(source))
}

/// Comments and literal contents replaced by spaces (line breaks kept).
fn blank(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    let keep_lines = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(keep_lines(chars[i]));
                    i += 1;
                }
            }
        } else if c == 'r' && (next == Some('"') || next == Some('#')) && !ident_before(&chars, i) {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            out.push('"');
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|k| chars.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                out.push(keep_lines(chars[j]));
                j += 1;
            }
            out.push('"');
            i = j;
        } else if c == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < chars.len() {
                    out.push(keep_lines(chars[i]));
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{1F600}'), or a lifetime ('a).
            let close = if next == Some('\\') {
                (i + 2..chars.len().min(i + 12)).find(|&k| chars[k] == '\'')
            } else if chars.get(i + 2) == Some(&'\'') {
                Some(i + 2)
            } else {
                None
            };
            match close {
                Some(k) => {
                    out.push_str("' '");
                    out.extend(std::iter::repeat_n(' ', k - i - 2));
                    i = k + 1;
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn ident_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// The code without the items that follow a `#[cfg(test)]` attribute: up to the first `;` at
/// the item's level, or through the first `{ … }` block.
fn remove_test_items(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        let mut depth = 0usize;
        let mut end = item.len();
        for (k, c) in item.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

/// A token of the code, as far as paths need.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Ident(String),
    Colons,
    Open,
    Close,
    Comma,
    Other,
}

fn tokens(code: &str) -> Vec<Token> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Ident(chars[start..i].iter().collect()));
            continue;
        }
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        let token = match c {
            ':' if chars.get(i + 1) == Some(&':') => {
                i += 1;
                Token::Colons
            }
            '{' => Token::Open,
            '}' => Token::Close,
            ',' => Token::Comma,
            _ => Token::Other,
        };
        out.push(token);
        i += 1;
    }
    out
}

/// Every path of the code with at least two segments, use-tree groups expanded
/// (`crate::a::{b, c::d}` gives `crate::a::b` and `crate::a::c::d`), as written.
pub fn paths(code: &str) -> Vec<Vec<String>> {
    let t = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let starts = matches!(t[i], Token::Ident(_)) && (i == 0 || t[i - 1] != Token::Colons);
        if starts && t.get(i + 1) == Some(&Token::Colons) {
            i = path_at(&t, i, Vec::new(), &mut out);
        } else {
            i += 1;
        }
    }
    out
}

/// Reads the path starting at `t[i]` under `prefix` into `out`; returns the index after it.
fn path_at(
    t: &[Token],
    mut i: usize,
    mut prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    while let Some(Token::Ident(name)) = t.get(i) {
        prefix.push(name.clone());
        i += 1;
        if t.get(i) != Some(&Token::Colons) {
            out.push(prefix);
            return i;
        }
        i += 1;
        if t.get(i) == Some(&Token::Open) {
            i += 1;
            loop {
                match t.get(i) {
                    Some(Token::Close) | None => return i + 1,
                    Some(Token::Comma) => i += 1,
                    Some(Token::Ident(_)) => i = path_at(t, i, prefix.clone(), out),
                    Some(_) => i += 1,
                }
            }
        }
    }
    out.push(prefix);
    i
}
