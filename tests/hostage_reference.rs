//! Hostage chess (RULES H) against a deliberately naive reference
//! implementation written here, separately from the fast generator: a plain
//! array board, every candidate turn found by brute force (every from/to
//! pair, every drop, every exchange triple), legality judged by the one rule
//! of RULES H7 (play the whole turn on a copy; illegal if the mover's king is
//! then attacked, frozen pawns attacking nothing, frozen-ness read from the
//! prisons after the turn).
//!
//! - Seeded random playouts (splitmix64): at every node both must agree on
//!   the legal moves (sorted UCI strings, RULES H10 machine form), on check,
//!   on the end of the game (RULES H9), and on the position itself (board,
//!   airfields, prisons, castling rights and unmoved kings: RULES H1, H2,
//!   H6, H8). Each side plays the moves on its own representation.
//! - Perft numbers computed by the reference are stored in
//!   tests/data/hostage.perft and checked against the fast generator
//!   (`cargo test --test hostage_reference -- --ignored regenerate` rewrites
//!   the file from the reference).

mod common;

use common::SplitMix;
use common::mailbox::RefGame;

use ransom::notation::{fen, uci};
use ransom::perft::perft;
use ransom::variants::Hostage;
use ransom::{Color, Position, Role, Square};

// ---------------------------------------------------------------------------
// The reference.

const EMPTY: u8 = 0;
// Kinds 1..=6: pawn, knight, bishop, rook, queen, king. A man is
// kind + 8 * colour (0 White, 1 Black).
const P: u8 = 1;
const N: u8 = 2;
const B: u8 = 3;
const R: u8 = 4;
const Q: u8 = 5;
const K: u8 = 6;
/// The men that can be held, in FEN order.
const HELD: [u8; 5] = [Q, R, B, N, P];
const LETTERS: &[u8; 7] = b".pnbrqk";

fn kind(man: u8) -> u8 {
    man & 7
}
fn colour(man: u8) -> usize {
    usize::from(man >> 3)
}
fn man(c: usize, k: u8) -> u8 {
    k + 8 * c as u8
}
fn file(sq: usize) -> i32 {
    (sq % 8) as i32
}
fn rank(sq: usize) -> i32 {
    (sq / 8) as i32
}
fn at(f: i32, r: i32) -> Option<usize> {
    ((0..8).contains(&f) && (0..8).contains(&r)).then(|| (f + 8 * r) as usize)
}
fn name(sq: usize) -> String {
    format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
}
/// RULES H3.
fn value(k: u8) -> u8 {
    match k {
        P => 1,
        N | B => 2,
        R => 3,
        Q => 4,
        _ => unreachable!("kings are never held"),
    }
}

