//! What the `tb` commands report, as types: a probe with the value of every
//! move ([`TbProbeReport`]), a table re-checked ([`TableCheck`]), a table's
//! counts ([`StatsReport`]), a build's plan ([`PlanListing`]) and its
//! estimate; each serializes for `--json` and writes itself as text.

use super::{
    Estimate, Material, Stats, Tablebase, TbError, VerifyReport, Wdl, job_memory,
    job_memory_all_held, material_of_file, open_table, table_path, verify_table_file, wdl_path,
};
use crate::Variant;
use crate::notation::fen::{self, FenError};
use crate::notation::{san, uci};
use crate::position::Position;
use crate::text::{counted, human_bytes, human_duration};
use crate::variants::{Fics, International, Losing, LosingRules};
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a `tb` report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum TbReportError {
    /// The position given.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The tables.
    #[error(transparent)]
    Table(#[from] TbError),
    /// A table of a rule set this program does not know.
    #[error(transparent)]
    UnknownVariant(#[from] crate::variant::UnknownVariant),
    /// A variant without tables.
    #[error("tablebases exist for antichess and suicide, not {0}")]
    NoTables(Variant),
    /// `--pieces` out of range.
    #[error("--pieces must be 2..={}", super::MAX_MEN)]
    Pieces,
}

/// `variant` if it has tables (antichess or suicide).
pub fn losing_variant(variant: Variant) -> Result<Variant, TbReportError> {
    match variant {
        Variant::Antichess | Variant::Suicide => Ok(variant),
        other => Err(TbReportError::NoTables(other)),
    }
}

/// The tables `material` names, or every table of up to `pieces` men.
pub fn targets(pieces: usize, material: Option<&str>) -> Result<Vec<Material>, TbReportError> {
    match material {
        Some(text) => Ok(vec![Material::parse(text)?]),
        None if (2..=super::MAX_MEN).contains(&pieces) => Ok(Material::all_up_to(pieces)),
        None => Err(TbReportError::Pieces),
    }
}

/// A position's value from the tables, with every move's.
#[derive(Clone, Debug, Serialize)]
pub struct TbProbeReport {
    /// The position (FEN).
    #[serde(skip)]
    pub fen: String,
    /// "win", "draw" or "loss" for the side to move.
    pub category: &'static str,
    /// Distance to the win in plies, signed for the side to move (`None`
    /// for a draw, or when only WDL was probed).
    pub dtw: Option<i32>,
    /// Whether distances were probed.
    #[serde(skip)]
    pub distances: bool,
    /// The moves, best first, valued for the opponent after them.
    pub moves: Vec<ProbedMove>,
    /// How the game ended at the position, if it did.
    pub game_over: Option<String>,
    /// Always "tablebase".
    pub source: &'static str,
}

/// One move of a probe.
#[derive(Clone, Debug, Serialize)]
pub struct ProbedMove {
    /// UCI.
    pub uci: String,
    /// SAN.
    pub san: String,
    /// The value for the opponent after it.
    pub category: &'static str,
    /// Its signed distance, where known.
    pub dtw: Option<i32>,
}

/// A distance signed for the side it is counted for.
fn signed(w: Wdl, d: u16) -> Option<i32> {
    match w {
        Wdl::Win => Some(d as i32),
        Wdl::Loss => Some(-(d as i32)),
        Wdl::Draw => None,
    }
}

/// Probes `fen_text` in the tables of `dir` (`wdl_only`: categories only).
pub fn probe_report<R: LosingRules>(
    dir: &Path,
    fen_text: &str,
    wdl_only: bool,
) -> Result<TbProbeReport, TbReportError> {
    let pos: Losing<R> = fen::parse_position(fen_text)?;
    let tb = Tablebase::<R>::open(dir);
    let legal = pos.legal_moves();
    // A finished game has no moves to list (as `moves` says).
    let over = pos.outcome();
    let (w, d, mut moves) = if wdl_only {
        let mut moves = Vec::new();
        if over.is_none() {
            for &m in legal.iter() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                moves.push((m, tb.try_probe_wdl(&child)?, None));
            }
        }
        (tb.try_probe_wdl(&pos)?, None, moves)
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
    if wdl_only {
        moves.sort_by_key(|&(_, w, _)| match w {
            Wdl::Loss => 0,
            Wdl::Draw => 1,
            Wdl::Win => 2,
        });
    }
    Ok(TbProbeReport {
        fen: fen::write(&pos),
        category: w.name(),
        dtw: d.and_then(|d| signed(w, d)),
        distances: d.is_some(),
        moves: moves
            .iter()
            .map(|&(m, mw, md)| ProbedMove {
                uci: uci::write(m),
                san: san::write_in::<Losing<R>>(&legal, m),
                category: mw.name(),
                dtw: md.and_then(|md| signed(mw, md)),
            })
            .collect(),
        game_over: over.map(|o| o.to_string()),
        source: "tablebase",
    })
}

/// A signed distance as the text shows it ("-" for none).
fn show(dtw: Option<i32>) -> String {
    dtw.map_or("-".into(), |v| v.to_string())
}

impl fmt::Display for TbProbeReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "fen: {}", self.fen)?;
        if self.distances {
            writeln!(
                f,
                "{} for the side to move, dtw {}",
                self.category,
                show(self.dtw)
            )?;
        } else {
            writeln!(f, "{} for the side to move", self.category)?;
        }
        if let Some(outcome) = &self.game_over {
            writeln!(f, "game over: {outcome}")?;
        }
        for m in &self.moves {
            let distance = if self.distances {
                show(m.dtw)
            } else {
                String::new()
            };
            writeln!(
                f,
                "  {:8} {:8} {} (opponent) {distance}",
                m.uci, m.san, m.category
            )?;
        }
        Ok(())
    }
}

