//! A `dama serve` of the tests' own, on loopback, and a small HTTP/1.1
//! client over std's TcpStream (one request per connection).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `dama serve`, stopped when dropped.
pub struct Server {
    pub child: Child,
    pub port: u16,
}

/// A free port on 127.0.0.1 (free when asked; the server binds it next).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port on 127.0.0.1")
}

impl Server {
    /// Starts `dama serve --port PORT` (0: any) and waits for its address.
    pub fn start(port: u16) -> Server {
        Server::start_with(port, &[])
    }

    /// Starts `dama serve --port PORT ARGS` and waits for its address.
    pub fn start_with(port: u16, args: &[&str]) -> Server {
        let mut child = Command::new(super::BIN)
            .args(["--color", "never", "serve", "--port", &port.to_string()])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("dama serve starts");
        let out = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(out).read_line(&mut line).expect("the address line");
        // "dama serve: http://127.0.0.1:PORT/ (Ctrl-C stops the server)"
        let port = line
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Server { child, port }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    /// The server's resident memory now and at its peak, in KiB (Linux).
    pub fn memory_kib(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }

    /// One request: (status, body).
    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> std::io::Result<(u16, String)> {
        request(self.port, method, path, body)
    }

    /// A JSON request whose answer must be 200: the answer.
    pub fn json(&self, method: &str, path: &str, body: serde_json::Value) -> serde_json::Value {
        let (status, text) = self
            .request(method, path, Some(&body.to_string()))
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        assert_eq!(status, 200, "{method} {path}: {text}");
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path}: {e}: {text}"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP/1.1 request to 127.0.0.1:`port`: (status, body).
pub fn request(port: u16, method: &str, path: &str, body: Option<&str>) -> std::io::Result<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let body = body.unwrap_or("");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())?;
    s.write_all(body.as_bytes())?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no status line in {text:?}")))?;
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok((status, body))
}

/// One request given as its raw head (the request line and the headers,
/// without the blank line) to 127.0.0.1:`port`: the whole answer, head
/// and body, as text.
pub fn raw(port: u16, head: &str) -> std::io::Result<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    s.write_all(format!("{head}\r\nConnection: close\r\n\r\n").as_bytes())?;
    let mut raw = Vec::new();
    s.read_to_end(&mut raw)?;
    Ok(String::from_utf8_lossy(&raw).into_owned())
}
