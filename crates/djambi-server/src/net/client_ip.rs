//! Who a request comes from. The peer address of the TCP connection, unless that peer is a
//! reverse proxy named by `--trusted-proxy`: then the client is the right-most address of
//! `X-Forwarded-For` that is not itself a trusted proxy. A header from anyone else is ignored,
//! so a stranger cannot choose the address its limits are counted against.

use std::fmt;
use std::net::{IpAddr, Ipv6Addr};
use std::str::FromStr;

use axum::http::HeaderMap;

/// A network of trusted reverse proxies: an address with a prefix length (`10.0.0.0/8`,
/// `::1/128`; a bare address is the one host).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl Cidr {
    /// Whether `ip` is inside this network (IPv4-mapped IPv6 addresses count as IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        match (self.addr, canonical(ip)) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = mask_u32(self.prefix);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = mask_u128(self.prefix);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

fn mask_u32(prefix: u8) -> u32 {
    if prefix == 0 {
        0
    } else {
        u32::MAX << (32 - u32::from(prefix.min(32)))
    }
}

fn mask_u128(prefix: u8) -> u128 {
    if prefix == 0 {
        0
    } else {
        u128::MAX << (128 - u32::from(prefix.min(128)))
    }
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Cidr, String> {
        let s = s.trim();
        let (addr, prefix) = match s.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s, None),
        };
        let addr: IpAddr = addr
            .parse()
            .map_err(|_| format!("{s:?} is not an IP address or network"))?;
        let addr = canonical(addr);
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{s:?}: the prefix length must be 0 to {max}"))?,
        };
        Ok(Cidr { addr, prefix })
    }
}

impl fmt::Display for Cidr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.addr, self.prefix)
    }
}

/// The trusted reverse proxies (`--trusted-proxy`); empty by default: the peer is the client.
#[derive(Clone, Debug, Default)]
pub struct TrustedProxies(Vec<Cidr>);

impl TrustedProxies {
    /// The proxies of a comma-separated list of addresses and networks.
    pub fn parse(list: &str) -> Result<TrustedProxies, String> {
        list.split(',')
            .filter(|s| !s.trim().is_empty())
            .map(str::parse)
            .collect::<Result<Vec<_>, _>>()
            .map(TrustedProxies)
    }

    /// Whether `ip` is a trusted proxy.
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|c| c.contains(ip))
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The client behind `peer`: `peer` itself unless it is a trusted proxy, in which case the
    /// right-most `X-Forwarded-For` address that is not a trusted proxy (a malformed or missing
    /// header: the proxy itself).
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let peer = canonical(peer);
        if !self.contains(peer) {
            return peer;
        }
        let mut client = peer;
        // Every X-Forwarded-For header, in order, forms one list; read it from the right.
        let hops: Vec<&str> = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .collect();
        for hop in hops.iter().rev() {
            let Ok(ip) = hop.trim().parse::<IpAddr>() else {
                // Past a malformed entry nothing is trustworthy: the last good hop answers.
                return client;
            };
            let ip = canonical(ip);
            client = ip;
            if !self.contains(ip) {
                return ip;
            }
        }
        client
    }
}

/// An address as one form: IPv4-mapped IPv6 addresses become IPv4.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map(IpAddr::V4)
            .unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

/// The key an address's limits are counted under: the IPv4 address, or the IPv6 /64 network
/// (one subscriber usually holds a whole /64, so counting single IPv6 addresses would let one
/// client pose as billions).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct IpKey(IpAddr);

impl IpKey {
    /// The key of an address.
    pub fn of(ip: IpAddr) -> IpKey {
        match canonical(ip) {
            IpAddr::V6(v6) => {
                let net = u128::from(v6) & mask_u128(64);
                IpKey(IpAddr::V6(Ipv6Addr::from(net)))
            }
            v4 => IpKey(v4),
        }
    }
}

impl fmt::Display for IpKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            IpAddr::V6(v6) => write!(f, "{v6}/64"),
            v4 => write!(f, "{v4}"),
        }
    }
}

/// The client of a request, put into its extensions by the accept loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl ClientIp {
    /// The key its limits are counted under.
    pub fn key(self) -> IpKey {
        IpKey::of(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(xff: &[&str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in xff {
            h.append("x-forwarded-for", v.parse().unwrap());
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn networks_parse_and_match() {
        let c: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(c.contains(ip("10.1.2.3")));
        assert!(c.contains(ip("::ffff:10.1.2.3")));
        assert!(!c.contains(ip("11.0.0.1")));
        let one: Cidr = "127.0.0.1".parse().unwrap();
        assert!(one.contains(ip("127.0.0.1")) && !one.contains(ip("127.0.0.2")));
        let v6: Cidr = "fd00::/8".parse().unwrap();
        assert!(v6.contains(ip("fd12::1")) && !v6.contains(ip("fe80::1")));
        assert!("10.0.0.0/33".parse::<Cidr>().is_err());
        assert!("nope".parse::<Cidr>().is_err());
        assert!(
            TrustedProxies::parse("127.0.0.1, ::1,")
                .unwrap()
                .contains(ip("::1"))
        );
    }

    #[test]
    fn forwarded_for_counts_only_behind_a_trusted_proxy() {
        let none = TrustedProxies::default();
        // A stranger's header is ignored.
        assert_eq!(
            none.client(ip("203.0.113.9"), &headers(&["1.2.3.4"])),
            ip("203.0.113.9")
        );
        let proxies = TrustedProxies::parse("127.0.0.1,10.0.0.0/8").unwrap();
        // Behind the proxy: the right-most address that is not a proxy.
        assert_eq!(
            proxies.client(
                ip("127.0.0.1"),
                &headers(&["6.6.6.6, 198.51.100.7, 10.0.0.2"])
            ),
            ip("198.51.100.7")
        );
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &headers(&["6.6.6.6", "198.51.100.7"])),
            ip("198.51.100.7")
        );
        // No header, or garbage: the proxy itself.
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &HeaderMap::new()),
            ip("127.0.0.1")
        );
        assert_eq!(
            proxies.client(ip("127.0.0.1"), &headers(&["not an ip"])),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64() {
        assert_eq!(
            IpKey::of(ip("2001:db8:1:2:aaaa::1")),
            IpKey::of(ip("2001:db8:1:2:bbbb::9"))
        );
        assert_ne!(
            IpKey::of(ip("2001:db8:1:2::1")),
            IpKey::of(ip("2001:db8:1:3::1"))
        );
        assert_eq!(IpKey::of(ip("::ffff:1.2.3.4")), IpKey::of(ip("1.2.3.4")));
    }
}
