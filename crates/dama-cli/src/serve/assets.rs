//! The page: HTML, CSS and JavaScript embedded in the binary (no network,
//! no build step).

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("static/index.html");
const SCRIPT: &str = include_str!("static/app.js");
const STYLE: &str = include_str!("static/style.css");

/// Headers every asset gets: its type, and a policy that keeps the page to
/// its own server.
fn headers(kind: &'static str) -> [(header::HeaderName, &'static str); 3] {
    [
        (header::CONTENT_TYPE, kind),
        (header::CACHE_CONTROL, "no-cache"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'",
        ),
    ]
}

pub async fn index() -> impl IntoResponse {
    (headers("text/html; charset=utf-8"), INDEX)
}

pub async fn script() -> impl IntoResponse {
    (headers("text/javascript; charset=utf-8"), SCRIPT)
}

pub async fn style() -> impl IntoResponse {
    (headers("text/css; charset=utf-8"), STYLE)
}
