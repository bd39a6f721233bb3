//! `dama`: play, validate and test draughts variants defined in TOML.

// Panic audit (rel, issue 7): the CLI handles user input throughout, so it
// may not unwrap; tests may. See docs/reliability.md.
#![cfg_attr(not(test), deny(clippy::unwrap_used, clippy::expect_used))]

// First, with its macros: `eprint!` and `eprintln!` in every module below
// are the ones of `stderr`, which never panic (issue 38).
#[macro_use]
mod stderr;

mod args;
mod case_check;
mod cli;
mod commands;
mod engine_setup;
mod error;
mod exit;
mod json;
mod line;
mod out;
mod records;
mod render;
mod repl;
mod savefile;
mod serve;
mod svg;
mod transport;
mod tuning;
mod variant_files;

use clap::Parser;

fn main() {
    let args = match cli::Cli::try_parse() {
        Ok(args) => args,
        // --help, --version or a bad command line, printed by clap; its
        // output cannot be written either: no panic, and not a success.
        Err(e) => {
            let code = match e.print() {
                Err(w) if w.kind() != std::io::ErrorKind::BrokenPipe => {
                    let _ = std::io::Write::write_fmt(
                        &mut std::io::stderr(),
                        format_args!("dama: cannot write the output: {w}\n"),
                    );
                    exit::Exit::Failure as i32
                }
                _ => e.exit_code(),
            };
            std::process::exit(code);
        }
    };
    // Every command writes through `out`, which never panics (issue 18).
    let code = commands::run(args);
    std::process::exit(code as i32);
}
