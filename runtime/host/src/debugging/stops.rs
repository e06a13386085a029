//! Where the debugger holds the game: the error screen (an uncaught error in game logic stops
//! the game until Resume or new code) and a break asked for at the next turn boundary (Break).
//!
//! The debugging component owns them ([`super::Debugging::stops`]); the spine lends them by
//! name to play, which drops input on the error screen, takes the break at the next key, and
//! clears both when it puts another state in place (a kept state, the edit state at Stop).

use std::cell::{Cell, RefCell};

use nefia_protocol::failure::GameError;

/// The error screen and the break request.
#[derive(Default)]
pub(crate) struct Stops {
    /// The uncaught error the game stopped on (the error screen), if any.
    error: RefCell<Option<GameError>>,
    /// A break was asked for at the next turn boundary.
    break_requested: Cell<bool>,
    /// The bug report written for the error screen (where, or why not), if one was.
    report: RefCell<Option<Result<std::path::PathBuf, String>>>,
}

impl Stops {
    /// The uncaught error the game stopped on (the error screen), if any.
    pub(crate) fn error(&self) -> Option<GameError> {
        self.error.borrow().clone()
    }

    /// True while the game is stopped on the error screen.
    pub(crate) fn on_error_screen(&self) -> bool {
        self.error.borrow().is_some()
    }

    /// Stops the game on the error screen with `error`.
    pub(crate) fn set_error(&self, error: GameError) {
        *self.error.borrow_mut() = Some(error);
    }

    /// The bug report written for the error screen: where it went, or why it could not be.
    pub(crate) fn report(&self) -> Option<Result<std::path::PathBuf, String>> {
        self.report.borrow().clone()
    }

    /// Notes the bug report written for the error screen (gone with it).
    pub(crate) fn set_report(&self, report: Result<std::path::PathBuf, String>) {
        *self.report.borrow_mut() = Some(report);
    }

    /// Leaves the error screen (new code took, or the game goes on another way).
    pub(crate) fn clear_error(&self) {
        self.error.take();
        self.report.take();
    }

    /// Asks for a break at the next turn boundary.
    pub(crate) fn request_break(&self) {
        self.break_requested.set(true);
    }

    /// True while a break is asked for at the next turn boundary.
    pub(crate) fn break_requested(&self) -> bool {
        self.break_requested.get()
    }

    /// True if a break was asked for at this turn boundary; the request is spent.
    pub(crate) fn take_break_request(&self) -> bool {
        self.break_requested.take()
    }

    /// Another state takes the game's place (a kept state put back, the edit state at Stop):
    /// neither the error nor a break asked for in the old one stays.
    pub(crate) fn clear(&self) {
        self.clear_error();
        self.break_requested.set(false);
    }
}
