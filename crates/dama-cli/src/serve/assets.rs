//! The page: HTML, CSS and JavaScript embedded in the binary (no network,
//! no build step).

use axum::http::header;
use axum::response::IntoResponse;

const INDEX: &str = include_str!("static/index.html");
const SCRIPT: &str = include_str!("static/app.js");
const STYLE: &str = include_str!("static/style.css");
/// The icon: a dark square with a light man on it.
const ICON: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 16 16\">\
<rect width=\"16\" height=\"16\" rx=\"2\" fill=\"#8b5a2b\"/>\
<circle cx=\"8\" cy=\"8\" r=\"5.5\" fill=\"#f4ead5\" stroke=\"#3b2a1a\"/>\
<circle cx=\"8\" cy=\"8\" r=\"3\" fill=\"none\" stroke=\"#3b2a1a\"/></svg>\n";

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

/// The icon (`/favicon.svg`, and `/favicon.ico`, where browsers look first).
pub async fn icon() -> impl IntoResponse {
    (headers("image/svg+xml"), ICON)
}
