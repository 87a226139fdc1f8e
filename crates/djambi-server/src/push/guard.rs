//! The endpoint guard. A subscription's endpoint is chosen by a client, and the server sends
//! requests to it: without care, the server would become a way into its own network (SSRF).
//! So an endpoint must be `https` on a public address: its host is resolved, and it is refused
//! if ANY of its addresses is not public (loopback, private, link-local, shared (CGNAT),
//! multicast, documentation, unique local, IPv4 in IPv6 of those, …). It is checked when a
//! client subscribes and again when a push is sent, where the sender connects to the addresses
//! this check resolved ([`GuardedResolver`] is its only resolver), so a name cannot resolve to
//! a public address for the check and to a private one for the connection (DNS rebinding).
//!
//! With `--push-allow-loopback` (tests, development), `http://127.0.0.1:PORT/…` and
//! `https://127.0.0.1:PORT/…` are accepted as well.

use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use hyper_util::client::legacy::connect::dns::Name;
use url::{Host, Url};

/// The longest endpoint accepted (browsers' push services use a few hundred bytes).
pub const MAX_ENDPOINT_BYTES: usize = 1024;

/// How long resolving an endpoint's host may take.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

/// Why an endpoint is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum EndpointError {
    /// Not a URL, or too long.
    #[error("subscription.endpoint: not a URL of at most {MAX_ENDPOINT_BYTES} bytes")]
    NotUrl,
    /// Not `https` (nor the loopback allowed for tests).
    #[error("subscription.endpoint: a push service's endpoint must be an https:// URL")]
    NotHttps,
    /// User and password in the URL.
    #[error("subscription.endpoint: a URL with a user name or password is not a push endpoint")]
    Credentials,
    /// The host is, or resolves to, an address that is not public.
    #[error(
        "subscription.endpoint: {0} is not a public address (push endpoints must be on the internet)"
    )]
    NotPublic(String),
    /// The host does not resolve.
    #[error("subscription.endpoint: the host {0} does not resolve")]
    Unresolved(String),
}

/// Checks endpoints.
#[derive(Clone, Copy, Debug)]
pub struct Guard {
    /// Whether `http(s)://127.0.0.1:PORT/…` endpoints are accepted too (`--push-allow-loopback`).
    pub allow_loopback: bool,
}

impl Guard {
    /// Parses an endpoint as a client sent it and checks what can be checked without resolving
    /// its host: the URL in its normal form (as browsers write it, so `0x7f.1` is `127.0.0.1`).
    pub fn parse(&self, text: &str) -> Result<Url, EndpointError> {
        if text.len() > MAX_ENDPOINT_BYTES {
            return Err(EndpointError::NotUrl);
        }
        let url = Url::parse(text).map_err(|_| EndpointError::NotUrl)?;
        if !url.username().is_empty() || url.password().is_some() {
            return Err(EndpointError::Credentials);
        }
        let loopback = self.allow_loopback
            && matches!(url.host(), Some(Host::Ipv4(ip)) if ip == Ipv4Addr::LOCALHOST);
        match url.scheme() {
            "https" => {}
            "http" if loopback => {}
            _ => return Err(EndpointError::NotHttps),
        }
        if loopback {
            return Ok(url);
        }
        match url.host() {
            Some(Host::Ipv4(ip)) => public(IpAddr::V4(ip))?,
            Some(Host::Ipv6(ip)) => public(IpAddr::V6(ip))?,
            Some(Host::Domain(_)) => {}
            None => return Err(EndpointError::NotUrl),
        }
        Ok(url)
    }

    /// [`parse`](Guard::parse), then resolves a host name and refuses it if any of its
    /// addresses is not public (or if it does not resolve). Returns the URL in its normal form.
    pub async fn check(&self, text: &str) -> Result<Url, EndpointError> {
        let url = self.parse(text)?;
        if let Some(Host::Domain(name)) = url.host() {
            resolve_public(name).await?;
        }
        Ok(url)
    }
}

/// Resolves `name` and checks every address it has; its addresses (port 0).
async fn resolve_public(name: &str) -> Result<Vec<SocketAddr>, EndpointError> {
    let unresolved = || EndpointError::Unresolved(shown(name));
    let lookup = tokio::net::lookup_host((name, 0));
    let addrs: Vec<SocketAddr> = tokio::time::timeout(RESOLVE_TIMEOUT, lookup)
        .await
        .map_err(|_| unresolved())?
        .map_err(|_| unresolved())?
        .collect();
    if addrs.is_empty() {
        return Err(unresolved());
    }
    for addr in &addrs {
        public(addr.ip())?;
    }
    Ok(addrs)
}

/// A host name as an error may show it (short).
fn shown(name: &str) -> String {
    name.chars().take(64).collect()
}

