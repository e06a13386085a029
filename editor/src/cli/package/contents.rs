//! What a package ships in `game/`: the project's `project.ron` (its mods found in `mods/`, its
//! images in `assets/`), its map files, the enabled mods with their dependencies, and the
//! images of its asset folders merged into one (the first folder's image of a name wins, as
//! the game looks them up) — only what the game loads: Lua, RON and PNG files and the licences
//! beside them; never recordings, tests, saves, `.nefia`, hidden files or sources of tools.
//! Also the players' README and the licences file beside the program, gathered from the
//! licence files shipped and the "Licence" section of each asset folder's README.

use std::path::{Path, PathBuf};

use super::{PackageError, io};
use crate::package::{GAME_FOLDER, PackageManifest};
use nefia_game::project::{Project, ProjectManifest};

/// Folders a mod may hold that the game never loads.
const LEFT_OUT_FOLDERS: [&str; 5] = ["tests", "recordings", "saves", "target", "node_modules"];

/// What [`write_game`] shipped.
pub(super) struct Shipped {
    /// The mods, in load order.
    pub mods: Vec<String>,
    /// The map files' names.
    pub maps: Vec<String>,
    /// Images shipped (the asset folders' and the mods').
    pub images: usize,
    /// Files left out: not loaded by the game.
    pub left_out: usize,
    /// What the packager should know (a folder of images with no licence found).
    pub notes: Vec<String>,
    /// The licences file's text.
    pub licences: String,
}

/// A file's kind, as a package sees it.
#[derive(PartialEq)]
enum Kind {
    /// Lua or RON: mods' code and data, maps.
    Data,
    /// An image the renderer draws.
    Image,
    /// A licence text.
    Licence,
    /// Anything else: left out.
    Other,
}

fn kind_of(path: &Path) -> Kind {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let upper = name.to_ascii_uppercase();
    if ["LICENSE", "LICENCE", "COPYING", "NOTICE"].iter().any(|stem| upper.starts_with(stem)) {
        return Kind::Licence;
    }
    match path.extension().and_then(|x| x.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("lua" | "ron") => Kind::Data,
        Some("png") => Kind::Image,
        _ => Kind::Other,
    }
}

/// Copies the project's game into `root/game` (see the module's text).
pub(super) fn write_game(project: &Project, root: &Path) -> Result<Shipped, PackageError> {
    let game = root.join(GAME_FOLDER);
    let mut shipped = Shipped {
        mods: Vec::new(),
        maps: Vec::new(),
        images: 0,
        left_out: 0,
        notes: Vec::new(),
        licences: String::new(),
    };
    let mut licences = Vec::new();
    let mod_dirs = project.mod_dirs();
    let (available, _) = nefia_game::mods::discover_all(&mod_dirs);
    let order = nefia_game::mods::load_order(&available, &project.manifest.mods, &mod_dirs)?;
    for info in &order {
        let to = game.join("mods").join(info.id());
        let copied = copy_tree(&info.dir, &to, &mut shipped, &|kind| kind != Kind::Other)?;
        licences.extend(copied.into_iter().map(|path| (format!("mod {}", info.id()), path)));
        shipped.mods.push(info.id().to_owned());
    }
    for map in nefia_game::files::ron_files(&project.maps_dir()) {
        let name = map.file_name().unwrap_or_default();
        let to = game.join("maps").join(name);
        copy_file(&map, &to)?;
        shipped.maps.push(name.to_string_lossy().into_owned());
    }
    // The project's asset folders (its own `assets` first), merged: mods keep their own.
    let mod_assets: Vec<PathBuf> = order.iter().map(|m| m.dir.join("assets")).collect();
    let mut licence_sections = String::new();
    let asset_dirs: Vec<PathBuf> =
        project.asset_dirs().into_iter().filter(|dir| !mod_assets.contains(dir) && dir.is_dir()).collect();
    for (index, dir) in asset_dirs.iter().enumerate() {
        let images_before = shipped.images;
        let copied = copy_tree(dir, &game.join("assets"), &mut shipped, &|kind| kind == Kind::Image)?;
        let images = shipped.images - images_before;
        let section = std::fs::read_to_string(dir.join("README.md")).ok().and_then(|text| licence_section(&text));
        let what = format!("the images of asset folder {} (game/assets/)", index + 1);
        let found_licence = !copied.is_empty();
        licences.extend(copied.into_iter().map(|path| (what.clone(), path)));
        match &section {
            Some(section) => licence_sections.push_str(&format!("## {what}\n\n{section}\n\n")),
            None if images > 0 && !found_licence => shipped.notes.push(format!(
                "no licence found for the {images} image(s) of {}: add a LICENSE file or a \"Licence\" section to \
                 its README.md",
                dir.display()
            )),
            None => {}
        }
    }
    let manifest = ProjectManifest { mod_dirs: Vec::new(), asset_dirs: Vec::new(), ..project.manifest.clone() };
    let manifest_path = game.join("project.ron");
    nefia_game::files::write_atomic(&manifest_path, nefia_game::files::to_ron(&manifest_path, &manifest)?.as_bytes())?;
    shipped.licences = licences_text(&project.manifest.name, &licence_sections, (root, &licences))?;
    Ok(shipped)
}

