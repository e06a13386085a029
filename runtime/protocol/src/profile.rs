//! Where a turn's time went, by handler and by kind ([`TurnProfile`]): what the profiler reports.

use rustc_hash::FxHashMap;

use std::time::Duration;

/// What a profiled scope is.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProfileKind {
    /// An event handler.
    Handler,
    /// A UI layer's update or draw, or its answer to a key.
    Layer,
    /// A HUD widget's update or draw.
    Widget,
    /// A map draw layer's update or draw.
    MapLayer,
    /// The engine's own work.
    Engine,
    /// A part of a script it named itself (`Debug.profile_scope`).
    Script,
}

impl ProfileKind {
    /// The kind as the Profiler pane names it.
    pub fn name(self) -> &'static str {
        match self {
            ProfileKind::Handler => "handler",
            ProfileKind::Layer => "UI layer",
            ProfileKind::Widget => "widget",
            ProfileKind::MapLayer => "map layer",
            ProfileKind::Engine => "engine",
            ProfileKind::Script => "script",
        }
    }
}

/// What a profile entry measures: its kind, its name and where it is defined.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProfileKey {
    /// Its kind.
    pub kind: ProfileKind,
    /// `base.on_key_pressed · elona.play`, `widget 'hp'`, `sight`.
    pub name: String,
    /// `mods/elona/game/commands.lua:181`; empty for the engine's work.
    pub at: String,
}

/// The time one entry took in a turn.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Spent {
    /// Its own time (without the scopes it opened).
    pub time: Duration,
    /// How many times it ran.
    pub calls: u32,
}

/// One turn's profile.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct TurnProfile {
    /// The game turn.
    pub turn: u64,
    /// The time spent in scopes during the turn: the sum of the entries.
    pub total: Duration,
    /// The entries, slowest first.
    pub entries: Vec<(ProfileKey, Spent)>,
}

/// The entries of `turns` summed, slowest first (`nefia replay --profile`).
pub fn summed(turns: &[std::sync::Arc<TurnProfile>]) -> Vec<(ProfileKey, Spent)> {
    let mut sums: FxHashMap<ProfileKey, Spent> = FxHashMap::default();
    for (key, spent) in turns.iter().flat_map(|t| &t.entries) {
        let sum = sums.entry(key.clone()).or_default();
        sum.time += spent.time;
        sum.calls += spent.calls;
    }
    let mut entries: Vec<_> = sums.into_iter().collect();
    entries.sort_by(|a, b| b.1.time.cmp(&a.1.time).then_with(|| a.0.cmp(&b.0)));
    entries
}
