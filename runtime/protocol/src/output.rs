//! What the engine tells people as it runs: the text it prints, logs and shows the player
//! ([`Output`]), and how far long work has come ([`Progress`]).

use std::rc::Rc;

/// Text the engine produces for people: `print` output, `Gui.mes` messages and log lines.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// A line from `print`.
    Print(String),
    /// A message to the player from `Gui.mes`.
    Message(String),
    /// A log line (`Log.info`, failures of widgets, …).
    Log(nefia_game::display::LogLine),
}

/// A step of long work (opening a project, loading a save), for a status bar or a terminal
/// progress bar: what is being done, and how far along the steps of its kind it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// What is being done now ("loading mod elona").
    pub what: String,
    /// Steps done before this one.
    pub done: usize,
    /// Steps in all (0 if not known).
    pub total: usize,
}

/// Where [`Progress`] is told.
pub type ProgressSink = Rc<dyn Fn(&Progress)>;
