//! `ransom puzzles`: mine puzzle sets with proven unique keys from games
//! of a seeded playing policy (`generate`), and prove a set again
//! (`verify`).

use super::progress::Progress;
use ransom::puzzles::{MineOptions, Miner};
use ransom::search::Budget;
use ransom::search::mate::{Puzzle, check_puzzle, read_puzzles};
use ransom::{Position, Variant};
use std::collections::BTreeMap;
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
    #[arg(long, default_value_t = 2_000_000, value_parser = super::checks::parse_at_least_one::<u64>)]
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
    #[arg(long, value_parser = super::checks::parse_at_least_one::<u64>)]
    max_nodes: Option<u64>,
    /// Only every N-th puzzle (a quick sample).
    #[arg(long, default_value_t = 1, value_parser = super::checks::parse_at_least_one::<usize>)]
    every: usize,
    /// No progress on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub fn run(args: &PuzzlesArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        PuzzlesCommand::Generate(g) => generate(g),
        PuzzlesCommand::Verify(v) => verify(v),
    }
}

/// `N` or `A..B`.
fn parse_lengths(text: &str) -> anyhow::Result<(u16, u16)> {
    let bad = || anyhow::anyhow!("bad length '{text}' (expected N or A..B)");
    let (a, b) = match text.split_once("..") {
        Some((a, b)) => (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if a == 0 || a > b {
        return Err(bad());
    }
    Ok((a, b))
}

fn is_json(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e == "jsonl" || e == "json")
}

fn generate(args: &GenerateArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.variant.parse()?;
    let losing = variant.is_losing();
    let (flag, spec) = match (&args.mate, &args.win) {
        (Some(m), None) => ("mate", m),
        (None, Some(w)) => ("win", w),
        _ => anyhow::bail!("give --mate N (or --win N for Losing chess)"),
    };
    if flag == "win" && !losing {
        anyhow::bail!("--win is for Losing chess (antichess, suicide); use --mate");
    }
    let (min_length, max_length) = parse_lengths(spec)?;
    // The options that decide which puzzles are found (all but --count).
    let mut identity = format!(
        "ransom puzzles generate --variant {} --{flag} {spec} --seed {}",
        variant.name(),
        args.seed
    );
    if args.max_nodes != 2_000_000 {
        identity += &format!(" --max-nodes {}", args.max_nodes);
    }
    let command = |count: usize| match &args.out {
        Some(out) => format!("{identity} --count {count} --out {}", out.display()),
        None => format!("{identity} --count {count}"),
    };
    let tag = if flag == "win" { "w" } else { "m" };
    let id_prefix = format!("{}-{tag}{spec}-s{}", variant.name(), args.seed).replace("..", "-");
    let mut miner = Miner::new(MineOptions {
        min_length,
        max_length,
        seed: args.seed,
        max_nodes: args.max_nodes,
        id_prefix: id_prefix.clone(),
    });
    let json = args.out.as_deref().is_some_and(is_json);
    let header = |count: usize| {
        if json {
            serde_json::json!({
                "generator": command(count),
                "variant": variant.name(),
                "note": "unique key, shortest solution proved, solution tree verified; check with ransom puzzles verify",
            })
            .to_string()
        } else {
            format!(
                "# {}\n# {} puzzles ({}): unique key, shortest solution proved, solution tree verified.\n# Check with: ransom puzzles verify FILE",
                command(count),
                variant.name(),
                if flag == "win" {
                    format!("forced win in {spec}")
                } else {
                    format!("mate in {spec}")
                },
            )
        }
    };
    if let Some(out) = &args.out {
        super::checks::check_output_path(out)?;
    }
    // Resume: keep the puzzles of a file written with the same options.
    let mut found: Vec<Puzzle> = Vec::new();
    let mut next_game = 0u64;
    if let Some(out) = &args.out
        && out.exists()
    {
        let text = std::fs::read_to_string(out)?;
        let first = text.lines().next().unwrap_or("");
        if !first.contains(&format!("{identity} --count ")) {
            anyhow::bail!(
                "{} exists but was not written by `{identity}` (first line: {first}); remove it or change --out",
                out.display()
            );
        }
        found = read_puzzles(&text).map_err(|e| anyhow::anyhow!("{}: {e}", out.display()))?;
        for p in &found {
            miner.remember(p);
            let game = p
                .id
                .rsplit_once("-g")
                .and_then(|(_, g)| g.parse::<u64>().ok())
                .ok_or_else(|| anyhow::anyhow!("{}: id '{}' names no game", out.display(), p.id))?;
            next_game = next_game.max(game + 1);
        }
        found.truncate(args.count);
        if !args.quiet {
            errln!(
                "resuming {}: {} puzzles, from game {next_game}",
                out.display(),
                found.len()
            );
        }
    }
    let line_of = |p: &Puzzle| {
        if json {
            let mut p = p.clone();
            p.variant = Some(variant.name().to_string());
            p.to_json()
        } else {
            p.to_epd()
        }
    };
    let mut file = match &args.out {
        Some(out) => {
            let mut text = header(args.count) + "\n";
            for p in &found {
                text += &line_of(p);
                text.push('\n');
            }
            ransom::store::write_atomically(out, text.as_bytes())?;
            Some(std::fs::OpenOptions::new().append(true).open(out)?)
        }
        None => {
            outln!("{}", header(args.count))?;
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
            let line = line_of(&p);
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

/// The variant of a puzzle file: the flag, else what the file tells.
fn file_variant(args: &VerifyArgs, text: &str, puzzles: &[Puzzle]) -> anyhow::Result<Variant> {
    if let Some(v) = &args.variant {
        return Ok(v.parse()?);
    }
    let name = args.file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    ransom::search::mate::puzzle_file_variant(name, text, puzzles).ok_or_else(|| {
        anyhow::anyhow!(
            "{}: cannot tell the variant; give --variant",
            args.file.display()
        )
    })
}

fn verify(args: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", args.file.display()))?;
    let puzzles =
        read_puzzles(&text).map_err(|e| anyhow::anyhow!("{}: {e}", args.file.display()))?;
    let variant = file_variant(args, &text, &puzzles)?;
    let budget = Budget {
        max_nodes: args.max_nodes.unwrap_or(u64::MAX),
        max_time: None,
        hash_bytes: 512 << 20,
        stop: None,
    };
    let start = Instant::now();
    let selected: Vec<&Puzzle> = puzzles.iter().step_by(args.every).collect();
    let mut failed = 0usize;
    let mut progress = Progress::new("verify", Some(selected.len() as u64), args.quiet);
    for p in &selected {
        progress.set_message(p.id.clone());
        let failures = ransom::for_variant!(variant, check(p, budget));
        if !failures.is_empty() {
            failed += 1;
            for f in &failures {
                progress.suspend(|| outln!("FAIL {}: {f}", p.id))?;
            }
        }
        progress.inc(1);
    }
    progress.finish();
    outln!(
        "{}: {} of {} puzzles verified, {failed} failed ({} in {:.1} s)",
        args.file.display(),
        selected.len() - failed,
        selected.len(),
        variant.name(),
        start.elapsed().as_secs_f64()
    )?;
    out!("{}", statistics(&selected))?;
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn check<P: Position>(puzzle: &Puzzle, budget: Budget) -> Vec<String> {
    check_puzzle::<P>(puzzle, budget).failures
}

/// Counts per length, theme and difficulty band.
fn statistics(puzzles: &[&Puzzle]) -> String {
    let mut lengths: BTreeMap<u16, usize> = BTreeMap::new();
    let mut themes: BTreeMap<&str, usize> = BTreeMap::new();
    let mut bands: BTreeMap<&str, usize> = BTreeMap::new();
    for p in puzzles {
        *lengths.entry(p.length).or_default() += 1;
        for t in &p.themes {
            *themes.entry(t).or_default() += 1;
        }
        *bands
            .entry(p.difficulty.as_deref().unwrap_or("unrated"))
            .or_default() += 1;
    }
    let join = |items: Vec<String>| items.join(", ");
    let mut themes: Vec<(&str, usize)> = themes.into_iter().collect();
    themes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let unique = puzzles.iter().filter(|p| p.unique()).count();
    format!(
        "lengths: {}\nunique keys: {unique}\nthemes: {}\ndifficulty: {}\n",
        join(lengths.iter().map(|(n, c)| format!("{n}: {c}")).collect()),
        join(themes.iter().map(|(t, c)| format!("{t} {c}")).collect()),
        join(
            ["easy", "medium", "hard", "unrated"]
                .iter()
                .filter_map(|b| bands.get(b).map(|c| format!("{b} {c}")))
                .collect()
        ),
    )
}
