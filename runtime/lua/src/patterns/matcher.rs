//! Lua 5.4's pattern matcher (`lstrlib.c`'s `match`), counting its steps: the same classes,
//! sets, captures, `%b`, `%f`, back-references, anchors and error messages, and every
//! [`CHECK_STEPS`] steps it asks whether the evaluation must stop.

/// Matching steps between two checks of the time limit and the Stop flag.
pub(super) const CHECK_STEPS: u32 = 1 << 14;
/// Lua's limit on captures in one pattern.
pub(super) const MAX_CAPTURES: usize = 32;
/// Lua's limit on nested matching calls (`MAXCCALLS`).
pub(super) const MAX_DEPTH: u32 = 200;
/// Characters that make a pattern more than a plain string.
pub(super) const SPECIALS: &[u8] = b"^$*+?.([%-";

/// Why a match stopped without an answer: a malformed pattern, or an interruption.
pub(super) type Fail = String;

#[derive(Clone, Copy)]
pub(super) enum CaptureLen {
    Unfinished,
    Position,
    Len(usize),
}

/// The state of one match of `pattern` against `subject`.
pub(super) struct Matcher<'a> {
    pub(super) subject: &'a [u8],
    pattern: &'a [u8],
    level: usize,
    captures: [(usize, CaptureLen); MAX_CAPTURES],
    depth: u32,
    steps: u32,
    check: &'a dyn Fn() -> Option<String>,
}

/// A capture's value.
pub(super) enum Capture<'a> {
    Text(&'a [u8]),
    Position(usize),
}

