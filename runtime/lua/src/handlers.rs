//! Who handles what: the event registry (each event's handlers in the order they run), the
//! handlers objects have of their own and from their prototypes, and the merge of both that a
//! trigger runs ([`handlers_for`]). `event.rs` (`Event.register`, `Event.trigger`) and
//! `object_events.rs` (`obj:connect_self`, a prototype's `events`) keep them.

use std::rc::Rc;

use mlua::Function;
use rustc_hash::FxHashMap;

use super::Engine;
use nefia_game::data::OnDuplicate;
use nefia_game::moddable::Origin;
use nefia_game::object::Uid;
use nefia_game::symbol::Symbol;

/// The priority of a handler registered without one.
pub const DEFAULT_PRIORITY: i64 = 100_000;

/// One bound handler.
#[derive(Clone)]
pub struct Handler {
    /// Its name, unique per event.
    pub name: String,
    /// Lower runs first.
    pub priority: i64,
    /// The Lua function.
    pub func: Function,
    /// Where it was registered.
    pub origin: Origin,
    /// Whether the function can see an event's params (it takes two parameters or more, or
    /// any number): a `function(chara)` handler cannot, and is passed nil in their place.
    pub sees_params: bool,
}

impl Handler {
    /// A handler of `func`.
    pub fn new(name: String, priority: i64, func: Function, origin: Origin) -> Handler {
        let info = func.info();
        let sees_params = info.is_vararg || info.num_params >= 2;
        Handler { name, priority, func, origin, sees_params }
    }
}

/// A handler registered under a name the event already has a handler of.
#[derive(Clone, Debug, thiserror::Error)]
#[error(
    "a handler named '{name}' is already registered for '{event}' (at {origin}); pick another name or Event.unregister it first"
)]
pub struct DuplicateHandler {
    /// The name.
    pub name: String,
    /// The event.
    pub event: Symbol,
    /// Where the handler with that name was registered.
    pub origin: Origin,
}

/// Every event's handlers, kept sorted. Cloning is cheap (the lists are shared).
#[derive(Clone, Default)]
pub struct EventRegistry {
    handlers: FxHashMap<Symbol, Rc<[Handler]>>,
}

impl EventRegistry {
    /// True if `event` has any handler.
    pub fn has_handlers(&self, event: Symbol) -> bool {
        self.handlers.get(&event).is_some_and(|h| !h.is_empty())
    }

    /// The handlers of `event` in calling order.
    pub fn handlers(&self, event: Symbol) -> Rc<[Handler]> {
        self.handlers.get(&event).cloned().unwrap_or_else(|| Rc::from([]))
    }

    /// Every event with handlers, and its handlers.
    pub fn all(&self) -> impl Iterator<Item = (Symbol, &[Handler])> {
        self.handlers.iter().map(|(e, h)| (*e, &**h))
    }

    /// Binds a handler. A name already bound is an error unless `on_duplicate` replaces it.
    pub fn register(
        &mut self,
        event: Symbol,
        handler: Handler,
        on_duplicate: OnDuplicate,
    ) -> Result<(), DuplicateHandler> {
        let mut list: Vec<Handler> = self.handlers(event).to_vec();
        if let Some(existing) = list.iter().position(|h| h.name == handler.name) {
            if on_duplicate == OnDuplicate::Error {
                let origin = list[existing].origin.clone();
                return Err(DuplicateHandler { name: handler.name, event, origin });
            }
            list.remove(existing);
        }
        list.push(handler);
        list.sort_by(|a, b| a.priority.cmp(&b.priority).then_with(|| a.name.cmp(&b.name)));
        self.handlers.insert(event, Rc::from(list));
        Ok(())
    }

    /// Unbinds the handler `name` of `event`. Returns false if there was none.
    pub fn unregister(&mut self, event: Symbol, name: &str) -> bool {
        let list: Vec<Handler> = self.handlers(event).iter().filter(|h| h.name != name).cloned().collect();
        let removed = list.len() != self.handlers(event).len();
        self.handlers.insert(event, Rc::from(list));
        removed
    }

    /// Unbinds every handler registered from `file` for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(Symbol, &Handler) -> bool) {
        for (event, list) in self.handlers.iter_mut() {
            let kept: Vec<Handler> = list.iter().filter(|h| keep(*event, h)).cloned().collect();
            if kept.len() != list.len() {
                *list = Rc::from(kept);
            }
        }
    }
}

/// The handlers objects have of their own.
#[derive(Default)]
pub struct ObjectEvents {
    /// Connected with `connect_self`, by object.
    pub(super) connected: FxHashMap<Uid, EventRegistry>,
    /// From prototypes' `events`, by prototype id.
    pub(super) prototypes: FxHashMap<Symbol, EventRegistry>,
}

