//! The analysis engine (`ransom::search::engine`): mate scores, material,
//! drops, Losing chess, Hit-and-Run turns, MultiPV, `searchmoves`,
//! threads, repetitions, and a game against a random mover in every
//! variant. Strength measurements are in `tests/engine_strength.rs`
//! (ignored tests, docs/engine.md).

mod common;

use common::games::{Player, Result, play};
use ransom::notation::{fen, parse_move, uci};
use ransom::search::engine::{Engine, Limits, Report, Score, SearchOptions};
use ransom::{AnyPosition, Position, Variant, dispatch};

fn search(
    variant: Variant,
    text: &str,
    depth: u32,
    options: &SearchOptions,
) -> (Report, Vec<String>) {
    let pos = AnyPosition::from_setup(variant, &fen::parse(text).unwrap()).unwrap();
    let engine = Engine::new(16 << 20);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let report = dispatch!(&pos, p => engine.search(p, &[], &limits, options, &mut |_| {}));
    let pv = report.info.lines[0]
        .pv
        .iter()
        .map(|&m| uci::write(m))
        .collect();
    (report, pv)
}

#[test]
fn finds_a_mate_in_two_and_scores_it_in_moves() {
    // RULES S: checkmate wins. 1.Nf6+ gxf6 2.Bxf7#.
    let (report, pv) = search(
        Variant::Chess,
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
        5,
        &SearchOptions::default(),
    );
    assert_eq!(report.info.lines[0].score, Score::Mate(2), "{pv:?}");
    assert_eq!(pv[0], "d5f6", "{pv:?}");
}

#[test]
fn the_mated_side_sees_its_mate_coming() {
    // Black's Rd1 mates whatever White's pawn does (RULES S).
    let options = SearchOptions {
        search_moves: vec![
            parse_move(
                &ransom::variants::Chess::from_setup(
                    &fen::parse("3r2k1/5ppp/8/8/8/P7/5PPP/7K w - - 0 1").unwrap(),
                )
                .unwrap(),
                "a3a4",
            )
            .unwrap(),
        ],
        ..SearchOptions::default()
    };
    let (report, pv) = search(
        Variant::Chess,
        "3r2k1/5ppp/8/8/8/P7/5PPP/7K w - - 0 1",
        4,
        &options,
    );
    assert_eq!(report.info.lines[0].score, Score::Mate(-1), "{pv:?}");
    assert_eq!(pv, ["a3a4", "d8d1"]);
}

#[test]
fn takes_a_queen_left_hanging() {
    let (report, pv) = search(
        Variant::Chess,
        "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1",
        3,
        &SearchOptions::default(),
    );
    assert_eq!(pv[0], "d2d5");
    assert!(matches!(report.info.lines[0].score, Score::Centipawns(cp) if cp > 300));
}

#[test]
fn drops_a_man_in_hand_to_mate() {
    // RULES Z: a pocket queen dropped on the back rank mates.
    let (report, pv) = search(
        Variant::Crazyhouse,
        "6k1/5ppp/8/8/8/8/8/K7[Q] w - - 0 1",
        3,
        &SearchOptions::default(),
    );
    assert_eq!(report.info.lines[0].score, Score::Mate(1), "{pv:?}");
    assert!(pv[0].starts_with("Q@") && pv[0].ends_with('8'), "{pv:?}");
}

#[test]
fn losing_chess_wins_by_giving_the_last_man_away() {
    // RULES A1, A5: after Rc1 Black must take it and White has no men left.
    let (report, pv) = search(
        Variant::Antichess,
        "8/8/8/8/8/8/1p6/R7 w - - 0 1",
        3,
        &SearchOptions::default(),
    );
    assert_eq!(report.info.lines[0].score, Score::Mate(1), "{pv:?}");
    assert_eq!(pv[0], "a1c1", "{pv:?}");
}

#[test]
fn multipv_gives_distinct_lines_best_first() {
    let options = SearchOptions {
        multipv: 3,
        ..SearchOptions::default()
    };
    let (report, _) = search(
        Variant::Chess,
        "4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1",
        3,
        &options,
    );
    let lines = &report.info.lines;
    assert_eq!(lines.len(), 3);
    assert_ne!(lines[0].pv[0], lines[1].pv[0]);
    assert_ne!(lines[1].pv[0], lines[2].pv[0]);
    assert!(lines[0].value >= lines[1].value && lines[1].value >= lines[2].value);
}

#[test]
fn two_threads_find_the_same_mate() {
    let options = SearchOptions {
        threads: 2,
        ..SearchOptions::default()
    };
    let (report, pv) = search(
        Variant::Chess,
        "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 10",
        5,
        &options,
    );
    assert_eq!(report.info.lines[0].score, Score::Mate(2), "{pv:?}");
}

#[test]
fn a_repetition_of_the_game_scores_as_a_draw() {
    // RULES "Repetition": a line that repeats a position is no win.
    let chess =
        |text: &str| ransom::variants::Chess::from_setup(&fen::parse(text).unwrap()).unwrap();
    let root = chess("6k1/8/8/8/8/8/R7/6K1 b - - 0 1");
    let seen_before = chess("7k/8/8/8/8/8/R7/6K1 w - - 0 1");
    let options = SearchOptions {
        search_moves: vec![parse_move(&root, "g8h8").unwrap()],
        ..SearchOptions::default()
    };
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let engine = Engine::new(1 << 20);
    let fresh = engine.search(&root, &[], &limits, &options, &mut |_| {});
    assert!(matches!(fresh.info.lines[0].score, Score::Centipawns(cp) if cp < -300));
    let engine = Engine::new(1 << 20);
    let history = [seen_before.zobrist()];
    let repeated = engine.search(&root, &history, &limits, &options, &mut |_| {});
    assert_eq!(repeated.info.lines[0].score, Score::Centipawns(0));
}

