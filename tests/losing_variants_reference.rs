//! The further rule sets of Losing chess (RULES A8) against a deliberately
//! naive reference written here, separately from the fast generators: a
//! plain array board, every candidate move found by brute force over every
//! (from, to) pair, legality with a royal king by making the move on a copy
//! and asking whether any enemy man (king included) then reaches the
//! mover's king, and the clauses of A8 read literally from a table of
//! rule flags.
//!
//! - Seeded random playouts (biased towards captures and castling): at
//!   every node both must agree on the sorted UCI legal moves, the side to
//!   move, check and the winner.
//! - Perft numbers computed by the reference are stored in
//!   tests/data/losing-variants.perft and checked against the fast
//!   generators (`cargo test --release --test losing_variants_reference --
//!   --ignored regenerate` rewrites the file from the reference).

mod common;

use common::SplitMix;
use common::mailbox::{self, Man, RefGame, RefMove, fr, sq, uci_text};
use ransom::notation::{fen, uci};
use ransom::perft::perft;
use ransom::variants::{Kamikaze, Kamikaze2, Losers, LosingQpromo, LosingRoyal, LosingRoyalMated};
use ransom::{Color, Position};

// ---------------------------------------------------------------------------
// The rule table.

#[derive(Clone, Copy, Debug)]
struct Rules {
    name: &'static str,
    /// The king is royal (check exists).
    royal: bool,
    /// `kamikaze`: the king is royal only while other men of its side remain,
    /// and a side with no men wins.
    king_last: bool,
    castling: bool,
    /// `losers`: a capture is compulsory even among check evasions.
    capture_in_check: bool,
    promotions: &'static str,
    mated_side_wins: bool,
    /// Whether a stalemated side wins (otherwise a draw).
    stalemated_side_wins: bool,
    /// `kamikaze2`: a lone blocked pawn passes.
    lone_pawn_passes: bool,
}

const QPROMO: Rules = Rules {
    name: "losing-qpromo",
    royal: false,
    king_last: false,
    castling: false,
    capture_in_check: false,
    promotions: "q",
    mated_side_wins: false,
    stalemated_side_wins: false,
    lone_pawn_passes: false,
};
const ROYAL: Rules = Rules {
    name: "losing-royal",
    royal: true,
    promotions: "qrbn",
    ..QPROMO
};
const ROYAL_MATED: Rules = Rules {
    name: "losing-royal-mated",
    mated_side_wins: true,
    ..ROYAL
};
const LOSERS: Rules = Rules {
    name: "losers",
    castling: true,
    capture_in_check: true,
    mated_side_wins: true,
    stalemated_side_wins: true,
    ..ROYAL
};
const KAMIKAZE: Rules = Rules {
    name: "kamikaze",
    king_last: true,
    promotions: "q",
    ..ROYAL
};
const KAMIKAZE2: Rules = Rules {
    name: "kamikaze2",
    castling: true,
    promotions: "qrbnk",
    stalemated_side_wins: true,
    lone_pawn_passes: true,
    ..QPROMO
};

// ---------------------------------------------------------------------------
// The reference.

#[derive(Clone)]
struct Ref {
    rules: Rules,
    board: [Option<Man>; 64],
    turn: usize,
    /// Rook squares that may still castle.
    castle_rooks: Vec<usize>,
    /// The square skipped by the last move's double step.
    ep: Option<usize>,
}

