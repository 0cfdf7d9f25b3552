//! Antichess / suicide endgame tablebases: indexing, generation against
//! outside reference data, the CLI-facing error paths.
//!
//! CI builds the 2- and 3-man antichess tables once (into a fresh
//! directory under the target dir) and checks them; the 4-man checks are
//! `#[ignore]`d (see tablebases/README.md for the commands).

mod common;

use ransom::board::{Board, Color, Square};
use ransom::notation::fen;
use ransom::tablebase::{
    self, Layout, Material, MemTable, Slice, Tablebase, Value, Wdl, transform,
};
use ransom::variants::{Antichess, Fics, International, Suicide};
use ransom::{Position, Role};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn fresh_dir(name: &str) -> PathBuf {
    common::fresh_dir("tablebase", name)
}

/// The 2- and 3-man antichess tables, built once per test run.
fn antichess_3() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = fresh_dir("antichess3");
        let built = tablebase::build::<International>(&dir, &Material::all_up_to(3), |_, _, _| {})
            .expect("build 2-3 man antichess tables");
        assert_eq!(built.len(), 147, "21 two-man and 126 three-man tables");
        dir
    })
}

fn probe(tb: &Tablebase<International>, text: &str) -> (Wdl, u16) {
    let pos: Antichess = fen::parse_position(text).unwrap();
    tb.try_probe(&pos).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn material_keys_parse_print_and_count() {
    let m = Material::parse("KRvK").unwrap();
    assert_eq!(m.to_string(), "KRvK");
    assert_eq!(Material::parse("rkvk").unwrap().to_string(), "KRvK");
    assert_eq!(
        Material::parse("KvKR").unwrap().canonical().to_string(),
        "KRvK"
    );
    assert!(Material::parse("KRv").is_err());
    assert!(Material::parse("KXvK").is_err());
    assert!(Material::parse("KRK").is_err());
    assert_eq!(Material::all_with_men(2).len(), 21);
    assert_eq!(Material::all_with_men(3).len(), 126);
    // The Syzygy giveaway set: 714 tables with 2 to 4 men.
    assert_eq!(Material::all_up_to(4).len(), 714);
}

fn board_of(pieces: &[(u8, ransom::Piece)]) -> Board {
    let mut b = Board::empty();
    for &(sq, p) in pieces {
        b.set(Square::new(sq as u32).unwrap(), p);
    }
    b
}

fn transformed(board: &Board, t: u8) -> Board {
    let mut b = Board::empty();
    for (sq, p) in board.pieces() {
        b.set(
            Square::new(transform(sq.index() as u8, t) as u32).unwrap(),
            p,
        );
    }
    b
}

#[test]
fn index_round_trips_for_every_valid_index() {
    for key in [
        "KvK", "KvR", "BvN", "KQvK", "RRvK", "NvBB", "PvK", "KvP", "PvP", "PPvP",
    ] {
        let layout = Layout::new(Material::parse(key).unwrap());
        let mut valid = 0u64;
        for i in 0..layout.size() {
            if let Some((board, turn)) = layout.decode(i) {
                valid += 1;
                assert_eq!(layout.index(&board, turn), i, "{key} index {i}");
            }
        }
        assert!(valid > 0, "{key}");
    }
}

#[test]
fn symmetric_positions_share_one_index() {
    let w = |r: Role| r.of(Color::White);
    let b = |r: Role| r.of(Color::Black);
    // Pawnless: all 8 symmetries, including positions with men on the diagonal.
    let boards = [
        board_of(&[(0, w(Role::King)), (63, b(Role::Rook))]),
        board_of(&[
            (9, w(Role::Knight)),
            (27, w(Role::Knight)),
            (12, b(Role::Bishop)),
        ]),
        board_of(&[
            (18, w(Role::Queen)),
            (45, b(Role::King)),
            (33, b(Role::Knight)),
        ]),
        board_of(&[(36, w(Role::Bishop)), (1, b(Role::Bishop))]),
    ];
    for board in &boards {
        let layout = Layout::new(Material::from_board(board));
        for turn in Color::ALL {
            let i = layout.index(board, turn);
            for t in 0..8 {
                assert_eq!(
                    layout.index(&transformed(board, t), turn),
                    i,
                    "transform {t}"
                );
            }
            // (With the same men on both sides the decoded position may be
            // the colour-flipped one.)
            let (back, back_turn) = layout.decode(i).expect("valid");
            assert_eq!(layout.index(&back, back_turn), i);
        }
    }
    // Pawns: only the left-right mirror.
    let board = board_of(&[(12, w(Role::Pawn)), (50, b(Role::Knight))]);
    let layout = Layout::new(Material::from_board(&board));
    let i = layout.index(&board, Color::White);
    assert_eq!(layout.index(&transformed(&board, 1), Color::White), i);
    assert_ne!(layout.index(&transformed(&board, 2), Color::White), i);
    // Colour flip: KvR looked up in the RvK... orientation and same-material flips.
    let kvr = board_of(&[(3, w(Role::King)), (40, b(Role::Rook))]);
    let rvk = board_of(&[(3 ^ 56, b(Role::King)), (40 ^ 56, w(Role::Rook))]);
    let layout = Layout::new(Material::parse("RvK").unwrap());
    assert_eq!(
        layout.index(&kvr, Color::White),
        layout.index(&rvk, Color::Black)
    );
    let pvp = board_of(&[(12, w(Role::Pawn)), (52, b(Role::Pawn))]);
    let flipped = board_of(&[(12 ^ 56, b(Role::Pawn)), (52 ^ 56, w(Role::Pawn))]);
    let layout = Layout::new(Material::parse("PvP").unwrap());
    assert_eq!(
        layout.index(&pvp, Color::White),
        layout.index(&flipped, Color::Black)
    );
}

#[test]
fn kvr_longest_win_is_35_plies() {
    let dir = antichess_3();
    let tb = Tablebase::<International>::open(dir);
    let s = tablebase::stats::<International>(&Material::parse("KvR").unwrap(), &tb).unwrap();
    assert_eq!(s.longest_win, 35, "{s:?}");
    assert_eq!(s.draws, [0, 0]);
    assert_eq!(s.wins[0] + s.draws[0] + s.losses[0], 64 * 63);
    assert_eq!(probe(&tb, "8/8/8/8/8/3k4/8/1R6 b - - 0 1"), (Wdl::Loss, 35));
}

/// `FEN<TAB>dtw<TAB>res` rows of the tolius reference.
fn tolius_rows() -> Vec<(String, i32, i32)> {
    let path = common::own_data("antichess_tb/tolius_reference_dtw.tsv");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

fn men(text: &str) -> usize {
    text.split(' ')
        .next()
        .unwrap()
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .count()
}

fn check_tolius(tb: &Tablebase<International>, max_men: usize) -> usize {
    let mut checked = 0;
    for (text, dtw, res) in tolius_rows() {
        if res == -2 || men(&text) > max_men {
            continue;
        }
        let got = probe(tb, &text);
        let want = match (res, dtw.signum()) {
            (2, _) => (Wdl::Draw, 0),
            (_, 1) => (Wdl::Win, dtw as u16),
            _ => (Wdl::Loss, (-dtw) as u16),
        };
        assert_eq!(got, want, "{text}");
        checked += 1;
    }
    checked
}

#[test]
fn tolius_reference_dtw_up_to_3_men() {
    let tb = Tablebase::<International>::open(antichess_3());
    let checked = check_tolius(&tb, 3);
    assert!(checked >= 2, "only {checked} rows with 3 men or fewer");
}

/// Rows `FEN dtz D; wdl W;` of the python-chess suicide statistics,
/// pawnless only (they hold for antichess too).
fn suicide_stats_rows(max_men: usize) -> Vec<(String, i32)> {
    let path = common::own_data("antichess_tb/python-chess_suicide-stats.epd");
    let mut out = Vec::new();
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            continue;
        }
        let fen = format!(
            "{} {} {} {} 0 1",
            fields[0], fields[1], fields[2], fields[3]
        );
        if fields[0].contains(['p', 'P']) || men(&fen) > max_men {
            continue;
        }
        let wdl = line
            .split(';')
            .find_map(|p| p.trim().strip_prefix("wdl "))
            .and_then(|w| w.trim().parse::<i32>().ok())
            .expect("wdl field");
        out.push((fen, wdl));
    }
    out
}

