//! `ransom puzzles`: mine puzzle sets with proven unique keys from games
//! of a seeded playing policy (`generate`), prove a set again (`verify`),
//! and write a set as Lichess's puzzle CSV or as EPD (`export`).

use super::progress::Progress;
use ransom::puzzles::{ExportFormat, Miner, PuzzleFile, SetSpec, check_set, export_set, is_json};
use ransom::search::Budget;
use ransom::search::mate::Puzzle;
use ransom::{Position, Variant};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `ransom puzzles`.
#[derive(Debug, clap::Args)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Debug, clap::Subcommand)]
enum PuzzlesCommand {
    /// Mine puzzles with a unique key and a proven shortest solution from
    /// games of a seeded random playing policy.
    Generate(GenerateArgs),
    /// Prove every puzzle of an EPD or JSON-lines file again (length,
    /// shortness, keys, main line, solution tree); exit 1 on any failure.
    Verify(VerifyArgs),
    /// Write a set as Lichess's puzzle CSV (the position before the
    /// opponent's last move, that move first) or as EPD with `variant`,
    /// `bm`, `pv`, `eval "#N"` and `type "mate"` (as python-chess reads it).
    Export(ExportArgs),
}

/// The formats of `ransom puzzles export`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ExportFormatArg {
    /// Lichess's puzzle CSV (PuzzleId,FEN,Moves,Rating,...,Themes,...).
    Lichess,
    /// EPD with quoted string operations.
    Epd,
}

/// Arguments of `ransom puzzles export`.
#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// An EPD or JSON-lines puzzle file.
    file: PathBuf,
    /// The format to write.
    #[arg(long, value_enum)]
    format: ExportFormatArg,
    /// Where to write (default: standard output); written whole or not at all.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The variant (default: from the file's header, its JSON, or the
    /// file name's prefix before the first `-`).
    #[arg(long, short = 'v')]
    variant: Option<String>,
    /// No notes on stderr about puzzles left out.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Arguments of `ransom puzzles generate`.
#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Variant: chess, antichess, suicide, crazyhouse, hostage, contact, hitandrun, losing-qpromo, losing-royal, losing-royal-mated, losers, kamikaze, kamikaze2, hitandrun-simultaneous.
    #[arg(long, short = 'v')]
    variant: String,
    /// How many puzzles to find.
    #[arg(long, default_value_t = 10)]
    count: usize,
    /// Mate length: `N` or a range `A..B` (attacker moves; turns in Hit-and-Run).
    #[arg(long, conflicts_with = "win")]
    mate: Option<String>,
    /// Losing chess: forced win in `N` (or `A..B`) moves.
    #[arg(long)]
    win: Option<String>,
    /// Seed of the playing policy.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Solver node budget per position (positions needing more are skipped).
    #[arg(long, default_value_t = ransom::puzzles::DEFAULT_MAX_NODES, value_parser = super::arguments::parse_at_least_one::<u64>)]
    max_nodes: u64,
    /// Stop after this many games even if fewer puzzles were found.
    #[arg(long)]
    max_games: Option<u64>,
    /// Output file: EPD, or JSON lines if it ends in `.jsonl`/`.json`.
    /// An existing file written with the same options is resumed.
    #[arg(long)]
    out: Option<PathBuf>,
    /// No progress on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Arguments of `ransom puzzles verify`.
#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// An EPD or JSON-lines puzzle file.
    file: PathBuf,
    /// The variant (default: from the file's header, its JSON, or the
    /// file name's prefix before the first `-`).
    #[arg(long, short = 'v')]
    variant: Option<String>,
    /// Solver node budget per puzzle.
    #[arg(long, value_parser = super::arguments::parse_at_least_one::<u64>)]
    max_nodes: Option<u64>,
    /// Only every N-th puzzle (a quick sample).
    #[arg(long, default_value_t = 1, value_parser = super::arguments::parse_at_least_one::<usize>)]
    every: usize,
    /// No progress on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: &PuzzlesArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        PuzzlesCommand::Generate(g) => generate(g),
        PuzzlesCommand::Verify(v) => verify(v),
        PuzzlesCommand::Export(e) => export(e),
    }
}

/// The puzzle set `file`, of `variant` if given (`--variant`), else of
/// the variant the file tells.
fn read_set(file: &Path, variant: Option<&str>) -> anyhow::Result<PuzzleFile> {
    let variant = variant.map(str::parse::<Variant>).transpose()?;
    Ok(PuzzleFile::read(file, variant)?)
}

