//! What the debugging subsystem shows besides the pause: the turn profiler, the watches and
//! the limits of Lua code.

use std::sync::Arc;

use crate::profile::TurnProfile;
use nefia_game::object::Uid;
use nefia_game::world::World;

/// The turn profiler as the Profiler pane shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct ProfileView {
    /// True while profiling.
    pub on: bool,
    /// The turns kept, oldest first.
    pub turns: Arc<Vec<Arc<TurnProfile>>>,
}

/// A watchpoint as the Watches pane and the inspector show it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct WatchView {
    /// Its number.
    pub id: nefia_game::world::WatchId,
    /// The object watched.
    pub uid: Uid,
    /// The object's prototype id, or "(gone)" once it no longer exists.
    pub object: String,
    /// The field.
    pub field: String,
    /// When it stops, in words: "changes", "becomes 3", "changes and its condition holds".
    pub when: String,
    /// On or off.
    pub enabled: bool,
    /// How many times it fired.
    pub hits: u32,
}

/// The world's watches as the editor shows them.
pub fn watch_views(world: &World) -> Vec<WatchView> {
    use nefia_game::world::WatchWhen;
    world
        .watches()
        .list()
        .iter()
        .map(|watch| WatchView {
            id: watch.id,
            uid: watch.uid,
            object: world.object(watch.uid).map_or_else(|_| "(gone)".into(), |o| o.id.to_string()),
            field: watch.field.to_string(),
            when: match (&watch.when, watch.has_condition) {
                (WatchWhen::Changes, false) => "changes".into(),
                (WatchWhen::Changes, true) => "changes and its condition holds".into(),
                (WatchWhen::Becomes(value), _) => format!("becomes {value}"),
            },
            enabled: watch.enabled,
            hits: watch.hits,
        })
        .collect()
}

/// The limits of Lua code as the REPL shows them.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct LimitsView {
    /// The time limit of one evaluation.
    pub time: Option<std::time::Duration>,
    /// The Lua heap limit, in bytes.
    pub memory: Option<usize>,
    /// The Lua heap in use, in bytes.
    pub used: usize,
}
