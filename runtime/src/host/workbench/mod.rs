//! The generator workbench on the host: a preview of one generator's map for one seed and
//! params, shown in the viewport in place of the current map while editing, with the map
//! validators' problems (as the current map's, see `maps/check.rs`); after a hotload it is
//! generated again with the same seed and the cells that changed are told, so the modder
//! sees what the code change did. Baking makes the preview one of the project's maps,
//! written to its file with the generator, params and seed that made it; "Play this" plays
//! it, and it shows again after Stop.
//!
//! The workbench is a subsystem of the host: it owns its state ([`Workbench`]), takes its own
//! commands ([`WorkbenchCommand`], routed here by `Host::handle_timed`) and adds its part of the
//! frame ([`PreviewView`], the snapshot's `preview`).

use std::cell::RefCell;

use super::{Host, NoProject, RefusalKind};
use crate::game::map::MapId;
use crate::game::map_files::MapFileError;
use crate::game::value::Value;
use crate::game::world::World;
use crate::host::protocol::JournalKind;

/// What the workbench is asked to do.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum WorkbenchCommand {
    /// Show seed `seed` of map generator `generator` with `params` in the viewport, in place
    /// of the current map while editing; a hotload generates it again.
    Preview {
        /// The generator, such as `elona.cave`.
        generator: String,
        /// Its params: a map of name → value (missing ones take their defaults).
        params: Value,
        /// The seed.
        seed: i64,
    },
    /// Close the preview: the map current before comes back.
    Close,
    /// Make the preview the project's map of this name, written to its file.
    Bake(String),
}

impl WorkbenchCommand {
    /// The command's name in messages ("a panic in bake preview").
    pub fn name(&self) -> &'static str {
        match self {
            WorkbenchCommand::Preview { .. } => "preview",
            WorkbenchCommand::Close => "close preview",
            WorkbenchCommand::Bake(_) => "bake preview",
        }
    }

    /// A failed runtime's answer (see [`crate::host::Command::answer_when_failed`]): baking
    /// is refused; the preview only acts.
    pub(in crate::host) fn answer_when_failed(&self, problem: &str) -> Option<crate::host::HostEvent> {
        matches!(self, WorkbenchCommand::Bake(_)).then(|| crate::host::protocol::unavailable(problem))
    }

    /// What the command is to the edit journal: the preview opened or closed is kept; a bake
    /// wrote a file, so it takes a new base.
    pub(in crate::host) fn journal_kind(&self) -> JournalKind {
        use crate::game::journal::Journaled;
        match self {
            WorkbenchCommand::Preview { generator, params, seed } => JournalKind::Log(Journaled::Preview {
                generator: generator.clone(),
                params: params.clone(),
                seed: *seed,
            }),
            WorkbenchCommand::Close => JournalKind::Log(Journaled::ClosePreview),
            WorkbenchCommand::Bake(_) => JournalKind::Rebase,
        }
    }
}

/// The workbench's state on the host.
#[derive(Default)]
pub(super) struct Workbench {
    /// The preview, if one shows.
    preview: RefCell<Option<Preview>>,
}

/// The preview being shown.
pub(super) struct Preview {
    generator: String,
    params: Value,
    seed: i64,
    pub(super) map: MapId,
    /// The map that was current before the first preview, made current again when it closes.
    was_current: Option<MapId>,
    view: PreviewView,
}

/// A preview as the editor shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct PreviewView {
    /// The generator.
    pub generator: String,
    /// The seed.
    pub seed: i64,
    /// The preview map (current while it shows); the snapshot's map problems are its.
    pub map: Option<MapId>,
    /// What changed since the previous generation of the same seed (after a hotload or a
    /// param change; another seed is another map, not a change).
    pub diff: Option<PreviewDiff>,
    /// Why the last generation failed (the previous preview stays).
    pub error: Option<String>,
    /// How long the generation took, in milliseconds.
    pub took_ms: f64,
    /// How many times it was generated since the workbench opened it: a new number is a
    /// new result (after a hotload, the same seed's).
    pub generation: u64,
    /// The file the previous preview was baked to (the workbench then shows the same seed
    /// again), until the preview is generated anew.
    #[serde(default)]
    pub baked: Option<String>,
}