/// The category must match exactly (wdl ±1, a win or loss spoilt or saved
/// by the 50-move rule, is a win or loss here). Distances are not compared:
/// Syzygy's DTZ counts plies to the next capture or pawn move, not to the
/// end of the game; exact distances are checked against the tolius DTW
/// reference and by re-verifying tables against their successors.
fn check_suicide_stats(tb: &Tablebase<International>, max_men: usize) -> usize {
    let rows = suicide_stats_rows(max_men);
    for (text, wdl) in &rows {
        let want = match wdl.signum() {
            1 => Wdl::Win,
            -1 => Wdl::Loss,
            _ => Wdl::Draw,
        };
        let (got, _) = probe(tb, text);
        assert_eq!(got, want, "{text} (wdl {wdl})");
    }
    rows.len()
}

#[test]
fn python_chess_pawnless_rows_up_to_3_men() {
    let tb = Tablebase::<International>::open(antichess_3());
    let n = check_suicide_stats(&tb, 3);
    assert!(n >= 100, "only {n} rows");
}

#[test]
fn tables_verify_against_their_successors() {
    let dir = antichess_3();
    let tb = Tablebase::<International>::open(dir);
    for key in ["KvK", "KvR", "BvN", "RvKN", "PvK", "PvP", "KPvN", "PPvP"] {
        let m = Material::parse(key).unwrap().canonical();
        let path = tablebase::table_path(dir, ransom::Variant::Antichess, &m);
        let report = tablebase::verify_file::<International>(&path, &tb).unwrap();
        assert_eq!(report.first_error, None, "{key}");
        assert!(report.positions > 0);
        // What `tb verify` runs: the tables it reads loaded into memory
        // first, for the distance file and the win/draw/loss file alike.
        let wdl = tablebase::wdl_path(dir, ransom::Variant::Antichess, &m);
        for file in [&path, &wdl] {
            let loaded = tablebase::verify_table_file::<International>(file).unwrap();
            assert_eq!(loaded.first_error, None, "{key}");
            assert_eq!(loaded.positions, report.positions, "{key}");
        }
        let loaded = tablebase::verify_table_file::<International>(&path).unwrap();
        assert_eq!(loaded.longest_win, report.longest_win, "{key}");
        assert_eq!(loaded.longest_win_fen, report.longest_win_fen, "{key}");
    }
}

#[test]
fn a_check_holds_the_promotion_tables_as_their_slices() {
    // `tb verify` holds what a table reaches only by its promotions as the
    // slices a build holds when memory is short (KPPvKP's would take 21
    // GB whole): PPvP's one-pawn promotion tables are held as sixteenths,
    // and checking both its files looks nothing up outside what is held.
    let dir = antichess_3();
    let m = Material::parse("PPvP").unwrap().canonical();
    for wdl_only in [false, true] {
        let held = tablebase::MemTables::load_reads::<International>(dir, &m, wdl_only).unwrap();
        let sliced: Vec<String> = held
            .tables
            .values()
            .filter(|t| t.slice().is_some())
            .map(|t| t.material.to_string())
            .collect();
        assert!(sliced.len() >= 4, "{sliced:?}");
        held.file_lookups
            .store(0, std::sync::atomic::Ordering::Relaxed);
        let path = if wdl_only {
            tablebase::wdl_path(dir, ransom::Variant::Antichess, &m)
        } else {
            tablebase::table_path(dir, ransom::Variant::Antichess, &m)
        };
        let report = tablebase::verify_file::<International>(&path, &held).unwrap();
        assert_eq!(report.first_error, None);
        let from_files = held.file_lookups.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(from_files, 0, "wdl_only {wdl_only}");
    }
}

