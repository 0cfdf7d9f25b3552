//! The position state shared by the orthodox-board variants, with the
//! make-move logic and the incrementally updated zobrist hash.
//!
//! Holdings: `pockets` are the men waiting to be dropped (crazyhouse
//! pockets, Hostage airfields), `prisoners` the men held in the opponent's
//! prison (Hostage) or the captured men (Contact chess); both are indexed by
//! the men's own colour and hashed per role and count (zobrist holding slots
//! 0 and 1).

use super::{PositionError, PositionProblem, ProblemKind, Setup, TurnPhase, problem};
use crate::board::{
    Bitboard, Board, ByColor, ByRole, Color, Piece, Role, Square, attacks, zobrist,
};
use crate::moves::{Move, castling_king_target, castling_rook_target};

/// Everything that defines a position of chess, Losing chess, crazyhouse,
/// Hostage chess or Contact chess.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub(crate) board: Board,
    pub(crate) promoted: Bitboard,
    pub(crate) pockets: ByColor<ByRole<u8>>,
    /// Hostage chess: `prisoners[c]` are men of colour `c` held in the prison
    /// of `!c` (RULES H1); Contact chess: the men of colour `c` captured and
    /// not yet used for a promotion (RULES C6). Empty in every other variant.
    pub(crate) prisoners: ByColor<ByRole<u8>>,
    pub(crate) turn: Color,
    pub(crate) castling: Bitboard,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    /// Hit-and-Run chess: the live en-passant squares and the mid-turn
    /// state (RULES R7, R8); empty in every other variant.
    pub(crate) phase: TurnPhase,
    pub(crate) hash: u64,
}

/// The identity of a position for repetition and proof checking: everything
/// but the move clocks, compared in full (never by hash alone).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PositionKey {
    board: Board,
    promoted: Bitboard,
    pockets: ByColor<ByRole<u8>>,
    prisoners: ByColor<ByRole<u8>>,
    turn: Color,
    castling: Bitboard,
    ep_square: Option<Square>,
    phase: TurnPhase,
}

/// Which holding rules a variant's captures follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Captures {
    /// Captured men leave the game.
    Vanish,
    /// Captured men go to the capturer's pocket, promoted men as pawns (crazyhouse).
    ToPocket,
    /// Captured men go to the capturer's prison with their role; promotion
    /// swaps the pawn with a man of the promoted role from the opponent's
    /// prison (Hostage chess, RULES H1, H6).
    ToPrison,
    /// Captured men are counted by their own colour in `prisoners`;
    /// promotion takes a man of the promoted role out of that count and the
    /// pawn leaves the game (Contact chess, RULES C6).
    Counted,
}

impl State {
    /// Builds a state from a setup whose rules have been checked, computing
    /// the hash from scratch. The en-passant square is kept only if a pawn of
    /// the side to move attacks it (so equal positions hash equally).
    pub(crate) fn from_checked_setup(setup: &Setup) -> State {
        let mut state = State {
            board: setup.board,
            promoted: setup.promoted & setup.board.occupied(),
            pockets: setup.pockets.unwrap_or_default(),
            prisoners: setup.prisoners.unwrap_or_default(),
            turn: setup.turn,
            castling: setup.castling,
            ep_square: setup.ep_square,
            halfmoves: setup.halfmoves,
            fullmoves: setup.fullmoves.max(1),
            phase: TurnPhase::default(),
            hash: 0,
        };
        if let Some(ep) = state.ep_square
            && !state.ep_capturers(ep).any()
        {
            state.ep_square = None;
        }
        state.hash = state.compute_hash();
        state
    }

