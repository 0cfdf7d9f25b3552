//! What every prove run sets up before it searches: the book read into the
//! guide, the store opened, the tables at the leaves.

use super::options::{ProveOptions, StoreOptions};
use super::{ProveRunError, RunObserver};
use crate::position::Position;
use crate::search::guide::Book;
use crate::search::leaf_oracle::leaf_oracle;
use crate::search::oracle::Oracle;
use crate::search::scale::ScaleConfig;
use crate::solved::{SolvedStore, packed};
use std::sync::Arc;

/// A run ready to search.
pub(super) struct Prepared<P: Position> {
    /// The search's settings, with the book read.
    pub config: ScaleConfig,
    /// The store.
    pub store: SolvedStore,
    /// The tables at the leaves.
    pub oracle: Option<Box<dyn Oracle<P>>>,
    /// What the report says about the setting up (damage worked around, a
    /// store that keeps nothing of this variant on disk).
    pub notes: Vec<String>,
}

/// `options.config` with the book read for `P`.
pub(super) fn guided_config<P: Position>(
    options: &ProveOptions,
) -> Result<ScaleConfig, ProveRunError> {
    let mut config = options.config.clone();
    if let Some(path) = &options.book {
        config.guide.book = Some(Arc::new(Book::read::<P>(path)?));
    }
    Ok(config)
}

/// Opens the store and the tables and reads the book, telling `observer`
/// what it found.
pub(super) fn prepare<P: Position>(
    options: &ProveOptions,
    observer: &mut dyn RunObserver,
) -> Result<Prepared<P>, ProveRunError> {
    let config = guided_config::<P>(options)?;
    let mut notes = Vec::new();
    let store = open_store::<P>(&options.store, &mut notes)?;
    if let Some(damage) = store.reading().damage_report() {
        // Reported before the search, which goes on with what remains (a
        // lost result is searched again, never taken from a checkpoint).
        observer.warn(&damage);
        notes.push(damage);
    }
    if let Some(dir) = store.dir()
        && store.began_with() > 0
    {
        observer.note(&format!(
            "store {}: {} positions",
            dir.display(),
            store.began_with()
        ));
    }
    if let (Some(book), Some(path)) = (&config.guide.book, &options.book) {
        observer.note(&format!(
            "book {}: {} suggested moves in {} positions, tried first (others deferred ×{})",
            path.display(),
            book.suggestions(),
            book.positions(),
            config.guide.book_defer
        ));
    }
    let oracle = leaf_oracle::<P>(options.tablebases.as_deref(), options.syzygy.as_deref())?;
    Ok(Prepared {
        config,
        store,
        oracle,
        notes,
    })
}

/// The store for `P`'s positions: on disk where one is asked for and `P`'s
/// positions pack, else in memory (with a note saying so).
fn open_store<P: Position>(
    options: &StoreOptions,
    notes: &mut Vec<String>,
) -> Result<SolvedStore, ProveRunError> {
    match &options.dir {
        Some(dir) if packed::supported::<P>() => {
            SolvedStore::open(dir, P::VARIANT, options.memory_bytes, options.wait).map_err(
                |error| ProveRunError::StoreOpen {
                    dir: dir.clone(),
                    error,
                },
            )
        }
        Some(_) => {
            notes.push(format!(
                "the store keeps no {} positions on disk (men off the board or turns in progress): this run keeps its results in memory only",
                P::VARIANT.name()
            ));
            Ok(SolvedStore::in_memory(P::VARIANT, options.memory_bytes))
        }
        None => Ok(SolvedStore::in_memory(P::VARIANT, options.memory_bytes)),
    }
}