/// Copies the files under `from` that `wanted` takes into `to`, leaving out hidden files and
/// [`LEFT_OUT_FOLDERS`] (an existing file of the same name in `to` is kept: the first asset
/// folder wins). Counts what it shipped and left out; returns the licence files it copied.
fn copy_tree(
    from: &Path,
    to: &Path,
    shipped: &mut Shipped,
    wanted: &dyn Fn(Kind) -> bool,
) -> Result<Vec<PathBuf>, PackageError> {
    let mut licences = Vec::new();
    let mut stack = vec![(from.to_owned(), to.to_owned())];
    while let Some((dir, into)) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&dir).map_err(io(&dir))?.flatten().collect();
        entries.sort_by_key(std::fs::DirEntry::file_name);
        for entry in entries {
            let path = entry.path();
            let name = entry.file_name();
            let hidden = name.to_string_lossy().starts_with('.');
            // Links are not followed: what is shipped is what is inside the folder.
            let Ok(file_type) = entry.file_type() else { continue };
            if file_type.is_dir() {
                match hidden || LEFT_OUT_FOLDERS.iter().any(|left| name == *left) {
                    true => shipped.left_out += count_files(&path),
                    false => stack.push((path, into.join(&name))),
                }
                continue;
            }
            if !file_type.is_file() {
                continue;
            }
            let kind = kind_of(&path);
            let is_licence = kind == Kind::Licence;
            let is_image = kind == Kind::Image;
            if hidden || !(wanted(kind) || is_licence) {
                shipped.left_out += 1;
                continue;
            }
            let target = into.join(&name);
            if target.exists() {
                continue;
            }
            copy_file(&path, &target)?;
            shipped.images += usize::from(is_image);
            if is_licence {
                licences.push(target);
            }
        }
    }
    Ok(licences)
}

fn copy_file(from: &Path, to: &Path) -> Result<(), PackageError> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(io(parent))?;
    }
    std::fs::copy(from, to).map_err(io(from))?;
    Ok(())
}

/// How many files are under `dir`.
fn count_files(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .map(|entry| match entry.file_type() {
            Ok(kind) if kind.is_dir() => count_files(&entry.path()),
            Ok(kind) if kind.is_file() => 1,
            _ => 0,
        })
        .sum()
}

/// The text of a Markdown README's `## Licence` (or `## License`) section, up to the next
/// heading of its level or above.
fn licence_section(readme: &str) -> Option<String> {
    let mut lines = readme.lines().skip_while(|line| {
        let heading = line.trim_start_matches('#');
        !(line.starts_with("## ") && matches!(heading.trim().to_ascii_lowercase().as_str(), "licence" | "license"))
    });
    lines.next()?;
    let body: Vec<&str> = lines.take_while(|line| !(line.starts_with("# ") || line.starts_with("## "))).collect();
    let body = body.join("\n").trim().to_owned();
    (!body.is_empty()).then_some(body)
}

