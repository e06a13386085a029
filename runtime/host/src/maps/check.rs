//! The map validators on the map being edited: whenever the current map's content changed
//! (a stroke painted, an object placed, an undo), its `base.map_validator`s run again and the
//! Problems pane shows what they found — updated as you paint, as a code editor's problems
//! are updated as you type. Validators are Lua and may be slow on a large map, so checking
//! takes at most a tenth of the runtime's time: after a check that took 30 ms, the next waits
//! 270 ms, and the last change is always checked once the edits stop. Nothing is checked
//! while playing; the workbench's preview is checked when it is generated.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::cx::Cx;
use nefia_game::map::MapId;
use nefia_protocol::checks::MapProblem;
use nefia_protocol::maps::MapProblemsView;

/// How much of the runtime's time checking may take, as the wait after a check per unit of
/// the check's own time.
const WAIT_PER_CHECK_TIME: u32 = 9;

/// One map checked: which, at which content revision, and what was found.
pub(crate) struct Checked {
    map: MapId,
    revision: u64,
    problems: Arc<Vec<MapProblem>>,
}

impl Checked {
    /// What the validators found on map `map` at content `revision`.
    pub(crate) fn new(map: MapId, revision: u64, problems: Vec<MapProblem>) -> Checked {
        Checked { map, revision, problems: Arc::new(problems) }
    }
}

/// What the validators last found, and when.
pub(crate) struct MapCheck {
    /// The map last checked.
    found: RefCell<Option<Checked>>,
    /// When the last check ended, and how long it took.
    last: Cell<Option<(Instant, Duration)>>,
}

impl MapCheck {
    /// Nothing checked yet.
    pub(crate) fn new() -> MapCheck {
        MapCheck { found: RefCell::new(None), last: Cell::new(None) }
    }

    /// Takes what was found as what its map has (found here, or elsewhere: the workbench
    /// validates its preview as it makes it).
    pub(crate) fn record(&self, checked: Checked) {
        *self.found.borrow_mut() = Some(checked);
    }

    /// [`MapCheck::record`]s what was found, if anything was.
    pub(crate) fn record_some(&self, checked: Option<Checked>) {
        if let Some(checked) = checked {
            self.record(checked);
        }
    }
}

impl MapCheck {
    /// The current map and its content revision, if it should be checked and is not yet;
    /// `may_check` is the host's say (not while playing, paused, on the error screen or
    /// replaying headless).
    fn unchecked(&self, cx: &Cx, may_check: bool) -> Option<(MapId, u64)> {
        if !may_check {
            return None;
        }
        let world = cx.runtime.world();
        let map = world.current_map()?;
        let revision = world.map(map).ok()?.content_revision();
        let found = self.found.borrow();
        let checked = found.as_ref().is_some_and(|c| (c.map, c.revision) == (map, revision));
        (!checked).then_some((map, revision))
    }

    /// True while the current map waits for a check (the serve loop wakes to do it).
    pub(crate) fn waiting(&self, cx: &Cx, may_check: bool) -> bool {
        self.unchecked(cx, may_check).is_some()
    }

    /// The current map and its revision if it changed since it was checked and checking has
    /// had its rest (see the module's text): the serve loop then runs [`MapCheck::check`] under
    /// the profiler's scope for it.
    pub(crate) fn due(&self, cx: &Cx, may_check: bool) -> Option<(MapId, u64)> {
        let due = self.unchecked(cx, may_check)?;
        match self.last.get() {
            Some((ended, took)) if ended.elapsed() < took * WAIT_PER_CHECK_TIME => None,
            _ => Some(due),
        }
    }

    /// Runs the validators on `map` at content revision `revision` (as [`MapCheck::due`] gave
    /// them) and keeps what they found.
    pub(crate) fn check(&self, cx: &Cx, (map, revision): (MapId, u64)) {
        let started = Instant::now();
        let lua = cx.runtime.lua();
        let problems = cx.runtime.engine().limits().run(|| nefia_lua::mapgen::validate(lua, map));
        let problems = problems.unwrap_or_else(|error| {
            let message = format!("the validators could not run: {}", nefia_lua::error::failure(error).message);
            vec![MapProblem { validator: "map validators".into(), x: 0, y: 0, message }]
        });
        self.record(Checked::new(map, revision, problems));
        self.last.set(Some((Instant::now(), started.elapsed())));
    }

    /// The current map's problems for the snapshot (none while playing).
    pub(crate) fn view(&self, cx: &Cx, playing: bool, may_check: bool) -> MapProblemsView {
        if playing {
            return MapProblemsView::default();
        }
        let current = cx.runtime.world().current_map();
        let found = self.found.borrow();
        match found.as_ref().filter(|c| Some(c.map) == current) {
            Some(c) => MapProblemsView {
                map: Some(c.map),
                problems: c.problems.clone(),
                stale: self.unchecked(cx, may_check).is_some(),
            },
            None => MapProblemsView { map: current, problems: Arc::default(), stale: current.is_some() },
        }
    }
}
