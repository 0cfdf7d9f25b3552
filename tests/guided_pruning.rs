//! A heuristic no-win rule only prunes (docs/prover.md, "Guided proving"):
//! its disproofs are never collected for the store, never taken as a
//! result, and a later run without the rule proves what the rule hid.

mod common;

use ransom::notation::fen::parse_position;
use ransom::proving::{Line, Outputs, ProveOptions, Quiet, prove_line};
use ransom::search::guide::{Guide, NoWin};
use ransom::search::{Budget, DfPn, SearchResult, Verdict};
use ransom::variants::Antichess;
use ransom::{Color, Position};
use std::path::Path;

/// White to move has only a bishop on d2 (dark squares), Black a bishop on
/// c8 (light) and a knight on b1: the rule judges White lost, yet 1.Bc3
/// Nxc3 gives White's last man away at once (RULES: Losing chess, the
/// side without men wins; captures are compulsory).
const FEN: &str = "2b5/8/8/8/8/8/3B4/1n6 w - - 0 1";

fn position() -> Antichess {
    parse_position(FEN).expect("a legal position")
}

fn pruning() -> Guide {
    Guide {
        no_win: NoWin::Bishops,
        ..Guide::default()
    }
}

#[test]
fn a_pruned_disproof_is_marked_and_never_collected() {
    let pos = position();
    let budget = Budget {
        max_nodes: 10_000,
        hash_bytes: 1 << 20,
        ..Budget::default()
    };
    let guide = pruning();
    let mut search = DfPn::<Antichess>::new(Color::White, &budget)
        .with_guide(Some(&guide))
        .collect_settled(1);
    assert_eq!(
        search.search_leaf(&pos, &[], &budget),
        SearchResult::Disproved
    );
    assert!(search.disproof_is_pruned(pos.zobrist()));
    assert!(
        search.take_settled().iter().all(|s| s.proved),
        "no disproof is collected for the store"
    );
    // Without the rule the same search proves White's win.
    let mut plain = DfPn::<Antichess>::new(Color::White, &budget).collect_settled(1);
    assert_eq!(plain.search_leaf(&pos, &[], &budget), SearchResult::Proved);
    assert!(!plain.disproof_is_pruned(pos.zobrist()));
}

/// The library's prove options with `guide`, over `store`, within
/// 100,000 nodes.
fn options(store: &Path, guide: Guide) -> ProveOptions {
    let mut options = common::prove_options(Some(store));
    options.config.guide = guide;
    options.config.budget.max_nodes = 100_000;
    options
}

#[test]
fn a_pruned_line_is_no_result_and_a_run_without_the_rule_proves_it() {
    let dir = common::fresh_dir("guided_pruning", "store");
    let store = dir.join("store");
    let line = Line::play(position(), &[]).unwrap();
    let outputs = Outputs {
        proof: Some(dir.join("p.proof")),
        pgn: None,
    };
    let pruned = prove_line(&line, &options(&store, pruning()), &outputs, &mut Quiet).unwrap();
    assert_eq!(pruned.result, Verdict::Unknown.name(), "{:?}", pruned.notes);
    assert_eq!(pruned.guide.no_win, "bishops");
    // The same store, the rule off: White's win is found and verified, so
    // the store kept no "no forced win" from the pruned run.
    let plain = prove_line(
        &line,
        &options(&store, Guide::default()),
        &outputs,
        &mut Quiet,
    )
    .unwrap();
    assert_eq!(plain.result, Verdict::Win.name(), "{:?}", plain.notes);
    assert_eq!(plain.winner, Some("white"));
    assert!(plain.verified);
}
