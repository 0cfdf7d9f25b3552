//! FEN and X-FEN, with the crazyhouse `[...]` holdings suffix and `~` for
//! promoted men, and the Hostage chess form `[<airfields>#<prisoners>]`
//! (RULES H11; its castling field may hold `E`/`e`, read like the
//! Shredder-FEN file letter it is: the square of an unmoved king). Input is
//! lenient: missing trailing fields take their defaults, `_` may stand for a
//! space, and pockets may also be written as a ninth rank
//! (`.../RNBQKBNR/Qn`).
//!
//! Hit-and-Run chess (RULES R8) adds two things: the en-passant field may
//! list several squares separated by commas (`d6,e6`), and a mid-turn
//! position has a seventh field `sub=<square>` or `sub=<square>x<origin>`.

use crate::board::{Bitboard, Board, ByColor, ByRole, Color, Piece, Role, Square};
use crate::moves::Move;
use crate::position::{Position, PositionError, Setup, SubMove};

/// What is wrong with a FEN string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The string is empty.
    #[error("empty FEN")]
    Empty,
    /// The piece placement part is malformed.
    #[error("invalid piece placement: {0}")]
    Placement(String),
    /// The holdings in brackets are malformed.
    #[error("invalid holdings '{0}': expected piece letters such as [QNp]")]
    Holdings(String),
    /// The holdings hold more of one man than a game can have.
    #[error("the holdings hold more than 64 '{0}' (a game has at most 64 men)")]
    HoldingsOverflow(char),
    /// The `[` of the holdings has no `]` at the end of the placement.
    #[error("holdings '[{0}' are not closed: expected ']' at the end of the placement")]
    UnclosedHoldings(String),
    /// The side-to-move field is not `w` or `b`.
    #[error("invalid side to move '{0}' (expected 'w' or 'b')")]
    Turn(String),
    /// The castling field is malformed.
    #[error("invalid castling field '{0}' (expected '-' or letters from KQkq)")]
    Castling(String),
    /// The castling field names one right twice (`KKq`, or `K` and `H`
    /// for the same rook).
    #[error("castling field '{field}' gives the right '{right}' twice")]
    CastlingTwice {
        /// The field as written.
        field: String,
        /// The letter that repeats a right.
        right: char,
    },
    /// The en-passant field is malformed.
    #[error(
        "invalid en-passant field '{0}' (expected '-', a square such as e3, or in Hit-and-Run chess distinct squares separated by commas such as d6,e6)"
    )]
    EnPassant(String),
    /// The Hit-and-Run mid-turn field is malformed (RULES R8).
    #[error(
        "invalid sub-move field '{0}' (expected sub=<square> or sub=<square>x<origin>, e.g. sub=e4 or sub=d5xe4, RULES R8)"
    )]
    Sub(String),
    /// The half-move clock is not a number.
    #[error("invalid half-move clock '{0}'")]
    Halfmoves(String),
    /// The fullmove number is not a positive number.
    #[error("invalid fullmove number '{0}'")]
    Fullmoves(String),
    /// Text follows the last field.
    #[error("unexpected text after the fullmove number: '{0}'")]
    Trailing(String),
    /// The FEN reads, but the position breaks the variant's rules.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// Parses FEN text into a raw [`Setup`].
pub fn parse(text: &str) -> Result<Setup, FenError> {
    let normalized = text.trim().replace('_', " ");
    let mut fields = normalized.split_whitespace();
    let placement = fields.next().ok_or(FenError::Empty)?;
    let mut setup = Setup::empty();
    parse_placement(placement, &mut setup)?;

    if let Some(turn) = fields.next() {
        setup.turn = match turn {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => return Err(FenError::Turn(turn.to_string())),
        };
    }
    if let Some(castling) = fields.next() {
        setup.castling = parse_castling(castling, &setup.board)?;
    }
    if let Some(ep) = fields.next() {
        let squares = parse_ep(ep)?;
        setup.ep_square = squares.first();
        setup.more_ep = squares.without(squares.first().map_or(Bitboard::EMPTY, Bitboard::from));
    }
    if let Some(half) = fields.next() {
        setup.halfmoves = half
            .parse()
            .map_err(|_| FenError::Halfmoves(half.to_string()))?;
    }
    if let Some(full) = fields.next() {
        setup.fullmoves = full
            .parse()
            .ok()
            .filter(|&n: &u32| n > 0)
            .ok_or_else(|| FenError::Fullmoves(full.to_string()))?;
    }
    if let Some(sub) = fields.clone().next().filter(|f| f.starts_with("sub=")) {
        fields.next();
        setup.sub = Some(parse_sub(sub)?);
    }
    let rest: Vec<&str> = fields.collect();
    if !rest.is_empty() {
        return Err(FenError::Trailing(rest.join(" ")));
    }
    Ok(setup)
}