/// `Ok` if `ip` is a public address.
fn public(ip: IpAddr) -> Result<(), EndpointError> {
    if is_public(ip) {
        Ok(())
    } else {
        Err(EndpointError::NotPublic(ip.to_string()))
    }
}

/// Whether `ip` is a public unicast address: none of IANA's special-purpose blocks
/// (RFC 6890 and its updates) that are not reachable on the internet.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_multicast()
        || ip.is_broadcast()
        || ip.is_documentation()
        || a == 0 // "this network"
        || (a == 100 && (64..128).contains(&b)) // shared address space (CGNAT), RFC 6598
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments
        || (a == 192 && b == 88 && c == 99) // 6to4 relay anycast (deprecated)
        || (a == 198 && (b == 18 || b == 19)) // benchmarking, RFC 2544
        || a >= 240) // reserved
}

/// The IPv4 address in an IPv6 address's last 32 bits.
fn low_v4(s: &[u16; 8]) -> Ipv4Addr {
    let [a, b] = s[6].to_be_bytes();
    let [c, d] = s[7].to_be_bytes();
    Ipv4Addr::new(a, b, c, d)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    // The NAT64 well-known prefix (64:ff9b::/96, RFC 6052) carries an IPv4 address: judge
    // that one.
    if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        return is_public_v4(low_v4(&s));
    }
    // An ISATAP interface identifier (RFC 5214: `…:0:5efe:a.b.c.d`, the u/g bits either way)
    // names an IPv4 address in any prefix: a private one refuses the address.
    if (s[4] & 0xfcff) == 0 && s[5] == 0x5efe && !is_public_v4(low_v4(&s)) {
        return false;
    }
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || ip.is_unique_local()
        || ip.is_unicast_link_local()
        || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated)
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || (s[0] == 0x0100 && s[1..4] == [0, 0, 0]) // discard-only
        || (s[0] == 0x2001 && s[1] < 0x0200) // IETF protocol assignments (Teredo, ORCHID, …)
        || s[0] == 0x2002 // 6to4: carries an IPv4 address of any kind
        || s[..3] == [0x64, 0xff9b, 1] // NAT64 local use (64:ff9b:1::/48, RFC 8215)
        || s[..6] == [0, 0, 0, 0, 0xffff, 0] // IPv4-translated (::ffff:0:0/96, RFC 2765)
        || s[..6] == [0, 0, 0, 0, 0, 0]) // IPv4-compatible (deprecated)
}

/// The sender's only resolver: a host name's addresses, all of them checked public, or an
/// error. The connection goes to the addresses checked here.
#[derive(Clone, Copy, Debug, Default)]
pub struct GuardedResolver;

