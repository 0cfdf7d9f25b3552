//! `ransom tb`: build, plan, probe, verify and summarise Losing-chess tablebases.

use super::progress::Progress;
use ransom::Variant;
use ransom::tablebase::{self, BuildProgress, Material, PlanListing, TbError};
use ransom::variants::{Fics, International, LosingRules};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Arguments of `ransom tb`.
#[derive(Debug, clap::Args)]
pub struct TbArgs {
    #[command(subcommand)]
    command: TbCommand,
}

/// A set of tables: every one up to `--pieces` men, or `--material` and
/// what it needs, of a rule set, in a folder.
#[derive(Debug, clap::Args)]
struct TableSet {
    /// antichess or suicide.
    #[arg(long, short = 'v', default_value = "antichess")]
    variant: String,
    /// Every table with up to this many men.
    #[arg(long, default_value_t = 3)]
    pieces: usize,
    /// This table (and what it needs) instead, e.g. KRvK.
    #[arg(long)]
    material: Option<String>,
    /// Table directory.
    #[arg(long, default_value = "tablebases")]
    dir: PathBuf,
}

#[derive(Debug, clap::Subcommand)]
enum TbCommand {
    /// Build the missing tables (smallest first; existing tables are kept, so a run resumes).
    Build {
        #[command(flatten)]
        set: TableSet,
        /// Do not write a manifest in a folder that has none (for parallel
        /// jobs of a plan: `tb manifest` writes it once at the end). A
        /// manifest that exists is never changed by a build.
        #[arg(long)]
        no_manifest: bool,
        /// Start a build that goes beyond the 4-man set (its estimate of
        /// tables, disk, time and memory is printed first).
        #[arg(long)]
        yes: bool,
        /// Print the estimate (tables to build, disk, time, memory) and
        /// exit without building, whatever the size.
        #[arg(long, conflicts_with = "yes")]
        dry_run: bool,
        /// No progress bar and no line per table (the summary stays).
        #[arg(long, short = 'q')]
        quiet: bool,
        /// Write only the win/draw/loss files (`.rwdl`), not the distance
        /// files; tables read from the folder may then be WDL-only too.
        #[arg(long)]
        wdl_only: bool,
        /// Memory (GB) for the tables kept between jobs and the table being
        /// built; past it, tables read later are dropped and read again
        /// from their files. Default: three quarters of this machine's memory.
        #[arg(long)]
        memory: Option<f64>,
        /// Minutes between checkpoints of a table being built
        /// (`DIR/VARIANT-KEY.checkpoint`): a build stopped in the middle of
        /// a long table resumes it from its last checkpoint. 0: none.
        #[arg(long, default_value_t = 10.0)]
        checkpoint_minutes: f64,
    },
    /// Print the build plan: every table the set needs with the tables it
    /// reads, in build order (text, JSON, or a Makefile for `make -j`).
    Plan {
        #[command(flatten)]
        set: TableSet,
        /// Output: text, json or make.
        #[arg(long, default_value = "text")]
        format: String,
    },
    /// Value of a position and of every legal move.
    Probe {
        /// antichess or suicide.
        #[arg(long, short = 'v', default_value = "antichess")]
        variant: String,
        /// The position.
        #[arg(long)]
        fen: String,
        /// Print JSON shaped like the lichess tablebase API.
        #[arg(long)]
        json: bool,
        /// Categories only, from the win/draw/loss files (no distance file
        /// is read; `dtw` is left out).
        #[arg(long)]
        wdl: bool,
        /// Table directory.
        #[arg(long, default_value = "tablebases")]
        dir: PathBuf,
        /// Answer from the Syzygy giveaway tables (*.gtbw, *.gtbz) of this
        /// folder instead (antichess only; a binary built with the
        /// `syzygy` feature).
        #[arg(long)]
        syzygy: Option<PathBuf>,
    },
    /// Re-check every stored position of a table file (each position without
    /// a capture) against its successors.
    Verify {
        /// The table file (the tables it leads to are read from beside it).
        file: PathBuf,
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
    /// Write the checksum manifest of a table folder, or check the tables against it.
    Manifest {
        /// antichess or suicide.
        #[arg(long, short = 'v', default_value = "antichess")]
        variant: String,
        /// Compare the tables with the manifest instead of writing it (exit 1 on any difference).
        #[arg(long)]
        check: bool,
        /// Table directory.
        #[arg(long, default_value = "tablebases")]
        dir: PathBuf,
    },
    /// Win/draw/loss counts over all placements and the longest win.
    Stats {
        /// antichess or suicide.
        #[arg(long, short = 'v', default_value = "antichess")]
        variant: String,
        /// Material key, e.g. KRvK.
        #[arg(long)]
        material: String,
        /// Print JSON.
        #[arg(long)]
        json: bool,
        /// Table directory.
        #[arg(long, default_value = "tablebases")]
        dir: PathBuf,
    },
}

fn losing_variant(name: &str) -> anyhow::Result<Variant> {
    Ok(tablebase::losing_variant(name.parse()?)?)
}

pub fn run(args: &TbArgs) -> anyhow::Result<ExitCode> {
    match &args.command {
        TbCommand::Build {
            set,
            no_manifest,
            yes,
            dry_run,
            quiet,
            wdl_only,
            memory,
            checkpoint_minutes,
        } => {
            let options = build_options(*wdl_only, *memory, *checkpoint_minutes)?;
            let request = BuildRequest {
                manifest: !no_manifest,
                yes: *yes,
                dry_run: *dry_run,
                quiet: *quiet,
            };
            build_command(set, request, options)
        }
        TbCommand::Plan { set, format } => {
            let variant = losing_variant(&set.variant)?;
            let targets = tablebase::targets(set.pieces, set.material.as_deref())?;
            let listing = PlanListing::of(variant, &targets, &set.dir);
            match format.as_str() {
                "text" => out!("{listing}")?,
                "json" => outln!("{}", serde_json::to_string(&listing)?)?,
                "make" => out!("{}", listing.makefile())?,
                other => anyhow::bail!("--format must be text, json or make, not '{other}'"),
            }
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Probe {
            variant,
            fen,
            json,
            wdl,
            dir,
            syzygy,
        } => {
            let report = match (losing_variant(variant)?, syzygy) {
                (Variant::Suicide, Some(_)) => anyhow::bail!(
                    "the Syzygy giveaway tables follow antichess rules (a stalemated side wins), not suicide's"
                ),
                (_, Some(tables)) => return super::tb_syzygy::probe(tables, fen, *json),
                (Variant::Suicide, None) => tablebase::probe_report::<Fics>(dir, fen, *wdl)?,
                (_, None) => tablebase::probe_report::<International>(dir, fen, *wdl)?,
            };
            super::print_report(&report, *json)?;
            Ok(ExitCode::SUCCESS)
        }
        TbCommand::Verify { file, json } => {
            let check = tablebase::check_table(file)?;
            super::print_report(&check, *json)?;
            Ok(if check.ok {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            })
        }
        TbCommand::Manifest {
            variant,
            check,
            dir,
        } => manifest(losing_variant(variant)?, *check, dir),
        TbCommand::Stats {
            variant,
            material,
            json,
            dir,
        } => stats(losing_variant(variant)?, material, *json, dir),
    }
}

/// The flags of `tb build` that are not its tables.
struct BuildRequest {
    manifest: bool,
    yes: bool,
    dry_run: bool,
    quiet: bool,
}

/// `--wdl-only`, `--memory GB` and `--checkpoint-minutes M`, checked.
fn build_options(
    wdl_only: bool,
    memory: Option<f64>,
    checkpoint_minutes: f64,
) -> anyhow::Result<tablebase::BuildOptions> {
    let memory = match memory {
        Some(gb) if gb.is_finite() && gb > 0.0 => (gb * 1e9) as u64,
        Some(gb) => anyhow::bail!("--memory {gb}: give a number of GB above 0"),
        None => tablebase::default_build_memory(),
    };
    let checkpoint_every = match checkpoint_minutes {
        0.0 => None,
        m if m.is_finite() && m > 0.0 => Some(std::time::Duration::from_secs_f64(m * 60.0)),
        m => anyhow::bail!("--checkpoint-minutes {m}: give a number of minutes, 0 for none"),
    };
    Ok(tablebase::BuildOptions {
        wdl_only,
        memory,
        checkpoint_every,
    })
}

/// `tb build`: the estimate, then the build unless it is a dry run or
/// goes beyond the 4-man set without `--yes` (exit 2).
fn build_command(
    set: &TableSet,
    request: BuildRequest,
    options: tablebase::BuildOptions,
) -> anyhow::Result<ExitCode> {
    let targets = tablebase::targets(set.pieces, set.material.as_deref())?;
    let variant = losing_variant(&set.variant)?;
    let estimate = tablebase::estimate(&set.dir, variant, &targets, options);
    errln!("{}", estimate.describe(&set.dir));
    if request.dry_run {
        return Ok(ExitCode::SUCCESS);
    }
    if estimate.most_men > MEN_WITHOUT_YES && !request.yes {
        errln!(
            "error: this build goes beyond the {MEN_WITHOUT_YES}-man set (tables of {} men); add --yes to start it",
            estimate.most_men
        );
        return Ok(ExitCode::from(2));
    }
    let (manifest, quiet) = (request.manifest, request.quiet);
    match variant {
        Variant::Suicide => build::<Fics>(&set.dir, &targets, manifest, quiet, options),
        _ => build::<International>(&set.dir, &targets, manifest, quiet, options),
    }
}

/// `tb stats`: a table's counts.
fn stats(variant: Variant, material: &str, json: bool, dir: &Path) -> anyhow::Result<ExitCode> {
    let material = Material::parse(material)?;
    let stats = match variant {
        Variant::Suicide => tablebase::stats_in_dir::<Fics>(dir, &material),
        _ => tablebase::stats_in_dir::<International>(dir, &material),
    }
    .map_err(|e: TbError| anyhow::anyhow!(e))?;
    super::print_report(&tablebase::StatsReport { stats, variant }, json)?;
    Ok(ExitCode::SUCCESS)
}

/// The most men a build starts without `--yes`.
const MEN_WITHOUT_YES: usize = 4;

fn build<R: LosingRules>(
    dir: &Path,
    targets: &[Material],
    manifest: bool,
    quiet: bool,
    options: tablebase::BuildOptions,
) -> anyhow::Result<ExitCode> {
    super::arguments::check_output_dir(dir)?;
    let start = std::time::Instant::now();
    let state = BuildProgress::default();
    let progress = Mutex::new(Progress::new("tb build", None, quiet));
    let finished = AtomicBool::new(false);
    let built = std::thread::scope(|scope| {
        if !quiet {
            scope.spawn(|| follow_build(&state, &finished, &progress));
        }
        let result = tablebase::build_with_progress::<R>(
            dir,
            targets,
            &state,
            options,
            |done, total, b| {
                if let Some(why) = &b.checkpoint_ignored {
                    // Said even with --quiet: the time it should have saved is lost.
                    lock(&progress).note(&format!(
                    "warning: {}'s checkpoint could not be used ({why}); the table was built from the start",
                    b.material
                ));
                }
                if !quiet {
                    lock(&progress).note(&b.summary(done, total));
                }
            },
        );
        finished.store(true, Ordering::Relaxed);
        result
    })?;
    lock(&progress).finish();
    if manifest {
        for line in tablebase::update_manifest(dir, R::VARIANT)?.messages(dir) {
            errln!("{line}");
        }
    }
    outln!(
        "{} for {} in {} ({} new), {} bytes, {:.1}s",
        ransom::text::counted(built.len() as u64, "table", "tables"),
        R::VARIANT.name(),
        dir.display(),
        built.iter().filter(|b| !b.existed).count(),
        built.iter().map(|b| b.bytes).sum::<u64>(),
        start.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

fn manifest(variant: Variant, check: bool, dir: &Path) -> anyhow::Result<ExitCode> {
    if !check {
        let path = tablebase::write_manifest(dir, variant)?;
        let entries = tablebase::read_manifest(&path)?;
        outln!("{}: {} files", path.display(), entries.len())?;
        return Ok(ExitCode::SUCCESS);
    }
    let problems = tablebase::check_manifest(dir, variant)?;
    if problems.is_empty() {
        let path = tablebase::manifest_path(dir, variant);
        outln!("OK: every table agrees with {}", path.display())?;
        Ok(ExitCode::SUCCESS)
    } else {
        for p in &problems {
            outln!("{p}")?;
        }
        Ok(ExitCode::from(1))
    }
}

/// Follows the build on `progress` until `finished`: the whole build by
/// positions, and the table being built with its analysis or iteration.
fn follow_build(state: &BuildProgress, finished: &AtomicBool, progress: &Mutex<Progress>) {
    while !finished.load(Ordering::Relaxed) {
        std::thread::sleep(std::time::Duration::from_millis(250));
        let (size, analysed) = (
            state.size.load(Ordering::Relaxed),
            state.analysed.load(Ordering::Relaxed),
        );
        let table = state.current.lock().map(|s| s.clone()).unwrap_or_default();
        let phase = state.phase_label();
        let mut p = lock(progress);
        let positions = state.positions.load(Ordering::Relaxed);
        if positions > 0 {
            p.set_length(positions);
        }
        let tables = state.tables.load(Ordering::Relaxed);
        let current = (state.tables_done.load(Ordering::Relaxed) + 1).min(tables);
        p.set_message(format!("table {current}/{tables} {table}: {phase}"));
        // Tables found already built take no time: the estimate of the
        // time left counts only the positions this run has worked on.
        p.set_baseline(state.positions_found.load(Ordering::Relaxed));
        // Positions of finished tables, and those the current table's
        // analysis has passed (its iteration has no count of its own).
        p.set_position(state.positions_done.load(Ordering::Relaxed) + analysed.min(size));
    }
}

fn lock(progress: &Mutex<Progress>) -> std::sync::MutexGuard<'_, Progress> {
    progress.lock().unwrap_or_else(|e| e.into_inner())
}
