//! Hostage chess (RULES H, John Leslie 1997): captured men go to the
//! capturer's prison; a turn is an ordinary move, an exchange of prisoners
//! (the paid enemy man goes to its owner's airfield, the rescued own man is
//! dropped at once) or a drop from the mover's airfield; pawns promote only
//! by changing places with one of their own pieces held in the opponent's
//! prison, and without one a pawn on its 7th rank is frozen.
//!
//! Where the state lives: the airfields are the shared pockets, the prisons
//! the shared `prisoners` holding (both indexed by the men's own colour and
//! covered by the zobrist hash), and an unmoved king is the king's home
//! square (e1/e8) kept in the castling set, hashed like a castling right and
//! written `E`/`e` in FEN when that side has no right (RULES H8, H11).
//!
//! Legality (RULES H7) is judged after the whole turn: every candidate is
//! played on a copy and rejected if the mover's king is then attacked, with
//! frozen pawns (which attack nothing) determined by the prisons after the
//! turn. Drops and exchanges made while not in check need no test: a drop
//! only adds a blocker, and an exchange only removes enemy men from the
//! mover's prison, which can freeze enemy pawns but never unfreeze one.

use super::chess::royal_outcome;
use crate::board::{Bitboard, ByRole, Color, Role, Square, attacks, zobrist};
use crate::movegen;
use crate::moves::{Move, MoveList, castling_king_target, castling_rook_target};
use crate::position::state::{self, Captures};
use crate::position::{Outcome, Position, PositionError, Setup, State};
use crate::position::{ProblemKind, problem};
use crate::variants::Variant;

/// A position of Hostage chess.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Hostage {
    state: State,
}

/// The pieces a pawn may promote to, in the order moves are generated.
const PIECES: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// The men that can be held (in an airfield or a prison), in FEN order.
pub const HELD_ROLES: [Role; 5] = [
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// The exchange value of a man (RULES H3): P 1, N 2, B 2, R 3, Q 4. Kings
/// are never held; they get a value no man can pay.
pub const fn value(role: Role) -> u8 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 2,
        Role::Rook => 3,
        Role::Queen => 4,
        Role::King => u8::MAX,
    }
}

/// Whether a man of role `pay` may buy back a man of role `rescue` (RULES H3).
pub const fn can_exchange(pay: Role, rescue: Role) -> bool {
    !matches!(pay, Role::King) && !matches!(rescue, Role::King) && value(pay) >= value(rescue)
}

/// The home square of `color`'s king.
fn king_home(color: Color) -> Square {
    color.fold(Square::E1, Square::E8)
}

/// The roles `color`'s pawns may promote to: its own pieces held in the
/// opponent's prison (RULES H6). Returns the array and how many are valid.
fn promotions(state: &State, color: Color) -> ([Role; 4], usize) {
    let mut out = [Role::Queen; 4];
    let mut n = 0;
    for role in PIECES {
        if state.prisoners[color][role] > 0 {
            out[n] = role;
            n += 1;
        }
    }
    (out, n)
}

/// `color`'s frozen pawns: on the relative 7th rank while no piece of
/// `color` is held in the opponent's prison (RULES H6).
fn frozen_pawns(state: &State, color: Color) -> Bitboard {
    if PIECES.iter().any(|&r| state.prisoners[color][r] > 0) {
        return Bitboard::EMPTY;
    }
    state.board.by_piece(Role::Pawn.of(color)) & Bitboard::rank(color.fold(6, 1))
}

/// Men of `by` attacking `sq`, given `occupied`; frozen pawns attack nothing.
fn attackers(state: &State, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
    state
        .board
        .attacks_by(sq, by, occupied)
        .without(frozen_pawns(state, by))
}

/// Whether `color`'s king is attacked (frozen pawns give no check).
fn king_attacked(state: &State, color: Color) -> bool {
    state
        .board
        .king_of(color)
        .is_some_and(|king| attackers(state, king, !color, state.board.occupied()).any())
}

