//! Command-line parsing (clap derive) and dispatch to one file per subcommand.

/// `println!` that returns the write's error instead of panicking, so that
/// output into a closed pipe (`ransom ... | head`) ends the command
/// quietly (see `main`).
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

/// `print!` that returns the write's error (see [`outln!`]).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let mut stdout = std::io::stdout().lock();
        write!(stdout, $($arg)*).and_then(|()| stdout.flush())
    }};
}

/// `eprintln!` that ignores a failed write instead of panicking, so that
/// `ransom ... 2>&1 | head -1` ends quietly when the reader goes away.
macro_rules! errln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr().lock(), $($arg)*);
    }};
}

/// `report` as one JSON line (`--json`) or as its text.
fn print_report<R: serde::Serialize + std::fmt::Display>(
    report: &R,
    json: bool,
) -> anyhow::Result<()> {
    if json {
        outln!("{}", serde_json::to_string(report)?)?;
    } else {
        out!("{report}")?;
    }
    Ok(())
}

mod arguments;
mod health;
mod mate;
mod mate_args;
mod mate_batch;
mod moves;
mod perft;
mod play;
mod progress;
mod prove;
mod prove_guide;
mod prove_job;
mod prove_plan;
mod prove_progress;
mod prove_run;
mod puzzles;
mod serve;
mod store;
mod store_frontier;
mod store_merge;
mod store_show;
mod tb;
mod tb_syzygy;
mod uci;
mod verify;

use clap::{Parser, Subcommand};
use ransom::{AnyPosition, Variant};
use std::process::ExitCode;

/// ransom: a solver and analysis tool for chess variants.
#[derive(Debug, Parser)]
#[command(name = "ransom", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree (move generator check;
    /// `--turns` counts whole turns, e.g. Hit-and-Run's two sub-moves).
    Perft(perft::PerftArgs),
    /// List the legal moves of a position, in UCI and SAN.
    Moves(moves::MovesArgs),
    /// Play moves (SAN or UCI) from a position and print the result.
    Play(play::PlayArgs),
    /// Prove who wins (e.g. `ransom prove e4`: Losing chess after 1.e4) and store a verified proof.
    Prove(prove::ProveArgs),
    /// Find the shortest forced mate and its verified solution tree (or run a mate suite with --epd).
    Mate(mate_args::MateArgs),
    /// Generate puzzle sets with proven unique keys, or verify a puzzle file.
    Puzzles(puzzles::PuzzlesArgs),
    /// Re-check a stored proof with the independent verifier.
    Verify(verify::VerifyArgs),
    /// The solved-position store of `prove`: stats, compact, verify.
    Store(store::StoreArgs),
    /// Losing-chess endgame tablebases: build, probe, verify, stats, manifest.
    Tb(tb::TbArgs),
    /// Speak UCI on stdin/stdout (variants via UCI_Variant; go perft, go mate, go).
    Uci(uci::UciArgs),
    /// Serve analysis over HTTP (JSON API and a web board) on 127.0.0.1:8080.
    Serve(serve::ServeArgs),
    /// Ask a running service for GET /health: exit 0 on 200, 1 otherwise
    /// (the container image's health check).
    Health(health::HealthArgs),
}

/// The position options every command shares.
#[derive(Clone, Debug, clap::Args)]
pub struct PositionArgs {
    /// Variant: chess, antichess, suicide, crazyhouse, hostage, contact, hitandrun, losing-qpromo, losing-royal, losing-royal-mated, losers, kamikaze, kamikaze2, hitandrun-simultaneous (case-insensitive).
    #[arg(long, short = 'v', default_value = "chess")]
    variant: String,
    /// Starting position as FEN (default: the variant's start position).
    #[arg(long)]
    fen: Option<String>,
}

impl PositionArgs {
    /// The position these options describe.
    pub fn position(&self) -> anyhow::Result<AnyPosition> {
        arguments::start_position(self.variant.parse::<Variant>()?, self.fen.as_deref())
    }
}

/// Runs the parsed command.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Moves(args) => moves::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Prove(args) => prove::run(&args),
        Command::Mate(args) => mate::run(&args),
        Command::Puzzles(args) => puzzles::run(&args),
        Command::Verify(args) => verify::run(&args),
        Command::Store(args) => store::run(&args),
        Command::Tb(args) => tb::run(&args),
        Command::Uci(args) => uci::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Health(args) => health::run(&args),
    }
}
