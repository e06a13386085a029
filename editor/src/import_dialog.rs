//! File → Import map…: a Tiled or LDtk map brought into the project (as `nefia import`
//! does). The dialog shows each tile the mapping lists with its picture cut from the tileset
//! ([`crate::tile_pictures`]), numbered as the mapping's template numbers them; has a small
//! file browser for the map file; remembers what was last imported; and opens the imported
//! map at the end (its new tiles' mod reloaded first, when it is loaded).

use std::path::{Path, PathBuf};

use nefia_game::exchange::Mapping;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::Command;
use nefia_protocol::mods::ModCommand;

use crate::context::EditorContext;

/// The side thumbnails are shown at, in points.
const THUMBNAIL_PT: f32 = 32.0;

/// The dialog's fields and what it has shown.
#[derive(Clone, Default)]
pub struct ImportForm {
    /// The `.tmx`, `.tmj` or `.ldtk` file.
    pub source: String,
    /// The mapping file; empty: `<stem>.mapping.ron` beside the source.
    pub mapping: String,
    /// The mod new tiles are made in (`--new-tiles`); empty: tiles are mapped to existing ones.
    pub new_tiles: String,
    /// The folder the file browser shows, while it is open.
    browsing: Option<PathBuf>,
    /// The pictures of the source's tiles, for the source they were cut for.
    pictures: Option<Pictures>,
}

impl PartialEq for ImportForm {
    fn eq(&self, other: &Self) -> bool {
        (&self.source, &self.mapping, &self.new_tiles) == (&other.source, &other.mapping, &other.new_tiles)
    }
}

impl std::fmt::Debug for ImportForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImportForm")
            .field("source", &self.source)
            .field("mapping", &self.mapping)
            .field("new_tiles", &self.new_tiles)
            .finish_non_exhaustive()
    }
}

/// The source's tiles' pictures, as textures.
#[derive(Clone)]
struct Pictures {
    /// The source they were cut for.
    source: String,
    /// Each tile with a picture, or why none could be shown.
    shown: Result<Vec<Thumbnail>, String>,
    /// The names the source's maps get (the first opens after the import).
    maps: Vec<String>,
}

/// One tile's picture.
#[derive(Clone)]
struct Thumbnail {
    /// Its number in the mapping's template.
    number: usize,
    /// Its name in the source.
    name: String,
    /// What the mapping gives it now ("" if nothing).
    given: String,
    /// Its picture.
    texture: egui::TextureHandle,
}

impl ImportForm {
    /// The form with the paths of the last import, if any.
    pub fn remembered(last: Option<&ImportForm>) -> ImportForm {
        last.map(|l| ImportForm { browsing: None, pictures: None, ..l.clone() }).unwrap_or_default()
    }

    /// The mapping's path: the one given, else `<stem>.mapping.ron` beside the source.
    fn mapping_path(&self) -> PathBuf {
        match self.mapping.trim() {
            "" => nefia_host::maps::import::default_mapping(Path::new(self.source.trim())),
            given => PathBuf::from(given),
        }
    }

    /// Cuts the pictures of the source's tiles if the source changed since they were cut.
    fn refresh_pictures(&mut self, ctx: &egui::Context) {
        let source = self.source.trim().to_owned();
        if source.is_empty() || self.pictures.as_ref().is_some_and(|p| p.source == source) {
            return;
        }
        let path = Path::new(&source);
        if !path.is_file() {
            return;
        }
        let existing: Mapping = nefia_game::files::read_ron(&self.mapping_path()).unwrap_or_default();
        // The source is read once, for its maps' names and its tiles' pictures.
        let sources = nefia_game::exchange::read(path);
        let maps = sources
            .as_ref()
            .map(|maps| maps.iter().map(|m| nefia_host::maps::import::file_name(&m.name)).collect())
            .unwrap_or_default();
        let pictured = sources.map_err(crate::tile_pictures::PicturesError::from).and_then(|sources| {
            crate::tile_pictures::cut_all(&nefia_game::exchange::template_pictures(&sources, &existing))
        });
        let shown = pictured.map_err(|e| e.to_string()).map(|pictures| {
            pictures
                .into_iter()
                .map(|picture| {
                    let size = [picture.image.width() as usize, picture.image.height() as usize];
                    let image = egui::ColorImage::from_rgba_unmultiplied(size, picture.image.as_raw());
                    let texture = ctx.load_texture(
                        format!("import-tile-{}", picture.number),
                        image,
                        egui::TextureOptions::NEAREST,
                    );
                    let given = existing.tiles.get(&picture.name).cloned().unwrap_or_default();
                    Thumbnail { number: picture.number, name: picture.name, given, texture }
                })
                .collect()
        });
        self.pictures = Some(Pictures { source, shown, maps });
    }
}

