//! `prove` of one line: the position the moves reach, searched over the
//! store with the two-level search; a settled result written out.

use super::options::{Outputs, ProveOptions};
use super::pgn_file::{PgnWriting, write_pgn};
use super::prepare::prepare;
use super::report::{GuideReport, LineReport, StoreReport};
use super::{ProveRunError, RunObserver};
use crate::moves::Move;
use crate::notation::{LineError, fen, play_line, san, uci};
use crate::position::Position;
use crate::search::scale::prove_at_scale;
use crate::search::{ProofMeta, Verdict};
use crate::store::StoreError;
use std::path::PathBuf;

/// A log holding this many records is folded into the store's table when
/// a run ends.
pub const AUTO_COMPACT_RECORDS: u64 = 1_000_000;

/// A position and how it was reached: the position the moves start from
/// and the moves (UCI).
#[derive(Clone, Debug)]
pub struct Line<P> {
    /// The position reached.
    pub pos: P,
    /// The position the moves start from (FEN).
    pub start_fen: String,
    /// The moves, in UCI.
    pub moves: Vec<String>,
}

impl<P: Position> Line<P> {
    /// The line of `moves` (SAN or UCI) played from `start`.
    pub fn play(start: P, moves: &[String]) -> Result<Line<P>, LineError> {
        let start_fen = fen::write(&start);
        let (pos, played) = play_line(start, moves)?;
        Ok(Line {
            pos,
            start_fen,
            moves: played.into_iter().map(uci::write).collect(),
        })
    }

    /// The proof's metadata, `winner` given.
    pub fn meta(&self, winner: &str) -> ProofMeta {
        ProofMeta {
            root_fen: fen::write(&self.pos),
            winner: winner.into(),
            start_fen: self.start_fen.clone(),
            line: self.moves.clone(),
        }
    }

    /// Where a proof of this line goes by default: `proofs/` and
    /// [`ProofMeta::file_name`] (the moves from the start, or the
    /// position's hash for a line from a FEN).
    pub fn default_proof_path(&self) -> PathBuf {
        let from_start = fen::write(&P::start()) == self.start_fen;
        PathBuf::from("proofs").join(self.meta("").file_name(P::VARIANT, from_start))
    }
}

