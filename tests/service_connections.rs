//! `ransom serve` against clients that hold connections (docs/service.md
//! "Connections"): silent and slow senders and idle keep-alive connections
//! are closed after the header timeout, connections over the cap are
//! answered 503 at once, and lookups that value many moves are bounded
//! (a move window, `truncated`) and run off the async workers.

mod common;

use common::http::{encode, get};
use ransom::service::{ServeConfig, Server};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn config(max_connections: usize, header_timeout: Duration) -> ServeConfig {
    let dir = std::env::temp_dir().join(format!("ransom-conn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    ServeConfig {
        max_connections,
        header_timeout,
        ..common::bare_serve_config(dir)
    }
}

/// Whether the server closes `stream` within `within` (reads end-of-file
/// or a reset); what it sent before closing is returned.
fn closed_by_server(stream: &mut TcpStream, within: Duration) -> Option<String> {
    stream
        .set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let deadline = Instant::now() + within;
    let mut seen = Vec::new();
    let mut buf = [0u8; 1024];
    while Instant::now() < deadline {
        match stream.read(&mut buf) {
            Ok(0) => return Some(String::from_utf8_lossy(&seen).into_owned()),
            Ok(n) => seen.extend_from_slice(&buf[..n]),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return Some(String::from_utf8_lossy(&seen).into_owned()),
        }
    }
    None
}

/// Silent connections, a header sent a byte at a time and an idle
/// keep-alive connection are all closed once the header timeout passes,
/// while `/health` keeps answering.
#[test]
fn silent_slow_and_idle_connections_are_closed_after_the_header_timeout() {
    let server = Server::start(config(100, Duration::from_millis(500))).unwrap();
    let addr = server.addr();
    let mut silent: Vec<TcpStream> = (0..30).map(|_| TcpStream::connect(addr).unwrap()).collect();
    let mut slow = TcpStream::connect(addr).unwrap();
    let mut idle = TcpStream::connect(addr).unwrap();
    write!(idle, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    assert_eq!(get(addr, "/health").status, 200);
    // The slow client sends a byte every 50 ms: 40 bytes take 2 s, longer
    // than the timeout, so its header never completes.
    let header = b"GET /health HTTP/1.1\r\nHost: slow.example\r\n\r\n";
    let started = Instant::now();
    let mut slow_closed = false;
    for &byte in header.iter().take(40) {
        if slow.write_all(&[byte]).is_err() {
            slow_closed = true;
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(
        slow_closed || closed_by_server(&mut slow, Duration::from_secs(5)).is_some(),
        "a header sent a byte at a time for {:?} is cut off",
        started.elapsed()
    );
    for (i, stream) in silent.iter_mut().enumerate() {
        assert!(
            closed_by_server(stream, Duration::from_secs(5)).is_some(),
            "silent connection {i} is still open"
        );
    }
    let answered = closed_by_server(&mut idle, Duration::from_secs(5))
        .expect("an idle keep-alive connection is closed");
    assert!(answered.starts_with("HTTP/1.1 200"), "{answered}");
    assert_eq!(get(addr, "/health").status, 200);
}

/// Over `--max-connections` a connection gets a JSON 503 at once and is
/// closed; once the held connections time out, requests are served again.
#[test]
fn connections_over_the_cap_get_503_at_once() {
    let server = Server::start(config(5, Duration::from_millis(800))).unwrap();
    let addr = server.addr();
    let held: Vec<TcpStream> = (0..5).map(|_| TcpStream::connect(addr).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(100));
    let mut extra = TcpStream::connect(addr).unwrap();
    let _ = write!(extra, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n");
    let answer = closed_by_server(&mut extra, Duration::from_secs(5)).expect("closed at once");
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("too-many-connections"), "{answer}");
    let body = &answer[answer.find("\r\n\r\n").unwrap() + 4..];
    let json: serde_json::Value = serde_json::from_str(body).unwrap();
    assert_eq!(json["error"]["code"], "too-many-connections");
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut probe = TcpStream::connect(addr).unwrap();
        write!(
            probe,
            "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let answer = closed_by_server(&mut probe, Duration::from_secs(5)).unwrap_or_default();
        if answer.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < deadline, "never served again: {answer}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The Hostage position of the audit: 1,221 legal moves.
const MANY_MOVES: &str = "k7/8/8/8/8/8/8/K7[QRBNPqrbnp#QRBNPqrbnp] w - - 0 1";

/// A lookup lists at most `limit` moves (default 256) from `offset`, and
/// says how many there are and whether the list is cut; cheap lookups are
/// answered while heavy ones run.
#[test]
fn lookups_list_a_window_of_moves_and_say_when_it_is_cut() {
    let server = Server::start(config(100, Duration::from_secs(10))).unwrap();
    let addr = server.addr();
    let path = |extra: &str| format!("/v1/hostage?fen={}{extra}", encode(MANY_MOVES));
    let first = get(addr, &path("")).json();
    assert_eq!(first["moves_total"], 1221, "{}", first["moves_total"]);
    assert_eq!(first["moves"].as_array().unwrap().len(), 256);
    assert_eq!(first["truncated"], true);
    let all = get(addr, &path("&limit=2000")).json();
    assert_eq!(all["moves"].as_array().unwrap().len(), 1221);
    assert_eq!(all["truncated"], false);
    let tail = get(addr, &path("&offset=1200&limit=100")).json();
    assert_eq!(tail["moves"].as_array().unwrap().len(), 21);
    assert_eq!(tail["truncated"], true);
    let listed = get(
        addr,
        &format!("/v1/hostage/moves?fen={}&limit=10", encode(MANY_MOVES)),
    )
    .json();
    assert_eq!(listed["moves"].as_array().unwrap().len(), 10);
    assert_eq!(listed["moves_total"], 1221);
    for bad in ["&limit=0", "&limit=2001", "&limit=x", "&offset=-1"] {
        let r = get(addr, &path(bad));
        assert_eq!(r.status, 400, "{bad}: {}", r.json());
        assert_eq!(r.json()["error"]["code"], "bad-request");
    }
    // Four clients repeat the heavy lookup; cheap ones are still answered.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let heavy: Vec<_> = (0..4)
        .map(|_| {
            let stop = std::sync::Arc::clone(&stop);
            let path = path("&limit=2000");
            std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    assert_eq!(get(addr, &path).status, 200);
                }
            })
        })
        .collect();
    for _ in 0..20 {
        let r = get(addr, "/v1/chess");
        assert_eq!(r.status, 200);
        assert_eq!(r.json()["truncated"], false);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    for h in heavy {
        h.join().unwrap();
    }
}

/// docs/service.md "Errors": what HTTP itself cannot read gets hyper's bare
/// status line (400, 431) and the connection is closed.
#[test]
fn unreadable_request_heads_get_bare_documented_statuses() {
    let server = Server::start(config(100, Duration::from_secs(10))).unwrap();
    let addr = server.addr();
    let status_of = |raw: &[u8]| {
        let mut stream = TcpStream::connect(addr).unwrap();
        let _ = stream.write_all(raw);
        let answer = closed_by_server(&mut stream, Duration::from_secs(5)).unwrap_or_default();
        answer
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse::<u16>().ok())
            .unwrap_or(0)
    };
    let big_header = format!(
        "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "a".repeat(70_000)
    );
    assert_eq!(status_of(big_header.as_bytes()), 431);
    assert_eq!(
        status_of(b"POST /v1/chess/mate HTTP/1.1\r\nHost: x\r\nContent-Length: 18446744073709551615\r\n\r\n"),
        431
    );
    assert_eq!(
        status_of(b"GET /health HTTP/1.1\r\nContent-Length: abc\r\n\r\n"),
        400
    );
    assert_eq!(status_of(b"NOT A REQUEST\r\n\r\n"), 400);
}