impl Ref {
    fn from_fen(rules: Rules, text: &str) -> Ref {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let mut board = [None; 64];
        for (i, row) in fields[0].split('/').enumerate() {
            let r = 7 - i as i32;
            let mut f = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    f += d as i32;
                } else {
                    board[sq(f, r).unwrap()] = Some(Man {
                        colour: usize::from(c.is_ascii_lowercase()),
                        kind: c.to_ascii_lowercase(),
                    });
                    f += 1;
                }
            }
        }
        let castle_rooks = fields[2]
            .chars()
            .filter_map(|c| match c {
                'K' => Some(7),
                'Q' => Some(0),
                'k' => Some(63),
                'q' => Some(56),
                _ => None,
            })
            .collect();
        let ep = (fields[3] != "-").then(|| {
            let b = fields[3].as_bytes();
            sq((b[0] - b'a') as i32, (b[1] - b'1') as i32).unwrap()
        });
        let mut r = Ref {
            rules,
            board,
            turn: usize::from(fields[1] == "b"),
            castle_rooks,
            ep,
        };
        r.passes();
        r
    }

    fn men(&self, c: usize) -> usize {
        self.board
            .iter()
            .flatten()
            .filter(|m| m.colour == c)
            .count()
    }

    fn king(&self, c: usize) -> Option<usize> {
        (0..64).find(|&s| {
            self.board[s]
                == Some(Man {
                    colour: c,
                    kind: 'k',
                })
        })
    }

    /// Whether the king of `c` is royal (A8).
    fn royal(&self, c: usize) -> bool {
        self.rules.royal && (!self.rules.king_last || self.men(c) > 1)
    }

    /// Whether the man on `from` attacks `to` (pawns: their captures).
    fn attacks(&self, from: usize, to: usize) -> bool {
        mailbox::attacks(&self.board, from, to)
    }

    fn attacked_by(&self, s: usize, by: usize) -> bool {
        (0..64)
            .any(|from| self.board[from].is_some_and(|m| m.colour == by) && self.attacks(from, s))
    }

    fn in_check(&self, c: usize) -> bool {
        self.royal(c) && self.king(c).is_some_and(|k| self.attacked_by(k, 1 - c))
    }

    /// Every move by the way the men move, before king safety and the duty
    /// to capture.
    fn candidates(&self) -> Vec<RefMove> {
        let us = self.turn;
        let mut out = Vec::new();
        let forward = if us == 0 { 1 } else { -1 };
        let royal_enemy = self.royal(1 - us);
        for from in 0..64 {
            let Some(man) = self.board[from] else {
                continue;
            };
            if man.colour != us {
                continue;
            }
            for to in 0..64 {
                let target = self.board[to];
                if target.is_some_and(|t| t.colour == us || (t.kind == 'k' && royal_enemy)) {
                    continue;
                }
                let capture = target.is_some();
                let ((ff, r0), (tf, tr)) = (fr(from), fr(to));
                let ok = if man.kind == 'p' {
                    let one = tf == ff && tr == r0 + forward && !capture;
                    let start_rank = if us == 0 { 1 } else { 6 };
                    let two = tf == ff
                        && r0 == start_rank
                        && tr == r0 + 2 * forward
                        && !capture
                        && self.board[sq(ff, r0 + forward).unwrap()].is_none();
                    let takes = self.attacks(from, to) && (capture || self.ep == Some(to));
                    one || two || takes
                } else {
                    self.attacks(from, to)
                };
                if !ok {
                    continue;
                }
                if man.kind == 'p' && (tr == 0 || tr == 7) {
                    for p in self.rules.promotions.chars() {
                        out.push(RefMove {
                            from,
                            to,
                            promotion: Some(p),
                        });
                    }
                } else {
                    out.push(RefMove {
                        from,
                        to,
                        promotion: None,
                    });
                }
            }
            if man.kind == 'k' && self.rules.castling {
                out.extend(self.castlings(from));
            }
        }
        out
    }

    fn castlings(&self, king: usize) -> Vec<RefMove> {
        let us = self.turn;
        let home = if us == 0 { 0 } else { 7 };
        let royal = self.royal(us);
        let mut out = Vec::new();
        if fr(king) != (4, home) || (royal && self.in_check(us)) {
            return out;
        }
        for &rook in &self.castle_rooks {
            let Some(path) = mailbox::castling_path(&self.board, us, king, rook) else {
                continue;
            };
            if royal && path.iter().any(|&s| self.attacked_by(s, 1 - us)) {
                continue;
            }
            out.push(RefMove {
                from: king,
                to: path[1],
                promotion: None,
            });
        }
        out
    }

    fn is_capture(&self, m: RefMove) -> bool {
        self.board[m.to].is_some()
            || (self.board[m.from].unwrap().kind == 'p' && fr(m.from).0 != fr(m.to).0)
    }

    fn legal(&self) -> Vec<RefMove> {
        let us = self.turn;
        let mut moves: Vec<RefMove> = self
            .candidates()
            .into_iter()
            .filter(|&m| {
                if !self.royal(us) {
                    return true;
                }
                let mut after = self.clone();
                after.move_men(m);
                after
                    .king(us)
                    .is_some_and(|k| !after.attacked_by(k, 1 - us))
            })
            .collect();
        let duty = !self.in_check(us) || self.rules.capture_in_check;
        if duty && moves.iter().any(|&m| self.is_capture(m)) {
            moves.retain(|&m| self.is_capture(m));
        }
        moves
    }

    /// Moves the men of `m` (castling rights and the en-passant square kept).
    fn move_men(&mut self, m: RefMove) {
        let man = self.board[m.from].unwrap();
        let ((ff, r0), (tf, tr)) = (fr(m.from), fr(m.to));
        let victim = self.board[m.to];
        if man.kind == 'p' && ff != tf && victim.is_none() {
            self.board[sq(tf, r0).unwrap()] = None; // en passant
        }
        if man.kind == 'k' && (ff - tf).abs() == 2 {
            let (rook_from, rook_to) = if tf > ff {
                (sq(7, r0).unwrap(), sq(5, r0).unwrap())
            } else {
                (sq(0, r0).unwrap(), sq(3, r0).unwrap())
            };
            self.board[rook_to] = self.board[rook_from].take();
        }
        self.board[m.from] = None;
        self.board[m.to] = Some(Man {
            colour: man.colour,
            kind: m.promotion.unwrap_or(man.kind),
        });
        let home = if man.colour == 0 { 0 } else { 56 };
        self.castle_rooks.retain(|&r| {
            r != m.from && r != m.to && !(man.kind == 'k' && (r == home || r == home + 7))
        });
        if victim.is_some_and(|v| v.kind == 'k') {
            // The castling king is gone.
            let their_home = if man.colour == 0 { 56 } else { 0 };
            if !(their_home..their_home + 8).any(|s| {
                self.board[s]
                    == Some(Man {
                        colour: 1 - man.colour,
                        kind: 'k',
                    })
            }) {
                self.castle_rooks
                    .retain(|&r| r != their_home && r != their_home + 7);
            }
        }
        self.ep = (man.kind == 'p' && (tr - r0).abs() == 2).then(|| sq(ff, (r0 + tr) / 2).unwrap());
    }

    fn make(&mut self, m: RefMove) {
        self.move_men(m);
        self.turn = 1 - self.turn;
        self.passes();
    }

    /// Whether the side to move has only a pawn, which cannot move.
    fn blocked_lone_pawn(&self) -> bool {
        self.rules.lone_pawn_passes
            && self.men(self.turn) == 1
            && self
                .board
                .iter()
                .flatten()
                .any(|m| m.colour == self.turn && m.kind == 'p')
            && self.legal().is_empty()
    }

    /// `kamikaze2`: the blocked player passes while the other can move.
    fn passes(&mut self) {
        if self.blocked_lone_pawn() {
            self.turn = 1 - self.turn;
            self.ep = None;
            if self.blocked_lone_pawn() {
                self.turn = 1 - self.turn; // both blocked: stays, a draw
            }
        }
    }

    /// The winner (0 White, 1 Black), `Some(None)` for a draw, `None` if
    /// the game goes on.
    fn result(&self, legal: &[RefMove]) -> Option<Option<usize>> {
        let us = self.turn;
        if self.rules.royal {
            let reduced = |c: usize| {
                if self.rules.king_last {
                    self.men(c) == 0
                } else {
                    self.men(c) == 1 && self.king(c).is_some()
                }
            };
            match (reduced(us), reduced(1 - us)) {
                (true, true) => return Some(None),
                (true, false) => return Some(Some(us)),
                (false, true) => return Some(Some(1 - us)),
                _ => {}
            }
        } else {
            if self.men(us) == 0 {
                return Some(Some(us));
            }
            if self.men(1 - us) == 0 {
                return Some(Some(1 - us));
            }
        }
        if legal.is_empty() {
            if self.in_check(us) {
                return Some(Some(if self.rules.mated_side_wins {
                    us
                } else {
                    1 - us
                }));
            }
            if self.blocked_lone_pawn() {
                return Some(None);
            }
            return Some(self.rules.stalemated_side_wins.then_some(us));
        }
        if !self.rules.royal && self.bishops_cannot_meet() {
            return Some(None);
        }
        None
    }

    /// RULES A6: only bishops, each side's on one square colour, the two
    /// sides on different colours.
    fn bishops_cannot_meet(&self) -> bool {
        let men: Vec<(usize, usize)> = (0..64)
            .filter_map(|s| self.board[s].map(|m| (s, m.colour)))
            .collect();
        if men.iter().any(|&(s, _)| self.board[s].unwrap().kind != 'b') {
            return false;
        }
        let shade = |s: usize| (fr(s).0 + fr(s).1) % 2;
        let shades = |c: usize| -> Vec<i32> {
            let mut v: Vec<i32> = men
                .iter()
                .filter(|m| m.1 == c)
                .map(|m| shade(m.0))
                .collect();
            v.dedup();
            v
        };
        let (w, b) = (shades(0), shades(1));
        w.len() == 1 && b.len() == 1 && w[0] != b[0]
    }
}

