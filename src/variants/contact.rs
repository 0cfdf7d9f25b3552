//! Contact chess (RULES C, John Gallez 2018): orthodox men and start
//! position, but proximity changes movement and capture.
//!
//! - Pawns also step one square diagonally forward or sideways onto an empty
//!   square, and never make ordinary captures (RULES C1, C2).
//! - An ordinary capture (every man but the pawn) is forbidden when any man
//!   stands right behind the target on the line of capture; knights have no
//!   line and capture as in chess (RULES C2).
//! - Every man but the knight may jump, in one of its own move directions,
//!   over a chain of connected own men that starts next to it, landing on
//!   the first square beyond the chain: a jump move if that square is empty,
//!   a jump capture if it holds an enemy man not backed too strongly
//!   (RULES C3, C4). That is how pawns capture.
//! - Check is "some enemy man could capture the king by these rules", so it
//!   is computed by [`capturable`], a capture test run backwards from the
//!   target square, never by orthodox attack maps (RULES C5). Legality is
//!   judged by playing each candidate on a copy and testing the mover's king.
//! - Captured men are counted, by their own colour, in the shared
//!   `prisoners` holding (zobrist holding slot 1); a pawn reaching the last
//!   rank is replaced by one of its side's captured pieces, which leaves the
//!   count, and the pawn leaves the game (RULES C6). The FEN writes the
//!   counts in one bracket after the placement (`[QPn]`).
//! - No castling, no en passant (RULES C7).
//!
//! Rule questions settled here (see docs/rules.md): the bracket is always
//! written (`[]` when nothing has been captured) and a FEN without it reads
//! as "nothing captured"; a setup may not have more men of a role (on the
//! board plus captured) than a side starts with; two bare kings are a dead
//! draw.

use super::chess::royal_outcome;
use crate::board::{Bitboard, Board, ByColor, ByRole, Color, Role, Square, attacks, zobrist};
use crate::moves::{Move, MoveList};
use crate::position::state::{self, Captures};
use crate::position::{Outcome, OutcomeKind, Position, PositionError, Setup, State};
use crate::position::{ProblemKind, problem};
use crate::variants::Variant;

/// A position of Contact chess.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Contact {
    state: State,
}

/// The pieces a pawn may be replaced by, in the order moves are generated.
const PIECES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Directions as (file, rank) steps: north, north-east, east, south-east,
/// south, south-west, west, north-west. Orthogonal ones have even indices.
const DIRS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

const NORTH: usize = 0;
const SOUTH: usize = 4;

/// The opposite of direction `d`.
const fn opposite(d: usize) -> usize {
    (d + 4) % 8
}

/// `NEXT[d][sq]`: the index of the square one step from `sq` in direction
/// `d`, or 64 off the board.
const NEXT: [[u8; 64]; 8] = {
    let mut table = [[64u8; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 64 {
            let f = (sq % 8) as i32 + DIRS[d].0;
            let r = (sq / 8) as i32 + DIRS[d].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[d][sq] = (r * 8 + f) as u8;
            }
            sq += 1;
        }
        d += 1;
    }
    table
};

/// The square one step from `sq` in direction `d`, if on the board.
#[inline]
fn next(sq: Square, d: usize) -> Option<Square> {
    let n = NEXT[d][sq.index()];
    (n < 64).then(|| Square::from_index_unchecked(u32::from(n)))
}

/// The men of `role` and `color` may move (and jump) in direction `d`
/// (RULES C1, C3; knights have no directions).
#[inline]
fn has_direction(role: Role, color: Color, d: usize) -> bool {
    match role {
        Role::King | Role::Queen => true,
        Role::Rook => d.is_multiple_of(2),
        Role::Bishop => !d.is_multiple_of(2),
        Role::Knight => false,
        // Forward, diagonally forward, sideways: never backward.
        Role::Pawn => match color {
            Color::White => d <= 2 || d >= 6,
            Color::Black => (2..=6).contains(&d),
        },
    }
}

