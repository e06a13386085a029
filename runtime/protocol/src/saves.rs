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

    /// When it was saved, as of `now`: "saved just now", "saved 5 minutes ago", "saved 3 days
    /// ago", or the date (UTC) past two months.
    pub fn saved_ago(&self, now: std::time::SystemTime) -> String {
        let seconds = now.duration_since(self.saved).map_or(0, |d| d.as_secs());
        let ago = |n: u64, unit: &str| format!("saved {n} {unit}{} ago", if n == 1 { "" } else { "s" });
        match seconds {
            0..60 => "saved just now".to_owned(),
            60..3_600 => ago(seconds / 60, "minute"),
            3_600..86_400 => ago(seconds / 3_600, "hour"),
            86_400..5_184_000 => ago(seconds / 86_400, "day"),
            _ => {
                let since_epoch = self.saved.duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
                format!("saved on {} UTC", nefia_game::recording::utc_date(since_epoch))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn when_a_save_was_made_is_said_as_a_player_reads_it() {
        let saved = UNIX_EPOCH + Duration::from_secs(1_780_000_000);
        let listing = SaveListing { name: "quicksave".into(), saved, head: None };
        let at = |seconds: u64| listing.saved_ago(saved + Duration::from_secs(seconds));
        assert_eq!(at(5), "saved just now");
        assert_eq!(listing.saved_ago(saved - Duration::from_secs(5)), "saved just now", "a clock set back");
        assert_eq!(at(60), "saved 1 minute ago");
        assert_eq!(at(2 * 3_600 + 5), "saved 2 hours ago");
        assert_eq!(at(3 * 86_400), "saved 3 days ago");
        assert_eq!(at(100 * 86_400), "saved on 2026-05-28 20:26:40 UTC");
    }
}
