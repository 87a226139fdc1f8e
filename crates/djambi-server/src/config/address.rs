//! Where players reach this server, as the server says it once it listens: the configured
//! public URL, else — on a machine of its own listening on every interface — the address a
//! friend on the local network would open. Inside a container it never guesses: the
//! container's own address (`10.89.0.4`, `172.17.0.2`) is not one anybody can open.

use std::path::Path;

use super::Config;

/// What the server can truthfully say about the address players use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reachable {
    /// The configured public URL (`--public-url`): the links it gives use it.
    Public(String),
    /// The address of this machine on its local network (listening on every interface, not
    /// in a container, no public URL).
    Lan(String),
    /// In a container without a public URL: the address is the host's, which the server
    /// cannot know.
    Container,
    /// Listening on one address only (the default `127.0.0.1`): this machine alone.
    ThisMachine,
}

impl Reachable {
    /// The line logged once the server listens.
    pub fn announcement(&self, config: &Config) -> String {
        match self {
            Reachable::Public(url) => format!("players open {url} (the public URL)"),
            Reachable::Lan(url) => format!("friends on your local network can open {url}"),
            Reachable::Container => format!(
                "listening on {} inside a container: players open the host's address at the \
                 port it publishes (http://localhost:8080 on the host itself); set \
                 DJAMBI_PUBLIC_URL to that address so invite links use it",
                config.bind
            ),
            Reachable::ThisMachine => format!(
                "open {} on this machine (listening on {} only)",
                config.base_url(),
                config.bind
            ),
        }
    }
}

impl Config {
    /// Whether the server runs in a container: `--in-container` (the image sets
    /// `DJAMBI_IN_CONTAINER=1`), or the marker file Docker (`/.dockerenv`) or podman
    /// (`/run/.containerenv`) puts in every container.
    pub fn in_a_container(&self) -> bool {
        self.in_container
            || Path::new("/.dockerenv").exists()
            || Path::new("/run/.containerenv").exists()
    }

    /// Where players reach this server, as far as it can know.
    pub fn reachable(&self) -> Reachable {
        if let Some(url) = &self.public_url {
            return Reachable::Public(url.trim_end_matches('/').to_string());
        }
        if !self.bind.ip().is_unspecified() {
            return Reachable::ThisMachine;
        }
        if self.in_a_container() {
            return Reachable::Container;
        }
        match lan_ip() {
            Some(ip) => Reachable::Lan(format!("http://{ip}:{}", self.bind.port())),
            None => Reachable::ThisMachine,
        }
    }
}

/// This machine's address on its default route, found without sending anything.
fn lan_ip() -> Option<std::net::IpAddr> {
    let probe = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
    // Connecting a UDP socket sends nothing; it only picks the outgoing interface.
    probe.connect("192.0.2.1:9").ok()?;
    let ip = probe.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn config(args: &[&str]) -> Config {
        let mut all = vec!["djambi-server"];
        all.extend_from_slice(args);
        Config::parse_from(all)
    }

    #[test]
    fn a_public_url_is_what_the_server_announces_wherever_it_runs() {
        let c = config(&[
            "--bind",
            "0.0.0.0:8080",
            "--public-url",
            "https://djambi.example.org/",
            "--in-container",
        ]);
        assert_eq!(
            c.reachable(),
            Reachable::Public("https://djambi.example.org".into())
        );
        assert!(
            c.reachable()
                .announcement(&c)
                .contains("https://djambi.example.org")
        );
    }

    #[test]
    fn in_a_container_no_address_is_guessed() {
        let c = config(&["--bind", "0.0.0.0:8080", "--in-container"]);
        assert_eq!(c.reachable(), Reachable::Container);
        let line = c.reachable().announcement(&c);
        assert!(line.contains("DJAMBI_PUBLIC_URL"), "{line}");
        // Nothing but the bind address and the host's localhost: no private address.
        assert!(!line.contains("10.") && !line.contains("172.") && !line.contains("192.168"));
    }

    #[test]
    fn listening_on_loopback_is_this_machine_only() {
        let c = config(&["--bind", "127.0.0.1:8080"]);
        assert_eq!(c.reachable(), Reachable::ThisMachine);
        assert!(
            c.reachable()
                .announcement(&c)
                .contains("http://localhost:8080")
        );
    }
}
