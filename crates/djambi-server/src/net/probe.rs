//! The container's healthcheck (`djambi-server --healthcheck`): one `GET /readyz` to the server
//! listening on this machine, so the image needs no `curl`. Plain HTTP/1.1 over a TCP stream,
//! bounded in time.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream};
use std::time::Duration;

/// Why the server is not ready.
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// No connection, or it broke.
    #[error("{addr}: {error}")]
    Io {
        /// Where the probe went.
        addr: SocketAddr,
        /// What failed.
        error: std::io::Error,
    },
    /// The server answered something else than 200.
    #[error("{addr}: /readyz answered {status:?}")]
    NotReady {
        /// Where the probe went.
        addr: SocketAddr,
        /// The status line.
        status: String,
    },
}

/// Where a server bound to `bind` answers on this machine: loopback for an unspecified bind
/// address (`0.0.0.0`, `::`), the address itself otherwise.
pub fn local_target(bind: SocketAddr) -> SocketAddr {
    let ip = match bind.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(ip) if ip.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, bind.port())
}

/// Asks `addr` for `/readyz` within `timeout` (connecting, writing and reading each).
pub fn ready(addr: SocketAddr, timeout: Duration) -> Result<(), ProbeError> {
    let io = |error| ProbeError::Io { addr, error };
    let mut stream = TcpStream::connect_timeout(&addr, timeout).map_err(io)?;
    stream.set_read_timeout(Some(timeout)).map_err(io)?;
    stream.set_write_timeout(Some(timeout)).map_err(io)?;
    let request = format!(
        "GET /readyz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nUser-Agent: djambi-healthcheck\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).map_err(io)?;
    let mut head = Vec::new();
    // The status line is all that is read (at most 1 KiB of the answer).
    Read::by_ref(&mut stream)
        .take(1024)
        .read_to_end(&mut head)
        .map_err(io)?;
    let text = String::from_utf8_lossy(&head);
    let status = text.lines().next().unwrap_or("").to_string();
    let code = status.split_whitespace().nth(1);
    if code == Some("200") {
        Ok(())
    } else {
        Err(ProbeError::NotReady { addr, status })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    fn serve_once(answer: &'static str) -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut buf = [0u8; 1024];
            let _ = s.read(&mut buf);
            let _ = s.write_all(answer.as_bytes());
        });
        addr
    }

    #[test]
    fn ready_only_on_200() {
        let ok = serve_once("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
        ready(ok, Duration::from_secs(3)).unwrap();
        let down = serve_once("HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n");
        let err = ready(down, Duration::from_secs(3)).unwrap_err();
        assert!(err.to_string().contains("503"), "{err}");
        // Nobody listening.
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let closed = listener.local_addr().unwrap();
        drop(listener);
        assert!(ready(closed, Duration::from_secs(3)).is_err());
    }

    #[test]
    fn an_unspecified_bind_is_probed_on_loopback() {
        assert_eq!(
            local_target("0.0.0.0:8080".parse().unwrap()),
            "127.0.0.1:8080".parse().unwrap()
        );
        assert_eq!(
            local_target("[::]:8080".parse().unwrap()),
            "[::1]:8080".parse().unwrap()
        );
        assert_eq!(
            local_target("10.0.0.5:9000".parse().unwrap()),
            "10.0.0.5:9000".parse().unwrap()
        );
    }
}
