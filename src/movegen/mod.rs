//! Move generators shared by the variants. Each function appends moves of
//! one kind to a list; the variants combine them under their own rules
//! (royal king safety, compulsory captures, drops).

mod count;
mod drops;
mod pieces;
mod royal;

pub(crate) use count::{losing_count, royal_count};
pub(crate) use drops::{DROP_ROLES, drop_squares, drops};
pub(crate) use pieces::{en_passant_moves, king_steps, pawn_moves, piece_moves, push_pawn};
pub(crate) use royal::{
    castling_moves, checkers, forget_unusable_ep, has_legal_royal, legal_royal, slider_blockers,
};

use crate::board::Role;

/// Promotion choices in orthodox chess and crazyhouse.
pub(crate) const PROMOTIONS: &[Role] = &[Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// Promotion to a queen only (RULES A8: `losing-qpromo`, `kamikaze`).
pub(crate) const QUEEN_ONLY: &[Role] = &[Role::Queen];

/// Promotion choices in Losing chess (RULES A4: the king too).
pub(crate) const LOSING_PROMOTIONS: &[Role] = &[
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::King,
];
