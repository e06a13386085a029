//! Ranges of seeds, and the slice of one a run takes when the work is spread over machines:
//! `nefia gen --scan A..B` and `nefia fuzz --seeds A..B` take `--shard K/N`, the K-th of N
//! disjoint slices, as a CI matrix or any batch runner would run them. The slices interleave
//! (shard K takes A+K-1, A+K-1+N, …) so each gets as many cheap and costly seeds as the
//! others; their outputs together are the whole range's, with no scheduler of our own.

/// One of N disjoint slices of a seed range (the whole range is slice 1 of 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 0.
    index: u64,
    /// How many slices.
    count: u64,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard { index: 0, count: 1 }
    }
}

/// How `--shard` is written.
const SHARD_ADVICE: &str = "write it as K/N, such as 2/4 for the second of four slices";

/// A `--shard` that [`Shard::parse`] refused (the text given).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    /// It is not two whole numbers around a `/`.
    #[error("--shard '{0}': {SHARD_ADVICE}")]
    NotKOfN(String),
    /// K is not from 1 to N, or N is 0.
    #[error("--shard '{0}': K must be from 1 to N, and N at least 1 ({SHARD_ADVICE})")]
    OutOfRange(String),
}

/// A seed range that [`Seeds::parse_range`] refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// It is not `A..B`.
    #[error("{what} '{text}': write the seeds as A..B, such as 1..1000")]
    NotAToB {
        /// The option.
        what: String,
        /// The text given.
        text: String,
    },
    /// A or B is not a whole number.
    #[error("{what} '{text}': '{part}' is not a whole number")]
    NotANumber {
        /// The option.
        what: String,
        /// The text given.
        text: String,
        /// The part that is no number.
        part: String,
    },
    /// A is past B.
    #[error("{what} '{text}': the first seed is past the last")]
    Reversed {
        /// The option.
        what: String,
        /// The text given.
        text: String,
    },
}

impl Shard {
    /// Reads `K/N` (1 ≤ K ≤ N): the K-th of N slices.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let (k, n) = text.split_once('/').ok_or_else(|| ShardError::NotKOfN(text.to_owned()))?;
        let number = |s: &str| s.trim().parse::<u64>().map_err(|_| ShardError::NotKOfN(text.to_owned()));
        let (k, n) = (number(k)?, number(n)?);
        if n == 0 || k == 0 || k > n {
            return Err(ShardError::OutOfRange(text.to_owned()));
        }
        Ok(Shard { index: k - 1, count: n })
    }
}

/// The seeds a run takes: first to last inclusive, within its shard.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seeds {
    /// The first seed of the whole range.
    pub first: i64,
    /// The last seed of the whole range (at least `first`).
    pub last: i64,
    /// The slice of the range this run takes.
    pub shard: Shard,
}

impl Seeds {
    /// Reads `A..B` (inclusive, A ≤ B) as the whole range; `what` names the option in errors.
    pub fn parse_range(what: &str, text: &str) -> Result<Seeds, RangeError> {
        let (what, text) = (what.to_owned(), text.to_owned());
        let Some((a, b)) = text.split_once("..") else { return Err(RangeError::NotAToB { what, text }) };
        let parse = |s: &str| {
            s.trim().parse::<i64>().map_err(|_| RangeError::NotANumber {
                what: what.clone(),
                text: text.clone(),
                part: s.to_owned(),
            })
        };
        let (first, last) = (parse(a)?, parse(b)?);
        if first > last {
            return Err(RangeError::Reversed { what, text });
        }
        Ok(Seeds { first, last, shard: Shard::default() })
    }

    /// The whole range `first..=last`.
    pub fn range(first: i64, last: i64) -> Seeds {
        Seeds { first, last, shard: Shard::default() }
    }

    /// How many seeds of the range this shard takes.
    pub fn len(&self) -> u64 {
        let span = (i128::from(self.last) - i128::from(self.first) + 1).max(0);
        let span = u64::try_from(span).unwrap_or(u64::MAX);
        match span.checked_sub(self.shard.index) {
            Some(rest) if rest > 0 => (rest - 1) / self.shard.count + 1,
            _ => 0,
        }
    }

    /// True if the shard takes no seed (a range smaller than its shard number).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The `n`-th seed this shard takes (from 0), if it takes that many.
    pub fn nth(&self, n: u64) -> Option<i64> {
        if n >= self.len() {
            return None;
        }
        let offset = i128::from(self.shard.index) + i128::from(n) * i128::from(self.shard.count);
        i64::try_from(i128::from(self.first) + offset).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_a_range_into_disjoint_slices_that_cover_it() {
        let whole = Seeds::parse_range("--seeds", "1..10").unwrap();
        for n in 1..=12 {
            let mut seen: Vec<i64> = (1..=n)
                .flat_map(|k| {
                    let seeds = Seeds { shard: Shard::parse(&format!("{k}/{n}")).unwrap(), ..whole };
                    (0..seeds.len()).map(move |i| seeds.nth(i).unwrap())
                })
                .collect();
            seen.sort_unstable();
            assert_eq!(seen, (1..=10).collect::<Vec<_>>(), "{n} shards");
        }
        let second_of_three = Seeds { shard: Shard::parse("2/3").unwrap(), ..whole };
        assert_eq!((0..4).filter_map(|i| second_of_three.nth(i)).collect::<Vec<_>>(), [2, 5, 8]);
        let extreme = Seeds::range(i64::MIN, i64::MAX);
        assert_eq!(extreme.nth(0), Some(i64::MIN));
        assert!(Seeds::range(5, 1).is_empty(), "a reversed range holds no seed");
    }

    #[test]
    fn bad_shards_and_ranges_are_refused_with_the_form_to_use() {
        for bad in ["0/3", "4/3", "1/0", "a/b", "3"] {
            let error = Shard::parse(bad).unwrap_err().to_string();
            assert!(error.contains("K/N"), "{bad}: {error}");
        }
        assert!(Seeds::parse_range("--scan", "9..1").unwrap_err().to_string().contains("past the last"));
        assert!(Seeds::parse_range("--scan", "1-9").unwrap_err().to_string().contains("A..B"));
    }
}