fn export(args: &ExportArgs) -> anyhow::Result<ExitCode> {
    if let Some(out) = &args.out {
        super::arguments::check_output_path(out)?;
    }
    let format = match args.format {
        ExportFormatArg::Lichess => ExportFormat::LichessCsv,
        ExportFormatArg::Epd => ExportFormat::Epd,
    };
    let file = read_set(&args.file, args.variant.as_deref())?;
    let exported = export_set(&file, format)?;
    if !file.puzzles.is_empty() && exported.written == 0 {
        let (id, reason) = &exported.left_out[0];
        anyhow::bail!(
            "{}: no puzzle can be written as Lichess CSV (e.g. '{id}': {reason}); --format epd writes them all",
            args.file.display()
        );
    }
    match &args.out {
        Some(out) => ransom::store::write_atomically(out, exported.text.as_bytes())?,
        None => out!("{}", exported.text)?,
    }
    if !args.quiet {
        for (id, reason) in exported.left_out.iter().take(5) {
            errln!("left out '{id}': {reason}");
        }
        if exported.left_out.len() > 5 {
            errln!("... and {} more left out", exported.left_out.len() - 5);
        }
        errln!(
            "{} of {} puzzles written",
            exported.written,
            file.puzzles.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn generate(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.variant.parse()?;
    let spec = SetSpec::new(
        variant,
        args.mate.as_deref(),
        args.win.as_deref(),
        args.seed,
        args.max_nodes,
    )?;
    let mut miner = spec.miner();
    let json = args.out.as_deref().is_some_and(is_json);
    // Resume: keep the puzzles of a file written with the same options.
    let (mut found, next_game) = match &args.out {
        Some(out) => {
            super::arguments::check_output_path(out)?;
            let (found, next_game) = spec.resume(out, &mut miner, args.count)?;
            if out.exists() && !args.quiet {
                errln!(
                    "resuming {}: {} puzzles, from game {next_game}",
                    out.display(),
                    found.len()
                );
            }
            (found, next_game)
        }
        None => (Vec::new(), 0),
    };
    let mut file = match &args.out {
        Some(out) => {
            spec.rewrite(out, args.count, &found)?;
            Some(std::fs::OpenOptions::new().append(true).open(out)?)
        }
        None => {
            outln!("{}", spec.header(args.count, None, json))?;
            None
        }
    };
    let start = Instant::now();
    let mut progress = Progress::new("puzzles", Some(args.count as u64), args.quiet);
    let mut game = next_game;
    let mut games = 0u64;
    while found.len() < args.count && args.max_games.is_none_or(|m| games < m) {
        let puzzle = ransom::for_variant!(variant, mine(&mut miner, game));
        game += 1;
        games += 1;
        if let Some(p) = puzzle {
            let line = spec.line(&p, json);
            match &mut file {
                Some(f) => {
                    writeln!(f, "{line}")?;
                    f.flush()?;
                }
                None => progress.suspend(|| outln!("{line}"))?,
            }
            found.push(p);
        }
        progress.set_message(format!("game {game}"));
        progress.set_position(found.len() as u64);
    }
    progress.finish();
    if !args.quiet {
        errln!(
            "{} puzzles from {games} games (next game {game}) in {:.1} s",
            found.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(if found.len() < args.count {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    })
}

fn mine<P: Position + 'static>(miner: &mut Miner, game: u64) -> Option<Puzzle> {
    miner.mine_game::<P>(game)
}

fn verify(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let file = read_set(&args.file, args.variant.as_deref())?;
    let budget = Budget {
        max_nodes: args.max_nodes.unwrap_or(u64::MAX),
        max_time: None,
        hash_bytes: 512 << 20,
        stop: None,
    };
    let total = file.puzzles.len().div_ceil(args.every) as u64;
    let mut progress = Progress::new("verify", Some(total), args.quiet);
    let mut printed = Ok(());
    let check = check_set(
        &file,
        args.every,
        budget,
        &mut |p, failures| match failures {
            None => progress.set_message(p.id.clone()),
            Some(failures) => {
                for f in failures {
                    if printed.is_ok() {
                        printed = progress.suspend(|| outln!("FAIL {}: {f}", p.id));
                    }
                }
                progress.inc(1);
            }
        },
    );
    progress.finish();
    printed?;
    out!("{check}")?;
    Ok(if check.failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
