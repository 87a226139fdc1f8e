//! The server's VAPID key pair (RFC 8292): a P-256 key that signs a short JWT on every push, so
//! push services know the pushes come from the server the browser subscribed with (the browser
//! was given the public key, `GET /api/push/key`). Made at first start and kept in the database
//! (one row, shared by every node), or in a file (`--push-vapid-file`, made if missing). Its
//! text form is the raw private scalar in base64url, as web-push tools print it.

use std::path::Path;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::pkcs8::EncodePrivateKey;
use sqlx::Row;

use crate::clock::now_ms;
use crate::store::{Store, StoreError};

/// Why the key pair could not be had.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The stored or configured key is not a P-256 private key.
    #[error("the VAPID private key is not a base64url P-256 private key (32 bytes)")]
    Invalid,
    /// The key file could not be read or written.
    #[error("the VAPID key file {path}: {error}")]
    File {
        /// The file.
        path: String,
        /// What went wrong.
        error: std::io::Error,
    },
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A JWT could not be signed (a bug: the key is checked when loaded).
    #[error("could not sign the VAPID JWT: {0}")]
    Sign(#[from] jsonwebtoken::errors::Error),
}

/// The key pair, ready to sign.
pub struct VapidKeys {
    secret: p256::SecretKey,
    public: String,
    signing: EncodingKey,
}

/// The claims of a VAPID JWT.
#[derive(serde::Serialize)]
struct Claims<'a> {
    /// The push service's origin.
    aud: &'a str,
    /// When it expires (s since the epoch; at most 24 h ahead).
    exp: i64,
    /// Who to contact about these pushes (`mailto:` or `https:`).
    sub: &'a str,
}

impl VapidKeys {
    /// A new random key pair.
    pub fn generate() -> VapidKeys {
        loop {
            let mut bytes = [0u8; 32];
            getrandom::fill(&mut bytes).expect("the operating system's random generator works");
            // A scalar out of range (about 2^-32 of them) is drawn again.
            if let Ok(keys) = VapidKeys::from_bytes(&bytes) {
                return keys;
            }
        }
    }

    fn from_bytes(bytes: &[u8]) -> Result<VapidKeys, KeyError> {
        let secret = p256::SecretKey::from_slice(bytes).map_err(|_| KeyError::Invalid)?;
        let point = secret.public_key().to_encoded_point(false);
        let der = secret.to_pkcs8_der().map_err(|_| KeyError::Invalid)?;
        Ok(VapidKeys {
            public: URL_SAFE_NO_PAD.encode(point.as_bytes()),
            signing: EncodingKey::from_ec_der(der.as_bytes()),
            secret,
        })
    }

    /// The key pair of a private key in its text form (base64url, padding and spaces allowed).
    pub fn from_text(text: &str) -> Result<VapidKeys, KeyError> {
        let text: String = text.split_whitespace().collect();
        let bytes = URL_SAFE_NO_PAD
            .decode(text.trim_end_matches('='))
            .map_err(|_| KeyError::Invalid)?;
        VapidKeys::from_bytes(&bytes)
    }

    /// The private key's text form (secret).
    pub fn to_text(&self) -> String {
        URL_SAFE_NO_PAD.encode(self.secret.to_bytes())
    }

    /// The public key: the uncompressed point, base64url (a browser's `applicationServerKey`).
    pub fn public_key(&self) -> &str {
        &self.public
    }

    /// The `Authorization` header of a push to a service at `origin`: `vapid t=JWT, k=KEY`,
    /// the JWT valid for `valid` (at most 24 h, RFC 8292 §2).
    pub fn authorization(
        &self,
        origin: &str,
        contact: &str,
        valid: Duration,
    ) -> Result<String, KeyError> {
        let valid = valid.min(Duration::from_secs(24 * 3600)).as_secs() as i64;
        let claims = Claims {
            aud: origin,
            exp: now_ms() / 1000 + valid,
            sub: contact,
        };
        let jwt = jsonwebtoken::encode(&Header::new(Algorithm::ES256), &claims, &self.signing)?;
        Ok(format!("vapid t={jwt}, k={}", self.public))
    }

    /// The server's key pair: from `file` if one is configured (made there if missing), else
    /// from the database (made at first start; with several nodes, the first one's).
    pub async fn load(store: &Store, file: Option<&Path>) -> Result<VapidKeys, KeyError> {
        match file {
            Some(path) => from_file(path).await,
            None => from_store(store).await,
        }
    }
}

