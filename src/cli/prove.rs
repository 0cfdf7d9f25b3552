//! `ransom prove`: proves who wins (Losing-chess openings first), writes
//! the verified proof to a proof table, optionally as PGN.

use super::checks::counted;
use super::game::state_json;
use super::prove_run::{
    INTERRUPTED, PlanOptions, ProveArgsOwned, exit_code, interrupted, on_big_stack,
};
use ransom::notation::{fen, san, uci};
use ransom::search::scale::{
    DEFAULT_LEAF_NODES, DEFAULT_STORE_MIN_WORK, ScaleConfig, prove_at_scale,
};
use ransom::search::{Budget, ProofMeta, StopSignal, Verdict};
use ransom::solved::{SolvedStore, packed};
use ransom::store::StoreError;
use ransom::{Position, Variant, dispatch};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `ransom prove`.
#[derive(Debug, clap::Args)]
pub struct ProveArgs {
    /// Variant (antichess, suicide; chess and crazyhouse prove forced mates).
    #[arg(long, short = 'v', default_value = "antichess")]
    variant: String,
    /// Position the moves start from (default: the variant's start position).
    #[arg(long)]
    fen: Option<String>,
    /// Moves (SAN or UCI) played from the start to reach the position to prove.
    moves: Vec<String>,
    /// Stop after this many node expansions.
    #[arg(long, value_parser = super::checks::parse_at_least_one::<u64>)]
    max_nodes: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, value_parser = super::checks::parse_seconds)]
    max_time: Option<f64>,
    /// Memory for the transposition table, in MB (1 to 65536).
    #[arg(long, default_value_t = 1024, value_parser = super::checks::parse_hash_mb)]
    hash: usize,
    /// Where to write the proof (default: proofs/<variant>-<moves>.proof).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Also write the proof as PGN with variations to this file (a
    /// position reached again by transposition is written once; later
    /// meetings say `{transposes to an earlier line}`).
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// With --pgn: write every transposed subtree again in place, so every
    /// line runs to the end of the game (for tools that walk the tree; can
    /// be much larger: a warning gives the size beyond 100,000 moves).
    #[arg(long, requires = "pgn")]
    pgn_full: bool,
    /// Do not write a proof file.
    #[arg(long)]
    no_write: bool,
    /// No progress lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Progress lines on stderr even when it is not a terminal (for logs).
    #[arg(long, conflicts_with = "quiet")]
    progress: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Endgame tablebases to settle positions at the leaves (Losing chess;
    /// used when the folder holds tables of the variant).
    #[arg(long, default_value = "tablebases")]
    tablebases: PathBuf,
    /// Do not use tablebases.
    #[arg(long)]
    no_tablebases: bool,
    /// Syzygy giveaway tables (*.gtbw, *.gtbz) to settle antichess leaves
    /// this project's tables do not cover; a settled leaf is expanded along
    /// the tables' distance to zeroing, so the proof stays self-contained
    /// (needs a binary built with `--features syzygy`).
    #[arg(long, value_name = "DIR")]
    syzygy: Option<PathBuf>,
    /// The solved-position store: every settled position is kept there and
    /// reused by later searches, with the checkpoint to resume from
    /// (one store per rule set, in DIR/<variant>/) [default: proofs/store].
    /// With --job, the store is only read.
    #[arg(long, value_name = "DIR")]
    store: Option<PathBuf>,
    /// Keep nothing on disk (no store, no checkpoint, no resume).
    #[arg(long)]
    no_store: bool,
    /// Wait for a store that another ransom process is writing, instead
    /// of refusing it as busy (for scripts that queue runs on one store).
    #[arg(long, conflicts_with = "no_store")]
    wait: bool,
    /// Memory for the store's in-memory index, in MB (16 bytes a position;
    /// more is taken if the store on disk is larger).
    #[arg(long, default_value_t = 1024, value_parser = super::checks::parse_hash_mb)]
    store_memory: usize,
    /// Nodes of one leaf search of the two-level search.
    #[arg(long, default_value_t = DEFAULT_LEAF_NODES, value_parser = super::checks::parse_at_least_one::<u64>)]
    leaf_nodes: u64,
    /// Threads searching leaves at once (default: every core).
    #[arg(long, value_parser = super::checks::parse_workers)]
    threads: Option<usize>,
    /// Settled positions with fewer nodes below them are stored only as
    /// part of a stored proof.
    #[arg(long, default_value_t = DEFAULT_STORE_MIN_WORK, value_parser = super::checks::parse_at_least_one::<u32>)]
    store_min_work: u32,
    /// Seconds between checkpoints of the outer tree.
    #[arg(long, default_value_t = 60.0, value_parser = super::checks::parse_seconds)]
    checkpoint_every: f64,
    /// Progress as JSON lines on stderr (one a second), for scripts.
    #[arg(long, conflicts_with = "quiet")]
    progress_json: bool,
    /// Split the search into batch jobs: grow the outer tree until it
    /// offers --split open positions, then write a job file for each into
    /// the folder JOBS, with a Makefile, a Slurm array script and a
    /// Kubernetes Indexed Job manifest that run them (docs/prover.md,
    /// "Many machines").
    #[arg(long, value_name = "JOBS", conflicts_with_all = ["no_store", "job"])]
    plan: Option<PathBuf>,
    /// The number of jobs --plan writes (fewer if the budget ends first).
    #[arg(long, default_value_t = 16, requires = "plan", value_parser = super::checks::parse_at_least_one::<usize>)]
    split: usize,
    /// Node budget of each job that --plan writes.
    #[arg(long, default_value_t = 10_000_000, requires = "plan", value_parser = super::checks::parse_at_least_one::<u64>)]
    job_nodes: u64,
    /// Time budget of each job that --plan writes, in seconds.
    #[arg(long, requires = "plan", value_parser = super::checks::parse_seconds)]
    job_time: Option<f64>,
    /// Run one job written by --plan; its results go to --store-shard only
    /// (--max-nodes and --max-time override the job's budget).
    #[arg(long, value_name = "FILE", requires = "store_shard", conflicts_with_all = ["moves", "fen", "no_store"])]
    job: Option<PathBuf>,
    /// Where a job writes what it settled (a store of its own, replaced
    /// whole when the job runs again), for `ransom store merge`.
    #[arg(long, value_name = "DIR", requires = "job")]
    store_shard: Option<PathBuf>,
    #[command(flatten)]
    guide: super::prove_guide::GuideArgs,
}

