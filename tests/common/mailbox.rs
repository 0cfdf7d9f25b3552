//! The plain 64-square board the naive reference generators share:
//! men, squares, moves in UCI, and the obviously correct attack test.

/// A man: colour (0 White, 1 Black) and kind (lower-case letter).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Man {
    pub colour: usize,
    pub kind: char,
}

/// A move from square to square (0 = a1 ... 63 = h8), with a promotion letter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RefMove {
    pub from: usize,
    pub to: usize,
    pub promotion: Option<char>,
}

/// The square at file `f`, rank `r` (0-based), if on the board.
pub fn sq(f: i32, r: i32) -> Option<usize> {
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}

/// File and rank of a square.
pub fn fr(s: usize) -> (i32, i32) {
    ((s % 8) as i32, (s / 8) as i32)
}

/// `e4` for square 28.
pub fn name(s: usize) -> String {
    let (f, r) = fr(s);
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

/// Square 28 for `e4`.
pub fn parse_square(text: &str) -> usize {
    let b = text.as_bytes();
    sq((b[0] - b'a') as i32, (b[1] - b'1') as i32).unwrap()
}

/// The move in UCI.
pub fn uci_text(m: RefMove) -> String {
    let mut s = format!("{}{}", name(m.from), name(m.to));
    if let Some(p) = m.promotion {
        s.push(p);
    }
    s
}

/// Whether the man on `from` attacks `to` by the orthodox moves: a step
/// or leap, a slide over empty squares, a pawn's diagonal step forward.
pub fn attacks(board: &[Option<Man>; 64], from: usize, to: usize) -> bool {
    let Some(man) = board[from] else {
        return false;
    };
    let ((ff, fr_), (tf, tr)) = (fr(from), fr(to));
    let (df, dr) = (tf - ff, tr - fr_);
    if from == to {
        return false;
    }
    let clear = || {
        let (sf, sr) = (df.signum(), dr.signum());
        let (mut f, mut r) = (ff + sf, fr_ + sr);
        while (f, r) != (tf, tr) {
            if board[sq(f, r).unwrap()].is_some() {
                return false;
            }
            f += sf;
            r += sr;
        }
        true
    };
    let straight = df == 0 || dr == 0;
    let diagonal = df.abs() == dr.abs();
    match man.kind {
        'n' => (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1),
        'k' => df.abs().max(dr.abs()) == 1,
        'r' => straight && clear(),
        'b' => diagonal && clear(),
        'q' => (straight || diagonal) && clear(),
        'p' => df.abs() == 1 && dr == if man.colour == 0 { 1 } else { -1 },
        _ => unreachable!(),
    }
}

/// A naive reference game: its legal moves and making one, from which
/// the leaf count of the move tree follows.
pub trait RefGame: Clone {
    /// The reference's move.
    type Move: Copy;

    /// The legal moves.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Plays a legal move.
    fn play(&mut self, m: Self::Move);

    /// The number of leaves of the legal move tree `depth` moves deep.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let legal = self.legal_moves();
        if depth == 1 {
            return legal.len() as u64;
        }
        legal
            .into_iter()
            .map(|m| {
                let mut child = self.clone();
                child.play(m);
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// The two squares the king of `colour` on `king` crosses when castling
/// with the rook on `rook` (the second is where it lands), if that rook is
/// there, on the king's rank, with only empty squares between them.
/// Whether the squares are attacked is the caller's rule.
pub fn castling_path(
    board: &[Option<Man>; 64],
    colour: usize,
    king: usize,
    rook: usize,
) -> Option<[usize; 2]> {
    let own_rook = Some(Man { colour, kind: 'r' });
    if fr(rook).1 != fr(king).1 || board[rook] != own_rook {
        return None;
    }
    let king_side = rook > king;
    let (lo, hi) = if king_side {
        (king + 1, rook)
    } else {
        (rook + 1, king)
    };
    if (lo..hi).any(|s| board[s].is_some()) {
        return None;
    }
    Some(if king_side {
        [king + 1, king + 2]
    } else {
        [king - 1, king - 2]
    })
}
