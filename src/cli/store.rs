//! `ransom store`: the solved-position store's stats, compaction,
//! verification, and what it holds position by position (show, export).

use super::progress::Progress;
use ransom::search::leaf_oracle::leaf_oracle;
use ransom::search::scale::checkpoint;
use ransom::solved::{self, Solved, read_merged, scan, variant_dir};
use ransom::store::StoreError;
use ransom::{AnyPosition, Variant, dispatch};
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

/// The rule sets with a store in `dir` (or the one asked for).
fn variants(target: &StoreTarget) -> anyhow::Result<Vec<Variant>> {
    if !target.dir.is_dir() {
        anyhow::bail!("{}: no store here (not a directory)", target.dir.display());
    }
    if let Some(name) = &target.variant {
        let variant: Variant = name.parse()?;
        if !variant_dir(&target.dir, variant).is_dir() {
            anyhow::bail!("{}: no {} store here", target.dir.display(), variant.name());
        }
        return Ok(vec![variant]);
    }
    let found: Vec<Variant> = Variant::ALL
        .into_iter()
        .filter(|&v| variant_dir(&target.dir, v).is_dir())
        .collect();
    if found.is_empty() {
        anyhow::bail!(
            "{}: no store here (no rule-set folder such as antichess/)",
            target.dir.display()
        );
    }
    Ok(found)
}