/// The forward direction of `color`'s pawns.
const fn forward(color: Color) -> usize {
    match color {
        Color::White => NORTH,
        Color::Black => SOUTH,
    }
}

/// The contiguous run of men behind the enemy man on `target` along `d`,
/// for a jump capture by a man of colour `mover` (RULES C4): `None` if the
/// run contains or ends on a man of the mover's colour (the capture is then
/// forbidden), else its length, which the jumped chain must exceed.
#[inline]
fn backing_run(board: &Board, target: Square, d: usize, mover: Color) -> Option<u32> {
    let ours = board.by_color(mover);
    let occupied = board.occupied();
    let mut run = 0;
    let mut sq = next(target, d);
    while let Some(s) = sq {
        if !occupied.contains(s) {
            break;
        }
        if ours.contains(s) {
            return None;
        }
        run += 1;
        sq = next(s, d);
    }
    Some(run)
}

/// Whether a man of colour `mover` that jumped over `chain` men may capture
/// the enemy man on `target` in direction `d` (RULES C4).
#[inline]
fn jump_capture_allowed(board: &Board, target: Square, d: usize, chain: u32, mover: Color) -> bool {
    backing_run(board, target, d, mover).is_some_and(|run| chain > run)
}

/// Whether the square behind `target` in direction `d` is empty or off the
/// board, i.e. an ordinary capture along `d` is not blocked (RULES C2).
#[inline]
fn unbacked(board: &Board, target: Square, d: usize) -> bool {
    next(target, d).is_none_or(|s| !board.occupied().contains(s))
}

/// Whether `color` has a captured piece to promote a pawn to (RULES C6).
#[inline]
fn can_promote(state: &State, color: Color) -> bool {
    PIECES.iter().any(|&r| state.prisoners[color][r] > 0)
}

/// Whether some man of colour `by` could capture the man on `target` by an
/// ordinary capture (RULES C2) or a jump capture (RULES C4), as in RULES C5:
/// pins are ignored, and a pawn capture onto its last rank counts only if
/// that side has a captured piece to promote to. Works backwards from the
/// target: for each line of capture it walks from the target towards the
/// capturer.
pub(crate) fn capturable(state: &State, target: Square, by: Color) -> bool {
    capturable_on(&state.board, can_promote(state, by), target, by)
}

/// [`capturable`] on `board`, where `by` may promote (RULES C6) when
/// `by_may_promote`.
fn capturable_on(board: &Board, by_may_promote: bool, target: Square, by: Color) -> bool {
    let theirs = board.by_color(by);
    // Knights: as in chess, no backing rule.
    if (attacks::knight_attacks(target) & board.by_role(Role::Knight) & theirs).any() {
        return true;
    }
    let occupied = board.occupied();
    let last_rank = target.relative_rank(by) == 7;
    let pawns_count = !last_rank || by_may_promote;
    for d in 0..8 {
        // `d` is the direction of capture (from the capturer through the
        // target); walk backwards from the target.
        let back = opposite(d);
        let Some(first) = next(target, back) else {
            continue;
        };
        if !occupied.contains(first) {
            // Only a slider along an open line can capture from here.
            if !unbacked(board, target, d) {
                continue;
            }
            let mut sq = next(first, back);
            while let Some(s) = sq {
                if occupied.contains(s) {
                    if theirs.contains(s) {
                        let role = board.role_at(s).expect("occupied");
                        if matches!(role, Role::Rook | Role::Bishop | Role::Queen)
                            && has_direction(role, by, d)
                        {
                            return true;
                        }
                    }
                    break;
                }
                sq = next(s, back);
            }
            continue;
        }
        if !theirs.contains(first) {
            continue;
        }
        // An adjacent man of `by`: an ordinary capture by a king or slider.
        let role = board.role_at(first).expect("occupied");
        if !matches!(role, Role::Pawn | Role::Knight)
            && has_direction(role, by, d)
            && unbacked(board, target, d)
        {
            return true;
        }
        // Jump captures: the men of `by` behind `first` (away from the
        // target), each with the chain between it and the target.
        let Some(run) = backing_run(board, target, d, by) else {
            continue;
        };
        let mut chain = 1;
        let mut sq = next(first, back);
        while let Some(s) = sq {
            if !theirs.contains(s) {
                break;
            }
            let role = board.role_at(s).expect("occupied");
            if chain > run
                && role != Role::Knight
                && has_direction(role, by, d)
                && (role != Role::Pawn || pawns_count)
            {
                return true;
            }
            chain += 1;
            sq = next(s, back);
        }
    }
    false
}

