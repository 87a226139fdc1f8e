//! The processes of a cluster under test: server nodes (the real binary, `--nats`, each on its
//! own port so it comes back on the same one after a kill) and a real HAProxy in front of
//! them, health-checked on `/readyz` as the compose profile does. Everything listens on
//! 127.0.0.1; every process is killed when dropped; logs go to files of a temporary folder.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::process::{Child, Command};

/// A free TCP port on 127.0.0.1 (free when asked; taken by the caller right after).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Whether `GET path` on `port` answers 200 within a second.
pub async fn answers(port: u16, path: &str) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let attempt = async {
        let mut stream = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .ok()?;
        let request =
            format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).await.ok()?;
        let mut head = vec![0u8; 32];
        let n = stream.read(&mut head).await.ok()?;
        Some(head[..n].starts_with(b"HTTP/1.1 200"))
    };
    tokio::time::timeout(Duration::from_secs(1), attempt)
        .await
        .ok()
        .flatten()
        .unwrap_or(false)
}

/// One server node.
pub struct Node {
    /// Its name (`--node-name`).
    pub name: String,
    /// Its port.
    pub port: u16,
    child: Option<Child>,
    log: PathBuf,
}

impl Node {
    /// A node not started yet.
    pub fn new(name: &str, dir: &Path) -> Node {
        Node {
            name: name.to_string(),
            port: free_port(),
            child: None,
            log: dir.join(format!("{name}.log")),
        }
    }

    /// Starts it and waits until it is ready (`/readyz`).
    pub async fn start(&mut self, db_url: &str, nats: &str, lease_secs: u64) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .unwrap();
        let port = self.port.to_string();
        let lease = lease_secs.to_string();
        let child = Command::new(env!("CARGO_BIN_EXE_djambi-server"))
            .args(["--bind", &format!("127.0.0.1:{port}")])
            .args(["--database-url", db_url, "--nats", nats])
            .args(["--node-name", &self.name, "--lease-secs", &lease])
            .args(["--web-dir", "/nonexistent-web-dir", "--log", "warn"])
            // HAProxy in front: every client is 127.0.0.1 anyway; lift the per-address budgets.
            .args(["--trusted-proxy", "127.0.0.1"])
            .args(LIFTED)
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .kill_on_drop(true)
            .spawn()
            .expect("start the server binary");
        self.child = Some(child);
        let started = Instant::now();
        while !answers(self.port, "/readyz").await {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "node {} not ready in 30 s; its log:\n{}",
                self.name,
                self.log_tail()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// SIGKILL, and waits for the process to be gone.
    pub async fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.start_kill();
            let _ = child.wait().await;
        }
    }

    /// The last lines of its log.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    }
}

/// The per-address limits lifted (every client of the test is 127.0.0.1).
const LIFTED: [&str; 20] = [
    "--max-connections-per-ip",
    "1000000",
    "--create-burst",
    "1000000",
    "--create-per-minute",
    "1000000",
    "--max-games-per-ip",
    "1000000",
    "--max-open-games-per-ip",
    "1000000",
    "--ws-connect-burst",
    "1000000",
    "--ws-connect-per-minute",
    "1000000",
    "--catchup-burst-kib",
    "1000000",
    "--catchup-kib-per-minute",
    "1000000",
    "--max-connections",
    "1000000",
];

/// HAProxy in front of the nodes.
pub struct Balancer {
    /// The port clients use.
    pub port: u16,
    _child: Child,
}

impl Balancer {
    /// Whether HAProxy is installed.
    pub fn available() -> bool {
        std::process::Command::new("haproxy")
            .arg("-v")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }

    /// Starts HAProxy over the nodes' ports and waits until it serves.
    pub async fn start(nodes: &[u16], dir: &Path) -> Balancer {
        let port = free_port();
        let config = local_config(include_str!("../../../../deploy/haproxy.cfg"), port, nodes);
        let path = dir.join("haproxy.cfg");
        std::fs::write(&path, config).unwrap();
        let log = std::fs::File::create(dir.join("haproxy.log")).unwrap();
        let child = Command::new("haproxy")
            .args(["-db", "-f"])
            .arg(&path)
            .stdout(Stdio::from(log.try_clone().unwrap()))
            .stderr(Stdio::from(log))
            .kill_on_drop(true)
            .spawn()
            .expect("start haproxy");
        let started = Instant::now();
        while !answers(port, "/healthz").await {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "haproxy does not serve: {}",
                std::fs::read_to_string(dir.join("haproxy.log")).unwrap_or_default()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        Balancer {
            port,
            _child: child,
        }
    }
}

/// deploy/haproxy.cfg (the compose profile's) as it runs here: the same settings, listening on
/// 127.0.0.1:`port`, with the nodes at their local ports instead of Docker's service names.
fn local_config(deployed: &str, port: u16, nodes: &[u16]) -> String {
    let mut out = String::new();
    let mut in_resolvers = false;
    for line in deployed.lines() {
        if line.starts_with("resolvers ") {
            in_resolvers = true;
            continue;
        }
        if in_resolvers {
            if line.starts_with(' ') {
                continue;
            }
            in_resolvers = false;
        }
        if line.trim_start().starts_with("server ") {
            continue;
        }
        // This machine's descriptor limit may be lower than a container's.
        let line = line
            .replace("bind :8080", &format!("bind 127.0.0.1:{port}"))
            .replace("maxconn 20000", "maxconn 4000");
        out.push_str(&line);
        out.push('\n');
    }
    for (i, p) in nodes.iter().enumerate() {
        out.push_str(&format!("  server node{} 127.0.0.1:{p} check\n", i + 1));
    }
    assert!(
        out.contains(&format!("bind 127.0.0.1:{port}"))
            && out.contains("option httpchk GET /readyz"),
        "deploy/haproxy.cfg changed shape:\n{out}"
    );
    out
}
