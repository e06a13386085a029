//! Names the hot paths already looked up, by the address of their Lua string.
//!
//! Lua interns short strings, so a field name or chunk name a script uses again and again
//! comes at the same address every time: `obj:calc("hp")` in a loop looks `hp` up once. The
//! cache is direct-mapped (one entry per bucket, a new name replaces the old), so a lookup is
//! one comparison of addresses and one of the bytes, which must still be checked: once Lua
//! collects a string, another may be made at its address.

use std::cell::RefCell;

/// How many names each cache holds (a power of two).
const BUCKETS: usize = 256;

/// One remembered name: the address and bytes it came with and what it stands for.
struct Entry<T> {
    address: usize,
    name: Box<[u8]>,
    value: T,
}

/// Whether two names are the same bytes. A field name is short: comparing it here costs `mod`
/// less than the call to `memcmp` that `==` on slices makes (a chunk's name is long, and
/// `memcmp` compares it faster).
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    const SHORT: usize = 16;
    a.len() == b.len() && if a.len() <= SHORT { a.iter().zip(b).all(|(x, y)| x == y) } else { a == b }
}

/// A direct-mapped cache from a Lua string (its address and bytes) to `T`.
pub(crate) struct NameCache<T> {
    entries: RefCell<Vec<Option<Entry<T>>>>,
}

impl<T> Default for NameCache<T> {
    fn default() -> Self {
        NameCache { entries: RefCell::new(std::iter::repeat_with(|| None).take(BUCKETS).collect()) }
    }
}

impl<T: Copy> NameCache<T> {
    /// The bucket of the string at `address` (strings are at least 8-aligned; the bits above
    /// spread neighbours over the buckets).
    fn bucket(address: usize) -> usize {
        ((address >> 3) ^ (address >> 11)) % BUCKETS
    }

    /// What `name` (the bytes of a Lua string, at their address in the Lua heap) was
    /// remembered to stand for, if it was.
    pub(crate) fn get(&self, name: &[u8]) -> Option<T> {
        let address = name.as_ptr() as usize;
        match self.entries.borrow().get(Self::bucket(address)) {
            Some(Some(entry)) if entry.address == address && same_bytes(&entry.name, name) => Some(entry.value),
            _ => None,
        }
    }

    /// Remembers that `name` stands for `value`, in place of the bucket's last name.
    pub(crate) fn insert(&self, name: &[u8], value: T) {
        let address = name.as_ptr() as usize;
        if let Some(slot) = self.entries.borrow_mut().get_mut(Self::bucket(address)) {
            *slot = Some(Entry { address, name: name.into(), value });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_at_a_reused_address_is_not_taken_for_the_old_one() {
        let cache = NameCache::default();
        let mut text = *b"hp";
        assert_eq!(cache.get(&text), None);
        cache.insert(&text, 1);
        assert_eq!(cache.get(&text), Some(1), "the same string at the same address is remembered");
        text.copy_from_slice(b"dv");
        assert_eq!(cache.get(&text), None, "other bytes at that address are another name");
    }

    #[test]
    fn names_short_and_long_are_told_apart_by_every_byte() {
        for length in [1, 15, 16, 17, 60] {
            let name = vec![b'a'; length];
            for at in 0..length {
                let mut other = name.clone();
                other[at] = b'b';
                assert!(!same_bytes(&name, &other), "{length} bytes differing at {at}");
            }
            assert!(same_bytes(&name, &name.clone()), "{length} bytes, equal");
            assert!(!same_bytes(&name, &name[1..]), "{length} bytes against one fewer");
        }
    }
}