/// Whether `color`'s king could be captured (RULES C5).
fn king_capturable(state: &State, color: Color) -> bool {
    state
        .board
        .king_of(color)
        .is_some_and(|king| capturable(state, king, !color))
}

/// The pieces a pawn of the side to move may be replaced by on the last
/// rank (RULES C6: its side's captured pieces), and how many there are.
#[inline]
fn promotion_choices(state: &State) -> ([Role; 4], usize) {
    let mut promotions = [Role::Queen; 4];
    let mut available = 0;
    for role in PIECES {
        if state.prisoners[state.turn][role] > 0 {
            promotions[available] = role;
            available += 1;
        }
    }
    (promotions, available)
}

/// Where [`pseudo_legal`] puts the moves it finds: a move list, or a
/// count of them (the mobility hint, without listing).
trait MoveSink {
    /// A move of a man other than a pawn.
    fn add(&mut self, mv: Move);
    /// A pawn's move: one per piece available on the last rank and none
    /// at all if no piece is available (RULES C6), else one.
    fn add_pawn(&mut self, state: &State, from: Square, to: Square, capture: Option<Role>);
}

impl MoveSink for MoveList {
    #[inline]
    fn add(&mut self, mv: Move) {
        self.push(mv);
    }

    #[inline]
    fn add_pawn(&mut self, state: &State, from: Square, to: Square, capture: Option<Role>) {
        let (promotions, available) = promotion_choices(state);
        crate::movegen::push_pawn(from, to, capture, &promotions[..available], self);
    }
}

/// The number of moves [`pseudo_legal`] would list.
struct MoveCount(usize);

impl MoveSink for MoveCount {
    #[inline]
    fn add(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline]
    fn add_pawn(&mut self, state: &State, _: Square, to: Square, _: Option<Role>) {
        self.0 += if Bitboard::BACKRANKS.contains(to) {
            promotion_choices(state).1
        } else {
            1
        };
    }
}

