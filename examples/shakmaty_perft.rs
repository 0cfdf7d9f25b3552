//! Perft by shakmaty (a dev-dependency), as a process of its own, so that
//! `ransom perft` can be timed against it whole, one thread each:
//!
//! ```sh
//! cargo build --release --example shakmaty_perft
//! time target/release/examples/shakmaty_perft chess "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" 6
//! time RAYON_NUM_THREADS=1 target/release/ransom perft 6
//! ```
//!
//! Variants: `chess`, `antichess`, `crazyhouse`. Prints the node count.

use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, FromSetup, Position};

fn count<P: Position + FromSetup + Clone>(fen: &str, depth: u32) -> Result<u64, String> {
    let pos: P = fen
        .parse::<Fen>()
        .map_err(|e| format!("bad FEN: {e}"))?
        .into_position(CastlingMode::Standard)
        .map_err(|e| format!("illegal position: {e}"))?;
    Ok(shakmaty::perft(&pos, depth))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [variant, fen, depth] = args.as_slice() else {
        eprintln!("usage: shakmaty_perft chess|antichess|crazyhouse FEN DEPTH");
        std::process::exit(2);
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("the depth must be a whole number, not {depth:?}");
        std::process::exit(2);
    };
    let nodes = match variant.as_str() {
        "chess" => count::<shakmaty::Chess>(fen, depth),
        "antichess" => count::<shakmaty::variant::Antichess>(fen, depth),
        "crazyhouse" => count::<shakmaty::variant::Crazyhouse>(fen, depth),
        other => Err(format!(
            "unknown variant {other:?}: chess, antichess or crazyhouse"
        )),
    };
    match nodes {
        Ok(n) => println!("{n}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
