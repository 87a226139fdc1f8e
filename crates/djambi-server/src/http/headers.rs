//! Security headers on every response (pages, files and the API alike): a Content Security
//! Policy that lets the client load only its own scripts, styles, images and sockets (no inline
//! script but the offline page's own, allowed by its hash), never to be framed by another site;
//! `X-Content-Type-Options: nosniff`; `X-Frame-Options: DENY` for browsers without
//! `frame-ancestors`; `Referrer-Policy: no-referrer` (a game's URL is a capability for
//! spectators: it is never sent to another site). A handler that sets one of them keeps its
//! own.

use std::path::Path;

use axum::Router;
use axum::http::{HeaderName, HeaderValue, header};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use sha2::{Digest, Sha256};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::AppState;

/// The pages whose inline `<script>` and `<style>` blocks the policy allows by their hash
/// (the client's pages load theirs from files; the offline page must stand alone).
const PAGES: [&str; 2] = ["index.html", "offline.html"];

/// The policy for the client in `web_dir`.
pub fn content_security_policy(web_dir: &Path) -> String {
    let mut scripts = Vec::new();
    let mut styles = Vec::new();
    for page in PAGES {
        let Ok(html) = std::fs::read_to_string(web_dir.join(page)) else {
            continue;
        };
        scripts.extend(inline_blocks(&html, "script").map(hash));
        styles.extend(inline_blocks(&html, "style").map(hash));
    }
    let sources = |hashes: &[String]| hashes.iter().map(|h| format!(" '{h}'")).collect::<String>();
    format!(
        "default-src 'self'; script-src 'self'{}; style-src 'self'{}; img-src 'self' data:; \
         connect-src 'self'; worker-src 'self'; manifest-src 'self'; font-src 'self'; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        sources(&scripts),
        sources(&styles)
    )
}

/// The text of every inline `<tag>…</tag>` block of `html` (those without a `src`).
fn inline_blocks<'a>(html: &'a str, tag: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let mut rest = html;
    std::iter::from_fn(move || {
        loop {
            let start = rest.find(&open)?;
            let after = &rest[start + open.len()..];
            let head_end = after.find('>')?;
            let head = &after[..head_end];
            let body = &after[head_end + 1..];
            let end = body.find(&close)?;
            rest = &body[end + close.len()..];
            if !head.contains("src=") {
                return Some(&body[..end]);
            }
        }
    })
}

fn hash(text: &str) -> String {
    format!(
        "sha256-{}",
        STANDARD.encode(Sha256::digest(text.as_bytes()))
    )
}

/// The router with the security headers on every response.
pub fn secure(router: Router<AppState>, web_dir: &Path) -> Router<AppState> {
    let csp = HeaderValue::from_str(&content_security_policy(web_dir))
        .expect("the policy is a header value");
    let headers: [(HeaderName, HeaderValue); 4] = [
        (header::CONTENT_SECURITY_POLICY, csp),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
    ];
    headers.into_iter().fold(router, |router, (name, value)| {
        router.layer(SetResponseHeaderLayer::if_not_present(name, value))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_blocks_are_found_and_files_are_not() {
        let html = "<head><script type=\"module\" src=\"/js/app.js\"></script>\
                    <style>a{color:red}</style></head><body><script>run()</script></body>";
        assert_eq!(inline_blocks(html, "script").collect::<Vec<_>>(), ["run()"]);
        assert_eq!(
            inline_blocks(html, "style").collect::<Vec<_>>(),
            ["a{color:red}"]
        );
    }

    #[test]
    fn the_offline_page_s_inline_script_is_allowed_by_its_hash() {
        let web = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../web"));
        let csp = content_security_policy(web);
        let html = std::fs::read_to_string(web.join("offline.html")).unwrap();
        let script = inline_blocks(&html, "script")
            .next()
            .expect("an inline script");
        assert!(csp.contains(&hash(script)), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"));
        assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"));
    }
}
