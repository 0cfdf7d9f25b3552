//! Table generation by retrograde analysis.
//!
//! One parallel pass over every raw index decodes the position and sorts it
//! into one of three kinds:
//!
//! * no position (an invalid or non-canonical index);
//! * decided at once: a stalemate, or a capture is available (captures are
//!   compulsory, so every move is a capture and leads to a smaller table).
//!   Positions with a capture are not stored (their slots are left
//!   [`Value::UNKNOWN`]): [`super::evaluate`] values them from their
//!   captures, and the file compresses better;
//! * quiet: its moves either stay in the table (a plain move: counted, not
//!   generated further) or leave it (a promotion, or a double step giving
//!   the opponent an en-passant capture: valued at once from the smaller
//!   tables). The best of those outside values is kept.
//!
//! Then, for k = 0, 1, 2, ...: the positions decided at k (a win or a loss
//! in k plies) are taken back one quiet move ([`super::retro`]). A
//! predecessor of a loss in k is a win in k + 1 if not decided before; a
//! predecessor of a win in k has one move fewer left that does not lose,
//! and when none is left it is a loss in k + 1 (or later, if a move out of
//! the table loses more slowly). Positions never decided are draws (no
//! 50-move rule).
//!
//! Symmetry: a predecessor board is counted under its canonical index, and
//! when the position or its predecessor is symmetric (a board a symmetry of
//! the index maps onto itself) one move can be found several times or
//! several moves once. Taking back from one representative board `P` finds
//! each predecessor `Q` `N(Q -> P) * |Stab(P)| / |Stab(Q)|` times, where
//! `N` counts `Q`'s moves to boards equivalent to `P` and `Stab` the
//! symmetries fixing a board, so the count is converted back.

use super::checkpoint::{self, Checkpointing};
use super::{
    Layout, Lookup, Material, TbError, Value, Wdl, captures, evaluate, position_of, retro,
};
use crate::board::{Board, Color, Role, Square, attacks};
use crate::position::Position;
use crate::variants::LosingRules;
use rayon::prelude::*;
use smallvec::SmallVec;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, AtomicUsize, Ordering};

/// `ext` of a position with nothing pending (no position, or decided).
const NO_EXT: u16 = u16::MAX;

/// `ext` of a position with a capture available: decided at once and not
/// stored (a probe values its captures from the smaller tables).
const NOT_STORED: u16 = u16::MAX - 1;

/// `ext` of a quiet position whose moves out of the table win in `d`
/// plies at best: it is a win in `d` unless a move in the table wins sooner.
fn ext_win(d: u16) -> u16 {
    (d << 1) | 1
}

/// `ext` of a quiet position whose moves out of the table all lose, the
/// slowest in `d` plies (0: it has none): if every move in the table loses
/// too, it is a loss in at least `d`.
fn ext_loss_floor(d: u16) -> u16 {
    d << 1
}

/// Indices per unit of parallel work.
const CHUNK: u64 = 1 << 12;

/// The start of one index: its value if decided, the number of its moves
/// that can still fail to lose (moves in the table, plus one if a move out
/// of the table draws or wins), and its `ext`.
#[derive(Debug, PartialEq)]
struct Start {
    value: Value,
    open_moves: u8,
    ext: u16,
}

impl Start {
    const NONE: Start = Start {
        value: Value::UNKNOWN,
        open_moves: 0,
        ext: NO_EXT,
    };

    fn decided(value: Value) -> Start {
        Start {
            value,
            ..Start::NONE
        }
    }

    /// A position with a capture: decided, not stored.
    fn capture(value: Value) -> Start {
        Start {
            ext: NOT_STORED,
            ..Start::decided(value)
        }
    }
}

/// The values of a quiet position's moves that leave the table
/// (promotions, double steps giving an en-passant capture).
struct Outside {
    values: SmallVec<[Value; 8]>,
    best_win: u16,
    slowest_loss: u16,
    blocks_loss: bool,
}

impl Outside {
    fn new() -> Outside {
        Outside {
            values: SmallVec::new(),
            best_win: u16::MAX,
            slowest_loss: 0,
            blocks_loss: false,
        }
    }

