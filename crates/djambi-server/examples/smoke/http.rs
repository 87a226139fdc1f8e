//! HTTP/1.1 over a plain TCP stream to the loopback server: requests and JSON answers.

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::{Res, WAIT};

/// `host:port` of a loopback `http://` URL.
pub(crate) fn authority(url: &str) -> Res<String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("not an http:// URL: {url}"))?
        .trim_end_matches('/');
    ensure!(!rest.contains('/'), "the URL must have no path: {url}");
    let host = match rest.rsplit_once(':') {
        Some((host, port)) if port.parse::<u16>().is_ok() => host,
        _ => rest,
    };
    ensure!(
        matches!(host, "127.0.0.1" | "localhost" | "[::1]"),
        "the smoke client only talks to a loopback server, not {url}"
    );
    Ok(rest.to_string())
}

/// One HTTP/1.1 request; the status and the body.
pub(crate) async fn http(
    url: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Res<(u16, String)> {
    let authority = authority(url)?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let exchange = async {
        let mut stream = TcpStream::connect(&authority).await?;
        stream.write_all(request.as_bytes()).await?;
        let mut raw = Vec::new();
        stream.read_to_end(&mut raw).await?;
        Ok::<_, std::io::Error>(raw)
    };
    let raw = tokio::time::timeout(WAIT, exchange)
        .await
        .map_err(|_| format!("{method} {path}: no answer in {WAIT:?}"))?
        .map_err(|e| format!("{method} {path}: {e}"))?;
    let raw = String::from_utf8(raw).map_err(|e| format!("{method} {path}: {e}"))?;
    let (head, rest) = raw
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("{method} {path}: incomplete answer"))?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("{method} {path}: no status in {head:?}"))?;
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    let body = if chunked {
        dechunk(rest)?
    } else {
        rest.to_string()
    };
    Ok((status, body))
}

fn dechunk(mut s: &str) -> Res<String> {
    let mut out = String::new();
    loop {
        let (size, rest) = s.split_once("\r\n").ok_or("bad chunked body")?;
        let size = usize::from_str_radix(size.trim(), 16).map_err(|e| e.to_string())?;
        if size == 0 {
            return Ok(out);
        }
        ensure!(rest.len() >= size + 2, "truncated chunked body");
        out.push_str(&rest[..size]);
        s = &rest[size + 2..];
    }
}

/// A JSON answer with the expected status.
pub(crate) async fn http_json(
    url: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    expect: u16,
) -> Res<Value> {
    let (status, text) = http(url, method, path, body).await?;
    ensure!(
        status == expect,
        "{method} {path}: status {status}, not {expect}: {text}"
    );
    serde_json::from_str(&text).map_err(|e| format!("{method} {path}: {e}: {text}"))
}
