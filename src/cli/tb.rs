//! `ransom tb`: build, plan, probe, verify and summarise Losing-chess tablebases.

use super::checks::counted;
use super::progress::Progress;
use ransom::notation::{fen, san, uci};
use ransom::tablebase::{self, BuildPhase, BuildProgress, Material, Tablebase, TbError, Wdl};
use ransom::variants::{Fics, International, Losing, LosingRules};
use ransom::{Position, Variant};
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
    let v: Variant = name.parse()?;
    match v {
        Variant::Antichess | Variant::Suicide => Ok(v),
        other => anyhow::bail!("tablebases exist for antichess and suicide, not {other}"),
    }
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
            let targets = targets(set.pieces, set.material.as_deref())?;
            let variant = losing_variant(&set.variant)?;
            let memory = match memory {
                Some(gb) if gb.is_finite() && *gb > 0.0 => (gb * 1e9) as u64,
                Some(gb) => anyhow::bail!("--memory {gb}: give a number of GB above 0"),
                None => default_build_memory(),
            };
            let checkpoint_every = match checkpoint_minutes {
                m if *m == 0.0 => None,
                m if m.is_finite() && *m > 0.0 => {
                    Some(std::time::Duration::from_secs_f64(m * 60.0))
                }
                m => {
                    anyhow::bail!("--checkpoint-minutes {m}: give a number of minutes, 0 for none")
                }
            };
            let options = tablebase::BuildOptions {
                wdl_only: *wdl_only,
                memory,
                checkpoint_every,
            };
            match announce(&set.dir, variant, &targets, *yes, *dry_run, options)? {
                Announced::Start => {}
                Announced::DryRun => return Ok(ExitCode::SUCCESS),
                Announced::NeedsYes => return Ok(ExitCode::from(2)),
            }
            let manifest = !no_manifest;
            match variant {
                Variant::Suicide => build::<Fics>(&set.dir, &targets, manifest, *quiet, options),
                _ => build::<International>(&set.dir, &targets, manifest, *quiet, options),
            }
        }
        TbCommand::Plan { set, format } => plan(
            losing_variant(&set.variant)?,
            &targets(set.pieces, set.material.as_deref())?,
            format,
            &set.dir,
        ),
        TbCommand::Probe {
            variant,
            fen,
            json,
            wdl,
            dir,
            syzygy,
        } => match (losing_variant(variant)?, syzygy) {
            (Variant::Suicide, Some(_)) => anyhow::bail!(
                "the Syzygy giveaway tables follow antichess rules (a stalemated side wins), not suicide's"
            ),
            (_, Some(tables)) => super::tb_syzygy::probe(tables, fen, *json),
            (Variant::Suicide, None) => probe::<Fics>(dir, fen, *json, *wdl),
            (_, None) => probe::<International>(dir, fen, *json, *wdl),
        },
        TbCommand::Verify { file, json } => verify(file, *json),
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
        } => match losing_variant(variant)? {
            Variant::Suicide => stats::<Fics>(dir, material, *json),
            _ => stats::<International>(dir, material, *json),
        },
    }
}

fn build<R: LosingRules>(
    dir: &Path,
    targets: &[Material],
    manifest: bool,
    quiet: bool,
    options: tablebase::BuildOptions,
) -> anyhow::Result<ExitCode> {
    super::checks::check_output_dir(dir)?;
    let start = std::time::Instant::now();
    let mut total_bytes = 0u64;
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
                    let mut held = String::new();
                    if b.load_seconds >= 0.5 {
                        held += &format!(" ({:.1}s reading the tables it reads)", b.load_seconds);
                    }
                    if b.sliced > 0 {
                        held += &format!(", {} read as promotion slices", b.sliced);
                    }
                    if b.file_lookups > 0 {
                        held += &format!(", {} lookups from files", b.file_lookups);
                    }
                    if let Some(level) = b.resumed_at {
                        held += &format!(", resumed at ply {level} from its checkpoint");
                    }
                    lock(&progress).note(&format!(
                        "[{done}/{total}] {} {}: {} bytes, {:.2}s{held}",
                        b.material,
                        if b.existed { "exists" } else { "built" },
                        b.bytes,
                        b.seconds
                    ));
                }
            },
        );
        finished.store(true, Ordering::Relaxed);
        result
    })?;
    lock(&progress).finish();
    for b in &built {
        total_bytes += b.bytes;
    }
    if manifest {
        let update = tablebase::update_manifest(dir, R::VARIANT)?;
        if update.written {
            errln!("manifest: {}", update.path.display());
        } else if !update.unlisted.is_empty() {
            errln!(
                "manifest: {} left as it is; {} not listed there (`ransom tb manifest --dir {}` lists every table)",
                update.path.display(),
                super::checks::counted(update.unlisted.len() as u64, "table is", "tables are"),
                dir.display()
            );
        }
        for name in &update.differing {
            errln!(
                "warning: {name} differs from the entry of {} (a build must give the same bytes: rebuild it, or rewrite the manifest with `ransom tb manifest`)",
                update.path.display()
            );
        }
    }
    outln!(
        "{} for {} in {} ({} new), {} bytes, {:.1}s",
        super::checks::counted(built.len() as u64, "table", "tables"),
        R::VARIANT.name(),
        dir.display(),
        built.iter().filter(|b| !b.existed).count(),
        total_bytes,
        start.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Three quarters of this machine's memory (`MemTotal` of /proc/meminfo;
/// 12 GB where that cannot be read).
fn default_build_memory() -> u64 {
    let total_kb = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|rest| {
                    rest.trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse::<u64>()
                        .ok()
                })
        });
    total_kb.map_or(12_000_000_000, |kb| kb * 1024 / 4 * 3)
}

