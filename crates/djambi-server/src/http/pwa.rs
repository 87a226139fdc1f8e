//! The installable app (PROTOCOL §2, "The installable app"): the web app manifest at
//! `/manifest.webmanifest` (`application/manifest+json`) and the service worker at `/sw.js`, at
//! the root so that its scope is the whole site. Both are read from the client folder at
//! start-up, like `index.html`.
//!
//! The service worker (`web/sw.js`) is a template: the server puts the client's hash in it, and
//! the list of the client's files to precache under `/v/<hash>/`. A new client is therefore a new
//! worker, with a cache named after the new hash; the browser installs it at its next check (the
//! file is revalidated on every use, `no-cache`), and the worker deletes the old caches when it
//! takes over. Both answers carry the client's hash as their `ETag`.

use std::path::Path;

use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;

use crate::AppState;
use crate::error::AppError;

/// Where the template takes the client's hash.
const HASH_SLOT: &str = "__DJAMBI_CLIENT_HASH__";
/// Where the template takes the list of files to precache (a JavaScript array's items).
const FILES_SLOT: &str = "/* __DJAMBI_CLIENT_FILES__ */";

/// The files served at the root only, never under `/v/<hash>/`: the service worker's scope is
/// the folder it is served from, and the manifest keeps one address across versions.
pub(super) const AT_ROOT: [&str; 2] = ["sw.js", "manifest.webmanifest"];

/// The files of the client that are not precached under the hash: those at the root, and the
/// pages (`index.html` is composed by the server; the offline page is cached by its own path).
const NOT_PRECACHED: [&str; 2] = ["index.html", "offline.html"];

/// A file served as it was at start-up.
#[derive(Clone)]
struct Fixed {
    body: Option<Vec<u8>>,
    content_type: &'static str,
    etag: String,
}

/// The routes of the manifest and the service worker, for the client of `hash` whose files
/// (paths relative to `web_dir`) are `files`.
pub(super) fn router(hash: &str, files: &[String], web_dir: &Path) -> Router<AppState> {
    let etag = format!("\"{hash}\"");
    let worker = Fixed {
        body: std::fs::read_to_string(web_dir.join("sw.js"))
            .ok()
            .map(|template| service_worker(&template, hash, files).into_bytes()),
        content_type: "text/javascript; charset=utf-8",
        etag: etag.clone(),
    };
    let manifest = Fixed {
        body: std::fs::read(web_dir.join("manifest.webmanifest")).ok(),
        content_type: "application/manifest+json",
        etag,
    };
    Router::new()
        .route(
            "/sw.js",
            any(move |req: Request| std::future::ready(worker.serve(&req))),
        )
        .route(
            "/manifest.webmanifest",
            any(move |req: Request| std::future::ready(manifest.serve(&req))),
        )
}

/// The service worker: `template` with the client's hash and its precached files put in.
fn service_worker(template: &str, hash: &str, files: &[String]) -> String {
    let precached: Vec<String> = files
        .iter()
        .filter(|f| {
            let f = f.as_str();
            !NOT_PRECACHED.contains(&f) && !AT_ROOT.contains(&f) && !f.starts_with('.')
        })
        .map(|f| serde_json::Value::String(f.clone()).to_string())
        .collect();
    template
        .replace(HASH_SLOT, hash)
        .replace(FILES_SLOT, &precached.join(", "))
}

impl Fixed {
    /// The file for `GET` and `HEAD` (304 when the client has this version), revalidated on
    /// every use; `not_found` when the client folder lacks it.
    fn serve(&self, req: &Request) -> Response {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            return AppError::MethodNotAllowed.into_response();
        }
        let Some(body) = &self.body else {
            return AppError::NotFound("no such file".into()).into_response();
        };
        let fresh = req
            .headers()
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == self.etag));
        let mut response = if fresh {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            body.clone().into_response()
        };
        let headers = response.headers_mut();
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static(self.content_type),
        );
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        if let Ok(etag) = HeaderValue::from_str(&self.etag) {
            headers.insert(header::ETAG, etag);
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_names_the_hash_and_precaches_the_hashed_files_only() {
        let template = "const HASH = '__DJAMBI_CLIENT_HASH__';\nconst FILES = [/* __DJAMBI_CLIENT_FILES__ */];";
        let files = [
            "index.html",
            "sw.js",
            "js/app.js",
            "offline.html",
            "css/app.css",
            "manifest.webmanifest",
        ]
        .map(String::from);
        assert_eq!(
            service_worker(template, "abc123", &files),
            "const HASH = 'abc123';\nconst FILES = [\"js/app.js\", \"css/app.css\"];"
        );
    }
}
