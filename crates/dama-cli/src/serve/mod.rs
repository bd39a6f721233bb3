//! `dama serve`: a board in the browser, to play, analyse and design
//! variants (issue 16).
//!
//! A thin layer over the engine, like the other front ends: the server keeps
//! games by id and answers JSON; the page (embedded, `assets.rs`) draws the
//! board and sends clicks. No rule is decided here: legal moves, their
//! paths, the explanation of an illegal move, the end of the game, FEN, PDN
//! and the validator's findings all come from `dama_engine`.
//!
//! One concept per file: `store.rs` (the games by id), `view.rs` (a game or
//! a variant as JSON), `api.rs` (the routes), `moves.rs` (playing a move
//! given as a path), `think.rs` (the computer's move and the analysis
//! stream, with bounded time and a bounded number of searches at once),
//! `design.rs` (a pasted variant: loading it without touching files,
//! validating it), `error.rs` (4xx answers), `guard.rs` (what every request
//! and answer passes: the Host check, the security headers), `listen.rs`
//! (the connections, with a head timeout and a cap), `assets.rs` (the page).

mod api;
mod assets;
mod design;
mod error;
mod guard;
mod listen;
mod moves;
mod store;
mod think;
mod view;

use std::net::{IpAddr, SocketAddr};

use crate::commands::Ctx;
use crate::error::CliError;
use crate::exit::Exit;
use crate::out::{self, outln};

/// Arguments of `dama serve`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Open the printed address in a browser: play any built-in variant against the computer or a \
friend, analyse a position, or write a variant in TOML and play it at once. Games are kept by \
the server while it runs and by the page (so a reload, even after a restart, restores them). \
Nothing is written to files, and nothing is read but the endgame tables of --egtb.")]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8757)]
    pub port: u16,
    /// The address to listen on. Anything but a loopback address lets other
    /// machines use the server (a warning says so).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Open the page in the default browser (xdg-open); the server runs even if that fails.
    #[arg(long)]
    pub open: bool,
    /// Also answer requests that name the server NAME (its `Host`), besides
    /// the loopback names and the address it listens on; repeatable. Other
    /// names are refused, so that another site cannot reach the server
    /// through a name of its own (DNS rebinding).
    #[arg(long = "allow-host", value_name = "NAME")]
    pub allow_host: Vec<String>,
    // The engine flags: tables for every variant that has some in the
    // folder; weights for the variant they were tuned for; a level for the
    // requests that name none, or limits instead of any level (every
    // search stays within 5 s).
    #[command(flatten)]
    pub engine: crate::engine_setup::EngineArgs,
}

pub fn run(_ctx: &Ctx, args: ServeArgs) -> Exit {
    // Searches and move lists run on the blocking threads: the search stack.
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(dama_play::SEARCH_STACK)
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            return CliError::system(format!("cannot start the server's runtime: {e}")).report(None);
        }
    };
    runtime.block_on(serve(args))
}

async fn serve(args: ServeArgs) -> Exit {
    let weights = match args.engine.eval.as_deref().map(serve_weights).transpose() {
        Ok(w) => w,
        Err(e) => {
            return CliError::system(format!("--eval {e}")).report(None);
        }
    };
    let tables = match &args.engine.egtb.dir {
        Some(dir) => match check_tables(dir) {
            Ok(()) => Some(dir.clone()),
            Err(e) => {
                return CliError::system(format!("--egtb {e}")).report(None);
            }
        },
        None => None,
    };
    let listener = match tokio::net::TcpListener::bind((args.host.as_str(), args.port)).await {
        Ok(l) => l,
        Err(e) => {
            let error = CliError::system(format!("cannot listen on {}:{}: {e}", args.host, args.port));
            return if e.kind() == std::io::ErrorKind::AddrInUse {
                error.help("another program uses that port; try `--port 0` for any free one")
            } else {
                error
            }
            .report(None);
        }
    };
    let addr = match listener.local_addr() {
        Ok(a) => a,
        Err(e) => {
            return CliError::system(format!("cannot read the server's address: {e}")).report(None);
        }
    };
    if !is_loopback(&args.host, &addr) {
        eprintln!(
            "warning: listening on {addr}, not on a loopback address: other machines that reach it can use this server"
        );
    }
    let url = page_url(&addr);
    outln!("dama serve: {url} (Ctrl-C stops the server)");
    out::flush();
    if args.open {
        open_browser(&url);
    }
    let setup = think::SearchSetup {
        tables,
        limits: args.engine.limits(),
        seed: args.engine.seed.unwrap_or(0),
        weights,
        options: args.engine.search,
    };
    let hosts = std::sync::Arc::new(guard::Hosts::new(&args.host, &addr, &args.allow_host));
    let app = api::router(store::Store::new(setup), hosts);
    listen::serve(listener, app).await;
    Exit::Success
}