pub fn run(args: &ProveArgs) -> anyhow::Result<ExitCode> {
    if let (Some(job), Some(shard)) = (&args.job, &args.store_shard) {
        return super::prove_job::run(job, shard, ProveArgsOwned::from(args));
    }
    let variant: Variant = args.variant.parse()?;
    let start = super::checks::start_position(variant, args.fen.as_deref())?;
    let args_owned = ProveArgsOwned::from(args);
    on_big_stack(move || dispatch!(start, p => prove_from(p, &args_owned)))
}

impl From<&ProveArgs> for ProveArgsOwned {
    fn from(a: &ProveArgs) -> Self {
        let threads = a
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        ProveArgsOwned {
            moves: a.moves.clone(),
            config: ScaleConfig {
                budget: Budget {
                    max_nodes: a.max_nodes.unwrap_or(u64::MAX),
                    max_time: a.max_time.map(Duration::from_secs_f64),
                    hash_bytes: a.hash.saturating_mul(1 << 20),
                    stop: Some(StopSignal {
                        stopped: &INTERRUPTED,
                        ticket: 1,
                    }),
                },
                leaf_nodes: a.leaf_nodes,
                threads,
                store_min_work: a.store_min_work,
                checkpoint_every: Duration::from_secs_f64(a.checkpoint_every),
                attacker: None,
                guide: a.guide.guide(),
            },
            book: a.guide.book_path().cloned(),
            out: a.out.clone(),
            pgn: a.pgn.clone(),
            pgn_full: a.pgn_full,
            write: !a.no_write,
            quiet: a.quiet,
            force_progress: a.progress,
            progress_json: a.progress_json,
            json: a.json,
            tablebases: (!a.no_tablebases).then(|| a.tablebases.clone()),
            syzygy: a.syzygy.clone(),
            store: (!a.no_store).then(|| {
                a.store
                    .clone()
                    .unwrap_or_else(|| PathBuf::from(ransom::solved::DEFAULT_DIR))
            }),
            store_given: a.store.is_some(),
            store_wait: a.wait,
            store_memory: a.store_memory.saturating_mul(1 << 20),
            budget_given: a.max_nodes.is_some() || a.max_time.is_some(),
            plan: a.plan.clone().map(|dir| PlanOptions {
                dir,
                split: a.split,
                job_nodes: a.job_nodes,
                job_time: a.job_time,
            }),
        }
    }
}