// ---------------------------------------------------------------------------
// Random playouts.

/// Start positions of the playouts: the start, castling, promotions near,
/// lone kings and lone pawns.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/pppq1ppp/2n1bn2/3pp3/1P1PP3/2NBBN2/P1P2PPP/R2QK2R b KQkq - 0 8",
    "4k3/1PP5/8/3b4/8/8/5pp1/1B2K3 w - - 0 1",
    "8/2p1k3/8/p7/P7/8/4K1P1/8 w - - 0 1",
    "7k/p7/8/8/8/8/6PP/6K1 b - - 0 1",
];

const PLAYOUTS: usize = 300;
const MAX_PLIES: usize = 150;

/// Which rules a start position may be played under: castling rights only
/// where castling exists.
fn fits(rules: Rules, text: &str) -> bool {
    rules.castling || text.split(' ').nth(2) == Some("-")
}

fn winner_of<P: Position>(pos: &P) -> Option<Option<usize>> {
    pos.outcome().map(|o| o.winner.map(Color::index))
}

fn playouts<P: Position>(rules: Rules, seed: u64) {
    let mut rng = SplitMix(seed);
    let starts: Vec<String> = STARTS
        .iter()
        .map(|text| {
            if fits(rules, text) {
                text.to_string()
            } else {
                let mut f: Vec<&str> = text.split(' ').collect();
                f[2] = "-";
                f.join(" ")
            }
        })
        .collect();
    let (mut nodes, mut checks, mut finished, mut castles) = (0u64, 0u64, 0u64, 0u64);
    for playout in 0..PLAYOUTS {
        let start = &starts[playout % starts.len()];
        let mut pos: P = fen::parse_position(start).unwrap();
        let mut r = Ref::from_fen(rules, start);
        let mut line: Vec<String> = Vec::new();
        for _ in 0..MAX_PLIES {
            nodes += 1;
            let context = || {
                format!(
                    "{}: playout {playout} from {start} after {}",
                    rules.name,
                    line.join(" ")
                )
            };
            let legal = pos.legal_moves();
            let mut fast: Vec<String> = legal.iter().map(|&m| uci::write(m)).collect();
            fast.sort();
            let ref_legal = r.legal();
            let mut slow: Vec<String> = ref_legal.iter().map(|&m| uci_text(m)).collect();
            slow.sort();
            assert_eq!(
                fast,
                slow,
                "legal moves at {}; {}",
                fen::write(&pos),
                context()
            );
            assert_eq!(pos.turn().index(), r.turn, "side to move; {}", context());
            assert_eq!(pos.is_check(), r.in_check(r.turn), "check; {}", context());
            let result = r.result(&ref_legal);
            assert_eq!(winner_of(&pos), result, "result; {}", context());
            checks += u64::from(pos.is_check());
            if result.is_some() {
                finished += 1;
                break;
            }
            let special: Vec<usize> = (0..legal.len())
                .filter(|&i| {
                    legal[i].is_capture() || matches!(legal[i], ransom::Move::Castle { .. })
                })
                .collect();
            let i = if !special.is_empty() && rng.below(3) == 0 {
                special[rng.below(special.len())]
            } else {
                rng.below(legal.len())
            };
            let m = legal[i];
            castles += u64::from(matches!(m, ransom::Move::Castle { .. }));
            let text = uci::write(m);
            let rm = *ref_legal
                .iter()
                .find(|&&x| uci_text(x) == text)
                .expect("same lists");
            pos.play_unchecked(m);
            r.make(rm);
            line.push(text);
        }
    }
    eprintln!(
        "{}: {PLAYOUTS} playouts, {nodes} nodes, {checks} checks, {castles} castlings, {finished} finished games",
        rules.name
    );
    assert!(nodes > 5_000 && finished > 20, "{}", rules.name);
    if rules.royal {
        assert!(checks > 20, "{}", rules.name);
    }
    if rules.castling {
        assert!(castles > 5, "{}", rules.name);
    }
}