impl ObjectEvents {
    /// True if no object has a handler of its own (the common case: triggering is then as
    /// fast as without this).
    pub fn is_empty(&self) -> bool {
        self.connected.is_empty() && self.prototypes.is_empty()
    }

    /// True if object `uid` of prototype `proto` has a handler of its own for `event`:
    /// two lookups, where [`ObjectEvents::handlers`] gathers them.
    pub fn has_handlers(&self, uid: Uid, proto: Symbol, event: Symbol) -> bool {
        let has = |registry: Option<&EventRegistry>| registry.is_some_and(|r| r.has_handlers(event));
        has(self.connected.get(&uid)) || has(self.prototypes.get(&proto))
    }

    /// Forgets every connected handler (a game was loaded: they are not saved).
    pub fn forget_connected(&mut self) {
        self.connected.clear();
    }

    /// The handlers of `event` object `uid` of prototype `proto` has of its own, in calling
    /// order: its prototype's, with connected ones of the same name in their place.
    pub fn handlers(&self, uid: Uid, proto: Symbol, event: Symbol) -> Vec<Handler> {
        let connected = self.connected.get(&uid).map(|r| r.handlers(event));
        let from_proto = self.prototypes.get(&proto).map(|r| r.handlers(event));
        let connected = connected.as_deref().unwrap_or(&[]);
        let mut all: Vec<Handler> = from_proto
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .filter(|h| !connected.iter().any(|c| c.name == h.name))
            .cloned()
            .collect();
        all.extend(connected.iter().cloned());
        all.sort_by(|a, b| a.priority.cmp(&b.priority).then_with(|| a.name.cmp(&b.name)));
        all
    }

    /// The (event, name) of every handler object `uid` of prototype `proto` has: its
    /// prototype's and its own.
    fn handler_names(&self, uid: Uid, proto: Symbol) -> std::collections::BTreeSet<(&'static str, &str)> {
        [self.prototypes.get(&proto), self.connected.get(&uid)]
            .into_iter()
            .flatten()
            .flat_map(|registry| registry.all())
            .flat_map(|(event, handlers)| handlers.iter().map(move |h| (event.as_str(), h.name.as_str())))
            .collect()
    }

    /// The first (event, handler name) one of objects `a` and `b` (of prototypes `proto_a`,
    /// `proto_b`) has and the other lacks, `b`'s extra ones first (OpenNefia's order); None
    /// if their handlers match. What `compare_events` answers and stacking asks.
    pub fn first_difference(
        &self,
        (a, proto_a): (Uid, Symbol),
        (b, proto_b): (Uid, Symbol),
    ) -> Option<(String, String)> {
        let (mine, theirs) = (self.handler_names(a, proto_a), self.handler_names(b, proto_b));
        theirs
            .difference(&mine)
            .chain(mine.difference(&theirs))
            .next()
            .map(|&(event, name)| (event.to_owned(), name.to_owned()))
    }

    /// Every handler object `uid` of prototype `proto` has of its own, by event, for the
    /// inspector: `event · name (priority n) at file:line`, and whether it came from the
    /// prototype.
    pub fn listing(&self, uid: Uid, proto: Symbol) -> Vec<String> {
        let mut rows = Vec::new();
        let sources = [(self.prototypes.get(&proto), " (prototype)"), (self.connected.get(&uid), "")];
        for (registry, from) in sources {
            for (event, handlers) in registry.into_iter().flat_map(|r| r.all()) {
                for handler in handlers {
                    let (name, priority, origin) = (&handler.name, handler.priority, &handler.origin);
                    rows.push(format!("{event} · {name} (priority {priority}){from} at {origin}"));
                }
            }
        }
        rows.sort();
        rows
    }
}

/// The handlers to run for `event` with `receiver`: the global ones, merged with the
/// receiver's own if it is an object that has some.
pub fn handlers_for(engine: &Engine, event: Symbol, receiver: &mlua::Value) -> Rc<[Handler]> {
    let global = engine.events.borrow().handlers(event);
    let own = engine.object_events.borrow();
    if own.is_empty() {
        return global;
    }
    let Some(uid) = super::handle::object_uid(engine, receiver) else { return global };
    let Ok(proto) = engine.world.borrow().object(uid).map(|o| o.id) else { return global };
    let mine = own.handlers(uid, proto, event);
    if mine.is_empty() {
        return global;
    }
    let (before, after): (Vec<Handler>, Vec<Handler>) = mine.into_iter().partition(|h| h.priority < DEFAULT_PRIORITY);
    before.into_iter().chain(global.iter().cloned()).chain(after).collect()
}
