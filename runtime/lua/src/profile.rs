//! The turn profiler: where each turn's time went — each event handler, UI layer, widget and
//! map draw layer, and the engine's own work (sight, the snapshot for the editor, the
//! recorder) — named with its mod and file:line.
//!
//! Work is measured in scopes. A scope's own time is its time less that of the scopes it
//! opened, so nothing is counted twice and a turn's entries add up to the time spent in
//! scopes. A turn ends when the game's turn passes (`World.pass_turn`); a scope open then is
//! split there, so each turn gets what ran in it. Time outside every scope (the editor
//! waiting for a key) is no turn's. Off, a scope costs one test of a flag.

use nefia_protocol::profile::{ProfileKey, ProfileKind, Spent, TurnProfile};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

/// How many turns the profiler keeps.
pub const KEPT_TURNS: usize = 300;

/// A scope being measured.
struct Open {
    key: ProfileKey,
    /// When it started, or last was split at a turn's end.
    since: Instant,
    /// The time of the scopes it opened since then.
    children: Duration,
}

/// The profiler's state (in the engine).
#[derive(Default)]
pub struct Profiler {
    on: Cell<bool>,
    open: RefCell<Vec<Open>>,
    turn: RefCell<FxHashMap<ProfileKey, Spent>>,
    /// The turn now being profiled.
    current_turn: Cell<u64>,
    turns: RefCell<VecDeque<std::sync::Arc<TurnProfile>>>,
    /// Grows with each turn kept (the editor's view is rebuilt when it changes).
    revision: Cell<u64>,
    /// How many turns are kept (0: [`KEPT_TURNS`]).
    keep: Cell<usize>,
}

impl Profiler {
    /// True while profiling.
    pub fn is_on(&self) -> bool {
        self.on.get()
    }

    /// Starts profiling at game turn `turn`, or stops (the kept turns stay).
    pub fn set_on(&self, on: bool, turn: u64) {
        if on && !self.on.get() {
            self.turn.borrow_mut().clear();
            self.current_turn.set(turn);
        }
        self.on.set(on);
    }

    /// Runs `work`, measured as the scope `key()` makes when profiling.
    pub fn scope<T>(&self, key: impl FnOnce() -> ProfileKey, work: impl FnOnce() -> T) -> T {
        if !self.on.get() {
            return work();
        }
        self.open.borrow_mut().push(Open { key: key(), since: Instant::now(), children: Duration::ZERO });
        let result = work();
        let now = Instant::now();
        let mut open = self.open.borrow_mut();
        // Profiling may have been turned on inside the work: nothing to close then.
        if let Some(scope) = open.pop() {
            let spent = now - scope.since;
            if let Some(parent) = open.last_mut() {
                parent.children += spent;
            }
            let mut turn = self.turn.borrow_mut();
            let entry = turn.entry(scope.key).or_default();
            entry.time += spent.saturating_sub(scope.children);
            entry.calls += 1;
        }
        result
    }

    /// Runs `wait` (a menu or a breakpoint waiting for the player) with the clock of the
    /// open scopes stopped: waiting is nobody's time. What runs meanwhile is measured on its
    /// own.
    pub fn waiting<T>(&self, wait: impl FnOnce() -> T) -> T {
        if !self.on.get() {
            return wait();
        }
        let mut stopped = std::mem::take(&mut *self.open.borrow_mut());
        self.account(&mut stopped, Instant::now());
        let result = wait();
        let now = Instant::now();
        for scope in &mut stopped {
            scope.since = now;
        }
        let mut open = self.open.borrow_mut();
        stopped.append(&mut open);
        *open = stopped;
        result
    }

    /// Adds the own time of `scopes` until `now` to this turn and restarts their clocks
    /// there.
    fn account(&self, scopes: &mut [Open], now: Instant) {
        let mut turn = self.turn.borrow_mut();
        for scope in scopes {
            let own = (now - scope.since).saturating_sub(scope.children);
            turn.entry(scope.key.clone()).or_default().time += own;
            scope.since = now;
            scope.children = Duration::ZERO;
        }
    }

    /// The game's turn passed to `next`: the turn so far is kept, and the open scopes go
    /// on in the next one.
    pub fn turn_passed(&self, next: u64) {
        if !self.on.get() {
            return;
        }
        // Each open scope's time so far is the ending turn's.
        self.account(&mut self.open.borrow_mut(), Instant::now());
        let mut turn = self.turn.borrow_mut();
        let mut entries: Vec<(ProfileKey, Spent)> = turn.drain().collect();
        entries.sort_by(|a, b| b.1.time.cmp(&a.1.time).then_with(|| a.0.cmp(&b.0)));
        let total = entries.iter().map(|(_, spent)| spent.time).sum();
        let mut turns = self.turns.borrow_mut();
        turns.push_back(std::sync::Arc::new(TurnProfile { turn: self.current_turn.get(), total, entries }));
        let keep = match self.keep.get() {
            0 => KEPT_TURNS,
            keep => keep,
        };
        while turns.len() > keep {
            turns.pop_front();
        }
        self.revision.set(self.revision.get() + 1);
        self.current_turn.set(next);
    }

    /// The kept turns, oldest first.
    pub fn turns(&self) -> Vec<std::sync::Arc<TurnProfile>> {
        self.turns.borrow().iter().cloned().collect()
    }

    /// Keeps the last `turns` turns instead of [`KEPT_TURNS`] (a replay keeps them all).
    pub fn keep_turns(&self, turns: usize) {
        self.keep.set(turns.max(1));
    }

    /// Grows whenever a turn is kept or the turns are cleared.
    pub fn revision(&self) -> u64 {
        self.revision.get()
    }

    /// Forgets the kept turns.
    pub fn clear(&self) {
        self.turns.borrow_mut().clear();
        self.revision.set(self.revision.get() + 1);
    }
}

/// An engine scope's key.
pub fn engine_work(name: &str) -> ProfileKey {
    ProfileKey { kind: ProfileKind::Engine, name: name.to_owned(), at: String::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_times_add_up_and_a_turn_splits_an_open_scope() {
        let profiler = Profiler::default();
        profiler.scope(|| engine_work("off"), || ());
        profiler.set_on(true, 1);
        let wait = |ms| std::thread::sleep(Duration::from_millis(ms));
        profiler.scope(
            || engine_work("outer"),
            || {
                // The inner scope far longer than the outer's own time, so an oversleep on a
                // loaded machine does not change which is larger.
                wait(4);
                profiler.scope(|| engine_work("inner"), || wait(60));
                profiler.turn_passed(2);
                wait(3);
            },
        );
        profiler.turn_passed(3);
        let turns = profiler.turns();
        assert_eq!(turns.len(), 2, "two turns, nothing kept while off");
        let time = |turn: &TurnProfile, name: &str| {
            turn.entries.iter().find(|(k, _)| k.name == name).map_or(Duration::ZERO, |(_, s)| s.time)
        };
        let ms = Duration::from_millis;
        assert!(time(&turns[0], "inner") >= ms(60) && time(&turns[0], "outer") >= ms(4));
        assert!(time(&turns[0], "outer") < time(&turns[0], "inner"), "the inner scope is not counted twice");
        assert!(time(&turns[1], "outer") >= ms(3) && time(&turns[1], "inner") == Duration::ZERO);
        assert_eq!(turns[0].total, turns[0].entries.iter().map(|(_, s)| s.time).sum::<Duration>());
        assert_eq!((turns[0].turn, turns[1].turn), (1, 2));
        assert_eq!(turns[0].entries[0].0.name, "inner", "slowest first");
    }
}