#[derive(Clone, Debug)]
struct Ref {
    board: [u8; 64],
    turn: usize,
    /// `airfield[c][k]`: men of colour `c` waiting in `c`'s airfield.
    airfield: [[u8; 7]; 2],
    /// `prison[c][k]`: men of colour `1 - c` held in `c`'s prison.
    prison: [[u8; 7]; 2],
    /// Castling rights by corner: a1, h1, a8, h8.
    rights: [bool; 4],
    unmoved: [bool; 2],
    /// The square skipped by a double step just made.
    ep: Option<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum RefMove {
    Step { from: usize, to: usize, promo: u8 },
    Castle { corner: usize },
    Drop { k: u8, to: usize },
    Exchange { rescue: u8, pay: u8, to: usize },
}

const CORNERS: [usize; 4] = [0, 7, 56, 63];

fn corner_index(sq: usize) -> Option<usize> {
    CORNERS.iter().position(|&c| c == sq)
}

fn uci_of(m: RefMove) -> String {
    let upper = |k: u8| (LETTERS[k as usize] as char).to_ascii_uppercase();
    match m {
        RefMove::Step { from, to, promo } => {
            let mut s = format!("{}{}", name(from), name(to));
            if promo != EMPTY {
                s.push(LETTERS[promo as usize] as char);
            }
            s
        }
        RefMove::Castle { corner } => {
            let home = if corner < 8 { 4 } else { 60 };
            let to = if corner % 8 == 7 { home + 2 } else { home - 2 };
            format!("{}{}", name(home), name(to))
        }
        RefMove::Drop { k, to } => format!("{}@{}", upper(k), name(to)),
        RefMove::Exchange { rescue, pay, to } => {
            format!("{}#{}@{}", upper(rescue), upper(pay), name(to))
        }
    }
}

impl Ref {
    /// From the raw setup (the shared FEN reader only, no Hostage code).
    fn from_fen(text: &str) -> Ref {
        let setup = fen::parse(text).unwrap();
        let mut r = Ref {
            board: [EMPTY; 64],
            turn: usize::from(setup.turn == Color::Black),
            airfield: [[0; 7]; 2],
            prison: [[0; 7]; 2],
            rights: [false; 4],
            unmoved: [false; 2],
            ep: setup.ep_square.map(|s| s.index()),
        };
        for sq in 0..64 {
            if let Some(p) = setup.board.piece_at(Square::new(sq as u32).unwrap()) {
                r.board[sq] = man(p.color.index(), p.role.index() as u8 + 1);
            }
        }
        let pockets = setup.pockets.unwrap_or_default();
        let prisoners = setup.prisoners.unwrap_or_default();
        for c in [Color::White, Color::Black] {
            for role in Role::ALL {
                let k = role.index() as u8 + 1;
                r.airfield[c.index()][k as usize] = pockets[c][role];
                // Men of colour c are held in the prison of the other side.
                r.prison[1 - c.index()][k as usize] = prisoners[c][role];
            }
        }
        for (i, &corner) in CORNERS.iter().enumerate() {
            r.rights[i] = setup.castling.contains(Square::new(corner as u32).unwrap());
        }
        for c in 0..2 {
            let home = if c == 0 { 4 } else { 60 };
            let rank_has = |sq: usize| setup.castling.contains(Square::new(sq as u32).unwrap());
            r.unmoved[c] = rank_has(home) || r.rights[2 * c] || r.rights[2 * c + 1];
        }
        r
    }

    /// RULES H6: a pawn on its 7th rank with no piece of its side held in
    /// the opponent's prison.
    fn frozen(&self, sq: usize) -> bool {
        let m = self.board[sq];
        if kind(m) != P {
            return false;
        }
        let c = colour(m);
        let seventh = if c == 0 { 6 } else { 1 };
        rank(sq) == seventh
            && [Q, R, B, N]
                .iter()
                .all(|&k| self.prison[1 - c][k as usize] == 0)
    }

    /// Whether the man on `from` attacks `to` (frozen pawns attack nothing).
    fn attacks(&self, from: usize, to: usize) -> bool {
        let m = self.board[from];
        if m == EMPTY || from == to {
            return false;
        }
        let (df, dr) = (file(to) - file(from), rank(to) - rank(from));
        let clear = |sf: i32, sr: i32| {
            let (mut f, mut r) = (file(from) + sf, rank(from) + sr);
            while (f, r) != (file(to), rank(to)) {
                if self.board[at(f, r).unwrap()] != EMPTY {
                    return false;
                }
                f += sf;
                r += sr;
            }
            true
        };
        let straight = (df == 0) != (dr == 0);
        let diagonal = df != 0 && df.abs() == dr.abs();
        match kind(m) {
            P => {
                let forward = if colour(m) == 0 { 1 } else { -1 };
                !self.frozen(from) && dr == forward && df.abs() == 1
            }
            N => df.abs() * dr.abs() == 2,
            K => df.abs().max(dr.abs()) == 1,
            B => diagonal && clear(df.signum(), dr.signum()),
            R => straight && clear(df.signum(), dr.signum()),
            Q => (straight || diagonal) && clear(df.signum(), dr.signum()),
            _ => unreachable!(),
        }
    }

    fn attacked(&self, sq: usize, by: usize) -> bool {
        (0..64)
            .any(|s| self.board[s] != EMPTY && colour(self.board[s]) == by && self.attacks(s, sq))
    }

    fn in_check(&self, c: usize) -> bool {
        (0..64)
            .find(|&s| self.board[s] == man(c, K))
            .is_some_and(|k| self.attacked(k, 1 - c))
    }