/// The key pair kept in `path`, written there (readable by its owner only) if missing.
async fn from_file(path: &Path) -> Result<VapidKeys, KeyError> {
    let file_error = |error| KeyError::File {
        path: path.display().to_string(),
        error,
    };
    match tokio::fs::read_to_string(path).await {
        Ok(text) => VapidKeys::from_text(&text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let keys = VapidKeys::generate();
            let text = format!("{}\n", keys.to_text());
            let owned = path.to_path_buf();
            let written = tokio::task::spawn_blocking(move || write_new(&owned, &text))
                .await
                .map_err(|e| std::io::Error::other(e.to_string()))
                .and_then(|r| r);
            match written {
                Ok(()) => Ok(keys),
                // Another node made it first: that one is the key.
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let text = tokio::fs::read_to_string(path).await;
                    VapidKeys::from_text(&text.map_err(file_error)?)
                }
                Err(e) => Err(file_error(e)),
            }
        }
        Err(e) => Err(file_error(e)),
    }
}

/// Writes a new file, never over an existing one, readable by its owner only.
fn write_new(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()
}

/// The key pair kept in the database, made there if missing (when several nodes start at once,
/// the first row written is everyone's).
async fn from_store(store: &Store) -> Result<VapidKeys, KeyError> {
    let pool = store.pool();
    let read = || async {
        let row = sqlx::query("SELECT private_key FROM push_vapid WHERE id = 1")
            .fetch_optional(pool)
            .await
            .map_err(StoreError::from)?;
        Ok::<_, KeyError>(match row {
            Some(row) => Some(row.try_get::<String, _>(0).map_err(StoreError::from)?),
            None => None,
        })
    };
    if let Some(text) = read().await? {
        return VapidKeys::from_text(&text);
    }
    let keys = VapidKeys::generate();
    sqlx::query(
        "INSERT INTO push_vapid (id, private_key, created_at) VALUES (1, $1, $2) \
         ON CONFLICT (id) DO NOTHING",
    )
    .bind(keys.to_text())
    .bind(now_ms())
    .execute(pool)
    .await
    .map_err(StoreError::from)?;
    match read().await? {
        Some(text) => VapidKeys::from_text(&text),
        None => Err(KeyError::Invalid),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_survives_its_text_form() {
        let keys = VapidKeys::generate();
        let again = VapidKeys::from_text(&keys.to_text()).unwrap();
        assert_eq!(keys.public_key(), again.public_key());
        // An uncompressed P-256 point: 65 bytes, 0x04 first.
        let public = URL_SAFE_NO_PAD.decode(keys.public_key()).unwrap();
        assert_eq!((public.len(), public[0]), (65, 4));
        assert!(VapidKeys::from_text("not a key").is_err());
        assert!(VapidKeys::from_text(&URL_SAFE_NO_PAD.encode([0u8; 32])).is_err());
    }

    #[test]
    fn the_authorization_is_a_jwt_for_the_origin_that_the_public_key_verifies() {
        let keys = VapidKeys::generate();
        let header = keys
            .authorization(
                "https://push.example.net",
                "mailto:ops@example.net",
                Duration::from_secs(12 * 3600),
            )
            .unwrap();
        let (jwt, key) = header
            .strip_prefix("vapid t=")
            .unwrap()
            .split_once(", k=")
            .unwrap();
        assert_eq!(key, keys.public_key());
        let point = URL_SAFE_NO_PAD.decode(key).unwrap();
        let (x, y) = (
            URL_SAFE_NO_PAD.encode(&point[1..33]),
            URL_SAFE_NO_PAD.encode(&point[33..]),
        );
        let decoding = jsonwebtoken::DecodingKey::from_ec_components(&x, &y).unwrap();
        let mut validation = jsonwebtoken::Validation::new(Algorithm::ES256);
        validation.set_audience(&["https://push.example.net"]);
        let data = jsonwebtoken::decode::<serde_json::Value>(jwt, &decoding, &validation).unwrap();
        assert_eq!(data.claims["sub"], "mailto:ops@example.net");
        let exp = data.claims["exp"].as_i64().unwrap();
        let now = now_ms() / 1000;
        assert!(exp > now + 11 * 3600 && exp <= now + 12 * 3600 + 1);
    }
}