/// The cells that differ between two generated maps.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct PreviewDiff {
    /// The cells whose tile or objects differ.
    pub cells: Vec<(i32, i32)>,
    /// How many cells have another tile.
    pub tiles: usize,
    /// How many cells hold other objects (by prototype).
    pub objects: usize,
}

/// The cells of maps `a` and `b` that differ (over the larger of their sizes).
fn diff(world: &World, a: MapId, b: MapId) -> PreviewDiff {
    let (Ok(a), Ok(b)) = (world.map(a), world.map(b)) else { return PreviewDiff::default() };
    let ids = |map: &crate::game::map::InstancedMap, x, y| {
        let mut ids: Vec<_> = map.objects_at(x, y).iter().filter_map(|&u| world.object(u).ok().map(|o| o.id)).collect();
        ids.sort();
        ids
    };
    let mut found = PreviewDiff::default();
    for y in 0..a.height().max(b.height()) {
        for x in 0..a.width().max(b.width()) {
            let tile = a.tile(x, y) != b.tile(x, y);
            let objects = ids(a, x, y) != ids(b, x, y);
            found.tiles += usize::from(tile);
            found.objects += usize::from(objects);
            if tile || objects {
                found.cells.push((x, y));
            }
        }
    }
    found
}

/// Why the preview could not be baked into the project.
#[derive(Debug, thiserror::Error)]
enum BakeError {
    /// There is no project to bake it into.
    #[error(transparent)]
    NoProject(#[from] NoProject),
    /// The map could not be made one of the project's, or written.
    #[error(transparent)]
    Map(#[from] MapFileError),
}

impl Host {
    /// Carries out a workbench command.
    pub(super) fn workbench(&self, command: WorkbenchCommand) {
        match command {
            WorkbenchCommand::Preview { generator, params, seed } => self.preview(generator, params, seed),
            WorkbenchCommand::Close => self.close_preview(),
            WorkbenchCommand::Bake(name) => self.bake_preview(&name),
        }
    }

    /// The preview's map, if one shows.
    pub(super) fn preview_map(&self) -> Option<MapId> {
        self.workbench.preview.borrow().as_ref().map(|p| p.map)
    }

    /// Shows seed `seed` of `generator` with `params` (see the module's text).
    pub(super) fn preview(&self, generator: String, params: Value, seed: i64) {
        if self.play.edit.borrow().is_some() {
            self.refuse(RefusalKind::Play, "the workbench previews while editing: stop playing first");
            return;
        }
        let lua = self.runtime.lua();
        let started = std::time::Instant::now();
        let generate = || -> mlua::Result<MapId> {
            let map_api: mlua::Table = self.runtime.engine().api.get("Map")?;
            let params = crate::lua::convert::to_lua(lua, &params)?;
            let map: mlua::Table =
                map_api.get::<mlua::Function>("generate")?.call((generator.as_str(), params, seed))?;
            Ok(MapId(map.raw_get::<u64>(1)?))
        };
        let generated = generate();
        let took_ms = started.elapsed().as_secs_f64() * 1e3;
        // The validators are Lua (a pause() in one serves the editor, which reads the
        // preview): they run before the preview is borrowed.
        let problems = match &generated {
            Ok(map) => crate::lua::mapgen::validate(lua, *map).unwrap_or_default(),
            Err(_) => Vec::new(),
        };
        let mut preview = self.workbench.preview.borrow_mut();
        let map = match generated {
            Ok(map) => map,
            Err(error) => {
                let message = crate::lua::LuaFailure::from(error).to_string();
                match preview.as_mut() {
                    Some(shown) => shown.view.error = Some(message),
                    None => self.refuse(RefusalKind::Edit, message),
                }
                return;
            }
        };
        let mut world = self.runtime.world_mut();
        let (was_current, diff, generation) = match preview.take() {
            Some(old) => {
                let same_seed = old.generator == generator && old.seed == seed;
                let diff = same_seed.then(|| diff(&world, old.map, map));
                let _ = world.remove_map(old.map);
                (old.was_current, diff, old.view.generation + 1)
            }
            None => (world.current_map(), None, 1),
        };
        let _ = world.set_current_map(map);
        if let Ok(instance) = world.map(map) {
            self.maps.check.record(map, instance.content_revision(), problems);
        }
        let view = PreviewView {
            generator: generator.clone(),
            seed,
            map: Some(map),
            diff,
            error: None,
            took_ms,
            generation,
            baked: None,
        };
        *preview = Some(Preview { generator, params, seed, map, was_current, view });
    }

    /// Generates the preview again with the same seed (after a hotload), if one is shown
    /// and the game is not being played on it.
    pub(super) fn refresh_preview(&self) {
        if self.play.edit.borrow().is_some() {
            return;
        }
        let again = self.workbench.preview.borrow().as_ref().map(|p| (p.generator.clone(), p.params.clone(), p.seed));
        if let Some((generator, params, seed)) = again {
            self.preview(generator, params, seed);
        }
    }

    /// Closes the preview: its map goes and the map current before comes back.
    pub(super) fn close_preview(&self) {
        let Some(preview) = self.workbench.preview.borrow_mut().take() else { return };
        let mut world = self.runtime.world_mut();
        let _ = world.remove_map(preview.map);
        if let Some(map) = preview.was_current {
            let _ = world.set_current_map(map);
        }
    }

    /// Bakes the preview into the project as map `name` (written to `maps/<name>.ron`): it
    /// stays current, now one of the project's maps, and the workbench shows nothing.
    pub(super) fn bake_preview(&self, name: &str) {
        let Some(map) = self.workbench.preview.borrow().as_ref().map(|p| p.map) else {
            self.refuse(RefusalKind::NothingToDo, "there is no preview to bake: generate one first");
            return;
        };
        let baked = (|| -> Result<_, BakeError> {
            let (mut files, mut world, project) = self.runtime.maps_mut();
            let project = project.as_ref().ok_or(NoProject)?;
            files.adopt(&mut world, project, name, map)?;
            Ok(files.save(&world, project, name)?)
        })();
        match baked {
            Ok(path) => {
                // The map is the project's now: closing the workbench must not remove it. The
                // workbench goes on with the same seed generated again, told where the bake went.
                let baked = self.workbench.preview.borrow_mut().take();
                let text = format!("baked the preview to {}", path.display());
                crate::lua::gui::log(self.runtime.lua(), crate::game::display::LogLevel::Info, text);
                if let Some(baked) = baked {
                    self.preview(baked.generator, baked.params, baked.seed);
                    if let Some(shown) = self.workbench.preview.borrow_mut().as_mut() {
                        shown.view.baked = Some(path.display().to_string());
                    }
                }
            }
            Err(error) => self.refuse(RefusalKind::Maps, format!("cannot bake the preview: {error}")),
        }
    }

    /// The preview as the edit journal's base keeps it.
    pub(super) fn base_preview(&self) -> Option<crate::game::journal::BasePreview> {
        self.workbench.preview.borrow().as_ref().map(|p| crate::game::journal::BasePreview {
            generator: p.generator.clone(),
            params: p.params.clone(),
            seed: p.seed,
            map: p.map,
            was_current: p.was_current,
        })
    }

    /// Shows a preview kept by the edit journal's base again (its map is in the world).
    pub(super) fn restore_preview(&self, kept: Option<crate::game::journal::BasePreview>) {
        *self.workbench.preview.borrow_mut() = kept.map(|kept| Preview {
            view: PreviewView {
                generator: kept.generator.clone(),
                seed: kept.seed,
                map: Some(kept.map),
                generation: 1,
                ..PreviewView::default()
            },
            generator: kept.generator,
            params: kept.params,
            seed: kept.seed,
            map: kept.map,
            was_current: kept.was_current,
        });
    }

    /// The preview for the snapshot.
    pub(super) fn preview_view(&self) -> Option<PreviewView> {
        self.workbench.preview.borrow().as_ref().map(|p| p.view.clone())
    }
}