/// A table file re-checked against its successors (`tb verify`).
#[derive(Clone, Debug, Serialize)]
pub struct TableCheck {
    /// Whether every position agrees with its successors.
    pub ok: bool,
    /// The table's material.
    pub material: String,
    /// Positions checked.
    pub positions: u64,
    /// The longest win in plies, if any.
    pub longest_win: Option<u16>,
    /// A position with it.
    pub longest_win_fen: Option<String>,
    /// The first inconsistency.
    pub error: Option<String>,
    /// The rule set.
    #[serde(skip)]
    pub variant: Variant,
}

/// Re-checks the table file `file` (its rule set read from it; a file
/// named as a table must hold that table). The tables it leads to are read
/// from beside it.
pub fn check_table(file: &Path) -> Result<TableCheck, TbReportError> {
    let name = file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let named = [Variant::Antichess, Variant::Suicide]
        .into_iter()
        .find_map(|v| material_of_file(name, v).map(|m| (v, m)));
    let reader = match named {
        Some((v, material)) => open_table(file, Some(v), Some(&material?))?,
        None => open_table(file, None, None)?,
    };
    let variant = losing_variant(reader.variant().parse::<Variant>()?)?;
    drop(reader);
    let file: PathBuf = if file.parent().is_some_and(|p| p.as_os_str().is_empty()) {
        Path::new(".").join(file)
    } else {
        file.to_path_buf()
    };
    let report: VerifyReport = match variant {
        Variant::Suicide => verify_table_file::<Fics>(&file)?,
        _ => verify_table_file::<International>(&file)?,
    };
    Ok(TableCheck {
        ok: report.first_error.is_none(),
        material: report.material.to_string(),
        positions: report.positions,
        longest_win: (report.longest_win > 0).then_some(report.longest_win),
        longest_win_fen: report.longest_win_fen,
        error: report.first_error,
        variant,
    })
}

impl fmt::Display for TableCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.variant.name();
        match &self.error {
            None => {
                writeln!(
                    f,
                    "OK: {v} {}: {} positions consistent with their successors",
                    self.material, self.positions
                )?;
                if let Some(fen) = &self.longest_win_fen {
                    writeln!(
                        f,
                        "longest win: {} plies, {fen}",
                        self.longest_win.unwrap_or(0)
                    )?;
                }
                Ok(())
            }
            Some(e) => writeln!(f, "INCONSISTENT: {v} {}: {e}", self.material),
        }
    }
}

/// A table's counts (`tb stats`).
#[derive(Clone, Debug, Serialize)]
pub struct StatsReport {
    /// The counts.
    #[serde(flatten)]
    pub stats: Stats,
    /// The rule set.
    #[serde(skip)]
    pub variant: Variant,
}