    fn candidates(&self) -> Vec<RefMove> {
        let us = self.turn;
        let them = 1 - us;
        let mut out = Vec::new();
        for from in 0..64 {
            let m = self.board[from];
            if m == EMPTY || colour(m) != us {
                continue;
            }
            for to in 0..64 {
                let target = self.board[to];
                if to == from || (target != EMPTY && colour(target) == us) || target == man(them, K)
                {
                    continue;
                }
                let (df, dr) = (file(to) - file(from), rank(to) - rank(from));
                let ok = match kind(m) {
                    P => {
                        let fwd = if us == 0 { 1 } else { -1 };
                        let second = if us == 0 { 1 } else { 6 };
                        let push1 = df == 0 && dr == fwd && target == EMPTY;
                        let push2 = df == 0
                            && dr == 2 * fwd
                            && rank(from) == second
                            && target == EMPTY
                            && self.board[at(file(from), rank(from) + fwd).unwrap()] == EMPTY;
                        let capture =
                            df.abs() == 1 && dr == fwd && (target != EMPTY || self.ep == Some(to));
                        !self.frozen(from) && (push1 || push2 || capture)
                    }
                    _ => self.attacks(from, to),
                };
                if !ok {
                    continue;
                }
                if kind(m) == P && (rank(to) == 0 || rank(to) == 7) {
                    for promo in [Q, R, B, N] {
                        if self.prison[them][promo as usize] > 0 {
                            out.push(RefMove::Step { from, to, promo });
                        }
                    }
                } else {
                    out.push(RefMove::Step {
                        from,
                        to,
                        promo: EMPTY,
                    });
                }
            }
        }
        let home = if us == 0 { 4 } else { 60 };
        for i in [2 * us, 2 * us + 1] {
            let corner = CORNERS[i];
            if !self.rights[i]
                || !self.unmoved[us]
                || self.board[home] != man(us, K)
                || self.board[corner] != man(us, R)
            {
                continue;
            }
            let (lo, hi) = (home.min(corner), home.max(corner));
            let king_to = if corner > home { home + 2 } else { home - 2 };
            let rook_to = if corner > home { home + 1 } else { home - 1 };
            let between_empty = (lo + 1..hi).all(|s| self.board[s] == EMPTY);
            let landing_free = [king_to, rook_to]
                .iter()
                .all(|&s| self.board[s] == EMPTY || s == corner);
            if !between_empty || !landing_free {
                continue;
            }
            // The king may not stand on an attacked square of its path.
            let path = [home, rook_to, king_to];
            let safe = path.iter().all(|&s| {
                let mut probe = self.clone();
                probe.board[home] = EMPTY;
                probe.board[corner] = EMPTY;
                probe.board[s] = man(us, K);
                !probe.attacked(s, them)
            });
            if safe {
                out.push(RefMove::Castle { corner });
            }
        }
        let targets = |k: u8| {
            (0..64).filter(move |&s| {
                self.board[s] == EMPTY && !(k == P && (rank(s) == 0 || rank(s) == 7))
            })
        };
        for k in HELD {
            if self.airfield[us][k as usize] > 0 {
                out.extend(targets(k).map(|to| RefMove::Drop { k, to }));
            }
        }
        for pay in HELD {
            for rescue in HELD {
                if self.prison[us][pay as usize] > 0
                    && self.prison[them][rescue as usize] > 0
                    && value(pay) >= value(rescue)
                {
                    out.extend(targets(rescue).map(|to| RefMove::Exchange { rescue, pay, to }));
                }
            }
        }
        out
    }

    fn drop_rook_on_corner(&mut self, k: u8, to: usize) {
        let us = self.turn;
        if k == R
            && self.unmoved[us]
            && let Some(i) = corner_index(to)
            && i / 2 == us
        {
            self.rights[i] = true;
        }
    }

