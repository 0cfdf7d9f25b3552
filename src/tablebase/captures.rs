//! Valuing positions on bare boards (no en-passant square) from the
//! tables: a position with a capture is not stored, so it is valued from
//! its captures, which lead to smaller tables (captures are compulsory,
//! RULES A2, so they are all its moves); any other position is looked up.
//!
//! This is the hot path of a table's first pass and of probes, so it works
//! on boards and bitboards instead of positions and move lists (no hash,
//! no move list). Debug builds of the generator compare every first-pass
//! result with the move generator's (`generate::analyse_by_movegen`).

use super::{Layout, Lookup, MAX_MEN, Material, TbError, Value, with_layout};
use crate::board::{Board, Color, Role, attacks};
use crate::moves::MoveList;
use crate::position::Position;
use crate::variants::{Losing, LosingRules};
use smallvec::SmallVec;

/// The value of `board` with `turn` to move and no en-passant square:
/// a game over, the best of its captures, or the stored value (which may
/// be [`Value::UNKNOWN`] if the lookup finds none; callers check).
pub fn evaluate_board<R: LosingRules>(
    board: &Board,
    turn: Color,
    src: &dyn Lookup,
) -> Result<Value, TbError> {
    if board.by_color(turn).is_empty() {
        // RULES A5: a player with no men left wins.
        return Ok(Value::win(0));
    }
    if board.by_color(!turn).is_empty() {
        return Ok(Value::loss(0));
    }
    if super::retro::has_capture(board, turn) {
        return capture_value::<R>(board, turn, src);
    }
    lookup_board(board, turn, src)
}

/// The stored value of a board without a capture for `turn`.
fn lookup_board(board: &Board, turn: Color, src: &dyn Lookup) -> Result<Value, TbError> {
    let material = Material::from_board(board);
    if material.men() > MAX_MEN {
        return Err(TbError::NotCovered(format!(
            "{} men: more than any table holds (tables are of {MAX_MEN} men at most)",
            material.men()
        )));
    }
    let (canonical, index) = with_layout(material, |layout: &Layout| {
        (layout.material(), layout.index(board, turn))
    });
    src.lookup(&canonical, index)
}

/// The value of `board` with `turn` to move, which has a capture: the best
/// of its captures (a pawn capturing onto the last rank promotes to each
/// role of `R::PROMOTIONS`). A capture leading to a position without a
/// value is an error naming the position.
pub fn capture_value<R: LosingRules>(
    board: &Board,
    turn: Color,
    src: &dyn Lookup,
) -> Result<Value, TbError> {
    let occupied = board.occupied();
    let targets = board.by_color(!turn);
    let mut children: SmallVec<[Value; 32]> = SmallVec::new();
    let mut value_of = |child: &Board| -> Result<(), TbError> {
        let v = evaluate_board::<R>(child, !turn, src)?;
        if !v.is_known() {
            return Err(not_covered::<R>(board, turn));
        }
        children.push(v);
        Ok(())
    };
    for (from, piece) in board.pieces() {
        if piece.color != turn {
            continue;
        }
        let hits = if piece.role == Role::Pawn {
            attacks::pawn_attacks(turn, from)
        } else {
            attacks::attacks(turn, piece.role, from, occupied)
        } & targets;
        for to in hits {
            let mut child = *board;
            child.remove(from);
            child.remove(to);
            if piece.role == Role::Pawn && to.relative_rank(turn) == 7 {
                for &role in R::PROMOTIONS {
                    let mut promoted = child;
                    promoted.set(to, role.of(turn));
                    value_of(&promoted)?;
                }
            } else {
                child.set(to, piece);
                value_of(&child)?;
            }
        }
    }
    debug_assert!(!children.is_empty(), "capture_value needs a capture");
    Ok(Value::parent_of_best(children))
}

/// The value of `pos` from its `moves` (all of them): the best for the
/// side to move of the positions they lead to, each valued by
/// [`super::evaluate`]. A move to a position without a value is an error.
pub(super) fn best_of_moves<R: LosingRules>(
    pos: &Losing<R>,
    moves: &MoveList,
    src: &dyn Lookup,
) -> Result<Value, TbError> {
    let mut children: SmallVec<[Value; 32]> = SmallVec::new();
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play_unchecked(m);
        let v = super::evaluate(&child, src)?;
        if !v.is_known() {
            return Err(not_covered::<R>(pos.board(), pos.turn()));
        }
        children.push(v);
    }
    Ok(Value::parent_of_best(children))
}

/// The error for a position whose value the tables do not give.
pub(super) fn not_covered<R: LosingRules>(board: &Board, turn: Color) -> TbError {
    let fen = super::position_of::<R>(*board, turn)
        .map(|p| crate::notation::fen::write(&p))
        .unwrap_or_else(|| format!("{board:?}"));
    TbError::NoValue(format!("{fen} leads to a position without a stored value"))
}
