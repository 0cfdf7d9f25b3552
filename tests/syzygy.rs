//! Syzygy giveaway tables against this project's own tables (issue 23.4;
//! RULES L: antichess rules, a stalemated side wins): every sampled
//! position of KRvKN and KNvKP, either side to move, has the same category
//! from the own win/draw/loss files, the own distance files (the stored
//! side read, the other found by one ply of probes) and the Syzygy files
//! (a Syzygy cursed win counts as a win and a blessed loss as a loss: this
//! project has no 50-move rule), and Syzygy's distance to zeroing has the
//! category's sign. Every class of position (side to move, category,
//! stored or valued from its captures) is met. Only with the `syzygy` feature:
//! `cargo test --release --features syzygy --test syzygy -- --nocapture`.
#![cfg(feature = "syzygy")]

mod common;

use ransom::notation::fen;
use ransom::tablebase::syzygy::SyzygyTables;
use ransom::tablebase::{self, Material, Tablebase, Wdl};
use ransom::variants::{International, Losing};

/// Positions sampled per material (each with a random side to move).
const SAMPLES: usize = 20_000;

/// A random legal placement of `white` and `black` men (FEN letters), as
/// a position; `None` when the placement is not one (a pawn on its last
/// rank, say).
fn placement(
    rng: &mut common::SplitMix,
    white: &str,
    black: &str,
) -> Option<Losing<International>> {
    let mut board = [None::<char>; 64];
    for man in white.chars().chain(black.to_lowercase().chars()) {
        let square = loop {
            let s = rng.below(64);
            if board[s].is_none() {
                break s;
            }
        };
        if man.eq_ignore_ascii_case(&'p') && !(8..56).contains(&square) {
            return None;
        }
        board[square] = Some(man);
    }
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                Some(c) => {
                    if empty > 0 {
                        row += &empty.to_string();
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row += &empty.to_string();
        }
        rows.push(row);
    }
    let side = if rng.below(2) == 0 { "w" } else { "b" };
    fen::parse_position(&format!("{} {side} - - 0 1", rows.join("/"))).ok()
}

#[test]
fn syzygy_and_own_tables_agree_on_every_sampled_position() {
    let syzygy = SyzygyTables::open(&common::own_data("syzygy_giveaway"))
        .expect("the shared Syzygy giveaway tables");
    let dir = common::fresh_dir("ransom-syzygy", "tables");
    let materials: Vec<Material> = ["KRvKN", "KNvKP"]
        .iter()
        .map(|m| Material::parse(m).expect("a material"))
        .collect();
    tablebase::build::<International>(&dir, &materials, |_, _, _| {})
        .expect("build the own tables");
    let own = Tablebase::<International>::open(&dir);
    let mut rng = common::SplitMix(0x5EED_2323);
    for (white, black) in [("KR", "KN"), ("KN", "KP")] {
        let mut seen = std::collections::BTreeMap::<&str, usize>::new();
        let mut classes = std::collections::BTreeMap::<(String, &str, &str), usize>::new();
        let mut checked = 0;
        while checked < SAMPLES {
            let Some(pos) = placement(&mut rng, white, black) else {
                continue;
            };
            let text = fen::write(&pos);
            let (mine, _) = own
                .try_probe(&pos)
                .unwrap_or_else(|e| panic!("own probe of {text}: {e}"));
            let categories = own
                .try_probe_wdl(&pos)
                .unwrap_or_else(|e| panic!("own WDL probe of {text}: {e}"));
            assert_eq!(mine, categories, "{text}: the own two kinds differ");
            let captures = ransom::tablebase::retro::has_capture(
                ransom::Position::board(&pos),
                ransom::Position::turn(&pos),
            );
            *classes
                .entry((
                    format!("{:?}", ransom::Position::turn(&pos)),
                    mine.name(),
                    if captures { "capture" } else { "stored" },
                ))
                .or_default() += 1;
            let theirs = syzygy.probe_wdl(&pos).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                mine,
                theirs.category(),
                "{text}: own {mine:?}, Syzygy {}",
                theirs.name()
            );
            let (dtz, _) = syzygy.probe_dtz(&pos).unwrap_or_else(|e| panic!("{e}"));
            let sign_ok = match mine {
                Wdl::Win => dtz > 0,
                Wdl::Loss => dtz < 0,
                Wdl::Draw => dtz == 0,
            };
            assert!(sign_ok, "{text}: {mine:?} but Syzygy DTZ {dtz}");
            *seen.entry(theirs.name()).or_default() += 1;
            checked += 1;
        }
        println!("{white}v{black}: {checked} positions agree; Syzygy values {seen:?}");
        println!("  classes (side, category, stored or capture): {classes:?}");
        assert!(seen.len() >= 2, "{white}v{black}: only {seen:?}");
        // Both sides, all three categories, stored and capture positions.
        assert_eq!(classes.len(), 12, "{white}v{black}: {classes:?}");
    }
}