    fn make(&mut self, m: RefMove) {
        let us = self.turn;
        let them = 1 - us;
        let ep = self.ep.take();
        match m {
            RefMove::Step { from, to, promo } => {
                let mover = self.board[from];
                if self.board[to] != EMPTY {
                    self.prison[us][kind(self.board[to]) as usize] += 1;
                } else if kind(mover) == P && file(from) != file(to) && ep == Some(to) {
                    let victim = at(file(to), rank(from)).unwrap();
                    self.board[victim] = EMPTY;
                    self.prison[us][P as usize] += 1;
                }
                self.board[from] = EMPTY;
                self.board[to] = mover;
                if promo != EMPTY {
                    self.board[to] = man(us, promo);
                    self.prison[them][promo as usize] -= 1;
                    self.prison[them][P as usize] += 1;
                }
                if kind(mover) == K {
                    self.unmoved[us] = false;
                    self.rights[2 * us] = false;
                    self.rights[2 * us + 1] = false;
                }
                for sq in [from, to] {
                    if let Some(i) = corner_index(sq) {
                        self.rights[i] = false;
                    }
                }
                if kind(mover) == P && (rank(to) - rank(from)).abs() == 2 {
                    self.ep = at(file(from), (rank(from) + rank(to)) / 2);
                }
            }
            RefMove::Castle { corner } => {
                let home = if us == 0 { 4 } else { 60 };
                let king_to = if corner > home { home + 2 } else { home - 2 };
                let rook_to = if corner > home { home + 1 } else { home - 1 };
                self.board[home] = EMPTY;
                self.board[corner] = EMPTY;
                self.board[king_to] = man(us, K);
                self.board[rook_to] = man(us, R);
                self.unmoved[us] = false;
                self.rights[2 * us] = false;
                self.rights[2 * us + 1] = false;
            }
            RefMove::Drop { k, to } => {
                self.airfield[us][k as usize] -= 1;
                self.board[to] = man(us, k);
                self.drop_rook_on_corner(k, to);
            }
            RefMove::Exchange { rescue, pay, to } => {
                self.prison[us][pay as usize] -= 1;
                self.airfield[them][pay as usize] += 1;
                self.prison[them][rescue as usize] -= 1;
                self.board[to] = man(us, rescue);
                self.drop_rook_on_corner(rescue, to);
            }
        }
        self.turn = them;
    }

