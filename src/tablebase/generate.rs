//! Table generation, verification and statistics.
//!
//! Generation is iterated forward analysis. One parallel pass over every
//! raw index decodes the position, generates its legal moves and sorts the
//! successors into two kinds: those in the same table (no capture, no
//! promotion, no en-passant chance: their canonical indices are kept) and
//! the others (a capture or promotion: valued at once from the smaller
//! tables; a double step giving the opponent an en-passant capture: valued
//! from that capture and the opponent's other captures, all of which lead
//! to smaller tables). Then, for k = 1, 2, ...: a position is a win in k
//! plies if a successor is a loss in k - 1 (and none in fewer), a loss in k
//! if every successor is a win, the longest in k - 1. Positions left when
//! nothing more can change are draws (no 50-move rule).

use super::{
    Layout, Lookup, Material, MemTable, MemTables, TbError, Value, Wdl, evaluate, open_table,
    position_of, stalemate_value, table_path,
};
use crate::board::Color;
use crate::position::Position;
use crate::store::{TableKind, TableWriter};
use crate::variants::LosingRules;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

struct Node {
    index: u32,
    kids: Box<[u32]>,
    /// Best win distance through the successors of other tables (u16::MAX: none).
    ext_win: u16,
    /// Longest loss distance through the successors of other tables.
    ext_loss: u16,
    /// Some successor of another table is not a win for the opponent.
    ext_blocks_loss: bool,
}

enum Start {
    Invalid,
    Done(u64, Value),
    Open(Node),
}

fn analyse<R: LosingRules>(
    layout: &Layout,
    index: u64,
    src: &dyn Lookup,
) -> Result<Start, TbError> {
    let Some((board, turn)) = layout.decode(index) else {
        return Ok(Start::Invalid);
    };
    let Some(pos) = position_of::<R>(board, turn) else {
        return Ok(Start::Invalid);
    };
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok(Start::Done(index, stalemate_value(&pos)));
    }
    let material = layout.material();
    let mut node = Node {
        index: index as u32,
        kids: Box::new([]),
        ext_win: u16::MAX,
        ext_loss: 0,
        ext_blocks_loss: false,
    };
    let mut kids = Vec::new();
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let cb = child.board();
        let same = child.state().ep_square.is_none() && {
            let found = Material::from_board(cb);
            found == material || found.flipped() == material
        };
        if same {
            kids.push(layout.index(cb, child.turn()) as u32);
            continue;
        }
        match evaluate(&child, src)?.wdl() {
            Some((Wdl::Loss, d)) => node.ext_win = node.ext_win.min(d + 1),
            Some((Wdl::Win, d)) => node.ext_loss = node.ext_loss.max(d + 1),
            Some((Wdl::Draw, _)) => node.ext_blocks_loss = true,
            None => {
                return Err(TbError::NotCovered(format!(
                    "{} leads to a position without a stored value",
                    crate::notation::fen::write(&pos)
                )));
            }
        }
    }
    node.kids = kids.into_boxed_slice();
    Ok(Start::Open(node))
}

fn decide(node: &Node, values: &[u16], k: u16) -> Option<Value> {
    let mut win = node.ext_win;
    let mut loss = node.ext_loss;
    let mut all_wins = !node.ext_blocks_loss && node.ext_win == u16::MAX;
    for &kid in node.kids.iter() {
        match Value(values[kid as usize]).wdl() {
            Some((Wdl::Loss, d)) => {
                win = win.min(d + 1);
                all_wins = false;
            }
            Some((Wdl::Win, d)) => loss = loss.max(d + 1),
            _ => all_wins = false,
        }
    }
    if win == k {
        Some(Value::win(k))
    } else if all_wins && loss == k {
        Some(Value::loss(k))
    } else {
        None
    }
}

/// Computes the values of every raw index of `material` (canonical), the
/// smaller tables it leads to coming from `src`.
pub fn generate<R: LosingRules>(
    material: &Material,
    src: &dyn Lookup,
) -> Result<Vec<u16>, TbError> {
    generate_with_progress::<R>(material, src, &BuildProgress::default())
}