/// Every stored index of the tables named, read back through the files
/// (the win/draw/loss file for categories, the one-side distance file and
/// the other side found by one ply of probes for distances) and through a
/// whole table loaded into memory, equals what the generator computes.
#[test]
fn both_kinds_of_file_give_the_generators_values_at_every_index() {
    let dir = antichess_3();
    let tb = Tablebase::<International>::open(dir);
    // Pawnless, with pawns, the same men on both sides (White to move at
    // every index), a long win, and promotions into other tables.
    for key in [
        "KRvK", "KvR", "BvN", "NvN", "PvP", "KPvN", "PPvP", "PvPP", "BNvK",
    ] {
        let m = Material::parse(key).unwrap().canonical();
        let want = tablebase::generate::<International>(&m, &tb).unwrap();
        let loaded = tablebase::MemTable::load::<International>(dir, &m, &tb, false).unwrap();
        assert!(loaded.exact());
        let categories = tablebase::MemTable::load::<International>(dir, &m, &tb, true).unwrap();
        assert!(!categories.exact());
        let mut stored = 0;
        for (i, &v) in want.iter().enumerate() {
            let v = Value(v);
            let Some((w, _)) = v.wdl() else { continue };
            stored += 1;
            let i = i as u64;
            use tablebase::Lookup;
            assert_eq!(
                tb.lookup(&m, i).unwrap(),
                v,
                "{key} index {i} from the files"
            );
            assert_eq!(
                tb.lookup_wdl(&m, i).unwrap(),
                Some(w),
                "{key} index {i} category"
            );
            assert_eq!(loaded.value(i), v, "{key} index {i} loaded");
            assert_eq!(
                categories.value(i).wdl().map(|c| c.0),
                Some(w),
                "{key} index {i}"
            );
        }
        assert!(stored > 0, "{key}");
    }
}

/// Builds `targets` with `options` into a fresh folder `name`.
fn build_with(
    name: &str,
    targets: &[Material],
    options: tablebase::BuildOptions,
) -> (PathBuf, Vec<tablebase::Built>) {
    let dir = fresh_dir(name);
    let built = build_in(&dir, targets, options);
    (dir, built)
}

/// Builds `targets` (with what they need) in `dir`, which may hold some
/// of those tables already.
fn build_in(
    dir: &Path,
    targets: &[Material],
    options: tablebase::BuildOptions,
) -> Vec<tablebase::Built> {
    let state = tablebase::BuildProgress::default();
    tablebase::build_with_progress::<International>(dir, targets, &state, options, |_, _, _| {})
        .unwrap()
}

/// Asserts that both files of `material` in `dir` are byte for byte those
/// of the 2- and 3-man set.
fn assert_same_files_as_antichess_3(dir: &Path, material: &Material) {
    for path in [tablebase::table_path, tablebase::wdl_path] {
        let name = |d: &Path| path(d, ransom::Variant::Antichess, material);
        assert_eq!(
            std::fs::read(name(dir)).unwrap(),
            std::fs::read(name(antichess_3())).unwrap(),
            "{}",
            name(dir).display()
        );
    }
}

#[test]
fn wdl_only_builds_write_the_same_categories() {
    // RULES L1-L3 decide the categories; a --wdl-only build reads tables
    // whose distances it does not know, and must still get every category.
    let targets = [Material::parse("KPvN").unwrap()];
    let options = tablebase::BuildOptions {
        wdl_only: true,
        ..Default::default()
    };
    let (dir, built) = build_with("wdl-only", &targets, options);
    assert!(built.len() > 3);
    for b in &built {
        // Every table a build reads is held (Material::reads is complete).
        assert_eq!(b.file_lookups, 0, "{b:?}");
        let name = |d: &Path| tablebase::wdl_path(d, ransom::Variant::Antichess, &b.material);
        assert_eq!(
            std::fs::read(name(&dir)).unwrap(),
            std::fs::read(name(antichess_3())).unwrap(),
            "{}",
            b.material
        );
        assert!(!tablebase::table_path(&dir, ransom::Variant::Antichess, &b.material).exists());
    }
    // Categories answer; distances name the missing file kind.
    let tb = Tablebase::<International>::open(&dir);
    let pos: Antichess = fen::parse_position("8/8/8/3n4/8/8/4P3/4K3 w - - 0 1").unwrap();
    assert_eq!(
        tb.try_probe_wdl(&pos).unwrap(),
        Tablebase::<International>::open(antichess_3())
            .try_probe_wdl(&pos)
            .unwrap()
    );
    let err = tb.try_probe(&pos).unwrap_err().to_string();
    assert!(err.contains("--wdl-only"), "{err}");
    // A full build over WDL-only tables builds them again, with distances.
    let rebuilt = tablebase::build::<International>(&dir, &targets, |_, _, _| {}).unwrap();
    assert!(rebuilt.iter().all(|b| !b.existed));
    assert_eq!(
        Tablebase::<International>::open(&dir)
            .try_probe(&pos)
            .unwrap(),
        Tablebase::<International>::open(antichess_3())
            .try_probe(&pos)
            .unwrap()
    );
}

