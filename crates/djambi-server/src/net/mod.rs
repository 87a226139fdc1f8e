//! The network edge: accepting connections under caps and timeouts ([`listener`],
//! [`conns`]), knowing who a request comes from ([`client_ip`]: the peer, or the client behind
//! a trusted reverse proxy), the per-address budgets that keep one client from taking what
//! belongs to everyone ([`budget`]), and the container's healthcheck client ([`probe`]).

pub mod budget;
pub mod client_ip;
pub mod conns;
pub mod listener;
pub mod probe;

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

pub use budget::{Budget, BudgetConfig, Budgets};
pub use client_ip::{ClientIp, IpKey, TrustedProxies};
pub use conns::{ConnLimits, ConnSlot, ConnState, ConnTracker};
pub use listener::{NetConfig, serve};

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = Infallible;

    /// The client address the accept loop found; a request that did not come through it (a
    /// test driving the router directly) counts as `0.0.0.0`.
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<ClientIp, Infallible> {
        Ok(parts
            .extensions
            .get::<ClientIp>()
            .copied()
            .unwrap_or(ClientIp(IpAddr::V4(Ipv4Addr::UNSPECIFIED))))
    }
}