/// [`generate`], reporting how far it got in `progress`.
pub fn generate_with_progress<R: LosingRules>(
    material: &Material,
    src: &dyn Lookup,
    progress: &BuildProgress,
) -> Result<Vec<u16>, TbError> {
    let layout = Layout::new(*material);
    let size = layout.size();
    if size > u32::MAX as u64 {
        return Err(TbError::BadMaterial(format!("{material}: too large")));
    }
    progress.size.store(size, Ordering::Relaxed);
    progress.analysed.store(0, Ordering::Relaxed);
    progress.level.store(0, Ordering::Relaxed);
    let starts: Vec<Start> = (0..size)
        .into_par_iter()
        .map(|i| {
            progress.analysed.fetch_add(1, Ordering::Relaxed);
            analyse::<R>(&layout, i, src)
        })
        .collect::<Result<_, _>>()?;
    let mut values = vec![Value::UNKNOWN.0; size as usize];
    let mut open: Vec<Node> = Vec::new();
    let mut frontier: Vec<u32> = Vec::new();
    for s in starts {
        match s {
            Start::Invalid => {}
            Start::Done(i, v) => {
                values[i as usize] = v.0;
                frontier.push(i as u32);
            }
            Start::Open(n) => open.push(n),
        }
    }
    // Predecessors (as slots in `open`) of every index, for the frontier.
    let mut pred_start = vec![0u32; size as usize + 1];
    for n in &open {
        for &kid in n.kids.iter() {
            pred_start[kid as usize + 1] += 1;
        }
    }
    for i in 0..size as usize {
        pred_start[i + 1] += pred_start[i];
    }
    let mut fill = pred_start.clone();
    let mut preds = vec![0u32; pred_start[size as usize] as usize];
    for (slot, n) in open.iter().enumerate() {
        for &kid in n.kids.iter() {
            preds[fill[kid as usize] as usize] = slot as u32;
            fill[kid as usize] += 1;
        }
    }
    drop(fill);
    // Nodes whose successors in other tables alone may decide them at k.
    let mut buckets: std::collections::BTreeMap<u16, Vec<u32>> = Default::default();
    for (slot, n) in open.iter().enumerate() {
        if n.ext_win != u16::MAX {
            buckets.entry(n.ext_win).or_default().push(slot as u32);
        }
        if n.ext_loss > 0 {
            buckets.entry(n.ext_loss).or_default().push(slot as u32);
        }
    }
    let horizon = buckets.keys().next_back().copied().unwrap_or(0);
    let mut seen = vec![0u16; open.len()];
    let mut k: u16 = 1;
    loop {
        // Candidates: predecessors of the positions decided at k - 1, and
        // the nodes of bucket k.
        let mut cands: Vec<u32> = Vec::new();
        let mut add = |slot: u32, cands: &mut Vec<u32>| {
            if seen[slot as usize] != k {
                seen[slot as usize] = k;
                cands.push(slot);
            }
        };
        for &i in &frontier {
            let (a, b) = (pred_start[i as usize], pred_start[i as usize + 1]);
            for &slot in &preds[a as usize..b as usize] {
                add(slot, &mut cands);
            }
        }
        if let Some(bucket) = buckets.remove(&k) {
            for slot in bucket {
                add(slot, &mut cands);
            }
        }
        cands.retain(|&slot| !Value(values[open[slot as usize].index as usize]).is_known());
        let decided: Vec<(u32, Value)> = cands
            .par_iter()
            .filter_map(|&slot| {
                let n = &open[slot as usize];
                decide(n, &values, k).map(|v| (n.index, v))
            })
            .collect();
        progress.level.store(u32::from(k), Ordering::Relaxed);
        frontier.clear();
        for (i, v) in decided {
            values[i as usize] = v.0;
            frontier.push(i);
        }
        if frontier.is_empty() && k > horizon {
            break;
        }
        if k >= (u16::MAX >> 2) - 1 {
            return Err(TbError::BadMaterial(format!(
                "{material}: distance overflow"
            )));
        }
        k += 1;
    }
    for n in &open {
        if !Value(values[n.index as usize]).is_known() {
            values[n.index as usize] = Value::DRAW.0;
        }
    }
    Ok(values)
}

/// zstd level of table files. On KRvKN, level 15 writes 645 KB where 19
/// writes 626 KB and 9 about 20% more, and costs far less time than 19.
const TABLE_ZSTD_LEVEL: i32 = 15;

/// Writes the valid values of a table to `path` (atomically).
pub fn write_table<R: LosingRules>(
    path: &Path,
    material: &Material,
    values: &[u16],
) -> Result<(), TbError> {
    let mut w = TableWriter::new(
        TableKind::Tablebase,
        R::VARIANT.name(),
        &format!("{material} {}", super::LAYOUT_TAG),
        super::CODES_PER_RECORD,
    )
    .records_per_block(super::RECORDS_PER_BLOCK)
    .zstd_level(TABLE_ZSTD_LEVEL);
    for (key, bytes) in super::codec::encode(values) {
        w.push(key, &bytes);
    }
    w.write(path)?;
    Ok(())
}