    /// The raw setup of this state.
    pub(crate) fn to_setup(&self, with_pockets: bool) -> Setup {
        let ep = self.phase.ep;
        Setup {
            board: self.board,
            promoted: self.promoted,
            pockets: with_pockets.then_some(self.pockets),
            prisoners: None,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square.or(ep.first()),
            more_ep: ep.without(ep.first().map_or(Bitboard::EMPTY, Bitboard::from)),
            sub: self.phase.sub,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }

    /// The position's identity without the move clocks.
    pub fn key(&self) -> PositionKey {
        PositionKey {
            board: self.board,
            promoted: self.promoted,
            pockets: self.pockets,
            prisoners: self.prisoners,
            turn: self.turn,
            castling: self.castling,
            ep_square: self.ep_square,
            phase: self.phase,
        }
    }

    /// Pawns of the side to move that attack `ep`.
    fn ep_capturers(&self, ep: Square) -> Bitboard {
        attacks::pawn_attacks(!self.turn, ep) & self.board.by_piece(Role::Pawn.of(self.turn))
    }

    /// The zobrist hash computed from scratch.
    pub fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for (sq, piece) in self.board.pieces() {
            hash ^= zobrist::piece(piece, sq);
        }
        for sq in self.promoted {
            hash ^= zobrist::promoted(sq);
        }
        for color in Color::ALL {
            for role in Role::ALL {
                hash ^= zobrist::holding(0, color, role, self.pockets[color][role]);
                hash ^= zobrist::holding(1, color, role, self.prisoners[color][role]);
            }
        }
        if self.turn == Color::Black {
            hash ^= zobrist::black_to_move();
        }
        for rook in self.castling {
            hash ^= zobrist::castling(rook);
        }
        if let Some(ep) = self.ep_square {
            hash ^= zobrist::en_passant(ep);
        }
        hash ^ self.phase.hash()
    }

    #[inline]
    fn put(&mut self, sq: Square, piece: Piece) {
        self.board.set(sq, piece);
        self.hash ^= zobrist::piece(piece, sq);
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.board.remove(sq)?;
        self.forget_taken(sq, piece);
        Some(piece)
    }

    /// [`State::take`] where the move says which man stands on `sq`: that
    /// man is removed without a search of the board (the board is searched
    /// if the move was wrong about it).
    #[inline]
    fn take_expected(&mut self, sq: Square, piece: Piece) -> Option<Piece> {
        if !self.board.remove_if(sq, piece) {
            return self.take(sq);
        }
        self.forget_taken(sq, piece);
        Some(piece)
    }

    /// The hash and the promoted mark after `piece` left `sq`'s board.
    #[inline]
    fn forget_taken(&mut self, sq: Square, piece: Piece) {
        self.hash ^= zobrist::piece(piece, sq);
        if self.promoted.contains(sq) {
            self.promoted.discard(sq);
            self.hash ^= zobrist::promoted(sq);
        }
    }

    #[inline]
    fn mark_promoted(&mut self, sq: Square) {
        self.promoted.add(sq);
        self.hash ^= zobrist::promoted(sq);
    }

    #[inline]
    fn add_to_pocket(&mut self, color: Color, role: Role, delta: i8) {
        let count = &mut self.pockets[color][role];
        let old = *count;
        *count = old.wrapping_add_signed(delta);
        let new = *count;
        self.hash ^= zobrist::holding(0, color, role, old) ^ zobrist::holding(0, color, role, new);
    }

    #[inline]
    fn add_prisoner(&mut self, color: Color, role: Role, delta: i8) {
        let count = &mut self.prisoners[color][role];
        let old = *count;
        *count = old.wrapping_add_signed(delta);
        let new = *count;
        self.hash ^= zobrist::holding(1, color, role, old) ^ zobrist::holding(1, color, role, new);
    }

    /// Adds the castling squares `rights` (Hostage: a rook dropped on its
    /// corner beside an unmoved king, RULES H8).
    #[inline]
    pub(crate) fn add_castling(&mut self, rights: Bitboard) {
        for rook in rights.without(self.castling) {
            self.hash ^= zobrist::castling(rook);
        }
        self.castling |= rights;
    }

    /// Removes the castling squares `rights`, keeping the hash in step.
    #[inline]
    pub(crate) fn drop_castling(&mut self, rights: Bitboard) {
        for rook in self.castling & rights {
            self.hash ^= zobrist::castling(rook);
        }
        self.castling = self.castling.without(rights);
    }