/// Every move of the side to move by the capture and movement rules,
/// without the king-safety test (RULES C1–C4, C6).
fn pseudo_legal(state: &State, moves: &mut impl MoveSink) {
    let board = &state.board;
    let us = state.turn;
    let ours = board.by_color(us);
    let occupied = board.occupied();
    let kings = board.by_role(Role::King);
    for from in ours {
        let role = board.role_at(from).expect("occupied");
        if role == Role::Knight {
            // RULES C2: the knight captures as in chess; it never jumps (C3).
            for to in attacks::knight_attacks(from).without(ours | kings) {
                moves.add(Move::Normal {
                    role,
                    from,
                    capture: board.role_at(to),
                    to,
                    promotion: None,
                });
            }
            continue;
        }
        let slider = matches!(role, Role::Rook | Role::Bishop | Role::Queen);
        for d in 0..8 {
            if !has_direction(role, us, d) {
                continue;
            }
            let Some(first) = next(from, d) else {
                continue;
            };
            if ours.contains(first) {
                // RULES C3, C4: jump over the connected chain of own men.
                let mut chain = 1;
                let mut beyond = next(first, d);
                while let Some(s) = beyond {
                    if !ours.contains(s) {
                        break;
                    }
                    chain += 1;
                    beyond = next(s, d);
                }
                let Some(to) = beyond else {
                    continue;
                };
                let capture = if occupied.contains(to) {
                    if kings.contains(to) || !jump_capture_allowed(board, to, d, chain, us) {
                        continue;
                    }
                    board.role_at(to)
                } else {
                    None
                };
                if role == Role::Pawn {
                    moves.add_pawn(state, from, to, capture);
                } else {
                    moves.add(Move::Normal {
                        role,
                        from,
                        capture,
                        to,
                        promotion: None,
                    });
                }
                continue;
            }
            if role == Role::Pawn {
                // RULES C1: steps onto empty squares only; the double step
                // straight forward from the relative 2nd rank.
                if occupied.contains(first) {
                    continue;
                }
                moves.add_pawn(state, from, first, None);
                if d == forward(us)
                    && from.relative_rank(us) == 1
                    && let Some(two) = next(first, d)
                    && !occupied.contains(two)
                {
                    moves.add_pawn(state, from, two, None);
                }
                continue;
            }
            // RULES C1, C2: king steps and slides, ordinary captures.
            let mut to = first;
            loop {
                if !occupied.contains(to) {
                    moves.add(Move::Normal {
                        role,
                        from,
                        capture: None,
                        to,
                        promotion: None,
                    });
                    match next(to, d) {
                        Some(n) if slider => {
                            to = n;
                            continue;
                        }
                        _ => break,
                    }
                }
                if !ours.contains(to) && !kings.contains(to) && unbacked(board, to, d) {
                    moves.add(Move::Normal {
                        role,
                        from,
                        capture: board.role_at(to),
                        to,
                        promotion: None,
                    });
                }
                break;
            }
        }
    }
}

/// The squares that a quiet move of the side to move must leave alone (as
/// its origin and its destination) to be legal without being played: the
/// lines through its king. RULES C5 judges a king by the men on those lines
/// and by enemy knights, which a quiet move of the other side cannot add,
/// so a quiet move off the lines leaves a safe king safe. `None` when the
/// king is capturable now: then every move is played and tested.
fn king_lines_if_safe(state: &State) -> Option<Bitboard> {
    let Some(king) = state.board.king_of(state.turn) else {
        return Some(Bitboard::EMPTY);
    };
    if capturable(state, king, !state.turn) {
        return None;
    }
    Some(attacks::queen_attacks(king, Bitboard::EMPTY) | Bitboard::from_square(king))
}

/// Whether `m` is a quiet move of a man other than the king (no capture,
/// no promotion: the prisoners, and so what may promote, stay as they are)
/// that touches none of `lines`.
fn quiet_and_off(m: Move, lines: Bitboard) -> bool {
    matches!(
        m,
        Move::Normal { role, from, to, capture: None, promotion: None }
            if role != Role::King && !lines.contains(from) && !lines.contains(to)
    )
}

/// RULES C5 for a plain move (no promotion, en passant or castling):
/// whether the mover's king is safe after it, judged on the board alone
/// (the move is not played on the whole state). `None` for other moves.
fn plain_move_legal(state: &State, m: Move) -> Option<bool> {
    let Move::Normal {
        role,
        from,
        capture,
        to,
        promotion: None,
    } = m
    else {
        return None;
    };
    let us = state.turn;
    let mut board = state.board;
    let mover = board.remove(from)?;
    board.remove(to);
    board.set(to, mover);
    let king = if role == Role::King {
        to
    } else {
        match board.king_of(us) {
            Some(king) => king,
            None => return Some(true),
        }
    };
    // A captured piece joins the prisoners the opponent may promote to.
    let they_may_promote =
        can_promote(state, !us) || capture.is_some_and(|victim| PIECES.contains(&victim));
    Some(!capturable_on(&board, they_may_promote, king, !us))
}

/// RULES C5: whether the mover's king is safe after `m`.
fn legal_after(state: &State, m: Move) -> bool {
    let mut after = state.clone();
    after.play(m, Captures::Counted);
    !king_capturable(&after, state.turn)
}

