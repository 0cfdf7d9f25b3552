//! Fits the Losing-chess evaluation's weights to game results (Texel's
//! method, `ransom::search::engine::fit`), from files of `FEN<TAB>result`
//! lines (White's score: 1, 0.5 or 0) such as `benches/texel_data.py`
//! writes:
//!
//! ```sh
//! python3 benches/texel_data.py --games 3000 --out /tmp/texel.tsv
//! cargo run --release --example tune_losing -- /tmp/texel.tsv
//! ```
//!
//! Only quiet positions count (the side to move has moves and no capture;
//! where a capture is compulsory the search never stands on the
//! evaluation). The last tenth of each file is held out and its error
//! reported beside the training error, for the hand weights and the fitted
//! ones. Prints the fitted weights as a Rust array and a Markdown table.
//! Options: `--steps N` (default 3000), `--rate R` (default 1.0), `--l2 L`
//! (default 0: the penalty on large weights, `FitOptions::l2`).

use ransom::board::Color;
use ransom::notation::fen;
use ransom::position::Position;
use ransom::search::engine::eval::{
    FULL_BOARD, HAND_WEIGHTS, LOSING_TERM_NAMES, LOSING_TERMS, losing_phase, losing_terms,
};
use ransom::search::engine::fit::{FitOptions, Labelled, fit, mean_error};
use ransom::variants::Antichess;
use std::process::ExitCode;

/// The fitted weights: the opening set, then the ending set.
const TAPERED: usize = 2 * LOSING_TERMS;

type Sample = Labelled<TAPERED>;

/// Each term twice, weighted by how far the position is from the ending
/// and from the opening ([`ransom::search::engine::eval::LosingWeights`]).
fn tapered(terms: &[i32; LOSING_TERMS], phase: i32) -> [f64; TAPERED] {
    let opening = f64::from(phase) / f64::from(FULL_BOARD);
    std::array::from_fn(|i| {
        let t = f64::from(terms[i % LOSING_TERMS]);
        if i < LOSING_TERMS {
            t * opening
        } else {
            t * (1.0 - opening)
        }
    })
}

/// The quiet positions of one file: (training, held out).
fn read(path: &str) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut samples = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let at = || format!("{path}:{}", number + 1);
        let Some((fen_text, result)) = line.split_once('\t') else {
            return Err(format!("{}: expected FEN<TAB>result", at()));
        };
        let white: f64 = result
            .trim()
            .parse()
            .map_err(|_| format!("{}: bad result {result:?}", at()))?;
        if ![0.0, 0.5, 1.0].contains(&white) {
            return Err(format!("{}: result {white} is not 0, 0.5 or 1", at()));
        }
        let pos: Antichess = fen::parse_position(fen_text).map_err(|e| format!("{}: {e}", at()))?;
        let moves = pos.legal_moves();
        if pos.outcome_given(&moves).is_some() || moves.iter().any(|m| m.is_capture()) {
            continue;
        }
        let score = if pos.turn() == Color::White {
            white
        } else {
            1.0 - white
        };
        samples.push(Labelled {
            terms: tapered(
                &losing_terms(pos.state(), pos.turn()),
                losing_phase(pos.state()),
            ),
            score,
        });
    }
    let held = samples.split_off(samples.len() * 9 / 10);
    Ok((samples, held))
}

fn run(args: &[String]) -> Result<(), String> {
    let mut options = FitOptions {
        steps: 3000,
        rate: 1.0,
        l2: 0.0,
    };
    let mut files = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--steps" | "--rate" | "--l2" => {
                let value = rest.next().ok_or(format!("{arg} needs a value"))?;
                let bad = || format!("bad {arg} {value}");
                match arg.as_str() {
                    "--steps" => options.steps = value.parse().map_err(|_| bad())?,
                    "--rate" => options.rate = value.parse().map_err(|_| bad())?,
                    _ => options.l2 = value.parse().map_err(|_| bad())?,
                }
            }
            _ => files.push(arg.clone()),
        }
    }
    if files.is_empty() {
        return Err("usage: tune_losing [--steps N] [--rate R] [--l2 L] FILE...".into());
    }
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for file in &files {
        let (a, b) = read(file)?;
        train.extend(a);
        test.extend(b);
    }
    eprintln!(
        "{} quiet positions to fit, {} held out",
        train.len(),
        test.len()
    );
    let hand: [f64; TAPERED] = std::array::from_fn(|i| {
        let set = if i < LOSING_TERMS {
            &HAND_WEIGHTS.opening
        } else {
            &HAND_WEIGHTS.ending
        };
        f64::from(set[i % LOSING_TERMS])
    });
    let report = |name: &str, w: &[f64; TAPERED]| {
        eprintln!(
            "{name}: error {:.5} (held out {:.5})",
            mean_error(&train, w),
            mean_error(&test, w)
        );
    };
    report("hand weights", &hand);
    let fitted = fit(&train, hand, options, |step, w| {
        if step % 500 == 0 {
            eprintln!("step {step}: error {:.5}", mean_error(&train, w));
        }
    });
    let rounded = fitted.map(|w| w.round() + 0.0);
    report("fitted", &rounded);
    let list = |set: &[f64]| {
        set.iter()
            .map(|w| format!("{w}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!("LosingWeights {{");
    println!("    opening: [{}],", list(&rounded[..LOSING_TERMS]));
    println!("    ending: [{}],", list(&rounded[LOSING_TERMS..]));
    println!("}}");
    println!("| Term | Hand | Opening | Ending |\n|---|---|---|---|");
    for (i, name) in LOSING_TERM_NAMES.iter().enumerate() {
        println!(
            "| {name} | {} | {} | {} |",
            HAND_WEIGHTS.opening[i],
            rounded[i],
            rounded[LOSING_TERMS + i]
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tune_losing: {message}");
            ExitCode::FAILURE
        }
    }
}
