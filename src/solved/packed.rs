//! A position in 28 bytes, so that every stored result can be re-proved
//! from its record alone (`ransom store verify`).
//!
//! Layout: the occupied squares (`u64`), one nibble per man in square order
//! (colour in bit 3, role index in bits 0–2; 32 men at most), the side to
//! move and the en-passant square in one byte (bit 7: Black to move, bits
//! 0–6: square + 1, or 0), and the castling rooks on the first and last
//! ranks in two bytes. Positions with men in hand, promoted-man marks or a
//! turn in progress (crazyhouse, Hostage, Contact, Hit-and-Run) have no
//! packed form; the store is offered only for variants whose positions do.

use crate::board::{Bitboard, Board, Color, Piece, Role, Square};
use crate::position::{Position, Setup};

/// Bytes of a packed position.
pub const PACKED_BYTES: usize = 28;

/// A packed position.
pub type Packed = [u8; PACKED_BYTES];

const EDGE_RANKS: u64 = 0xff00_0000_0000_00ff;

/// `pos` packed, or `None` if it has no packed form.
pub fn pack<P: Position>(pos: &P) -> Option<Packed> {
    let setup = pos.to_setup();
    if setup.has_holdings()
        || setup.promoted.any()
        || setup.more_ep.any()
        || setup.sub.is_some()
        || setup.castling.0 & !EDGE_RANKS != 0
    {
        return None;
    }
    let occupied = setup.board.occupied();
    if occupied.count() > 32 {
        return None;
    }
    let mut out = [0u8; PACKED_BYTES];
    out[..8].copy_from_slice(&occupied.0.to_le_bytes());
    for (i, sq) in occupied.enumerate() {
        let piece = setup.board.piece_at(sq)?;
        let nibble = piece.role.index() as u8 | u8::from(piece.color == Color::Black) << 3;
        out[8 + i / 2] |= nibble << (4 * (i % 2));
    }
    let ep = setup.ep_square.map_or(0, |sq| sq.index() as u8 + 1);
    out[24] = ep | u8::from(setup.turn == Color::Black) << 7;
    let castling = setup.castling.0;
    out[25] = castling as u8;
    out[26] = (castling >> 56) as u8;
    Some(out)
}

/// The position a packed record holds, checked by the variant's rules;
/// `None` if the bytes do not describe a legal position of `P`.
pub fn unpack<P: Position>(bytes: &Packed) -> Option<P> {
    let occupied = Bitboard(u64::from_le_bytes(bytes[..8].try_into().ok()?));
    if occupied.count() > 32 || bytes[27] != 0 {
        return None;
    }
    let mut board = Board::empty();
    for (i, sq) in occupied.enumerate() {
        let nibble = (bytes[8 + i / 2] >> (4 * (i % 2))) & 0xf;
        let role = *Role::ALL.get(usize::from(nibble & 7))?;
        let color = if nibble & 8 == 0 {
            Color::White
        } else {
            Color::Black
        };
        board.set(sq, Piece { color, role });
    }
    let ep = bytes[24] & 0x7f;
    let ep_square = match ep {
        0 => None,
        n => Some(Square::new(u32::from(n) - 1)?),
    };
    let mut setup = Setup::standard();
    setup.board = board;
    setup.promoted = Bitboard::EMPTY;
    setup.pockets = None;
    setup.prisoners = None;
    setup.turn = if bytes[24] & 0x80 == 0 {
        Color::White
    } else {
        Color::Black
    };
    setup.castling = Bitboard(u64::from(bytes[25]) | u64::from(bytes[26]) << 56);
    setup.ep_square = ep_square;
    setup.more_ep = Bitboard::EMPTY;
    setup.sub = None;
    setup.halfmoves = 0;
    setup.fullmoves = 1;
    P::from_setup(&setup).ok()
}

/// Whether every position of `P` survives packing: none holds men off the
/// board or stops in the middle of a turn, and the start position packs
/// and reads back with the same hash.
pub fn supported<P: Position>() -> bool {
    if P::HOLDINGS || P::SUB_MOVES_PER_TURN > 1 {
        return false;
    }
    let start = P::start();
    pack(&start)
        .and_then(|bytes| unpack::<P>(&bytes))
        .is_some_and(|back| back.zobrist() == start.zobrist())
}
