//! The in-game calendar (seed: `World.date()`).

/// The in-game calendar: seconds since the start of year 0, twelve months of thirty days.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Clock {
    /// Seconds since the epoch.
    pub seconds: u64,
}

/// A calendar date read from the [`Clock`] (`World.date()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Date {
    /// Year.
    pub year: u64,
    /// Month, 1–12.
    pub month: u64,
    /// Day, 1–30.
    pub day: u64,
    /// Hour, 0–23.
    pub hour: u64,
    /// Minute, 0–59.
    pub minute: u64,
    /// Second, 0–59.
    pub second: u64,
}

impl std::fmt::Display for Date {
    /// "517/08/12 16:00", as the status bar and the Load game list show it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{:02}/{:02} {:02}:{:02}", self.year, self.month, self.day, self.hour, self.minute)
    }
}

impl Clock {
    const DAY: u64 = 24 * 3600;
    const MONTH: u64 = 30 * Clock::DAY;
    const YEAR: u64 = 12 * Clock::MONTH;

    /// The clock at a calendar date.
    pub fn at(year: u64, month: u64, day: u64, hour: u64) -> Clock {
        Clock { seconds: year * Self::YEAR + (month - 1) * Self::MONTH + (day - 1) * Self::DAY + hour * 3600 }
    }

    /// The calendar date.
    pub fn date(self) -> Date {
        let s = self.seconds;
        Date {
            year: s / Self::YEAR,
            month: s % Self::YEAR / Self::MONTH + 1,
            day: s % Self::MONTH / Self::DAY + 1,
            hour: s % Self::DAY / 3600,
            minute: s % 3600 / 60,
            second: s % 60,
        }
    }

    /// Whole hours since the epoch (the seed's `World.date():hours()`).
    pub fn hours(self) -> u64 {
        self.seconds / 3600
    }
}

impl Default for Clock {
    /// The 12th of the 8th month of 517, 16:00: where Elona's story begins.
    fn default() -> Clock {
        Clock::at(517, 8, 12, 16)
    }
}

/// In-game seconds a turn takes.
pub const TURN_SECONDS: u64 = 60;
