//! The test's push service: an HTTP endpoint on 127.0.0.1 that checks each push as a browser's
//! push service and the browser would — the VAPID JWT (ES256 under the server's key, `aud` its
//! own origin, `exp` ahead and within 24 h, a contact in `sub`) and the aes128gcm payload,
//! decrypted with the subscription's keys — and hands the payloads to the test.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::elliptic_curve::sec1::ToEncodedPoint;
use serde_json::{Value, json};
use tokio::sync::mpsc;

/// One browser: its keys (the service decrypts with them) and its endpoint's name.
pub struct Browser {
    name: String,
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    pub fn new(name: &str) -> Browser {
        let secret = loop {
            if let Ok(s) = p256::SecretKey::from_slice(&rand::random::<[u8; 32]>()) {
                break s;
            }
        };
        Browser {
            name: name.into(),
            secret,
            auth: rand::random(),
        }
    }

    /// Its `PushSubscription`, as `toJSON()` gives it, at `service`.
    pub fn subscription(&self, service: &PushService) -> Value {
        let point = self.secret.public_key().to_encoded_point(false);
        json!({
            "endpoint": format!("{}/push/{}", service.origin, self.name),
            "expirationTime": null,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(point.as_bytes()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            },
        })
    }
}

/// A push it received, checked and decrypted.
#[derive(Debug)]
pub struct Received {
    pub browser: String,
    pub payload: Value,
}

/// What the service knows and does.
pub struct Service {
    origin: String,
    /// The server's VAPID public key (base64url).
    vapid: String,
    /// Each browser's keys, by name.
    browsers: Mutex<Vec<(String, p256::SecretKey, [u8; 16])>>,
    /// The status answered to pushes (201; 410 to forget subscriptions).
    pub status: Mutex<StatusCode>,
    /// How long it takes to answer.
    pub delay: Mutex<Duration>,
    received: mpsc::UnboundedSender<Result<Received, String>>,
}

/// The test's push service on 127.0.0.1.
pub struct PushService {
    pub origin: String,
    pub service: Arc<Service>,
    rx: mpsc::UnboundedReceiver<Result<Received, String>>,
}

impl PushService {
    pub async fn start(vapid: &str) -> PushService {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let origin = format!("http://{}", listener.local_addr().unwrap());
        let (tx, rx) = mpsc::unbounded_channel();
        let service = Arc::new(Service {
            origin: origin.clone(),
            vapid: vapid.into(),
            browsers: Mutex::new(Vec::new()),
            status: Mutex::new(StatusCode::CREATED),
            delay: Mutex::new(Duration::ZERO),
            received: tx,
        });
        let app = axum::Router::new()
            .route("/push/{name}", axum::routing::post(receive))
            .with_state(service.clone());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        PushService {
            origin,
            service,
            rx,
        }
    }

    pub fn browser(&self, name: &str) -> Browser {
        let b = Browser::new(name);
        self.service
            .browsers
            .lock()
            .unwrap()
            .push((b.name.clone(), b.secret.clone(), b.auth));
        b
    }

    /// The next push received (checked), within `wait`.
    pub async fn next(&mut self, wait: Duration) -> Option<Received> {
        match tokio::time::timeout(wait, self.rx.recv()).await {
            Ok(Some(Ok(received))) => Some(received),
            Ok(Some(Err(why))) => panic!("the push service refused a push: {why}"),
            _ => None,
        }
    }
}

/// The push service's one route: checks the VAPID JWT, decrypts, records.
async fn receive(
    State(service): State<Arc<Service>>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let delay = *service.delay.lock().unwrap();
    tokio::time::sleep(delay).await;
    let checked = check(&service, &name, &headers, body.to_vec());
    let _ = service.received.send(checked);
    *service.status.lock().unwrap()
}

fn check(
    service: &Service,
    name: &str,
    headers: &HeaderMap,
    body: Vec<u8>,
) -> Result<Received, String> {
    let header = |h: &str| {
        headers
            .get(h)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
            .ok_or(format!("no {h} header"))
    };
    if header("content-encoding")? != "aes128gcm" {
        return Err("not aes128gcm".into());
    }
    let ttl: u64 = header("ttl")?.parse().map_err(|_| "TTL is not a number")?;
    if ttl == 0 {
        return Err("TTL 0".into());
    }
    // Authorization: vapid t=JWT, k=KEY (RFC 8292 §3).
    let auth = header("authorization")?;
    let (jwt, key) = auth
        .strip_prefix("vapid t=")
        .and_then(|rest| rest.split_once(", k="))
        .ok_or(format!("not a vapid authorization: {auth}"))?;
    if key != service.vapid {
        return Err("k is not the server's VAPID key".into());
    }
    let point = URL_SAFE_NO_PAD.decode(key).map_err(|e| e.to_string())?;
    let (x, y) = (
        URL_SAFE_NO_PAD.encode(&point[1..33]),
        URL_SAFE_NO_PAD.encode(&point[33..65]),
    );
    let decoding =
        jsonwebtoken::DecodingKey::from_ec_components(&x, &y).map_err(|e| e.to_string())?;
    let mut validation = jsonwebtoken::Validation::new(jsonwebtoken::Algorithm::ES256);
    validation.set_audience(&[service.origin.as_str()]);
    validation.set_required_spec_claims(&["exp", "aud"]);
    validation.leeway = 0;
    let claims = jsonwebtoken::decode::<Value>(jwt, &decoding, &validation)
        .map_err(|e| format!("the JWT does not verify: {e}"))?
        .claims;
    let exp = claims["exp"].as_i64().ok_or("no exp")?;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    if exp > now + 24 * 3600 {
        return Err(format!("exp is more than 24 h ahead: {claims}"));
    }
    if !claims["sub"]
        .as_str()
        .is_some_and(|s| s.starts_with("mailto:") || s.starts_with("http"))
    {
        return Err(format!("no contact in sub: {claims}"));
    }
    let browsers = service.browsers.lock().unwrap();
    let (_, secret, auth) = browsers
        .iter()
        .find(|(n, _, _)| n == name)
        .ok_or(format!("no browser {name}"))?;
    let auth = web_push_native::Auth::from(*auth);
    let plain =
        web_push_native::decrypt(body, secret, &auth).map_err(|e| format!("decrypt: {e}"))?;
    let payload: Value = serde_json::from_slice(&plain).map_err(|e| e.to_string())?;
    Ok(Received {
        browser: name.into(),
        payload,
    })
}
