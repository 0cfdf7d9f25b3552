//! The body of a mate answer, shared by the one-shot answer (`mate.rs`)
//! and the streamed one (`mate_stream.rs`).

use crate::analysis::{MateSolutionView, holdings_json, mate_report_json, move_steps};
use crate::position::Position;
use crate::search::mate::MateReport;
use serde_json::Value;

/// The answer's body: `ransom mate --json`'s report with the main line's
/// positions, the tree as text, the holdings and the source.
pub(super) fn answer_json<P: Position>(
    pos: &P,
    report: &MateReport,
    max: u16,
    limit: usize,
) -> Value {
    let view = MateSolutionView::of(pos, report, limit);
    let mut out = mate_report_json(pos, report, max, &view);
    out["main_line_steps"] = move_steps(pos, &view.main_line).into();
    out["tree_text"] = view.tree.as_ref().map(|t| t.to_text()).into();
    out["holdings"] = holdings_json(pos);
    out["source"] = "search".into();
    out
}
