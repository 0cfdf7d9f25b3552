//! `ransom prove`: proves who wins (Losing-chess openings first), writes
//! the verified proof to a proof table, optionally as PGN.

use super::prove_run::{INTERRUPTED, Printing, exit_code, explained, on_big_stack};
use ransom::proving::{
    Line, Outputs, PgnOutput, PlanOptions, ProveOptions, RunObserver, StoreOptions, prove_line,
};
use ransom::search::scale::{DEFAULT_LEAF_NODES, DEFAULT_STORE_MIN_WORK, ScaleConfig};
use ransom::search::{Budget, StopSignal};
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
    #[arg(long, value_parser = super::arguments::parse_at_least_one::<u64>)]
    max_nodes: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, value_parser = super::arguments::parse_seconds)]
    max_time: Option<f64>,
    /// Memory for the transposition table, in MB (1 to 65536).
    #[arg(long, default_value_t = 1024, value_parser = super::arguments::parse_hash_mb)]
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
    #[arg(long, default_value_t = 1024, value_parser = super::arguments::parse_hash_mb)]
    store_memory: usize,
    /// Nodes of one leaf search of the two-level search.
    #[arg(long, default_value_t = DEFAULT_LEAF_NODES, value_parser = super::arguments::parse_at_least_one::<u64>)]
    leaf_nodes: u64,
    /// Threads searching leaves at once (default: every core).
    #[arg(long, value_parser = super::arguments::parse_workers)]
    threads: Option<usize>,
    /// Settled positions with fewer nodes below them are stored only as
    /// part of a stored proof.
    #[arg(long, default_value_t = DEFAULT_STORE_MIN_WORK, value_parser = super::arguments::parse_at_least_one::<u32>)]
    store_min_work: u32,
    /// Seconds between checkpoints of the outer tree.
    #[arg(long, default_value_t = 60.0, value_parser = super::arguments::parse_seconds)]
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
    #[arg(long, default_value_t = 16, requires = "plan", value_parser = super::arguments::parse_at_least_one::<usize>)]
    split: usize,
    /// Node budget of each job that --plan writes.
    #[arg(long, default_value_t = 10_000_000, requires = "plan", value_parser = super::arguments::parse_at_least_one::<u64>)]
    job_nodes: u64,
    /// Time budget of each job that --plan writes, in seconds.
    #[arg(long, requires = "plan", value_parser = super::arguments::parse_seconds)]
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
    let options = args.options();
    let printing = args.printing();
    if let (Some(job), Some(shard)) = (&args.job, &args.store_shard) {
        return super::prove_job::run(job.clone(), shard.clone(), options, printing);
    }
    let variant: Variant = args.variant.parse()?;
    let start = super::arguments::start_position(variant, args.fen.as_deref())?;
    let run = LineRun {
        moves: args.moves.clone(),
        options,
        printing,
        out: args.out.clone(),
        write: !args.no_write,
        pgn: args.pgn.clone().map(|path| PgnOutput {
            path,
            full: args.pgn_full,
        }),
        budget_given: args.max_nodes.is_some() || args.max_time.is_some(),
        plan: args.plan.clone().map(|dir| PlanOptions {
            dir,
            split: args.split,
            job_nodes: args.job_nodes,
            job_time: args.job_time,
        }),
    };
    on_big_stack(move || dispatch!(start, p => prove_from(p, &run)))
}

/// A `prove` of one line, owned by the search thread.
struct LineRun {
    moves: Vec<String>,
    options: ProveOptions,
    printing: Printing,
    /// `--out`.
    out: Option<PathBuf>,
    /// Not `--no-write`.
    write: bool,
    pgn: Option<PgnOutput>,
    budget_given: bool,
    plan: Option<PlanOptions>,
}

impl ProveArgs {
    /// The library's options from these arguments.
    fn options(&self) -> ProveOptions {
        let threads = self
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        ProveOptions {
            config: ScaleConfig {
                budget: Budget {
                    max_nodes: self.max_nodes.unwrap_or(u64::MAX),
                    max_time: self.max_time.map(Duration::from_secs_f64),
                    hash_bytes: self.hash.saturating_mul(1 << 20),
                    stop: Some(StopSignal {
                        stopped: &INTERRUPTED,
                        ticket: 1,
                    }),
                },
                leaf_nodes: self.leaf_nodes,
                threads,
                store_min_work: self.store_min_work,
                checkpoint_every: Duration::from_secs_f64(self.checkpoint_every),
                attacker: None,
                guide: self.guide.guide(),
            },
            book: self.guide.book_path().cloned(),
            tablebases: (!self.no_tablebases).then(|| self.tablebases.clone()),
            syzygy: self.syzygy.clone(),
            store: StoreOptions {
                dir: (!self.no_store).then(|| {
                    self.store
                        .clone()
                        .unwrap_or_else(|| PathBuf::from(ransom::solved::DEFAULT_DIR))
                }),
                given: self.store.is_some(),
                memory_bytes: self.store_memory.saturating_mul(1 << 20),
                wait: self.wait,
            },
        }
    }

    /// What the terminal shows.
    fn printing(&self) -> Printing {
        Printing {
            quiet: self.quiet,
            force_progress: self.progress,
            progress_json: self.progress_json,
            json: self.json,
        }
    }
}

fn prove_from<P: Position>(start: P, run: &LineRun) -> anyhow::Result<ExitCode> {
    let line = Line::play(start, &run.moves)?;
    let outputs = Outputs {
        proof: run
            .write
            .then(|| run.out.clone().unwrap_or_else(|| line.default_proof_path())),
        pgn: run.pgn.clone(),
    };
    for path in outputs
        .proof
        .iter()
        .chain(outputs.pgn.iter().map(|p| &p.path))
    {
        super::arguments::check_output_path(path)?;
    }
    let mut display = run.printing.progress_display();
    if let Some(plan) = &run.plan {
        return super::prove_plan::plan(&line, &run.options, plan, run.printing, display);
    }
    if !run.budget_given {
        display.note("no --max-nodes or --max-time: the search runs until it settles the position (Ctrl-C stops it and keeps its work)");
    }
    let report = prove_line(&line, &run.options, &outputs, &mut display).map_err(explained)?;
    run.printing.print(&report)?;
    Ok(exit_code(report.result != "unknown"))
}
