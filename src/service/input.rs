//! Reading requests: variants, positions, moves, query strings and JSON
//! bodies, each failure a clear [`ApiError`].

use super::error::ApiError;
use crate::analysis::MoveWindow;
use crate::notation::{fen, parse_turn};
use crate::position::Position;
use crate::variants::{AnyPosition, Variant};
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query};
use serde::de::DeserializeOwned;
use std::collections::HashMap;

/// A request's query string: each parameter's value by name.
pub type QueryParams = HashMap<String, String>;

/// The variant named in the path; 404 for an unknown name, 400 for a path
/// that does not decode.
pub fn variant(path: Result<Path<String>, PathRejection>) -> Result<Variant, ApiError> {
    let Path(name) = path.map_err(|e| ApiError::bad_request(format!("bad path: {e}")))?;
    name.parse().map_err(|e: crate::variants::UnknownVariant| {
        ApiError::not_found("unknown-variant", e.to_string())
    })
}

/// The position of `fen` (the variant's start without one; an empty
/// `fen` is an error, as on the command line).
pub fn position(variant: Variant, fen_text: Option<&str>) -> Result<AnyPosition, ApiError> {
    match fen_text.map(str::trim) {
        None => Ok(AnyPosition::start(variant)),
        Some("") => Err(ApiError::bad_fen(
            "empty FEN (leave the fen out for the start position)",
        )),
        Some(text) => {
            let setup = fen::parse(text).map_err(|e| ApiError::bad_fen(format!("{e}")))?;
            AnyPosition::from_setup(variant, &setup)
                .map_err(|e| ApiError::bad_fen(format!("not a legal {variant} position: {e}")))
        }
    }
}

/// Moves listed when a request does not say (`limit`).
pub const DEFAULT_MOVE_LIMIT: usize = 256;
/// The most moves one request may list (`limit`).
pub const MAX_MOVE_LIMIT: usize = 2000;

/// The window of legal moves a lookup lists: `limit` (1 to
/// [`MAX_MOVE_LIMIT`], default [`DEFAULT_MOVE_LIMIT`]) moves from `offset`
/// (default 0), in the generator's order.
pub fn move_window(params: &QueryParams) -> Result<MoveWindow, ApiError> {
    let number = |name: &str, default: usize, range: std::ops::RangeInclusive<usize>| {
        let Some(text) = params.get(name) else {
            return Ok(default);
        };
        text.parse::<usize>()
            .ok()
            .filter(|n| range.contains(n))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "{name} must be a whole number from {} to {}, not '{text}'",
                    range.start(),
                    range.end()
                ))
            })
    };
    Ok(MoveWindow {
        offset: number("offset", 0, 0..=100_000)?,
        limit: number("limit", DEFAULT_MOVE_LIMIT, 1..=MAX_MOVE_LIMIT)?,
    })
}

/// Plays `moves` (SAN or UCI; in Hit-and-Run chess a whole turn may be
/// one entry, its sub-moves joined by a comma, RULES R8) from `pos`: the
/// position reached and the moves in UCI, one per (sub-)move.
pub fn play<P: Position>(pos: &P, moves: &[String]) -> Result<(P, Vec<String>), ApiError> {
    let mut pos = pos.clone();
    let mut line = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let turn = parse_turn(&pos, text).map_err(|e| {
            ApiError::bad_move(format!(
                "move {} ('{text}'): {e} in {}",
                i + 1,
                fen::write(&pos)
            ))
        })?;
        for m in turn {
            line.push(crate::notation::uci::write(m));
            pos.play_unchecked(m);
        }
    }
    Ok((pos, line))
}

/// The query string's parameters; 400 when it cannot be read.
pub fn query(q: Result<Query<QueryParams>, QueryRejection>) -> Result<QueryParams, ApiError> {
    q.map(|Query(map)| map)
        .map_err(|e| ApiError::bad_request(format!("bad query string: {e}")))
}

/// A JSON body of type `T`: 400 when it is not JSON or lacks a field (the
/// message names what is wrong). Its size and arrival were checked before
/// routing (`body::read_body`: 413, 408).
pub fn json_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes =
        body.map_err(|e| ApiError::bad_request(format!("cannot read the request body: {e}")))?;
    if bytes.is_empty() {
        return Err(ApiError::bad_request(
            "the request body is empty; send a JSON object",
        ));
    }
    // Every request body is an object; anything else is named as such
    // (serde would speak of the request's Rust type).
    if bytes.trim_ascii_start().first() != Some(&b'{') {
        return Err(ApiError::bad_request(
            "bad JSON body: expected a JSON object such as {\"fen\": \"...\"}",
        ));
    }
    serde_json::from_slice(&bytes).map_err(|e| {
        // serde names Rust's number types; a client knows JSON's.
        let message = ["u8", "u16", "u32", "u64", "usize"]
            .iter()
            .fold(e.to_string(), |m, t| {
                m.replace(&format!("expected {t}"), "expected a whole number")
            });
        ApiError::bad_request(format!("bad JSON body: {message}"))
    })
}

/// An optional numeric query parameter; 400 when it is not a number.
pub fn number<T: std::str::FromStr>(
    params: &QueryParams,
    key: &str,
) -> Result<Option<T>, ApiError> {
    params
        .get(key)
        .map(|v| {
            v.trim()
                .parse::<T>()
                .map_err(|_| ApiError::bad_request(format!("{key}: '{v}' is not a valid number")))
        })
        .transpose()
}
