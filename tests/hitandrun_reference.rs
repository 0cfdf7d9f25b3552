//! Hit-and-Run chess (RULES R) against a deliberately naive reference
//! written here, separately from the fast generator: a plain array board,
//! every candidate sub-move found by brute force over every (from, to) pair
//! and judged by the clauses read literally, legality by making the
//! sub-move on a copy and asking whether any enemy man then reaches the
//! mover's king (RULES R5). The turn is tracked the plain way: the first
//! turn of each side is one move, then two; the man that moved first is
//! remembered with its capture origin (R2, R3); double steps are remembered
//! by their landing squares for the opponent's next turn (R7); a first
//! sub-move with no legal second ends the turn (R1).
//!
//! - Seeded random playouts (splitmix64, biased towards captures, double
//!   steps and castling): at every node both must agree on the sorted UCI
//!   legal sub-moves, the side to move, whether the turn is half played,
//!   check and the outcome.
//! - The "simultaneous" rule set (RULES R9) is the same reference with one
//!   clause changed, read literally: a first sub-move of a two-sub-move turn
//!   that leaves the king attacked is legal if, once made, some legal second
//!   sub-move exists (the second one must leave the king safe).
//! - Perft numbers computed by the reference are stored in
//!   tests/data/hitandrun.perft and checked against the fast generator
//!   (`cargo test --release --test hitandrun_reference -- --ignored
//!   regenerate` rewrites the file from the reference).

mod common;

use common::SplitMix;
use common::mailbox::{self, Man, RefGame, RefMove, fr, parse_square, sq, uci_text};
use ransom::notation::{fen, uci};
use ransom::perft::perft;
use ransom::variants::{HitAndRun, HitAndRunChess, HitAndRunRules, HitAndRunSimultaneous};
use ransom::{OutcomeKind, Position};

// ---------------------------------------------------------------------------
// The reference.

#[derive(Clone)]
struct Ref {
    board: [Option<Man>; 64],
    turn: usize,
    /// Rook squares that may still castle.
    castle_rooks: Vec<usize>,
    /// Landing squares of the opponent's double steps of his last turn.
    their_steps: Vec<usize>,
    /// Landing squares of the mover's double steps this turn.
    my_steps: Vec<usize>,
    /// Mid-turn: where the first mover stands and where it captured from.
    sub: Option<(usize, Option<usize>)>,
    fullmoves: u32,
    /// RULES R9: both sub-moves judged together.
    simultaneous: bool,
}

/// Whether three squares lie on one rank, file or diagonal.
fn on_one_line(a: usize, b: usize, c: usize) -> bool {
    let ((af, ar), (bf, br), (cf, cr)) = (fr(a), fr(b), fr(c));
    let same_line = |(xf, xr): (i32, i32), (yf, yr): (i32, i32)| {
        xf == yf || xr == yr || (xf - yf).abs() == (xr - yr).abs()
    };
    if !same_line((af, ar), (bf, br)) {
        return false;
    }
    // c is on the line through a and b: the cross product is zero and the
    // line through a and c is the same kind of line.
    (bf - af) * (cr - ar) == (br - ar) * (cf - af)
}

impl Ref {
    fn from_fen(text: &str) -> Ref {
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
        let turn = usize::from(fields[1] == "b");
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
        let (mut their_steps, mut my_steps) = (Vec::new(), Vec::new());
        if fields[3] != "-" {
            for part in fields[3].split(',') {
                let s = parse_square(part);
                // Rank 3: a White pawn skipped it and landed one rank up.
                let (owner, landing) = if fr(s).1 == 2 { (0, s + 8) } else { (1, s - 8) };
                if owner == turn {
                    my_steps.push(landing);
                } else {
                    their_steps.push(landing);
                }
            }
        }
        let sub = fields.get(6).map(|f| {
            let body = f.strip_prefix("sub=").unwrap();
            match body.split_once('x') {
                Some((a, b)) => (parse_square(a), Some(parse_square(b))),
                None => (parse_square(body), None),
            }
        });
        Ref {
            board,
            turn,
            castle_rooks,
            their_steps,
            my_steps,
            sub,
            fullmoves: fields[5].parse().unwrap(),
            simultaneous: false,
        }
    }

    /// The position under the "simultaneous" rules (RULES R9).
    fn simultaneous(text: &str) -> Ref {
        Ref {
            simultaneous: true,
            ..Ref::from_fen(text)
        }
    }

    fn colour_at(&self, s: usize) -> Option<usize> {
        self.board[s].map(|m| m.colour)
    }

