//! What the spine hands a subsystem's handler: the runtime it works on and a way to answer the
//! frontend — and nothing of the other subsystems. What a handler needs of another subsystem's
//! state the spine passes it by name, so each dependency shows at the call in `runtime/host/src/lib.rs`.

use std::cell::Cell;
use std::sync::Arc;

use crossbeam_channel::Sender;

use crate::frontend::Waits;
use nefia_game::display::LogLevel;
use nefia_lua::gui;
use nefia_lua::runtime::Runtime;
use nefia_protocol::message::{HostEvent, Refused};

/// A subsystem's view of the host while it handles a command or builds its view.
pub(crate) struct Cx<'h> {
    /// The world, the Lua state and the project.
    pub runtime: &'h Runtime,
    /// Where answers go.
    events: &'h Sender<HostEvent>,
    /// Set when the frontend has gone: the serve loop ends at the next command.
    shutting_down: &'h Cell<bool>,
    /// Asks the frontend to draw again (from another thread, such as a file watcher's).
    pub repaint: &'h Arc<dyn Fn() + Send + Sync>,
    /// The `query()`/`pause()` waits in progress (the spine's).
    waits: &'h Waits,
}

impl<'h> Cx<'h> {
    /// The context of a host made of these parts.
    pub(crate) fn new(
        runtime: &'h Runtime,
        events: &'h Sender<HostEvent>,
        shutting_down: &'h Cell<bool>,
        repaint: &'h Arc<dyn Fn() + Send + Sync>,
        waits: &'h Waits,
    ) -> Cx<'h> {
        Cx { runtime, events, shutting_down, repaint, waits }
    }

    /// True while a `query()` or `pause()` waits: the command answers it, inside the command
    /// that waits (not a top-level one).
    pub(crate) fn waiting(&self) -> bool {
        self.waits.depth() > 0
    }

    /// True while the game's code waits at a breakpoint (`pause()`, a watch), not in a menu.
    pub(crate) fn at_breakpoint(&self) -> bool {
        self.waits.innermost() == Some(gui::WaitReason::Pause)
    }

    /// Sends an event to the frontend; if it has gone there is no one to tell, and the serve
    /// loop ends at the next command.
    pub(crate) fn send(&self, event: HostEvent) {
        if self.events.send(event).is_err() {
            self.shutting_down.set(true);
        }
    }

    /// Tells the frontend a command was not done.
    pub(crate) fn refuse(&self, refused: Refused) {
        self.send(HostEvent::Refused(refused));
    }

    /// Writes a line to the game's log (the Log pane).
    pub(crate) fn log(&self, level: LogLevel, text: impl Into<String>) {
        gui::log(self.runtime.lua(), level, text.into());
    }
}