/// Proves who wins at the end of `line` (resuming the store's checkpoint of
/// the search), writes a settled result's verified proof to
/// `outputs.proof` and its PGN to `outputs.pgn`, and reports. A budget
/// that runs out is not an error: the report says "unknown" and where the
/// search resumes. A store log of [`AUTO_COMPACT_RECORDS`] records or more
/// is compacted at the end.
pub fn prove_line<P: Position>(
    line: &Line<P>,
    options: &ProveOptions,
    outputs: &Outputs,
    observer: &mut dyn RunObserver,
) -> Result<LineReport, ProveRunError> {
    let pos = &line.pos;
    let prepared = prepare::<P>(options, observer)?;
    let store = &prepared.store;
    let config = &prepared.config;
    let scale = prove_at_scale(
        pos,
        store,
        prepared.oracle.as_deref(),
        config,
        &mut |status| observer.status(status),
    )
    .map_err(|e| match &e {
        StoreError::Damaged {
            kind: "checkpoint", ..
        } => ProveRunError::Checkpoint(e),
        _ => ProveRunError::Store(e),
    })?;
    observer.finish();
    let compacted = store.dir().is_some() && store.log_records() >= AUTO_COMPACT_RECORDS;
    if compacted {
        store.compact()?;
    }
    let interrupted = config.budget.stop.is_some_and(|s| s.is_raised());
    let report = scale.report;
    let settled = report.verdict != Verdict::Unknown;
    let mut notes = prepared.notes;
    notes.extend(report.notes.iter().cloned());
    if interrupted && !settled {
        notes.push(match &scale.checkpoint {
            Some(_) => "interrupted: the checkpoint and the store were written".into(),
            None => "interrupted: the store was written".into(),
        });
    } else if interrupted {
        notes.push(
            "a signal came after the search had settled the position: the result is complete"
                .into(),
        );
    }
    if !settled && let Some(checkpoint) = &scale.checkpoint {
        notes.push(format!(
            "to resume, run the same command again (checkpoint {})",
            checkpoint.display()
        ));
    }
    let winner = match report.verdict {
        Verdict::Win => Some(pos.turn()),
        Verdict::Loss => Some(!pos.turn()),
        Verdict::Unknown => None,
    };
    let mut proof_file = None;
    if let (Some(proof), Some(winner)) = (&report.proof, winner) {
        if let Some(path) = &outputs.proof {
            proof.write(path, &line.meta(winner.name()))?;
            proof_file = Some(path.clone());
        }
        if let Some(pgn) = &outputs.pgn {
            let lookup = |h: u64| proof.moves.get(&h).copied();
            let event = format!("ransom proof: {} wins", winner.name());
            let how = PgnWriting::plain(&event, pgn.full);
            if let Some(warning) = write_pgn(&pgn.path, &proof.root, winner, &lookup, &how)? {
                observer.warn(&warning);
            }
        }
    }
    let best: Option<Move> = report.best;
    let outcome = pos.outcome();
    Ok(LineReport {
        variant: P::VARIANT.name(),
        fen: fen::write(pos),
        check: pos.is_check(),
        outcome: outcome.map(|o| o.kind.name()),
        reached: crate::text::reached_by(P::VARIANT, &line.start_fen, &line.moves),
        result: report.verdict.name(),
        winner: winner.map(|c| c.name()),
        best: best.map(uci::write),
        best_san: best.map(|m| san::write(pos, m)),
        proof_positions: report.verified.map(|v| v.positions),
        proof_winner_moves: report.verified.map(|v| v.winner_moves),
        proof_depth: report.verified.map(|v| v.depth),
        verified: report.verified.is_some(),
        nodes: report.nodes,
        tablebase_hits: report.oracle_hits,
        tablebases: prepared.oracle.is_some(),
        time_ms: report.elapsed.as_millis() as u64,
        seconds: report.elapsed.as_secs_f64(),
        threads: config.threads,
        leaf_nodes: config.leaf_nodes,
        guide: GuideReport::of(&config.guide, options.book.as_deref()),
        leaf_searches: scale.leaf_searches,
        outer_nodes: scale.outer_nodes,
        root_pn: scale.root_numbers.0.get(),
        root_dn: scale.root_numbers.1.get(),
        resumed: scale.resumed,
        earlier_nodes: scale.earlier_nodes,
        total_nodes: scale.earlier_nodes + report.nodes,
        store: StoreReport::of(store, compacted),
        checkpoint: scale.checkpoint.as_ref().map(|p| p.display().to_string()),
        proof_file: proof_file.map(|p| p.display().to_string()),
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Antichess;

    fn line_of(pos: &str, start_fen: &str, moves: &[String]) -> Line<Antichess> {
        Line {
            pos: fen::parse_position(pos).unwrap(),
            start_fen: start_fen.into(),
            moves: moves.to_vec(),
        }
    }

    #[test]
    fn default_names_stay_short_for_long_lines() {
        let start = fen::write(&Antichess::start());
        let short = Line::play(Antichess::start(), &["e2e4".into(), "b7b5".into()]).unwrap();
        assert_eq!(
            short.default_proof_path(),
            PathBuf::from("proofs/antichess-e2e4-b7b5.proof")
        );
        let long: Vec<String> = (0..240).map(|i| format!("m{i:03}x")).collect();
        let a = "8/8/8/8/8/8/1k6/R7 w - - 0 1";
        let b = "8/8/8/8/8/8/2k5/R7 w - - 0 1";
        let path = line_of(a, &start, &long).default_proof_path();
        let name = path.file_name().unwrap().to_str().unwrap();
        assert!(name.len() < 160, "{name}");
        assert!(name.starts_with("antichess-m000x-m001x-"), "{name}");
        assert_ne!(path, line_of(b, &start, &long).default_proof_path());
        // From a position given by FEN: the position's hash, whatever the
        // line and the clocks, so it never takes the name of the same line
        // from the start.
        let by_fen = line_of("8/8/8/8/8/8/1k6/R7 w - - 5 9", b, &short.moves);
        let by_fen = by_fen.default_proof_path();
        assert!(!by_fen.to_str().unwrap().contains("e2e4"), "{by_fen:?}");
        assert_eq!(by_fen, line_of(a, b, &short.moves).default_proof_path());
    }
}