/// The licences file: the program's, each asset folder's README section, and each licence file
/// shipped (by its place in the package under `root`), whole.
fn licences_text(
    name: &str,
    sections: &str,
    (root, files): (&Path, &[(String, PathBuf)]),
) -> Result<String, PackageError> {
    let mut text = format!(
        "# Licences of what is shipped\n\n{name} is played by Nefia {} (the program beside this file), under the {} \
         licence.\n\n",
        env!("CARGO_PKG_VERSION"),
        env!("CARGO_PKG_LICENSE")
    );
    text.push_str(sections);
    for (what, path) in files {
        let shown = path.strip_prefix(root).unwrap_or(path).to_string_lossy().replace('\\', "/");
        let body = std::fs::read_to_string(path).map_err(io(path))?;
        text.push_str(&format!("## {what}: {shown}\n\n```\n{}\n```\n\n", body.trim_end()));
    }
    Ok(text)
}

/// The README for players.
pub(super) fn player_readme(manifest: &PackageManifest) -> String {
    let name = &manifest.name;
    let program = &manifest.program;
    // The folder the player's things go in, as `PlayerDirs::installed` names it (packaging
    // refuses a name that gives none), spelled as `directories` spells it on each system.
    let folder = crate::player_dirs::folder_name(name).unwrap_or_else(|| name.clone());
    let linux: String = folder.split_whitespace().collect::<String>().to_lowercase();
    format!(
        "{name}\n{underline}\n\n\
         To play, run {program} in this folder (double-click it, or ./{program} in a terminal). Keep the folder\n\
         together: the game is in game/.\n\n\
         Your saved games, settings and bug reports are kept in your own folders, under the game's name:\n\
         - Linux: ~/.local/share/{linux}/ (saves/, reports/) and ~/.config/{linux}/settings.ron\n\
         \x20 (or under $XDG_DATA_HOME and $XDG_CONFIG_HOME)\n\
         - Windows: %APPDATA%\\{folder}\\data\\ and %APPDATA%\\{folder}\\config\\settings.ron\n\
         - macOS: ~/Library/Application Support/{mac}/\n\
         Run it with --portable to keep them beside the program instead (saves/, reports/, settings.ron).\n\n\
         If the game stops on an error, it writes a bug report and shows where: send that file to the\n\
         game's makers; it lets them play your game again up to the error.\n\n\
         {program} --self-test plays a short game by itself and says whether everything works.\n\n\
         The licences of what is shipped are in LICENCES.md.\n",
        underline = "=".repeat(name.chars().count().max(1)),
        mac = folder.replace(' ', "-"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_players_readme_names_the_folders_the_game_keeps_their_things_in() {
        let manifest = PackageManifest {
            name: "Demo: Redux".into(),
            program: "demo-redux".into(),
            nefia: String::new(),
            mods: Vec::new(),
            maps: Vec::new(),
        };
        let readme = player_readme(&manifest);
        // `PlayerDirs::installed` makes the ':' a '_'.
        assert!(readme.contains("~/.local/share/demo_redux/"), "{readme}");
        assert!(readme.contains("%APPDATA%\\Demo_ Redux\\data\\"), "{readme}");
    }

    #[test]
    fn a_readmes_licence_section_is_found() {
        let readme = "# Assets\n\nImages.\n\n## Licence\n\nMIT, like the code.\n\n## Redrawing\n\nRun it.\n";
        assert_eq!(licence_section(readme).as_deref(), Some("MIT, like the code."));
        assert_eq!(licence_section("# A\n\n## Use\n\nx\n"), None);
    }

    #[test]
    fn only_what_the_game_loads_is_shipped() {
        assert!(kind_of(Path::new("mods/elona/init.lua")) == Kind::Data);
        assert!(kind_of(Path::new("assets/tiles/grass.png")) == Kind::Image);
        assert!(kind_of(Path::new("mods/elona/locale/LICENSE")) == Kind::Licence);
        assert!(kind_of(Path::new("assets/draw_art.py")) == Kind::Other);
        assert!(kind_of(Path::new("assets/README.md")) == Kind::Other);
    }
}
