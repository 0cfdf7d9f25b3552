//! Tablebase generation (the whole 2–3-man set, and one 4-man table with
//! a pawn), probe latency on a warm
//! table (the tables' blocks in the reader's cache), and the prover with
//! and without tables. Each bench asserts its results.
//!
//! Run: `cargo bench --bench tablebase`. The benches build the tables they
//! need (KRvK and the 2-man tables) into a fresh folder first.

use ransom::board::{Board, Color, Piece, Role, Square};
use ransom::notation::fen;
use ransom::search::oracle::TablebaseOracle;
use ransom::search::{Budget, Verdict, prove, prove_with_oracle};
use ransom::tablebase::{self, Material, Tablebase, Wdl, position_of};
use ransom::variants::{Antichess, International, Variant};
use std::path::PathBuf;
use std::sync::OnceLock;

fn main() {
    divan::main();
}

fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("ransom-bench-tb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let wanted = [
            Material::parse("KRvK").unwrap(),
            Material::parse("BBvK").unwrap(),
        ];
        tablebase::build::<International>(&dir, &wanted, |_, _, _| {}).unwrap();
        dir
    })
}

/// Builds the 147 tables of the 2–3-man antichess set from scratch into a
/// fresh folder and checks every file against the committed manifest
/// (tablebases/antichess.manifest): generation, compression and writing.
#[divan::bench(sample_count = 3)]
fn build_2_3_men_set(bencher: divan::Bencher) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let manifest = tablebase::read_manifest(&root.join("tablebases/antichess.manifest")).unwrap();
    let targets = tablebase::Material::all_up_to(3);
    let mut run = 0;
    bencher.bench_local(|| {
        run += 1;
        let dir =
            std::env::temp_dir().join(format!("ransom-bench-tb3-{}-{run}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        tablebase::build::<International>(&dir, &targets, |_, _, _| {}).unwrap();
        let built = tablebase::scan(&dir, Variant::Antichess).unwrap();
        assert_eq!(built, manifest, "the rebuilt set differs from the manifest");
        std::fs::remove_dir_all(&dir).unwrap();
    });
}

/// Builds one 4-man table with a pawn, KRvKP (16.8 M raw indices: the
/// generator's per-index work at the scale of the 5-man tables), into a
/// folder holding the 2–3-man tables it reads, and checks both files
/// against the bytes the generator has always written for it.
#[divan::bench(sample_count = 3)]
fn build_krvkp(bencher: divan::Bencher) {
    let dir = std::env::temp_dir().join(format!("ransom-bench-krvkp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let krvkp = Material::parse("KRvKP").unwrap();
    tablebase::build::<International>(&dir, &krvkp.reads(), |_, _, _| {}).unwrap();
    let files = [
        (
            tablebase::table_path(&dir, Variant::Antichess, &krvkp),
            0x2b47_cf66_d3e3_c052,
        ),
        (
            tablebase::wdl_path(&dir, Variant::Antichess, &krvkp),
            0x346e_2683_c6b2_4608,
        ),
    ];
    bencher.bench_local(|| {
        for (path, _) in &files {
            let _ = std::fs::remove_file(path);
        }
        tablebase::build::<International>(&dir, &[krvkp], |_, _, _| {}).unwrap();
        for (path, checksum) in &files {
            let bytes = std::fs::read(path).unwrap();
            assert_eq!(
                ransom::store::fnv1a64(&bytes),
                *checksum,
                "{}",
                path.display()
            );
        }
    });
    std::fs::remove_dir_all(&dir).unwrap();
}

/// 1,024 KRvK positions (White K and R, Black K), spread over the table.
fn krvk_positions() -> Vec<Antichess> {
    let mut out = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    while out.len() < 1024 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let squares = [(seed >> 10) % 64, (seed >> 20) % 64, (seed >> 30) % 64];
        if squares[0] == squares[1] || squares[1] == squares[2] || squares[0] == squares[2] {
            continue;
        }
        let mut board = Board::empty();
        let men = [
            (Color::White, Role::King),
            (Color::White, Role::Rook),
            (Color::Black, Role::King),
        ];
        for (sq, (color, role)) in squares.iter().zip(men) {
            board.set(Square::new(*sq as u32).unwrap(), Piece { color, role });
        }
        let turn = if seed >> 40 & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Some(pos) = position_of::<International>(board, turn) {
            out.push(pos);
        }
    }
    out
}

/// Median time per probe: divide by 1,024.
#[divan::bench(sample_count = 50)]
fn probe_warm_krvk_1024(bencher: divan::Bencher) {
    let tb = Tablebase::<International>::open(tables());
    let positions = krvk_positions();
    let sum = |tb: &Tablebase<International>| {
        positions
            .iter()
            .map(|p| match tb.probe(p).expect("covered") {
                (Wdl::Win, d) => u64::from(d) * 3 + 1,
                (Wdl::Loss, d) => u64::from(d) * 3 + 2,
                (Wdl::Draw, _) => 0,
            })
            .sum::<u64>()
    };
    let expected = sum(&tb);
    bencher.bench_local(|| assert_eq!(sum(&tb), expected));
}

/// The same positions' categories alone, from the win/draw/loss file (what
/// the prover's leaves read). Median time per probe: divide by 1,024.
#[divan::bench(sample_count = 50)]
fn probe_wdl_warm_krvk_1024(bencher: divan::Bencher) {
    let tb = Tablebase::<International>::open(tables());
    let positions = krvk_positions();
    let count = |tb: &Tablebase<International>| {
        positions
            .iter()
            .map(|p| match tb.probe_wdl(p).expect("covered") {
                Wdl::Win => 1u64,
                Wdl::Loss => 1 << 20,
                Wdl::Draw => 1 << 40,
            })
            .sum::<u64>()
    };
    let expected = count(&tb);
    let full: u64 = positions
        .iter()
        .map(|p| match tb.probe(p).expect("covered").0 {
            Wdl::Win => 1u64,
            Wdl::Loss => 1 << 20,
            Wdl::Draw => 1 << 40,
        })
        .sum();
    assert_eq!(expected, full, "categories differ between the two kinds");
    bencher.bench_local(|| assert_eq!(count(&tb), expected));
}

/// KvBB (RULES A, DTW 47): proved by df-pn alone.
#[divan::bench(sample_count = 5)]
fn prove_bbvk_without_tables() {
    let pos: Antichess = fen::parse_position("8/8/K7/8/8/6b1/8/3b4 w - - 0 1").unwrap();
    let report = prove(&pos, &Budget::default(), &mut |_| {});
    assert_eq!(report.verdict, Verdict::Loss);
    assert_eq!(report.nodes, 248_335);
}

/// The same with the tables at the leaves.
#[divan::bench(sample_count = 20)]
fn prove_bbvk_with_tables() {
    let oracle = TablebaseOracle::<International>::open(tables()).unwrap();
    let pos: Antichess = fen::parse_position("8/8/K7/8/8/6b1/8/3b4 w - - 0 1").unwrap();
    let report = prove_with_oracle(&pos, &Budget::default(), Some(&oracle), &mut |_| {});
    assert_eq!(report.verdict, Verdict::Loss);
    assert_eq!(report.nodes, 2);
}