/// The most men a build starts without `--yes`.
const MEN_WITHOUT_YES: usize = 4;

/// What follows the estimate of a build.
enum Announced {
    /// The build starts.
    Start,
    /// `--dry-run`: the estimate was all that was asked for.
    DryRun,
    /// The build goes beyond the 4-man set and `--yes` was not given.
    NeedsYes,
}

/// Prints what the build will cost and says whether it starts.
fn announce(
    dir: &Path,
    variant: Variant,
    targets: &[Material],
    yes: bool,
    dry_run: bool,
    options: tablebase::BuildOptions,
) -> anyhow::Result<Announced> {
    let e = tablebase::estimate(dir, variant, targets, options);
    if e.missing == 0 {
        errln!(
            "{}: all present in {}",
            counted(e.tables as u64, "table", "tables"),
            dir.display()
        );
        return Ok(if dry_run {
            Announced::DryRun
        } else {
            Announced::Start
        });
    }
    errln!(
        "{} to build of {} ({} indices): about {} on disk, {} on 2 cores, {} of memory at the peak (scaled from measured builds: the 2-4-man set, KRPvKN's 5-man tables)",
        counted(e.missing as u64, "table", "tables"),
        e.tables,
        e.indices,
        indicatif::HumanBytes(e.bytes),
        human_duration(e.seconds),
        indicatif::HumanBytes(e.peak_memory),
    );
    if dry_run {
        return Ok(Announced::DryRun);
    }
    if e.most_men > MEN_WITHOUT_YES && !yes {
        errln!(
            "error: this build goes beyond the {MEN_WITHOUT_YES}-man set (tables of {} men); add --yes to start it",
            e.most_men
        );
        return Ok(Announced::NeedsYes);
    }
    Ok(Announced::Start)
}

/// `seconds` as "7 s", "12 min" or "3.4 h".
fn human_duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{:.0} s", seconds.max(1.0))
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}

/// The tables `--material` or `--pieces` name.
fn targets(pieces: usize, material: Option<&str>) -> anyhow::Result<Vec<Material>> {
    match material {
        Some(text) => Ok(vec![Material::parse(text)?]),
        None => {
            if !(2..=tablebase::MAX_MEN).contains(&pieces) {
                anyhow::bail!("--pieces must be 2..={}", tablebase::MAX_MEN);
            }
            Ok(Material::all_up_to(pieces))
        }
    }
}

