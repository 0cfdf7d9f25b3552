//! `ransom health`: asks a running service for `GET /health` and exits 0
//! when it answers 200, 1 otherwise, with the reason on stderr. It is the
//! container image's `HEALTHCHECK` (the runtime image has no curl).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `ransom health`.
#[derive(Debug, clap::Args)]
pub struct HealthArgs {
    /// The service's address and port (a host name is resolved).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: String,
    /// Seconds to wait for the connection and for the answer (0.1 to 600).
    #[arg(long, default_value_t = 5.0, value_parser = parse_timeout)]
    timeout: f64,
}

fn parse_timeout(text: &str) -> Result<f64, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if (0.1..=600.0).contains(&secs) {
        Ok(secs)
    } else {
        Err(format!("{secs} s is out of range (0.1 to 600)"))
    }
}

/// The largest answer head read.
const MAX_HEAD: u64 = 64 * 1024;

pub fn run(args: &HealthArgs) -> anyhow::Result<ExitCode> {
    let timeout = Duration::from_secs_f64(args.timeout);
    match check(&args.addr, timeout) {
        Ok(()) => {
            outln!("ok: {} answers /health with 200", args.addr)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(reason) => {
            errln!("unhealthy: {}: {reason}", args.addr);
            Ok(ExitCode::FAILURE)
        }
    }
}

/// `Ok` when the service at `addr` answers `GET /health` with 200.
fn check(addr: &str, timeout: Duration) -> Result<(), String> {
    let target: SocketAddr = addr
        .to_socket_addrs()
        .map_err(|e| format!("not an address: {e}"))?
        .next()
        .ok_or("the name has no address")?;
    let mut stream =
        TcpStream::connect_timeout(&target, timeout).map_err(|e| format!("cannot connect: {e}"))?;
    stream
        .set_read_timeout(Some(timeout))
        .and_then(|()| stream.set_write_timeout(Some(timeout)))
        .map_err(|e| e.to_string())?;
    let request = format!("GET /health HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream
        .write_all(request.as_bytes())
        .map_err(|e| format!("cannot send the request: {e}"))?;
    let mut answer = Vec::new();
    stream
        .take(MAX_HEAD)
        .read_to_end(&mut answer)
        .map_err(|e| format!("no answer: {e}"))?;
    let text = String::from_utf8_lossy(&answer);
    let status_line = text.lines().next().unwrap_or("");
    match status_line.split_whitespace().nth(1) {
        Some("200") => Ok(()),
        Some(code) => Err(format!("answered {code} ({status_line})")),
        None if answer.is_empty() => Err("closed the connection without an answer".into()),
        None => Err(format!("not an HTTP answer: {status_line:?}")),
    }
}