impl fmt::Display for StatsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.stats;
        writeln!(f, "{} ({})", s.material, self.variant.name())?;
        for (t, side) in ["white", "black"].iter().enumerate() {
            writeln!(
                f,
                "  {side} to move: {} wins, {} draws, {} losses",
                s.wins[t], s.draws[t], s.losses[t]
            )?;
        }
        writeln!(
            f,
            "  longest win: {} plies ({})",
            s.longest_win, s.longest_fen
        )?;
        writeln!(
            f,
            "  longest with the winner to move: {}, with the loser to move: {}",
            s.longest_win_to_move, s.longest_loss_to_move
        )
    }
}

/// The build plan of some tables (`tb plan`): each table with the tables
/// it reads.
#[derive(Clone, Debug, Serialize)]
pub struct PlanListing {
    /// The rule set.
    pub variant: &'static str,
    /// One job a table, in build order.
    pub jobs: Vec<PlanJob>,
    /// The tables' folder.
    #[serde(skip)]
    pub dir: PathBuf,
}

/// One table of a plan.
#[derive(Clone, Debug, Serialize)]
pub struct PlanJob {
    /// Its material.
    pub material: String,
    /// Its distance file.
    pub file: String,
    /// Its WDL file.
    pub wdl_file: String,
    /// The tables its generation reads.
    pub reads: Vec<String>,
    /// The tables it opens when probed.
    pub opens: Vec<String>,
    /// Its positions.
    pub positions: u64,
    /// Memory of its job with the build's memory policy.
    pub memory_bytes: u64,
    /// Memory of its job with every table it reads held.
    pub memory_bytes_all_held: u64,
}

impl PlanListing {
    /// The plan of `targets` for `variant`'s tables in `dir`.
    pub fn of(variant: Variant, targets: &[Material], dir: &Path) -> PlanListing {
        let names = |list: &[Material]| list.iter().map(|r| r.to_string()).collect();
        let jobs = super::plan(targets)
            .iter()
            .map(|(m, reads)| PlanJob {
                material: m.to_string(),
                file: table_path(dir, variant, m).display().to_string(),
                wdl_file: wdl_path(dir, variant, m).display().to_string(),
                reads: names(reads),
                opens: names(&m.needs()),
                positions: super::Layout::new(*m).size(),
                memory_bytes: job_memory(m, reads),
                memory_bytes_all_held: job_memory_all_held(m, reads),
            })
            .collect();
        PlanListing {
            variant: variant.name(),
            jobs,
            dir: dir.to_path_buf(),
        }
    }

    /// The plan as a Makefile: one target a table, `all` ends with the
    /// manifest.
    pub fn makefile(&self) -> String {
        let file_of = |material: &str| {
            self.jobs
                .iter()
                .find(|j| j.material == material)
                .map_or(material.to_string(), |j| j.file.clone())
        };
        let dir = self.dir.display();
        let v = self.variant;
        let mut text = String::new();
        text += "# ransom tb plan --format make: one job per table; run with make -j N\n";
        text += "RANSOM ?= ransom\n";
        text += "# memory (GB) of one job, e.g. TB_MEMORY=12; empty: 3/4 of the machine's\n";
        text += "TB_MEMORY ?=\n";
        let all: Vec<&str> = self.jobs.iter().map(|j| j.file.as_str()).collect();
        text += ".PHONY: all\n";
        text += &format!("all: {}\n", all.join(" "));
        text += &format!("\t$(RANSOM) tb manifest --variant {v} --dir {dir}\n");
        for job in &self.jobs {
            let deps: Vec<String> = job.reads.iter().map(|r| file_of(r)).collect();
            text += &format!("{}: {}\n", job.file, deps.join(" "));
            text += &format!(
                "\t$(RANSOM) tb build --variant {v} --material {} --dir {dir} --no-manifest --yes $(if $(TB_MEMORY),--memory $(TB_MEMORY))\n",
                job.material
            );
        }
        text
    }
}

impl fmt::Display for PlanListing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for job in &self.jobs {
            writeln!(f, "{}: {}", job.material, job.reads.join(" "))?;
        }
        Ok(())
    }
}