#[test]
fn playouts_losing_qpromo() {
    playouts::<LosingQpromo>(QPROMO, 0x5150_726f_6d6f);
}

#[test]
fn playouts_losing_royal() {
    playouts::<LosingRoyal>(ROYAL, 0x526f_7961_6c31);
}

#[test]
fn playouts_losing_royal_mated() {
    playouts::<LosingRoyalMated>(ROYAL_MATED, 0x526f_7961_6c32);
}

#[test]
fn playouts_losers() {
    playouts::<Losers>(LOSERS, 0x4c6f_7365_7273);
}

#[test]
fn playouts_kamikaze() {
    playouts::<Kamikaze>(KAMIKAZE, 0x4b61_6d69_6b31);
}

#[test]
fn playouts_kamikaze2() {
    playouts::<Kamikaze2>(KAMIKAZE2, 0x4b61_6d69_6b32);
}

// ---------------------------------------------------------------------------
// Perft numbers from the reference.

const PERFT_FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/losing-variants.perft"
);

/// Rule sets, positions and the depths whose counts the reference computes.
const PERFT_CASES: &[(Rules, &str, u32)] = &[
    (
        QPROMO,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        4,
    ),
    (QPROMO, "4k3/1PP5/8/3b4/8/8/5pp1/1B2K3 w - - 0 1", 4),
    (QPROMO, "8/2p1k3/8/p7/P7/8/4K1P1/8 w - - 0 1", 5),
    (QPROMO, "4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1", 5),
    (
        ROYAL,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        4,
    ),
    (
        ROYAL,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
        3,
    ),
    (ROYAL, "4k3/1PP5/8/3b4/8/8/5pp1/1B2K3 w - - 0 1", 4),
    (ROYAL, "r3k2r/8/8/8/1b2q3/8/3P4/R3K2R w - - 0 1", 4),
    (
        ROYAL_MATED,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        4,
    ),
    (ROYAL_MATED, "4k3/1PP5/8/3b4/8/8/5pp1/1B2K3 w - - 0 1", 4),
    (ROYAL_MATED, "r3k2r/8/8/8/1b2q3/8/3P4/R3K2R w - - 0 1", 3),
    (
        LOSERS,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        LOSERS,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
    ),
    (LOSERS, "4k3/1PP5/8/3b4/8/8/5pp1/1B2K3 w - - 0 1", 4),
    (LOSERS, "r3k2r/8/8/8/1b2q3/8/3P4/R3K2R w KQkq - 0 1", 4),
    (
        KAMIKAZE,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        4,
    ),
    (KAMIKAZE, "4k3/1PP5/8/3b4/8/8/5pp1/1B2K3 w - - 0 1", 4),
    (KAMIKAZE, "7k/p7/8/8/8/8/6PP/6K1 b - - 0 1", 5),
    (KAMIKAZE, "r3k2r/8/8/8/1b2q3/8/3P4/R3K2R w - - 0 1", 4),
    (
        KAMIKAZE2,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1",
        4,
    ),
    (
        KAMIKAZE2,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        3,
    ),
    (KAMIKAZE2, "8/2p1k3/8/p7/P7/8/4K1P1/8 w - - 0 1", 5),
    (KAMIKAZE2, "r3k2r/8/8/8/1b2q3/8/3P4/R3K2R b KQkq - 0 1", 4),
];

