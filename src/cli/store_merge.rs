//! `ransom store merge DIR SHARD…`: prints the library's merge
//! ([`ransom::proving::merge_into_store`]).

use super::progress::Progress;
use ransom::Variant;
use ransom::proving::merge_into_store;
use ransom::solved::variant_dir;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ransom store merge`.
#[derive(Debug, clap::Args)]
pub struct MergeTarget {
    /// The store to merge into (as given to `prove --store`; created if missing).
    dir: PathBuf,
    /// The shards: folders written by `prove --job FILE --store-shard DIR`.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// The rule set of the shards.
    #[arg(long, short = 'v', default_value = "antichess")]
    variant: String,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress spinner or progress lines on stderr.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Wait for a store another ransom process is writing, instead of
    /// refusing it as busy.
    #[arg(long)]
    wait: bool,
    /// The jobs folder of the plan the shards come from (`prove --plan`):
    /// the merge is refused unless the store is the one the plan was made
    /// over (the plan records the store's identity), so that a copied jobs
    /// folder never merges into another store by mistake.
    #[arg(long, value_name = "JOBS")]
    plan: Option<PathBuf>,
}

/// Merges; exits 1 if any shard or outer tree was refused (the others
/// are merged).
pub fn merge(target: &MergeTarget) -> anyhow::Result<ExitCode> {
    let variant: Variant = target.variant.parse()?;
    let mut progress = Progress::busy("store merge", target.quiet);
    progress.set_message(format!(
        "{} shards into {}",
        target.shards.len(),
        variant_dir(&target.dir, variant).display()
    ));
    let outcome = merge_into_store(
        &target.dir,
        variant,
        &target.shards,
        target.wait,
        target.plan.as_deref(),
    );
    progress.finish();
    let outcome = outcome?;
    super::print_report(&outcome, target.json)?;
    for message in outcome.messages() {
        errln!("{message}");
    }
    Ok(if outcome.failed() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
