//! `dama`: play, validate and test draughts variants defined in TOML.

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