#[test]
fn a_build_within_a_small_memory_budget_writes_the_same_files() {
    // With room for no table between jobs, every table a job reads comes
    // back from its files (the other side's distances found again by one
    // ply of probes), and a table reached by a promotion is held only as
    // the slice those lookups fall in (PPvP reads QPvP and PPvQ so): the
    // files must not change, and no lookup may miss what is held.
    let targets = [
        Material::parse("KPvN").unwrap(),
        Material::parse("PPvP").unwrap(),
    ];
    let options = tablebase::BuildOptions {
        memory: 1,
        ..Default::default()
    };
    let (dir, built) = build_with("small-memory", &targets, options);
    assert!(built.len() > 10);
    let ppvp = built
        .iter()
        .find(|b| b.material.to_string() == "PPvP")
        .unwrap();
    assert!(ppvp.sliced >= 2, "{ppvp:?}");
    // Tables dropped for room went to a spill folder and came back from
    // there, for the build only.
    assert!(built.iter().map(|b| b.spill_reads).sum::<usize>() > 10);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with(".ransom-spill"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    for b in &built {
        assert_eq!(b.file_lookups, 0, "{b:?}");
        assert_same_files_as_antichess_3(&dir, &b.material);
    }
}

#[test]
fn tables_read_from_files_as_promotions_are_held_as_their_slices() {
    // A build resumed over tables already built reads them from their
    // files. Of a table reached by a promotion a job looks up only one
    // side to move (for a pawnless table, the half of the side that did
    // not promote): it is held as that slice when its files store that
    // side (nothing to derive), or when no later job reads it; else whole,
    // for the later jobs. KPvN and KQvP both read KQvN (after a White
    // queen and a Black knight promotion: two different halves), KPvR and
    // KQvP KQvR, KPvR and KRvP KRvR.
    let dir = fresh_dir("thrifty-reads");
    for entry in std::fs::read_dir(antichess_3()).unwrap().flatten() {
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let targets = [
        Material::parse("KPvN").unwrap(),
        Material::parse("KQvP").unwrap(),
        Material::parse("KRvP").unwrap(),
        Material::parse("KPvR").unwrap(),
    ];
    for m in &targets {
        for path in [tablebase::table_path, tablebase::wdl_path] {
            std::fs::remove_file(path(&dir, ransom::Variant::Antichess, m)).unwrap();
        }
    }
    let built = build_in(&dir, &targets, tablebase::BuildOptions::default());
    let rebuilt: Vec<_> = built.iter().filter(|b| !b.existed).collect();
    assert_eq!(rebuilt.len(), 4, "{built:?}");
    assert!(
        rebuilt.iter().map(|b| b.sliced).sum::<usize>() > 0,
        "{rebuilt:?}"
    );
    for b in rebuilt {
        // Every lookup fell in what was held.
        assert_eq!(b.file_lookups, 0, "{b:?}");
        assert_same_files_as_antichess_3(&dir, &b.material);
    }
}

/// The tables of `inner`, except that the pawnless tables of three men
/// have no value anywhere (as a damaged source would answer).
struct WithHoles<'a>(&'a Tablebase<International>);

impl tablebase::Lookup for WithHoles<'_> {
    fn lookup(&self, material: &Material, index: u64) -> Result<Value, tablebase::TbError> {
        if material.men() == 3 && !material.has_pawns() {
            return Ok(Value::UNKNOWN);
        }
        self.0.lookup(material, index)
    }
}

/// A source that counts the lookups asked of it.
struct Counting<'a> {
    inner: &'a dyn tablebase::Lookup,
    asked: std::sync::atomic::AtomicU64,
}

impl tablebase::Lookup for Counting<'_> {
    fn lookup(&self, material: &Material, index: u64) -> Result<Value, tablebase::TbError> {
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.lookup(material, index)
    }

    fn lookup_wdl(
        &self,
        material: &Material,
        index: u64,
    ) -> Result<Option<Wdl>, tablebase::TbError> {
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.lookup_wdl(material, index)
    }
}

#[test]
fn values_the_files_derive_have_their_moves_valued_through_the_tables_held() {
    // A one-side distance file's other side is derived by one ply of
    // probes. Behind tables held in memory (a build's), those probes go
    // to the tables held first (`lookup_via`), not to the files alone: the
    // same values, with the moves asked of the source in front.
    let dir = antichess_3();
    let tb = Tablebase::<International>::open(dir);
    let m = Material::parse("KQvN").unwrap().canonical();
    let layout = Layout::new(m);
    let held = tablebase::MemTables::load_reads::<International>(dir, &m, false).unwrap();
    let via = Counting {
        inner: &held,
        asked: Default::default(),
    };
    let (mut looked_up, mut derived_through_held) = (0, false);
    for index in (0..layout.size()).step_by(5) {
        let Some((board, turn)) = layout.decode(index) else {
            continue;
        };
        if tablebase::retro::has_capture(&board, turn) {
            continue;
        }
        let direct = tablebase::Lookup::lookup(&tb, &m, index).unwrap();
        let through = tablebase::Lookup::lookup_via(&tb, &m, index, &via).unwrap();
        assert_eq!(through, direct, "{index}");
        // MemTables holds no KQvN: it asks the files, which derive
        // through it (the derivation's own lookups of tables not held
        // are counted as its lookups from files too).
        let before = held.file_lookups.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(tablebase::Lookup::lookup(&held, &m, index).unwrap(), direct);
        let from_files = held.file_lookups.load(std::sync::atomic::Ordering::Relaxed) - before;
        derived_through_held |= from_files > 1;
        looked_up += 1;
    }
    assert!(looked_up > 1000, "{looked_up}");
    assert!(derived_through_held, "no derivation asked the tables held");
    let asked = via.asked.load(std::sync::atomic::Ordering::Relaxed);
    assert!(
        asked > 0,
        "no derived value asked its moves of the tables held"
    );
}

#[test]
fn a_move_to_a_position_without_a_value_fails_a_derivation() {
    // Deriving the unstored side of a pawn table values its promotions
    // through the pawnless tables. Where those have no value, loading
    // fails, or gives the table's own values where no derived position
    // promotes: a missing value is never taken for a draw, which would
    // lengthen a win.
    let dir = antichess_3();
    let tb = Tablebase::<International>::open(dir);
    let mut failed = 0;
    for key in ["KPvN", "KNvP", "KPvK", "KvP", "PvN", "BvP"] {
        let m = Material::parse(key).unwrap().canonical();
        let whole = MemTable::load::<International>(dir, &m, &tb, false).unwrap();
        match MemTable::load::<International>(dir, &m, &WithHoles(&tb), false) {
            Ok(table) => {
                for i in 0..Layout::new(m).size() {
                    assert_eq!(table.value(i), whole.value(i), "{key} {i}");
                }
            }
            Err(e) => {
                assert!(
                    e.to_string().contains("without a stored value"),
                    "{key}: {e}"
                );
                failed += 1;
            }
        }
    }
    assert!(failed > 0);
}

