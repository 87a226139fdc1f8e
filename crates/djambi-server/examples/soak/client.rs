//! Minimal clients for the soak: one HTTP/1.1 request per connection, and WebSockets. Every
//! request names the client it stands for in `X-Forwarded-For`: a server started with
//! `--trusted-proxy 127.0.0.1` then counts the attacker and the honest players as the different
//! addresses they would be on the internet (without it, they all share 127.0.0.1's budgets).

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// A WebSocket to the server.
pub type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// Who a request stands for: the server's address and the client address to claim.
#[derive(Clone, Copy, Debug)]
pub struct As {
    /// The server.
    pub addr: SocketAddr,
    /// The client address sent in `X-Forwarded-For`.
    pub ip: &'static str,
}

/// One request: (status, head, body); status 0 when the server closed without answering.
pub async fn http(who: As, method: &str, path: &str, body: Option<&str>) -> (u16, String, String) {
    let addr = who.addr;
    let headers = format!("X-Forwarded-For: {}\r\n", who.ip);
    let Ok(mut stream) = TcpStream::connect(addr).await else {
        return (0, String::new(), String::new());
    };
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n{headers}\r\n{body}",
        body.len()
    );
    if stream.write_all(request.as_bytes()).await.is_err() {
        return (0, String::new(), String::new());
    }
    let mut raw = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut raw)).await;
    if !matches!(read, Ok(Ok(_))) && raw.is_empty() {
        return (0, String::new(), String::new());
    }
    let raw = String::from_utf8_lossy(&raw).to_string();
    let Some((head, rest)) = raw.split_once("\r\n\r\n") else {
        return (0, raw, String::new());
    };
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_string(), rest.to_string())
}

/// A request whose body is JSON: (status, parsed body or the text as a string).
pub async fn json(who: As, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
    let text = body.map(Value::to_string);
    let (status, _, body) = http(who, method, path, text.as_deref()).await;
    (
        status,
        serde_json::from_str(&body).unwrap_or(Value::String(body)),
    )
}

/// Opens a WebSocket to a game.
pub async fn connect(who: As, id: &str) -> Option<Socket> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/ws/games/{id}", who.addr)
        .into_client_request()
        .ok()?;
    request
        .headers_mut()
        .insert("x-forwarded-for", who.ip.parse().ok()?);
    tokio_tungstenite::connect_async(request)
        .await
        .ok()
        .map(|(ws, _)| ws)
}

/// Sends a JSON message; `false` if the socket is closed.
pub async fn send(ws: &mut Socket, message: &Value) -> bool {
    ws.send(Message::Text(message.to_string().into()))
        .await
        .is_ok()
}

/// What the next read gave.
pub enum Next {
    /// A JSON message.
    Message(Value),
    /// The socket closed.
    Closed,
    /// Nothing within the wait.
    Silent,
}

/// The next text message within `wait`.
pub async fn next(ws: &mut Socket, wait: Duration) -> Next {
    loop {
        match tokio::time::timeout(wait, ws.next()).await {
            Err(_) => return Next::Silent,
            Ok(Some(Ok(Message::Text(text)))) => {
                return Next::Message(serde_json::from_str(text.as_str()).unwrap_or(Value::Null));
            }
            Ok(Some(Ok(Message::Close(_)))) => return Next::Closed,
            Ok(Some(Ok(_))) => continue,
            Ok(Some(Err(_)) | None) => return Next::Closed,
        }
    }
}

/// Reads until a message of type `ty` (or the socket closes / goes silent for `wait`).
pub async fn until(ws: &mut Socket, ty: &str, wait: Duration) -> Option<Value> {
    loop {
        match next(ws, wait).await {
            Next::Message(m) if m["type"] == ty => return Some(m),
            Next::Message(_) => continue,
            _ => return None,
        }
    }
}
