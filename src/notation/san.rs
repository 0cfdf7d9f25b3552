//! Standard Algebraic Notation, in and out: `Nf3`, `exd5`, `e8=Q`, `a1=K`
//! (Losing chess), pawn moves that change file written with the origin file
//! and pawn moves that share a destination with the origin square (Contact
//! chess: `cd4` sideways, `d3d4` beside the jump `d2d4`, `a2xd5`), `O-O`,
//! drops `N@f3` and `P@e6` (the pawn's letter written, as python-chess and
//! lichess write it; Hostage chess writes `N*f3` and `*e6`, Leslie's
//! canonical short form, RULES H10),
//! Hostage exchanges `(B-N)N*c7` (the man paid, `-`, the man rescued, then
//! the drop). Input also takes `0-0`, `O O`, a
//! missing `=` before the promotion letter, `@e6`, `*e6`, either drop sign
//! in every variant, the short exchange forms `(B)N*c7`, `(R)*g3`,
//! `(R-P)P*g3`, `N(b)d7` disambiguation, and check and annotation marks
//! (`+ # ! ?`).

use super::MoveParseError;
use crate::board::{Role, Square};
use crate::moves::{Move, MoveList};
use crate::position::Position;

/// The SAN of a legal move, without check marks.
pub fn write<P: Position>(pos: &P, m: Move) -> String {
    write_in::<P>(&pos.legal_moves(), m)
}

/// The SAN of `m`, disambiguated against `legal` (the position's legal
/// moves), with drops written `N@f3` (crazyhouse).
pub fn write_with(legal: &MoveList, m: Move) -> String {
    write_marked(legal, m, '@')
}

/// The SAN of `m` in the notation of the variant `P` (drops written with
/// [`Position::DROP_SIGN`]), disambiguated against `legal`.
pub fn write_in<P: Position>(legal: &MoveList, m: Move) -> String {
    write_marked(legal, m, P::DROP_SIGN)
}

/// A dropped man: the role letter, `sign`, the square. A pawn's letter is
/// written with `@` (`P@e6`, as python-chess and lichess write it) and left
/// out with Hostage chess's `*` (`*e6`, RULES H10).
fn drop_text(role: Role, sign: char, to: Square) -> String {
    if role == Role::Pawn && sign == '*' {
        format!("{sign}{to}")
    } else {
        format!("{}{sign}{to}", role.upper_char())
    }
}

fn write_marked(legal: &MoveList, m: Move, drop_sign: char) -> String {
    match m {
        Move::Castle { king, rook } => {
            if rook.file() > king.file() {
                "O-O".into()
            } else {
                "O-O-O".into()
            }
        }
        Move::Drop { role, to } => drop_text(role, drop_sign, to),
        Move::Exchange { rescue, pay, to } => format!(
            "({}-{}){}",
            pay.upper_char(),
            rescue.upper_char(),
            drop_text(rescue, '*', to)
        ),
        Move::EnPassant { from, to } => format!("{}x{to}", from.file_char()),
        Move::Normal {
            role,
            from,
            capture,
            to,
            promotion,
        } => {
            let mut s = String::new();
            if role == Role::Pawn {
                // The origin file is written for captures and for moves that
                // change file (Contact chess: sideways and diagonal steps);
                // the origin rank too when pawns of that file share the
                // destination (Contact chess: a step and a jump).
                let rivals = legal.iter().any(|o| {
                    matches!(o, Move::Normal { role: Role::Pawn, from: f, to: t, promotion: p, .. }
                        if *t == to && *p == promotion && *f != from && f.file() == from.file())
                });
                if capture.is_some() || from.file() != to.file() || rivals {
                    s.push(from.file_char());
                }
                if rivals {
                    s.push(from.rank_char());
                }
                if capture.is_some() {
                    s.push('x');
                }
            } else {
                s.push(role.upper_char());
                let rivals: Vec<Square> = legal
                    .iter()
                    .filter(|o| {
                        matches!(o, Move::Normal { role: r, to: t, from: f, .. }
                            if *r == role && *t == to && *f != from)
                    })
                    .filter_map(|o| o.from())
                    .collect();
                if !rivals.is_empty() {
                    if rivals.iter().all(|r| r.file() != from.file()) {
                        s.push(from.file_char());
                    } else if rivals.iter().all(|r| r.rank() != from.rank()) {
                        s.push(from.rank_char());
                    } else {
                        s.push(from.file_char());
                        s.push(from.rank_char());
                    }
                }
                if capture.is_some() {
                    s.push('x');
                }
            }
            s.push_str(&to.to_string());
            if let Some(p) = promotion {
                s.push('=');
                s.push(p.upper_char());
            }
            s
        }
    }
}

