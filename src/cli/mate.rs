//! `ransom mate`: the shortest forced mate of a position with its verified
//! solution tree, or a batch run over an EPD/TSV suite (`--epd`).

use super::mate_batch;
use super::progress;
use ransom::analysis::{MateSolutionView, mate_report_json};
use ransom::notation::{fen, parse_move};
use ransom::search::leaf_oracle::leaf_oracle;
use ransom::search::mate::{
    MateOptions, MateReport, MateStatus, build_tree, line_san, longest_line, solve_mate_streaming,
};
use ransom::search::{Budget, Progress};
use ransom::{AnyPosition, Position, Variant, dispatch};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `ransom mate`.
#[derive(Debug, clap::Args)]
pub struct MateArgs {
    /// Variant: chess, antichess, suicide, crazyhouse, hostage, contact, hitandrun, losing-qpromo, losing-royal, losing-royal-mated, losers, kamikaze, kamikaze2, hitandrun-simultaneous.
    #[arg(long, short = 'v', default_value = "chess")]
    pub variant: String,
    /// The position (default: the variant's start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves (SAN or UCI) played from the position first.
    pub moves: Vec<String>,
    /// The longest mate to look for, in the attacker's moves (turns in
    /// Hit-and-Run), 1 to 65535 [default: 5; with --epd, the length each
    /// line states].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub max: Option<u16>,
    /// List every first move that mates in the shortest length.
    #[arg(long)]
    pub all_keys: bool,
    /// Stop after this many nodes (per position with --epd).
    #[arg(long, value_parser = super::checks::parse_at_least_one::<u64>)]
    pub max_nodes: Option<u64>,
    /// Stop after this many seconds (per position with --epd).
    #[arg(long, value_parser = super::checks::parse_seconds)]
    pub max_time: Option<f64>,
    /// Memory for the transposition table, in MB (1 to 65536).
    #[arg(long, default_value_t = 512, value_parser = super::checks::parse_hash_mb)]
    pub hash: usize,
    /// Print one JSON object (JSON lines with --epd).
    #[arg(long)]
    pub json: bool,
    /// JSON lines as the answer improves: `"event": "found"` as soon as a
    /// mate is found and verified (`"shortest": false`), then `"event":
    /// "final"` with the whole report once its length is certified (or the
    /// budget ends: `"shortest": false`).
    #[arg(long, conflicts_with = "epd")]
    pub stream: bool,
    /// Also write the solution as PGN with variations to this file (a
    /// position reached again by transposition is written once; later
    /// meetings say `{transposes to an earlier line}`).
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// With --pgn: write every transposed subtree again in place, so every
    /// line runs to the mate (for tools that walk the tree; can be much
    /// larger: a warning gives the size beyond 100,000 moves).
    #[arg(long, requires = "pgn")]
    pub pgn_full: bool,
    /// Show at most this many moves of the solution tree.
    #[arg(long, default_value_t = 400)]
    pub tree_limit: usize,
    /// Solve every position of an EPD file (`bm #N` or `dm N`) or a TSV
    /// file with `fen` and `N` columns, and compare with the stated lengths.
    #[arg(long, conflicts_with_all = ["fen", "moves", "pgn"])]
    pub epd: Option<PathBuf>,
    /// With --epd: write the verified solutions that agree with the file
    /// to this EPD file (`bm`, `dm`, `pv`, `id`; `c0` says whether the key
    /// is unique when --all-keys is given).
    #[arg(long, requires = "epd")]
    pub out: Option<PathBuf>,
    /// With --epd: only positions whose stated mate is at most this long.
    #[arg(long, requires = "epd")]
    pub up_to: Option<u16>,
    /// With --epd: only the first N positions that pass the filters.
    #[arg(long, requires = "epd")]
    pub limit: Option<usize>,
    /// No progress bar or progress lines on stderr.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Threads for certifying the length of a mate in 5 or more: its root
    /// moves are searched in parallel, the threads sharing the --hash
    /// table and each with an equal share of --max-nodes. Node counts then
    /// vary from run to run
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Losing chess: this project's endgame tables (`tb build`) rule out
    /// lines where the attacker cannot win in time (mates are still found
    /// by search and verified).
    #[arg(long, value_name = "DIR", conflicts_with = "epd")]
    pub tablebases: Option<PathBuf>,
    /// Antichess: Syzygy giveaway tables (*.gtbw) rule out lines the
    /// attacker does not win (needs a binary built with `--features syzygy`).
    #[arg(long, value_name = "DIR", conflicts_with = "epd")]
    pub syzygy: Option<PathBuf>,
}

/// The default bound when neither --max nor the suite gives one.
pub const DEFAULT_MAX: u16 = 5;

impl MateArgs {
    /// The search options for a bound.
    pub fn options(&self, max: u16) -> MateOptions {
        MateOptions {
            max,
            all_keys: self.all_keys,
            budget: Budget {
                max_nodes: self.max_nodes.unwrap_or(u64::MAX),
                max_time: self.max_time.map(Duration::from_secs_f64),
                hash_bytes: self.hash.saturating_mul(1 << 20),
                stop: None,
            },
            threads: usize::from(self.threads),
        }
    }
}

