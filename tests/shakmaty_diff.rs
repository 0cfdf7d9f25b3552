//! Differential test against `shakmaty` (an independent implementation of
//! chess, antichess and crazyhouse): seeded random playouts, and at every
//! node the two libraries must agree on
//!
//! - the legal moves, as sorted lists of UCI strings (RULES S; RULES A1
//!   compulsory capture, A2 king as an ordinary man, A3 no castling, A4
//!   promotion to a king; RULES Z drops);
//! - whether the side to move is in check;
//! - the outcome: whether the game is over and who won, or a draw
//!   (RULES S checkmate / stalemate / dead position; RULES A5 a player with
//!   no men or no move wins, A6 bishops that can never meet; RULES Z);
//! - the FEN (RULES Z: pocket letters, `~` for promoted men; the en-passant
//!   square only when an en-passant capture is legal).
//!
//! One formatting difference is intended: ransom writes crazyhouse pockets
//! in Q R B N P order, shakmaty in P N B R Q order, so pockets are compared
//! as multisets of letters; everything else must match exactly.
//!
//! The moves are chosen by a deterministic PRNG (splitmix64), so a failure
//! names the playout seed and the move sequence and can be replayed.

mod common;

use common::SplitMix;
use std::fmt::Write as _;
use std::str::FromStr;

use ransom::Position as _;
use ransom::notation::{fen, uci};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, EnPassantMode, KnownOutcome, Outcome};

/// Playouts per variant from the start position.
const START_PLAYOUTS: u64 = 2_000;
/// Playouts from each extra start FEN.
const FEN_PLAYOUTS: u64 = 200;
/// Maximum plies per playout.
const MAX_PLIES: usize = 150;

/// The seed of playout `index` of a run whose base seed is `base`.
fn playout_seed(base: u64, index: u64) -> u64 {
    SplitMix(base ^ index.wrapping_mul(0xd134_2543_de82_ef95)).next()
}

/// The outcome in a form both libraries share: `None` while the game goes
/// on, `Some(None)` for a draw, `Some(Some('w' | 'b'))` for a win.
type Result3 = Option<Option<char>>;

fn ransom_result(outcome: Option<ransom::Outcome>) -> Result3 {
    outcome.map(|o| o.winner.map(|c| c.char()))
}

fn shakmaty_result(outcome: Outcome) -> Result3 {
    match outcome {
        Outcome::Unknown => None,
        Outcome::Known(KnownOutcome::Draw) => Some(None),
        Outcome::Known(KnownOutcome::Decisive { winner }) => Some(Some(winner.char())),
    }
}

/// The FEN with the pocket letters sorted (the only intended difference).
fn normalize_fen(text: &str) -> String {
    match (text.find('['), text.find(']')) {
        (Some(open), Some(close)) if open < close => {
            let mut pocket: Vec<char> = text[open + 1..close].chars().collect();
            pocket.sort_unstable();
            let pocket: String = pocket.into_iter().collect();
            format!("{}[{pocket}]{}", &text[..open], &text[close..][1..])
        }
        _ => text.to_string(),
    }
}

fn ransom_moves<R: ransom::Position>(pos: &R) -> (ransom::MoveList, Vec<(String, ransom::Move)>) {
    let legal = pos.legal_moves();
    let mut named: Vec<(String, ransom::Move)> =
        legal.iter().map(|&m| (uci::write(m), m)).collect();
    named.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    (legal, named)
}

fn shakmaty_moves<S: shakmaty::Position>(pos: &S) -> Vec<(String, shakmaty::Move)> {
    let mut named: Vec<(String, shakmaty::Move)> = pos
        .legal_moves()
        .into_iter()
        .map(|m| (m.to_uci(CastlingMode::Standard).to_string(), m))
        .collect();
    named.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    named
}

/// Statistics of a run, to show that the playouts went somewhere.
#[derive(Default, Debug)]
struct Stats {
    playouts: u64,
    nodes: u64,
    decisive: u64,
    draws: u64,
    unfinished: u64,
}

/// Everything needed to report a disagreement.
struct Context<'a> {
    variant: &'a str,
    start: &'a str,
    playout: u64,
    seed: u64,
    line: &'a [String],
}

impl Context<'_> {
    fn fail(&self, ransom_fen: &str, what: &str) -> ! {
        let mut msg = String::new();
        let _ = writeln!(
            msg,
            "ransom and shakmaty disagree ({}): {what}",
            self.variant
        );
        let _ = writeln!(msg, "  start:   {}", self.start);
        let _ = writeln!(
            msg,
            "  playout: {} (seed {:#018x}), ply {}",
            self.playout,
            self.seed,
            self.line.len()
        );
        let _ = writeln!(
            msg,
            "  moves:   {}",
            if self.line.is_empty() {
                "(none)".to_string()
            } else {
                self.line.join(" ")
            }
        );
        let _ = write!(msg, "  at FEN:  {ransom_fen}");
        panic!("{msg}");
    }
}

