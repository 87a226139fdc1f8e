//! The server side of the load tools: plain HTTP/1.1 requests, games created and claimed, the
//! server's counters and its process's CPU time and memory (from `/proc`). Shared by the
//! `loadgen` and `capacity` examples.

use std::net::SocketAddr;

use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The process's CPU time (user + system), in clock ticks, from `/proc/<pid>/stat`.
pub fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name (which may hold spaces) are space-separated;
    // utime and stime are the 14th and 15th of the line.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let get = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    get(11) + get(12)
}

/// Clock ticks per second (`getconf CLK_TCK`; 100 on Linux).
pub fn clock_ticks() -> u64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100)
}

/// A counter of the server's `/metrics`.
pub async fn metric(addr: SocketAddr, name: &str) -> u64 {
    let (_, text) = http(addr, "GET", "/metrics", None).await;
    text.lines()
        .find_map(|l| l.strip_prefix(name))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}

/// Creates a 4-player game and claims its seats: (id, tokens).
pub async fn create_game(addr: SocketAddr) -> (String, Vec<String>) {
    let (status, body) = http(addr, "POST", "/api/games", Some(r#"{"players": 4}"#)).await;
    assert_eq!(status, 201, "{body}");
    let created: Value = serde_json::from_str(&body).unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let mut tokens = Vec::new();
    for (i, seat) in created["seats"].as_array().unwrap().iter().enumerate() {
        let token = seat["token"].as_str().unwrap().to_string();
        // Names at one table must differ.
        let claim = json!({"name": format!("Load {i}"), "token": token}).to_string();
        let (status, body) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/seats"),
            Some(&claim),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        tokens.push(token);
    }
    (id, tokens)
}

/// One HTTP/1.1 request over a fresh connection: (status, body).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await.unwrap();
    let raw = String::from_utf8_lossy(&raw).to_string();
    let (head, rest) = raw.split_once("\r\n\r\n").unwrap();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, body)
}

fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        s = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// A line of `/proc/<pid>/status` in KiB (`VmRSS`, `VmHWM`).
pub fn status_kib(pid: u32, key: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}
