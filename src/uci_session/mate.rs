//! `go mate N`: the mate solver, its solution announced as UCI lines.

use super::lines::mate_info;
use crate::analysis::think::GoLimits;
use crate::notation::uci;
use crate::position::Position;
use crate::search::mate::{
    MateOptions, MateReport, MateStatus, longest_line, solve_mate_streaming,
};
use crate::search::{Budget, StopSignal};

/// `info ... score mate N ... pv ...` and `bestmove`, or `bestmove (none)`
/// when no mate was found (with a line saying whether none exists). A mate
/// found before its length is certified is printed at once.
pub(super) fn mate_lines<P: Position>(
    pos: &P,
    max: u16,
    limits: &GoLimits,
    hash_bytes: usize,
    stop: StopSignal,
    print: &dyn Fn(&[String]),
) -> Vec<String> {
    let options = MateOptions {
        max,
        all_keys: false,
        budget: Budget {
            max_nodes: limits.nodes.unwrap_or(u64::MAX),
            max_time: limits.movetime,
            hash_bytes,
            stop: Some(stop),
        },
        threads: 1,
    };
    let mut on_found = |early: &MateReport| {
        if let (Some(solution), Some(n)) = (&early.solution, early.length) {
            let line = longest_line(pos, pos.turn(), solution);
            print(&[
                mate_info(n, early.nodes, early.elapsed, &line),
                format!("info string mate in {n} found, verified; proving that none is shorter"),
            ]);
        }
    };
    let report = solve_mate_streaming(pos, &options, None, &mut |_| {}, &mut on_found);
    let ms = report.elapsed.as_millis();
    match (report.status, &report.solution, report.length) {
        (MateStatus::Mate, Some(solution), Some(n)) => {
            let line = longest_line(pos, pos.turn(), solution);
            let key = line.first().map(|&m| uci::write(m)).unwrap_or_default();
            vec![
                mate_info(n, report.nodes, report.elapsed, &line),
                format!(
                    "info string mate in {n} {}, verified",
                    if report.shortest {
                        "proved shortest"
                    } else {
                        "(shorter not ruled out)"
                    }
                ),
                format!("bestmove {key}"),
            ]
        }
        (MateStatus::NoMate, _, _) => vec![
            format!(
                "info string no mate in {max} or fewer (proved) nodes {} time {ms}",
                report.nodes
            ),
            "bestmove (none)".into(),
        ],
        _ => vec![
            format!(
                "info string no mate found within the budget nodes {} time {ms}",
                report.nodes
            ),
            "bestmove (none)".into(),
        ],
    }
}