fn prove_from<P: Position>(start: P, args: &ProveArgsOwned) -> anyhow::Result<ExitCode> {
    let guided = args.with_book::<P>()?;
    let args = guided.as_ref().unwrap_or(args);
    let start_fen = fen::write(&start);
    let (pos, played) = super::checks::play_moves(start, &args.moves)?;
    let line_uci: Vec<String> = played.into_iter().map(uci::write).collect();
    let root_fen = fen::write(&pos);
    let proof_path = args.write.then(|| {
        args.out
            .clone()
            .unwrap_or_else(|| default_path::<P>(&line_uci, &root_fen, &start_fen))
    });
    for path in proof_path.iter().chain(&args.pgn) {
        super::checks::check_output_path(path)?;
    }
    let mut notes_before = Vec::new();
    let store = match &args.store {
        Some(dir) if packed::supported::<P>() => SolvedStore::open(
            dir,
            P::VARIANT,
            args.store_memory,
            args.store_wait,
        )
        .map_err(|e| match e {
            StoreError::Busy { .. } => {
                anyhow::anyhow!("{e}\n(--wait waits for it; --no-store runs without the store)")
            }
            _ => anyhow::anyhow!(
                "{e}\n(--no-store runs without the store; `ransom store verify {}` checks it)",
                dir.display()
            ),
        })?,
        Some(_) => {
            notes_before.push(format!(
                "the store keeps no {} positions on disk (men off the board or turns in progress): this run keeps its results in memory only",
                P::VARIANT.name()
            ));
            SolvedStore::in_memory(P::VARIANT, args.store_memory)
        }
        None => SolvedStore::in_memory(P::VARIANT, args.store_memory),
    };
    if let Some(damage) = store.reading().damage_report() {
        // Reported before the search, which goes on with what remains (a
        // lost result is searched again, never taken from a checkpoint).
        errln!("warning: {damage}");
        notes_before.push(damage);
    }
    let mut display = args.progress_display();
    if !args.budget_given && args.plan.is_none() {
        display.note("no --max-nodes or --max-time: the search runs until it settles the position (Ctrl-C stops it and keeps its work)");
    }
    if store.dir().is_some() && store.began_with() > 0 {
        display.note(&format!(
            "store {}: {} positions",
            store
                .dir()
                .map(|d| d.display().to_string())
                .unwrap_or_default(),
            store.began_with()
        ));
    }
    if let (Some(book), Some(path)) = (&args.config.guide.book, &args.book) {
        display.note(&format!(
            "book {}: {} suggested moves in {} positions, tried first (others deferred ×{})",
            path.display(),
            book.suggestions(),
            book.positions(),
            args.config.guide.book_defer
        ));
    }
    let oracle = args.leaf_oracle::<P>()?;
    if let Some(plan) = &args.plan {
        let root = super::prove_plan::Root {
            pos: &pos,
            start_fen: &start_fen,
            line_uci: &line_uci,
        };
        return super::prove_plan::plan(root, plan, args, &store, oracle.as_deref(), display);
    }
    let scale = prove_at_scale(
        &pos,
        &store,
        oracle.as_deref(),
        &args.config,
        &mut |status| display.update(status),
    )
    .map_err(|e| match &e {
        StoreError::Damaged {
            kind: "checkpoint",
            path,
            ..
        } => anyhow::anyhow!(
            "{e}\n(the saved outer tree of this search: remove {path} to start the search afresh, losing that tree but none of the store's positions, or restore it from a backup)"
        ),
        _ => anyhow::anyhow!(e),
    })?;
    display.finish();
    let compacted = if store.dir().is_some() && store.log_records() >= AUTO_COMPACT_RECORDS {
        Some(store.compact()?)
    } else {
        None
    };
    let interrupted = interrupted();
    let mut report = scale.report;
    let mut notes = notes_before;
    notes.append(&mut report.notes);
    let settled = report.verdict != Verdict::Unknown;
    if interrupted && !settled {
        notes.push(match &scale.checkpoint {
            Some(_) => "interrupted: the checkpoint and the store were written".into(),
            None => "interrupted: the store was written".into(),
        });
    } else if interrupted {
        notes.push(
            "a signal came after the search had settled the position: the result is complete"
                .into(),
        );
    }
    if report.verdict == Verdict::Unknown
        && let Some(checkpoint) = &scale.checkpoint
    {
        notes.push(format!(
            "to resume, run the same command again (checkpoint {})",
            checkpoint.display()
        ));
    }
    report.notes = notes;
    let winner = match report.verdict {
        Verdict::Win => Some(pos.turn()),
        Verdict::Loss => Some(!pos.turn()),
        Verdict::Unknown => None,
    };
    let mut proof_file = None;
    if let (Some(proof), Some(winner)) = (&report.proof, winner) {
        if let Some(path) = proof_path {
            let meta = ProofMeta {
                root_fen: root_fen.clone(),
                winner: winner.name().into(),
                start_fen: start_fen.clone(),
                line: line_uci.clone(),
            };
            proof.write(&path, &meta)?;
            proof_file = Some(path);
        }
        if let Some(pgn_path) = &args.pgn {
            let lookup = |h: u64| proof.moves.get(&h).copied();
            let event = format!("ransom proof: {} wins", winner.name());
            super::proof_pgn::write(
                pgn_path,
                &proof.root,
                winner,
                &lookup,
                &super::proof_pgn::PgnWriting::from_flags(&event, args.pgn_full, args.quiet),
            )?;
        }
    }
    let best_uci = report.best.map(uci::write);
    let best_san = report.best.map(|m| san::write(&pos, m));
    let time_ms = report.elapsed.as_millis() as u64;
    let positions = report.verified.map(|v| v.positions);
    if args.json {
        let mut out = state_json(&pos);
        out["result"] = report.verdict.name().into();
        out["winner"] = winner.map(|c| c.name()).into();
        out["best"] = best_uci.clone().into();
        out["proof_positions"] = positions.into();
        out["proof_depth"] = report.verified.map(|v| v.depth).into();
        out["verified"] = report.verified.is_some().into();
        out["nodes"] = report.nodes.into();
        out["tablebase_hits"] = report.oracle_hits.into();
        out["tablebases"] = oracle.is_some().into();
        out["time_ms"] = time_ms.into();
        out["threads"] = args.config.threads.into();
        out["leaf_nodes"] = args.config.leaf_nodes.into();
        out["guide"] = super::prove_guide::guide_json(&args.config.guide, args.book.as_ref());
        out["leaf_searches"] = scale.leaf_searches.into();
        out["outer_nodes"] = scale.outer_nodes.into();
        out["root_pn"] = scale.root_numbers.0.get().into();
        out["root_dn"] = scale.root_numbers.1.get().into();
        out["resumed"] = scale.resumed.into();
        out["earlier_nodes"] = scale.earlier_nodes.into();
        out["total_nodes"] = (scale.earlier_nodes + report.nodes).into();
        out["store"] = store.dir().map(|d| d.display().to_string()).into();
        out["store_began_with"] = store.began_with().into();
        out["store_positions"] = store.len().into();
        out["store_added"] = store.added().into();
        out["store_bytes"] = store.disk_bytes().into();
        out["store_compacted"] = compacted.is_some().into();
        out["checkpoint"] = scale
            .checkpoint
            .as_ref()
            .map(|p| p.display().to_string())
            .into();
        out["proof_file"] = proof_file.as_ref().map(|p| p.display().to_string()).into();
        out["notes"] = report.notes.clone().into();
        outln!("{out}")?;
    } else {
        outln!(
            "position: {root_fen}  [{}]",
            super::checks::reached_by(P::VARIANT, &start_fen, &line_uci)
        )?;
        match (report.verdict, winner) {
            (Verdict::Unknown, _) | (_, None) => outln!("result: unknown")?,
            (verdict, Some(w)) => {
                outln!(
                    "result: {} for the side to move: {} wins (proved and verified)",
                    verdict.name(),
                    w.name()
                )?;
            }
        }
        if let (Some(u), Some(s)) = (&best_uci, &best_san) {
            outln!("best: {s} ({u})")?;
        }
        if let Some(v) = report.verified {
            outln!(
                "proof: {}, {}, longest line {}",
                counted(v.positions, "position", "positions"),
                counted(v.winner_moves, "winner move", "winner moves"),
                counted(v.depth as u64, "ply", "plies")
            )?;
        }
        outln!(
            "nodes: {}, time: {:.3} s ({:.0} nodes/s)",
            report.nodes,
            report.elapsed.as_secs_f64(),
            report.nodes as f64 / report.elapsed.as_secs_f64().max(1e-9)
        )?;
        if oracle.is_some() {
            outln!("tablebase hits: {}", report.oracle_hits)?;
        }
        outln!(
            "search: {} leaf search{} of up to {} nodes on {} thread{}, outer tree {} nodes, root pn {} dn {}",
            scale.leaf_searches,
            if scale.leaf_searches == 1 { "" } else { "es" },
            args.config.leaf_nodes,
            args.config.threads,
            if args.config.threads == 1 { "" } else { "s" },
            scale.outer_nodes,
            scale.root_numbers.0,
            scale.root_numbers.1
        )?;
        if scale.resumed {
            outln!(
                "resumed: {} nodes in earlier runs, {} in all",
                scale.earlier_nodes,
                scale.earlier_nodes + report.nodes
            )?;
        }
        if let Some(dir) = store.dir() {
            outln!(
                "store: {} began with {} positions, now {} ({} records added, {} on disk{})",
                dir.display(),
                store.began_with(),
                store.len(),
                store.added(),
                indicatif::HumanBytes(store.disk_bytes()),
                if compacted.is_some() {
                    ", compacted"
                } else {
                    ""
                }
            )?;
        }
        if let Some(path) = &proof_file {
            outln!("proof file: {}", path.display())?;
        }
        for note in &report.notes {
            outln!("note: {note}")?;
        }
    }
    Ok(exit_code(settled))
}