fn rules_named(name: &str) -> Rules {
    [QPROMO, ROYAL, ROYAL_MATED, LOSERS, KAMIKAZE, KAMIKAZE2]
        .into_iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("unknown rule set {name}"))
}

fn fast_perft(rules: Rules, fen_text: &str, depth: u32) -> u64 {
    fn count<P: Position>(fen_text: &str, depth: u32) -> u64 {
        perft(&fen::parse_position::<P>(fen_text).unwrap(), depth)
    }
    match rules.name {
        "losing-qpromo" => count::<LosingQpromo>(fen_text, depth),
        "losing-royal" => count::<LosingRoyal>(fen_text, depth),
        "losing-royal-mated" => count::<LosingRoyalMated>(fen_text, depth),
        "losers" => count::<Losers>(fen_text, depth),
        "kamikaze" => count::<Kamikaze>(fen_text, depth),
        "kamikaze2" => count::<Kamikaze2>(fen_text, depth),
        other => panic!("unknown rule set {other}"),
    }
}

/// The rows of the perft file: `rule set | fen` in the first column.
fn rows() -> Vec<(Rules, String, u32, u64)> {
    common::read_reference_perft(PERFT_FILE)
        .into_iter()
        .map(|(key, depth, nodes)| {
            let (name, fen_text) = key.split_once(" | ").expect("'rule set | fen'");
            (rules_named(name), fen_text.to_string(), depth, nodes)
        })
        .collect()
}