    /// Passes the turn: no man moves, the en-passant square lapses, the
    /// other side is to move (the engine's null move; never a legal move).
    pub(crate) fn pass_turn(&mut self) {
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::en_passant(ep);
        }
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
    }

    /// Plays `m`, assumed legal. `captures` says where captured men go.
    pub(crate) fn play(&mut self, m: Move, captures: Captures) {
        let us = self.turn;
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::en_passant(ep);
        }
        self.halfmoves = if m.is_zeroing() {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        match m {
            Move::Normal {
                role,
                from,
                capture,
                to,
                promotion,
            } => {
                let was_promoted = self.promoted.contains(from);
                if let Some(captured) = capture {
                    let captured_promoted = self.promoted.contains(to);
                    if let Some(victim) = self.take_expected(to, captured.of(!us)) {
                        match captures {
                            Captures::Vanish => {}
                            Captures::ToPocket => {
                                let role = if captured_promoted {
                                    Role::Pawn
                                } else {
                                    victim.role
                                };
                                self.add_to_pocket(us, role, 1);
                            }
                            Captures::ToPrison | Captures::Counted => {
                                self.add_prisoner(!us, victim.role, 1)
                            }
                        }
                    }
                }
                if let Some(promotion) = promotion {
                    match captures {
                        // RULES H6: the piece leaves the opponent's prison, the pawn enters it.
                        Captures::ToPrison => {
                            self.add_prisoner(us, promotion, -1);
                            self.add_prisoner(us, Role::Pawn, 1);
                        }
                        // RULES C6: the captured piece returns, the pawn leaves the game.
                        Captures::Counted => self.add_prisoner(us, promotion, -1),
                        Captures::Vanish | Captures::ToPocket => {}
                    }
                }
                self.drop_castling(Bitboard::from(from) | Bitboard::from(to));
                if role == Role::King {
                    self.drop_castling(Bitboard::rank(us.fold(0, 7)));
                }
                self.take_expected(from, role.of(us));
                self.put(to, promotion.unwrap_or(role).of(us));
                if captures == Captures::ToPocket && (was_promoted || promotion.is_some()) {
                    self.mark_promoted(to);
                }
                if role == Role::Pawn && from.index().abs_diff(to.index()) == 16 {
                    let skipped = Square::from_coords(from.file(), (from.rank() + to.rank()) / 2)
                        .expect("between two squares of one file");
                    let capturers = attacks::pawn_attacks(us, skipped)
                        & self.board.by_piece(Role::Pawn.of(!us));
                    if capturers.any() {
                        self.ep_square = Some(skipped);
                        self.hash ^= zobrist::en_passant(skipped);
                    }
                }
            }
            Move::EnPassant { from, to } => {
                let victim_sq = Square::from_coords(to.file(), from.rank()).expect("on board");
                self.take(victim_sq);
                match captures {
                    Captures::Vanish => {}
                    Captures::ToPocket => self.add_to_pocket(us, Role::Pawn, 1),
                    Captures::ToPrison | Captures::Counted => self.add_prisoner(!us, Role::Pawn, 1),
                }
                self.take(from);
                self.put(to, Role::Pawn.of(us));
            }
            Move::Castle { king, rook } => {
                self.drop_castling(Bitboard::rank(us.fold(0, 7)));
                self.take(king);
                let rook_piece = self.take(rook).unwrap_or(Role::Rook.of(us));
                self.put(castling_king_target(king, rook), Role::King.of(us));
                self.put(castling_rook_target(king, rook), rook_piece);
            }
            Move::Drop { role, to } => {
                self.add_to_pocket(us, role, -1);
                self.put(to, role.of(us));
            }
            Move::Exchange { rescue, pay, to } => {
                // RULES H2b: the paid enemy man goes from the mover's prison
                // to its owner's airfield; the rescued man is dropped.
                self.add_prisoner(!us, pay, -1);
                self.add_to_pocket(!us, pay, 1);
                self.add_prisoner(us, rescue, -1);
                self.put(to, rescue.of(us));
            }
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !us;
        self.hash ^= zobrist::black_to_move();
    }
}

