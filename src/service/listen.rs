//! Accepting connections: hyper's HTTP/1 server with a header timeout that
//! also closes idle keep-alive connections, and a cap on open connections
//! (over it a connection is answered 503 at once and closed), so that slow
//! or silent clients cannot hold the service.

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// The body a connection over the cap gets before it is closed.
const OVER_CAPACITY_BODY: &str = "{\"error\":{\"code\":\"too-many-connections\",\"message\":\"the server has too many open connections; try again later\"}}\n";

/// The whole answer to a connection over the cap.
fn over_capacity() -> String {
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{OVER_CAPACITY_BODY}",
        OVER_CAPACITY_BODY.len()
    )
}

/// The largest request head (request line and headers); a larger one gets
/// hyper's bare 431.
pub const MAX_HEADER_BYTES: usize = 64 * 1024;

/// How long open connections may take to finish once shutdown begins.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The limits on connections.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// Open connections at most.
    pub max_connections: usize,
    /// Time to send a request's header, from the connection's start or the
    /// end of the previous answer.
    pub header_timeout: Duration,
}

/// Serves `app` on `listener` until `shutdown` completes, then lets open
/// connections finish (up to a few seconds).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(MAX_HEADER_BYTES)
        .keep_alive(true);
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors or a connection reset before it
                // was taken: wait a little instead of spinning.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            // Never waits for the client: what does not fit in the socket's
            // buffer is dropped with the connection.
            let _ = stream.try_write(over_capacity().as_bytes());
            metrics::counter!(super::metrics::CONNECTIONS_REJECTED).increment(1);
            continue;
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        let open = metrics::gauge!(super::metrics::CONNECTIONS_OPEN);
        open.increment(1.0);
        tokio::spawn(async move {
            let _ = connection.await;
            open.decrement(1.0);
            drop(slot);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
}
