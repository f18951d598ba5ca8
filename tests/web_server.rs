//! `dicechess web`: the static server of the browser page, over a real socket — files with
//! their content types (`application/wasm` for the module), folders as `index.html`, and
//! nothing outside the folder, hidden or other than GET/HEAD.
#![cfg(feature = "serve")]
#![allow(clippy::unwrap_used)] // a test fails by panicking

mod common;

use common::temp_dir;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// A running `dicechess web --port 0 --dir DIR` and its address.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(dir: &std::path::Path) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(["web", "--port", "0", "--dir"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start dicechess web");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .rsplit("http://")
        .next()
        .unwrap()
        .trim_end_matches('/')
        .to_owned();
    assert!(line.starts_with("serving "), "{line}");
    Server { child, addr }
}

/// (status, headers in lower case, body) of one request.
fn request(addr: &str, method: &str, path: &str) -> (u16, String, Vec<u8>) {
    let mut s = TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&raw[..split]).to_ascii_lowercase();
    let status = head[9..12].parse().unwrap();
    (status, head, raw[split + 4..].to_vec())
}

#[test]
fn serves_the_folder_and_nothing_else() {
    let dir = temp_dir("web");
    let web = dir.path().join("web");
    std::fs::create_dir_all(web.join("pkg/web")).unwrap();
    std::fs::create_dir_all(web.join(".hidden")).unwrap();
    std::fs::write(web.join("index.html"), "<!doctype html>page").unwrap();
    std::fs::write(web.join("pkg/web/x_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(web.join(".hidden/secret"), "no").unwrap();
    std::fs::write(dir.path().join("outside.txt"), "no").unwrap();
    let server = serve(&web);

    let (status, head, body) = request(&server.addr, "GET", "/");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: text/html"), "{head}");
    assert_eq!(body, b"<!doctype html>page");

    let (status, head, body) = request(&server.addr, "GET", "/pkg/web/x_bg.wasm");
    assert_eq!(status, 200);
    assert!(head.contains("content-type: application/wasm"), "{head}");
    assert_eq!(body, b"\0asm\x01\0\0\0");

    let (status, _, body) = request(&server.addr, "HEAD", "/index.html");
    assert_eq!((status, body.len()), (200, 0));

    for path in [
        "/../outside.txt",
        "/pkg/../../outside.txt",
        "/%2e%2e/outside.txt",
        "/.hidden/secret",
        "/missing.js",
        "/pkg",
    ] {
        assert_eq!(request(&server.addr, "GET", path).0, 404, "{path}");
    }
    assert_eq!(request(&server.addr, "POST", "/index.html").0, 405);
}

#[test]
fn refuses_a_folder_without_index_html() {
    let dir = temp_dir("web-empty");
    let out = Command::new(env!("CARGO_BIN_EXE_dicechess"))
        .args(["web", "--port", "0", "--dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--dir"));
}
