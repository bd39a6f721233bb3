//! `dama`: play, validate and test draughts variants defined in TOML.

// Panic audit (rel, issue 7): the CLI handles user input throughout, so it
// may not unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

mod cli;
mod commands;
mod exit;
mod render;
mod savefile;
mod svg;

use clap::Parser;

fn main() {
    let args = cli::Cli::parse();
    let code = commands::run(args);
    std::process::exit(code as i32);
}
