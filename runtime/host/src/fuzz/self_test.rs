//! A packaged game's `--self-test`: one fuzzed game (`game.rs`) from a fixed seed — random
//! turns with the invariants checked after each, a save and a load of it on the way — whose
//! recording is then replayed to see it comes to the same states (as `nefia fuzz` judges a
//! seed). The save is written where the caller says (the player's own save folder), so the
//! test shows the game can write there.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use super::actions::Weights;
use super::game::{self, Failure, Source};
use super::{DRAW_SALT, FuzzError};

/// The save the self-test writes and loads back.
pub const SELF_TEST_SAVE: &str = "self-test";

/// What a self-test plays.
#[derive(Clone, Copy, Debug)]
pub struct SelfTestOptions {
    /// The world's seed and the player's draws.
    pub seed: i64,
    /// Turns it plays; the save comes after a third of them, the load after two thirds.
    pub turns: usize,
}

impl SelfTestOptions {
    /// The turn after which the game is saved.
    pub fn save_turn(&self) -> usize {
        self.turns / 3
    }

    /// The turn after which the save is loaded.
    pub fn load_turn(&self) -> usize {
        self.turns * 2 / 3
    }
}

/// What a self-test did.
#[derive(Debug)]
pub struct SelfTestReport {
    /// Turns played.
    pub turns: usize,
    /// Inputs played (keys, menu answers, steps).
    pub inputs: usize,
    /// The save it wrote and loaded back.
    pub save: PathBuf,
    /// What failed — in play, or its replay not coming to the recorded states — if anything.
    pub failure: Option<Failure>,
}

/// Plays the self-test on `project` (see the module's text), writing its save into `saves`.
/// An error is the game not beginning, or its recording not being replayed.
pub fn self_test(project: &Path, saves: &Path, options: SelfTestOptions) -> Result<SelfTestReport, FuzzError> {
    std::fs::create_dir_all(saves).map_err(FuzzError::Scratch)?;
    let recordings = tempfile::tempdir().map_err(FuzzError::Scratch)?;
    let rng = fastrand::Rng::with_seed(options.seed.cast_unsigned() ^ DRAW_SALT);
    // Its own save and load are planned; the random ones would only overwrite them.
    let weights = Weights::parse("save=0,load=0").expect("the self-test's weights name input classes there are");
    let source = Source::Random { rng, weights, turns: options.turns };
    let planned = VecDeque::from([
        (options.save_turn(), format!("Save.save_game({SELF_TEST_SAVE:?})")),
        (options.load_turn(), format!("Save.load_game({SELF_TEST_SAVE:?})")),
    ]);
    let played = game::play_in(project, (options.seed, source, planned), recordings.path(), saves)?;
    let failure = match played.failure.clone() {
        Some(failure) => Some(failure),
        None => game::replay_differs(project, &played)?,
    };
    let save = saves.join(format!("{SELF_TEST_SAVE}.ron"));
    let failure = failure.or_else(|| {
        (!save.is_file()).then(|| Failure {
            kind: game::FailureKind::LoggedError("no save written".into()),
            turn: 0,
            message: format!("the save {} was not written", save.display()),
        })
    });
    Ok(SelfTestReport { turns: played.turns, inputs: played.actions.len(), save, failure })
}