/// Reads the en-passant field: `-` or distinct squares separated by commas.
fn parse_ep(text: &str) -> Result<Bitboard, FenError> {
    let mut squares = Bitboard::EMPTY;
    if text == "-" {
        return Ok(squares);
    }
    for part in text.split(',') {
        let sq = Square::parse(part)
            .filter(|&sq| !squares.contains(sq))
            .ok_or_else(|| FenError::EnPassant(text.to_string()))?;
        squares.add(sq);
    }
    Ok(squares)
}

/// Reads the Hit-and-Run field `sub=<square>` or `sub=<square>x<origin>`.
fn parse_sub(text: &str) -> Result<SubMove, FenError> {
    let bad = || FenError::Sub(text.to_string());
    let body = text.strip_prefix("sub=").ok_or_else(bad)?;
    let (square, origin) = match body.split_once('x') {
        Some((square, origin)) => (square, Some(origin)),
        None => (body, None),
    };
    let square = Square::parse(square).ok_or_else(bad)?;
    let captured_from = match origin {
        Some(origin) => Some(
            Square::parse(origin)
                .filter(|&o| o != square)
                .ok_or_else(bad)?,
        ),
        None => None,
    };
    Ok(SubMove {
        square,
        captured_from,
    })
}

/// Parses FEN text and validates it as a position of `P`.
pub fn parse_position<P: Position>(text: &str) -> Result<P, FenError> {
    Ok(P::from_setup(&parse(text)?)?)
}

fn parse_placement(text: &str, setup: &mut Setup) -> Result<(), FenError> {
    let (board_part, pocket_part) = match text.find('[') {
        Some(open) => {
            let rest = &text[open + 1..];
            let inner = rest
                .strip_suffix(']')
                .ok_or_else(|| FenError::UnclosedHoldings(rest.to_string()))?;
            (&text[..open], Some(inner))
        }
        None => {
            let ranks = text.split('/').count();
            if ranks == 9 {
                let cut = text.rfind('/').expect("nine parts have a slash");
                (&text[..cut], Some(&text[cut + 1..]))
            } else {
                (text, None)
            }
        }
    };
    let ranks: Vec<&str> = board_part.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::Placement(format!(
            "expected 8 ranks separated by '/', found {}",
            ranks.len()
        )));
    }
    let mut board = Board::empty();
    let mut promoted = Bitboard::EMPTY;
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u32;
        let mut file = 0u32;
        let mut chars = rank_text.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(FenError::Placement(format!(
                        "bad digit '{c}' on rank {}",
                        rank + 1
                    )));
                }
                file += d;
            } else if let Some(piece) = Piece::from_char(c) {
                let sq = Square::from_coords(file, rank).ok_or_else(|| {
                    FenError::Placement(format!("rank {} has more than 8 squares", rank + 1))
                })?;
                board.set(sq, piece);
                if chars.peek() == Some(&'~') {
                    chars.next();
                    promoted.add(sq);
                }
                file += 1;
            } else {
                return Err(FenError::Placement(format!(
                    "unexpected character '{c}' on rank {}",
                    rank + 1
                )));
            }
            if file > 8 {
                return Err(FenError::Placement(format!(
                    "rank {} has more than 8 squares",
                    rank + 1
                )));
            }
        }
        if file != 8 {
            return Err(FenError::Placement(format!(
                "rank {} has {file} squares (needs 8)",
                rank + 1
            )));
        }
    }
    setup.board = board;
    setup.promoted = promoted;
    if let Some(pocket) = pocket_part {
        match pocket.split_once('#') {
            Some((airfields, prisoners)) => {
                setup.pockets = Some(parse_pockets(airfields)?);
                setup.prisoners = Some(parse_pockets(prisoners)?);
            }
            None => setup.pockets = Some(parse_pockets(pocket)?),
        }
    }
    Ok(())
}

fn parse_pockets(text: &str) -> Result<ByColor<ByRole<u8>>, FenError> {
    let mut pockets = ByColor::<ByRole<u8>>::default();
    if text == "-" {
        return Ok(pockets);
    }
    for c in text.chars() {
        let piece = Piece::from_char(c).ok_or_else(|| FenError::Holdings(text.to_string()))?;
        let count = &mut pockets[piece.color][piece.role];
        *count = count
            .checked_add(1)
            .filter(|&n| n <= 64)
            .ok_or(FenError::HoldingsOverflow(c))?;
    }
    Ok(pockets)
}

