//! A probe of a running service's `GET /health` over plain TCP (`ransom
//! health`, the container image's `HEALTHCHECK`: the runtime image has no
//! curl).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// The largest answer head read.
const MAX_HEAD: u64 = 64 * 1024;

/// Why a service is not healthy.
#[derive(Debug, thiserror::Error)]
pub enum Unhealthy {
    /// The address does not resolve.
    #[error("not an address: {0}")]
    Address(String),
    /// No connection.
    #[error("cannot connect: {0}")]
    Connect(std::io::Error),
    /// The request could not be sent or the answer read.
    #[error("{what}: {error}")]
    Exchange {
        /// What failed.
        what: &'static str,
        /// Why.
        error: std::io::Error,
    },
    /// Another status than 200.
    #[error("answered {code} ({status_line})")]
    Status {
        /// The status code.
        code: String,
        /// The whole status line.
        status_line: String,
    },
    /// The connection closed with nothing.
    #[error("closed the connection without an answer")]
    NoAnswer,
    /// Not HTTP.
    #[error("not an HTTP answer: {0:?}")]
    NotHttp(String),
}

/// `Ok` when the service at `addr` answers `GET /health` with 200 within
/// `timeout` (to connect, and to answer).
pub fn probe_health(addr: &str, timeout: Duration) -> Result<(), Unhealthy> {
    let target: SocketAddr = addr
        .to_socket_addrs()
        .map_err(|e| Unhealthy::Address(e.to_string()))?
        .next()
        .ok_or_else(|| Unhealthy::Address("the name has no address".into()))?;
    let mut stream = TcpStream::connect_timeout(&target, timeout).map_err(Unhealthy::Connect)?;
    let exchange = |what| move |error| Unhealthy::Exchange { what, error };
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(exchange("cannot set the timeout"))?;
    let request = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .map_err(exchange("cannot send the request"))?;
    let mut answer = Vec::new();
    stream
        .take(MAX_HEAD)
        .read_to_end(&mut answer)
        .map_err(exchange("no answer"))?;
    let text = String::from_utf8_lossy(&answer);
    let status_line = text.lines().next().unwrap_or("").to_string();
    match status_line.split_whitespace().nth(1) {
        Some("200") => Ok(()),
        Some(code) => Err(Unhealthy::Status {
            code: code.to_string(),
            status_line: status_line.clone(),
        }),
        None if answer.is_empty() => Err(Unhealthy::NoAnswer),
        None => Err(Unhealthy::NotHttp(status_line)),
    }
}
