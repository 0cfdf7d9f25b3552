//! `ransom store show [LINE]`: the explorer's table in a terminal (every
//! legal move with what the store, the tables and the rules know after
//! it); `ransom store export LINE --pgn FILE`: the settled subtree below a
//! line as PGN, checked by the verifier first.

use ransom::analysis::{
    Knowledge, MoveWindow, ProofIndex, StoreShelf, explore, explorer_json, explorer_text,
};
use ransom::proving::export_store_pgn;
use ransom::{Position, Variant, dispatch};
use std::path::PathBuf;
use std::process::ExitCode;

/// Where `show` and `export` look: the line and the stores.
#[derive(Debug, clap::Args)]
pub struct ShowTarget {
    /// Moves (SAN or UCI) from the start to the position.
    moves: Vec<String>,
    /// Position the moves start from (default: the variant's start).
    #[arg(long)]
    fen: Option<String>,
    /// Variant.
    #[arg(long, short = 'v', default_value = "antichess")]
    variant: String,
    /// The stores to read (as given to `prove --store`; repeat for several).
    #[arg(long = "store", value_name = "DIR", default_value = ransom::solved::DEFAULT_DIR)]
    stores: Vec<PathBuf>,
    /// Endgame tablebases (positions they cover count as settled).
    #[arg(long, default_value = "tablebases")]
    tablebases: PathBuf,
    /// Do not use tablebases.
    #[arg(long)]
    no_tablebases: bool,
}

/// Arguments of `ransom store show`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    #[command(flatten)]
    target: ShowTarget,
    /// Print one JSON object (the service's explorer answer).
    #[arg(long)]
    json: bool,
}

/// Arguments of `ransom store export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    #[command(flatten)]
    target: ShowTarget,
    /// The PGN file to write.
    #[arg(long, value_name = "FILE")]
    pgn: PathBuf,
    /// The most positions where the winner moves that the proof may hold.
    #[arg(long, default_value_t = 100_000, value_parser = super::arguments::parse_at_least_one::<usize>)]
    max_positions: usize,
    /// Write each position once (later meetings end at a comment) instead
    /// of every line to the end of the game.
    #[arg(long)]
    once: bool,
    /// No warnings on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

impl ShowTarget {
    /// The tables and the stores, read now.
    fn knowledge(&self) -> anyhow::Result<Knowledge> {
        for dir in &self.stores {
            if dir.exists() && !dir.is_dir() {
                anyhow::bail!("{}: not a store directory", dir.display());
            }
        }
        let (shelf, read) = StoreShelf::read(self.stores.clone());
        // A damaged store or checkpoint is named; the rest is still shown.
        for problem in read.problems {
            errln!("warning: {problem}");
        }
        let tables = (!self.no_tablebases).then_some(self.tablebases.as_path());
        Ok(Knowledge::new(tables, ProofIndex::default()).with_stores(shelf))
    }
}

pub fn show(args: &ShowArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.target.variant.parse()?;
    let start = super::arguments::start_position(variant, args.target.fen.as_deref())?;
    let knowledge = args.target.knowledge()?;
    dispatch!(start, p => show_from(p, args, &knowledge))
}

fn show_from<P: Position + 'static>(
    start: P,
    args: &ShowArgs,
    knowledge: &Knowledge,
) -> anyhow::Result<ExitCode> {
    let (pos, line) = super::arguments::play_moves(start.clone(), &args.target.moves)?;
    let exploration = explore(knowledge, &pos, MoveWindow::ALL);
    if args.json {
        let mut out = explorer_json(&pos, &exploration);
        out["line"] = line
            .iter()
            .map(|&m| ransom::notation::uci::write(m))
            .collect::<Vec<_>>()
            .into();
        outln!("{}", serde_json::to_string_pretty(&out)?)?;
    } else {
        out!(
            "{}",
            explorer_text(&start, &line, &pos, &exploration, knowledge)
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.target.variant.parse()?;
    let start = super::arguments::start_position(variant, args.target.fen.as_deref())?;
    let knowledge = args.target.knowledge()?;
    dispatch!(start, p => export_from(p, args, &knowledge))
}

fn export_from<P: Position + 'static>(
    start: P,
    args: &ExportArgs,
    knowledge: &Knowledge,
) -> anyhow::Result<ExitCode> {
    let (pos, line) = super::arguments::play_moves(start.clone(), &args.target.moves)?;
    let exported = export_store_pgn(
        knowledge,
        (&start, &line, &pos),
        &args.pgn,
        args.once,
        args.max_positions,
    )?;
    if let Some(warning) = exported.warning.filter(|_| !args.quiet) {
        errln!("warning: {warning}");
    }
    let found = &exported.found;
    outln!(
        "wrote {}: {} wins; the verifier checked {} positions ({} winning moves, {} plies deep)",
        args.pgn.display(),
        found.proof.winner.name(),
        found.verified.positions,
        found.verified.winner_moves,
        found.verified.depth
    )?;
    Ok(ExitCode::SUCCESS)
}
