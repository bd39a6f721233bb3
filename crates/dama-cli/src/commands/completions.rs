//! `dama completions SHELL` and `dama man`: what shells and `man` read,
//! generated from the command line's own definition (`cli.rs`), so they
//! never fall behind it. docs/dama.1 is `dama man`, checked by a test.

use clap::CommandFactory;
use clap_complete::Shell;

use crate::cli::Cli;
use crate::error::CliError;
use crate::exit::Exit;
use crate::out;

/// Prints the completion script for `shell`.
pub fn completions(shell: Shell) -> Exit {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "dama", &mut script);
    out::write_bytes(&script);
    Exit::Success
}

/// The manual page, in roff.
pub fn man_page() -> Result<Vec<u8>, std::io::Error> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    Ok(page)
}

/// Prints the manual page.
pub fn man() -> Exit {
    match man_page() {
        Ok(page) => {
            out::write_bytes(&page);
            Exit::Success
        }
        Err(e) => CliError::system(format!("cannot render the manual page: {e}")).report(None),
    }
}