/// RULES H7: whether the side to move's king is safe after the whole turn `m`.
fn legal_after(state: &State, m: Move) -> bool {
    let mut after = state.clone();
    after.play(m, Captures::ToPrison);
    !king_attacked(&after, state.turn)
}

/// Pseudo-legal castling of the side to move: rights, empty squares, and the
/// king neither in, through nor into attack (RULES H7, H8).
fn castling_moves(state: &State, moves: &mut MoveList) {
    let board = &state.board;
    let us = state.turn;
    let king = king_home(us);
    let rights = state.castling & Bitboard::CORNERS & Bitboard::rank(us.fold(0, 7));
    if rights.is_empty() || board.piece_at(king) != Some(Role::King.of(us)) {
        return;
    }
    for rook in rights {
        let king_to = castling_king_target(king, rook);
        let rook_to = castling_rook_target(king, rook);
        let must_be_empty =
            (attacks::between(king, rook) | Bitboard::from(king_to) | Bitboard::from(rook_to))
                .without(Bitboard::from(king) | Bitboard::from(rook));
        if board.occupied().intersects(must_be_empty) {
            continue;
        }
        let occupied_after = board.occupied() ^ Bitboard::from(king) ^ Bitboard::from(rook);
        let path = attacks::between(king, king_to) | Bitboard::from(king_to) | Bitboard::from(king);
        if path
            .into_iter()
            .all(|sq| attackers(state, sq, !us, occupied_after).is_empty())
        {
            moves.push(Move::Castle { king, rook });
        }
    }
}

/// Every exchange of the side to move onto the empty squares (RULES H2b,
/// H3, H4), without the king-safety test.
fn exchanges(state: &State, moves: &mut MoveList) {
    let us = state.turn;
    let empty = !state.board.occupied();
    for pay in HELD_ROLES {
        if state.prisoners[!us][pay] == 0 {
            continue;
        }
        for rescue in HELD_ROLES {
            if state.prisoners[us][rescue] == 0 || !can_exchange(pay, rescue) {
                continue;
            }
            let squares = if rescue == Role::Pawn {
                empty.without(Bitboard::BACKRANKS)
            } else {
                empty
            };
            for to in squares {
                moves.push(Move::Exchange { rescue, pay, to });
            }
        }
    }
}

/// Whether `m`, an ordinary move of a man other than the king played while
/// not in check, obviously keeps the king safe: it leaves no line to the
/// king open (it is not the only man between the king and an enemy slider,
/// or it stays on that line) and it imprisons no piece that could unfreeze an
/// enemy pawn touching the king (RULES H7).
fn obviously_safe(m: Move, king: Square, shields: Bitboard, pawn_threat: bool) -> bool {
    match m {
        Move::Normal {
            role,
            from,
            to,
            capture,
            ..
        } => {
            role != Role::King
                && (!shields.contains(from) || attacks::aligned(from, to, king))
                && (!pawn_threat || matches!(capture, None | Some(Role::Pawn)))
        }
        _ => false,
    }
}

/// Keeps only the moves from `start` on that pass [`legal_after`].
fn retain_legal(state: &State, moves: &mut MoveList, start: usize) {
    let us = state.turn;
    let board = &state.board;
    let shortcut = board.king_of(us).filter(|_| !king_attacked(state, us));
    let (shields, pawn_threat) = shortcut.map_or((Bitboard::EMPTY, false), |king| {
        // Only these men's moves can open a line to the king.
        let shields = movegen::slider_blockers(board, king, !us) & board.by_color(us);
        let enemy_pawns = board.by_piece(Role::Pawn.of(!us));
        let touching = attacks::pawn_attacks(us, king) & enemy_pawns;
        (shields, touching.any())
    });
    let mut i = start;
    while i < moves.len() {
        let m = moves[i];
        let fast = shortcut.is_some_and(|king| obviously_safe(m, king, shields, pawn_threat));
        if fast || legal_after(state, m) {
            i += 1;
        } else {
            moves.swap_remove(i);
        }
    }
}

