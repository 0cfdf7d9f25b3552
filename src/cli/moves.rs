//! `ransom moves`: the legal moves of a position and its outcome.

use super::PositionArgs;
use ransom::analysis::LegalMoves;
use ransom::{Position, dispatch};
use std::process::ExitCode;

/// Arguments of `ransom moves`.
#[derive(Debug, clap::Args)]
pub struct MovesArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Print one JSON object with the game state and "moves": [{"uci", "san"}].
    #[arg(long)]
    json: bool,
}

pub fn run(args: &MovesArgs) -> anyhow::Result<ExitCode> {
    let pos = args.position.position()?;
    dispatch!(&pos, p => report(p, args.json))
}

fn report<P: Position>(pos: &P, json: bool) -> anyhow::Result<ExitCode> {
    let moves = LegalMoves::of(pos);
    super::print_report(&moves, json)?;
    Ok(ExitCode::SUCCESS)
}
