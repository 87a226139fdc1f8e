//! The browser client from `web/`: static files, and `index.html` for the client's own pages
//! (`/`, `/rules`, `/learn`, `/learn/{lesson}`, `/puzzles`, `/puzzles/{id}`, `/transfer`,
//! `/game/{id}`, `/game/{id}/replay`, `/circle/{id}`, `/circle/{id}/join`: the client routes by path, so a reload or a shared link of
//! any of them works); the manifest and the service worker (pwa.rs). Without a `web/` folder
//! every such path is a clean 404.
//! A missing path asked for by a browser's page load is the client with status 404 (it shows its
//! own "no such page"); asked for by anything else, the JSON `not_found` error.
//! Only `GET` and `HEAD` read files; any other method is the JSON `method_not_allowed` error,
//! and an unknown `/api/…` path is the JSON `not_found` error whatever its method.
//!
//! Caching: at start-up the server hashes the whole client folder; `index.html` refers to its
//! files under `/v/<hash>/…`, which are cached for a year (`immutable`: a new client is a new
//! hash), while `index.html` itself and files asked for by their plain path are revalidated on
//! every use (`no-cache`, with an `ETag` or `Last-Modified`). Responses are compressed (gzip or
//! brotli) by the router's compression layer.

use std::convert::Infallible;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::any;
use sha2::{Digest, Sha256};
use tower::ServiceExt;
use tower::util::BoxCloneSyncService;
use tower_http::services::ServeDir;

use crate::AppState;
use crate::error::AppError;

type Files = BoxCloneSyncService<Request, Response, Infallible>;

/// Revalidate on every use.
const NO_CACHE: HeaderValue = HeaderValue::from_static("no-cache");
/// A file under its content hash: it never changes.
const IMMUTABLE: HeaderValue = HeaderValue::from_static("public, max-age=31536000, immutable");

/// The client as served: its hash, its files (paths relative to its folder) and its rewritten
/// `index.html`.
struct Client {
    hash: String,
    files: Vec<String>,
    index: Option<Vec<u8>>,
}

impl Client {
    fn load(dir: &Path) -> Client {
        let mut files = Vec::new();
        collect(dir, dir, &mut files);
        files.sort();
        let mut digest = Sha256::new();
        for (path, bytes) in &files {
            digest.update(path.as_bytes());
            digest.update((bytes.len() as u64).to_le_bytes());
            digest.update(bytes);
        }
        let hash: String = digest
            .finalize()
            .iter()
            .take(6)
            .map(|b| format!("{b:02x}"))
            .collect();
        let index = std::fs::read_to_string(dir.join("index.html"))
            .ok()
            .map(|html| versioned(&html, &hash, dir).into_bytes());
        let files = files.into_iter().map(|(path, _)| path).collect();
        Client { hash, files, index }
    }
}

/// Every file under `dir` as (path relative to `root`, contents).
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, Vec<u8>)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(root, &path, out);
        } else if let (Ok(bytes), Ok(rel)) = (std::fs::read(&path), path.strip_prefix(root)) {
            out.push((rel.to_string_lossy().replace('\\', "/"), bytes));
        }
    }
}

/// `html` with every `src="/…"` and `href="/…"` that names a file of the client moved under
/// `/v/<hash>/` (page links such as `href="/rules"` are not files and stay, and so do the
/// manifest and the service worker, which live at the root).
fn versioned(html: &str, hash: &str, dir: &Path) -> String {
    let mut out = String::with_capacity(html.len() + 256);
    let mut rest = html;
    while let Some(at) = rest.find("=\"/") {
        let (head, tail) = rest.split_at(at + 2);
        out.push_str(head);
        let end = tail.find('"').unwrap_or(tail.len());
        let target = &tail[1..end];
        let file = target.split(['?', '#']).next().unwrap_or("");
        let attr_ok = head.ends_with("src=\"") || head.ends_with("href=\"");
        let hashed =
            !file.is_empty() && !file.contains("..") && !super::pwa::AT_ROOT.contains(&file);
        if attr_ok && hashed && dir.join(file).is_file() {
            out.push_str(&format!("/v/{hash}/"));
            out.push_str(target);
        } else {
            out.push('/');
            out.push_str(target);
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

pub(super) fn router(web_dir: &Path) -> Router<AppState> {
    let client = Arc::new(Client::load(web_dir));
    let missing_page = {
        let client = client.clone();
        tower::service_fn(move |req: Request| {
            let client = client.clone();
            async move { Ok::<_, Infallible>(missing(&client, &req)) }
        })
    };
    let dir = ServeDir::new(web_dir)
        .append_index_html_on_directories(false)
        .fallback(missing_page);
    let files: Files = BoxCloneSyncService::new(dir.map_response(IntoResponse::into_response));
    let page = {
        let client = client.clone();
        BoxCloneSyncService::new(tower::service_fn(move |req: Request| {
            let client = client.clone();
            async move { Ok::<_, Infallible>(index(&client, &req)) }
        }))
    };
    let versioned_files = {
        let client = client.clone();
        let files = files.clone();
        BoxCloneSyncService::new(tower::service_fn(move |req: Request| {
            serve_versioned(client.clone(), files.clone(), req)
        }))
    };
    let plain_files = {
        let client = client.clone();
        let files = files.clone();
        BoxCloneSyncService::new(tower::service_fn(move |req: Request| {
            let (client, files) = (client.clone(), files.clone());
            async move {
                let path = req.uri().path();
                if path == "/" || path == "/index.html" {
                    return Ok(index(&client, &req));
                }
                let mut response = files.oneshot(req).await?;
                response
                    .headers_mut()
                    .insert(header::CACHE_CONTROL, NO_CACHE);
                Ok(response)
            }
        }))
    };
    Router::new()
        .route_service("/rules", read_only(page.clone()))
        .route_service("/transfer", read_only(page.clone()))
        .route_service("/learn", read_only(page.clone()))
        .route_service("/learn/{lesson}", read_only(page.clone()))
        .route_service("/puzzles", read_only(page.clone()))
        .route_service("/puzzles/{id}", read_only(page.clone()))
        .route_service("/game/{id}", read_only(page.clone()))
        .route_service("/game/{id}/replay", read_only(page.clone()))
        .route_service("/circle/{id}", read_only(page.clone()))
        .route_service("/circle/{id}/join", read_only(page))
        .route_service("/v/{hash}/{*path}", read_only(versioned_files))
        .route("/api", any(no_api_route))
        .route("/api/{*rest}", any(no_api_route))
        .merge(super::pwa::router(&client.hash, &client.files, web_dir))
        .fallback_service(read_only(plain_files))
}

/// `index.html`, its files under the client's hash; revalidated on every use (its `ETag` is the
/// client's hash).
fn index(client: &Client, req: &Request) -> Response {
    let Some(body) = &client.index else {
        return AppError::NotFound("no such page".into()).into_response();
    };
    let etag = format!("\"{}\"", client.hash);
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        html(body, req).into_response()
    };
    let headers = response.headers_mut();
    headers.insert(header::CACHE_CONTROL, NO_CACHE);
    if let Ok(etag) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, etag);
    }
    response
}