impl Hostage {
    /// The men of `color` held in the opponent's prison, per role.
    pub fn prisoners(&self, color: Color) -> ByRole<u8> {
        self.state.prisoners[color]
    }

    /// The men waiting in `color`'s airfield, per role.
    pub fn airfield(&self, color: Color) -> ByRole<u8> {
        self.state.pockets[color]
    }

    /// Whether `color`'s king has never moved (it may castle with an unmoved
    /// or newly dropped corner rook, RULES H8).
    pub fn king_unmoved(&self, color: Color) -> bool {
        self.state.castling.contains(king_home(color))
    }

    /// `color`'s pawns that are frozen now (RULES H6).
    pub fn frozen_pawns(&self, color: Color) -> Bitboard {
        frozen_pawns(&self.state, color)
    }

    /// Forgets the en-passant square when no en-passant capture is legal, so
    /// that equal positions hash equally.
    fn forget_unusable_ep(&mut self) {
        let Some(ep) = self.state.ep_square else {
            return;
        };
        let mut candidates = MoveList::new();
        movegen::en_passant_moves(&self.state, &mut candidates);
        if !candidates.iter().any(|&m| legal_after(&self.state, m)) {
            self.state.ep_square = None;
            self.state.hash ^= zobrist::en_passant(ep);
        }
    }
}

impl Position for Hostage {
    const VARIANT: Variant = Variant::Hostage;
    const MUST_CAPTURE: bool = false;
    const ROYAL_KING: bool = true;
    const HAS_DROPS: bool = true;
    const DROP_SIGN: char = '*';

    fn start() -> Self {
        let mut setup = Setup::standard();
        setup.castling |= Bitboard::from(Square::E1) | Bitboard::from(Square::E8);
        Hostage {
            state: State::from_checked_setup(&setup),
        }
    }

    /// Checks the setup. Unlike orthodox chess, a position whose side not to
    /// move is in check is accepted: the worked example of RULES H12 is one
    /// (the a1 bishop checks h8 until `*g7` blocks it). Kings are never
    /// captured, so play simply goes on; the mover's own king must still be
    /// safe after his turn.
    fn from_setup(setup: &Setup) -> Result<Self, PositionError> {
        let mut problems = Vec::new();
        let board = &setup.board;
        let homes = Bitboard::from(Square::E1) | Bitboard::from(Square::E8);
        let mut rooks_only = setup.clone();
        rooks_only.castling = setup.castling.without(homes);
        state::check_common(&rooks_only, &mut problems);
        let mut castling = setup.castling;
        for color in Color::ALL {
            let home = king_home(color);
            let rank = Bitboard::rank(color.fold(0, 7));
            let squares = setup.castling & rank;
            if squares.is_empty() {
                continue;
            }
            if board.piece_at(home) != Some(Role::King.of(color)) {
                problems.push(problem(ProblemKind::Castling, format!(
                    "castling rights or an unmoved-king flag for {} need its king on {home} (RULES H8, H11)",
                    color.name()
                )));
            }
            if squares.without(Bitboard::CORNERS | homes).any() {
                problems.push(problem(
                    ProblemKind::Castling,
                    format!(
                        "{} may castle only with a rook in a corner of its back rank",
                        color.name()
                    ),
                ));
            }
            // A king with a castling right is unmoved by definition (RULES H11).
            castling.add(home);
        }
        state::check_one_king_each(setup, &mut problems);
        let pockets = setup.pockets.unwrap_or_default();
        let prisoners = setup.prisoners.unwrap_or_default();
        let mut held = 0;
        for color in Color::ALL {
            if pockets[color][Role::King] > 0 || prisoners[color][Role::King] > 0 {
                problems.push(problem(
                    ProblemKind::Kings,
                    "a king is never captured, so never held (RULES H1)",
                ));
            }
            held += pockets[color].total() + prisoners[color].total();
        }
        if board.occupied().count() + held > 64 {
            problems.push(problem(
                ProblemKind::Material,
                "more than 64 men on the board and held",
            ));
        }
        // Men change places (board, prison, airfield) but are never made:
        // each side has at most its 16 men and 8 pawns of the start
        // (RULES H1: a capture imprisons, a promotion swaps, H11).
        for color in Color::ALL {
            let men =
                board.by_color(color).count() + pockets[color].total() + prisoners[color].total();
            let pawns = (board.by_color(color) & board.by_role(Role::Pawn)).count()
                + u32::from(pockets[color][Role::Pawn])
                + u32::from(prisoners[color][Role::Pawn]);
            if men > 16 {
                problems.push(problem(ProblemKind::Material, format!(
                    "{} has {men} men on the board, in prisons and in airfields; at most 16 can exist",
                    color.name()
                )));
            }
            if pawns > 8 {
                problems.push(problem(ProblemKind::Material, format!(
                    "{} has {pawns} pawns on the board, in prisons and in airfields; at most 8 can exist",
                    color.name()
                )));
            }
        }
        let mut plain = setup.clone();
        plain.promoted = Bitboard::EMPTY;
        plain.pockets = Some(pockets);
        plain.prisoners = Some(prisoners);
        plain.castling = castling;
        state::finish(problems)?;
        let mut pos = Hostage {
            state: State::from_checked_setup(&plain),
        };
        pos.forget_unusable_ep();
        Ok(pos)
    }