/// Checks the rules every orthodox-board variant shares: pawns off the back
/// ranks, castling rights backed by an unmoved-looking king and rook, and an
/// en-passant square that a double step could have produced. Problems are
/// appended to `problems`.
pub(crate) fn check_common(setup: &Setup, problems: &mut Vec<PositionProblem>) {
    let board = &setup.board;
    if setup.more_ep.any() {
        problems.push(problem(
            ProblemKind::EnPassant,
            "only Hit-and-Run chess has several en-passant squares (RULES R8)",
        ));
    }
    if setup.sub.is_some() {
        problems.push(problem(
            ProblemKind::Turn,
            "only Hit-and-Run chess has a mid-turn 'sub=' field (RULES R8)",
        ));
    }
    if setup.promoted.any() {
        problems.push(problem(
            ProblemKind::Holdings,
            "only crazyhouse marks promoted men with '~'",
        ));
    }
    let pawns_on_back = board.by_role(Role::Pawn) & Bitboard::BACKRANKS;
    for sq in pawns_on_back {
        problems.push(problem(
            ProblemKind::Pawns,
            format!("pawn on a back rank ({sq})"),
        ));
    }
    for rook in setup.castling {
        let color = if rook.rank() == 0 {
            Color::White
        } else {
            Color::Black
        };
        let back_rank = Bitboard::rank(rook.rank());
        let king = (board.by_piece(Role::King.of(color)) & back_rank).single_square();
        let ok = back_rank.intersects(Bitboard::BACKRANKS)
            && board.piece_at(rook) == Some(Role::Rook.of(color))
            && king.is_some();
        if !ok {
            problems.push(problem(ProblemKind::Castling, format!(
                "castling right with the rook on {rook} needs a {} rook there and a {} king on the same back rank",
                color.name(),
                color.name()
            )));
        }
    }
    for color in Color::ALL {
        let rank = Bitboard::rank(color.fold(0, 7));
        let rights = setup.castling & rank;
        if let Some(king) = (board.by_piece(Role::King.of(color)) & rank).single_square() {
            let h_side = rights.filter(|r| r.file() > king.file()).count();
            let a_side = rights.filter(|r| r.file() < king.file()).count();
            if h_side > 1 || a_side > 1 {
                problems.push(problem(
                    ProblemKind::Castling,
                    format!("{} has two castling rights on one side", color.name()),
                ));
            }
        }
    }
    if let Some(ep) = setup.ep_square {
        let us = setup.turn;
        let (ep_rank, step) = match us {
            Color::White => (5, -8),
            Color::Black => (2, 8),
        };
        let pusher = ep.offset(step);
        let origin = ep.offset(-step);
        let ok = ep.rank() == ep_rank
            && !board.occupied().contains(ep)
            && pusher.is_some_and(|sq| board.piece_at(sq) == Some(Role::Pawn.of(!us)))
            && origin.is_some_and(|sq| !board.occupied().contains(sq));
        if !ok {
            problems.push(problem(ProblemKind::EnPassant, format!(
                "invalid en-passant square {ep}: no {} pawn can just have made a double step over it",
                (!us).name()
            )));
        }
    }
}

/// Checks that each side has exactly one king.
pub(crate) fn check_one_king_each(setup: &Setup, problems: &mut Vec<PositionProblem>) {
    for color in Color::ALL {
        let kings = setup.board.count(Role::King.of(color));
        if kings != 1 {
            problems.push(problem(
                ProblemKind::Kings,
                format!("{} has {kings} kings (needs exactly one)", color.name()),
            ));
        }
    }
}

/// Checks that each side has exactly one king and that the side not to move
/// is not in check (the rules of the royal-king variants).
pub(crate) fn check_royal(setup: &Setup, problems: &mut Vec<PositionProblem>) {
    let board = &setup.board;
    check_one_king_each(setup, problems);
    let them = !setup.turn;
    if let Some(king) = board.king_of(them)
        && board.attacks_by(king, setup.turn, board.occupied()).any()
    {
        problems.push(problem(
            ProblemKind::Check,
            format!("the side not to move ({}) is in check", them.name()),
        ));
    }
}

/// Turns collected problems into a result.
pub(crate) fn finish(problems: Vec<PositionProblem>) -> Result<(), PositionError> {
    if problems.is_empty() {
        Ok(())
    } else {
        Err(PositionError { problems })
    }
}
