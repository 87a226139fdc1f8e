//! HTTP in tests. A server of this process is reached without a socket: its router answers the
//! request through `tower::ServiceExt::oneshot`, with the client address its accept loop would
//! have given it (the same `TrustedProxies::client` reading of `X-Forwarded-For`). A server in
//! another process (a node behind HAProxy) is reached over TCP with hyper's client.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{LazyLock, Mutex};

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, Request, Response};
use djambi_server::net::{ClientIp, TrustedProxies};
use http_body_util::BodyExt;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tower::ServiceExt;

use super::WAIT;

/// The routers of this process's test servers, by the address they listen on.
static APPS: LazyLock<Mutex<HashMap<SocketAddr, (Router, TrustedProxies)>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// Registers a test server's router: requests to `addr` go to it without a socket.
pub fn register(addr: SocketAddr, router: Router, proxies: TrustedProxies) {
    APPS.lock().unwrap().insert(addr, (router, proxies));
}

/// Forgets a test server's router (it stopped).
pub fn unregister(addr: SocketAddr) {
    APPS.lock().unwrap().remove(&addr);
}

/// One HTTP request with extra header lines (each `Name: value\r\n`); the status, the
/// response's head as text (`HTTP/1.1 200 OK\r\nname: value\r\n…`) and its body.
pub async fn send(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    headers: &str,
) -> (u16, String, String) {
    let mut request = Request::builder()
        .method(method)
        .uri(format!("http://{addr}{path}"))
        .header("host", addr.to_string())
        .header("content-type", "application/json");
    for line in headers.split("\r\n").filter(|l| !l.is_empty()) {
        let (name, value) = line.split_once(':').expect("a header line");
        request = request.header(
            HeaderName::from_bytes(name.trim().as_bytes()).unwrap(),
            HeaderValue::from_str(value.trim()).unwrap(),
        );
    }
    let request = request
        .body(Body::from(body.unwrap_or("").to_string()))
        .unwrap();
    let app = APPS.lock().unwrap().get(&addr).cloned();
    let response = match app {
        Some((router, proxies)) => in_process(router, proxies, request).await,
        None => over_tcp(request).await,
    };
    let (parts, body) = response.into_parts();
    let bytes = tokio::time::timeout(WAIT, body.collect())
        .await
        .expect("HTTP response in time")
        .unwrap()
        .to_bytes();
    let mut head = format!("HTTP/1.1 {}\r\n", parts.status);
    for (name, value) in &parts.headers {
        head.push_str(&format!(
            "{name}: {}\r\n",
            String::from_utf8_lossy(value.as_bytes())
        ));
    }
    // A compressed body is not text: left as received.
    let text = String::from_utf8_lossy(&bytes).to_string();
    (parts.status.as_u16(), head, text)
}

/// As the accept loop does: the client's address (a trusted proxy's `X-Forwarded-For`), then
/// the router.
async fn in_process(
    router: Router,
    proxies: TrustedProxies,
    mut request: Request<Body>,
) -> Response<Body> {
    let peer = IpAddr::V4(Ipv4Addr::LOCALHOST);
    let client = proxies.client(peer, request.headers());
    request.extensions_mut().insert(ClientIp(client));
    tokio::time::timeout(WAIT, router.oneshot(request))
        .await
        .expect("HTTP response in time")
        .unwrap()
}

/// Over TCP, to a server of another process.
async fn over_tcp(request: Request<Body>) -> Response<Body> {
    let client = Client::builder(TokioExecutor::new()).build_http::<Body>();
    let response = tokio::time::timeout(WAIT, client.request(request))
        .await
        .expect("HTTP response in time")
        .expect("the server answers");
    response.map(Body::new)
}
