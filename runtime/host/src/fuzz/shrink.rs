//! Shrinking a failing game to the fewest actions that still fail the same way: chunks of
//! actions cut out (halves, then quarters, … then single actions), then each action left put
//! in place by a simpler one ([`Action::simpler`]), then — once few are left — pairs cut out
//! together (a step right and a step left later cancel out, where cutting either alone
//! leads elsewhere), again until nothing more goes. Each
//! candidate is a whole game played from the seed's start; a candidate that fails is cut at
//! the action the failure came after. The game is deterministic, so a candidate fails or not
//! every time.

use std::path::Path;
use std::time::{Duration, Instant};

use super::FuzzError;
use super::actions::Action;
use super::game::{self, Failure, FailureKind, Source};

/// How much a shrink may spend on one failure.
#[derive(Clone, Copy, Debug)]
pub struct ShrinkBudget {
    /// The most candidate games played.
    pub runs: usize,
    /// The most time spent.
    pub time: Duration,
}

impl Default for ShrinkBudget {
    fn default() -> ShrinkBudget {
        ShrinkBudget { runs: 600, time: Duration::from_secs(120) }
    }
}

/// What a shrink came to.
#[derive(Clone, Debug)]
pub struct Shrunk {
    /// The fewest actions found that fail the same way.
    pub actions: Vec<Action>,
    /// How the game with them fails.
    pub failure: Failure,
    /// Candidate games played.
    pub runs: usize,
    /// True if the budget ran out before nothing more could be cut.
    pub out_of_budget: bool,
}

/// Pairs of actions are cut out together once no more than this many are left (their
/// number grows with its square).
const PAIRS_UP_TO: usize = 40;

/// The candidates a shrink tries, and the best so far.
struct Shrinker<'a> {
    project: &'a Path,
    seed: i64,
    scratch: &'a Path,
    wanted: &'a Failure,
    best: Vec<Action>,
    failure: Failure,
    runs: usize,
    budget: ShrinkBudget,
    started: Instant,
}

impl Shrinker<'_> {
    fn spent(&self) -> bool {
        self.runs >= self.budget.runs || self.started.elapsed() >= self.budget.time
    }

    /// Plays `candidate`; if it fails the way wanted, it (cut at the failure) is the best.
    fn try_candidate(&mut self, candidate: Vec<Action>) -> Result<bool, FuzzError> {
        self.runs += 1;
        let played = game::play(self.project, self.seed, Source::Fixed(candidate.into_iter()), self.scratch)?;
        let failure = match played.failure.clone() {
            None if self.wanted.kind == FailureKind::ReplayDiffers => game::replay_differs(self.project, &played)?,
            failure => failure,
        };
        played.discard();
        match failure {
            Some(failure) if failure.kind == self.wanted.kind => {
                self.best = played.actions;
                self.failure = failure;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// Cuts out chunks of `size` actions, left to right; true if any went.
    fn cut_chunks(&mut self, size: usize) -> Result<bool, FuzzError> {
        let mut cut = false;
        let mut start = 0;
        while start < self.best.len() && !self.spent() {
            let end = (start + size).min(self.best.len());
            let candidate = [&self.best[..start], &self.best[end..]].concat();
            if self.try_candidate(candidate)? {
                cut = true;
            } else {
                start += size;
            }
        }
        Ok(cut)
    }

    /// Cuts out two actions at once, each pair in turn; true if any went.
    fn cut_pairs(&mut self) -> Result<bool, FuzzError> {
        if self.best.len() > PAIRS_UP_TO {
            return Ok(false);
        }
        let mut cut = false;
        let mut first = 0;
        while first < self.best.len() && !self.spent() {
            let mut second = first + 1;
            let mut went = false;
            while second < self.best.len() && !self.spent() {
                let mut candidate = self.best.clone();
                candidate.remove(second);
                candidate.remove(first);
                if self.try_candidate(candidate)? {
                    went = true;
                    break;
                }
                second += 1;
            }
            cut |= went;
            if !went {
                first += 1;
            }
        }
        Ok(cut)
    }

    /// Puts simpler actions in place of each; true if any was.
    fn simplify(&mut self) -> Result<bool, FuzzError> {
        let mut simpler = false;
        let mut index = 0;
        while index < self.best.len() && !self.spent() {
            for replacement in self.best[index].simpler() {
                let mut candidate = self.best.clone();
                candidate[index] = replacement;
                if self.try_candidate(candidate)? {
                    simpler = true;
                    break;
                }
            }
            index += 1;
        }
        Ok(simpler)
    }
}

/// Shrinks `actions`, which fail with `failure` in seed `seed`'s game of `project` (see the
/// module's text); games are recorded in `scratch`.
pub(super) fn shrink(
    project: &Path,
    seed: i64,
    (actions, failure): (Vec<Action>, &Failure),
    scratch: &Path,
    budget: ShrinkBudget,
) -> Result<Shrunk, FuzzError> {
    let mut shrinker = Shrinker {
        project,
        seed,
        scratch,
        wanted: failure,
        best: actions,
        failure: failure.clone(),
        runs: 0,
        budget,
        started: Instant::now(),
    };
    loop {
        let mut changed = false;
        let mut size = shrinker.best.len() / 2;
        while size >= 1 && !shrinker.spent() {
            changed |= shrinker.cut_chunks(size)?;
            size = (size / 2).min(shrinker.best.len() / 2).max(usize::from(size > 1));
        }
        changed |= shrinker.simplify()?;
        if !changed {
            changed |= shrinker.cut_pairs()?;
        }
        if !changed || shrinker.spent() {
            break;
        }
    }
    Ok(Shrunk {
        out_of_budget: shrinker.spent(),
        actions: shrinker.best,
        failure: shrinker.failure,
        runs: shrinker.runs,
    })
}