/// The number of men of each role a side starts with.
const fn start_count(role: Role) -> u32 {
    match role {
        Role::Pawn => 8,
        Role::Knight | Role::Bishop | Role::Rook => 2,
        Role::Queen | Role::King => 1,
    }
}

impl Contact {
    /// The men of `color` captured so far and not yet used for a promotion.
    pub fn captured(&self, color: Color) -> ByRole<u8> {
        self.state.prisoners[color]
    }

    /// Whether a man of colour `by` could capture the man on `target` now
    /// (RULES C2, C4, as used for check in RULES C5; pins are ignored).
    pub fn is_capturable(&self, target: Square, by: Color) -> bool {
        capturable(&self.state, target, by)
    }

    /// Forgets an en-passant square the shared make-move may have set after
    /// a two-square pawn move or jump: there is no en passant (RULES C7).
    fn forget_ep(&mut self) {
        if let Some(ep) = self.state.ep_square.take() {
            self.state.hash ^= zobrist::en_passant(ep);
        }
    }
}

impl Position for Contact {
    const VARIANT: Variant = Variant::Contact;
    const MUST_CAPTURE: bool = false;
    const ROYAL_KING: bool = true;
    const HAS_DROPS: bool = false;
    /// RULES C6: the captured men of each side are counted (for promotion).
    const HOLDINGS: bool = true;

    fn start() -> Self {
        let mut setup = Setup::standard();
        setup.castling = Bitboard::EMPTY;
        setup.prisoners = Some(ByColor::default());
        Contact {
            state: State::from_checked_setup(&setup),
        }
    }

    /// Checks the setup: one king each, no pawn on a back rank, castling and
    /// en-passant fields `-` (RULES C7), captured men in one bracket without
    /// `#`, never a king among them, no more men of a role (on the board and
    /// captured) than a side starts with (RULES C6), and the side not to
    /// move not in check (RULES C5).
    fn from_setup(setup: &Setup) -> Result<Self, PositionError> {
        let mut problems = Vec::new();
        let board = &setup.board;
        if setup.castling.any() {
            problems.push(problem(
                ProblemKind::Castling,
                "Contact chess has no castling (RULES C7): the castling field must be '-'",
            ));
        }
        if setup.ep_square.is_some() {
            problems.push(problem(
                ProblemKind::EnPassant,
                "Contact chess has no en passant (RULES C7): the en-passant field must be '-'",
            ));
        }
        let mut common = setup.clone();
        common.castling = Bitboard::EMPTY;
        common.ep_square = None;
        state::check_common(&common, &mut problems);
        for color in Color::ALL {
            let kings = board.count(Role::King.of(color));
            if kings != 1 {
                problems.push(problem(
                    ProblemKind::Kings,
                    format!("{} has {kings} kings (needs exactly one)", color.name()),
                ));
            }
        }
        if setup.prisoners.is_some() {
            problems.push(problem(ProblemKind::Holdings, "Contact chess lists captured men in one bracket without '#', e.g. [QPn] (RULES C6)"
                    ));
        }
        let captured = setup.pockets.unwrap_or_default();
        for color in Color::ALL {
            if captured[color][Role::King] > 0 {
                problems.push(problem(
                    ProblemKind::Kings,
                    "a king is never captured (RULES C5)",
                ));
            }
            for role in PIECES.into_iter().chain([Role::Pawn]) {
                let total = board.count(role.of(color)) + u32::from(captured[color][role]);
                if total > start_count(role) {
                    problems.push(problem(ProblemKind::Material, format!(
                        "{} has {total} men of role '{}' on the board and captured; a side never has more than it started with ({}) (RULES C6)",
                        color.name(),
                        role.upper_char(),
                        start_count(role)
                    )));
                }
            }
        }
        state::finish(problems)?;
        let mut plain = setup.clone();
        plain.promoted = Bitboard::EMPTY;
        plain.pockets = None;
        plain.prisoners = Some(captured);
        plain.castling = Bitboard::EMPTY;
        plain.ep_square = None;
        let state = State::from_checked_setup(&plain);
        if king_capturable(&state, !state.turn) {
            return Err(PositionError {
                problems: vec![problem(
                    ProblemKind::Check,
                    format!(
                        "the side not to move ({}) is in check (RULES C5)",
                        (!state.turn).name()
                    ),
                )],
            });
        }
        Ok(Contact { state })
    }