    /// Adds one move's value (the opponent's, after it); `false` if the
    /// value is unknown.
    fn add(&mut self, v: Value) -> bool {
        match v.wdl() {
            Some((Wdl::Loss, d)) => self.best_win = self.best_win.min(d + 1),
            Some((Wdl::Win, d)) => self.slowest_loss = self.slowest_loss.max(d + 1),
            Some((Wdl::Draw, _)) => self.blocks_loss = true,
            None => return false,
        }
        self.values.push(v);
        true
    }

    /// The start of a quiet position with `inside` moves in the table and
    /// these moves out of it (at least one move in all).
    fn start(self, inside: u8) -> Start {
        if inside == 0 {
            return Start::decided(Value::parent_of_best(self.values));
        }
        let ext = if self.best_win != u16::MAX {
            ext_win(self.best_win)
        } else {
            ext_loss_floor(self.slowest_loss)
        };
        Start {
            value: Value::UNKNOWN,
            open_moves: inside + u8::from(self.blocks_loss || self.best_win != u16::MAX),
            ext,
        }
    }
}

/// The start of a raw index, on bitboards; positions with a double step
/// giving an en-passant capture go through the move generator. Debug
/// builds check every start against [`analyse_by_movegen`].
fn analyse<R: LosingRules>(
    layout: &Layout,
    index: u64,
    src: &dyn Lookup,
) -> Result<Start, TbError> {
    let Some((board, turn)) = layout.decode(index) else {
        return Ok(Start::NONE);
    };
    let start = if retro::has_capture(&board, turn) {
        Start::capture(captures::capture_value::<R>(&board, turn, src)?)
    } else if let Some(moves) = quiet_moves(&board, turn) {
        let mut outside = Outside::new();
        for &(from, to) in &moves.promotions {
            for &role in R::PROMOTIONS {
                let mut child = board;
                child.remove(from);
                child.set(to, role.of(turn));
                let v = captures::evaluate_board::<R>(&child, !turn, src)?;
                if !outside.add(v) {
                    return Err(captures::not_covered::<R>(&board, turn));
                }
            }
        }
        if moves.inside == 0 && outside.values.is_empty() {
            Start::decided(super::stalemate_value_on::<R>(&board, turn))
        } else {
            outside.start(moves.inside)
        }
    } else {
        return analyse_by_movegen::<R>(board, turn, src);
    };
    debug_assert_eq!(
        Some(&start),
        analyse_by_movegen::<R>(board, turn, src).ok().as_ref(),
        "the bitboard analysis disagrees with the move generator"
    );
    Ok(start)
}

/// The start of a decoded position through the move generator: the
/// general path (and the reference of [`analyse`]).
fn analyse_by_movegen<R: LosingRules>(
    board: Board,
    turn: Color,
    src: &dyn Lookup,
) -> Result<Start, TbError> {
    let Some(pos) = position_of::<R>(board, turn) else {
        return Ok(Start::NONE);
    };
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok(Start::decided(super::stalemate_value(&pos)));
    }
    if moves.iter().any(|m| m.is_capture()) {
        return Ok(Start::capture(captures::best_of_moves(&pos, &moves, src)?));
    }
    let mut inside = 0u8;
    let mut outside = Outside::new();
    for &m in moves.iter() {
        let double_step = m.role() == Role::Pawn
            && m.from()
                .is_some_and(|f| f.index().abs_diff(m.to().index()) == 16);
        if m.promotion().is_none() && !double_step {
            inside += 1;
            continue;
        }
        let mut child = pos.clone();
        child.play_unchecked(m);
        if m.promotion().is_none() && child.state().ep_square.is_none() {
            inside += 1;
            continue;
        }
        if !outside.add(evaluate(&child, src)?) {
            return Err(captures::not_covered::<R>(&board, turn));
        }
    }
    Ok(outside.start(inside))
}

/// The moves of a side without a capture, counted on bitboards: how many
/// stay in the table, and the pawn steps that promote (each to every role
/// of the rule set).
struct QuietMoves {
    inside: u8,
    promotions: SmallVec<[(Square, Square); 4]>,
}

