//! A packaged game (`nefia package`): the `nefia` program copied under the game's name, with
//! `package.ron` beside it and the project in `game/`. When `main` finds `package.ron` beside
//! the running program ([`Package::beside_program`]) it is the player program: the player
//! window on the shipped project at once, its only flags `--self-test` and `--portable`
//! ([`run_player`]); otherwise it is the editor and its command line.
//!
//! `--self-test` plays a new game headless ([`nefia_host::fuzz::self_test`]: random turns from
//! a fixed seed with the invariants after each, a save and a load, and a replay of the
//! session) and exits 0 if nothing failed, printing what it did. Its save goes into the
//! player's save folder (a `self-test` folder inside it, apart from the player's own games).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use serde::{Deserialize, Serialize};

use crate::player::PlayerConfig;
use crate::player_dirs::PlayerDirs;

/// The manifest's file name, beside the player program.
pub const MANIFEST: &str = "package.ron";

/// The folder beside the player program holding the project.
pub const GAME_FOLDER: &str = "game";

/// The self-test's seed: the same game every run, on any machine.
const SELF_TEST_SEED: i64 = 1;

/// Turns the self-test plays: a few seconds in a debug build.
const SELF_TEST_TURNS: usize = 30;

/// `package.ron`: what a package is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PackageManifest {
    /// The game's name (the project's): the window's title and the player's folders' name.
    pub name: String,
    /// The player program's file name, beside this file.
    pub program: String,
    /// The Nefia version that made the package.
    pub nefia: String,
    /// The mods shipped, in load order.
    pub mods: Vec<String>,
    /// The map files shipped (in the game folder's maps).
    pub maps: Vec<String>,
}

/// A package found beside the running program.
#[derive(Clone, Debug)]
pub struct Package {
    /// The folder holding the program, `package.ron` and `game/`.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: PackageManifest,
}

impl Package {
    /// The package the running program is part of: None if there is no `package.ron` beside
    /// it (the program is `nefia`); an error if there is one that cannot be read.
    pub fn beside_program() -> Option<Result<Package, nefia_game::files::FileError>> {
        let program = std::env::current_exe().ok()?;
        let dir = program.parent()?.to_owned();
        let manifest = dir.join(MANIFEST);
        manifest.is_file().then(|| Package::open(&dir))
    }

    /// Reads the package in `dir`.
    pub fn open(dir: &Path) -> Result<Package, nefia_game::files::FileError> {
        let manifest = nefia_game::files::read_ron(&dir.join(MANIFEST))?;
        Ok(Package { dir: dir.to_owned(), manifest })
    }

    /// The shipped project's folder.
    pub fn game(&self) -> PathBuf {
        self.dir.join(GAME_FOLDER)
    }

    /// Where the player's things go: beside the program if `portable`, else the player's own
    /// folders under the game's name.
    pub fn player_dirs(&self, portable: bool) -> Result<PlayerDirs, crate::player_dirs::PlayerDirsError> {
        match portable {
            true => Ok(PlayerDirs::portable(&self.dir)),
            false => PlayerDirs::installed(&self.manifest.name),
        }
    }
}

/// The player program's command line: no subcommands, two flags.
#[derive(Parser)]
#[command(about = "Play the game. With no flags, the game's window opens on its title menu.")]
struct PlayerArgs {
    /// Play a new game headless — random turns, a save and a load, the invariants after
    /// every turn — and exit 0 if nothing failed, printing what was done.
    #[arg(long)]
    self_test: bool,
    /// Keep saves, settings and bug reports beside the program instead of in your own
    /// folders.
    #[arg(long)]
    portable: bool,
}

/// Runs the player program of the package `found` beside it: the player window, or the
/// self-test.
pub fn run_player(found: Result<Package, nefia_game::files::FileError>) -> ExitCode {
    let package = match found {
        Ok(package) => package,
        Err(error) => {
            eprintln!("the game's {MANIFEST} could not be read: {error}");
            return ExitCode::from(2);
        }
    };
    let args = PlayerArgs::command_for(&package.manifest.name).get_matches();
    let args = match <PlayerArgs as clap::FromArgMatches>::from_arg_matches(&args) {
        Ok(args) => args,
        Err(error) => error.exit(),
    };
    let dirs = match package.player_dirs(args.portable) {
        Ok(dirs) => dirs,
        Err(error) => {
            eprintln!("{}: {error}", package.manifest.name);
            return ExitCode::from(2);
        }
    };
    if args.self_test {
        return self_test(&package, &dirs);
    }
    let config = PlayerConfig { project: package.game(), dirs, title: package.manifest.name.clone() };
    crate::cli::window_closed(crate::player::run(config))
}

impl PlayerArgs {
    /// The command line, named after the game.
    fn command_for(name: &str) -> clap::Command {
        <PlayerArgs as clap::CommandFactory>::command().bin_name(name.to_owned())
    }
}

/// `--self-test`: plays the self-test and says what it did; exit 0 if nothing failed.
fn self_test(package: &Package, dirs: &PlayerDirs) -> ExitCode {
    let name = &package.manifest.name;
    let saves = dirs.saves.join("self-test");
    let options = nefia_host::fuzz::SelfTestOptions { seed: SELF_TEST_SEED, turns: SELF_TEST_TURNS };
    println!("{name} self-test: a new game from seed {}, {} turns of random input", options.seed, options.turns);
    let report = match nefia_host::fuzz::self_test(&package.game(), &saves, options) {
        Ok(report) => report,
        Err(error) => {
            println!("FAILED: {error}");
            return ExitCode::FAILURE;
        }
    };
    println!("played {} turns ({} inputs), the invariants checked after every turn", report.turns, report.inputs);
    println!(
        "saved the game as '{}' after turn {} and loaded it after turn {}: {}",
        nefia_host::fuzz::SELF_TEST_SAVE,
        options.save_turn(),
        options.load_turn(),
        report.save.display()
    );
    match report.failure {
        None => {
            println!("replayed the session's recording: every turn came to the same state");
            println!("passed");
            ExitCode::SUCCESS
        }
        Some(failure) => {
            println!("FAILED after turn {}: {}", failure.turn, failure.kind.describe());
            println!("{}", failure.message);
            ExitCode::FAILURE
        }
    }
}