/// How far a build has got, updated while it runs (for progress bars; read
/// it from another thread).
#[derive(Debug, Default)]
pub struct BuildProgress {
    /// Tables finished (built or found).
    pub tables_done: AtomicUsize,
    /// Tables in the build.
    pub tables: AtomicUsize,
    /// Positions of the current table analysed so far.
    pub analysed: AtomicU64,
    /// Positions of the current table.
    pub size: AtomicU64,
    /// Distance (plies) the current table's iteration has reached.
    pub level: AtomicU32,
    /// Positions in all tables finished so far and in all tables of the build.
    pub positions_done: AtomicU64,
    /// Positions in all tables of the build.
    pub positions: AtomicU64,
    /// The table being built.
    pub current: Mutex<String>,
}

/// One table built (or found) by [`build`].
#[derive(Clone, Debug)]
pub struct Built {
    /// The material.
    pub material: Material,
    /// The file.
    pub path: PathBuf,
    /// Whether it was there already.
    pub existed: bool,
    /// Seconds spent generating and writing.
    pub seconds: f64,
    /// File size in bytes.
    pub bytes: u64,
}

/// Builds the tables of `targets` and everything they need that is not yet
/// in `dir`, smallest first; existing tables are kept (so an interrupted
/// build resumes). `progress` is called after each table.
pub fn build<R: LosingRules>(
    dir: &Path,
    targets: &[Material],
    progress: impl FnMut(usize, usize, &Built),
) -> Result<Vec<Built>, TbError> {
    build_with_progress::<R>(dir, targets, &BuildProgress::default(), progress)
}

/// The tables `targets` need, each with the tables it reads (its captures'
/// and promotions'), in an order where every table comes after those it
/// reads: fewest men first, then fewest pawns. Each entry is one job
/// (`ransom tb build --material M`) for a batch runner.
pub fn plan(targets: &[Material]) -> Vec<(Material, Vec<Material>)> {
    let mut all: Vec<Material> = Vec::new();
    let mut stack: Vec<Material> = targets.iter().map(|m| m.canonical()).collect();
    while let Some(m) = stack.pop() {
        if all.contains(&m) {
            continue;
        }
        stack.extend(m.successors());
        all.push(m);
    }
    all.sort_by_key(|m| (m.men(), m.pawns(), m.to_string()));
    all.into_iter()
        .map(|m| {
            let mut reads = m.successors();
            reads.sort_by_key(|s| (s.men(), s.pawns(), s.to_string()));
            (m, reads)
        })
        .collect()
}

/// [`build`], reporting how far it got in `state`.
pub fn build_with_progress<R: LosingRules>(
    dir: &Path,
    targets: &[Material],
    state: &BuildProgress,
    mut progress: impl FnMut(usize, usize, &Built),
) -> Result<Vec<Built>, TbError> {
    let all: Vec<Material> = plan(targets).into_iter().map(|(m, _)| m).collect();
    let mut mem = MemTables {
        variant: Some(R::VARIANT),
        dir: dir.to_path_buf(),
        ..MemTables::default()
    };
    let mut out = Vec::new();
    let total = all.len();
    state.tables.store(total, Ordering::Relaxed);
    state.positions.store(
        all.iter().map(|m| Layout::new(*m).size()).sum(),
        Ordering::Relaxed,
    );
    for (done, m) in all.iter().enumerate() {
        let path = table_path(dir, R::VARIANT, m);
        *state.current.lock().unwrap_or_else(|e| e.into_inner()) = m.to_string();
        let start = std::time::Instant::now();
        let existed = path.exists();
        if !existed {
            for s in m.successors() {
                if let std::collections::hash_map::Entry::Vacant(e) = mem.tables.entry(s) {
                    let p = table_path(dir, R::VARIANT, &s);
                    e.insert(Arc::new(MemTable::load(&p, R::VARIANT, &s)?));
                }
            }
            let values = generate_with_progress::<R>(m, &mem, state)?;
            write_table::<R>(&path, m, &values)?;
            // Later tables (promotions of the same size) may read it.
            mem.tables.insert(
                *m,
                Arc::new(MemTable {
                    material: *m,
                    values,
                }),
            );
        }
        let built = Built {
            material: *m,
            bytes: std::fs::metadata(&path).map(|md| md.len()).unwrap_or(0),
            path,
            existed,
            seconds: start.elapsed().as_secs_f64(),
        };
        state.tables_done.store(done + 1, Ordering::Relaxed);
        state
            .positions_done
            .fetch_add(Layout::new(*m).size(), Ordering::Relaxed);
        progress(done + 1, total, &built);
        out.push(built);
        // Keep in memory only what the remaining tables read.
        let needed: std::collections::HashSet<Material> = all[done + 1..]
            .iter()
            .flat_map(|r| r.successors())
            .collect();
        mem.tables.retain(|k, _| needed.contains(k));
    }
    Ok(out)
}