/// Plays `playouts` random games from `ransom_start` / `shakmaty_start`
/// (the same position) and compares the two libraries at every node.
fn run<R, S>(
    variant: &str,
    ransom_start: R,
    shakmaty_start: S,
    playouts: u64,
    base_seed: u64,
) -> Stats
where
    R: ransom::Position,
    S: shakmaty::Position + Clone,
{
    let start_fen = fen::write(&ransom_start);
    let mut stats = Stats::default();
    let mut line: Vec<String> = Vec::with_capacity(MAX_PLIES);
    for playout in 0..playouts {
        let seed = playout_seed(base_seed, playout);
        let mut rng = SplitMix(seed);
        let mut rpos = ransom_start.clone();
        let mut spos = shakmaty_start.clone();
        line.clear();
        stats.playouts += 1;
        loop {
            stats.nodes += 1;
            let ctx = Context {
                variant,
                start: &start_fen,
                playout,
                seed,
                line: &line,
            };
            let rfen = fen::write(&rpos);
            let sfen = Fen::from_position(&spos, EnPassantMode::Legal).to_string();
            if normalize_fen(&rfen) != normalize_fen(&sfen) {
                ctx.fail(
                    &rfen,
                    &format!("FEN\n  ransom:   {rfen}\n  shakmaty: {sfen}"),
                );
            }

            let (legal, rmoves) = ransom_moves(&rpos);
            let smoves = shakmaty_moves(&spos);
            if rmoves.len() != smoves.len() || rmoves.iter().zip(&smoves).any(|(r, s)| r.0 != s.0) {
                let rset: Vec<&str> = rmoves.iter().map(|m| m.0.as_str()).collect();
                let sset: Vec<&str> = smoves.iter().map(|m| m.0.as_str()).collect();
                let only_ransom: Vec<&str> =
                    rset.iter().copied().filter(|m| !sset.contains(m)).collect();
                let only_shakmaty: Vec<&str> =
                    sset.iter().copied().filter(|m| !rset.contains(m)).collect();
                ctx.fail(
                    &rfen,
                    &format!(
                        "legal moves ({} vs {})\n  only ransom:   {only_ransom:?}\n  only shakmaty: {only_shakmaty:?}\n  ransom:   {rset:?}\n  shakmaty: {sset:?}",
                        rset.len(),
                        sset.len()
                    ),
                );
            }

            if rpos.is_check() != spos.is_check() {
                ctx.fail(
                    &rfen,
                    &format!(
                        "is_check: ransom {}, shakmaty {}",
                        rpos.is_check(),
                        spos.is_check()
                    ),
                );
            }

            let rresult = ransom_result(rpos.outcome_given(&legal));
            let sresult = shakmaty_result(spos.outcome());
            if rresult != sresult {
                ctx.fail(
                    &rfen,
                    &format!(
                        "outcome: ransom {:?} ({rresult:?}), shakmaty {sresult:?}",
                        rpos.outcome_given(&legal)
                    ),
                );
            }

            match rresult {
                Some(Some(_)) => {
                    stats.decisive += 1;
                    break;
                }
                Some(None) => {
                    stats.draws += 1;
                    break;
                }
                None => {}
            }
            if rmoves.is_empty() {
                ctx.fail(&rfen, "no legal move, but no outcome either");
            }
            if line.len() >= MAX_PLIES {
                stats.unfinished += 1;
                break;
            }

            // Both lists are equal and sorted, so one index names the same
            // move in both.
            let pick = rng.below(rmoves.len());
            let (name, rm) = &rmoves[pick];
            let (sname, sm) = &smoves[pick];
            debug_assert_eq!(name, sname);
            rpos.play_unchecked(*rm);
            spos.play_unchecked(*sm);
            line.push(name.clone());
        }
    }
    stats
}

fn ransom_from_fen<R: ransom::Position>(text: &str) -> R {
    fen::parse_position(text).unwrap_or_else(|e| panic!("ransom rejects {text}: {e}"))
}

fn shakmaty_from_fen<S: shakmaty::FromSetup>(text: &str) -> S {
    Fen::from_str(text)
        .unwrap_or_else(|e| panic!("shakmaty cannot read {text}: {e}"))
        .into_position(CastlingMode::Standard)
        .unwrap_or_else(|e| panic!("shakmaty rejects {text}: {e}"))
}

fn report(name: &str, stats: &Stats) {
    println!(
        "{name}: {} playouts, {} nodes, {} decisive, {} drawn, {} cut at {MAX_PLIES} plies",
        stats.playouts, stats.nodes, stats.decisive, stats.draws, stats.unfinished
    );
}