/// The SAN of a legal move with `+` for check and `#` for checkmate.
pub fn write_plus<P: Position>(pos: &P, m: Move) -> String {
    let mut s = write(pos, m);
    s.extend(check_mark(pos, m));
    s
}

/// `+` when legal move `m` gives check, `#` when it mates or, in Losing
/// chess, otherwise ends the game with a winner (the last man taken, a
/// stalemate), as python-chess and lichess mark a variant's decisive
/// move; else nothing.
pub fn check_mark<P: Position>(pos: &P, m: Move) -> Option<char> {
    let mut after = pos.clone();
    after.play_unchecked(m);
    if after.is_check() {
        return Some(if after.has_legal_moves() { '+' } else { '#' });
    }
    // Only Losing chess ends a game with a winner without a check; the
    // outcome is not asked elsewhere (a PGN of a large proof writes SAN
    // for every move).
    if !P::VARIANT.is_losing() {
        return None;
    }
    after.outcome().and_then(|o| o.winner).map(|_| '#')
}

/// What a SAN string says about a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SanMove {
    Castle {
        king_side: bool,
    },
    Drop {
        role: Role,
        to: Square,
    },
    /// `(pay-rescue)rescue*to`; the rescued role may be given inside the
    /// parentheses, after them, or both (then they must agree).
    Exchange {
        pay: Role,
        rescue: Role,
        to: Square,
    },
    Normal {
        role: Role,
        file: Option<u32>,
        rank: Option<u32>,
        to: Square,
        promotion: Option<Role>,
    },
}

fn parse_syntax(text: &str) -> Option<SanMove> {
    let core = text.trim_end_matches(['+', '#', '!', '?']);
    match core {
        "O-O" | "0-0" | "OO" | "O O" => return Some(SanMove::Castle { king_side: true }),
        "O-O-O" | "0-0-0" | "OOO" | "O O O" => return Some(SanMove::Castle { king_side: false }),
        _ => {}
    }
    if !core.is_ascii() {
        return None;
    }
    if let Some(inner) = core.strip_prefix('(') {
        return parse_exchange(inner);
    }
    if let Some((role, to)) = parse_drop(core) {
        return Some(SanMove::Drop {
            role: role.unwrap_or(Role::Pawn),
            to,
        });
    }
    if core.contains(['@', '*']) {
        return None;
    }
    // `N(b)d7`: disambiguation in parentheses.
    let unbracketed: String = core.chars().filter(|c| !matches!(c, '(' | ')')).collect();
    let mut body = unbracketed.as_str();
    let mut promotion = None;
    let last = body.chars().last()?;
    if last.is_ascii_alphabetic() && "NBRQKnbrqk".contains(last) && body.len() >= 3 {
        let before = &body[..body.len() - 1];
        let before = before.strip_suffix('=').unwrap_or(before);
        let dest_rank = before.chars().last()?;
        if dest_rank == '8' || dest_rank == '1' {
            promotion = Role::from_char(last);
            body = before;
        }
    }
    if body.len() < 2 {
        return None;
    }
    let to = Square::parse(&body[body.len() - 2..])?;
    let mut head = &body[..body.len() - 2];
    head = head
        .strip_suffix('x')
        .or_else(|| head.strip_suffix(':'))
        .unwrap_or(head);
    let mut chars = head.chars().peekable();
    let role = match chars.peek() {
        Some(&c) if "NBRQK".contains(c) => {
            chars.next();
            Role::from_char(c)?
        }
        Some('P') => {
            chars.next();
            Role::Pawn
        }
        _ => Role::Pawn,
    };
    let mut file = None;
    let mut rank = None;
    for c in chars {
        match c {
            'a'..='h' if file.is_none() && rank.is_none() => file = Some(c as u32 - 'a' as u32),
            '1'..='8' if rank.is_none() => rank = Some(c as u32 - '1' as u32),
            _ => return None,
        }
    }
    if promotion.is_some() && role != Role::Pawn {
        return None;
    }
    Some(SanMove::Normal {
        role,
        file,
        rank,
        to,
        promotion,
    })
}

