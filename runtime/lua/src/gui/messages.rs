//! The messages to the player (`Gui.mes`, seed: the message window) and the log (`Log.info`
//! and the engine's own lines): kept for the HUD and sent to whoever shows text.

use mlua::Lua;

use super::{GuiState, HISTORY};
use crate::engine;
use nefia_game::display::{LogLevel, LogLine};
use nefia_protocol::output::Output;

impl GuiState {
    /// The last `count` messages of `Gui.mes`, oldest first.
    pub fn messages(&self, count: usize) -> impl Iterator<Item = &str> {
        self.messages.iter().skip(self.messages.len().saturating_sub(count)).map(String::as_str)
    }

    /// The last `count` log lines, oldest first.
    pub fn log(&self, count: usize) -> impl Iterator<Item = &LogLine> {
        self.log.iter().skip(self.log.len().saturating_sub(count))
    }

    pub(super) fn push_message(&mut self, text: String) {
        if self.messages.len() == HISTORY {
            self.messages.pop_front();
        }
        self.messages.push_back(text);
    }

    pub(super) fn push_log(&mut self, line: LogLine) {
        if self.log.len() == HISTORY {
            self.log.pop_front();
        }
        self.log.push_back(line);
        self.logged += 1;
    }

    /// Forgets the messages to the player (a new game, or back to editing).
    pub fn clear_messages(&mut self) {
        self.messages.clear();
    }

    /// The messages to the player as they are, to put back with [`GuiState::set_messages`]
    /// (stepping back a turn shows the messages of that turn).
    pub fn message_log(&self) -> std::collections::VecDeque<String> {
        self.messages.clone()
    }

    /// Replaces the messages to the player.
    pub fn set_messages(&mut self, messages: std::collections::VecDeque<String>) {
        self.messages = messages;
    }
}

/// A Lua value as the text to show (strings as they are, anything else as `tostring` says).
pub(super) fn text_of(value: &mlua::Value) -> mlua::Result<String> {
    match value {
        mlua::Value::String(s) => Ok(s.to_str()?.to_owned()),
        other => other.to_string(),
    }
}

/// Shows a message to the player (the seed's `Gui.mes`).
pub fn message(lua: &Lua, text: String) {
    let engine = engine(lua);
    engine.gui.borrow_mut().push_message(text.clone());
    engine.emit(Output::Message(text));
}

/// Records a log line and shows it in the log.
pub fn log(lua: &Lua, level: LogLevel, text: String) {
    let engine = engine(lua);
    let line = LogLine { level, text };
    engine.gui.borrow_mut().push_log(line.clone());
    engine.emit(Output::Log(line));
}