/// The moves of `turn`, which has no capture, or `None` if a double step
/// gives the opponent an en-passant capture (that position has an
/// en-passant square: the move generator values it).
fn quiet_moves(board: &Board, turn: Color) -> Option<QuietMoves> {
    let occupied = board.occupied();
    let forward: i32 = if turn == Color::White { 8 } else { -8 };
    let their_pawns = board.by_piece(Role::Pawn.of(!turn));
    let mut moves = QuietMoves {
        inside: 0,
        promotions: SmallVec::new(),
    };
    let mut inside = 0u32;
    for (sq, piece) in board.pieces() {
        if piece.color != turn {
            continue;
        }
        if piece.role != Role::Pawn {
            inside += (attacks::attacks(turn, piece.role, sq, occupied) & !occupied).count();
            continue;
        }
        let one = sq.offset(forward)?;
        if occupied.contains(one) {
            continue;
        }
        if one.relative_rank(turn) == 7 {
            moves.promotions.push((sq, one));
            continue;
        }
        inside += 1;
        if sq.relative_rank(turn) == 1 {
            let two = one.offset(forward)?;
            if !occupied.contains(two) {
                if attacks::pawn_attacks(turn, one).intersects(their_pawns) {
                    return None;
                }
                inside += 1;
            }
        }
    }
    moves.inside = u8::try_from(inside).ok().filter(|&n| n < u8::MAX)?;
    Some(moves)
}

/// Computes the values of every raw index of `material` (canonical), the
/// smaller tables it leads to coming from `src`: [`Value::UNKNOWN`] for
/// invalid indices and for positions with a capture (not stored).
pub fn generate<R: LosingRules>(
    material: &Material,
    src: &dyn Lookup,
) -> Result<Vec<u16>, TbError> {
    generate_with_progress::<R>(material, src, &BuildProgress::default())
}

/// Indices by level: `lists[k]` holds the indices due at level `k`.
#[derive(Default)]
struct Levels {
    lists: Vec<Vec<u32>>,
}

impl Levels {
    fn push(&mut self, level: u16, index: u32) {
        let k = usize::from(level);
        if self.lists.len() <= k {
            self.lists.resize_with(k + 1, Vec::new);
        }
        self.lists[k].push(index);
    }

    fn merge(mut self, other: Levels) -> Levels {
        if self.lists.len() < other.lists.len() {
            return other.merge(self);
        }
        for (mine, theirs) in self.lists.iter_mut().zip(other.lists) {
            mine.extend(theirs);
        }
        self
    }

    fn take(&mut self, level: u16) -> Vec<u32> {
        self.lists
            .get_mut(usize::from(level))
            .map(std::mem::take)
            .unwrap_or_default()
    }

    fn highest(&self) -> usize {
        self.lists.len()
    }
}

/// The working state of one table's generation.
struct Tables {
    layout: Layout,
    values: Vec<AtomicU16>,
    open_moves: Vec<AtomicU8>,
    ext: Vec<AtomicU16>,
}

impl Tables {
    /// Decides those of `pending` (quiet positions with a move out of the
    /// table deciding at level `k`) that nothing in the table decided
    /// sooner; returns them.
    fn settle_pending(&self, k: u16, pending: &[u32]) -> Vec<u32> {
        pending
            .iter()
            .copied()
            .filter(|&i| {
                let i = i as usize;
                let ext = self.ext[i].load(Ordering::Relaxed);
                let slot = &self.values[i];
                if slot.load(Ordering::Relaxed) != Value::UNKNOWN.0 {
                    return false;
                }
                if ext & 1 == 1 {
                    slot.store(Value::win(k).0, Ordering::Relaxed);
                    true
                } else if self.open_moves[i].load(Ordering::Relaxed) == 0 {
                    slot.store(Value::loss(k).0, Ordering::Relaxed);
                    true
                } else {
                    false
                }
            })
            .collect()
    }

