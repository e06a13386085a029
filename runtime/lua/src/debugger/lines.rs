//! Which line a breakpoint is on: past lines that never run by themselves when it is set, and
//! with its line when its file is hotloaded.

/// The first line from `line` (from 1) of `lines` that runs by itself: past blank lines,
/// comments and `function` headers (whose line runs when the function is made, not when it is
/// called), at most 50 lines on; `line` itself if none is found.
pub(super) fn first_running_line(lines: &[&str], line: u32) -> u32 {
    let start = usize::try_from(line).unwrap_or(0).max(1);
    let silent = |text: &str| {
        let text = text.trim();
        let header = (text.starts_with("function ") || text.starts_with("local function ")) && text.ends_with(')');
        text.is_empty() || (text.starts_with("--") && !text.starts_with("--[")) || header
    };
    (start..start + 50)
        .find(|&n| lines.get(n - 1).is_some_and(|text| !silent(text)))
        .and_then(|n| u32::try_from(n).ok())
        .unwrap_or(line)
}

/// Where each line of `old` is in `new` (lines from 1): a line kept is where it went; a line
/// changed or removed keeps its distance from the kept line before it. The lines both keep are their
/// longest common subsequence between the common start and end (a quadratic table, so a
/// change of more than 2,000 lines on each side only shifts what follows it).
pub(super) fn line_map(old: &str, new: &str) -> impl Fn(u32) -> u32 {
    let (a, b): (Vec<&str>, Vec<&str>) = (old.lines().collect(), new.lines().collect());
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..].iter().rev().zip(b[prefix..].iter().rev()).take_while(|(x, y)| x == y).count();
    let (middle_a, middle_b) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    // kept[i]: where line i of `old` (from 0) is in `new`, if it is kept.
    let mut kept: Vec<Option<usize>> = vec![None; a.len()];
    for (i, slot) in kept.iter_mut().enumerate().take(prefix) {
        *slot = Some(i);
    }
    for k in 0..suffix {
        kept[a.len() - 1 - k] = Some(b.len() - 1 - k);
    }
    if middle_a.len().saturating_mul(middle_b.len()) <= 4_000_000 {
        let (n, m) = (middle_a.len(), middle_b.len());
        let mut table = vec![0u32; (n + 1) * (m + 1)];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                table[i * (m + 1) + j] = if middle_a[i] == middle_b[j] {
                    table[(i + 1) * (m + 1) + j + 1] + 1
                } else {
                    table[(i + 1) * (m + 1) + j].max(table[i * (m + 1) + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n && j < m {
            if middle_a[i] == middle_b[j] {
                kept[prefix + i] = Some(prefix + j);
                i += 1;
                j += 1;
            } else if table[(i + 1) * (m + 1) + j] >= table[i * (m + 1) + j + 1] {
                i += 1;
            } else {
                j += 1;
            }
        }
    }
    let last = b.len().max(1);
    move |line: u32| {
        let index = usize::try_from(line).unwrap_or(usize::MAX).saturating_sub(1);
        let at = match kept.get(index).copied().flatten() {
            Some(to) => to,
            None => {
                // Beside the kept line before it (or where it was, with nothing kept before).
                let before =
                    kept[..index.min(kept.len())].iter().enumerate().rev().find_map(|(i, k)| k.map(|k| (i, k)));
                before.map_or(index, |(i, k)| k + (index - i))
            }
        };
        u32::try_from(at.min(last - 1) + 1).unwrap_or(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_breakpoints_line_moves_with_lines_added_and_removed_above_it() {
        let old = "a\nb\nc\nd\ne\n";
        let map = line_map(old, "new\nnew\na\nb\nc\nd\ne\n");
        assert_eq!((map(1), map(3), map(5)), (3, 5, 7), "two lines added at the top");
        let map = line_map(old, "a\nc\nd\ne\n");
        assert_eq!(
            (map(1), map(3), map(4), map(2)),
            (1, 2, 3, 2),
            "b removed: c and d go up, b's goes to the line after a"
        );
        let map = line_map(old, "a\nB\nc\nd\ne\nf\n");
        assert_eq!((map(2), map(3)), (2, 3), "a changed line keeps its place");
    }

    #[test]
    fn a_breakpoint_on_a_line_that_never_runs_moves_to_the_next_that_does() {
        let lines = ["-- a comment", "", "function M.step(player, dx)", "   local x = 1", "end"];
        assert_eq!(first_running_line(&lines, 1), 4, "past the comment, the blank line and the header");
        assert_eq!(first_running_line(&lines, 4), 4);
        assert_eq!(first_running_line(&lines, 5), 5, "`end` runs: the function returns there");
    }
}