pub fn run(args: &MateArgs) -> anyhow::Result<ExitCode> {
    let variant: Variant = args.variant.parse()?;
    if let Some(path) = &args.epd {
        return mate_batch::run(args, variant, path);
    }
    let start = match &args.fen {
        None => AnyPosition::start(variant),
        Some(text) => AnyPosition::from_setup(variant, &fen::parse(text)?)?,
    };
    dispatch!(start, p => solve_one(p, args))
}

fn solve_one<P: Position>(start: P, args: &MateArgs) -> anyhow::Result<ExitCode> {
    let mut pos = start;
    for (i, text) in args.moves.iter().enumerate() {
        let m = parse_move(&pos, text).map_err(|e| {
            anyhow::anyhow!("move {} ('{text}'): {e} in {}", i + 1, fen::write(&pos))
        })?;
        pos.play_unchecked(m);
    }
    if let Some(path) = &args.pgn {
        super::checks::check_output_path(path)?;
    }
    let max = args.max.unwrap_or(DEFAULT_MAX);
    let mut display = progress::Progress::new("mate", None, args.quiet || args.json || args.stream);
    let mut on_progress = |p: &Progress| {
        display.set_message(format!(
            "nodes, {:.0} nodes/s, table {}",
            p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-9),
            p.table_entries
        ));
        display.set_position(p.nodes);
    };
    let oracle = leaf_oracle::<P>(args.tablebases.as_deref(), args.syzygy.as_deref())
        .map_err(|e| anyhow::anyhow!(e))?;
    if let Some(dir) = &args.tablebases
        && ransom::search::oracle::tablebase_oracle::<P>(dir).is_none()
    {
        eprintln!(
            "note: --tablebases {}: no {} tables there; they are not used",
            dir.display(),
            P::VARIANT.name()
        );
    }
    // The JSON report, as `--json` prints it and each `--stream` line holds.
    let report_json = |report: &MateReport| {
        let view = MateSolutionView::of(&pos, report, args.tree_limit);
        mate_report_json(&pos, report, max, &view)
    };
    let mut on_found = |early: &MateReport| {
        if args.stream {
            let mut line = report_json(early);
            line["event"] = "found".into();
            let _ = outln!("{line}");
        } else if !args.quiet && !args.json {
            eprintln!(
                "found: mate in {} after {:.3} s, verified; proving that none is shorter",
                early.length.unwrap_or(0),
                early.elapsed.as_secs_f64()
            );
        }
    };
    let report = solve_mate_streaming(
        &pos,
        &args.options(max),
        oracle.as_deref(),
        &mut on_progress,
        &mut on_found,
    );
    display.finish();
    if let (Some(path), Some(solution)) = (&args.pgn, &report.solution) {
        let event = format!("Mate in {}", report.length.unwrap_or(0));
        super::proof_pgn::write(
            path,
            &pos,
            pos.turn(),
            &|h| solution.get(h).map(|(mv, _)| mv),
            &event,
            args.pgn_full,
            args.quiet,
        )?;
    }
    if args.stream {
        let mut line = report_json(&report);
        line["event"] = "final".into();
        outln!("{line}")?;
    } else if args.json {
        outln!("{}", serde_json::to_string_pretty(&report_json(&report))?)?;
    } else {
        out!("{}", report_text(&pos, &report, max, args.tree_limit))?;
    }
    Ok(match report.status {
        MateStatus::Unknown => ExitCode::from(2),
        _ => ExitCode::SUCCESS,
    })
}

/// The one-line verdict: "mate in 3", "no mate in ≤ 5", "unknown".
pub fn verdict_text(report: &MateReport, max: u16) -> String {
    match (report.status, report.length) {
        (MateStatus::Mate, Some(n)) if report.shortest => format!("mate in {n} (shortest, proved)"),
        (MateStatus::Mate, Some(n)) => format!("mate in {n} (a shorter mate is not ruled out)"),
        (MateStatus::NoMate, _) => format!("no mate in ≤ {max} (proved)"),
        _ => "unknown".to_string(),
    }
}

fn report_text<P: Position>(pos: &P, report: &MateReport, max: u16, limit: usize) -> String {
    let mut out = format!("{}\n", verdict_text(report, max));
    if let Some(solution) = &report.solution {
        let tree = build_tree(pos, pos.turn(), solution, limit);
        let line = line_san(pos, &longest_line(pos, pos.turn(), solution));
        out += &format!("main line: {line}\n");
        let keys: Vec<String> = report
            .keys
            .iter()
            .map(|&m| ransom::notation::san::write(pos, m))
            .collect();
        out += &format!(
            "key{}: {}\n",
            if keys.len() == 1 { "" } else { "s" },
            keys.join(", ")
        );
        if let Some(v) = report.verified {
            out += &format!("verified: {} positions\n", v.positions);
        }
        out += "solution tree:\n";
        out += &tree.to_text();
    }
    for note in &report.notes {
        out += &format!("note: {note}\n");
    }
    let secs = report.elapsed.as_secs_f64();
    out += &format!(
        "{} nodes in {:.3} s ({:.0} nodes/s)\n",
        report.nodes,
        secs,
        report.nodes as f64 / secs.max(1e-9)
    );
    out
}
