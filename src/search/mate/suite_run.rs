//! A mate suite solved case by case (`mate --epd FILE`): each case's
//! position, its result against the length the file states, the verified
//! solutions as EPD, and the summary; a mate report as text.

use super::{
    MateCase, MateOptions, MateReport, MateStatus, Puzzle, SuiteError, build_tree, line_san,
    longest_line, read_suite, solve_mate,
};
use crate::notation::{fen, parse_move, uci};
use crate::position::Position;
use crate::{AnyPosition, Variant, dispatch};
use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why a suite cannot be solved.
#[derive(Debug, thiserror::Error)]
pub enum SuiteRunError {
    /// The file cannot be read.
    #[error("cannot read {}: {error}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A line is not a case.
    #[error("{}: {error}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// Why.
        error: SuiteError,
    },
    /// A case's position or moves.
    #[error("{} ({place}): {problem}", path.display())]
    Case {
        /// The file.
        path: PathBuf,
        /// The case's id and line.
        place: String,
        /// What is wrong.
        problem: String,
    },
    /// No case passes the filters.
    #[error("{}: no position with a mate for the side to move passes the filters", .0.display())]
    Empty(PathBuf),
}

/// Which cases of a suite are solved.
#[derive(Clone, Copy, Debug, Default)]
pub struct SuiteFilter {
    /// Only cases stated as mates in at most this many moves.
    pub up_to: Option<u16>,
    /// At most this many cases.
    pub limit: Option<usize>,
}

/// The cases of the suite file `path` that `filter` selects (mates for the
/// side to move), each with its position (moves played): every line is
/// read before any is solved, so that a bad line stops a run before hours
/// of solving, not after.
pub fn suite_cases(
    path: &Path,
    variant: Variant,
    filter: SuiteFilter,
) -> Result<Vec<(MateCase, AnyPosition)>, SuiteRunError> {
    let text = std::fs::read_to_string(path).map_err(|error| SuiteRunError::Read {
        path: path.to_path_buf(),
        error,
    })?;
    let cases = read_suite(&text).map_err(|error| SuiteRunError::Line {
        path: path.to_path_buf(),
        error,
    })?;
    let selected: Vec<MateCase> = cases
        .into_iter()
        .filter(|c| c.expected > 0)
        .filter(|c| filter.up_to.is_none_or(|n| c.expected <= i32::from(n)))
        .take(filter.limit.unwrap_or(usize::MAX))
        .collect();
    if selected.is_empty() {
        return Err(SuiteRunError::Empty(path.to_path_buf()));
    }
    selected
        .into_iter()
        .map(|case| {
            let pos = case_position(variant, &case, path)?;
            Ok((case, pos))
        })
        .collect()
}

/// The position `case` asks about: its FEN with its moves played.
fn case_position(
    variant: Variant,
    case: &MateCase,
    path: &Path,
) -> Result<AnyPosition, SuiteRunError> {
    let bad = |problem: String| SuiteRunError::Case {
        path: path.to_path_buf(),
        place: where_in_file(case),
        problem,
    };
    let setup = fen::parse(&case.fen).map_err(|e| bad(e.to_string()))?;
    let mut pos = AnyPosition::from_setup(variant, &setup).map_err(|e| bad(e.to_string()))?;
    dispatch!(&mut pos, p => {
        for text in &case.moves {
            let m = parse_move(p, text).map_err(|e| bad(format!("move '{text}': {e}")))?;
            p.play_unchecked(m);
        }
    });
    Ok(pos)
}

/// A case's line, and its id when the file gives one.
fn where_in_file(case: &MateCase) -> String {
    let line = format!("line {}", case.line);
    if case.id == line {
        line
    } else {
        format!("{}, {line}", case.id)
    }
}

/// How a case compares with the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseVerdict {
    /// The proved result is what the file states.
    Agrees,
    /// It is not.
    Disagrees,
    /// Not settled within the budget.
    Unknown,
}

/// One case solved.
#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    /// The case's id.
    pub id: String,
    /// The length the file states.
    pub stated: i32,
    /// "mate", "no-mate" or "unknown".
    pub proven: &'static str,
    /// The mate's length, if found.
    pub mate_in: Option<u16>,
    /// Whether no shorter mate exists (proved).
    pub shortest: bool,
    /// The key (UCI), if a mate was found.
    pub key: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds.
    pub time_ms: f64,
    /// Whether it agrees with the file.
    pub agrees: bool,
    /// How it compares.
    #[serde(skip)]
    pub verdict: CaseVerdict,
    /// The one-line result.
    #[serde(skip)]
    pub text: String,
    /// The verified solution as an EPD line, if a mate was found.
    #[serde(skip)]
    pub epd: Option<String>,
}

