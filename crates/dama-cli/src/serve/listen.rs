//! The connections, served by hyper's HTTP/1 directly (`axum::serve` sets
//! no bound on them), so that no client can hold the server:
//!
//! - a request's head must arrive within [`HEAD_TIMEOUT`] (also between
//!   the requests of a kept-alive connection): a client that trickles its
//!   head, or connects and says nothing, is closed;
//! - at most [`MAX_CONNECTIONS`] at once: a new one past that closes the
//!   oldest connection that has not sent a whole request yet (else the
//!   oldest), so a crowd of idle connections cannot lock people out;
//! - a connection lives at most [`CONNECTION_LIFE`] (then it is closed
//!   once its request is answered);
//! - an accept that fails (no file descriptor left) is retried after a
//!   pause instead of ending the server.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Notify;

/// The most connections served at once.
pub const MAX_CONNECTIONS: usize = 512;
/// The longest a request's head may take to arrive.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a connection is kept.
pub const CONNECTION_LIFE: Duration = Duration::from_secs(120);
/// The pause after an accept that failed.
const ACCEPT_PAUSE: Duration = Duration::from_millis(50);

/// One open connection, as the cap sees it.
#[derive(Debug)]
struct Conn {
    id: u64,
    /// Whether it has sent a whole request's head.
    served: Arc<AtomicBool>,
    /// Closes it.
    close: Arc<Notify>,
}

/// The open connections, oldest first.
#[derive(Debug, Default)]
struct Open(Mutex<VecDeque<Conn>>);

impl Open {
    /// Adds `conn`, closing another first when [`MAX_CONNECTIONS`] are open.
    fn add(&self, conn: Conn) {
        let mut open = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if open.len() >= MAX_CONNECTIONS {
            let victim = open.iter().position(|c| !c.served.load(Ordering::Relaxed)).unwrap_or(0);
            if let Some(c) = open.remove(victim) {
                c.close.notify_one();
            }
        }
        open.push_back(conn);
    }

    fn remove(&self, id: u64) {
        let mut open = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(i) = open.iter().position(|c| c.id == id) {
            open.remove(i);
        }
    }
}

/// Serves `app` on `listener` until the process ends.
pub async fn serve(listener: TcpListener, app: Router) {
    let open = Arc::new(Open::default());
    let mut next = 0u64;
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it
                // was taken: the server goes on.
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            }
        };
        next += 1;
        let id = next;
        let served = Arc::new(AtomicBool::new(false));
        let close = Arc::new(Notify::new());
        open.add(Conn {
            id,
            served: Arc::clone(&served),
            close: Arc::clone(&close),
        });
        let (app, open) = (app.clone(), Arc::clone(&open));
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                served.store(true, Ordering::Relaxed);
                let mut app = app.clone();
                async move { tower_service::Service::call(&mut app, req).await }
            });
            let conn = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEAD_TIMEOUT)
                .serve_connection(TokioIo::new(stream), service);
            tokio::pin!(conn);
            tokio::select! {
                _ = conn.as_mut() => {}
                _ = close.notified() => {}
                _ = tokio::time::sleep(CONNECTION_LIFE) => {
                    conn.as_mut().graceful_shutdown();
                    let _ = tokio::time::timeout(HEAD_TIMEOUT, conn.as_mut()).await;
                }
            }
            open.remove(id);
        });
    }
}