    /// RULES H7: the whole turn, then the mover's king must not be attacked.
    fn legal(&self) -> Vec<RefMove> {
        self.candidates()
            .into_iter()
            .filter(|&m| {
                let mut after = self.clone();
                after.make(m);
                !after.in_check(self.turn)
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------
// The comparison.

/// Start positions: the opening, and positions full of holdings, frozen
/// pawns, castling chances and pseudo-checks.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[#] w KQkq - 0 1",
    "r3k2r/pPp2ppp/8/8/8/8/PpP2PPP/R3K2R[Nn#QRBNPqrbnp] w KQkq - 0 1",
    "R5rk/7p/8/8/8/8/K7/B7[P#N] w - - 0 1",
    "2k5/1P1N4/8/8/8/7P/4N2r/K7[#] b - - 0 1",
    "r3k3/1P6/8/8/8/8/6p1/R3K2R[Rr#Pp] w KQq - 0 1",
    "4k3/8/8/8/8/8/8/4K3[RRrr#] w Ee - 0 1",
    "rnbqkbnr/pp1ppppp/8/2pP4/8/8/PPP1PPPP/RNBQKBNR[#] w KQkq c6 0 3",
];

const PLAYOUTS: u64 = 1_000;
const MAX_PLIES: usize = 100;

fn fast_state_matches(pos: &Hostage, r: &Ref) -> Result<(), String> {
    for sq in 0..64 {
        let square = Square::new(sq as u32).unwrap();
        let fast = pos
            .board()
            .piece_at(square)
            .map_or(EMPTY, |p| man(p.color.index(), p.role.index() as u8 + 1));
        if fast != r.board[sq] {
            return Err(format!("square {}", name(sq)));
        }
    }
    if pos.turn().index() != r.turn {
        return Err("turn".into());
    }
    for c in [Color::White, Color::Black] {
        for role in Role::ALL {
            let k = role.index() + 1;
            if pos.airfield(c)[role] != r.airfield[c.index()][k] {
                return Err(format!("{c:?} airfield {role:?}"));
            }
            if pos.prisoners(c)[role] != r.prison[1 - c.index()][k] {
                return Err(format!("{c:?} men in prison, {role:?}"));
            }
        }
        if pos.king_unmoved(c) != r.unmoved[c.index()] {
            return Err(format!("{c:?} king unmoved flag"));
        }
    }
    let castling = pos.to_setup().castling;
    for (i, &corner) in CORNERS.iter().enumerate() {
        if castling.contains(Square::new(corner as u32).unwrap()) != r.rights[i] {
            return Err(format!("castling right {}", name(corner)));
        }
    }
    Ok(())
}

#[test]
fn random_playouts_agree_with_the_reference() {
    let mut nodes = 0u64;
    let mut moves_seen = 0u64;
    let mut kinds = [0u64; 5]; // normal, castle, drop, exchange, promotion played
    let mut frozen_nodes = 0u64;
    let mut checks = 0u64;
    let mut finished = 0u64;
    for playout in 0..PLAYOUTS {
        let mut rng = SplitMix(0x4057_a6e5 ^ playout.wrapping_mul(0xd134_2543_de82_ef95));
        let start = STARTS[playout as usize % STARTS.len()];
        let mut pos: Hostage = fen::parse_position(start).unwrap();
        let mut r = Ref::from_fen(start);
        let mut line: Vec<String> = Vec::new();
        for _ in 0..MAX_PLIES {
            let context = || format!("playout {playout} from {start} after [{}]", line.join(" "));
            nodes += 1;
            if let Err(what) = fast_state_matches(&pos, &r) {
                panic!(
                    "positions differ ({what}) at {} ; {}",
                    fen::write(&pos),
                    context()
                );
            }
            let legal = pos.legal_moves();
            let mut fast: Vec<String> = legal.iter().map(|&m| uci::write(m)).collect();
            fast.sort();
            let ref_legal = r.legal();
            let mut slow: Vec<(String, RefMove)> =
                ref_legal.iter().map(|&m| (uci_of(m), m)).collect();
            slow.sort_by(|a, b| a.0.cmp(&b.0));
            let slow_names: Vec<String> = slow.iter().map(|x| x.0.clone()).collect();
            if fast != slow_names {
                let only_fast: Vec<&String> =
                    fast.iter().filter(|m| !slow_names.contains(m)).collect();
                let only_slow: Vec<&String> =
                    slow_names.iter().filter(|m| !fast.contains(m)).collect();
                panic!(
                    "move lists differ at {}: only fast {only_fast:?}, only reference {only_slow:?}; {}",
                    fen::write(&pos),
                    context()
                );
            }
            assert_eq!(
                pos.is_check(),
                r.in_check(r.turn),
                "check at {}; {}",
                fen::write(&pos),
                context()
            );
            checks += u64::from(pos.is_check());
            frozen_nodes +=
                u64::from((pos.frozen_pawns(Color::White) | pos.frozen_pawns(Color::Black)).any());
            moves_seen += fast.len() as u64;
            if legal.is_empty() {
                // RULES H9: mate or stalemate, nothing else ends the game.
                assert!(pos.outcome().is_some());
                finished += 1;
                break;
            }
            assert_eq!(pos.outcome(), None);
            // Biased towards captures so that prisons fill up and exchanges
            // and drops become available: half the time a capture if there
            // is one, otherwise any move.
            let captures: Vec<usize> = (0..legal.len())
                .filter(|&i| legal[i].is_capture())
                .collect();
            let i = if !captures.is_empty() && rng.below(2) == 0 {
                captures[rng.below(captures.len())]
            } else {
                rng.below(legal.len())
            };
            let m = legal[i];
            kinds[match m {
                ransom::Move::Castle { .. } => 1,
                ransom::Move::Drop { .. } => 2,
                ransom::Move::Exchange { .. } => 3,
                ransom::Move::Normal {
                    promotion: Some(_), ..
                } => 4,
                _ => 0,
            }] += 1;
            let text = uci::write(m);
            let rm = slow.iter().find(|x| x.0 == text).expect("same lists").1;
            pos.play_unchecked(m);
            r.make(rm);
            line.push(text);
        }
    }
    eprintln!(
        "{PLAYOUTS} playouts, {nodes} nodes, {moves_seen} legal moves compared, {checks} checks, \
         {finished} finished, {frozen_nodes} with frozen pawns; played {} ordinary, {} castlings, \
         {} drops, {} exchanges, {} promotions",
        kinds[0], kinds[1], kinds[2], kinds[3], kinds[4]
    );
    assert!(
        kinds.iter().all(|&n| n > 0),
        "every kind of turn was played: {kinds:?}"
    );
    assert!(checks > 100 && finished > 0 && frozen_nodes > 100);
}

// ---------------------------------------------------------------------------
// Perft numbers from the reference.

const PERFT_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hostage.perft");

/// Positions and depths whose counts the reference computes in seconds
/// (the opening at depth 5 differs from chess: exchanges begin at ply 5).
const PERFT_CASES: &[(&str, u32)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[#] w KQkq - 0 1",
        5,
    ),
    (
        "rnb1kbnr/ppp1pppp/8/8/8/2N5/RPPP1PPP/2BQKBNR[#PPqp] b Kkq - 0 4",
        2,
    ),
    (
        "r3k2r/pPp2ppp/8/8/8/8/PpP2PPP/R3K2R[Nn#QRBNPqrbnp] w KQkq - 0 1",
        2,
    ),
    ("R5rk/7p/8/8/8/8/K7/B7[P#N] w - - 0 1", 3),
    // The bench middlegame (benches/perft.rs): both prisons and airfields populated.
    (
        "r3k2r/p1ppqpb1/1n2pnp1/3PN3/1p2P3/5Q2/1PPBBPPP/R3K2R[Pp#Nb] w KQkq - 0 1",
        3,
    ),
    ("2k5/1P1N4/8/8/8/7P/4N2r/K7[#] b - - 0 1", 4),
    ("r3k3/1P6/8/8/8/8/6p1/R3K2R[Rr#Pp] w KQq - 0 1", 2),
    ("4k3/8/8/8/8/8/8/4K3[RRrr#] w Ee - 0 1", 2),
    ("2k5/1P6/8/8/8/8/8/K7[#RNbp] b - - 0 1", 3),
    ("r3k2r/1P4p1/8/8/8/8/1p4P1/R3K2R[N#p] w KQkq - 0 1", 3),
    ("r3k2r/1P4p1/8/8/8/8/1p4P1/R3K2R[#RNpq] b KQkq - 0 1", 3),
];

fn read_perft_file() -> Vec<(String, u32, u64)> {
    common::read_reference_perft(PERFT_FILE)
}

#[test]
fn perft_numbers_from_the_reference() {
    let cases = read_perft_file();
    assert!(cases.len() >= PERFT_CASES.len() * 2);
    for (fen_text, depth, nodes) in cases {
        let pos: Hostage = fen::parse_position(&fen_text).unwrap();
        assert_eq!(perft(&pos, depth), nodes, "{fen_text} depth {depth}");
    }
}

#[test]
fn reference_reproduces_the_perft_numbers() {
    // The file is not taken on trust: the reference recomputes every row.
    for (fen_text, depth, nodes) in read_perft_file() {
        assert_eq!(
            Ref::from_fen(&fen_text).perft(depth),
            nodes,
            "{fen_text} depth {depth}"
        );
    }
}

#[test]
#[ignore = "rewrites tests/data/hostage.perft from the reference"]
fn regenerate() {
    common::write_reference_perft(
        PERFT_FILE,
        "# Hostage chess perft, computed by the naive reference in tests/hostage_reference.rs.\n\
         # fen; depth; leaf nodes\n",
        PERFT_CASES,
        |fen_text, depth| Ref::from_fen(fen_text).perft(depth),
    );
}

impl RefGame for Ref {
    type Move = RefMove;

    fn legal_moves(&self) -> Vec<RefMove> {
        self.legal()
    }

    fn play(&mut self, m: RefMove) {
        self.make(m)
    }
}