    /// Takes back one move from every position of `frontier` (decided at
    /// level `k`); returns the positions that decides at `k + 1`.
    fn propagate(&self, k: u16, frontier: &[u32]) -> Result<Vec<u32>, TbError> {
        let loss = Value::loss(k).0;
        let symmetries = self.layout.stabilizing_symmetries();
        let decided: Vec<Vec<u32>> = frontier
            .par_chunks(CHUNK as usize)
            .map(|chunk| -> Result<Vec<u32>, TbError> {
                let mut next = Vec::new();
                let mut preds: SmallVec<[(u64, u8); 64]> = SmallVec::new();
                for &i in chunk {
                    let v = self.values[i as usize].load(Ordering::Relaxed);
                    let (board, turn) = self
                        .layout
                        .decode_valid(u64::from(i))
                        .ok_or_else(|| internal(format!("decided index {i} does not decode")))?;
                    preds.clear();
                    // Symmetries only matter for counting moves back from a win.
                    let counting = v != loss;
                    retro::for_each_predecessor(&board, !turn, |before| {
                        let fixed = if counting {
                            retro::stabilizer(before, symmetries)
                        } else {
                            1
                        };
                        preds.push((self.layout.index(before, !turn), fixed));
                    });
                    if !counting {
                        for &(q, _) in &preds {
                            let slot = &self.values[q as usize];
                            // Most predecessors are decided already: a plain
                            // load spares them a locked instruction.
                            if slot.load(Ordering::Relaxed) != Value::UNKNOWN.0 {
                                continue;
                            }
                            let set = slot.compare_exchange(
                                Value::UNKNOWN.0,
                                Value::win(k + 1).0,
                                Ordering::Relaxed,
                                Ordering::Relaxed,
                            );
                            if set.is_ok() {
                                next.push(q as u32);
                            }
                        }
                        continue;
                    }
                    let own = retro::stabilizer(&board, symmetries);
                    preds.sort_unstable();
                    for run in preds.chunk_by(|a, b| a.0 == b.0) {
                        let (q, fixed) = run[0];
                        let found = run.len() * usize::from(fixed);
                        if found % usize::from(own) != 0 {
                            return Err(internal(format!(
                                "index {i}: predecessor {q} found {} times, symmetry {own}/{fixed}",
                                run.len()
                            )));
                        }
                        if self.take_back_win(q, (found / usize::from(own)) as u8, k)? {
                            next.push(q as u32);
                        }
                    }
                }
                Ok(next)
            })
            .collect::<Result<_, _>>()?;
        Ok(decided.concat())
    }

    /// `moves` moves of `q` lead to a win at level `k` for the opponent;
    /// whether that decides `q` at `k + 1`.
    fn take_back_win(&self, q: u64, moves: u8, k: u16) -> Result<bool, TbError> {
        let q = q as usize;
        let before = self.open_moves[q].fetch_sub(moves, Ordering::Relaxed);
        if before < moves {
            return Err(internal(format!(
                "index {q}: {moves} moves taken back, {before} left"
            )));
        }
        if before > moves {
            return Ok(false);
        }
        // Every move of `q` loses: at k + 1, or later if a move out of the
        // table loses more slowly (then it is pending at that level).
        let floor = self.ext[q].load(Ordering::Relaxed) >> 1;
        if floor > k + 1 {
            return Ok(false);
        }
        self.values[q].store(Value::loss(k + 1).0, Ordering::Relaxed);
        Ok(true)
    }
}

fn internal(problem: String) -> TbError {
    TbError::BadMaterial(format!(
        "retrograde analysis inconsistent ({problem}): please report this"
    ))
}

/// [`generate`], reporting how far it got in `progress`.
pub fn generate_with_progress<R: LosingRules>(
    material: &Material,
    src: &dyn Lookup,
    progress: &BuildProgress,
) -> Result<Vec<u16>, TbError> {
    let generated = generate_checkpointed::<R>(material, src, progress, None)?;
    generated
        .values
        .ok_or_else(|| internal("stopped without a checkpoint to stop at".into()))
}

/// What [`generate_checkpointed`] did.
pub struct Generated {
    /// The values by raw index ([`generate`]); `None` only when
    /// [`Checkpointing`]'s test stop was reached.
    pub values: Option<Vec<u16>>,
    /// The level a checkpoint let the generation resume at, if one did.
    pub resumed_at: Option<u16>,
    /// Why a checkpoint that was there could not be used (the table was
    /// then generated from the start).
    pub checkpoint_ignored: Option<String>,
    /// Checkpoints written.
    pub checkpoints: u32,
}