    fn to_setup(&self) -> Setup {
        let mut setup = self.state.to_setup(false);
        setup.pockets = Some(self.state.prisoners);
        setup
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        let start = moves.len();
        pseudo_legal(&self.state, moves);
        let lines = king_lines_if_safe(&self.state);
        let mut i = start;
        while i < moves.len() {
            let m = moves[i];
            let legal = lines.is_some_and(|lines| quiet_and_off(m, lines))
                || plain_move_legal(&self.state, m).unwrap_or_else(|| legal_after(&self.state, m));
            if legal {
                i += 1;
            } else {
                moves.swap_remove(i);
            }
        }
    }

    /// Out of check, the moves before the legality test (RULES C5 removes
    /// few of them there): a third of the cost of the legal list. In check
    /// `None`, so mates and the few replies to a check are counted exactly.
    fn mobility_hint(&self) -> Option<usize> {
        if self.is_check() {
            return None;
        }
        let mut count = MoveCount(0);
        pseudo_legal(&self.state, &mut count);
        Some(count.0)
    }

    fn play_unchecked(&mut self, m: Move) {
        self.state.play(m, Captures::Counted);
        self.forget_ep();
    }

    fn is_check(&self) -> bool {
        king_capturable(&self.state, self.state.turn)
    }

    fn outcome_with(&self, has_legal_moves: bool) -> Option<Outcome> {
        // RULES C5: checkmate wins, stalemate draws. Two bare kings can
        // never capture anything: a dead draw.
        royal_outcome(self, has_legal_moves).or_else(|| {
            (self.state.board.occupied() == self.state.board.by_role(Role::King))
                .then(|| Outcome::draw(OutcomeKind::Draw))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::fen;

    /// Compares the count with the list of [`pseudo_legal`] at every node
    /// `depth` plies deep; returns the nodes compared.
    fn walk(pos: &Contact, depth: u32) -> u64 {
        let mut list = MoveList::new();
        pseudo_legal(&pos.state, &mut list);
        let mut count = MoveCount(0);
        pseudo_legal(&pos.state, &mut count);
        assert_eq!(count.0, list.len(), "{}", fen::write(pos));
        if depth == 0 {
            return 1;
        }
        1 + pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = pos.clone();
                child.play_unchecked(m);
                walk(&child, depth - 1)
            })
            .sum::<u64>()
    }

    /// The mobility hint counts what the pseudo-legal list holds: jumps,
    /// jump captures, pawn steps and promotions by captured men (RULES C1–
    /// C4, C6), with and without pieces to promote to.
    #[test]
    fn the_pseudo_legal_count_equals_the_list() {
        let nodes: u64 = [
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1", 3),
            (
                "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R[Qq] b - - 0 8",
                2,
            ),
            ("4k3/1P4P1/8/3p4/2P5/1P6/P5p1/4K3[QRNrb] w - - 0 1", 3),
            ("4k3/1P4P1/8/3p4/2P5/1P6/P5p1/4K3[] w - - 0 1", 3),
            ("2k5/pp1r4/2pB4/8/3P4/1P6/P1K5/7R[Nbn] b - - 0 30", 3),
        ]
        .iter()
        .map(|(text, depth)| walk(&fen::parse_position(text).unwrap(), *depth))
        .sum();
        assert!(nodes > 10_000, "only {nodes} nodes compared");
    }
}
