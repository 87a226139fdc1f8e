//! The accept loop: HTTP/1.1 served by hyper with a header-read timeout, every connection under
//! the caps of [`ConnTracker`](super::ConnTracker), and each request tagged with its client
//! address and its connection's slot.
//!
//! `axum::serve` offers neither a header-read timeout nor connection caps, so the server runs
//! hyper's own connection builder (as axum's `serve-with-hyper` example does). hyper's
//! `header_read_timeout` closes a connection whose request headers do not arrive in time; it also
//! starts while a keep-alive connection waits for its next request, so idle connections are
//! closed after the same delay.

use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

use super::client_ip::{ClientIp, TrustedProxies};
use super::conns::{ConnSlot, ConnTracker};

/// How the accept loop treats connections.
#[derive(Clone)]
pub struct NetConfig {
    /// The trusted reverse proxies.
    pub proxies: TrustedProxies,
    /// The caps.
    pub tracker: Arc<ConnTracker>,
    /// How long a client has to send a request's headers (and an idle keep-alive connection
    /// waits for its next request).
    pub header_read_timeout: Duration,
}

/// Serves `router` on `listener` until `shutdown` completes; then stops accepting, asks every
/// HTTP connection to finish its request in progress and close, and waits at most `drain` for
/// them. (Upgraded WebSockets are not HTTP connections any more: their own tasks close them.)
pub async fn serve(
    listener: TcpListener,
    router: Router,
    config: NetConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
    drain: Duration,
) -> io::Result<()> {
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout)
        .max_buf_size(64 * 1024);
    let closing = CancellationToken::new();
    let connections = TaskTracker::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait a moment rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let peer_ip = peer.ip();
        let behind_proxy = config.proxies.contains(peer_ip);
        let slot = match config.tracker.admit(peer_ip, !behind_proxy) {
            Ok(slot) => slot,
            Err(refusal) => {
                tracing::debug!(peer = %peer_ip, ?refusal, "connection refused: too many");
                drop(stream);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let service = hyper::service::service_fn({
            let router = router.clone();
            let proxies = config.proxies.clone();
            let slot = slot.clone();
            move |request: hyper::Request<Incoming>| {
                handle(
                    router.clone(),
                    proxies.clone(),
                    slot.clone(),
                    peer_ip,
                    request,
                )
            }
        });
        let connection = builder
            .serve_connection(TokioIo::new(stream), service)
            .with_upgrades();
        let closing = closing.clone();
        connections.spawn(async move {
            tokio::pin!(connection);
            let killed = slot.killed().clone();
            tokio::select! {
                _ = connection.as_mut() => {}
                // Closed to make room under a cap: dropped at once.
                _ = killed.cancelled() => {}
                _ = closing.cancelled() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(slot);
        });
    }
    drop(listener);
    tracing::info!("shutting down: no new connections");
    closing.cancel();
    connections.close();
    if tokio::time::timeout(drain, connections.wait())
        .await
        .is_err()
    {
        tracing::warn!("some HTTP connections did not finish in time");
    }
    Ok(())
}

async fn handle(
    router: Router,
    proxies: TrustedProxies,
    slot: Arc<ConnSlot>,
    peer: IpAddr,
    request: hyper::Request<Incoming>,
) -> Result<axum::response::Response, Infallible> {
    let _busy = slot.busy();
    let mut request: Request = request.map(Body::new);
    let client = proxies.client(peer, request.headers());
    request.extensions_mut().insert(ClientIp(client));
    request.extensions_mut().insert(slot);
    router.oneshot(request).await
}