fn plan(
    variant: Variant,
    targets: &[Material],
    format: &str,
    dir: &Path,
) -> anyhow::Result<ExitCode> {
    let plan = tablebase::plan(targets);
    let file = |m: &Material| tablebase::table_path(dir, variant, m).display().to_string();
    match format {
        "text" => {
            for (m, reads) in &plan {
                let reads: Vec<String> = reads.iter().map(|r| r.to_string()).collect();
                outln!("{m}: {}", reads.join(" "))?;
            }
        }
        "json" => {
            let jobs: Vec<serde_json::Value> = plan
                .iter()
                .map(|(m, reads)| {
                    serde_json::json!({
                        "material": m.to_string(),
                        "file": file(m),
                        "wdl_file": tablebase::wdl_path(dir, variant, m).display().to_string(),
                        "reads": reads.iter().map(|r| r.to_string()).collect::<Vec<_>>(),
                        "opens": m.needs().iter().map(|r| r.to_string()).collect::<Vec<_>>(),
                        "positions": tablebase::Layout::new(*m).size(),
                        "memory_bytes": tablebase::job_memory(m, reads),
                        "memory_bytes_all_held": tablebase::job_memory_all_held(m, reads),
                    })
                })
                .collect();
            outln!(
                "{}",
                serde_json::json!({"variant": variant.name(), "jobs": jobs})
            )?;
        }
        "make" => {
            outln!("# ransom tb plan --format make: one job per table; run with make -j N")?;
            outln!("RANSOM ?= ransom")?;
            outln!("# memory (GB) of one job, e.g. TB_MEMORY=12; empty: 3/4 of the machine's")?;
            outln!("TB_MEMORY ?=")?;
            let all: Vec<String> = plan.iter().map(|(m, _)| file(m)).collect();
            outln!(".PHONY: all")?;
            outln!("all: {}", all.join(" "))?;
            outln!(
                "\t$(RANSOM) tb manifest --variant {} --dir {}",
                variant.name(),
                dir.display()
            )?;
            for (m, reads) in &plan {
                let deps: Vec<String> = reads.iter().map(file).collect();
                outln!("{}: {}", file(m), deps.join(" "))?;
                outln!(
                    "\t$(RANSOM) tb build --variant {} --material {m} --dir {} --no-manifest --yes $(if $(TB_MEMORY),--memory $(TB_MEMORY))",
                    variant.name(),
                    dir.display()
                )?;
            }
        }
        other => anyhow::bail!("--format must be text, json or make, not '{other}'"),
    }
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
        let phase = phase_label(state);
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

/// What the build is doing with its current table, for the progress line.
fn phase_label(state: &BuildProgress) -> String {
    let (size, analysed) = (
        state.size.load(Ordering::Relaxed),
        state.analysed.load(Ordering::Relaxed),
    );
    let level = state.level.load(Ordering::Relaxed);
    match state.phase() {
        BuildPhase::Reading => {
            let table = state.reading.lock().unwrap_or_else(|e| e.into_inner());
            if table.is_empty() {
                "reading the tables it reads".to_string()
            } else {
                format!("reading the tables it reads ({table})")
            }
        }
        BuildPhase::Writing => "writing its files".to_string(),
        BuildPhase::Checkpointing => format!("writing a checkpoint (ply {level})"),
        BuildPhase::Generating if analysed < size => {
            format!("analysis {:.1}%", 100.0 * analysed as f64 / size as f64)
        }
        BuildPhase::Generating => format!("distance {level} plies"),
    }
}

fn lock(progress: &Mutex<Progress>) -> std::sync::MutexGuard<'_, Progress> {
    progress.lock().unwrap_or_else(|e| e.into_inner())
}

fn category(w: Wdl) -> &'static str {
    w.name()
}

