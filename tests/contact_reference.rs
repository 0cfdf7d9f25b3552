//! Contact chess (RULES C) against a deliberately naive reference written
//! here, separately from the fast generator: a plain array board, every
//! candidate move found by brute force over every (from, to) pair, each pair
//! judged by the clauses read literally (straight line or knight step, the
//! squares between all empty or all the mover's own men, the backing rules of
//! C2 and C4 counted square by square), legality by making the move on a copy
//! and asking whether any enemy man could then capture the king by those
//! same rules (RULES C5).
//!
//! - Seeded random playouts (splitmix64, biased towards captures so that
//!   promotions with captured men happen): at every node both must agree on
//!   the sorted UCI legal moves, on check, on the outcome and on the whole
//!   FEN (board, captured men, clocks: RULES C1, C6).
//! - Perft numbers computed by the reference are stored in
//!   tests/data/contact.perft and checked against the fast generator
//!   (`cargo test --test contact_reference -- --ignored regenerate` rewrites
//!   the file from the reference).

mod common;

use common::SplitMix;
use common::mailbox::{Man, RefGame, RefMove, fr, sq, uci_text};
use ransom::notation::{fen, parse_move, san, uci};
use ransom::perft::perft;
use ransom::variants::Contact;
use ransom::{OutcomeKind, Position};

// ---------------------------------------------------------------------------
// The reference.

#[derive(Clone)]
struct Ref {
    board: [Option<Man>; 64],
    /// `captured[colour]`: the captured men of that colour, by kind letter.
    captured: [Vec<char>; 2],
    turn: usize,
    halfmoves: u32,
    fullmoves: u32,
}

/// The rank counted from `colour`'s own side (0 = its first rank).
fn own_rank(colour: usize, s: usize) -> i32 {
    let r = fr(s).1;
    if colour == 0 { r } else { 7 - r }
}

/// Whether a man of this kind and colour moves along the unit step (df, dr).
fn moves_along(kind: char, colour: usize, df: i32, dr: i32) -> bool {
    let straight = df == 0 || dr == 0;
    let forward = if colour == 0 { 1 } else { -1 };
    match kind {
        'k' | 'q' => true,
        'r' => straight,
        'b' => !straight,
        // Forward, diagonally forward, sideways; never backward.
        'p' => dr == forward || dr == 0,
        _ => false,
    }
}