// RULES S
#[test]
fn chess_start_playouts() {
    let stats = run(
        "chess",
        ransom::variants::Chess::start(),
        shakmaty::Chess::default(),
        START_PLAYOUTS,
        0xc4e5_5000,
    );
    report("chess start", &stats);
    assert!(stats.nodes > 100_000, "{stats:?}");
    assert!(stats.decisive + stats.draws > 0, "{stats:?}");
}

// RULES A1-A6
#[test]
fn antichess_start_playouts() {
    let stats = run(
        "antichess",
        ransom::variants::Antichess::start(),
        shakmaty::variant::Antichess::default(),
        START_PLAYOUTS,
        0xa471_0000,
    );
    report("antichess start", &stats);
    assert!(stats.nodes > 100_000, "{stats:?}");
    assert!(stats.decisive > 100, "{stats:?}");
}

// RULES Z
#[test]
fn crazyhouse_start_playouts() {
    let stats = run(
        "crazyhouse",
        ransom::variants::Crazyhouse::start(),
        shakmaty::variant::Crazyhouse::default(),
        START_PLAYOUTS,
        0x2a22_0000,
    );
    report("crazyhouse start", &stats);
    assert!(stats.nodes > 100_000, "{stats:?}");
    assert!(stats.decisive > 0, "{stats:?}");
}

/// Positions rich in castling, en passant (with pins), promotions and
/// drops, so the rarer rules are exercised more often than from the start.
#[test]
fn playouts_from_tricky_fens() {
    let chess = [
        // Kiwipete: castling both ways, pins, en passant.
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        // En passant that would expose the king along the rank.
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        // Promotions with and without capture, under-promotions.
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        // Castling rights with attacked transit squares.
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    ];
    let antichess = [
        "8/1p6/8/8/8/8/P7/8 w - - 0 1",
        "8/2p5/8/8/8/8/P7/8 w - - 0 1",
        // Kings, bishops and promotions to a king (RULES A4).
        "4k3/1PP5/8/3b4/8/8/5pp1/1B2K3 w - - 0 1",
        "rnbqkbnr/pppp1ppp/8/4p3/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2",
    ];
    let crazyhouse = [
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[] b KQkq - 0 1",
        "2k5/8/8/8/8/8/8/4K3[QRBNPqrbnp] w - - 0 1",
        // A promoted queen (captured, it goes back to the pocket as a pawn).
        "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1",
        "r3k2r/pPp2ppp/8/8/8/8/PpP2PPP/R3K2R[Nn] w KQkq - 0 1",
    ];
    let mut nodes = 0;
    for (i, text) in chess.iter().enumerate() {
        let stats = run(
            "chess",
            ransom_from_fen::<ransom::variants::Chess>(text),
            shakmaty_from_fen::<shakmaty::Chess>(text),
            FEN_PLAYOUTS,
            0xf0_0000 + i as u64,
        );
        report(text, &stats);
        nodes += stats.nodes;
    }
    for (i, text) in antichess.iter().enumerate() {
        let stats = run(
            "antichess",
            ransom_from_fen::<ransom::variants::Antichess>(text),
            shakmaty_from_fen::<shakmaty::variant::Antichess>(text),
            FEN_PLAYOUTS,
            0xf1_0000 + i as u64,
        );
        report(text, &stats);
        nodes += stats.nodes;
    }
    for (i, text) in crazyhouse.iter().enumerate() {
        let stats = run(
            "crazyhouse",
            ransom_from_fen::<ransom::variants::Crazyhouse>(text),
            shakmaty_from_fen::<shakmaty::variant::Crazyhouse>(text),
            FEN_PLAYOUTS,
            0xf2_0000 + i as u64,
        );
        report(text, &stats);
        nodes += stats.nodes;
    }
    assert!(nodes > 50_000, "only {nodes} nodes");
}

#[test]
fn pocket_normalization_only_sorts_the_pocket() {
    assert_eq!(
        normalize_fen("8/8/8/8/8/8/8/K6k[QRBNPqrbnp] w - - 0 1"),
        normalize_fen("8/8/8/8/8/8/8/K6k[PNBRQpnbrq] w - - 0 1")
    );
    assert_ne!(
        normalize_fen("8/8/8/8/8/8/8/K6k[Qq] w - - 0 1"),
        normalize_fen("8/8/8/8/8/8/8/K6k[Qn] w - - 0 1")
    );
    assert_eq!(
        normalize_fen("8/8/8/8/8/8/8/K6k w - - 0 1"),
        "8/8/8/8/8/8/8/K6k w - - 0 1"
    );
}