/// Solves `case` at `pos` with `options` (whose `max` is the stated
/// length unless set).
pub fn solve_case<P: Position>(
    pos: &P,
    case: &MateCase,
    options: &MateOptions,
    max: Option<u16>,
) -> CaseResult {
    let stated = u16::try_from(case.expected).unwrap_or(u16::MAX);
    let max = max.unwrap_or(stated);
    let report = solve_mate(pos, &MateOptions { max, ..*options }, &mut |_| {});
    let verdict = match report.status {
        MateStatus::Mate if report.shortest && report.length == Some(stated) => CaseVerdict::Agrees,
        MateStatus::Mate if report.shortest => CaseVerdict::Disagrees,
        // A mate shorter than stated, even if not proved shortest.
        MateStatus::Mate if report.length.is_some_and(|n| n < stated) => CaseVerdict::Disagrees,
        MateStatus::NoMate if max >= stated => CaseVerdict::Disagrees,
        MateStatus::NoMate => CaseVerdict::Agrees,
        _ => CaseVerdict::Unknown,
    };
    let epd = Puzzle::from_report(pos, &case.id, &report, options.all_keys).map(|mut puzzle| {
        puzzle.comment.clone_from(&case.comment);
        puzzle.to_epd()
    });
    CaseResult {
        id: case.id.clone(),
        stated: case.expected,
        proven: report.status.name(),
        mate_in: report.length,
        shortest: report.shortest,
        key: report
            .keys
            .first()
            .map(|&m| uci::write(m))
            .unwrap_or_default(),
        nodes: report.nodes,
        time_ms: report.elapsed.as_secs_f64() * 1000.0,
        agrees: verdict == CaseVerdict::Agrees,
        verdict,
        text: verdict_text(&report, stated),
        epd,
    }
}

/// The header of the table of results.
pub fn case_header() -> String {
    format!(
        "{:<12} {:>6} {:<34} {:<8} {:>12} {:>10}",
        "id", "stated", "result", "key", "nodes", "ms"
    )
}

impl fmt::Display for CaseResult {
    /// The case's row of the table.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let flag = match self.verdict {
            CaseVerdict::Agrees => "",
            CaseVerdict::Disagrees => "  DISAGREES",
            CaseVerdict::Unknown => "  UNKNOWN",
        };
        write!(
            f,
            "{:<12} {:>6} {:<34} {:<8} {:>12} {:>10.1}{flag}",
            self.id, self.stated, self.text, self.key, self.nodes, self.time_ms
        )
    }
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

/// A mate report as text: the verdict, the main line, the keys, the
/// verified size, the solution tree (at most `limit` lines), notes and the
/// effort.
pub fn mate_report_text<P: Position>(
    pos: &P,
    report: &MateReport,
    max: u16,
    limit: usize,
) -> String {
    let mut out = format!("{}\n", verdict_text(report, max));
    if let Some(solution) = &report.solution {
        let tree = build_tree(pos, pos.turn(), solution, limit);
        let line = line_san(pos, &longest_line(pos, pos.turn(), solution));
        out += &format!("main line: {line}\n");
        let keys: Vec<String> = report
            .keys
            .iter()
            .map(|&m| crate::notation::san::write(pos, m))
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

/// The summary of a suite's results.
#[derive(Clone, Debug, Default)]
pub struct SuiteSummary {
    /// Cases that agree with the file.
    pub agree: usize,
    /// Cases that do not.
    pub disagree: usize,
    /// Cases left unknown.
    pub unknown: usize,
    /// Nodes of every case.
    pub nodes: u64,
    /// Seconds of every case.
    pub seconds: f64,
    /// Median milliseconds per stated length.
    pub medians: Vec<(i32, f64)>,
}

impl SuiteSummary {
    /// The summary of `results`.
    pub fn of(results: &[CaseResult]) -> SuiteSummary {
        let count = |v| results.iter().filter(|r| r.verdict == v).count();
        let mut lengths: Vec<i32> = results.iter().map(|r| r.stated).collect();
        lengths.sort_unstable();
        lengths.dedup();
        let medians = lengths
            .into_iter()
            .map(|n| {
                let mut ms: Vec<f64> = results
                    .iter()
                    .filter(|r| r.stated == n)
                    .map(|r| r.time_ms)
                    .collect();
                ms.sort_by(f64::total_cmp);
                (n, ms[ms.len() / 2])
            })
            .collect();
        SuiteSummary {
            agree: count(CaseVerdict::Agrees),
            disagree: count(CaseVerdict::Disagrees),
            unknown: count(CaseVerdict::Unknown),
            nodes: results.iter().map(|r| r.nodes).sum(),
            seconds: results.iter().map(|r| r.time_ms).sum::<f64>() / 1000.0,
            medians,
        }
    }
}

impl fmt::Display for SuiteSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} positions: {} agree, {} disagree, {} unknown; {} nodes in {:.2} s ({:.0} nodes/s)",
            self.agree + self.disagree + self.unknown,
            self.agree,
            self.disagree,
            self.unknown,
            self.nodes,
            self.seconds,
            self.nodes as f64 / self.seconds.max(1e-9)
        )?;
        for (length, median) in &self.medians {
            writeln!(f, "  mate in {length}: median {median:.1} ms")?;
        }
        Ok(())
    }
}
