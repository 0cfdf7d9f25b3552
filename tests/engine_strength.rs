//! Strength measurements of the engine (docs/engine.md), ignored in CI:
//!
//! ```sh
//! cargo test --release --test engine_strength -- --ignored --nocapture
//! ```
//!
//! Games start with random sub-moves (seeded; each opening is played with
//! both colours) and are adjudicated drawn after a third repetition or
//! 400 sub-moves. Scores are the first player's mean with a 95% error bar.

mod common;

use common::games::{Player, match_score};
use ransom::Position;
use ransom::search::engine::eval::{
    HAND_WEIGHTS, LOSING_TERMS, LosingWeights, MEN_TERMS, REACH_TERMS, Weights,
};
use ransom::search::engine::{LosingQuiescence, Selectivity};
use ransom::variants::{Antichess, Chess, Contact, Crazyhouse, HitAndRun, Hostage};

fn report(name: &str, (score, error): (f64, f64)) {
    println!("{name}: {:.1}% ± {:.1}", 100.0 * score, 100.0 * error);
}

/// Issue acceptance: at depth 4 the engine beats a random mover in at
/// least 95% of the games in Hostage, Contact and Hit-and-Run chess.
#[test]
#[ignore = "about 5 minutes on 2 cores; run by the command in the module docs"]
fn depth_four_against_a_random_mover() {
    fn one<P: Position>(name: &str) {
        let score = match_score::<P>(Player::Depth(4), Player::Random, 50, 0);
        report(&format!("{name}: depth 4 vs random, 100 games"), score);
        assert!(score.0 >= 0.95, "{name}: {score:?}");
    }
    one::<Hostage>("hostage");
    one::<Contact>("contact");
    one::<HitAndRun>("hitandrun");
}

/// Issue acceptance: 10,000 nodes a move beat 1,000 clearly.
#[test]
#[ignore = "about 10 minutes on 2 cores; run by the command in the module docs"]
fn ten_thousand_nodes_against_one_thousand() {
    fn one<P: Position>(name: &str) {
        let score = match_score::<P>(Player::Nodes(10_000), Player::Nodes(1_000), 50, 4);
        report(&format!("{name}: 10k vs 1k nodes, 100 games"), score);
        assert!(score.0 - score.1 > 0.5, "{name}: {score:?}");
    }
    one::<Hostage>("hostage");
    one::<Contact>("contact");
    one::<HitAndRun>("hitandrun");
}

