//! `dicechess web`: serve the browser page (`web/`, with the wasm package `web/pkg` that
//! `bash web/build.sh` builds) as static files on a local port.

use super::CliError;
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, Method, StatusCode, Uri};
use axum::response::Response;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Arguments of `web`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// TCP port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8000)]
    port: u16,
    /// Address to bind.
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// The folder to serve (the repository's `web/`, relative to the working directory).
    #[arg(long, default_value = "web")]
    dir: PathBuf,
}

/// The largest file served (the page's files and the wasm package are well under it).
const MAX_FILE_BYTES: u64 = 64 << 20;

/// Serve `--dir` until interrupted; prints `serving DIR on http://ADDR/` once listening.
pub fn run(args: Args, out: &mut impl Write) -> Result<(), CliError> {
    let root = std::fs::canonicalize(&args.dir)
        .ok()
        .filter(|d| d.join("index.html").is_file())
        .ok_or_else(|| {
            CliError::Input(format!(
                "--dir {}: no index.html there (run from the repository root, or pass --dir)",
                args.dir.display()
            ))
        })?;
    if !root.join("pkg/web/dicechess_web.js").is_file() {
        eprintln!(
            "warning: {} has no pkg/ yet; build it with `bash web/build.sh`",
            root.display()
        );
    }
    let runtime = super::listen::runtime(Some(2))?;
    runtime.block_on(async move {
        let listener = super::listen::listen(&args.bind, args.port).await?;
        let local = listener.local_addr()?;
        writeln!(out, "serving {} on http://{local}/", root.display())?;
        out.flush()?;
        let app = axum::Router::new()
            .fallback(serve_file)
            .with_state(Arc::new(root));
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .map_err(|e| CliError::Other(e.into()))
    })
}

/// The file under `root` that a request path names: only plain names of letters, digits,
/// `.`, `_` and `-`, none starting with a dot (so no `..`, no hidden files); a folder path
/// means its `index.html`.
fn resolve(root: &Path, path: &str) -> Option<PathBuf> {
    let mut file = root.to_path_buf();
    for part in path.split('/').filter(|p| !p.is_empty()) {
        let plain = part
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b));
        if !plain || part.starts_with('.') {
            return None;
        }
        file.push(part);
    }
    if path.is_empty() || path.ends_with('/') {
        file.push("index.html");
    }
    Some(file)
}

/// The Content-Type of a served file, by extension (`application/wasm` lets browsers
/// compile the module while it downloads).
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "wasm" => "application/wasm",
        "json" => "application/json",
        "png" => "image/png",
        "svg" => "image/svg+xml",
        "ts" | "md" | "txt" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn status(code: StatusCode) -> Response {
    let mut r = Response::new(Body::from(code.canonical_reason().unwrap_or("").to_owned()));
    *r.status_mut() = code;
    r
}

/// The bytes of `file` if it is a regular file (not a link, not a folder) of at most
/// [`MAX_FILE_BYTES`].
fn read_regular(file: &Path) -> Option<Vec<u8>> {
    let meta = std::fs::symlink_metadata(file).ok()?;
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES {
        return None;
    }
    std::fs::read(file).ok()
}

/// GET or HEAD of one regular file under the root; 404 for anything else that exists or
/// not, 405 for other methods.
async fn serve_file(State(root): State<Arc<PathBuf>>, method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return status(StatusCode::METHOD_NOT_ALLOWED);
    }
    let Some(file) = resolve(&root, uri.path()) else {
        return status(StatusCode::NOT_FOUND);
    };
    let read = {
        let file = file.clone();
        tokio::task::spawn_blocking(move || read_regular(&file)).await
    };
    let Ok(Some(bytes)) = read else {
        return status(StatusCode::NOT_FOUND);
    };
    let len = bytes.len();
    let body = if method == Method::HEAD {
        Body::empty()
    } else {
        Body::from(bytes)
    };
    let mut r = Response::new(body);
    let h = r.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        header::HeaderValue::from_static(content_type(&file)),
    );
    h.insert(header::CONTENT_LENGTH, len.into());
    h.insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-cache"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        header::HeaderValue::from_static("nosniff"),
    );
    r
}

#[cfg(test)]
mod tests {
    use super::resolve;
    use std::path::Path;

    #[test]
    fn resolve_keeps_to_plain_names_under_the_root() {
        let root = Path::new("/srv/web");
        assert_eq!(resolve(root, "/"), Some(root.join("index.html")));
        assert_eq!(
            resolve(root, "/pkg/web/x.wasm"),
            Some(root.join("pkg/web/x.wasm"))
        );
        assert_eq!(resolve(root, "/pkg/"), Some(root.join("pkg/index.html")));
        for bad in [
            "/../Cargo.toml",
            "/pkg/../../x",
            "/.git/config",
            "/a%2e%2e/b",
            "/a\\b",
        ] {
            assert_eq!(resolve(root, bad), None, "{bad}");
        }
    }
}