impl Ref {
    fn from_fen(text: &str) -> Ref {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let (placement, bracket) = match fields[0].split_once('[') {
            Some((p, b)) => (p, b.trim_end_matches(']')),
            None => (fields[0], ""),
        };
        let mut board = [None; 64];
        for (i, row) in placement.split('/').enumerate() {
            let r = 7 - i as i32;
            let mut f = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    f += d as i32;
                } else {
                    let colour = usize::from(c.is_ascii_lowercase());
                    board[sq(f, r).unwrap()] = Some(Man {
                        colour,
                        kind: c.to_ascii_lowercase(),
                    });
                    f += 1;
                }
            }
        }
        let mut captured = [Vec::new(), Vec::new()];
        for c in bracket.chars() {
            captured[usize::from(c.is_ascii_lowercase())].push(c.to_ascii_lowercase());
        }
        Ref {
            board,
            captured,
            turn: usize::from(fields[1] == "b"),
            halfmoves: fields.get(4).map_or(0, |t| t.parse().unwrap()),
            fullmoves: fields.get(5).map_or(1, |t| t.parse().unwrap()),
        }
    }

    fn to_fen(&self) -> String {
        let mut out = String::new();
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match self.board[sq(f, r).unwrap()] {
                    None => empty += 1,
                    Some(m) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(if m.colour == 0 {
                            m.kind.to_ascii_uppercase()
                        } else {
                            m.kind
                        });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if r > 0 {
                out.push('/');
            }
        }
        out.push('[');
        for colour in 0..2 {
            for kind in ['q', 'r', 'b', 'n', 'p'] {
                for &c in &self.captured[colour] {
                    if c == kind {
                        out.push(if colour == 0 {
                            kind.to_ascii_uppercase()
                        } else {
                            kind
                        });
                    }
                }
            }
        }
        out.push(']');
        format!(
            "{out} {} - - {} {}",
            if self.turn == 0 { 'w' } else { 'b' },
            self.halfmoves,
            self.fullmoves
        )
    }

    fn colour_at(&self, s: usize) -> Option<usize> {
        self.board[s].map(|m| m.colour)
    }

    /// Whether the man on `from` may go to `to` by the rules of movement and
    /// capture alone (RULES C1–C4), promotion aside. `Some(captures)` if so.
    fn reaches(&self, from: usize, to: usize) -> Option<bool> {
        let man = self.board[from]?;
        let us = man.colour;
        if from == to || self.colour_at(to) == Some(us) {
            return None;
        }
        let target = self.board[to];
        let (f0, r0) = fr(from);
        let (f1, r1) = fr(to);
        let (df, dr) = (f1 - f0, r1 - r0);
        if man.kind == 'n' {
            // RULES C2: the knight as in chess, no backing rule, no jumps.
            let ok = (df.abs() == 1 && dr.abs() == 2) || (df.abs() == 2 && dr.abs() == 1);
            return ok.then_some(target.is_some());
        }
        if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
            return None;
        }
        let dist = df.abs().max(dr.abs());
        let (uf, ur) = (df.signum(), dr.signum());
        if !moves_along(man.kind, us, uf, ur) {
            return None;
        }
        let between: Vec<usize> = (1..dist)
            .map(|i| sq(f0 + uf * i, r0 + ur * i).unwrap())
            .collect();
        let behind = |k: i32| sq(f1 + uf * k, r1 + ur * k);
        let all_empty = between.iter().all(|&s| self.board[s].is_none());
        let all_ours =
            !between.is_empty() && between.iter().all(|&s| self.colour_at(s) == Some(us));
        // Ordinary move or capture (RULES C1, C2).
        if all_empty {
            let range_ok = match man.kind {
                'k' => dist == 1,
                'p' => {
                    dist == 1
                        || (dist == 2 && uf == 0 && own_rank(us, from) == 1 && target.is_none())
                }
                _ => true,
            };
            if range_ok {
                match target {
                    None => return Some(false),
                    Some(_) => {
                        let backed = behind(1).is_some_and(|s| self.board[s].is_some());
                        if man.kind != 'p' && !backed {
                            return Some(true);
                        }
                    }
                }
            }
        }
        // Jump or jump capture (RULES C3, C4).
        if all_ours {
            match target {
                None => return Some(false),
                Some(_) => {
                    let chain = between.len() as i32;
                    let mut run = 0;
                    let mut k = 1;
                    loop {
                        match behind(k).map(|s| self.board[s]) {
                            None | Some(None) => break,
                            Some(Some(m)) if m.colour == us => return None,
                            Some(Some(_)) => run += 1,
                        }
                        k += 1;
                    }
                    if chain > run {
                        return Some(true);
                    }
                }
            }
        }
        None
    }

    /// Whether colour `c` has a captured piece to put on a pawn's last rank.
    fn can_promote(&self, c: usize) -> bool {
        self.captured[c].iter().any(|&k| k != 'p')
    }

    /// RULES C5: could some man of `by` capture the man on `s`?
    fn capturable(&self, s: usize, by: usize) -> bool {
        (0..64).any(|from| {
            self.board[from].is_some_and(|m| {
                m.colour == by
                    && self.reaches(from, s) == Some(true)
                    && !(m.kind == 'p' && own_rank(by, s) == 7 && !self.can_promote(by))
            })
        })
    }

    fn in_check(&self, c: usize) -> bool {
        let king = (0..64).find(|&s| {
            self.board[s]
                == Some(Man {
                    colour: c,
                    kind: 'k',
                })
        });
        king.is_some_and(|k| self.capturable(k, 1 - c))
    }

    fn candidates(&self) -> Vec<RefMove> {
        let mut out = Vec::new();
        for from in 0..64 {
            let Some(man) = self.board[from] else {
                continue;
            };
            if man.colour != self.turn {
                continue;
            }
            for to in 0..64 {
                if self.reaches(from, to).is_none() {
                    continue;
                }
                if self.board[to].is_some_and(|m| m.kind == 'k') {
                    continue;
                }
                if man.kind == 'p' && own_rank(man.colour, to) == 7 {
                    // RULES C6: only a captured piece may replace the pawn.
                    for kind in ['q', 'r', 'b', 'n'] {
                        if self.captured[man.colour].contains(&kind) {
                            out.push(RefMove {
                                from,
                                to,
                                promotion: Some(kind),
                            });
                        }
                    }
                } else {
                    out.push(RefMove {
                        from,
                        to,
                        promotion: None,
                    });
                }
            }
        }
        out
    }

    fn make(&mut self, m: RefMove) {
        let man = self.board[m.from].unwrap();
        let victim = self.board[m.to];
        if let Some(v) = victim {
            self.captured[v.colour].push(v.kind);
        }
        let kind = match m.promotion {
            Some(p) => {
                let list = &mut self.captured[man.colour];
                let i = list.iter().position(|&k| k == p).unwrap();
                list.remove(i);
                p
            }
            None => man.kind,
        };
        self.board[m.from] = None;
        self.board[m.to] = Some(Man {
            colour: man.colour,
            kind,
        });
        self.halfmoves = if victim.is_some() || man.kind == 'p' {
            0
        } else {
            self.halfmoves + 1
        };
        if self.turn == 1 {
            self.fullmoves += 1;
        }
        self.turn = 1 - self.turn;
    }

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

    /// "checkmate", "stalemate", "draw" (bare kings) or "".
    fn outcome(&self, legal: &[RefMove]) -> &'static str {
        if legal.is_empty() {
            if self.in_check(self.turn) {
                "checkmate"
            } else {
                "stalemate"
            }
        } else if self.board.iter().flatten().all(|m| m.kind == 'k') {
            "draw"
        } else {
            ""
        }
    }
}