#[test]
fn two_pawn_tables_built_over_derived_slices_are_the_same() {
    // PPvK, PPvP and PPvN promote into tables with a pawn (QPvK, PPvQ,
    // ...), of which a job holds the sixteenth after the promotion; where
    // the distance file stores the other side, only the positions of that
    // sixteenth a promotion leads to are derived. The rebuilt files are
    // the same, and no lookup falls outside what was held.
    let dir = fresh_dir("two-pawn-reads");
    for entry in std::fs::read_dir(antichess_3()).unwrap().flatten() {
        std::fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let targets: Vec<Material> = ["PPvK", "PPvP", "PPvN"]
        .iter()
        .map(|k| Material::parse(k).unwrap().canonical())
        .collect();
    for m in &targets {
        for path in [tablebase::table_path, tablebase::wdl_path] {
            std::fs::remove_file(path(&dir, ransom::Variant::Antichess, m)).unwrap();
        }
    }
    let built = build_in(&dir, &targets, tablebase::BuildOptions::default());
    let rebuilt: Vec<_> = built.iter().filter(|b| !b.existed).collect();
    assert_eq!(rebuilt.len(), targets.len(), "{built:?}");
    for b in rebuilt {
        assert!(b.sliced > 0, "{b:?}");
        assert_eq!(b.file_lookups, 0, "{b:?}");
        assert_same_files_as_antichess_3(&dir, &b.material);
    }
}

#[test]
fn a_promotion_slice_read_from_files_holds_the_whole_tables_values() {
    // KQvN after a Black knight promotion (White to move) and after a White
    // queen promotion (Black to move): its distance file stores one of the
    // two halves, the other is derived. The pawn tables' slices are
    // sixteenths, derived through the same men with the other side to
    // move, and only at the positions a promotion leads to. Read as the
    // slice alone, or whole where the slice would be derived, every value
    // held is the whole table's.
    let white = |role: Role| role.of(Color::White);
    let black = |role: Role| role.of(Color::Black);
    let (mut derived, mut skipped) = (Vec::new(), 0);
    for (key, pieces) in [
        ("KQvN", vec![black(Role::Knight), white(Role::Queen)]),
        ("KQvP", vec![white(Role::Queen)]),
        ("KRvP", vec![white(Role::Rook)]),
        ("KPvQ", vec![black(Role::Queen)]),
        ("KPvR", vec![black(Role::Rook)]),
    ] {
        let m = Material::parse(key).unwrap();
        let rest =
            tablebase::MemTables::load_reads::<International>(antichess_3(), &m, false).unwrap();
        let whole = MemTable::load::<International>(antichess_3(), &m, &rest, false).unwrap();
        let layout = Layout::new(m.canonical());
        for piece in pieces {
            let slice = Slice::of_promotion(&layout, piece).unwrap();
            let load = |whole_if_derived| {
                MemTable::load_slice_or_whole::<International>(
                    antichess_3(),
                    &m,
                    slice,
                    &rest,
                    false,
                    whole_if_derived,
                )
                .unwrap()
            };
            let (part, either) = (load(false), load(true));
            assert_eq!(part.slice(), Some(&slice));
            let was_derived = either.slice().is_none();
            if was_derived {
                derived.push(key);
            }
            for index in 0..layout.size() {
                let held = slice.slot(index).map(|_| whole.value(index));
                let got = part.get(index);
                if was_derived && got.is_some_and(|v| !v.is_known()) {
                    // Derived only where a promotion leads (and a build
                    // looks it up): elsewhere unknown, never wrong.
                    let looked_up = layout.decode(index).is_some_and(|(board, turn)| {
                        !tablebase::retro::has_capture(&board, turn)
                            && slice.follows_a_promotion(&board)
                    });
                    assert!(!looked_up, "{key} {index} not derived");
                    assert_ne!(whole.value(index), Value::DRAW, "{key} {index}");
                    skipped += 1;
                } else {
                    assert_eq!(got, held, "{key} {index}");
                }
                if was_derived {
                    assert_eq!(either.get(index), Some(whole.value(index)), "{key} {index}");
                } else {
                    assert_eq!(either.get(index), held, "{key} {index}");
                }
            }
        }
    }
    // Only a half that is not stored is derived, so read whole: one of
    // KQvN's, and some of the pawn tables' slices.
    assert_eq!(derived.iter().filter(|&&k| k == "KQvN").count(), 1);
    assert!(derived.iter().any(|&k| k != "KQvN"), "{derived:?}");
    // Some positions of the pawn tables' slices are no promotion's.
    assert!(skipped > 0);
}

#[test]
fn en_passant_positions_are_valued_from_their_captures() {
    let tb = Tablebase::<International>::open(antichess_3());
    // White pawn e5, Black pawn d5 just double-stepped: exd6 is forced.
    let with_ep = probe(&tb, "8/8/8/3pP3/8/8/8/8 w - d6 0 1");
    // After exd6 Black has no men left and wins.
    assert_eq!(with_ep, (Wdl::Loss, 1));
    let without = probe(&tb, "8/8/8/3pP3/8/8/8/8 w - - 0 1");
    assert_ne!(with_ep, without);
    // The double step that allows it is scored through the en-passant position.
    let before: Antichess = fen::parse_position("8/3p4/8/4P3/8/8/8/8 b - - 0 1").unwrap();
    let moves = tb.probe_moves(&before).unwrap();
    let d7d5 = moves
        .iter()
        .find(|(m, _, _)| ransom::notation::uci::write(*m) == "d7d5")
        .unwrap();
    assert_eq!((d7d5.1, d7d5.2), with_ep);
    assert_eq!(tb.try_probe(&before).unwrap(), (Wdl::Win, 2));
}

#[test]
fn stalemate_differs_between_antichess_and_suicide() {
    // White pawn a4 blocked by Black's a5, White to move: stalemate.
    let text = "8/8/8/p7/P7/8/8/8 w - - 0 1";
    let anti_dir = antichess_3();
    let anti = Tablebase::<International>::open(anti_dir);
    assert_eq!(probe(&anti, text), (Wdl::Win, 0));
    let dir = fresh_dir("suicide-pvp");
    tablebase::build::<Fics>(&dir, &[Material::parse("PvP").unwrap()], |_, _, _| {}).unwrap();
    let sui = Tablebase::<Fics>::open(&dir);
    let pos: Suicide = fen::parse_position(text).unwrap();
    // FICS: equal numbers of men, a stalemate is a draw.
    assert_eq!(sui.try_probe(&pos).unwrap(), (Wdl::Draw, 0));
    // One move earlier, a3-a4 stalemates Black: a win for Black in
    // antichess, a draw under suicide rules.
    let before = "8/8/8/p7/8/P7/8/8 w - - 0 1";
    let pos: Suicide = fen::parse_position(before).unwrap();
    let moves = sui.probe_moves(&pos).unwrap();
    let a4 = moves
        .iter()
        .find(|(m, _, _)| ransom::notation::uci::write(*m) == "a3a4")
        .unwrap();
    assert_eq!(a4.1, Wdl::Draw);
    let pos: Antichess = fen::parse_position(before).unwrap();
    let moves = anti.probe_moves(&pos).unwrap();
    let a4 = moves
        .iter()
        .find(|(m, _, _)| ransom::notation::uci::write(*m) == "a3a4")
        .unwrap();
    assert_eq!((a4.1, a4.2), (Wdl::Win, 0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn unreadable_tables_are_listed_at_start_up() {
    // What `serve` names at start-up: files that do not open as the table
    // their name says (empty, truncated, or another table's content).
    let src = antichess_3();
    let dir = fresh_dir("unreadable");
    std::fs::create_dir_all(&dir).unwrap();
    let copy = |key: &str, to: &str| {
        let m = Material::parse(key).unwrap();
        let from = tablebase::table_path(src, ransom::Variant::Antichess, &m);
        std::fs::copy(from, dir.join(format!("antichess-{to}.rtb"))).unwrap();
    };
    copy("KRvK", "KRvK");
    copy("KQvK", "KNvK");
    std::fs::write(dir.join("antichess-KBvK.rtb"), b"").unwrap();
    let listed = tablebase::unreadable_tables(&dir, ransom::Variant::Antichess);
    assert_eq!(listed.len(), 2, "{listed:?}");
    assert!(listed[0].contains("antichess-KBvK.rtb"), "{listed:?}");
    assert!(listed[1].contains("KNvK"), "{listed:?}");
    assert!(tablebase::unreadable_tables(&dir, ransom::Variant::Suicide).is_empty());
}

#[test]
fn corrupt_and_truncated_tables_give_clear_errors() {
    let src = antichess_3();
    let m = Material::parse("KRvK").unwrap();
    let original = tablebase::table_path(src, ransom::Variant::Antichess, &m);
    let bytes = std::fs::read(&original).unwrap();
    let text = "8/8/8/8/8/3k4/8/1RK5 b - - 0 1";
    let pos: Antichess = fen::parse_position(text).unwrap();

    // Truncated.
    let dir = fresh_dir("corrupt-truncated");
    let path = tablebase::table_path(&dir, ransom::Variant::Antichess, &m);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let wdl = tablebase::wdl_path(&dir, ransom::Variant::Antichess, &m);
    std::fs::copy(
        tablebase::wdl_path(src, ransom::Variant::Antichess, &m),
        &wdl,
    )
    .unwrap();
    let tb = Tablebase::<International>::open(&dir);
    let err = tb.try_probe(&pos).unwrap_err().to_string();
    assert!(
        err.contains("corrupt") || err.contains("truncated"),
        "{err}"
    );
    assert_eq!(tb.probe(&pos), None);

    // A flipped byte in a block.
    let mut bad = bytes.clone();
    let n = bad.len();
    bad[n - 20] ^= 0x55;
    std::fs::write(&path, &bad).unwrap();
    let tb = Tablebase::<International>::open(&dir);
    let rest = Tablebase::<International>::open(src);
    let err = tablebase::MemTable::load::<International>(&dir, &m, &rest, false)
        .unwrap_err()
        .to_string();
    assert!(err.contains("KRvK.rtb"), "{err}");
    let _ = tb.try_probe(&pos); // an error or a value from an intact block, never a panic

    // A flipped byte in the win/draw/loss file.
    std::fs::write(&path, &bytes).unwrap();
    let wdl_bytes = std::fs::read(&wdl).unwrap();
    let mut bad = wdl_bytes.clone();
    let n = bad.len();
    bad[n - 20] ^= 0x55;
    std::fs::write(&wdl, &bad).unwrap();
    let err = tablebase::MemTable::load::<International>(&dir, &m, &rest, true)
        .unwrap_err()
        .to_string();
    assert!(err.contains("KRvK.rwdl"), "{err}");
    let tb = Tablebase::<International>::open(&dir);
    let err = tb.try_probe_wdl(&pos).unwrap_err().to_string();
    assert!(err.contains("KRvK.rwdl"), "{err}");

    // A distance file without its win/draw/loss file.
    std::fs::remove_file(&wdl).unwrap();
    let tb = Tablebase::<International>::open(&dir);
    let err = tb.try_probe(&pos).unwrap_err().to_string();
    assert!(err.contains("win/draw/loss file"), "{err}");

    // Not a table at all, and a missing table.
    std::fs::write(&path, b"hello").unwrap();
    let tb = Tablebase::<International>::open(&dir);
    assert!(tb.try_probe(&pos).is_err());
    std::fs::remove_file(&path).unwrap();
    let tb = Tablebase::<International>::open(&dir);
    let err = tb.try_probe(&pos).unwrap_err().to_string();
    assert!(err.contains("missing table KRvK"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn value_packing() {
    assert_eq!(Value::win(35).wdl(), Some((Wdl::Win, 35)));
    assert_eq!(Value::loss(0).wdl(), Some((Wdl::Loss, 0)));
    assert_eq!(Value::DRAW.wdl(), Some((Wdl::Draw, 0)));
    assert_eq!(Value::UNKNOWN.wdl(), None);
    assert_eq!(
        Value::parent_of_best([Value::win(3), Value::loss(4), Value::loss(2)]),
        Value::win(3)
    );
    assert_eq!(
        Value::parent_of_best([Value::win(3), Value::win(7)]),
        Value::loss(8)
    );
    assert_eq!(
        Value::parent_of_best([Value::win(3), Value::DRAW]),
        Value::DRAW
    );
}

/// The 4-man tables the ignored checks need (built into `RANSOM_TB_DIR`
/// if set, else a fresh directory).
fn antichess_4(keys: &[&str]) -> PathBuf {
    let dir = match std::env::var_os("RANSOM_TB_DIR") {
        Some(d) => PathBuf::from(d),
        None => fresh_dir("antichess4"),
    };
    let targets: Vec<Material> = keys.iter().map(|k| Material::parse(k).unwrap()).collect();
    tablebase::build::<International>(&dir, &targets, |done, total, b| {
        eprintln!("[{done}/{total}] {} {:.1}s", b.material, b.seconds)
    })
    .unwrap();
    dir
}

fn tolius_4man_keys() -> Vec<String> {
    tolius_rows()
        .into_iter()
        .filter(|(t, _, res)| *res != -2 && men(t) == 4)
        .map(|(t, _, _)| {
            let pos: Antichess = fen::parse_position(&t).unwrap();
            Material::from_board(pos.board()).canonical().to_string()
        })
        .collect()
}

#[test]
#[ignore = "builds a 5-man table with the 14 it needs and checks it (about 10 minutes in release); see tablebases/README.md"]
fn a_five_man_table_builds_and_verifies() {
    // KRvKNN (stored as KNNvKR), the 5-man table of tablebases/README.md
    // "5-man tables": built from an empty folder with what it needs, both
    // its files consistent with every position's moves (`tb verify`), and
    // its longest win the 120 plies recorded there.
    let m = Material::parse("KRvKNN").unwrap().canonical();
    let (dir, built) = build_with("five-man", &[m], tablebase::BuildOptions::default());
    assert_eq!(built.len(), 15, "KNNvKR and the 14 tables it needs");
    let mut reports = Vec::new();
    for path in [tablebase::wdl_path, tablebase::table_path] {
        let file = path(&dir, ransom::Variant::Antichess, &m);
        let report = tablebase::verify_table_file::<International>(&file).unwrap();
        assert_eq!(report.first_error, None, "{}", file.display());
        assert_eq!(report.positions, 51_907_774);
        reports.push(report);
    }
    // The distance file's check finds the longest win.
    let report = reports.pop().unwrap();
    assert_eq!(report.longest_win, 120);
    let fen = report.longest_win_fen.unwrap();
    assert!(fen.starts_with("1N6/6r1/6k1/8/8/8/8/K1N5 w"), "{fen}");
}

#[test]
#[ignore = "builds 4-man tables (minutes); see tablebases/README.md"]
fn tolius_reference_dtw_4_men() {
    let keys = tolius_4man_keys();
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let dir = antichess_4(&refs);
    let tb = Tablebase::<International>::open(&dir);
    let n = check_tolius(&tb, 4);
    assert!(n >= 20, "{n}");
}

#[test]
#[ignore = "builds every 4-man pawnless table (long); see tablebases/README.md"]
fn python_chess_pawnless_rows_4_men() {
    let keys: Vec<String> = Material::all_with_men(4)
        .into_iter()
        .filter(|m| !m.has_pawns())
        .map(|m| m.to_string())
        .collect();
    let refs: Vec<&str> = keys.iter().map(String::as_str).collect();
    let dir = antichess_4(&refs);
    let tb = Tablebase::<International>::open(&dir);
    let n = check_suicide_stats(&tb, 4);
    assert!(n >= 100, "{n}");
}

/// BBvK is a 3-man table. The issue quotes 45 plies as its longest win;
/// exact DTW gives 47, and the independent tolius reference agrees (its row
/// `8/8/K7/8/8/6b1/8/3b4 w` is a loss in 47 for the lone king), so 47 it is.
/// (45 is the longest PvK win, also in the tolius reference.)
#[test]
fn bbvk_and_pvk_longest_wins() {
    let tb = Tablebase::<International>::open(antichess_3());
    let bbvk = tablebase::stats::<International>(&Material::parse("BBvK").unwrap(), &tb).unwrap();
    assert_eq!(bbvk.longest_win, 47, "{bbvk:?}");
    assert_eq!(
        probe(&tb, "8/8/K7/8/8/6b1/8/3b4 w - - 0 1"),
        (Wdl::Loss, 47)
    );
    let pvk = tablebase::stats::<International>(&Material::parse("PvK").unwrap(), &tb).unwrap();
    assert_eq!(pvk.longest_win, 45, "{pvk:?}");
}

#[test]
#[ignore = "builds KBNvK (about 10 s in release, longer in the test profile)"]
fn kbnvk_longest_win_exceeds_127_plies() {
    let dir = antichess_4(&["KBNvK"]);
    let s =
        tablebase::stats_in_dir::<International>(&dir, &Material::parse("KBNvK").unwrap()).unwrap();
    assert_eq!(s.longest_win, 148, "{s:?}");
}

/// Issue 7: the prover probes the tables at its leaves. Positions one
/// capture away from the 3-man tables (or in them) are settled at once;
/// the proofs still end in positions the rules score (the verifier walks
/// the tables' quickest wins) and need far fewer nodes than without.
#[test]
fn the_prover_settles_covered_positions_from_the_tables_with_fewer_nodes() {
    use ransom::search::oracle::TablebaseOracle;
    use ransom::search::{Budget, Verdict, prove, prove_with_oracle};
    let oracle = TablebaseOracle::<International>::open(antichess_3()).expect("tables");
    assert_eq!(oracle.max_men(), 3);
    assert_eq!(oracle.complete_men(), 3, "the whole 2-3-man set");
    let budget = Budget {
        max_nodes: 300_000,
        max_time: None,
        hash_bytes: 64 << 20,
        stop: None,
    };
    for (text, verdict, dtw) in [
        ("8/8/8/8/8/3k4/8/1R6 b - - 0 1", Verdict::Loss, 35),
        ("7k/8/5K2/8/8/1R6/P7/8 w - - 0 1", Verdict::Win, 50),
        ("8/8/K7/8/8/6b1/8/3b4 w - - 0 1", Verdict::Loss, 47),
    ] {
        let pos: Antichess = fen::parse_position(text).unwrap();
        let without = prove(&pos, &budget, &mut |_| {});
        let with = prove_with_oracle(&pos, &budget, Some(&oracle), &mut |_| {});
        assert_eq!(with.verdict, verdict, "{text}: {:?}", with.notes);
        assert!(with.oracle_hits > 0, "{text}");
        let verified = with.proof.as_ref().unwrap().verify().expect("verifies");
        // The quickest-win lines below the table hits are the exact DTW.
        assert_eq!(verified.depth, dtw, "{text}");
        assert!(
            with.nodes * 100 < without.nodes,
            "{text}: {} nodes with tables, {} without",
            with.nodes,
            without.nodes
        );
    }
}

/// Generation is deterministic: the 2–3-man set built here has exactly the
/// sizes and checksums of the manifest committed in tablebases/.
#[test]
fn the_built_tables_match_the_committed_manifest() {
    use ransom::Variant;
    let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("tablebases/antichess.manifest");
    let listed = tablebase::read_manifest(&committed).expect("tablebases/antichess.manifest");
    let built = tablebase::scan(antichess_3(), Variant::Antichess).unwrap();
    assert_eq!(
        built.len(),
        2 * 147,
        "a distance and a win/draw/loss file per table"
    );
    for table in &built {
        let want = listed
            .iter()
            .find(|e| e.name == table.name)
            .unwrap_or_else(|| panic!("{} is not in the committed manifest", table.name));
        assert_eq!(
            table, want,
            "rebuilt {} differs from the manifest",
            table.name
        );
    }
    // A corrupted copy is reported.
    let dir = fresh_dir("manifest-check");
    for e in &built {
        std::fs::copy(antichess_3().join(&e.name), dir.join(&e.name)).unwrap();
    }
    tablebase::write_manifest(&dir, Variant::Antichess).unwrap();
    assert!(
        tablebase::check_manifest(&dir, Variant::Antichess)
            .unwrap()
            .is_empty()
    );
    std::fs::write(dir.join("antichess-KvK.rtb"), b"not a table").unwrap();
    let problems = tablebase::check_manifest(&dir, Variant::Antichess).unwrap();
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].starts_with("antichess-KvK.rtb:"),
        "{problems:?}"
    );
}

/// A table whose stored values break the rule `tb verify` checks (a value
/// is the best of its moves' values) is reported, naming a position that
/// breaks it, through both kinds of file: distances changed in the
/// distance file, categories changed in the win/draw/loss file.
#[test]
fn verify_reports_positions_that_contradict_their_moves() {
    let tb = Tablebase::<International>::open(antichess_3());
    let m = Material::parse("KvR").unwrap().canonical();
    let values = tablebase::generate::<International>(&m, &tb).unwrap();
    let dir = fresh_dir("verify-corrupt");
    // Every 50th win, on both sides to move (the distance file keeps one),
    // two plies longer: the same category and parity, a wrong distance.
    let longer: Vec<u16> = values
        .iter()
        .enumerate()
        .map(|(i, &v)| match Value(v).wdl() {
            Some((Wdl::Win, d)) if i % 50 == 0 => Value::win(d + 2).0,
            _ => v,
        })
        .collect();
    assert_ne!(longer, values);
    tablebase::write_table::<International>(&dir, &m, &longer, false).unwrap();
    let rtb = tablebase::table_path(&dir, ransom::Variant::Antichess, &m);
    let report = tablebase::verify_table_file::<International>(&rtb).unwrap();
    let error = report.first_error.expect("a distance error");
    assert!(error.contains("successors give"), "{error}");
    // The same wins made draws: a category error in the .rwdl file.
    let drawn: Vec<u16> = values
        .iter()
        .zip(&longer)
        .map(|(&v, &l)| if v == l { v } else { Value::DRAW.0 })
        .collect();
    tablebase::write_table::<International>(&dir, &m, &drawn, true).unwrap();
    let rwdl = tablebase::wdl_path(&dir, ransom::Variant::Antichess, &m);
    let report = tablebase::verify_table_file::<International>(&rwdl).unwrap();
    let error = report.first_error.expect("a category error");
    assert!(error.contains("successors give"), "{error}");
}

/// tablebases/README.md "Checkpoints": a build that finds a table's
/// checkpoint resumes the table from it, writes the same files as a build
/// from the start and removes the checkpoint.
#[test]
fn a_build_resumes_a_table_from_its_checkpoint() {
    let kpvn = Material::parse("KPvN").unwrap();
    let (dir, built) = build_with("checkpoint", &[kpvn], tablebase::BuildOptions::default());
    assert!(built.iter().all(|b| b.resumed_at.is_none()));
    let files = [
        tablebase::table_path(&dir, ransom::Variant::Antichess, &kpvn),
        tablebase::wdl_path(&dir, ransom::Variant::Antichess, &kpvn),
    ];
    let before: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    // A generation checkpointing after every level leaves the state before
    // its last level, as a build killed there would.
    let checkpoint = tablebase::checkpoint_path(&dir, ransom::Variant::Antichess, &kpvn);
    let every_level =
        tablebase::Checkpointing::new(checkpoint.clone(), std::time::Duration::ZERO, false);
    let src = tablebase::MemTables::over_files::<International>(&dir, false);
    let generated = tablebase::generate_checkpointed::<International>(
        &kpvn,
        &src,
        &tablebase::BuildProgress::default(),
        Some(&every_level),
    )
    .unwrap();
    assert!(generated.checkpoints > 10 && checkpoint.exists());
    for f in &files {
        std::fs::remove_file(f).unwrap();
    }
    let state = tablebase::BuildProgress::default();
    let options = tablebase::BuildOptions::default();
    let again = tablebase::build_with_progress::<International>(
        &dir,
        &[kpvn],
        &state,
        options,
        |_, _, _| {},
    )
    .unwrap();
    let rebuilt = again.iter().find(|b| b.material == kpvn).unwrap();
    assert!(!rebuilt.existed && rebuilt.resumed_at.is_some_and(|level| level > 10));
    assert!(!checkpoint.exists());
    for (f, bytes) in files.iter().zip(&before) {
        assert!(std::fs::read(f).unwrap() == *bytes, "{}", f.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