impl tower::Service<Name> for GuardedResolver {
    type Response = std::vec::IntoIter<SocketAddr>;
    type Error = io::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self::Response, io::Error>> + Send>>;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), io::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, name: Name) -> Self::Future {
        Box::pin(async move {
            resolve_public(name.as_str())
                .await
                .map(Vec::into_iter)
                .map_err(|e| io::Error::new(io::ErrorKind::PermissionDenied, e.to_string()))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: Guard = Guard {
        allow_loopback: false,
    };
    const LOOPBACK: Guard = Guard {
        allow_loopback: true,
    };

    #[test]
    fn only_https_on_public_addresses() {
        assert!(STRICT.parse("https://push.example.net/send/abc").is_ok());
        assert!(STRICT.parse("https://8.8.8.8/x").is_ok());
        assert!(STRICT.parse("https://[2606:4700::1111]/x").is_ok());
        assert_eq!(
            STRICT.parse("http://push.example.net/x"),
            Err(EndpointError::NotHttps)
        );
        assert_eq!(
            STRICT.parse("ftp://8.8.8.8/x"),
            Err(EndpointError::NotHttps)
        );
        assert_eq!(STRICT.parse("not a url"), Err(EndpointError::NotUrl));
        assert_eq!(
            STRICT.parse("https://user:pw@push.example.net/x"),
            Err(EndpointError::Credentials)
        );
        let long = format!(
            "https://push.example.net/{}",
            "a".repeat(MAX_ENDPOINT_BYTES)
        );
        assert_eq!(STRICT.parse(&long), Err(EndpointError::NotUrl));
    }

    /// Every IPv6 form that embeds an IPv4 address, with each private, loopback, link-local
    /// or otherwise special IPv4 address in it, in several spellings: refused. The same forms
    /// with a public IPv4 address where the form itself is routable: accepted.
    #[test]
    fn every_ipv6_form_embedding_a_private_ipv4_address_is_refused() {
        fn forms(v4: Ipv4Addr) -> Vec<String> {
            let [a, b, c, d] = v4.octets();
            let hi = u16::from_be_bytes([a, b]);
            let lo = u16::from_be_bytes([c, d]);
            vec![
                format!("::ffff:{v4}"),                  // IPv4-mapped
                format!("::ffff:{hi:x}:{lo:x}"),         // the same, in hex
                format!("0:0:0:0:0:FFFF:{hi:X}:{lo:X}"), // uncompressed, upper case
                format!("::ffff:0:{v4}"),                // IPv4-translated (SIIT)
                format!("::ffff:0:{hi:x}:{lo:x}"),
                format!("0000:0000:0000:0000:ffff:0000:{hi:04x}:{lo:04x}"),
                format!("::{v4}"),        // IPv4-compatible
                format!("64:ff9b::{v4}"), // NAT64, well-known prefix
                format!("64:ff9b::{hi:x}:{lo:x}"),
                format!("64:ff9b:1::{hi:x}:{lo:x}"), // NAT64, local use (/96)
                format!("64:ff9b:1:{hi:x}:{c:x}:{:x}::", u16::from(d) << 8), // local use, /48 layout
                format!("0064:FF9B:0001::{v4}"),
                format!("2002:{hi:x}:{lo:x}::1"),             // 6to4
                format!("2001:0:{hi:x}:{lo:x}::1"),           // Teredo (server address)
                format!("2001:4860::5efe:{v4}"),              // ISATAP
                format!("2001:4860::200:5efe:{hi:x}:{lo:x}"), // ISATAP, global u bit
            ]
        }
        let private = [
            "127.0.0.1",
            "127.255.255.254",
            "10.0.0.1",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
        ];
        let mut checked = 0;
        for v4 in private {
            for form in forms(v4.parse().unwrap()) {
                let url = format!("https://[{form}]/push");
                assert!(
                    matches!(STRICT.parse(&url), Err(EndpointError::NotPublic(_))),
                    "{url} was not refused"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, private.len() * 16);
        // The routable forms with a public IPv4 address inside stay usable.
        for ok in [
            "https://[::ffff:8.8.8.8]/push",
            "https://[64:ff9b::808:808]/push",
            "https://[2001:4860::5efe:8.8.8.8]/push",
            "https://[2001:4860:4860::8888]/push",
        ] {
            assert!(STRICT.parse(ok).is_ok(), "{ok} was refused");
        }
    }

    #[test]
    fn private_and_special_addresses_are_refused_in_any_spelling() {
        for bad in [
            "https://127.0.0.1/x",
            "https://127.1/x",
            "https://0x7f.1/x",
            "https://2130706433/x",
            "https://10.1.2.3/x",
            "https://172.16.0.1/x",
            "https://192.168.1.1/x",
            "https://169.254.169.254/latest/meta-data",
            "https://100.64.0.1/x",
            "https://0.0.0.0/x",
            "https://224.0.0.1/x",
            "https://192.0.2.1/x",
            "https://198.18.0.1/x",
            "https://255.255.255.255/x",
            "https://[::1]/x",
            "https://[::]/x",
            "https://[fc00::1]/x",
            "https://[fe80::1]/x",
            "https://[::ffff:10.0.0.1]/x",
            "https://[::ffff:127.0.0.1]/x",
            "https://[64:ff9b::a00:1]/x",
            "https://[2001:db8::1]/x",
            "https://[2002:a00:1::]/x",
        ] {
            assert!(
                matches!(STRICT.parse(bad), Err(EndpointError::NotPublic(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn the_loopback_flag_allows_127_0_0_1_only() {
        assert!(LOOPBACK.parse("http://127.0.0.1:4000/push/1").is_ok());
        assert!(LOOPBACK.parse("https://127.0.0.1:4000/push/1").is_ok());
        assert!(STRICT.parse("http://127.0.0.1:4000/push/1").is_err());
        assert!(LOOPBACK.parse("http://localhost:4000/x").is_err());
        assert!(LOOPBACK.parse("http://10.0.0.1:4000/x").is_err());
        assert!(LOOPBACK.parse("https://[::1]:4000/x").is_err());
    }

    #[tokio::test]
    async fn a_name_that_resolves_to_loopback_is_refused() {
        assert!(matches!(
            STRICT.check("https://localhost/x").await,
            Err(EndpointError::NotPublic(_))
        ));
        assert!(matches!(
            LOOPBACK.check("http://localhost:9/x").await,
            Err(EndpointError::NotHttps)
        ));
        let mut resolver = GuardedResolver;
        let name: Name = "localhost".parse().unwrap();
        let refused = tower::Service::call(&mut resolver, name).await;
        assert_eq!(refused.unwrap_err().kind(), io::ErrorKind::PermissionDenied);
    }
}
