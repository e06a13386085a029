//! The time and memory limits typed in the REPL's Limits popup: seconds or MiB, or a number
//! with a unit (`500 ms`, `2 min`, `2 GiB`), or none, each within sane bounds.

use std::time::Duration;

/// The shortest time limit the popup takes, in milliseconds.
pub(super) const MIN_TIME_LIMIT_MS: u64 = 100;
/// The smallest memory limit the popup takes, in MiB (the engine's own heap needs some).
pub(super) const MIN_MEMORY_MIB: u64 = 16;

/// Why what was typed is not a limit; each says what to type instead.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub(super) enum LimitError {
    /// The text does not start with a number.
    #[error("'{0}' is not a number")]
    NotANumber(String),
    /// The number is below 0 (or not finite).
    #[error("must be 0 or more")]
    Negative,
    /// A time's unit is none of ms, s and min.
    #[error("unknown unit '{0}': use ms, s or min")]
    UnknownTimeUnit(String),
    /// A memory size's unit is none of KiB, MiB and GiB.
    #[error("unknown unit '{0}': use KiB, MiB or GiB")]
    UnknownMemoryUnit(String),
    /// A time below [`MIN_TIME_LIMIT_MS`] or above an hour.
    #[error("between {} ms and 1 h, or none", MIN_TIME_LIMIT_MS)]
    TimeOutOfRange,
    /// A memory size below [`MIN_MEMORY_MIB`] or above 64 GiB.
    #[error("between {} MiB and 64 GiB, or none", MIN_MEMORY_MIB)]
    MemoryOutOfRange,
    /// A memory size the Lua heap already holds more than (its MiB).
    #[error("the Lua heap already holds {0:.0} MiB")]
    BelowUse(f64),
}

/// Splits "2.5 min" into 2.5 and "min"; "none", "0" and "" are `None`.
fn number_and_unit(text: &str) -> Result<Option<(f64, String)>, LimitError> {
    let text = text.trim().to_ascii_lowercase();
    if text.is_empty() || text == "none" || text == "off" {
        return Ok(None);
    }
    let split = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let number: f64 = text[..split].parse().map_err(|_| LimitError::NotANumber(text[..split].to_owned()))?;
    if !number.is_finite() || number < 0.0 {
        return Err(LimitError::Negative);
    }
    Ok((number > 0.0).then(|| (number, text[split..].trim().to_owned())))
}

/// A typed time limit: seconds, or with a unit (ms, s, min); none for no limit.
pub(super) fn parse_time_limit(text: &str) -> Result<Option<Duration>, LimitError> {
    let Some((number, unit)) = number_and_unit(text)? else { return Ok(None) };
    let seconds = match unit.as_str() {
        "" | "s" | "sec" | "secs" | "second" | "seconds" => number,
        "ms" => number / 1000.0,
        "m" | "min" | "mins" | "minute" | "minutes" => number * 60.0,
        other => return Err(LimitError::UnknownTimeUnit(other.to_owned())),
    };
    if seconds * 1000.0 < MIN_TIME_LIMIT_MS as f64 || seconds > 3600.0 {
        return Err(LimitError::TimeOutOfRange);
    }
    Ok(Some(Duration::from_secs_f64(seconds)))
}

/// A typed memory limit in bytes: MiB, or with a unit (KiB, MiB, GiB); none for no limit.
/// It must leave room for what the Lua heap holds now (`used` bytes).
pub(super) fn parse_memory_limit(text: &str, used: usize) -> Result<Option<usize>, LimitError> {
    let Some((number, unit)) = number_and_unit(text)? else { return Ok(None) };
    let mib = match unit.as_str() {
        "" | "m" | "mb" | "mib" => number,
        "k" | "kb" | "kib" => number / 1024.0,
        "g" | "gb" | "gib" => number * 1024.0,
        other => return Err(LimitError::UnknownMemoryUnit(other.to_owned())),
    };
    if mib < MIN_MEMORY_MIB as f64 || mib > 65536.0 {
        return Err(LimitError::MemoryOutOfRange);
    }
    let bytes = (mib * 1024.0 * 1024.0) as usize;
    if bytes <= used {
        return Err(LimitError::BelowUse(used as f64 / (1 << 20) as f64));
    }
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_typed_with_units_within_sane_ranges() {
        assert_eq!(parse_time_limit("5"), Ok(Some(Duration::from_secs(5))));
        assert_eq!(parse_time_limit("500 ms"), Ok(Some(Duration::from_millis(500))));
        assert_eq!(parse_time_limit("2 min"), Ok(Some(Duration::from_secs(120))));
        assert_eq!(parse_time_limit("none"), Ok(None));
        assert_eq!(parse_time_limit("0"), Ok(None));
        assert_eq!(parse_time_limit("10 ms"), Err(LimitError::TimeOutOfRange), "too short to run anything");
        assert_eq!(parse_time_limit("2 h"), Err(LimitError::UnknownTimeUnit("h".into())));
        assert!(parse_time_limit("2 h").unwrap_err().to_string().contains("unknown unit 'h'"));
        assert_eq!(parse_time_limit("fast"), Err(LimitError::NotANumber(String::new())));
        assert!(parse_time_limit("fast").unwrap_err().to_string().contains("not a number"));
        assert_eq!(parse_memory_limit("1024", 0), Ok(Some(1 << 30)));
        assert_eq!(parse_memory_limit("2 GiB", 0), Ok(Some(2 << 30)));
        assert_eq!(parse_memory_limit("", 0), Ok(None));
        assert_eq!(parse_memory_limit("1 KiB", 0), Err(LimitError::MemoryOutOfRange), "below the floor");
        assert_eq!(
            parse_memory_limit("32", 40 << 20).unwrap_err().to_string(),
            "the Lua heap already holds 40 MiB",
            "what the heap holds, in MiB"
        );
        assert_eq!(
            parse_time_limit("1 d").unwrap_err().to_string(),
            "unknown unit 'd': use ms, s or min",
            "the units it takes, named"
        );
    }
}