fn probe<R: LosingRules>(
    dir: &Path,
    text: &str,
    json: bool,
    wdl_only: bool,
) -> anyhow::Result<ExitCode> {
    let pos: Losing<R> = fen::parse_position(text)?;
    let tb = Tablebase::<R>::open(dir);
    let legal = pos.legal_moves();
    // A finished game has no moves to list (as `moves` says).
    let over = pos.outcome();
    let (w, d, moves) = if wdl_only {
        let w = tb.try_probe_wdl(&pos)?;
        let mut moves = Vec::new();
        if over.is_none() {
            for &m in legal.iter() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                moves.push((m, tb.try_probe_wdl(&child)?, None));
            }
            moves.sort_by_key(|&(_, w, _)| match w {
                Wdl::Loss => 0,
                Wdl::Draw => 1,
                Wdl::Win => 2,
            });
        }
        (w, None, moves)
    } else {
        let (w, d) = tb.try_probe(&pos)?;
        let moves = if over.is_some() {
            Vec::new()
        } else {
            tb.probe_moves(&pos)?
                .into_iter()
                .map(|(m, w, d)| (m, w, Some(d)))
                .collect()
        };
        (w, Some(d), moves)
    };
    if json {
        let rows: Vec<serde_json::Value> = moves
            .iter()
            .map(|&(m, mw, md)| {
                serde_json::json!({
                    "uci": uci::write(m),
                    "san": san::write_in::<Losing<R>>(&legal, m),
                    "category": category(mw),
                    "dtw": md.and_then(|md| signed(mw, md)),
                })
            })
            .collect();
        let out = serde_json::json!({
            "category": category(w),
            "dtw": d.and_then(|d| signed(w, d)),
            "moves": rows,
            "game_over": over.map(|o| o.to_string()),
            "source": "tablebase",
        });
        outln!("{out}")?;
    } else {
        outln!("fen: {}", fen::write(&pos))?;
        match d {
            Some(d) => outln!("{} for the side to move, dtw {}", category(w), show(w, d))?,
            None => outln!("{} for the side to move", category(w))?,
        }
        if let Some(outcome) = over {
            outln!("game over: {outcome}")?;
        }
        for (m, mw, md) in moves {
            outln!(
                "  {:8} {:8} {} (opponent) {}",
                uci::write(m),
                san::write_in::<Losing<R>>(&legal, m),
                category(mw),
                md.map_or(String::new(), |md| show(mw, md))
            )?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn signed(w: Wdl, d: u16) -> Option<i32> {
    match w {
        Wdl::Win => Some(d as i32),
        Wdl::Loss => Some(-(d as i32)),
        Wdl::Draw => None,
    }
}

fn show(w: Wdl, d: u16) -> String {
    signed(w, d).map_or("-".into(), |v| v.to_string())
}

fn verify(file: &Path, json: bool) -> anyhow::Result<ExitCode> {
    // A file named as a table (`antichess-KRvK.rtb`) must hold that table,
    // of that rule set: probes find tables by name.
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let named = [Variant::Antichess, Variant::Suicide]
        .into_iter()
        .find_map(|v| tablebase::material_of_file(name, v).map(|m| (v, m)));
    let reader = match named {
        Some((v, material)) => tablebase::open_table(file, Some(v), Some(&material?))?,
        None => tablebase::open_table(file, None, None)?,
    };
    let variant = losing_variant(reader.variant())?;
    drop(reader);
    // The tables it leads to are read from beside it, into memory.
    let file = if file.parent().is_some_and(|p| p.as_os_str().is_empty()) {
        Path::new(".").join(file)
    } else {
        file.to_path_buf()
    };
    let report = match variant {
        Variant::Suicide => tablebase::verify_table_file::<Fics>(&file)?,
        _ => tablebase::verify_table_file::<International>(&file)?,
    };
    if json {
        outln!(
            "{}",
            serde_json::json!({
                "ok": report.first_error.is_none(),
                "material": report.material.to_string(),
                "positions": report.positions,
                "longest_win": (report.longest_win > 0).then_some(report.longest_win),
                "longest_win_fen": report.longest_win_fen,
                "error": report.first_error,
            })
        )?;
    } else {
        match &report.first_error {
            None => {
                outln!(
                    "OK: {} {}: {} positions consistent with their successors",
                    variant.name(),
                    report.material,
                    report.positions
                )?;
                if let Some(fen) = &report.longest_win_fen {
                    outln!("longest win: {} plies, {fen}", report.longest_win)?;
                }
            }
            Some(e) => outln!("INCONSISTENT: {} {}: {e}", variant.name(), report.material)?,
        }
    }
    Ok(if report.first_error.is_none() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

fn stats<R: LosingRules>(dir: &Path, material: &str, json: bool) -> anyhow::Result<ExitCode> {
    let m = Material::parse(material)?;
    let s = tablebase::stats_in_dir::<R>(dir, &m).map_err(|e: TbError| anyhow::anyhow!(e))?;
    if json {
        outln!("{}", serde_json::to_string(&s)?)?;
    } else {
        outln!("{} ({})", s.material, R::VARIANT.name())?;
        for (t, side) in ["white", "black"].iter().enumerate() {
            outln!(
                "  {side} to move: {} wins, {} draws, {} losses",
                s.wins[t],
                s.draws[t],
                s.losses[t]
            )?;
        }
        outln!("  longest win: {} plies ({})", s.longest_win, s.longest_fen)?;
        outln!(
            "  longest with the winner to move: {}, with the loser to move: {}",
            s.longest_win_to_move,
            s.longest_loss_to_move
        )?;
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The progress line names what the build is doing with its table:
    /// reading what it reads, its analysis, its distance, a checkpoint or
    /// its files (a table's reading once showed the last table's distance).
    #[test]
    fn the_progress_line_names_the_phase() {
        let state = BuildProgress::default();
        state.size.store(200, Ordering::Relaxed);
        state.analysed.store(200, Ordering::Relaxed);
        state.level.store(82, Ordering::Relaxed);
        state.set_phase(BuildPhase::Reading);
        assert_eq!(phase_label(&state), "reading the tables it reads");
        *state.reading.lock().unwrap() = "KQNvKP, 12 of 172".to_string();
        assert_eq!(
            phase_label(&state),
            "reading the tables it reads (KQNvKP, 12 of 172)"
        );
        state.set_phase(BuildPhase::Generating);
        assert_eq!(phase_label(&state), "distance 82 plies");
        state.analysed.store(50, Ordering::Relaxed);
        assert_eq!(phase_label(&state), "analysis 25.0%");
        state.set_phase(BuildPhase::Checkpointing);
        assert_eq!(phase_label(&state), "writing a checkpoint (ply 82)");
        state.set_phase(BuildPhase::Writing);
        assert_eq!(phase_label(&state), "writing its files");
    }
}