    fn to_setup(&self) -> Setup {
        let mut setup = self.state.to_setup(true);
        setup.prisoners = Some(self.state.prisoners);
        for color in Color::ALL {
            // `E`/`e` only when that side has no right (RULES H11).
            let rank = Bitboard::rank(color.fold(0, 7));
            if (setup.castling & rank & Bitboard::CORNERS).any() {
                setup.castling.discard(king_home(color));
            }
        }
        setup
    }

    fn state(&self) -> &State {
        &self.state
    }

    fn legal_moves_into(&self, moves: &mut MoveList) {
        let state = &self.state;
        let us = state.turn;
        let start = moves.len();
        // Kings are never captured (RULES H1), even when a setup leaves the
        // side not to move in check (see `from_setup`).
        let targets = !(state.board.by_color(us) | state.board.by_role(Role::King));
        movegen::piece_moves(state, Bitboard::FULL, targets, moves);
        let (roles, n) = promotions(state, us);
        // With no piece to swap, `roles` is empty and a pawn on its 7th rank
        // (frozen) generates nothing (RULES H6).
        movegen::pawn_moves(state, targets, Bitboard::FULL, &roles[..n], moves);
        movegen::en_passant_moves(state, moves);
        movegen::king_steps(state, targets, moves);
        castling_moves(state, moves);
        retain_legal(state, moves, start);

        let held_start = moves.len();
        movegen::drops(state, Bitboard::FULL, moves);
        exchanges(state, moves);
        if king_attacked(state, us) {
            retain_legal(state, moves, held_start);
        }
    }

    fn play_unchecked(&mut self, m: Move) {
        let us = self.state.turn;
        self.state.play(m, Captures::ToPrison);
        // RULES H8: a rook dropped on its own corner beside an unmoved king
        // may castle again.
        if let Move::Drop {
            role: Role::Rook,
            to,
        }
        | Move::Exchange {
            rescue: Role::Rook,
            to,
            ..
        } = m
            && (Bitboard::CORNERS & Bitboard::rank(us.fold(0, 7))).contains(to)
            && self.state.castling.contains(king_home(us))
        {
            self.state.add_castling(Bitboard::from(to));
        }
        self.forget_unusable_ep();
    }

    fn is_check(&self) -> bool {
        king_attacked(&self.state, self.state.turn)
    }

    fn outcome_with(&self, has_legal_moves: bool) -> Option<Outcome> {
        // RULES H9: checkmate wins, stalemate draws; no dead-position rule
        // (no man ever leaves the game).
        royal_outcome(self, has_legal_moves)
    }
}