impl Estimate {
    /// What a build of these tables into `dir` will cost, as one line.
    pub fn describe(&self, dir: &Path) -> String {
        if self.missing == 0 {
            return format!(
                "{}: all present in {}",
                counted(self.tables as u64, "table", "tables"),
                dir.display()
            );
        }
        format!(
            "{} to build of {} ({} indices): about {} on disk, {} on 2 cores, {} of memory at the peak (scaled from measured builds: the 2-4-man set, KRPvKN's 5-man tables)",
            counted(self.missing as u64, "table", "tables"),
            self.tables,
            self.indices,
            human_bytes(self.bytes),
            human_duration(self.seconds),
            human_bytes(self.peak_memory),
        )
    }
}

impl super::BuildProgress {
    /// What the build is doing with its current table, for a progress
    /// line: reading what it reads, its analysis, its distance, a
    /// checkpoint or its files.
    pub fn phase_label(&self) -> String {
        use std::sync::atomic::Ordering;
        let (size, analysed) = (
            self.size.load(Ordering::Relaxed),
            self.analysed.load(Ordering::Relaxed),
        );
        let level = self.level.load(Ordering::Relaxed);
        match self.phase() {
            super::BuildPhase::Reading => {
                let table = self.reading.lock().unwrap_or_else(|e| e.into_inner());
                if table.is_empty() {
                    "reading the tables it reads".to_string()
                } else {
                    format!("reading the tables it reads ({table})")
                }
            }
            super::BuildPhase::Writing => "writing its files".to_string(),
            super::BuildPhase::Checkpointing => format!("writing a checkpoint (ply {level})"),
            super::BuildPhase::Generating if analysed < size => {
                format!("analysis {:.1}%", 100.0 * analysed as f64 / size as f64)
            }
            super::BuildPhase::Generating => format!("distance {level} plies"),
        }
    }
}

impl super::Built {
    /// The line a build prints for this table, the `done`th of `total`.
    pub fn summary(&self, done: usize, total: usize) -> String {
        let mut held = String::new();
        if self.load_seconds >= 0.5 {
            held += &format!(" ({:.1}s reading the tables it reads)", self.load_seconds);
        }
        if self.sliced > 0 {
            held += &format!(", {} read as promotion slices", self.sliced);
        }
        if self.file_lookups > 0 {
            held += &format!(", {} lookups from files", self.file_lookups);
        }
        if let Some(level) = self.resumed_at {
            held += &format!(", resumed at ply {level} from its checkpoint");
        }
        format!(
            "[{done}/{total}] {} {}: {} bytes, {:.2}s{held}",
            self.material,
            if self.existed { "exists" } else { "built" },
            self.bytes,
            self.seconds
        )
    }
}

impl super::ManifestUpdate {
    /// What a build says about the manifest of `dir` it updated.
    pub fn messages(&self, dir: &Path) -> Vec<String> {
        let mut lines = Vec::new();
        if self.written {
            lines.push(format!("manifest: {}", self.path.display()));
        } else if !self.unlisted.is_empty() {
            lines.push(format!(
                "manifest: {} left as it is; {} not listed there (`ransom tb manifest --dir {}` lists every table)",
                self.path.display(),
                counted(self.unlisted.len() as u64, "table is", "tables are"),
                dir.display()
            ));
        }
        for name in &self.differing {
            lines.push(format!(
                "warning: {name} differs from the entry of {} (a build must give the same bytes: rebuild it, or rewrite the manifest with `ransom tb manifest`)",
                self.path.display()
            ));
        }
        lines
    }
}

/// Three quarters of this machine's memory (`MemTotal` of /proc/meminfo;
/// 12 GB where that cannot be read): the default memory of a build.
pub fn default_build_memory() -> u64 {
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

#[cfg(test)]
mod tests {
    use super::super::{BuildPhase, BuildProgress};
    use std::sync::atomic::Ordering;

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
        assert_eq!(state.phase_label(), "reading the tables it reads");
        *state.reading.lock().unwrap() = "KQNvKP, 12 of 172".to_string();
        assert_eq!(
            state.phase_label(),
            "reading the tables it reads (KQNvKP, 12 of 172)"
        );
        state.set_phase(BuildPhase::Generating);
        assert_eq!(state.phase_label(), "distance 82 plies");
        state.analysed.store(50, Ordering::Relaxed);
        assert_eq!(state.phase_label(), "analysis 25.0%");
        state.set_phase(BuildPhase::Checkpointing);
        assert_eq!(state.phase_label(), "writing a checkpoint (ply 82)");
        state.set_phase(BuildPhase::Writing);
        assert_eq!(state.phase_label(), "writing its files");
    }
}