impl<'a> Matcher<'a> {
    pub(super) fn new(subject: &'a [u8], pattern: &'a [u8], check: &'a dyn Fn() -> Option<String>) -> Matcher<'a> {
        Matcher {
            subject,
            pattern,
            level: 0,
            captures: [(0, CaptureLen::Unfinished); MAX_CAPTURES],
            depth: MAX_DEPTH,
            steps: 0,
            check,
        }
    }

    /// Counts a step; every [`CHECK_STEPS`] asks whether the evaluation must stop.
    fn step(&mut self) -> Result<(), Fail> {
        self.steps += 1;
        if self.steps >= CHECK_STEPS {
            self.steps = 0;
            if let Some(reason) = (self.check)() {
                return Err(reason);
            }
        }
        Ok(())
    }

    /// The pattern byte at `i`, or 0 past the end (as C's terminating NUL).
    fn pat(&self, i: usize) -> u8 {
        self.pattern.get(i).copied().unwrap_or(0)
    }

    fn class_end(&self, mut p: usize) -> Result<usize, Fail> {
        let c = self.pat(p);
        p += 1;
        if c == b'%' {
            if p >= self.pattern.len() {
                return Err("malformed pattern (ends with '%')".into());
            }
            return Ok(p + 1);
        }
        if c == b'[' {
            if self.pat(p) == b'^' {
                p += 1;
            }
            loop {
                if p >= self.pattern.len() {
                    return Err("malformed pattern (missing ']')".into());
                }
                let c = self.pat(p);
                p += 1;
                if c == b'%' && p < self.pattern.len() {
                    p += 1;
                }
                if self.pat(p) == b']' {
                    break;
                }
            }
            return Ok(p + 1);
        }
        Ok(p)
    }

    fn single_match(&self, s: usize, p: usize, ep: usize) -> bool {
        let Some(&c) = self.subject.get(s) else { return false };
        match self.pat(p) {
            b'.' => true,
            b'%' => match_class(c, self.pat(p + 1)),
            b'[' => self.match_bracket_class(c, p, ep - 1),
            other => other == c,
        }
    }

    /// Whether `c` is in the set `[...]` from `p` (the `[`) to `ec` (the `]`).
    fn match_bracket_class(&self, c: u8, mut p: usize, ec: usize) -> bool {
        let mut found = true;
        if self.pat(p + 1) == b'^' {
            found = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= ec {
                return !found;
            }
            if self.pat(p) == b'%' {
                p += 1;
                if match_class(c, self.pat(p)) {
                    return found;
                }
            } else if self.pat(p + 1) == b'-' && p + 2 < ec {
                p += 2;
                if self.pat(p - 2) <= c && c <= self.pat(p) {
                    return found;
                }
            } else if self.pat(p) == c {
                return found;
            }
        }
    }

    /// Matches from subject position `s` and pattern position `p`; the end of the match.
    pub(super) fn do_match(&mut self, mut s: usize, mut p: usize) -> Result<Option<usize>, Fail> {
        if self.depth == 0 {
            return Err("pattern too complex".into());
        }
        self.depth -= 1;
        let result = loop {
            self.step()?;
            if p >= self.pattern.len() {
                break Some(s);
            }
            match self.pat(p) {
                b'(' => {
                    break if self.pat(p + 1) == b')' {
                        self.start_capture(s, p + 2, CaptureLen::Position)?
                    } else {
                        self.start_capture(s, p + 1, CaptureLen::Unfinished)?
                    };
                }
                b')' => break self.end_capture(s, p + 1)?,
                b'$' if p + 1 == self.pattern.len() => break (s == self.subject.len()).then_some(s),
                b'%' if self.pat(p + 1) == b'b' => match self.match_balance(s, p + 2)? {
                    Some(end) => {
                        s = end;
                        p += 4;
                    }
                    None => break None,
                },
                b'%' if self.pat(p + 1) == b'f' => {
                    p += 2;
                    if self.pat(p) != b'[' {
                        return Err("missing '[' after '%f' in pattern".into());
                    }
                    let ep = self.class_end(p)?;
                    let previous = if s == 0 { 0 } else { self.subject[s - 1] };
                    let current = self.subject.get(s).copied().unwrap_or(0);
                    if !self.match_bracket_class(previous, p, ep - 1) && self.match_bracket_class(current, p, ep - 1) {
                        p = ep;
                    } else {
                        break None;
                    }
                }
                b'%' if self.pat(p + 1).is_ascii_digit() => match self.match_capture(s, self.pat(p + 1))? {
                    Some(end) => {
                        s = end;
                        p += 2;
                    }
                    None => break None,
                },
                _ => {
                    let ep = self.class_end(p)?;
                    let next = self.pat(ep);
                    if !self.single_match(s, p, ep) {
                        if matches!(next, b'*' | b'?' | b'-') {
                            p = ep + 1;
                            continue;
                        }
                        break None;
                    }
                    match next {
                        b'?' => match self.do_match(s + 1, ep + 1)? {
                            Some(end) => break Some(end),
                            None => p = ep + 1,
                        },
                        b'+' => break self.max_expand(s + 1, p, ep)?,
                        b'*' => break self.max_expand(s, p, ep)?,
                        b'-' => break self.min_expand(s, p, ep)?,
                        _ => {
                            s += 1;
                            p = ep;
                        }
                    }
                }
            }
        };
        self.depth += 1;
        Ok(result)
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Result<Option<usize>, Fail> {
        let mut count = 0;
        while self.single_match(s + count, p, ep) {
            self.step()?;
            count += 1;
        }
        loop {
            if let Some(end) = self.do_match(s + count, ep + 1)? {
                return Ok(Some(end));
            }
            if count == 0 {
                return Ok(None);
            }
            count -= 1;
        }
    }

    fn min_expand(&mut self, mut s: usize, p: usize, ep: usize) -> Result<Option<usize>, Fail> {
        loop {
            if let Some(end) = self.do_match(s, ep + 1)? {
                return Ok(Some(end));
            }
            if !self.single_match(s, p, ep) {
                return Ok(None);
            }
            s += 1;
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: CaptureLen) -> Result<Option<usize>, Fail> {
        if self.level >= MAX_CAPTURES {
            return Err("too many captures".into());
        }
        self.captures[self.level] = (s, what);
        self.level += 1;
        let result = self.do_match(s, p)?;
        if result.is_none() {
            self.level -= 1;
        }
        Ok(result)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Result<Option<usize>, Fail> {
        let open = (0..self.level)
            .rev()
            .find(|&l| matches!(self.captures[l].1, CaptureLen::Unfinished))
            .ok_or_else(|| "invalid pattern capture".to_owned())?;
        self.captures[open].1 = CaptureLen::Len(s - self.captures[open].0);
        let result = self.do_match(s, p)?;
        if result.is_none() {
            self.captures[open].1 = CaptureLen::Unfinished;
        }
        Ok(result)
    }

    fn match_balance(&mut self, s: usize, p: usize) -> Result<Option<usize>, Fail> {
        if p + 1 >= self.pattern.len() {
            return Err("malformed pattern (missing arguments to '%b')".into());
        }
        if self.subject.get(s) != Some(&self.pat(p)) {
            return Ok(None);
        }
        let (open, close) = (self.pat(p), self.pat(p + 1));
        let mut depth = 1;
        for i in s + 1..self.subject.len() {
            self.step()?;
            let c = self.subject[i];
            if c == close {
                depth -= 1;
                if depth == 0 {
                    return Ok(Some(i + 1));
                }
            } else if c == open {
                depth += 1;
            }
        }
        Ok(None)
    }

    fn match_capture(&mut self, s: usize, digit: u8) -> Result<Option<usize>, Fail> {
        let index = self.check_capture(digit)?;
        // A position capture has no text: as in C, nothing matches it.
        let (start, CaptureLen::Len(len)) = self.captures[index] else { return Ok(None) };
        let captured = &self.subject[start..start + len];
        Ok(self.subject.get(s..s + len).filter(|text| *text == captured).map(|_| s + len))
    }

    fn check_capture(&self, digit: u8) -> Result<usize, Fail> {
        let invalid = || format!("invalid capture index %{}", i32::from(digit) - i32::from(b'0'));
        let index = usize::from(digit.checked_sub(b'1').ok_or_else(invalid)?);
        if index >= self.level || matches!(self.captures[index].1, CaptureLen::Unfinished) {
            return Err(invalid());
        }
        Ok(index)
    }

    /// Capture `i` of the match `s..e` (the whole match when the pattern has none).
    pub(super) fn capture(&self, i: usize, s: usize, e: usize) -> Result<Capture<'a>, Fail> {
        if i >= self.level {
            if i != 0 {
                return Err(format!("invalid capture index %{}", i + 1));
            }
            return Ok(Capture::Text(&self.subject[s..e]));
        }
        match self.captures[i] {
            (_, CaptureLen::Unfinished) => Err("unfinished capture".into()),
            (start, CaptureLen::Position) => Ok(Capture::Position(start + 1)),
            (start, CaptureLen::Len(len)) => Ok(Capture::Text(&self.subject[start..start + len])),
        }
    }

    /// Every capture of the match `s..e`; with `whole`, the match itself when there are none.
    pub(super) fn captures(&self, s: usize, e: usize, whole: bool) -> Result<Vec<Capture<'a>>, Fail> {
        let count = if self.level == 0 && whole { 1 } else { self.level };
        (0..count).map(|i| self.capture(i, s, e)).collect()
    }
}

pub(super) fn match_class(c: u8, class: u8) -> bool {
    let found = match class.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => c == b' ' || (b'\t'..=b'\r').contains(&c),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        _ => return class == c,
    };
    if class.is_ascii_uppercase() { !found } else { found }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_matcher_agrees_with_lua_on_classic_patterns() {
        let never = || None;
        type Case = (&'static str, &'static str, Option<(usize, usize)>);
        let cases: &[Case] = &[
            ("hello world", "o w", Some((4, 7))),
            ("hello", "l+", Some((2, 4))),
            ("hello", "^h", Some((0, 1))),
            ("hello", "^e", None),
            ("THE (quick) fox", "%((%a+)%)", Some((4, 11))),
            ("key = value", "(%w+)%s*=%s*(%w+)", Some((0, 11))),
            ("[[nested]]", "%b[]", Some((0, 10))),
            ("THE (quick) fox", "%f[%a]%a+", Some((0, 3))),
            ("abcabc", "(abc)%1", Some((0, 6))),
            ("aaab", "a-b", Some((0, 4))),
            ("x", "x?y?$", Some((0, 1))),
        ];
        for &(subject, pattern, expected) in cases {
            let (anchored, p) = match pattern.strip_prefix('^') {
                Some(rest) => (true, rest),
                None => (false, pattern),
            };
            let mut found = None;
            for at in 0..=subject.len() {
                let mut m = Matcher::new(subject.as_bytes(), p.as_bytes(), &never);
                if let Some(end) = m.do_match(at, 0).unwrap() {
                    found = Some((at, end));
                    break;
                }
                if anchored {
                    break;
                }
            }
            assert_eq!(found, expected, "{subject:?} ~ {pattern:?}");
        }
    }

    #[test]
    fn malformed_patterns_are_named_as_lua_names_them() {
        let never = || None;
        for (pattern, message) in [
            ("%", "malformed pattern (ends with '%')"),
            ("[a", "malformed pattern (missing ']')"),
            ("(a", "unfinished capture"),
            ("a)", "invalid pattern capture"),
            ("%1", "invalid capture index %1"),
            ("%f", "missing '[' after '%f' in pattern"),
        ] {
            let mut m = Matcher::new(b"abc", pattern.as_bytes(), &never);
            let error = m.do_match(0, 0).and_then(|end| m.captures(0, end.unwrap_or(0), true).map(|_| ())).unwrap_err();
            assert_eq!(error, message, "{pattern}");
        }
    }

    #[test]
    fn a_backtracking_pattern_asks_the_limits_and_stops() {
        let asked = std::cell::Cell::new(0);
        let stop_after_three = || {
            asked.set(asked.get() + 1);
            (asked.get() >= 3).then(|| "interrupted".to_owned())
        };
        let subject = vec![b'a'; 5000];
        let mut m = Matcher::new(&subject, b"a*a*a*a*b", &stop_after_three);
        assert_eq!(m.do_match(0, 0).unwrap_err(), "interrupted");
        assert_eq!(asked.get(), 3);
    }
}
