//! Interned names: field names, prototype ids, data type ids, tile ids.
//!
//! A [`Symbol`] is a small copyable handle to a string that lives for the rest of the
//! process. Objects key their fields by symbol, so a field lookup from Lua costs one hash of
//! the name instead of a string comparison per field. The table is global so that every
//! thread (the runtime thread and the editor) can turn a symbol back into its name.

use std::fmt;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{OnceLock, RwLock};

use rustc_hash::FxHashMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An interned string. Two symbols are equal exactly when their names are equal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(NonZeroU32);

/// The index from names to symbols; symbols to names are in [`NAMES`].
#[derive(Default)]
struct Table {
    by_name: FxHashMap<&'static str, Symbol>,
}

/// Names are kept in segments of this many, made as they fill.
const SEGMENT: usize = 4096;

/// How many segments there can be: 16 million names, far past what the memory limit lets
/// scripts intern (each name counts its bytes and 16 more).
const SEGMENTS: usize = 4096;

/// Each symbol's name, by its number − 1: written once (under the table's write lock) before
/// the symbol is handed out, then read without a lock, since every field read, save and
/// state hash turns symbols back into names.
static NAMES: [OnceLock<Box<[OnceLock<&'static str>]>>; SEGMENTS] = [const { OnceLock::new() }; SEGMENTS];

/// How many symbols were made: each one's name is in [`NAMES`] before it is counted.
static MADE: AtomicU32 = AtomicU32::new(0);

/// Bytes of every name interned so far (names live for the rest of the process).
static INTERNED_BYTES: AtomicUsize = AtomicUsize::new(0);

fn table() -> &'static RwLock<Table> {
    static TABLE: OnceLock<RwLock<Table>> = OnceLock::new();
    TABLE.get_or_init(Default::default)
}

impl Symbol {
    /// Returns the symbol for `name`, creating it on first use.
    pub fn intern(name: &str) -> Symbol {
        if let Some(symbol) = Symbol::lookup(name) {
            return symbol;
        }
        let mut table = table().write().unwrap_or_else(|e| e.into_inner());
        if let Some(&symbol) = table.by_name.get(name) {
            return symbol;
        }
        INTERNED_BYTES.fetch_add(name.len() + size_of::<Symbol>() * 4, Ordering::Relaxed);
        let name: &'static str = Box::leak(name.to_owned().into_boxed_str());
        let slot = table.by_name.len();
        assert!(slot < SEGMENT * SEGMENTS, "more than {} distinct names", SEGMENT * SEGMENTS);
        let segment = NAMES[slot / SEGMENT].get_or_init(|| (0..SEGMENT).map(|_| OnceLock::new()).collect());
        // The slot is new: nothing else ever writes it.
        let _ = segment[slot % SEGMENT].set(name);
        let index = u32::try_from(slot + 1).expect("fewer names than u32::MAX");
        let symbol = Symbol(NonZeroU32::new(index).expect("index starts at 1"));
        table.by_name.insert(name, symbol);
        MADE.store(index, Ordering::Release);
        symbol
    }

    /// One bit of 64 for this symbol (symbols 64 apart share one): sets of fields as a mask
    /// that may say a field is in when another is, never out when it is in.
    pub fn bit(self) -> u64 {
        1 << (self.0.get() % 64)
    }

    /// Returns the symbol for `name` if it was ever interned. Reading a field that no object
    /// has ever had needs no new symbol.
    pub fn lookup(name: &str) -> Option<Symbol> {
        let table = table().read().unwrap_or_else(|e| e.into_inner());
        table.by_name.get(name).copied()
    }

    /// How many bytes the interned names hold (with their index): what the memory limit
    /// counts for names made from Lua.
    pub fn interned_bytes() -> usize {
        INTERNED_BYTES.load(Ordering::Relaxed)
    }

    /// The symbol's number: what a table of integers keeps it as (see
    /// [`Symbol::from_number`]).
    pub fn number(self) -> u32 {
        self.0.get()
    }

    /// The symbol numbered `number`, if one was ever made.
    pub fn from_number(number: u32) -> Option<Symbol> {
        (number <= MADE.load(Ordering::Acquire)).then(|| NonZeroU32::new(number).map(Symbol)).flatten()
    }

    /// The symbol's name.
    pub fn as_str(self) -> &'static str {
        let slot = self.0.get() as usize - 1;
        let segment = NAMES[slot / SEGMENT].get().expect("a symbol's segment is made before the symbol");
        segment[slot % SEGMENT].get().expect("a symbol's name is set before the symbol is made")
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl From<&str> for Symbol {
    fn from(name: &str) -> Symbol {
        Symbol::intern(name)
    }
}

impl Serialize for Symbol {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Symbol {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Symbol, D::Error> {
        let name = std::borrow::Cow::<str>::deserialize(deserializer)?;
        Ok(Symbol::intern(&name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interning_is_stable_and_reversible() {
        let a = Symbol::intern("symbol_test_fov");
        assert_eq!(a, Symbol::intern("symbol_test_fov"));
        assert_eq!(a.as_str(), "symbol_test_fov");
        assert_eq!(Symbol::lookup("symbol_test_fov"), Some(a));
        assert_eq!(Symbol::lookup("symbol_test_never_interned"), None);
        assert_eq!(Symbol::from_number(a.number()), Some(a));
        for never in [0, u32::MAX, u32::MAX / 2] {
            assert_eq!(Symbol::from_number(never), None, "no symbol numbered {never}");
        }
    }
}