#[test]
fn hit_and_run_searches_sub_moves_and_counts_mates_in_turns() {
    // RULES R1, R8: the line alternates whole turns of two sub-moves.
    let (report, pv) = search(
        Variant::HitAndRun,
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
        4,
        &SearchOptions::default(),
    );
    assert!(pv.len() >= 4, "{pv:?}");
    assert!(report.best.is_some());
}

/// One game in every variant, the engine at depth 2 against a random
/// mover: every move legal (checked as it is played) and the game ends.
#[test]
fn plays_a_legal_game_in_every_variant() {
    for variant in Variant::ALL {
        let start = AnyPosition::start(variant);
        let result = dispatch!(&start, p => play(p, Player::Depth(2), Player::Random, 0, 7));
        assert!(
            matches!(result, Result::WhiteWins | Result::Draw | Result::BlackWins),
            "{variant:?}"
        );
    }
}

/// Hostage, Contact and Hit-and-Run: at depth 3 the engine beats a random
/// mover with both colours (docs/engine.md has the full measurement).
#[test]
fn beats_a_random_mover_in_the_variants_without_another_engine() {
    for variant in [Variant::Hostage, Variant::Contact, Variant::HitAndRun] {
        let start = AnyPosition::start(variant);
        let as_white = dispatch!(&start, p => play(p, Player::Depth(3), Player::Random, 0, 11));
        let as_black = dispatch!(&start, p => play(p, Player::Random, Player::Depth(3), 0, 12));
        assert_eq!(as_white, Result::WhiteWins, "{variant:?}");
        assert_eq!(as_black, Result::BlackWins, "{variant:?}");
    }
}

/// RULES L1–L3 through the 2-man antichess tables: with the tables, the
/// engine's value of every sampled 2-man position has the table's sign
/// (a table win counts as a won game, below a mate the search sees), its
/// move keeps the win, and without them a shallow search misjudges some.
#[test]
fn endgame_tables_settle_the_positions_they_cover() {
    use ransom::search::engine::score::TABLE_WIN;
    use ransom::search::oracle::{Oracle, TablebaseOracle};
    use ransom::tablebase::{self, Material, Wdl};
    use ransom::variants::{Antichess, International};

    let dir = common::fresh_dir("engine", "tables2");
    tablebase::build::<International>(&dir, &Material::all_up_to(2), |_, _, _| {})
        .expect("build the 2-man antichess tables");
    let tables = TablebaseOracle::<International>::open(&dir).expect("tables were built");
    let (engine, engine_alone) = (Engine::new(1 << 20), Engine::new(1 << 20));
    let limits = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    let options = SearchOptions::default();
    let (mut sampled, mut misjudged_alone) = (0, 0);
    let sign = |wdl: Wdl| match wdl {
        Wdl::Win => 1,
        Wdl::Loss => -1,
        Wdl::Draw => 0,
    };
    for i in 0..400u32 {
        // Two men on distinct squares, spread over the board and the roles.
        let (a, b) = ((i * 37) % 64, (i * 11 + 29) % 64);
        let (white, black) = (
            "KQRBNP".as_bytes()[(i % 6) as usize],
            "kqrbnp".as_bytes()[(i / 6 % 6) as usize],
        );
        if a == b {
            continue;
        }
        let mut squares = [b'1'; 64];
        squares[a as usize] = white;
        squares[b as usize] = black;
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|rank| {
                squares[rank * 8..rank * 8 + 8]
                    .iter()
                    .map(|&c| c as char)
                    .collect()
            })
            .collect();
        let text = format!("{} w - - 0 1", rows.join("/"));
        let Ok(pos) = fen::parse_position::<Antichess>(&text) else {
            continue;
        };
        if pos.outcome().is_some() {
            continue;
        }
        let Some(truth) = tables.probe_wdl(&pos) else {
            continue;
        };
        sampled += 1;
        let with = engine.search_with(&pos, &[], &limits, &options, Some(&tables), &mut |_| {});
        let value = with.info.lines[0].value;
        assert_eq!(
            value.signum(),
            sign(truth),
            "{text}: table {truth:?}, engine {value}"
        );
        if truth == Wdl::Win && value <= TABLE_WIN {
            assert_eq!(value, TABLE_WIN - 1, "{text}: a table win one turn away");
            let mut child = pos.clone();
            child.play_unchecked(with.best.unwrap());
            assert_eq!(
                tables.probe_wdl(&child),
                Some(Wdl::Loss),
                "{text}: the move keeps the win"
            );
        }
        let alone = engine_alone.search(&pos, &[], &limits, &options, &mut |_| {});
        if alone.info.lines[0].value.signum() != sign(truth) {
            misjudged_alone += 1;
        }
    }
    assert!(sampled >= 200, "only {sampled} positions sampled");
    assert!(
        misjudged_alone > 0,
        "the tables should matter to a depth-1 search"
    );
}