fn stats(target: &StoreTarget, plan: Option<&Path>) -> anyhow::Result<ExitCode> {
    let mut all = Vec::new();
    let mut plan_status = None;
    // The plan is read once, with the rule set whose store it goes with.
    let plan_file = match plan {
        Some(jobs) => {
            let p: ransom::solved::batch::Plan =
                ransom::solved::batch::read_json(&jobs.join("plan.json"), "plan file")?;
            let variant = p.variant;
            Some((jobs, p, variant))
        }
        None => None,
    };
    for variant in variants(target)? {
        let dir = variant_dir(&target.dir, variant);
        // No lock: stats may look at a store that a search is writing (a
        // record being appended reads as a torn tail and is not counted).
        let (files, merged) = read_consistent(&dir, variant)?;
        let reading = &merged.reading;
        if let Some((jobs, p, plan_variant)) = &plan_file
            && *plan_variant == variant
        {
            plan_status = Some(super::plan_status::plan_status(
                p,
                variant,
                jobs,
                &dir,
                &merged.records,
            )?);
        }
        let values = merged.records.values().map(|m| m.record.value);
        let count = |f: fn(Solved) -> bool| values.clone().filter(|&v| f(v)).count();
        let (wins, losses) = (count(Solved::is_win), count(Solved::is_loss));
        let no_win_white = count(|v| v.no_win(ransom::board::Color::White));
        let no_win_black = count(|v| v.no_win(ransom::board::Color::Black));
        let mut checkpoints = Vec::new();
        if let Ok(entries) = std::fs::read_dir(dir.join(solved::CHECKPOINTS_DIR)) {
            // Checkpoints only: a writer's temporary file is not one.
            let entries = entries
                .flatten()
                .filter(|e| e.path().extension().is_some_and(|x| x == "ckpt"));
            for entry in entries {
                match checkpoint::summary(&entry.path()) {
                    Ok(s) => {
                        let frontier = frontier_of(variant, &entry.path(), &s);
                        checkpoints.push(serde_json::json!({
                            "file": entry.path().display().to_string(),
                            "root_fen": s.root_fen, "attacker": s.attacker.name(),
                            "nodes": s.totals.nodes, "leaf_searches": s.totals.leaf_searches,
                            "seconds": s.totals.seconds, "outer_nodes": s.outer_nodes,
                            "root_pn": s.root_numbers.0, "root_dn": s.root_numbers.1,
                            "most_proving_line": frontier.as_ref().map(|f| f.line.clone()).unwrap_or_default(),
                            "frontier_fen": frontier.as_ref().map(|f| f.fen.clone()).ok(),
                            "frontier_pn": frontier.as_ref().map(|f| f.numbers.0).ok(),
                            "frontier_dn": frontier.as_ref().map(|f| f.numbers.1).ok(),
                        }))
                    }
                    Err(e) => checkpoints.push(serde_json::json!({
                        "file": entry.path().display().to_string(), "error": e.to_string(),
                    })),
                }
            }
        }
        all.push(serde_json::json!({
            "variant": variant.name(), "dir": dir.display().to_string(),
            "positions": merged.records.len(), "records": reading.table_records + reading.log_records,
            "table_records": reading.table_records, "log_records": reading.log_records,
            "torn_bytes": reading.torn_bytes,
            "lost_records": reading.lost_records, "lost_bytes": reading.lost_bytes,
            "damage": reading.damage_report(),
            "wins": wins, "losses": losses, "no_win_white": no_win_white, "no_win_black": no_win_black,
            "table": files.table.as_ref().map(|t| t.1.display().to_string()),
            "logs": files.logs.iter().map(|l| l.1.display().to_string()).collect::<Vec<_>>(),
            "bytes": solved::disk_bytes(&dir), "checkpoints": checkpoints,
        }));
    }
    if plan.is_some() && plan_status.is_none() {
        anyhow::bail!(
            "the plan's rule set has no store in {}",
            target.dir.display()
        );
    }
    if target.json {
        outln!(
            "{}",
            serde_json::json!({ "stores": all, "plan": plan_status })
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(status) = &plan_status {
        for line in super::plan_status::describe(status) {
            outln!("{line}")?;
        }
    }
    for s in &all {
        outln!(
            "{} ({}): {} positions in {} records, {} bytes on disk",
            s["dir"].as_str().unwrap_or(""),
            s["variant"].as_str().unwrap_or(""),
            s["positions"],
            s["records"],
            s["bytes"]
        )?;
        outln!(
            "  side to move wins {}, loses {}; no forced win for white {}, for black {}",
            s["wins"],
            s["losses"],
            s["no_win_white"],
            s["no_win_black"]
        )?;
        outln!(
            "  compacted table: {} records; logs: {} records{}",
            s["table_records"],
            s["log_records"],
            if s["torn_bytes"].as_u64().unwrap_or(0) > 0 {
                format!(" ({} bytes of a torn write dropped)", s["torn_bytes"])
            } else {
                String::new()
            }
        )?;
        if let Some(damage) = s["damage"].as_str() {
            outln!("  DAMAGED: {damage}")?;
        }
        for c in s["checkpoints"].as_array().into_iter().flatten() {
            if let Some(e) = c.get("error") {
                outln!(
                    "  checkpoint {}: unreadable: {}",
                    c["file"].as_str().unwrap_or(""),
                    e.as_str().unwrap_or("")
                )?;
            } else {
                outln!(
                    "  unfinished search: {} win? in {}: {} nodes, {} leaf searches, {:.0} s, outer tree {} nodes, root pn {} dn {}",
                    c["attacker"].as_str().unwrap_or(""),
                    c["root_fen"].as_str().unwrap_or(""),
                    c["nodes"],
                    c["leaf_searches"],
                    c["seconds"].as_f64().unwrap_or(0.0),
                    c["outer_nodes"],
                    c["root_pn"],
                    c["root_dn"]
                )?;
                if let Some(fen) = c["frontier_fen"].as_str() {
                    let line: Vec<&str> = c["most_proving_line"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|m| m.as_str())
                        .collect();
                    outln!(
                        "    most-proving line: {} -> {fen} (pn {} dn {})",
                        if line.is_empty() {
                            "(the root)".to_string()
                        } else {
                            line.join(" ")
                        },
                        c["frontier_pn"],
                        c["frontier_dn"]
                    )?;
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The files of the store folder `dir` and what they hold, read without
/// the lock: a compaction that replaces files meanwhile (a log gone
/// between the listing and its reading) makes it list and read again, up
/// to ten times.
fn read_consistent(
    dir: &Path,
    variant: Variant,
) -> Result<(solved::StoreFiles, solved::Merged), StoreError> {
    let mut tries = 0;
    loop {
        let files = scan(dir)?;
        match read_merged(&files, variant.name()) {
            Err(StoreError::Io { error, .. })
                if error.kind() == std::io::ErrorKind::NotFound && tries < 10 =>
            {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            read => return read.map(|merged| (files, merged)),
        }
    }
}

/// The most-proving line of a checkpoint, read with `variant`'s rules.
fn frontier_of(
    variant: Variant,
    path: &Path,
    summary: &checkpoint::Summary,
) -> anyhow::Result<checkpoint::Frontier> {
    let root = AnyPosition::from_setup(variant, &ransom::notation::fen::parse(&summary.root_fen)?)?;
    let attacker = summary.attacker;
    Ok(dispatch!(root, p => checkpoint::frontier(path, &p, attacker))?)
}

fn compact(target: &StoreTarget) -> anyhow::Result<ExitCode> {
    let mut out = Vec::new();
    for variant in variants(target)? {
        let mut progress = Progress::busy("store compact", target.quiet);
        progress.set_message(variant_dir(&target.dir, variant).display().to_string());
        let report = solved::compact(&target.dir, variant, target.wait)?;
        progress.finish();
        if !target.json {
            outln!(
                "{}: {} positions from {} records; {} -> {} bytes",
                variant_dir(&target.dir, variant).display(),
                report.positions,
                report.records_read,
                report.bytes_before,
                report.bytes_after
            )?;
        }
        out.push(serde_json::json!({
            "variant": variant.name(), "positions": report.positions, "records_read": report.records_read,
            "bytes_before": report.bytes_before, "bytes_after": report.bytes_after,
            "table": report.table.map(|t| t.display().to_string()),
        }));
    }
    if target.json {
        outln!("{}", serde_json::json!({ "compacted": out }))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn verify(args: &VerifyTarget) -> anyhow::Result<ExitCode> {
    let target = &args.target;
    let mut failed = false;
    let mut out = Vec::new();
    if let Some(syzygy) = &args.syzygy {
        // Refused here, before any work, if the tables cannot be used.
        ransom::search::leaf_oracle::syzygy_oracle::<
            ransom::variants::Losing<ransom::variants::International>,
        >(syzygy)
        .map_err(|e| anyhow::anyhow!(e))?;
    }
    for variant in variants(target)? {
        let dir = target.dir.clone();
        let tables = (!args.no_tablebases).then(|| args.tablebases.clone());
        let syzygy = args.syzygy.clone();
        let wait = target.wait;
        let start = AnyPosition::start(variant);
        let mut progress = Progress::busy("store verify", target.quiet);
        progress.set_message(format!(
            "re-proving {}",
            variant_dir(&target.dir, variant).display()
        ));
        let result = std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn(move || dispatch!(start, p => check(&p, &dir, tables.as_deref(), syzygy.as_deref(), wait)))?
            .join()
            .map_err(|_| anyhow::anyhow!("the verifier thread panicked"))?;
        progress.finish();
        let name = variant_dir(&target.dir, variant).display().to_string();
        match result {
            Ok(c) => {
                let mut problems: Vec<String> = c.damage.iter().cloned().collect();
                for (path, problem) in &c.damaged_checkpoints {
                    problems.push(format!("{}: damaged checkpoint: {problem}", path.display()));
                }
                let torn = if c.torn_bytes > 0 {
                    format!("; {} bytes of a torn write dropped", c.torn_bytes)
                } else {
                    String::new()
                };
                if !target.json {
                    let status = if problems.is_empty() { "OK" } else { "DAMAGED" };
                    outln!(
                        "{status}: {name}: {} positions ({} records); {} wins and {} losses re-proved ({} positions walked); {} no-forced-win records (search results, not re-provable); {} checkpoints read{torn}",
                        c.positions,
                        c.records,
                        c.wins,
                        c.losses,
                        c.walked,
                        c.no_wins,
                        c.checkpoints,
                    )?;
                    if c.damage.is_some() {
                        errln!(
                            "DAMAGED: {name}: {}\n(the {} positions that remain were re-proved; `ransom store compact {}` keeps them and accepts the loss, a backup of the log restores it)",
                            c.damage.as_deref().unwrap_or(""),
                            c.positions,
                            target.dir.display()
                        );
                    }
                    for (path, problem) in &c.damaged_checkpoints {
                        errln!(
                            "DAMAGED: {}: damaged checkpoint: {problem}\n(the saved outer tree of an unfinished search: remove it and that search starts afresh, keeping the store's positions; or restore it from a backup)",
                            path.display()
                        );
                    }
                }
                failed |= !problems.is_empty();
                out.push(serde_json::json!({"ok": problems.is_empty(), "store": name, "positions": c.positions, "records": c.records,
                    "wins": c.wins, "losses": c.losses, "no_wins": c.no_wins, "walked": c.walked, "torn_bytes": c.torn_bytes,
                    "lost_records": c.lost_records, "lost_bytes": c.lost_bytes, "checkpoints": c.checkpoints,
                    "damaged_checkpoints": c.damaged_checkpoints.iter().map(|(p, why)| serde_json::json!({"file": p.display().to_string(), "problem": why})).collect::<Vec<_>>(),
                    "problems": problems}));
            }
            Err(ransom::search::StoreCheckError::Store(e @ StoreError::Busy { .. })) => {
                failed = true;
                if !target.json {
                    errln!("BUSY (not checked): {e}");
                }
                out.push(serde_json::json!({"ok": false, "busy": true, "store": name, "error": e.to_string()}));
            }
            Err(e) => {
                failed = true;
                if !target.json {
                    errln!("FAILED: {e}");
                }
                out.push(serde_json::json!({"ok": false, "store": name, "error": e.to_string()}));
            }
        }
    }
    if target.json {
        outln!("{}", serde_json::json!({ "stores": out }))?;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn check<P: ransom::Position>(
    _witness: &P,
    dir: &Path,
    tables: Option<&Path>,
    syzygy: Option<&Path>,
    wait: bool,
) -> Result<ransom::search::StoreCheck, ransom::search::StoreCheckError> {
    // Syzygy tables are antichess tables: other variants' stores are
    // checked without them (the folder was checked before).
    let syzygy = syzygy.filter(|_| P::VARIANT == ransom::variants::Variant::Antichess);
    let oracle = leaf_oracle::<P>(tables, syzygy).ok().flatten();
    ransom::search::verify_store::<P>(dir, oracle.as_deref(), wait)
}
