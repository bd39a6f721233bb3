//! What every request passes and every answer carries, whatever the route:
//!
//! - the `Host` header names this server: a loopback name or address, the
//!   address it listens on, or a name given with `--allow-host`; anything
//!   else gets 421 (code `host`). A page of another site that makes its own
//!   name resolve to 127.0.0.1 (DNS rebinding) cannot drive the API;
//! - headers that keep the page out of other sites' frames and keep
//!   browsers from guessing types: `X-Frame-Options: DENY`,
//!   `X-Content-Type-Options: nosniff`, `Referrer-Policy: no-referrer`, and
//!   a Content-Security-Policy with `frame-ancestors 'none'` on every answer;
//! - a method the path does not take gets the API's JSON error (405, code
//!   `method`), not an empty body.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::header::{self, HeaderValue};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use dama_play::ErrorCode;

use super::error::ApiError;

/// The policy of every answer that is not the page itself (the page's
/// assets carry their own, `assets.rs`): nothing may be loaded, framed or
/// posted from an answer of the API.
const API_POLICY: &str = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/// The names this server answers to.
#[derive(Debug, Clone)]
pub struct Hosts {
    /// Lowercase names and addresses besides the loopback ones.
    names: Vec<String>,
}

impl Hosts {
    /// The loopback names, the address `addr` the server listens on, the
    /// `--host` it was given, and `allowed` (`--allow-host`).
    pub fn new(host: &str, addr: &SocketAddr, allowed: &[String]) -> Hosts {
        let mut names: Vec<String> = allowed.iter().map(|h| normal(h)).collect();
        names.push(normal(host));
        if !addr.ip().is_unspecified() {
            names.push(normal(&addr.ip().to_string()));
        }
        Hosts { names }
    }

    /// Whether a request with this `Host` header is for this server.
    pub fn allows(&self, host: &str) -> bool {
        let name = normal(strip_port(host));
        if name == "localhost" || name.ends_with(".localhost") {
            return true;
        }
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        if bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback()) {
            return true;
        }
        self.names
            .iter()
            .any(|n| *n == name || n.trim_start_matches('[').trim_end_matches(']') == bare)
    }
}

/// A name as compared: lowercase, without a trailing dot.
fn normal(name: &str) -> String {
    name.trim().trim_end_matches('.').to_ascii_lowercase()
}

/// `host:port` → `host`; `[::1]:port` → `[::1]`.
fn strip_port(host: &str) -> &str {
    if host.starts_with('[') {
        return host.find(']').map_or(host, |end| &host[..=end]);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if !name.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => name,
        _ => host,
    }
}

/// The middleware: the Host check before the route, the headers and the
/// JSON 405 after it.
pub async fn guard(State(hosts): State<Arc<Hosts>>, req: Request, next: Next) -> Response {
    let host = req.headers().get(header::HOST).and_then(|h| h.to_str().ok());
    let mut answer = match host {
        Some(h) if hosts.allows(h) => next.run(req).await,
        _ => ApiError {
            status: StatusCode::MISDIRECTED_REQUEST,
            code: ErrorCode::Host,
            message: format!(
                "this server does not answer to the host `{}` (start it with `--allow-host NAME` to add a name)",
                dama_engine::text::clip(host.unwrap_or(""))
            ),
        }
        .into_response(),
    };
    if answer.status() == StatusCode::METHOD_NOT_ALLOWED {
        let allow = answer.headers().get(header::ALLOW).cloned();
        answer = ApiError {
            status: StatusCode::METHOD_NOT_ALLOWED,
            code: ErrorCode::Method,
            message: match allow.as_ref().and_then(|a| a.to_str().ok()) {
                Some(a) => format!("this path takes {a} only"),
                None => "this path does not take that method".into(),
            },
        }
        .into_response();
        if let Some(a) = allow {
            answer.headers_mut().insert(header::ALLOW, a);
        }
    }
    let headers = answer.headers_mut();
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers
        .entry(header::CONTENT_SECURITY_POLICY)
        .or_insert(HeaderValue::from_static(API_POLICY));
    answer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_and_the_served_address_are_allowed() {
        let addr: SocketAddr = "127.0.0.1:8757".parse().unwrap();
        let hosts = Hosts::new("127.0.0.1", &addr, &["board.example".into()]);
        for ok in [
            "127.0.0.1:8757",
            "localhost:8757",
            "LOCALHOST",
            "[::1]:8757",
            "127.0.0.2",
            "board.example:8757",
            "Board.Example.",
        ] {
            assert!(hosts.allows(ok), "{ok}");
        }
        for refused in [
            "evil.example",
            "evil.example:8757",
            "127.0.0.1.evil.example",
            "",
            "10.0.0.1:8757",
        ] {
            assert!(!hosts.allows(refused), "{refused}");
        }
        // A server on every address answers to the address it was reached at only when named.
        let any: SocketAddr = "0.0.0.0:8757".parse().unwrap();
        assert!(!Hosts::new("0.0.0.0", &any, &[]).allows("192.168.1.5:8757"));
        assert!(Hosts::new("0.0.0.0", &any, &["192.168.1.5".into()]).allows("192.168.1.5:8757"));
    }
}