/// A log holding this many records is folded into the store's table when
/// a run ends.
const AUTO_COMPACT_RECORDS: u64 = 1_000_000;

/// `proofs/` and the proof's default name ([`ProofMeta::file_name`]).
fn default_path<P: Position>(line: &[String], root_fen: &str, start_fen: &str) -> PathBuf {
    let meta = ProofMeta {
        root_fen: root_fen.to_string(),
        winner: String::new(),
        start_fen: start_fen.to_string(),
        line: line.to_vec(),
    };
    let from_start = fen::write(&P::start()) == start_fen;
    PathBuf::from("proofs").join(meta.file_name(P::VARIANT, from_start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ransom::variants::Antichess;

    #[test]
    fn default_names_stay_short_for_long_lines() {
        let short: Vec<String> = ["e2e4", "b7b5"].map(String::from).to_vec();
        let start = fen::write(&Antichess::start());
        assert_eq!(
            default_path::<Antichess>(&short, "fen", &start),
            PathBuf::from("proofs/antichess-e2e4-b7b5.proof")
        );
        let long: Vec<String> = (0..240).map(|i| format!("m{i:03}x")).collect();
        let path = default_path::<Antichess>(&long, "fen", &start);
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(name.len() < 160, "{name}");
        assert!(name.starts_with("antichess-m000x-m001x-"), "{name}");
        assert_ne!(
            path,
            default_path::<Antichess>(&long, "another fen", &start)
        );
        // From a position given by FEN: the position's hash, whatever the
        // line, so it never takes the name of the same line from the start.
        let other = "8/8/8/8/8/8/1k6/R7 w - - 0 1";
        let by_fen = default_path::<Antichess>(&short, "8/8/8/8/8/8/1k6/R7 w - - 5 9", other);
        assert!(!by_fen.to_str().unwrap().contains("e2e4"), "{by_fen:?}");
        assert_eq!(
            by_fen,
            default_path::<Antichess>(&short, "8/8/8/8/8/8/1k6/R7 w - - 0 1", other)
        );
    }
}
