//! What the store knows about one position, packed in a `u64`.
//!
//! Bits 0–7 are flags, bits 8–23 the winning move's code (`moves::encode`,
//! which uses 16 bits at most) and bits 32–63 the size of the result: the
//! nodes a search spent settling it (saturating).

use crate::board::Color;
use crate::moves::{self, Move, MoveList};

/// The side to move wins; the move field holds a winning move.
const WIN: u64 = 1;
/// The side to move loses.
const LOSS: u64 = 2;
/// White has no forced win (a path-independent disproof).
const NO_WIN_WHITE: u64 = 4;
/// Black has no forced win.
const NO_WIN_BLACK: u64 = 8;
const KNOWN_FLAGS: u64 = WIN | LOSS | NO_WIN_WHITE | NO_WIN_BLACK;

/// The packed result of one position (never 0: 0 means "nothing known").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Solved(u64);

impl Solved {
    /// The side to move wins with `mv`; `size` nodes settled it.
    pub fn win(mv: Move, size: u64) -> Solved {
        Solved(WIN | u64::from(moves::encode(mv) & 0xffff) << 8 | Self::size_bits(size))
    }

    /// The side to move loses whatever it plays.
    pub fn loss(size: u64) -> Solved {
        Solved(LOSS | Self::size_bits(size))
    }

    /// `attacker` has no forced win from here (a draw, a loss, or a
    /// position that holds out by repetition).
    pub fn no_win_for(attacker: Color, size: u64) -> Solved {
        let flag = match attacker {
            Color::White => NO_WIN_WHITE,
            Color::Black => NO_WIN_BLACK,
        };
        Solved(flag | Self::size_bits(size))
    }

    fn size_bits(size: u64) -> u64 {
        size.clamp(1, u64::from(u32::MAX)) << 32
    }

    /// The raw bits, as stored on disk.
    pub fn bits(self) -> u64 {
        self.0
    }

    /// A value read from disk: `None` if it is 0 or has unknown flags, a
    /// move without a win, or a win without a move.
    pub fn from_bits(bits: u64) -> Option<Solved> {
        let value = Solved(bits);
        let flags = bits & 0xff;
        let ok = flags != 0
            && flags & !KNOWN_FLAGS == 0
            && (flags & WIN != 0) == ((bits >> 8) & 0xffff != 0)
            && bits & 0xff00_0000 == 0;
        ok.then_some(value)
    }

    /// The side to move wins.
    pub fn is_win(self) -> bool {
        self.0 & WIN != 0
    }

    /// The side to move loses.
    pub fn is_loss(self) -> bool {
        self.0 & LOSS != 0
    }

    /// Whether the record says both "wins" and "loses" (two positions
    /// with one hash, or a damaged store): such a record is never used.
    pub fn is_contradictory(self) -> bool {
        self.is_win() && self.is_loss()
    }

    /// Whether `attacker` is recorded as having no forced win.
    pub fn no_win(self, attacker: Color) -> bool {
        let flag = match attacker {
            Color::White => NO_WIN_WHITE,
            Color::Black => NO_WIN_BLACK,
        };
        self.0 & flag != 0
    }

    /// The stored winning move's code, if the side to move wins.
    pub fn move_code(self) -> Option<u32> {
        // A move's code is never 0 (a move from a1 to a1).
        (self.0 & WIN != 0).then_some(((self.0 >> 8) & 0xffff) as u32)
    }

    /// The stored winning move, matched against the legal moves (a code
    /// that is not legal here gives `None`).
    pub fn winning_move(self, legal: &MoveList) -> Option<Move> {
        moves::decode(legal, self.move_code()?)
    }

    /// Nodes spent settling the position.
    pub fn size(self) -> u64 {
        self.0 >> 32
    }

    /// Whether `attacker` wins (`Some(true)`), does not (`Some(false)`), or
    /// the record does not say (`None`), when `turn` is to move.
    pub fn attacker_wins(self, attacker: Color, turn: Color) -> Option<bool> {
        if self.is_contradictory() {
            return None;
        }
        if self.is_win() {
            return Some(turn == attacker);
        }
        if self.is_loss() {
            return Some(turn != attacker);
        }
        if self.no_win(attacker) {
            return Some(false);
        }
        None
    }

    /// Whether the record can be trusted for a position with `turn` to
    /// move: not both won and lost, not won by a side it also says has no
    /// forced win (either contradiction means two positions share a hash
    /// or the store is damaged; such a record is never used).
    pub fn is_consistent_for(self, turn: Color) -> bool {
        let won_without_a_win = self.is_win() && self.no_win(turn);
        let lost_to_no_win = self.is_loss() && self.no_win(!turn);
        !(self.is_contradictory() || won_without_a_win || lost_to_no_win)
    }

    /// Two records of one position joined, `self` the earlier: every flag
    /// of both, and the earlier win's move and size. A stored move is never
    /// replaced: it points to positions recorded before it, so following
    /// stored moves can never run in a circle.
    pub fn merge(self, other: Solved) -> Solved {
        let flags = (self.0 | other.0) & 0xff;
        let keep = if !self.is_win() && other.is_win() {
            other
        } else {
            self
        };
        Solved(flags | (keep.0 & !0xff))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn mv() -> Move {
        Move::Normal {
            role: crate::board::Role::Pawn,
            from: Square::new(12).unwrap(),
            to: Square::new(28).unwrap(),
            capture: None,
            promotion: None,
        }
    }

    #[test]
    fn values_round_trip_and_merge() {
        let win = Solved::win(mv(), 500);
        assert_eq!(Solved::from_bits(win.bits()), Some(win));
        assert_eq!(win.move_code(), Some(moves::encode(mv())));
        assert_eq!(win.size(), 500);
        assert_eq!(win.attacker_wins(Color::White, Color::White), Some(true));
        assert_eq!(win.attacker_wins(Color::Black, Color::White), Some(false));
        let no_white = Solved::no_win_for(Color::White, 9);
        assert_eq!(
            no_white.attacker_wins(Color::White, Color::Black),
            Some(false)
        );
        assert_eq!(no_white.attacker_wins(Color::Black, Color::Black), None);
        let both = no_white.merge(Solved::no_win_for(Color::Black, 3));
        assert!(both.no_win(Color::White) && both.no_win(Color::Black));
        let merged = no_white.merge(win);
        assert!(merged.is_win() && merged.no_win(Color::White));
        assert_eq!(merged.move_code(), win.move_code());
        assert!(win.merge(Solved::loss(1)).is_contradictory());
        assert_eq!(
            win.merge(Solved::loss(1))
                .attacker_wins(Color::White, Color::White),
            None
        );
        assert!(win.is_consistent_for(Color::White));
        assert!(
            !merged.is_consistent_for(Color::White),
            "won, and no win for White"
        );
        assert!(merged.is_consistent_for(Color::Black));
        assert!(
            !Solved::loss(1)
                .merge(no_white)
                .is_consistent_for(Color::Black)
        );
        assert_eq!(Solved::from_bits(0), None);
        assert_eq!(Solved::from_bits(0x100), None, "a move without a win");
        assert_eq!(Solved::from_bits(0x40), None, "an unknown flag");
    }
}
