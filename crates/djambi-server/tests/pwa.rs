//! The installable app on a real server (PROTOCOL §2, "The installable app"): the manifest and
//! the service worker at the root, the worker filled in with the client's hash and the files to
//! precache, both revalidated by that hash; the `/transfer` page; nothing else of the client moved.

mod common;

use std::path::{Path, PathBuf};

use common::*;

const INDEX: &str = "<!doctype html><link rel=\"manifest\" href=\"/manifest.webmanifest\">\
                     <script type=\"module\" src=\"/js/app.js\"></script>";
const WORKER: &str = "const HASH = '__DJAMBI_CLIENT_HASH__';\n\
                      const FILES = [/* __DJAMBI_CLIENT_FILES__ */];\n";
const MANIFEST: &str = "{\"name\": \"Djambi Online\", \"start_url\": \"/\"}";

/// A client folder with these files (path, contents), removed by the caller.
fn client(files: &[(&str, &str)]) -> PathBuf {
    let web = std::env::temp_dir().join(format!("djambi-web-{}", uuid::Uuid::new_v4()));
    for (path, text) in files {
        let file = web.join(path);
        std::fs::create_dir_all(file.parent().unwrap_or(Path::new("."))).unwrap();
        std::fs::write(file, text).unwrap();
    }
    web
}

/// The value of a response header (its name in lowercase), if there is one.
fn header(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim().eq_ignore_ascii_case(name)).then(|| v.trim().to_string())
    })
}

#[tokio::test]
async fn the_worker_and_the_manifest_are_served_at_the_root_under_the_clients_hash() {
    let web = client(&[
        ("index.html", INDEX),
        ("sw.js", WORKER),
        ("manifest.webmanifest", MANIFEST),
        ("offline.html", "<!doctype html><title>offline</title>"),
        ("js/app.js", "console.log('djambi');"),
        ("css/app.css", "body {}"),
    ]);
    let db = TestDb::sqlite();
    let dir = web.clone();
    let server = TestServer::start_with(&db, move |c| c.web_dir = Some(dir)).await;
    let addr = server.addr;

    // index.html: its script under the hash, the manifest at the root.
    let (s, _, page) = http_full(addr, "GET", "/", None).await;
    assert_eq!(s, 200);
    let hash = page
        .split("/v/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .expect("app.js under the hash")
        .to_string();
    assert!(page.contains("href=\"/manifest.webmanifest\""), "{page}");

    let (s, head, body) = http_full(addr, "GET", "/sw.js", None).await;
    assert_eq!(s, 200);
    assert_eq!(
        header(&head, "content-type").as_deref(),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(header(&head, "cache-control").as_deref(), Some("no-cache"));
    assert_eq!(header(&head, "etag"), Some(format!("\"{hash}\"")));
    assert_eq!(
        body,
        format!("const HASH = '{hash}';\nconst FILES = [\"css/app.css\", \"js/app.js\"];\n"),
        "the hash put in; the hashed files precached, not the pages nor the worker itself"
    );
    let (s, _, body) = http_with(
        addr,
        "GET",
        "/sw.js",
        None,
        &format!("If-None-Match: \"{hash}\"\r\n"),
    )
    .await;
    assert_eq!((s, body.as_str()), (304, ""));
    let (s, head, _) = http_full(addr, "HEAD", "/sw.js", None).await;
    assert_eq!(s, 200);
    assert_eq!(header(&head, "etag"), Some(format!("\"{hash}\"")));

    let (s, head, body) = http_full(addr, "GET", "/manifest.webmanifest", None).await;
    assert_eq!((s, body.as_str()), (200, MANIFEST));
    assert_eq!(
        header(&head, "content-type").as_deref(),
        Some("application/manifest+json")
    );
    assert_eq!(header(&head, "cache-control").as_deref(), Some("no-cache"));

    for path in ["/sw.js", "/manifest.webmanifest"] {
        for method in ["POST", "PUT", "DELETE"] {
            let (s, b) = http(addr, method, path, Some("{}")).await;
            assert_api_error(
                s,
                &serde_json::from_str(&b).unwrap(),
                405,
                "method_not_allowed",
            );
        }
    }
    // The page that imports games from another device is the client.
    let (s, page_again) = http(addr, "GET", "/transfer", None).await;
    assert_eq!((s, page_again), (200, page));
    server.stop().await;
    std::fs::remove_dir_all(&web).unwrap();
}

#[tokio::test]
async fn a_client_without_a_worker_or_manifest_answers_not_found() {
    let web = client(&[("index.html", "<!doctype html><title>Djambi</title>")]);
    let db = TestDb::sqlite();
    let dir = web.clone();
    let server = TestServer::start_with(&db, move |c| c.web_dir = Some(dir)).await;
    for path in ["/sw.js", "/manifest.webmanifest"] {
        let (s, b) = http(server.addr, "GET", path, None).await;
        assert_api_error(s, &serde_json::from_str(&b).unwrap(), 404, "not_found");
    }
    server.stop().await;
    std::fs::remove_dir_all(&web).unwrap();
}