// ---------------------------------------------------------------------------
// The comparison.

/// Start positions: the opening, contact-rich middlegames, positions with
/// captured men and pawns close to promotion, king and pawn chains.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1",
    "r1bqkb1r/pp1p1ppp/2n1pn2/2p5/2PP4/2N1PN2/PP3PPP/R1BQKB1R[] w - - 0 5",
    "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R[Qq] b - - 0 8",
    "4k3/1P4P1/8/3p4/2P5/1P6/P5p1/4K3[QRNrb] w - - 0 1",
    "8/3k4/3p4/3P4/3P4/3K4/8/8[PPPPPPpppppp] w - - 0 1",
    "2k5/pp1r4/2pB4/8/3P4/1P6/P1K5/7R[Nbn] b - - 0 30",
    "4k3/4r3/8/4R3/4P3/8/8/4K3[] w - - 0 1",
];

const PLAYOUTS: u64 = 1_000;
const MAX_PLIES: usize = 80;

fn outcome_name(pos: &Contact) -> &'static str {
    match pos.outcome().map(|o| o.kind) {
        None => "",
        Some(OutcomeKind::Checkmate) => "checkmate",
        Some(OutcomeKind::Stalemate) => "stalemate",
        Some(OutcomeKind::Draw) => "draw",
        Some(OutcomeKind::VariantWin) => "variant-win",
    }
}

