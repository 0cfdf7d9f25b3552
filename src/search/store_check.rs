//! `ransom store verify`: every stored win and loss re-proved from the
//! stored moves, with the independent verifier, down to positions the rules
//! or the endgame tables score.

use crate::board::Color;
use crate::notation::fen;
use crate::position::Position;
use crate::search::oracle::Oracle;
use crate::search::verify::SharedVerifier;
use crate::solved::packed::unpack;
use crate::solved::{MergedRecord, lock, read_merged, scan, variant_dir};
use crate::store::StoreError;
use crate::tablebase::Wdl;
use std::path::{Path, PathBuf};

/// What `store verify` found in a sound store.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct StoreCheck {
    /// Records read (a position recorded twice counts twice).
    pub records: u64,
    /// Distinct positions.
    pub positions: u64,
    /// Positions where the side to move wins, re-proved.
    pub wins: u64,
    /// Positions where the side to move loses, re-proved.
    pub losses: u64,
    /// "No forced win" records: search results that have no proof to
    /// check; they only ever stop a search from looking further.
    pub no_wins: u64,
    /// Positions the verifier walked.
    pub walked: u64,
    /// Bytes dropped as torn writes at the ends of logs.
    pub torn_bytes: u64,
    /// Records lost from logs beyond a torn write (damage: what remains
    /// was checked and is sound, but results are gone).
    pub lost_records: u64,
    /// Bytes of those records.
    pub lost_bytes: u64,
    /// The damaged logs and what each lost ([`crate::solved::StoreReading::damage_report`]).
    #[serde(skip)]
    pub damage: Option<String>,
    /// Checkpoints of unfinished searches read whole.
    pub checkpoints: u64,
    /// The checkpoints that do not read, and why.
    #[serde(skip)]
    pub damaged_checkpoints: Vec<(PathBuf, String)>,
}

/// Reads every checkpoint (`*.ckpt`) in `dir` whole: the number read and
/// those that do not read, with why.
fn check_checkpoints<P: Position>(dir: &Path) -> (u64, Vec<(PathBuf, String)>) {
    use crate::search::scale::checkpoint;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "ckpt"))
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    let mut damaged = Vec::new();
    for path in &paths {
        let read = checkpoint::summary(path)
            .map_err(|e| e.problem())
            .and_then(|summary| {
                let root: P = fen::parse_position(&summary.root_fen)
                    .map_err(|e| format!("its root {}: {e}", summary.root_fen))?;
                checkpoint::load(path, &root, summary.attacker)
                    .map_err(|e| e.problem())
                    .map(|_| ())
            });
        if let Err(problem) = read {
            damaged.push((path.clone(), problem));
        }
    }
    (paths.len() as u64, damaged)
}

/// Why a store does not verify: the file and record, and what is wrong.
#[derive(Debug, thiserror::Error)]
pub enum StoreCheckError {
    /// A file could not be read or is damaged.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A record is wrong.
    #[error("{file}: record {record} (key {key:016x}{fen}): {problem}")]
    Record {
        /// The file holding the record.
        file: PathBuf,
        /// The record's number in it.
        record: u64,
        /// The position's hash.
        key: u64,
        /// `, FEN` when the position could be read.
        fen: String,
        /// What is wrong.
        problem: String,
    },
}

/// Verifies `P`'s store under `root`; positions `oracle` covers count as
/// scored by the tables.
///
/// The checkpoints of unfinished searches are read whole too (checksum,
/// header, every node, the position their header names):
/// [`StoreCheck::damaged_checkpoints`] names those that do not read. With
/// `wait`, a store another process is writing is waited for.
pub fn verify_store<P: Position>(
    root: &Path,
    oracle: Option<&dyn Oracle<P>>,
    wait: bool,
) -> Result<StoreCheck, StoreCheckError> {
    let dir = variant_dir(root, P::VARIANT);
    if !dir.is_dir() {
        return Err(StoreError::Io {
            path: dir.display().to_string(),
            error: std::io::Error::new(std::io::ErrorKind::NotFound, "no store here"),
        }
        .into());
    }
    let _lock = lock(&dir, false, wait)?;
    let files = scan(&dir)?;
    let merged = read_merged(&files, P::VARIANT.name())?;
    let (entries, names, reading) = (&merged.records, &merged.files, &merged.reading);
    let mut check = StoreCheck {
        records: reading.table_records + reading.log_records,
        ..StoreCheck::default()
    };
    check.torn_bytes = reading.torn_bytes;
    check.lost_records = reading.lost_records;
    check.lost_bytes = reading.lost_bytes;
    check.damage = reading.damage_report();
    check.positions = entries.len() as u64;
    let lookup = |hash: u64| -> Result<Option<u32>, String> {
        Ok(entries
            .get(&hash)
            .filter(|e| !e.record.value.is_contradictory())
            .and_then(|e| e.record.value.move_code()))
    };
    let table_win = |winner: Color| {
        move |pos: &P| {
            oracle
                .and_then(|o| o.probe_wdl(pos))
                .is_some_and(|wdl| match wdl {
                    Wdl::Win => pos.turn() == winner,
                    Wdl::Loss => pos.turn() != winner,
                    Wdl::Draw => false,
                })
        }
    };
    let white_leaf = table_win(Color::White);
    let black_leaf = table_win(Color::Black);
    let mut white = SharedVerifier::new(
        Color::White,
        &lookup,
        oracle.map(|_| &white_leaf as &dyn Fn(&P) -> bool),
    );
    let mut black = SharedVerifier::new(
        Color::Black,
        &lookup,
        oracle.map(|_| &black_leaf as &dyn Fn(&P) -> bool),
    );
    // In file order, so that a failure names the earliest record.
    let mut order: Vec<(&u64, &MergedRecord)> = entries.iter().collect();
    order.sort_by_key(|(_, e)| (e.file, e.index));
    for (&key, entry) in order {
        let fail = |fen: String, problem: String| StoreCheckError::Record {
            file: names[entry.file as usize].clone(),
            record: entry.index,
            key,
            fen,
            problem,
        };
        let value = entry.record.value;
        if value.is_contradictory() {
            return Err(fail(
                String::new(),
                "recorded both as a win and as a loss".into(),
            ));
        }
        let pos = entry
            .record
            .position
            .and_then(|p| unpack::<P>(&p))
            .ok_or_else(|| {
                fail(
                    String::new(),
                    "the stored position is not a legal position".into(),
                )
            })?;
        let fen_text = format!(", {}", fen::write(&pos));
        if pos.zobrist() != key && !(key == 1 && pos.zobrist() == 0) {
            return Err(fail(
                fen_text,
                "the stored position does not have this hash".into(),
            ));
        }
        if !(value.is_win() || value.is_loss()) {
            check.no_wins += 1;
            continue;
        }
        let winner = if value.is_win() {
            pos.turn()
        } else {
            !pos.turn()
        };
        let verifier = match winner {
            Color::White => &mut white,
            Color::Black => &mut black,
        };
        verifier
            .check(&pos)
            .map_err(|e| fail(fen_text, e.to_string()))?;
        if value.is_win() {
            check.wins += 1;
        } else {
            check.losses += 1;
        }
    }
    check.walked = white.positions() + black.positions();
    (check.checkpoints, check.damaged_checkpoints) =
        check_checkpoints::<P>(&dir.join(crate::solved::CHECKPOINTS_DIR));
    Ok(check)
}