/// `--eval FILE` (or `derived`) for a server that plays every variant: a
/// weights file is for the one built-in variant whose rules it names.
fn serve_weights(path: &std::path::Path) -> Result<think::ServeWeights, String> {
    use dama_engine::tune::WeightsError;
    if path.as_os_str() == "derived" {
        return Ok(think::ServeWeights::Derived);
    }
    let mut last = None;
    for &(id, _) in dama_engine::source::BUILTIN {
        let Ok(rules) = dama_engine::Rules::builtin(id) else {
            continue;
        };
        match dama_engine::EvalWeights::read(path, &rules) {
            Ok(w) => return Ok(think::ServeWeights::For(rules.fingerprint(), w)),
            // Weights for other rules: another built-in may be theirs.
            Err(WeightsError::InFile { error, .. }) if matches!(*error, WeightsError::OtherRules { .. }) => {
                last = Some(error.to_string())
            }
            // Unreadable, or not a weights file: the same for every variant.
            Err(e) => return Err(e.to_string()),
        }
    }
    Err(last.map_or_else(
        || format!("{}: no built-in variant to read it for", path.display()),
        |e| {
            format!(
                "{}: {e} (a server reads weights for a built-in variant only)",
                path.display()
            )
        },
    ))
}

/// Checks the folder of `--egtb` for the built-in variants a page plays:
/// an error when it is not a folder; a warning for each damaged table, or
/// a table built for other rules, in the subfolder of a built-in variant.
fn check_tables(dir: &std::path::Path) -> Result<(), String> {
    if !dir.is_dir() {
        return Err(format!(
            "{}: not a folder of endgame tables (build them with `dama egtb build VARIANT --dir {}`)",
            dir.display(),
            dir.display()
        ));
    }
    for &(id, _) in dama_engine::source::BUILTIN {
        let Ok(rules) = dama_engine::Rules::builtin(id) else {
            continue;
        };
        if !dama_engine::egtb::table_dir(dir, &rules).is_dir() {
            continue;
        }
        match dama_play::check_tables(&rules, dir) {
            Ok(check) => {
                for w in &check.warnings {
                    eprintln!("{w}");
                }
            }
            Err(e) => eprintln!("warning: {e}; playing {id} without tables"),
        }
    }
    Ok(())
}

/// Whether the server only listens on this machine.
fn is_loopback(host: &str, addr: &SocketAddr) -> bool {
    host.eq_ignore_ascii_case("localhost") || addr.ip().is_loopback()
}

/// The address to open in a browser.
fn page_url(addr: &SocketAddr) -> String {
    match addr.ip() {
        // A wildcard address is not one to browse to: this machine's loopback is.
        IpAddr::V4(ip) if ip.is_unspecified() => format!("http://127.0.0.1:{}/", addr.port()),
        IpAddr::V6(ip) if ip.is_unspecified() => format!("http://[::1]:{}/", addr.port()),
        IpAddr::V4(ip) => format!("http://{ip}:{}/", addr.port()),
        IpAddr::V6(ip) => format!("http://[{ip}]:{}/", addr.port()),
    }
}

/// Asks the desktop to open `url`; says so, and goes on, when it cannot.
fn open_browser(url: &str) {
    use std::process::{Command, Stdio};
    let tried = Command::new("xdg-open")
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match tried {
        // Reaped when it ends, so that it leaves no zombie behind.
        Ok(mut child) => {
            std::thread::spawn(move || child.wait());
        }
        Err(e) => eprintln!("note: cannot open a browser (xdg-open: {e}); open {url} yourself"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_address_of_a_wildcard_is_loopback() {
        let a: SocketAddr = "0.0.0.0:80".parse().unwrap();
        assert_eq!(page_url(&a), "http://127.0.0.1:80/");
        assert!(!is_loopback("0.0.0.0", &a));
        let l: SocketAddr = "127.0.0.1:9".parse().unwrap();
        assert!(is_loopback("127.0.0.1", &l));
        assert_eq!(page_url(&"[::1]:5".parse().unwrap()), "http://[::1]:5/");
    }
}