#[test]
fn random_playouts_agree_with_the_reference() {
    let mut nodes = 0u64;
    let mut moves_seen = 0u64;
    let mut checks = 0u64;
    let mut finished = [0u64; 3];
    let mut promotions = 0u64;
    let mut jump_captures = 0u64;
    let mut san_checked = 0u64;
    for playout in 0..PLAYOUTS {
        let mut rng = SplitMix(0xc0a7_ac75 ^ playout.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let start = STARTS[playout as usize % STARTS.len()];
        let mut pos: Contact = fen::parse_position(start).unwrap();
        let mut r = Ref::from_fen(start);
        let mut line: Vec<String> = Vec::new();
        for _ in 0..MAX_PLIES {
            let context = || format!("playout {playout} from {start} after [{}]", line.join(" "));
            nodes += 1;
            assert_eq!(
                fen::write(&pos),
                r.to_fen(),
                "positions differ; {}",
                context()
            );
            let legal = pos.legal_moves();
            let mut fast: Vec<String> = legal.iter().map(|&m| uci::write(m)).collect();
            fast.sort();
            let ref_legal = r.legal();
            let mut slow: Vec<String> = ref_legal.iter().map(|&m| uci_text(m)).collect();
            slow.sort();
            if fast != slow {
                let only_fast: Vec<&String> = fast.iter().filter(|m| !slow.contains(m)).collect();
                let only_slow: Vec<&String> = slow.iter().filter(|m| !fast.contains(m)).collect();
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
            let outcome = r.outcome(&ref_legal);
            assert_eq!(
                outcome_name(&pos),
                outcome,
                "outcome at {}; {}",
                fen::write(&pos),
                context()
            );
            checks += u64::from(pos.is_check());
            moves_seen += fast.len() as u64;
            if playout % 8 == 0 {
                // Every legal move reads back from its SAN (a sample of the
                // playouts: reading SAN generates the moves again).
                for &m in &legal {
                    let text = san::write(&pos, m);
                    assert_eq!(parse_move(&pos, &text), Ok(m), "SAN {text}; {}", context());
                    san_checked += 1;
                }
            }
            if !outcome.is_empty() {
                finished[["checkmate", "stalemate", "draw"]
                    .iter()
                    .position(|&o| o == outcome)
                    .unwrap()] += 1;
                break;
            }
            // Biased towards captures: three times in four a capture if
            // there is one, otherwise any move.
            let captures: Vec<usize> = (0..legal.len())
                .filter(|&i| legal[i].is_capture())
                .collect();
            let i = if !captures.is_empty() && rng.below(4) != 0 {
                captures[rng.below(captures.len())]
            } else {
                rng.below(legal.len())
            };
            let m = legal[i];
            promotions += u64::from(m.promotion().is_some());
            if let ransom::Move::Normal {
                from,
                to,
                capture: Some(_),
                role,
                ..
            } = m
            {
                let far = from
                    .file()
                    .abs_diff(to.file())
                    .max(from.rank().abs_diff(to.rank()));
                jump_captures += u64::from(
                    role != ransom::Role::Knight && far > 1 && {
                        // A jump capture has the mover's own man next to it on the line.
                        let step_f = (to.file() as i32 - from.file() as i32).signum();
                        let step_r = (to.rank() as i32 - from.rank() as i32).signum();
                        let next = ransom::Square::from_coords(
                            (from.file() as i32 + step_f) as u32,
                            (from.rank() as i32 + step_r) as u32,
                        )
                        .unwrap();
                        pos.board().color_at(next) == Some(pos.turn())
                    },
                );
            }
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
        "{PLAYOUTS} playouts, {nodes} nodes, {moves_seen} legal moves compared, {checks} checks, \
         {} mates, {} stalemates, {} bare-king draws, {promotions} promotions, \
         {jump_captures} jump captures played, {san_checked} SAN round trips",
        finished[0], finished[1], finished[2]
    );
    assert!(nodes > 20_000 && checks > 100 && finished[0] > 0);
    assert!(promotions > 10 && jump_captures > 100 && san_checked > 10_000);
}

// ---------------------------------------------------------------------------
// Perft numbers from the reference.

const PERFT_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/contact.perft");

/// Positions and the depths whose counts the reference computes.
const PERFT_CASES: &[(&str, u32)] = &[
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1", 4),
    (
        "r1bqkb1r/pp1p1ppp/2n1pn2/2p5/2PP4/2N1PN2/PP3PPP/R1BQKB1R[] w - - 0 5",
        3,
    ),
    (
        "r3k2r/ppp2ppp/2n1bn2/3pp3/3PP3/2N1BN2/PPP2PPP/R3K2R[Qq] b - - 0 8",
        3,
    ),
    ("4k3/1P4P1/8/3p4/2P5/1P6/P5p1/4K3[QRNrb] w - - 0 1", 4),
    ("8/3k4/3p4/3P4/3P4/3K4/8/8[PPPPPPpppppp] w - - 0 1", 5),
    ("2k5/pp1r4/2pB4/8/3P4/1P6/P1K5/7R[Nbn] b - - 0 30", 4),
    ("4k3/4r3/8/4R3/4P3/8/8/4K3[] w - - 0 1", 4),
    (
        "rnbqkb1r/pp3ppp/2p1pn2/3p4/2PP4/2N1PN2/PP3PPP/R1BQKB1R[] b - - 0 5",
        3,
    ),
];

fn read_perft_file() -> Vec<(String, u32, u64)> {
    common::read_reference_perft(PERFT_FILE)
}

#[test]
fn perft_numbers_from_the_reference() {
    let cases = read_perft_file();
    assert!(cases.len() >= PERFT_CASES.len() * 3);
    for (fen_text, depth, nodes) in cases {
        let pos: Contact = fen::parse_position(&fen_text).unwrap();
        assert_eq!(perft(&pos, depth), nodes, "{fen_text} depth {depth}");
    }
}

#[test]
fn reference_reproduces_the_perft_numbers() {
    // The file is not taken on trust: the reference recomputes every row
    // (a few seconds in the test profile).
    for (fen_text, depth, nodes) in read_perft_file() {
        assert_eq!(
            Ref::from_fen(&fen_text).perft(depth),
            nodes,
            "{fen_text} depth {depth}"
        );
    }
}

#[test]
#[ignore = "rewrites tests/data/contact.perft from the reference"]
fn regenerate() {
    common::write_reference_perft(
        PERFT_FILE,
        "# Contact chess perft, computed by the naive reference in tests/contact_reference.rs.\n\
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