/// A tuning candidate: its name (the variant first) and its one change.
type Candidate = (&'static str, fn(&mut Weights));

/// The hand-set Losing-chess weights (the first rounds' defaults), changed
/// by `change`.
fn hand(change: fn(&mut [i32; LOSING_TERMS])) -> LosingWeights {
    let mut weights = HAND_WEIGHTS.opening;
    change(&mut weights);
    LosingWeights::flat(weights)
}

/// One round of tuning: the default weights against each candidate (one
/// changed term) at 5,000 nodes a move, 100 games, openings of 4 random
/// sub-moves; the variant is the candidate name's first word.
fn tuning_round(candidates: &[Candidate]) {
    tuning_round_with(5_000, 50, candidates);
}

/// [`tuning_round`] at `nodes` a move over `2 * pairs` games.
fn tuning_round_with(nodes: u64, pairs: usize, candidates: &[Candidate]) {
    let base = Weights::default();
    for (name, change) in candidates {
        let mut changed = base;
        change(&mut changed);
        let (a, b) = (
            Player::NodesWith(nodes, base),
            Player::NodesWith(nodes, changed),
        );
        let score = match name.split(':').next() {
            Some("antichess") => match_score::<Antichess>(a, b, pairs, 4),
            Some("crazyhouse") => match_score::<Crazyhouse>(a, b, pairs, 4),
            Some("hostage") => match_score::<Hostage>(a, b, pairs, 4),
            _ => match_score::<Contact>(a, b, pairs, 4),
        };
        report(
            &format!("defaults vs {name}, {nodes} nodes, {} games", 2 * pairs),
            score,
        );
    }
}

/// Tuning, first round (docs/engine.md, "Tuning").
#[test]
#[ignore = "tuning runs: about 20 minutes on 2 cores"]
fn tuning_candidates() {
    tuning_round(&[
        ("antichess: no mobility term", |w| {
            w.losing = hand(|l| l[REACH_TERMS].fill(0))
        }),
        ("antichess: mobility 8", |w| {
            w.losing = hand(|l| l[REACH_TERMS].fill(8))
        }),
        ("antichess: no role costs", |w| {
            w.losing = hand(|l| l[MEN_TERMS].fill(-60))
        }),
        ("crazyhouse: men in hand at 80%", |w| w.in_hand_percent = 80),
        ("crazyhouse: king zone 35", |w| {
            w.king_zone_attack_drops = 35
        }),
        ("hostage: prisoners at 60%", |w| w.prisoner_percent = 60),
        ("hostage: prisoners at 10%", |w| w.prisoner_percent = 10),
        ("contact: no mobility", |w| w.mobility = [0; 6]),
    ]);
}

/// Tuning, second round: steps on the other side of the first round's
/// candidates (none of those beat the defaults).
#[test]
#[ignore = "tuning runs: about 12 minutes on 2 cores"]
fn tuning_round_two() {
    tuning_round(&[
        ("antichess: mobility 2", |w| {
            w.losing = hand(|l| l[REACH_TERMS].fill(2))
        }),
        ("antichess: each man 100", |w| {
            w.losing = hand(|l| l[MEN_TERMS].iter_mut().for_each(|m| *m -= 40))
        }),
        ("crazyhouse: men in hand at 140%", |w| {
            w.in_hand_percent = 140
        }),
        ("hostage: prisoners at 20%", |w| w.prisoner_percent = 20),
        ("contact: mobility doubled", |w| {
            w.mobility = [0, 8, 10, 6, 4, 0]
        }),
    ]);
}

/// Tuning, third round, from the defaults that kept round two's winner
/// (Losing-chess mobility 2 instead of 4).
#[test]
#[ignore = "tuning runs: about a minute on 2 cores"]
fn tuning_round_three() {
    tuning_round(&[
        ("antichess: each man 100", |w| {
            w.losing = hand(|l| l[MEN_TERMS].iter_mut().for_each(|m| *m -= 40))
        }),
        ("antichess: mobility 1", |w| {
            w.losing = hand(|l| l[REACH_TERMS].fill(1))
        }),
    ]);
}

/// The fitted Losing-chess weights (docs/engine.md, "Tuning the
/// Losing-chess evaluation") against the hand-set ones they replaced, at
/// 5,000 and at 20,000 nodes a move.
#[test]
#[ignore = "tuning runs: a few minutes on 2 cores"]
fn tuning_fitted_against_hand_weights() {
    let hand: Candidate = ("antichess: the hand weights", |w| w.losing = HAND_WEIGHTS);
    tuning_round_with(5_000, 200, &[hand]);
    tuning_round_with(20_000, 200, &[hand]);
}

/// Losing-chess quiescence (docs/engine.md, "Quiescence in Losing
/// chess"): the defaults against quiescence without the table and against
/// other lengths of capture sequences, at 5,000 and 20,000 nodes a move;
/// the score is the defaults'.
#[test]
#[ignore = "tuning runs: a few minutes on 2 cores"]
fn losing_quiescence_candidates() {
    let defaults = LosingQuiescence::default();
    let mut candidates = vec![(
        "no table in quiescence".to_string(),
        LosingQuiescence {
            table: false,
            ..defaults
        },
    )];
    for max_plies in [4, 6, 12, 24] {
        candidates.push((
            format!("sequences of at most {max_plies} plies"),
            LosingQuiescence {
                max_plies,
                ..defaults
            },
        ));
    }
    for nodes in [5_000, 20_000] {
        for (name, candidate) in &candidates {
            if *candidate == defaults {
                continue;
            }
            let score = match_score::<Antichess>(
                Player::NodesQuiescence(nodes, defaults),
                Player::NodesQuiescence(nodes, *candidate),
                200,
                4,
            );
            report(
                &format!("defaults vs {name}, {nodes} nodes, 400 games"),
                score,
            );
        }
    }
}

/// Null-move pruning (docs/engine.md, "Crazyhouse: king-zone holes, null
/// move, checks in quiescence"): the engine with it against the engine without it, at 5,000 and 20,000 nodes a move, in the
/// variants whose positions offer a pass; the score is the first's.
#[test]
#[ignore = "tuning runs: a few minutes on 2 cores"]
fn null_move_candidates() {
    for nodes in [5_000, 20_000] {
        null_move_match(nodes, 200, true);
    }
}

/// Null-move pruning in crazyhouse at 100,000 nodes a move (about half of
/// what a move gets at 1 s + 0.1 s), 200 games.
#[test]
#[ignore = "tuning runs: about ten minutes on 2 cores"]
fn null_move_deeper() {
    null_move_match(100_000, 100, false);
}

/// The engine with null moves against the engine without, `2 * pairs` games
/// of crazyhouse at `nodes` a move (and of chess if `chess`).
fn null_move_match(nodes: u64, pairs: usize, chess: bool) {
    let with = Player::NodesSelective(
        nodes,
        Selectivity {
            null_move: true,
            ..Selectivity::default()
        },
    );
    let off = Player::NodesSelective(
        nodes,
        Selectivity {
            null_move: false,
            ..Selectivity::default()
        },
    );
    let games = 2 * pairs;
    let name =
        |variant: &str| format!("{variant}: null move vs none, {nodes} nodes, {games} games");
    report(
        &name("crazyhouse"),
        match_score::<Crazyhouse>(with, off, pairs, 4),
    );
    if chess {
        report(&name("chess"), match_score::<Chess>(with, off, pairs, 4));
    }
}

/// Crazyhouse's evaluation (docs/engine.md, "Crazyhouse: king-zone
/// holes, null move, checks in quiescence"): the
/// defaults against compressed values of the men and against a penalty for
/// unguarded empty squares next to the king, 400 games at 5,000 nodes.
#[test]
#[ignore = "tuning runs: a few minutes on 2 cores"]
fn crazyhouse_candidates() {
    tuning_round_with(
        5_000,
        200,
        &[
            ("crazyhouse: men 100/250/260/350/600", |w| {
                w.drop_material = [100, 250, 260, 350, 600, 0]
            }),
            ("crazyhouse: men 100/300/300/420/750", |w| {
                w.drop_material = [100, 300, 300, 420, 750, 0]
            }),
            ("crazyhouse: king zone holes 15", |w| w.king_zone_holes = 15),
            ("crazyhouse: king zone holes 30", |w| w.king_zone_holes = 30),
        ],
    );
}

/// Checks in crazyhouse's quiescence (docs/engine.md, as above): the defaults against
/// quiescence that also tries the quiet checking moves at its first ply,
/// 400 games at 5,000 and 20,000 nodes; the score is the defaults'.
#[test]
#[ignore = "tuning runs: a few minutes on 2 cores"]
fn quiescence_checks_candidates() {
    let checks = Selectivity {
        quiescence_checks: true,
        ..Selectivity::default()
    };
    for nodes in [5_000, 20_000] {
        let score = match_score::<Crazyhouse>(
            Player::NodesSelective(nodes, Selectivity::default()),
            Player::NodesSelective(nodes, checks),
            200,
            4,
        );
        report(
            &format!("crazyhouse: defaults vs checks in quiescence, {nodes} nodes, 400 games"),
            score,
        );
    }
}

/// Crazyhouse's king-zone holes, round two: larger penalties, at 5,000 and
/// 20,000 nodes (400 games each).
#[test]
#[ignore = "tuning runs: a few minutes on 2 cores"]
fn crazyhouse_holes_round_two() {
    at_five_and_twenty_thousand_nodes(&[
        ("crazyhouse: king zone holes 30", |w| w.king_zone_holes = 30),
        ("crazyhouse: king zone holes 50", |w| w.king_zone_holes = 50),
        ("crazyhouse: king zone holes 80", |w| w.king_zone_holes = 80),
    ]);
}

/// Crazyhouse's king safety scaled by the men the opponent holds to drop
/// (docs/engine.md), 400 games at 5,000 and at 20,000 nodes.
#[test]
#[ignore = "tuning runs: a few minutes on 2 cores"]
fn crazyhouse_hand_pressure() {
    at_five_and_twenty_thousand_nodes(&[
        ("crazyhouse: hand pressure 4", |w| w.hand_pressure = 4),
        ("crazyhouse: hand pressure 8", |w| w.hand_pressure = 8),
    ]);
}

/// Crazyhouse king danger (docs/engine.md, "Crazyhouse: king-zone holes,
/// null move, checks in quiescence"): unguarded squares from which a man
/// in hand would check, and a danger that grows with its square; 400
/// games at 5,000 and at 20,000 nodes.
#[test]
#[ignore = "tuning runs: a few minutes on 2 cores"]
fn crazyhouse_king_danger() {
    at_five_and_twenty_thousand_nodes(&[
        ("crazyhouse: safe check drops 15", |w| {
            w.safe_check_drops = 15
        }),
        ("crazyhouse: safe check drops 30", |w| {
            w.safe_check_drops = 30
        }),
        ("crazyhouse: king danger / 200", |w| {
            w.king_danger_divisor = 200
        }),
        ("crazyhouse: king danger / 400", |w| {
            w.king_danger_divisor = 400
        }),
    ]);
}

/// Crazyhouse king danger, round two: the defaults (safe check drops 30)
/// against a danger growing with its square, and heavier checks; 400
/// games at 5,000 and at 20,000 nodes.
#[test]
#[ignore = "tuning runs: a few minutes on 2 cores"]
fn crazyhouse_king_danger_round_two() {
    at_five_and_twenty_thousand_nodes(&[
        ("crazyhouse: king danger / 400", |w| {
            w.king_danger_divisor = 400
        }),
        ("crazyhouse: king danger / 200", |w| {
            w.king_danger_divisor = 200
        }),
        ("crazyhouse: safe check drops 50", |w| {
            w.safe_check_drops = 50
        }),
    ]);
}

/// [`tuning_round_with`] at 5,000 and then 20,000 nodes a move, 400 games
/// a candidate at each.
fn at_five_and_twenty_thousand_nodes(candidates: &[Candidate]) {
    for nodes in [5_000, 20_000] {
        tuning_round_with(nodes, 200, candidates);
    }
}
