//! The subcommands. Each lives in its own module with an `Args` struct (its flags) and a `run`
//! function; adding one means a module, a variant of [`Command`] and a line in [`run`].

use anyhow::Result;
use clap::Subcommand;

pub mod check;
pub mod compare;

/// What to do.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check text A against text B: how much of A is in B, with spans on both sides
    Compare(compare::CompareArgs),
    /// Check a draft against every text file under the given paths
    Check(check::CheckArgs),
}

/// Runs a subcommand.
pub fn run(command: Command) -> Result<()> {
    match command {
        Command::Compare(args) => compare::run(args),
        Command::Check(args) => check::run(args),
    }
}
