//! The generator workbench on the host: a preview of one generator's map for one seed and
//! params, shown in the viewport in place of the current map while editing, with the map
//! validators' problems (as the current map's, see `maps/check.rs`); after a hotload it is
//! generated again with the same seed and the cells that changed are told, so the modder
//! sees what the code change did. Baking makes the preview one of the project's maps,
//! written to its file with the generator, params and seed that made it; "Play this" plays
//! it, and it shows again after Stop.
//!
//! The workbench is a component of the host: it owns its state ([`Workbench`]), takes its own
//! commands ([`WorkbenchCommand`], routed here by `Host::route`) with a [`Cx`], and adds its
//! part of the frame ([`PreviewView`], the snapshot's `preview`). What its previews' validators
//! found it hands back ([`Checked`]) for the spine to give the maps subsystem.

use std::cell::RefCell;

use super::NoProject;
use crate::cx::Cx;
use crate::maps::check::Checked;
use nefia_game::display::LogLevel;
use nefia_game::map::MapId;
use nefia_game::map_files::MapFileError;
use nefia_game::value::Value;
use nefia_game::world::World;
use nefia_protocol::message::{RefusalKind, Refused};

use nefia_protocol::workbench::{PreviewDiff, PreviewView, WorkbenchCommand};

/// The workbench's state on the host.
#[derive(Default)]
pub(crate) struct Workbench {
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

/// The cells of maps `a` and `b` that differ (over the larger of their sizes).
fn diff(world: &World, a: MapId, b: MapId) -> PreviewDiff {
    let (Ok(a), Ok(b)) = (world.map(a), world.map(b)) else { return PreviewDiff::default() };
    let ids = |map: &nefia_game::map::InstancedMap, x, y| {
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

/// Why the preview is generated again: a hotload that changes no cell keeps the diff shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Regenerated {
    /// Asked for (a seed, params, a bake).
    Asked,
    /// The code changed.
    Hotload,
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

impl Workbench {
    /// Carries out a workbench command; `playing` refuses a preview (the workbench previews
    /// while editing). Returns what the new preview's validators found.
    pub(crate) fn handle(&self, cx: &Cx, playing: bool, command: WorkbenchCommand) -> Option<Checked> {
        match command {
            WorkbenchCommand::Preview { generator, params, seed } => {
                self.preview(cx, playing, generator, params, seed, Regenerated::Asked)
            }
            WorkbenchCommand::Close => {
                self.close(cx);
                None
            }
            WorkbenchCommand::Bake(name) => self.bake(cx, &name),
        }
    }

    /// The preview's map, if one shows.
    pub(crate) fn preview_map(&self) -> Option<MapId> {
        self.preview.borrow().as_ref().map(|p| p.map)
    }

    /// Shows seed `seed` of `generator` with `params` (see the module's text); returns what its
    /// validators found.
    fn preview(
        &self,
        cx: &Cx,
        playing: bool,
        generator: String,
        params: Value,
        seed: i64,
        why: Regenerated,
    ) -> Option<Checked> {
        if playing {
            cx.refuse(Refused::new(RefusalKind::Play, "the workbench previews while editing: stop playing first"));
            return None;
        }
        let lua = cx.runtime.lua();
        let started = std::time::Instant::now();
        let generate = || -> mlua::Result<MapId> {
            let map_api: mlua::Table = cx.runtime.engine().api_global("Map")?;
            let params = nefia_lua::convert::to_lua(lua, &params)?;
            let map: mlua::Table =
                map_api.get::<mlua::Function>("generate")?.call((generator.as_str(), params, seed))?;
            Ok(MapId(map.raw_get::<u64>(1)?))
        };
        let generated = generate();
        let took_ms = started.elapsed().as_secs_f64() * 1e3;
        // The validators are Lua (a pause() in one serves the editor, which reads the
        // preview): they run before the preview is borrowed.
        let problems = match &generated {
            Ok(map) => nefia_lua::mapgen::validate(lua, *map).unwrap_or_default(),
            Err(_) => Vec::new(),
        };
        let mut preview = self.preview.borrow_mut();
        let map = match generated {
            Ok(map) => map,
            Err(error) => {
                let message = nefia_lua::error::failure(error).to_string();
                match preview.as_mut() {
                    Some(shown) => shown.view.error = Some(message),
                    None => cx.refuse(Refused::new(RefusalKind::Edit, message)),
                }
                return None;
            }
        };
        let mut world = cx.runtime.world_mut();
        let (was_current, diff, generation) = match preview.take() {
            Some(old) => {
                let same_seed = old.generator == generator && old.seed == seed;
                let diff = match same_seed.then(|| diff(&world, old.map, map)) {
                    Some(none) if none.cells.is_empty() && why == Regenerated::Hotload => old.view.diff.or(Some(none)),
                    diff => diff,
                };
                let _ = world.remove_map(old.map);
                (old.was_current, diff, old.view.generation + 1)
            }
            None => (world.current_map(), None, 1),
        };
        let _ = world.set_current_map(map);
        let found = world.map(map).ok().map(|instance| Checked::new(map, instance.content_revision(), problems));
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
        found
    }

    /// Generates the preview again with the same seed (after a hotload), if one is shown
    /// and the game is not being played on it; returns what its validators found. A hotload
    /// that changed no cell keeps the diff of the last one that did, so a file saved twice
    /// (or reloaded by the watcher and the Reload button both) does not wipe what it showed.
    pub(crate) fn refresh(&self, cx: &Cx, playing: bool) -> Option<Checked> {
        if playing {
            return None;
        }
        let again = self.preview.borrow().as_ref().map(|p| (p.generator.clone(), p.params.clone(), p.seed));
        let (generator, params, seed) = again?;
        self.preview(cx, playing, generator, params, seed, Regenerated::Hotload)
    }

    /// Closes the preview: its map goes and the map current before comes back.
    pub(crate) fn close(&self, cx: &Cx) {
        let Some(preview) = self.preview.borrow_mut().take() else { return };
        let mut world = cx.runtime.world_mut();
        let _ = world.remove_map(preview.map);
        if let Some(map) = preview.was_current {
            let _ = world.set_current_map(map);
        }
    }

    /// Bakes the preview into the project as map `name` (written to `maps/<name>.ron`): it
    /// stays current, now one of the project's maps, and the workbench shows the same seed
    /// generated again, whose validators' findings it returns.
    fn bake(&self, cx: &Cx, name: &str) -> Option<Checked> {
        let Some(map) = self.preview_map() else {
            cx.refuse(Refused::new(RefusalKind::NothingToDo, "there is no preview to bake: generate one first"));
            return None;
        };
        let baked = (|| -> Result<_, BakeError> {
            let (mut files, mut world, project) = cx.runtime.maps_mut();
            let project = project.as_ref().ok_or(NoProject)?;
            files.adopt(&mut world, project, name, map)?;
            Ok(files.save(&world, project, name)?)
        })();
        match baked {
            Ok(path) => {
                // The map is the project's now: closing the workbench must not remove it. The
                // workbench goes on with the same seed generated again, told where the bake went.
                let baked = self.preview.borrow_mut().take();
                cx.log(LogLevel::Info, format!("baked the preview to {}", path.display()));
                let baked = baked?;
                let found = self.preview(cx, false, baked.generator, baked.params, baked.seed, Regenerated::Asked);
                if let Some(shown) = self.preview.borrow_mut().as_mut() {
                    shown.view.baked = Some(path.display().to_string());
                }
                found
            }
            Err(error) => {
                cx.refuse(Refused::new(RefusalKind::Maps, format!("cannot bake the preview: {error}")));
                None
            }
        }
    }

    /// The preview as the edit journal's base keeps it.
    pub(crate) fn base(&self) -> Option<nefia_game::journal::BasePreview> {
        self.preview.borrow().as_ref().map(|p| nefia_game::journal::BasePreview {
            generator: p.generator.clone(),
            params: p.params.clone(),
            seed: p.seed,
            map: p.map,
            was_current: p.was_current,
        })
    }

    /// Shows a preview kept by the edit journal's base again (its map is in the world).
    pub(crate) fn restore(&self, kept: Option<nefia_game::journal::BasePreview>) {
        *self.preview.borrow_mut() = kept.map(|kept| Preview {
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
    pub(crate) fn view(&self) -> Option<PreviewView> {
        self.preview.borrow().as_ref().map(|p| p.view.clone())
    }
}
