//! `ransom store`: the solved-position store's stats, compaction,
//! verification, and what it holds position by position (show, export).

use super::progress::Progress;
use ransom::proving::{VerifyWith, compact_store, store_stats, store_variants, verify_stores};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `ransom store`.
#[derive(Debug, clap::Args)]
pub struct StoreArgs {
    #[command(subcommand)]
    command: StoreCommand,
}

#[derive(Debug, clap::Subcommand)]
enum StoreCommand {
    /// What a store holds: files, positions by kind, checkpoints of unfinished searches.
    Stats(StatsTarget),
    /// Fold the logs into one compacted table (atomically; the store stays usable).
    Compact(StoreTarget),
    /// Re-prove every stored win and loss from the stored moves with the independent verifier.
    Verify(VerifyTarget),
    /// Fold the shards of batch jobs (`prove --job … --store-shard`) into a store, and hand
    /// the outer trees of the jobs left open to the next jobs on their positions.
    Merge(super::store_merge::MergeTarget),
    /// The open positions of a checkpointed search that hold its root back most (to choose
    /// what to steer next with `prove --book`).
    Frontier(super::store_frontier::FrontierArgs),
    /// A position and each legal move with what the store, the tables and the rules know
    /// after it (result, proof size, stored winning reply, open numbers), best first.
    Show(super::store_show::ShowArgs),
    /// Write the settled subtree below a line as PGN with variations (proof sizes as
    /// comments), checked by the verifier first.
    Export(super::store_show::ExportArgs),
}

#[derive(Debug, clap::Args)]
struct StatsTarget {
    #[command(flatten)]
    target: StoreTarget,
    /// Also say where each job of this plan stands (a folder written by `prove --plan`).
    #[arg(long, value_name = "JOBS")]
    plan: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct StoreTarget {
    /// The store directory (as given to `prove --store`).
    #[arg(default_value = ransom::solved::DEFAULT_DIR)]
    dir: PathBuf,
    /// Only this rule set's store (default: every one found in DIR).
    #[arg(long, short = 'v')]
    variant: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress spinner or progress lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Wait for a store another ransom process is writing, instead of
    /// refusing it as busy (compact and verify; stats takes no lock).
    #[arg(long)]
    wait: bool,
}

#[derive(Debug, clap::Args)]
struct VerifyTarget {
    #[command(flatten)]
    target: StoreTarget,
    /// Endgame tablebases whose positions count as scored (as `prove` used them).
    #[arg(long, default_value = "tablebases")]
    tablebases: PathBuf,
    /// Do not use tablebases: every line must end in a position the rules score.
    #[arg(long)]
    no_tablebases: bool,
    /// Syzygy giveaway tables whose antichess positions count as scored (as
    /// `prove --syzygy` used them).
    #[arg(long, value_name = "DIR")]
    syzygy: Option<PathBuf>,
}

pub fn run(args: &StoreArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        StoreCommand::Stats(t) => stats(&t.target, t.plan.as_deref()),
        StoreCommand::Compact(t) => compact(t),
        StoreCommand::Verify(v) => verify(v),
        StoreCommand::Merge(m) => super::store_merge::merge(m),
        StoreCommand::Frontier(f) => super::store_frontier::run(f),
        StoreCommand::Show(s) => super::store_show::show(s),
        StoreCommand::Export(e) => super::store_show::export(e),
    }
}

fn stats(target: &StoreTarget, plan: Option<&Path>) -> anyhow::Result<ExitCode> {
    let stats = store_stats(&target.dir, target.variant.as_deref(), plan)?;
    super::print_report(&stats, target.json)?;
    Ok(ExitCode::SUCCESS)
}

fn compact(target: &StoreTarget) -> anyhow::Result<ExitCode> {
    let mut compacted = Vec::new();
    for variant in store_variants(&target.dir, target.variant.as_deref())? {
        let mut progress = Progress::busy("store compact", target.quiet);
        progress.set_message(
            ransom::solved::variant_dir(&target.dir, variant)
                .display()
                .to_string(),
        );
        let report = compact_store(&target.dir, variant, target.wait)?;
        progress.finish();
        if !target.json {
            out!("{report}")?;
        }
        compacted.push(report);
    }
    if target.json {
        outln!("{}", serde_json::json!({ "compacted": compacted }))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn verify(args: &VerifyTarget) -> anyhow::Result<ExitCode> {
    let target = &args.target;
    let with = VerifyWith {
        tablebases: (!args.no_tablebases).then(|| args.tablebases.clone()),
        syzygy: args.syzygy.clone(),
        wait: target.wait,
    };
    let mut progress: Option<Progress> = None;
    let report = verify_stores(
        &target.dir,
        target.variant.as_deref(),
        &with,
        &mut |store| {
            if let Some(done) = progress.take() {
                done.finish();
            }
            let mut p = Progress::busy("store verify", target.quiet);
            p.set_message(format!("re-proving {}", store.display()));
            progress = Some(p);
        },
    )?;
    if let Some(done) = progress.take() {
        done.finish();
    }
    if target.json {
        outln!("{}", serde_json::to_string(&report)?)?;
    } else {
        for verdict in &report.stores {
            out!("{verdict}")?;
            for message in verdict.messages(&target.dir) {
                errln!("{message}");
            }
        }
    }
    Ok(if report.ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