/// A path the client does not have: a browser asking for a page (`Accept: text/html`) gets the
/// client itself with status 404, which shows its own "no such page"; anything else (a script,
/// an image, a tool) the JSON `not_found` error.
fn missing(client: &Client, req: &Request) -> Response {
    let wants_page = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.contains("text/html"));
    match &client.index {
        Some(body) if wants_page => {
            let mut response = (StatusCode::NOT_FOUND, html(body, req)).into_response();
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, NO_CACHE);
            response
        }
        _ => AppError::NotFound("no such page".into()).into_response(),
    }
}

/// `index.html` as a response body (empty for `HEAD`).
fn html(body: &[u8], req: &Request) -> impl IntoResponse + use<> {
    let body = if req.method() == Method::HEAD {
        Body::empty()
    } else {
        Body::from(body.to_vec())
    };
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body)
}

/// A file under `/v/<hash>/`: cached for good when the hash is the client's; an old hash (a
/// page from before an upgrade) gets today's file, revalidated.
async fn serve_versioned(
    client: Arc<Client>,
    files: Files,
    req: Request,
) -> Result<Response, Infallible> {
    let path = req.uri().path().to_string();
    let mut parts = path.trim_start_matches('/').splitn(3, '/');
    let (_, hash, file) = (parts.next(), parts.next().unwrap_or(""), parts.next());
    let current = hash == client.hash;
    let mut plain = Request::from_parts(req.into_parts().0, Body::empty());
    let target: PathBuf = PathBuf::from("/").join(file.unwrap_or(""));
    let uri = target.to_string_lossy().replace('\\', "/");
    match uri.parse() {
        Ok(uri) => *plain.uri_mut() = uri,
        Err(_) => return Ok(AppError::NotFound("no such file".into()).into_response()),
    }
    let mut response = files.oneshot(plain).await?;
    if response.status().is_success() {
        response.headers_mut().insert(
            header::CACHE_CONTROL,
            if current { IMMUTABLE } else { NO_CACHE },
        );
    }
    Ok(response)
}

/// A file service that answers only `GET` and `HEAD`.
fn read_only(files: Files) -> Files {
    BoxCloneSyncService::new(tower::service_fn(move |req: Request| {
        let files = files.clone();
        async move {
            if req.method() != Method::GET && req.method() != Method::HEAD {
                return Ok(AppError::MethodNotAllowed.into_response());
            }
            files.oneshot(req).await
        }
    }))
}

async fn no_api_route() -> AppError {
    AppError::NotFound("no such API route".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_refers_to_files_under_the_hash() {
        let dir = std::env::temp_dir().join(format!("djambi-web-{}", uuid::Uuid::new_v4()));
        std::fs::create_dir_all(dir.join("js")).unwrap();
        std::fs::write(dir.join("js/app.js"), "x").unwrap();
        std::fs::write(dir.join("favicon.svg"), "<svg/>").unwrap();
        let html = r#"<link rel="icon" href="/favicon.svg"><script src="/js/app.js"></script><a href="/">home</a><a href="/rules">rules</a>"#;
        let out = versioned(html, "abc", &dir);
        assert_eq!(
            out,
            r#"<link rel="icon" href="/v/abc/favicon.svg"><script src="/v/abc/js/app.js"></script><a href="/">home</a><a href="/rules">rules</a>"#
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}
