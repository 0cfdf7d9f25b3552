//! Explorer bench: one explorer answer (the position and each legal move
//! looked up in the store, the tables and the rules) over a store of a
//! million positions, read as `ransom serve` reads it (a [`StoreReader`]
//! without the lock: the compacted table memory-mapped, block by block).
//!
//! The store is made once, in `target/tmp/explorer-store` (or the folder
//! `RANSOM_EXPLORER_STORE` names, which `ransom serve --store` can then
//! serve): the positions of seeded random Losing-chess games from the
//! start, each recorded as "White has no forced win", then compacted. What
//! a record says does not change the time of a lookup; the records are
//! real positions, so the lookups run the packed-position check too.
//!
//! Run: `cargo bench --bench explorer`.
//!
//! [`StoreReader`]: ransom::solved::StoreReader

use ransom::analysis::{Knowledge, MoveWindow, ProofIndex, StoreShelf, explore};
use ransom::board::Color;
use ransom::moves::Move;
use ransom::solved::packed::pack;
use ransom::solved::{Record, Solved, SolvedStore};
use ransom::variants::Antichess;
use ransom::{Position, Variant};
use std::path::PathBuf;
use std::sync::OnceLock;

fn main() {
    divan::main();
}

/// Positions the store holds at least.
const POSITIONS: u64 = 1_000_000;

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

fn store_dir() -> PathBuf {
    std::env::var_os("RANSOM_EXPLORER_STORE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("explorer-store"))
}

/// Fills the store at `dir` with the positions of random games until it
/// holds [`POSITIONS`], and compacts it.
fn build(dir: &std::path::Path) {
    let store =
        SolvedStore::open(dir, Variant::Antichess, 64 << 20, false).expect("open the store");
    let mut seen = hashbrown::HashSet::new();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut batch = Vec::new();
    while (seen.len() as u64) < POSITIONS {
        let mut pos = Antichess::start();
        for ply in 0..80u64 {
            let legal = pos.legal_moves();
            if legal.is_empty() || pos.outcome_given(&legal).is_some() {
                break;
            }
            let m: Move = legal[rng.below(legal.len())];
            pos.play_unchecked(m);
            if seen.insert(pos.zobrist()) {
                batch.push(Record {
                    key: pos.zobrist(),
                    value: Solved::no_win_for(Color::White, ply + 1),
                    position: pack(&pos),
                });
            }
        }
        if batch.len() >= 100_000 {
            store.record(&batch).expect("record");
            batch.clear();
        }
    }
    store.record(&batch).expect("record");
    store.compact().expect("compact");
}

/// The knowledge over the store (made first if it is not there yet).
fn knowledge() -> &'static Knowledge {
    static KNOWLEDGE: OnceLock<Knowledge> = OnceLock::new();
    KNOWLEDGE.get_or_init(|| {
        let dir = store_dir();
        let shelf = StoreShelf::new(vec![dir.clone()]);
        shelf.refresh();
        let held = shelf.summary().first().map_or(0, |s| s.positions);
        let shelf = if held >= POSITIONS {
            shelf
        } else {
            let _ = std::fs::remove_dir_all(&dir);
            build(&dir);
            let fresh = StoreShelf::new(vec![dir]);
            fresh.refresh();
            fresh
        };
        let held = shelf.summary().first().map_or(0, |s| s.positions);
        assert!(held >= POSITIONS, "the store holds {held} positions");
        Knowledge::new(None, ProofIndex::default()).with_stores(shelf)
    })
}

/// The start position: 20 moves, each looked up.
#[divan::bench(sample_count = 200)]
fn explore_start() {
    let exploration = explore(knowledge(), &Antichess::start(), MoveWindow::ALL);
    assert_eq!(exploration.moves.len(), 20);
    let known = exploration
        .moves
        .iter()
        .filter(|m| !m.after.no_forced_win.is_empty())
        .count();
    assert_eq!(known, 20, "every first move was played by some game");
}

/// After 1.e3: Black's 20 replies.
#[divan::bench(sample_count = 200)]
fn explore_after_e3() {
    let pos: Antichess = ransom::notation::fen::parse_position(
        "rnbqkbnr/pppppppp/8/8/8/4P3/PPPP1PPP/RNBQKBNR b - - 0 1",
    )
    .expect("a legal position");
    let exploration = explore(knowledge(), &pos, MoveWindow::ALL);
    assert_eq!(exploration.total_moves, 20);
    assert_eq!(exploration.position.no_forced_win, vec![Color::White]);
}