/// The file browser: the folder's subfolders and map files; a click on a folder opens it, on
/// a file picks it.
fn browser_ui(ui: &mut egui::Ui, form: &mut ImportForm) {
    let Some(dir) = form.browsing.clone() else { return };
    ui.label(dir.display().to_string());
    let mut entries: Vec<(bool, PathBuf)> = std::fs::read_dir(&dir)
        .map(|read| read.flatten().map(|e| (e.path().is_dir(), e.path())).collect())
        .unwrap_or_default();
    entries.retain(|(is_dir, path)| {
        *is_dir || path.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "tmx" | "tmj" | "ldtk"))
    });
    entries.sort_by(|a, b| (!a.0, &a.1).cmp(&(!b.0, &b.1)));
    egui::ScrollArea::vertical().id_salt("import-browser").max_height(160.0).show(ui, |ui| {
        if let Some(parent) = dir.parent()
            && ui.button("..").clicked()
        {
            form.browsing = Some(parent.to_owned());
        }
        for (is_dir, path) in entries {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if is_dir && ui.button(format!("{name}/")).clicked() {
                form.browsing = Some(path);
            } else if !is_dir && ui.button(&name).clicked() {
                form.source = path.display().to_string();
                form.browsing = None;
            }
        }
    });
}

/// The tiles' pictures, each beside its name and what the mapping gives it.
fn pictures_ui(ui: &mut egui::Ui, pictures: &Pictures) {
    match &pictures.shown {
        Err(why) => {
            ui.colored_label(ui.visuals().warn_fg_color, why);
        }
        Ok(shown) if shown.is_empty() => {}
        Ok(shown) => {
            ui.label(format!("The tiles the mapping lists ({} with a picture):", shown.len()));
            egui::ScrollArea::vertical().id_salt("import-pictures").max_height(240.0).show(ui, |ui| {
                egui::Grid::new("import-tiles").striped(true).show(ui, |ui| {
                    for thumbnail in shown {
                        let picture = egui::Image::new(&thumbnail.texture)
                            .fit_to_exact_size(egui::vec2(THUMBNAIL_PT, THUMBNAIL_PT))
                            .alt_text(format!("tile picture {}", thumbnail.number));
                        ui.add(picture);
                        ui.label(format!("{}  {}", thumbnail.number, thumbnail.name));
                        let given = if thumbnail.given.is_empty() { "(not mapped)" } else { &thumbnail.given };
                        ui.weak(given);
                        ui.end_row();
                    }
                });
            });
        }
    }
}

/// The dialog's body; true once the import is asked for (the dialog then closes).
pub fn ui(ui: &mut egui::Ui, form: &mut ImportForm, state: &mut EditorContext) -> bool {
    ui.heading("Import map");
    egui::Grid::new("import-map").show(ui, |ui| {
        crate::dialog_rows::field_row(ui, ("Map file", "map file to import"), &mut form.source, None);
        ui.label("");
        if ui.button("Browse…").on_hover_text("Pick the map file in a folder").clicked() {
            let start = Path::new(form.source.trim()).parent().filter(|p| p.is_dir()).map(Path::to_owned);
            form.browsing = Some(start.unwrap_or_else(|| state.project.clone()));
        }
        ui.end_row();
        crate::dialog_rows::field_row(ui, ("Mapping", "mapping file"), &mut form.mapping, None);
        crate::dialog_rows::field_row(ui, ("New tiles into mod", "new tiles mod"), &mut form.new_tiles, None);
    });
    browser_ui(ui, form);
    ui.weak(
        "A Tiled map (.tmx, .tmj) or an LDtk project (.ldtk; one map per level). With no mapping yet, one is \
         written beside the file listing every tile and object name it uses: fill it in and import again. With a \
         mod for new tiles, the tiles left unmapped become tiles of that mod drawn as their pictures, and every \
         layer stays a layer. The Log says what was written.",
    );
    form.refresh_pictures(ui.ctx());
    if let Some(pictures) = &form.pictures {
        pictures_ui(ui, pictures);
    }
    let asked = ui.button("Import").clicked();
    if !asked || form.source.trim().is_empty() {
        return false;
    }
    let mapping = Some(form.mapping.trim()).filter(|m| !m.is_empty()).map(PathBuf::from);
    let new_tiles = Some(form.new_tiles.trim()).filter(|m| !m.is_empty()).map(str::to_owned);
    let source = PathBuf::from(form.source.trim());
    state.outbox.push(Command::Maps(MapCommand::Import { source, mapping, new_tiles: new_tiles.clone() }));
    // The map opens once imported; its new tiles load first if their mod is loaded (a new
    // mod loads when the project is opened again).
    let loaded = new_tiles.as_ref().is_none_or(|id| state.snapshot.mods.loaded.contains(id));
    if let Some(id) = new_tiles.filter(|_| loaded) {
        state.outbox.push(Command::Mods(ModCommand::ReloadMod(id)));
    }
    // Without a mapping file (and new tiles), the import only writes its template.
    let imports = form.mapping_path().exists() || form.new_tiles.trim() != "";
    let first_map = form.pictures.as_ref().and_then(|p| p.maps.first().cloned());
    if let Some(name) = first_map.filter(|_| loaded && imports) {
        state.outbox.push(Command::Maps(MapCommand::Open(name)));
    }
    true
}