/// Reads the castling field: `KQkq` name the outermost rook on each side of
/// the king (X-FEN), file letters name a rook's file (Shredder-FEN).
fn parse_castling(text: &str, board: &Board) -> Result<Bitboard, FenError> {
    let mut rights = Bitboard::EMPTY;
    if text == "-" {
        return Ok(rights);
    }
    for c in text.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let rank = color.fold(0, 7);
        let sq = match c.to_ascii_lowercase() {
            'k' => outermost_rook(board, color, true)
                .unwrap_or(Square::from_coords(7, rank).expect("h-file")),
            'q' => outermost_rook(board, color, false)
                .unwrap_or(Square::from_coords(0, rank).expect("a-file")),
            f @ 'a'..='h' => Square::from_coords(f as u32 - 'a' as u32, rank).expect("file a-h"),
            _ => return Err(FenError::Castling(text.to_string())),
        };
        if rights.contains(sq) {
            return Err(FenError::CastlingTwice {
                field: text.to_string(),
                right: c,
            });
        }
        rights.add(sq);
    }
    Ok(rights)
}

/// The rook of `color` on its back rank furthest towards the h-file
/// (`h_side`) or the a-file from its king.
fn outermost_rook(board: &Board, color: Color, h_side: bool) -> Option<Square> {
    let rank = Bitboard::rank(color.fold(0, 7));
    let king = (board.by_piece(Role::King.of(color)) & rank).single_square()?;
    let rooks = (board.by_piece(Role::Rook.of(color)) & rank)
        .filter(|r| (r.file() > king.file()) == h_side && r.file() != king.file());
    if h_side { rooks.last() } else { rooks.min() }
}

/// The placement part (with `~` marks for promoted men).
pub fn board_fen(board: &Board, promoted: Bitboard) -> String {
    let mut out = String::with_capacity(64);
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            let sq = Square::from_coords(file, rank).expect("on board");
            match board.piece_at(sq) {
                Some(piece) => {
                    if empty > 0 {
                        out.push(char::from_digit(empty, 10).expect("digit"));
                        empty = 0;
                    }
                    out.push(piece.char());
                    if promoted.contains(sq) {
                        out.push('~');
                    }
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from_digit(empty, 10).expect("digit"));
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Holdings in canonical order: Q R B N P (and K), White's men first.
pub fn holdings_text(pockets: &ByColor<ByRole<u8>>) -> String {
    let mut out = String::new();
    for color in Color::ALL {
        for role in Role::KING_FIRST {
            for _ in 0..pockets[color][role] {
                out.push(role.of(color).char());
            }
        }
    }
    out
}

fn castling_text(castling: Bitboard, board: &Board) -> String {
    let mut out = String::new();
    for color in Color::ALL {
        let mut rights: Vec<Square> = (castling & Bitboard::rank(color.fold(0, 7))).collect();
        rights.reverse();
        for rook in rights {
            let letter = if outermost_rook(board, color, true) == Some(rook) {
                'k'
            } else if outermost_rook(board, color, false) == Some(rook) {
                'q'
            } else {
                rook.file_char()
            };
            out.push(match color {
                Color::White => letter.to_ascii_uppercase(),
                Color::Black => letter,
            });
        }
    }
    if out.is_empty() {
        out.push('-');
    }
    out
}

/// Writes a setup as FEN. The en-passant square is written as given.
pub fn write_setup(setup: &Setup) -> String {
    let mut out = board_fen(&setup.board, setup.promoted);
    if let Some(prisoners) = &setup.prisoners {
        out.push('[');
        out.push_str(&holdings_text(&setup.pockets.unwrap_or_default()));
        out.push('#');
        out.push_str(&holdings_text(prisoners));
        out.push(']');
    } else if let Some(pockets) = &setup.pockets {
        out.push('[');
        out.push_str(&holdings_text(pockets));
        out.push(']');
    }
    let ep_squares = setup.ep_squares();
    let ep = if ep_squares.is_empty() {
        "-".to_string()
    } else {
        ep_squares
            .map(|sq| sq.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut text = format!(
        "{out} {} {} {ep} {} {}",
        setup.turn.char(),
        castling_text(setup.castling, &setup.board),
        setup.halfmoves,
        setup.fullmoves
    );
    if let Some(sub) = setup.sub {
        text.push_str(&format!(" {sub}"));
    }
    text
}

/// Writes a position as FEN; the en-passant square appears only when an
/// en-passant capture is legal (unless the variant's en-passant squares are
/// exact, [`Position::EXACT_EP`]).
pub fn write<P: Position>(pos: &P) -> String {
    let mut setup = pos.to_setup();
    if !P::EXACT_EP
        && setup.ep_square.is_some()
        && !pos
            .legal_moves()
            .iter()
            .any(|m| matches!(m, Move::EnPassant { .. }))
    {
        setup.ep_square = None;
    }
    write_setup(&setup)
}

/// A FEN without its two move clocks (the trailing numbers, where present):
/// the same position reached by other move orders has other clocks, so
/// comparing positions by text (a checkpoint's root, a puzzle found in a
/// replayed game) leaves them out.
pub fn without_clocks(text: &str) -> &str {
    let mut rest = text.trim_end();
    for _ in 0..2 {
        match rest.rsplit_once(' ') {
            Some((head, number)) if number.parse::<u32>().is_ok() => rest = head,
            _ => break,
        }
    }
    rest
}