#[test]
fn perft_numbers_from_the_reference() {
    let rows = rows();
    assert!(rows.len() >= PERFT_CASES.len() * 3);
    for (rules, fen_text, depth, nodes) in rows {
        assert_eq!(
            fast_perft(rules, &fen_text, depth),
            nodes,
            "{} {fen_text} depth {depth}",
            rules.name
        );
    }
}

#[test]
fn reference_reproduces_the_perft_numbers() {
    // The file is not taken on trust: the reference recomputes every row
    // up to depth 3 (deeper rows take long in the test profile).
    for (rules, fen_text, depth, nodes) in rows() {
        if depth <= 3 {
            assert_eq!(
                Ref::from_fen(rules, &fen_text).perft(depth),
                nodes,
                "{} {fen_text} depth {depth}",
                rules.name
            );
        }
    }
}

#[test]
fn losers_start_position_matches_the_multi_variant_engine() {
    // RULES A8: the widely used multi-variant engine counts 152,955.
    let counts: Vec<u64> = (1..=4)
        .map(|d| {
            fast_perft(
                LOSERS,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                d,
            )
        })
        .collect();
    assert_eq!(counts, [20, 400, 8067, 152_955]);
}

#[test]
#[ignore = "rewrites tests/data/losing-variants.perft from the reference"]
fn regenerate() {
    let cases: Vec<(String, u32)> = PERFT_CASES
        .iter()
        .map(|&(rules, fen_text, depth)| (format!("{} | {fen_text}", rules.name), depth))
        .collect();
    let borrowed: Vec<(&str, u32)> = cases.iter().map(|(k, d)| (k.as_str(), *d)).collect();
    common::write_reference_perft(
        PERFT_FILE,
        "# Perft of the further Losing-chess rule sets (RULES A8), computed by the\n\
         # naive reference in tests/losing_variants_reference.rs and confirmed by the\n\
         # fast generators.\n\
         # rule set | fen; depth; leaf nodes\n",
        &borrowed,
        |key, depth| {
            let (name, fen_text) = key.split_once(" | ").expect("'rule set | fen'");
            Ref::from_fen(rules_named(name), fen_text).perft(depth)
        },
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
