//! Who is told when the base values an object shows may have changed.
//!
//! The Lua layer keeps, beside each object handle a script has read fields of, a table of the
//! base values it read (so the next read is a plain table lookup: see `nefia_lua`'s
//! `field_shadow.rs`). Every change of what `obj.field` gives goes through the world or the
//! data registry, which tell the [`BaseChangeListener`] the registry holds: a base value set,
//! modded, reset or put back by undo, an object's prototype changed, a prototype's fields
//! changed (a hotload, an edit of a prototype, the language), the world put back or loaded.

use std::fmt;
use std::rc::Rc;

use crate::ids::Uid;

/// What may have changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseChange {
    /// The base values of one object.
    Object(Uid),
    /// The base values of any object (its prototype's fields, or the whole world, changed).
    Every,
}

/// The function told of each [`BaseChange`], if one is set. It runs while the world is
/// borrowed, so it must not reach the world.
#[derive(Clone, Default)]
pub struct BaseChangeListener(Option<Rc<dyn Fn(BaseChange)>>);

impl BaseChangeListener {
    /// A listener calling `tell`.
    pub fn new(tell: impl Fn(BaseChange) + 'static) -> BaseChangeListener {
        BaseChangeListener(Some(Rc::new(tell)))
    }

    /// Tells the listener, if any, of `change`.
    pub fn notify(&self, change: BaseChange) {
        if let Some(tell) = &self.0 {
            tell(change);
        }
    }
}

impl fmt::Debug for BaseChangeListener {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() { "BaseChangeListener(set)" } else { "BaseChangeListener(none)" })
    }
}
