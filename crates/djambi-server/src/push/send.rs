//! Sending one push (RFC 8030): the payload encrypted for the browser (RFC 8291, aes128gcm, by
//! `web-push-native`), signed for the push service (VAPID, RFC 8292), POSTed with hyper's
//! client over rustls. The endpoint is checked again before each send, and host names are
//! resolved only by the guard's resolver, which refuses any address that is not public.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use bytes::Bytes;
use http_body_util::Full;
use hyper::http::{HeaderValue, StatusCode, header};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use web_push_native::{Auth, WebPushBuilder};

use super::guard::{EndpointError, Guard, GuardedResolver};
use super::keys::VapidKeys;
use super::subscriptions::Subscription;

/// How long a VAPID JWT is valid (RFC 8292 allows 24 h at most; 12 h, as web-push libraries
/// do, leaves room for clocks that disagree).
const JWT_VALID: Duration = Duration::from_secs(12 * 3600);

/// How long connecting to a push service may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// What became of one push.
#[derive(Debug)]
pub enum Outcome {
    /// The push service took it (2xx).
    Delivered,
    /// The push service no longer knows the subscription (404, 410): it is deleted.
    Gone,
    /// The endpoint is refused now (by the guard) or its keys do not work: it is deleted.
    Refused(String),
    /// Anything else (an error status, a timeout, no connection): logged, tried next time.
    Failed(String),
}

/// Whether a browser's keys can be used: a P-256 public key and a 16-byte secret, base64url.
pub fn check_keys(p256dh: &str, auth: &str) -> Result<(), &'static str> {
    browser_keys(p256dh, auth).map(|_| ())
}

fn browser_keys(p256dh: &str, auth: &str) -> Result<(p256::PublicKey, Auth), &'static str> {
    let decode = |s: &str| URL_SAFE_NO_PAD.decode(s.trim_end_matches('='));
    let public = decode(p256dh)
        .ok()
        .and_then(|b| p256::PublicKey::from_sec1_bytes(&b).ok())
        .ok_or("subscription.keys.p256dh: not a base64url P-256 public key")?;
    let auth: [u8; 16] = decode(auth)
        .ok()
        .and_then(|b| b.try_into().ok())
        .ok_or("subscription.keys.auth: not a base64url secret of 16 bytes")?;
    Ok((public, Auth::from(auth)))
}

/// Sends pushes.
pub struct Sender {
    client: Client<HttpsConnector<HttpConnector<GuardedResolver>>, Full<Bytes>>,
    keys: Arc<VapidKeys>,
    guard: Guard,
    /// The VAPID subject.
    contact: String,
    ttl: Duration,
    timeout: Duration,
}

impl Sender {
    /// A sender signing with `keys`, as `contact`.
    pub fn new(
        keys: Arc<VapidKeys>,
        guard: Guard,
        contact: String,
        ttl: Duration,
        timeout: Duration,
    ) -> Sender {
        let mut http = HttpConnector::new_with_resolver(GuardedResolver);
        http.enforce_http(false);
        http.set_connect_timeout(Some(CONNECT_TIMEOUT));
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_provider_and_webpki_roots(rustls::crypto::ring::default_provider())
            .expect("ring supports rustls's default protocol versions")
            // Plain http only ever reaches 127.0.0.1, under --push-allow-loopback (the guard).
            .https_or_http()
            .enable_http1()
            .wrap_connector(http);
        Sender {
            client: Client::builder(TokioExecutor::new()).build(https),
            keys,
            guard,
            contact,
            ttl,
            timeout,
        }
    }

    /// Sends `payload` to one subscription.
    pub async fn send(&self, sub: &Subscription, payload: &[u8]) -> Outcome {
        let url = match self.guard.parse(&sub.endpoint) {
            Ok(url) => url,
            Err(e) => return Outcome::Refused(e.to_string()),
        };
        let Ok(uri) = url.as_str().parse::<hyper::Uri>() else {
            return Outcome::Refused(EndpointError::NotUrl.to_string());
        };
        let (public, auth) = match browser_keys(&sub.p256dh, &sub.auth) {
            Ok(keys) => keys,
            Err(e) => return Outcome::Refused(e.into()),
        };
        let origin = url.origin().ascii_serialization();
        let authorization = match self.keys.authorization(&origin, &self.contact, JWT_VALID) {
            Ok(value) => value,
            Err(e) => return Outcome::Failed(e.to_string()),
        };
        let request = WebPushBuilder::new(uri, public, auth)
            .with_valid_duration(self.ttl)
            .build(payload.to_vec());
        let mut request = match request {
            Ok(request) => request.map(|body| Full::new(Bytes::from(body))),
            Err(e) => return Outcome::Failed(format!("encryption: {e}")),
        };
        match HeaderValue::from_str(&authorization) {
            Ok(value) => request.headers_mut().insert(header::AUTHORIZATION, value),
            Err(_) => return Outcome::Failed("the VAPID header is not a header".into()),
        };
        match tokio::time::timeout(self.timeout, self.client.request(request)).await {
            Err(_) => Outcome::Failed("the push service did not answer in time".into()),
            Ok(Err(e)) => Outcome::Failed(describe(&e)),
            Ok(Ok(response)) => match response.status() {
                s if s.is_success() => Outcome::Delivered,
                StatusCode::NOT_FOUND | StatusCode::GONE => Outcome::Gone,
                s => Outcome::Failed(format!("the push service answered {s}")),
            },
        }
    }
}

/// An error of the client with its causes (the guard's refusal is one of them).
fn describe(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}