/// The result of [`verify_file`].
#[derive(Clone, Debug)]
pub struct VerifyReport {
    /// The material.
    pub material: Material,
    /// Positions checked.
    pub positions: u64,
    /// The first inconsistency, if any.
    pub first_error: Option<String>,
}

struct WithOwn<'a> {
    own: &'a MemTable,
    rest: &'a dyn Lookup,
}

impl Lookup for WithOwn<'_> {
    fn lookup(&self, material: &Material, index: u64) -> Result<Value, TbError> {
        if *material == self.own.material {
            Ok(Value(
                self.own
                    .values
                    .get(index as usize)
                    .copied()
                    .unwrap_or(Value::UNKNOWN.0),
            ))
        } else {
            self.rest.lookup(material, index)
        }
    }
}

/// Re-checks every position of the table at `path` against its successors
/// (read from the same table and from the tables beside it), in one
/// forward pass: wins must have a losing successor at distance d - 1 and
/// none shorter, losses only winning successors, the longest at d - 1,
/// draws a drawn successor and no losing one; every valid index must have
/// a value (invalid ones are never read).
pub fn verify_file<R: LosingRules>(
    path: &Path,
    others: &dyn Lookup,
) -> Result<VerifyReport, TbError> {
    let reader = open_table(path, Some(R::VARIANT), None)?;
    let key = reader.description().split(' ').next().unwrap_or_default();
    let material = Material::parse(key)?;
    drop(reader);
    let own = MemTable::load(path, R::VARIANT, &material)?;
    let layout = Layout::new(material);
    let src = WithOwn {
        own: &own,
        rest: others,
    };
    let valid = AtomicU64::new(0);
    let first = (0..layout.size())
        .into_par_iter()
        .map(|i| -> Result<Option<(u64, String)>, TbError> {
            let stored = Value(own.values[i as usize]);
            let pos = layout.decode(i).and_then(|(b, t)| position_of::<R>(b, t));
            let Some(pos) = pos else {
                // Invalid indices are never looked up: the file repeats a
                // neighbour's code there.
                return Ok(None);
            };
            valid.fetch_add(1, Ordering::Relaxed);
            let fen = crate::notation::fen::write(&pos);
            if !stored.is_known() {
                return Ok(Some((i, format!("index {i} ({fen}): missing"))));
            }
            let moves = pos.legal_moves();
            let expect = if moves.is_empty() {
                stalemate_value(&pos)
            } else {
                let mut kids = Vec::with_capacity(moves.len());
                for &m in moves.iter() {
                    let mut c = pos.clone();
                    c.play_unchecked(m);
                    kids.push(evaluate(&c, &src)?);
                }
                if kids.iter().any(|v| !v.is_known()) {
                    return Ok(Some((
                        i,
                        format!("index {i} ({fen}): a successor has no value"),
                    )));
                }
                Value::parent_of_best(kids)
            };
            Ok((expect != stored).then(|| {
                (
                    i,
                    format!(
                        "index {i} ({fen}): stored {:?}, successors give {:?}",
                        stored.wdl(),
                        expect.wdl()
                    ),
                )
            }))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let positions = valid.load(Ordering::Relaxed);
    Ok(VerifyReport {
        material,
        positions,
        first_error: first.into_iter().flatten().min_by_key(|e| e.0).map(|e| e.1),
    })
}

/// Counts over every placement (men on distinct squares, pawns on ranks
/// 2-7, identical men unordered, no en passant) with each side to move.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    /// Material key.
    pub material: String,
    /// Per side to move (white, black): wins for the side to move.
    pub wins: [u64; 2],
    /// Draws.
    pub draws: [u64; 2],
    /// Losses for the side to move.
    pub losses: [u64; 2],
    /// The longest win in plies: the largest distance of a won or lost
    /// position (a loss in 35 is a win in 35 for the other side).
    pub longest_win: u16,
    /// A position with the longest win (FEN).
    pub longest_fen: String,
    /// The longest win for the side to move (a position with `dtw > 0`).
    pub longest_win_to_move: u16,
    /// The longest loss for the side to move (a position with `dtw < 0`).
    pub longest_loss_to_move: u16,
}

/// Statistics of one table (`material` as given: White's men first).
pub fn stats<R: LosingRules>(material: &Material, src: &dyn Lookup) -> Result<Stats, TbError> {
    stats_from::<R>(material, src)
}

/// [`stats`] of the table of `material` in `dir`, read into memory first
/// (every placement is looked up, in no useful order for a block cache).
pub fn stats_in_dir<R: LosingRules>(dir: &Path, material: &Material) -> Result<Stats, TbError> {
    let canonical = material.canonical();
    let path = table_path(dir, R::VARIANT, &canonical);
    if !path.exists() {
        return Err(TbError::missing(R::VARIANT, dir, &canonical));
    }
    let mut mem = MemTables {
        variant: Some(R::VARIANT),
        dir: dir.to_path_buf(),
        ..MemTables::default()
    };
    mem.tables.insert(
        canonical,
        Arc::new(MemTable::load(&path, R::VARIANT, &canonical)?),
    );
    stats_from::<R>(material, &mem)
}

fn stats_from<R: LosingRules>(material: &Material, src: &dyn Lookup) -> Result<Stats, TbError> {
    let pieces = material.pieces();
    let n = pieces.len();
    let total = 64u64.pow(n as u32);
    let layout = Layout::new(*material);
    let canon = layout.material();
    let parts = (0..total)
        .into_par_iter()
        .map(|code| -> Result<Stats, TbError> {
            let mut st = Stats::default();
            let mut sqs = [0u8; 8];
            let mut c = code;
            for s in sqs.iter_mut().take(n) {
                *s = (c % 64) as u8;
                c /= 64;
            }
            let mut board = crate::board::Board::empty();
            for i in 0..n {
                let sq = sqs[i];
                if pieces[i].role == crate::board::Role::Pawn && !(8..56).contains(&sq) {
                    return Ok(st);
                }
                if i > 0 && pieces[i] == pieces[i - 1] && sqs[i - 1] >= sq {
                    return Ok(st);
                }
                if sqs[..i].contains(&sq) {
                    return Ok(st);
                }
                board.set(
                    crate::board::Square::new(sq as u32).expect("square"),
                    pieces[i],
                );
            }
            for (t, turn) in Color::ALL.into_iter().enumerate() {
                let v = src.lookup(&canon, layout.index(&board, turn))?;
                if let Some((w, d)) = v.wdl()
                    && w != Wdl::Draw
                    && (d > st.longest_win || st.longest_fen.is_empty())
                {
                    st.longest_win = d;
                    if let Some(p) = position_of::<R>(board, turn) {
                        st.longest_fen = crate::notation::fen::write(&p);
                    }
                }
                match v.wdl() {
                    Some((Wdl::Win, d)) => {
                        st.wins[t] += 1;
                        st.longest_win_to_move = st.longest_win_to_move.max(d);
                    }
                    Some((Wdl::Loss, d)) => {
                        st.losses[t] += 1;
                        st.longest_loss_to_move = st.longest_loss_to_move.max(d);
                    }
                    Some((Wdl::Draw, _)) => st.draws[t] += 1,
                    None => {
                        return Err(TbError::NotCovered(format!(
                            "{canon}: index {} has no value",
                            layout.index(&board, turn)
                        )));
                    }
                }
            }
            Ok(st)
        })
        .try_reduce(Stats::default, |mut a, b| {
            for t in 0..2 {
                a.wins[t] += b.wins[t];
                a.draws[t] += b.draws[t];
                a.losses[t] += b.losses[t];
            }
            a.longest_win_to_move = a.longest_win_to_move.max(b.longest_win_to_move);
            a.longest_loss_to_move = a.longest_loss_to_move.max(b.longest_loss_to_move);
            if b.longest_win > a.longest_win || a.longest_fen.is_empty() {
                a.longest_win = b.longest_win;
                a.longest_fen = b.longest_fen;
            }
            Ok(a)
        })?;
    Ok(Stats {
        material: material.to_string(),
        ..parts
    })
}