/// A held man's letter (upper case, never a king).
fn held_role(c: char) -> Option<Role> {
    Some(c)
        .filter(char::is_ascii_uppercase)
        .and_then(Role::from_char)
        .filter(|&r| r != Role::King)
}

/// `N@c7`, `N*c7`, `@c7`, `*c7`: the role letter (if written) and the square.
fn parse_drop(text: &str) -> Option<(Option<Role>, Square)> {
    let at = text.find(['@', '*'])?;
    let role = match &text[..at] {
        "" => None,
        r if r.len() == 1 => Some(held_role(r.chars().next()?)?),
        _ => return None,
    };
    Some((role, Square::parse(&text[at + 1..])?))
}

/// After the `(`: `B-N)N*c7`, `B)N*c7`, `P-P)*g5`, `R)*g3`, `R-P)P*g3`.
fn parse_exchange(text: &str) -> Option<SanMove> {
    let close = text.find(')')?;
    let mut inside = text[..close].chars();
    let pay = held_role(inside.next()?)?;
    let named = match (inside.next(), inside.next(), inside.next()) {
        (None, _, _) => None,
        (Some('-'), Some(c), None) => Some(held_role(c)?),
        _ => return None,
    };
    let (after, to) = parse_drop(&text[close + 1..])?;
    let rescue = match (named, after) {
        (Some(a), Some(b)) if a != b => return None,
        (Some(r), _) | (None, Some(r)) => r,
        (None, None) => Role::Pawn,
    };
    Some(SanMove::Exchange { pay, rescue, to })
}

fn san_matches(san: SanMove, m: Move) -> bool {
    match san {
        SanMove::Castle { king_side } => match m {
            Move::Castle { king, rook } => (rook.file() > king.file()) == king_side,
            _ => false,
        },
        SanMove::Drop { role, to } => m == Move::Drop { role, to },
        SanMove::Exchange { pay, rescue, to } => m == Move::Exchange { rescue, pay, to },
        SanMove::Normal {
            role,
            file,
            rank,
            to,
            promotion,
        } => {
            let Some(from) = m.from() else {
                return false;
            };
            !matches!(m, Move::Castle { .. })
                && m.role() == role
                && m.to() == to
                && m.promotion() == promotion
                // A pawn move without a file is a push along the destination's file.
                && file
                    .or((role == Role::Pawn).then_some(to.file()))
                    .is_none_or(|f| from.file() == f)
                && rank.is_none_or(|r| from.rank() == r)
        }
    }
}

/// Reads a SAN move and returns the legal move it names in `pos`.
pub fn parse<P: Position>(pos: &P, text: &str) -> Result<Move, MoveParseError> {
    let san = parse_syntax(text).ok_or_else(|| MoveParseError::Syntax(text.to_string()))?;
    let legal = pos.legal_moves();
    let mut found = legal.iter().copied().filter(|&m| san_matches(san, m));
    let first = found
        .next()
        .ok_or_else(|| MoveParseError::Illegal(text.to_string()))?;
    let more = found.count();
    if more > 0 {
        return Err(MoveParseError::Ambiguous(text.to_string(), more + 1));
    }
    Ok(first)
}