/// [`generate_with_progress`], resuming from the checkpoint of
/// `checkpoint` when one is there and writing one whenever `every` has
/// passed since the last (after the first pass and after any level).
/// The checkpoint is left in place: the caller removes it once the table
/// is written.
pub fn generate_checkpointed<R: LosingRules>(
    material: &Material,
    src: &dyn Lookup,
    progress: &BuildProgress,
    checkpoint: Option<&Checkpointing>,
) -> Result<Generated, TbError> {
    if R::CASTLING || R::LONE_PAWN_PASSES {
        return Err(TbError::BadMaterial(format!(
            "{}: tables are built for rule sets without castling or passes",
            R::VARIANT.name()
        )));
    }
    let layout = Layout::new(*material);
    let size = layout.size();
    if size > u32::MAX as u64 {
        return Err(TbError::BadMaterial(format!("{material}: too large")));
    }
    progress.size.store(size, Ordering::Relaxed);
    progress.analysed.store(0, Ordering::Relaxed);
    progress.level.store(0, Ordering::Relaxed);
    progress.set_phase(BuildPhase::Generating);
    let tables = Tables {
        values: (0..size)
            .map(|_| AtomicU16::new(Value::UNKNOWN.0))
            .collect(),
        open_moves: (0..size).map(|_| AtomicU8::new(0)).collect(),
        ext: (0..size).map(|_| AtomicU16::new(NO_EXT)).collect(),
        layout,
    };
    let identity = checkpoint::Identity {
        variant: R::VARIANT.name(),
        material: tables.layout.material().to_string(),
        size,
        categories_only: checkpoint.is_some_and(|c| c.categories_only),
    };
    let mut generated = Generated {
        values: None,
        resumed_at: None,
        checkpoint_ignored: None,
        checkpoints: 0,
    };
    let mut last_checkpoint = std::time::Instant::now();
    if let Some(c) = checkpoint.filter(|c| c.path.exists()) {
        match checkpoint::read(&c.path, &identity, &tables.state()) {
            Ok(level) => generated.resumed_at = Some(level),
            Err(why) => generated.checkpoint_ignored = Some(why.to_string()),
        }
    }
    // Positions decided at once and quiet ones with a pending move out of
    // the table, by level.
    let (mut k, mut decided, mut pending) = match generated.resumed_at {
        Some(level) => {
            progress.analysed.store(size, Ordering::Relaxed);
            let (decided, pending) = tables.levels_from(level);
            (level, decided, pending)
        }
        None => {
            let (decided, pending) = tables.first_pass::<R>(src, progress)?;
            (0, decided, pending)
        }
    };
    let mut frontier: Vec<u32> = Vec::new();
    loop {
        let more = !frontier.is_empty()
            || usize::from(k) < decided.highest()
            || usize::from(k) < pending.highest();
        // A checkpoint holds the state before level `k`, so it is written
        // only where the frontier is found again from the values.
        if let Some(c) = checkpoint
            && more
            && generated.resumed_at != Some(k)
            && last_checkpoint.elapsed() >= c.every
        {
            progress.level.store(u32::from(k), Ordering::Relaxed);
            progress.set_phase(BuildPhase::Checkpointing);
            let written = checkpoint::write(&c.path, &identity, &tables.state(), k);
            progress.set_phase(BuildPhase::Generating);
            // The error names the checkpoint file and why it failed.
            written?;
            generated.checkpoints += 1;
            last_checkpoint = std::time::Instant::now();
            if c.stop_at.is_some_and(|stop| k >= stop) {
                return Ok(generated);
            }
        }
        if !more {
            break;
        }
        if k >= (u16::MAX >> 2) - 1 {
            return Err(TbError::BadMaterial(format!(
                "{material}: distance overflow"
            )));
        }
        progress.level.store(u32::from(k), Ordering::Relaxed);
        frontier.extend(decided.take(k));
        frontier.extend(tables.settle_pending(k, &pending.take(k)));
        frontier = tables.propagate(k, &frontier)?;
        k += 1;
    }
    // Quiet positions never decided are draws; positions with a capture
    // are not stored.
    generated.values = Some(
        tables
            .values
            .into_iter()
            .zip(tables.ext)
            .map(|(v, ext)| match (v.into_inner(), ext.into_inner()) {
                (_, NOT_STORED) => Value::UNKNOWN.0,
                (v, ext) if v == Value::UNKNOWN.0 && ext < NOT_STORED => Value::DRAW.0,
                (v, _) => v,
            })
            .collect(),
    );
    Ok(generated)
}

