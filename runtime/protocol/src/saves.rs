//! The saves a player can load, each with what its file says of itself ([`SaveListing`]).

use nefia_game::save::SaveHead;

/// A save in the save folder, as a Load game list shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct SaveListing {
    /// Its name (the file's, without `.ron`).
    pub name: String,
    /// When the file was written.
    pub saved: std::time::SystemTime,
    /// Its in-game date, turn, map and player; None if the file could not be read.
    pub head: Option<SaveHead>,
}

impl SaveListing {
    /// "517/08/12 16:00 · turn 42 · town · you, level 3", or why there is nothing to say.
    pub fn describe(&self) -> String {
        let Some(head) = &self.head else { return "unreadable: loading it says why".into() };
        let mut parts = vec![head.clock.date().to_string(), format!("turn {}", head.turn)];
        if let Some(summary) = &head.summary {
            parts.push(summary.map.clone());
            parts.push(match summary.level {
                Some(level) => format!("{}, level {level}", summary.player),
                None => summary.player.clone(),
            });
        }
        parts.join(" · ")
    }
}