    /// Whether the man on `from` could go to `to` by its way of moving,
    /// ignoring what stands on `to` (pawns: only their captures here).
    fn attacks(&self, from: usize, to: usize) -> bool {
        mailbox::attacks(&self.board, from, to)
    }

    fn attacked_by(&self, s: usize, by: usize) -> bool {
        (0..64).any(|from| self.colour_at(from) == Some(by) && self.attacks(from, s))
    }

    fn in_check(&self, c: usize) -> bool {
        let king = (0..64).find(|&s| {
            self.board[s]
                == Some(Man {
                    colour: c,
                    kind: 'k',
                })
        });
        king.is_some_and(|k| self.attacked_by(k, 1 - c))
    }

    /// Every sub-move by the way the men move, before king safety.
    fn candidates(&self) -> Vec<RefMove> {
        let us = self.turn;
        let mut out = Vec::new();
        let forward = if us == 0 { 1 } else { -1 };
        for from in 0..64 {
            let Some(man) = self.board[from] else {
                continue;
            };
            if man.colour != us {
                continue;
            }
            let second_time = self.sub.is_some_and(|(s, _)| s == from);
            for to in 0..64 {
                let target = self.board[to];
                if target.is_some_and(|t| t.colour == us || t.kind == 'k') {
                    continue; // own men are never taken, kings never captured (R5)
                }
                let capture = target.is_some();
                let ((ff, r0), (tf, tr)) = (fr(from), fr(to));
                let mut ok = if man.kind == 'p' {
                    let one = tf == ff && tr == r0 + forward && !capture;
                    let start_rank = if us == 0 { 1 } else { 6 };
                    let two = tf == ff
                        && r0 == start_rank
                        && tr == r0 + 2 * forward
                        && !capture
                        && self.board[sq(ff, r0 + forward).unwrap()].is_none();
                    let diagonal_capture = capture && self.attacks(from, to);
                    one || two || diagonal_capture
                } else {
                    self.attacks(from, to)
                };
                // R7: en passant against a double step of the opponent's
                // last turn whose pawn still stands where it landed.
                let mut en_passant = false;
                if man.kind == 'p' && !capture && self.attacks(from, to) {
                    let landing = sq(tf, r0).unwrap();
                    if self.their_steps.contains(&landing)
                        && self.board[landing]
                            == Some(Man {
                                colour: 1 - us,
                                kind: 'p',
                            })
                    {
                        ok = true;
                        en_passant = true;
                    }
                }
                if !ok {
                    continue;
                }
                if second_time {
                    // R2: no capture the second time; R3: not back to the
                    // capture origin nor along the capture line.
                    if capture || en_passant {
                        continue;
                    }
                    if let Some((now, Some(origin))) = self.sub
                        && (to == origin || on_one_line(origin, now, to))
                    {
                        continue;
                    }
                }
                if man.kind == 'p' && (tr == 0 || tr == 7) {
                    for p in ['q', 'r', 'b', 'n'] {
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
            // R6: castling, the king's sub-move.
            if man.kind == 'k' && !self.in_check(us) {
                for &rook in &self.castle_rooks {
                    let Some(path) = mailbox::castling_path(&self.board, us, from, rook) else {
                        continue;
                    };
                    if path.iter().any(|&s| self.attacked_by(s, 1 - us)) {
                        continue;
                    }
                    out.push(RefMove {
                        from,
                        to: path[1],
                        promotion: None,
                    });
                }
            }
        }
        out
    }

    /// Moves the men of `m` on the board (and keeps the castling rights).
    fn move_men(&mut self, m: RefMove) -> bool {
        let man = self.board[m.from].unwrap();
        let (ff, r0) = fr(m.from);
        let (tf, _) = fr(m.to);
        let mut capture = self.board[m.to].is_some();
        if man.kind == 'p' && ff != tf && !capture {
            self.board[sq(tf, r0).unwrap()] = None; // en passant
            capture = true;
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
        capture
    }

    /// Plays a legal sub-move, with the whole turn logic.
    fn make(&mut self, m: RefMove) {
        let man = self.board[m.from].unwrap();
        let single_first_turn = self.fullmoves == 1 && self.sub.is_none();
        let second = self.sub.is_some();
        let capture = self.move_men(m);
        self.my_steps.retain(|&l| l != m.from);
        if man.kind == 'p' && (fr(m.from).1 - fr(m.to).1).abs() == 2 {
            self.my_steps.push(m.to);
        }
        if single_first_turn || second {
            self.end_turn();
            return;
        }
        self.sub = Some((m.to, capture.then_some(m.from)));
        if self.legal().is_empty() {
            self.end_turn(); // R1: the second sub-move is forfeited
        }
    }

    fn end_turn(&mut self) {
        self.sub = None;
        self.their_steps = std::mem::take(&mut self.my_steps);
        if self.turn == 1 {
            self.fullmoves += 1;
        }
        self.turn = 1 - self.turn;
    }

    fn legal(&self) -> Vec<RefMove> {
        let two_sub_moves = self.sub.is_none() && self.fullmoves != 1;
        self.candidates()
            .into_iter()
            .filter(|&m| {
                let mut after = self.clone();
                after.move_men(m);
                if !after.in_check(self.turn) {
                    return true;
                }
                // R9: saved by a second sub-move (the turn goes on only if
                // a legal one exists).
                if self.simultaneous && two_sub_moves {
                    let mut after = self.clone();
                    after.make(m);
                    return after.turn == self.turn;
                }
                false
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
// Random playouts.

fn outcome_name<R: HitAndRunRules>(pos: &HitAndRunChess<R>) -> &'static str {
    match pos.outcome().map(|o| o.kind) {
        None => "",
        Some(OutcomeKind::Checkmate) => "checkmate",
        Some(OutcomeKind::Stalemate) => "stalemate",
        Some(OutcomeKind::Draw) => "draw",
        Some(OutcomeKind::VariantWin) => "variant-win",
    }
}

/// Start positions of the playouts: the start, castling on both wings,
/// double steps to take en passant, promotions near, and mid-turn states.
const STARTS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 2",
    "r3k2r/pppq1ppp/2n1bn2/3pp3/1P1PP3/2NBBN2/P1P2PPP/R2QK2R b KQkq - 0 8",
    "4k3/1P4P1/8/2pP1pP1/8/8/p5p1/R3K2R w KQ c6,f6 0 20",
    "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 2 sub=e5",
    "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 0 4",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 10",
    "1k6/8/8/3q4/8/8/8/R3K2R w KQ - 0 30",
];

const PLAYOUTS: usize = 1000;
const MAX_PLIES: usize = 120;

#[test]
fn random_playouts_agree_with_the_reference() {
    playouts::<ransom::variants::Sequential>(0x4869_7452_756e, Ref::from_fen);
}

#[test]
fn random_playouts_agree_with_the_reference_simultaneous() {
    // RULES R9.
    playouts::<ransom::variants::Simultaneous>(0x5369_6d75_6c74, Ref::simultaneous);
}

fn playouts<R: HitAndRunRules>(seed: u64, reference: fn(&str) -> Ref) {
    let mut rng = SplitMix(seed);
    let (mut nodes, mut moves_seen, mut checks, mut mid_turn) = (0u64, 0u64, 0u64, 0u64);
    let (mut ep_played, mut castles, mut forfeits, mut finished) = (0u64, 0u64, 0u64, 0u64);
    for playout in 0..PLAYOUTS {
        let start = STARTS[playout % STARTS.len()];
        let mut pos: HitAndRunChess<R> = fen::parse_position(start).unwrap();
        let mut r = reference(start);
        let mut line: Vec<String> = Vec::new();
        for _ in 0..MAX_PLIES {
            nodes += 1;
            let context = || format!("playout {playout} from {start} after {}", line.join(" "));
            let legal = pos.legal_moves();
            let mut fast: Vec<String> = legal.iter().map(|&m| uci::write(m)).collect();
            fast.sort();
            let ref_legal = r.legal();
            let mut slow: Vec<String> = ref_legal.iter().map(|&m| uci_text(m)).collect();
            slow.sort();
            assert_eq!(
                fast,
                slow,
                "legal sub-moves at {}; {}",
                fen::write(&pos),
                context()
            );
            assert_eq!(pos.turn().index(), r.turn, "side to move; {}", context());
            assert_eq!(
                pos.is_mid_turn(),
                r.sub.is_some(),
                "mid-turn; {}",
                context()
            );
            assert_eq!(pos.is_check(), r.in_check(r.turn), "check; {}", context());
            let outcome = r.outcome(&ref_legal);
            assert_eq!(outcome_name(&pos), outcome, "outcome; {}", context());
            checks += u64::from(pos.is_check());
            mid_turn += u64::from(pos.is_mid_turn());
            moves_seen += fast.len() as u64;
            if !outcome.is_empty() {
                finished += 1;
                break;
            }
            // Biased: captures, en passant and castling when there are some.
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
            ep_played += u64::from(matches!(m, ransom::Move::EnPassant { .. }));
            castles += u64::from(matches!(m, ransom::Move::Castle { .. }));
            let text = uci::write(m);
            let rm = *ref_legal
                .iter()
                .find(|&&x| uci_text(x) == text)
                .expect("same lists");
            let was_first = !pos.is_mid_turn() && !pos.next_sub_move_ends_turn();
            let before = pos.turn();
            pos.play_unchecked(m);
            r.make(rm);
            forfeits += u64::from(was_first && pos.turn() != before);
            line.push(text);
        }
    }
    eprintln!(
        "{PLAYOUTS} playouts, {nodes} nodes, {moves_seen} legal sub-moves compared, \
         {mid_turn} mid-turn nodes, {checks} checks, {ep_played} en-passant captures, \
         {castles} castlings, {forfeits} forfeited second sub-moves, {finished} finished games"
    );
    assert!(nodes > 50_000 && mid_turn > 20_000 && checks > 100);
    assert!(ep_played > 10 && castles > 50 && finished > 10);
}

// ---------------------------------------------------------------------------
// Perft numbers from the reference.

const PERFT_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/hitandrun.perft");
const PERFT_FILE_SIMULTANEOUS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/hitandrun-simultaneous.perft"
);

/// Positions and the depths (in sub-moves) whose counts the reference computes.
const PERFT_CASES: &[(&str, u32)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 2",
        4,
    ),
    ("4k3/1P4P1/8/2pP1pP1/8/8/p5p1/R3K2R w KQ c6,f6 0 20", 3),
    (
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 0 2 sub=e5",
        3,
    ),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 10", 4),
    ("1k6/8/8/3q4/8/8/8/R3K2R w KQ - 0 30", 3),
];

#[test]
fn perft_numbers_from_the_reference() {
    let cases = common::read_reference_perft(PERFT_FILE);
    assert!(cases.len() >= PERFT_CASES.len() * 3);
    for (fen_text, depth, nodes) in cases {
        let pos: HitAndRun = fen::parse_position(&fen_text).unwrap();
        assert_eq!(perft(&pos, depth), nodes, "{fen_text} depth {depth}");
    }
}

#[test]
fn reference_reproduces_the_perft_numbers() {
    // The file is not taken on trust: the reference recomputes every row
    // (about a second in the test profile).
    for (fen_text, depth, nodes) in common::read_reference_perft(PERFT_FILE) {
        assert_eq!(
            Ref::from_fen(&fen_text).perft(depth),
            nodes,
            "{fen_text} depth {depth}"
        );
    }
}

/// RULES R9: positions with pins and checks, where judging the sub-moves
/// together changes the counts.
const PERFT_CASES_SIMULTANEOUS: &[(&str, u32)] = &[
    (
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
    ),
    (
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 2",
        3,
    ),
    ("4r2k/8/8/8/8/8/4B3/4K3 w - - 0 5", 4),
    ("k3r3/8/8/8/8/8/8/4K2R w K - 0 5", 4),
    ("1k6/8/8/3q4/8/8/8/R3K2R w KQ - 0 30", 3),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 10", 4),
];

#[test]
fn perft_numbers_from_the_reference_simultaneous() {
    let cases = common::read_reference_perft(PERFT_FILE_SIMULTANEOUS);
    assert!(cases.len() >= PERFT_CASES_SIMULTANEOUS.len() * 3);
    for (fen_text, depth, nodes) in cases {
        let pos: HitAndRunSimultaneous = fen::parse_position(&fen_text).unwrap();
        assert_eq!(perft(&pos, depth), nodes, "{fen_text} depth {depth}");
    }
}

#[test]
fn reference_reproduces_the_perft_numbers_simultaneous() {
    for (fen_text, depth, nodes) in common::read_reference_perft(PERFT_FILE_SIMULTANEOUS) {
        assert_eq!(
            Ref::simultaneous(&fen_text).perft(depth),
            nodes,
            "{fen_text} depth {depth}"
        );
    }
}

#[test]
#[ignore = "rewrites tests/data/hitandrun-simultaneous.perft from the reference"]
fn regenerate_simultaneous() {
    common::write_reference_perft(
        PERFT_FILE_SIMULTANEOUS,
        "# Hit-and-Run chess, simultaneous variation (RULES R9), perft (depth in\n\
         # sub-moves), computed by the naive reference in tests/hitandrun_reference.rs\n\
         # and confirmed by the fast generator.\n\
         # fen; depth; leaf nodes\n",
        PERFT_CASES_SIMULTANEOUS,
        |fen_text, depth| Ref::simultaneous(fen_text).perft(depth),
    );
}

#[test]
#[ignore = "rewrites tests/data/hitandrun.perft from the reference"]
fn regenerate() {
    common::write_reference_perft(
        PERFT_FILE,
        "# Hit-and-Run chess perft (depth in sub-moves), computed by the naive reference\n\
         # in tests/hitandrun_reference.rs and confirmed by the fast generator.\n\
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
