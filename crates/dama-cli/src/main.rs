//! `dama`: play, validate and test draughts variants defined in TOML.

// Panic audit (rel, issue 7): the CLI handles user input throughout, so it
// may not unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod cli;
mod commands;
mod exit;
mod line;
mod render;
mod savefile;
mod svg;

use clap::Parser;

fn main() {
    quiet_on_broken_pipe();
    let args = cli::Cli::parse();
    let code = commands::run(args);
    std::process::exit(code as i32);
}

/// Output piped into a reader that stops early (`dama moves ... | head`) makes
/// `println!` fail with a broken pipe. That is not an error of ours: leave
/// quietly with success instead of printing a panic. Every other panic keeps
/// the default report.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}