impl Tables {
    /// The state a checkpoint saves.
    fn state(&self) -> checkpoint::State<'_> {
        checkpoint::State {
            values: &self.values,
            open_moves: &self.open_moves,
            ext: &self.ext,
        }
    }

    /// Analyses every raw index ([`analyse`]): the positions decided at
    /// once and the quiet ones with a pending move out of the table, by
    /// level.
    fn first_pass<R: LosingRules>(
        &self,
        src: &dyn Lookup,
        progress: &BuildProgress,
    ) -> Result<(Levels, Levels), TbError> {
        let size = self.layout.size();
        (0..size.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| -> Result<(Levels, Levels), TbError> {
                let range = c * CHUNK..((c + 1) * CHUNK).min(size);
                let len = range.end - range.start;
                let (mut decided, mut pending) = (Levels::default(), Levels::default());
                for i in range {
                    let start = analyse::<R>(&self.layout, i, src)?;
                    match start.value.wdl() {
                        Some((Wdl::Win | Wdl::Loss, d)) => decided.push(d, i as u32),
                        _ if start.ext < NOT_STORED && start.ext >> 1 > 0 => {
                            pending.push(start.ext >> 1, i as u32)
                        }
                        _ => {}
                    }
                    let i = i as usize;
                    self.values[i].store(start.value.0, Ordering::Relaxed);
                    self.open_moves[i].store(start.open_moves, Ordering::Relaxed);
                    self.ext[i].store(start.ext, Ordering::Relaxed);
                }
                progress.analysed.fetch_add(len, Ordering::Relaxed);
                Ok((decided, pending))
            })
            .try_reduce(
                || (Levels::default(), Levels::default()),
                |a, b| Ok((a.0.merge(b.0), a.1.merge(b.1))),
            )
    }

    /// The lists of levels `level` and later, found again from the state
    /// before `level` (a checkpoint's): the positions decided at those
    /// levels (by the first pass, or at `level` by the level before it)
    /// and the quiet positions pending there. The order within a level
    /// differs from the first pass's, which changes no value: a level's
    /// positions are taken back independently of each other.
    fn levels_from(&self, level: u16) -> (Levels, Levels) {
        let size = self.layout.size();
        (0..size.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (mut decided, mut pending) = (Levels::default(), Levels::default());
                for i in c * CHUNK..((c + 1) * CHUNK).min(size) {
                    let value = Value(self.values[i as usize].load(Ordering::Relaxed));
                    let ext = self.ext[i as usize].load(Ordering::Relaxed);
                    match value.wdl() {
                        Some((Wdl::Win | Wdl::Loss, d)) if d >= level => decided.push(d, i as u32),
                        Some(_) => {}
                        None if ext < NOT_STORED && ext >> 1 >= level.max(1) => {
                            pending.push(ext >> 1, i as u32)
                        }
                        None => {}
                    }
                }
                (decided, pending)
            })
            .reduce(
                || (Levels::default(), Levels::default()),
                |a, b| (a.0.merge(b.0), a.1.merge(b.1)),
            )
    }
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
    /// Positions of the tables finished so far that were already there
    /// (found, not built): counted as done but not as work of this run, so
    /// that a resumed build's estimate of the time left is not skewed.
    pub positions_found: AtomicU64,
    /// The table being built.
    pub current: Mutex<String>,
    /// What the build is doing with it ([`BuildPhase`] as a byte).
    pub phase: AtomicU8,
    /// While it reads the tables it reads: the one it is on, with its
    /// place among them ("KQNvKP, 12 of 172").
    pub reading: Mutex<String>,
}

/// What a build is doing with the table it is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum BuildPhase {
    /// Generating it: its first pass (`analysed` of `size`), then its
    /// iteration (`level`).
    Generating = 0,
    /// Reading into memory the tables it reads.
    Reading = 1,
    /// Writing a checkpoint of its generation (before `level`).
    Checkpointing = 2,
    /// Writing its files.
    Writing = 3,
}

impl BuildProgress {
    /// Sets what the build is doing.
    pub fn set_phase(&self, phase: BuildPhase) {
        self.phase.store(phase as u8, Ordering::Relaxed);
    }

    /// What the build is doing.
    pub fn phase(&self) -> BuildPhase {
        match self.phase.load(Ordering::Relaxed) {
            1 => BuildPhase::Reading,
            2 => BuildPhase::Checkpointing,
            3 => BuildPhase::Writing,
            _ => BuildPhase::Generating,
        }
    }
}
