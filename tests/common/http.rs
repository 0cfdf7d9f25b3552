//! A small HTTP/1.1 client over `TcpStream` for the service tests: plain
//! requests, raw bytes (malformed requests) and keep-alive connections.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// A response: status, headers (names lower-cased) and body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    /// The body as JSON; panics with the body when it is not JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "status {}: body is not JSON ({e}): {}",
                self.status,
                String::from_utf8_lossy(&self.body)
            )
        })
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one response from `reader`.
pub fn read_response(reader: &mut impl BufRead) -> std::io::Result<Response> {
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let status: u16 = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line '{line}'")))?;
    let mut headers = Vec::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        if let Some((k, v)) = l.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let find = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v): &(String, String)| v.clone())
    };
    let mut body = Vec::new();
    if let Some(n) = find("content-length") {
        let n: usize = n.parse().map_err(std::io::Error::other)?;
        body.resize(n, 0);
        reader.read_exact(&mut body)?;
    } else if find("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            line.clear();
            reader.read_line(&mut line)?;
            let size = usize::from_str_radix(line.trim(), 16).map_err(std::io::Error::other)?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else {
        reader.read_to_end(&mut body)?;
    }
    Ok(Response {
        status,
        headers,
        body,
    })
}

fn request_bytes(method: &str, path: &str, body: Option<&[u8]>, close: bool) -> Vec<u8> {
    let mut out = format!("{method} {path} HTTP/1.1\r\nHost: localhost\r\n");
    if close {
        out += "Connection: close\r\n";
    }
    if let Some(b) = body {
        out += &format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        );
    }
    out += "\r\n";
    let mut bytes = out.into_bytes();
    if let Some(b) = body {
        bytes.extend_from_slice(b);
    }
    bytes
}

/// One request on a fresh connection.
pub fn request(addr: SocketAddr, method: &str, path: &str, body: Option<&[u8]>) -> Response {
    let mut stream = TcpStream::connect(addr).expect("connect to the service");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    stream
        .write_all(&request_bytes(method, path, body, true))
        .expect("send the request");
    read_response(&mut BufReader::new(stream)).expect("read the response")
}

/// `GET path`.
pub fn get(addr: SocketAddr, path: &str) -> Response {
    request(addr, "GET", path, None)
}

/// `POST path` with a JSON body.
pub fn post(addr: SocketAddr, path: &str, body: &str) -> Response {
    request(addr, "POST", path, Some(body.as_bytes()))
}

/// Sends raw bytes and reads whatever comes back (empty if the server
/// closes the connection without an answer).
pub fn raw(addr: SocketAddr, bytes: &[u8]) -> Vec<u8> {
    let mut stream = TcpStream::connect(addr).expect("connect to the service");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let _ = stream.write_all(bytes);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let mut out = Vec::new();
    let _ = stream.read_to_end(&mut out);
    out
}

/// A kept-alive connection for many requests.
pub struct Connection {
    reader: BufReader<TcpStream>,
}

impl Connection {
    /// Connects to `addr`.
    pub fn open(addr: SocketAddr) -> Connection {
        let stream = TcpStream::connect(addr).expect("connect to the service");
        stream.set_nodelay(true).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        Connection {
            reader: BufReader::new(stream),
        }
    }

    /// Sends a request and reads its response.
    pub fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<&[u8]>,
    ) -> std::io::Result<Response> {
        self.reader
            .get_mut()
            .write_all(&request_bytes(method, path, body, false))?;
        read_response(&mut self.reader)
    }
}

/// Percent-encodes a query value.
pub fn encode(text: &str) -> String {
    let mut out = String::new();
    for b in text.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out += &format!("%{b:02X}"),
        }
    }
    out
}
