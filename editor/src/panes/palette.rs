//! The Palette pane: the tiles (`base.map_tile`) the brush paints and the objects
//! (characters, items, feats) the Place tool puts down, searchable, each with a preview of
//! how the map draws it: its sprite under the active themes (a sprite set's piece for a cell
//! alone, from the viewport's atlas), or its glyph in the ASCII view and where it has no
//! image.

use std::path::PathBuf;

use egui::{Color32, FontId, RichText, Sense, Ui, Vec2};
use nefia_game::art::Art;
use nefia_game::{ObjectKind, Symbol, Value};
use nefia_protocol::view::{DataTypeView, PrototypeArt, PrototypeView};

use crate::context::EditorContext;
use crate::context::Tool;
use crate::render::map::MapRenderer;

/// The side of a row's preview, in points.
const SWATCH: f32 = 24.0;

/// Where previews draw sprites from: the viewport's renderer and the sheets' folders; none in
/// the ASCII view (glyphs only).
pub(crate) type Sprites<'a> = Option<(&'a mut MapRenderer, &'a [PathBuf])>;

/// A field of a prototype.
pub(crate) fn field<'a>(entry: &'a PrototypeView, name: &str) -> Option<&'a Value> {
    entry.fields.iter().find(|(k, _)| k.as_str() == name).map(|(_, v)| v)
}

fn color(entry: &PrototypeView, name: &str, fallback: [u8; 4]) -> Color32 {
    let [r, g, b, a] = field(entry, name).and_then(nefia_game::world::parse_color).unwrap_or(fallback);
    Color32::from_rgba_unmultiplied(r, g, b, a)
}

/// A `side`-sized preview of prototype `entry` on `bg`, as the map draws it: its `art` if it
/// has one and `sprites` draw them, else its glyph in its colour. Returns the cell's response.
pub(crate) fn preview(
    ui: &mut Ui,
    entry: &PrototypeView,
    art: Option<&Art>,
    side: f32,
    bg: Color32,
    sprites: &mut Sprites<'_>,
) -> egui::Response {
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    // A cell scrolled out of sight packs no sprite into the atlas.
    if !ui.is_rect_visible(rect) {
        return response;
    }
    let painter = ui.painter();
    painter.rect_filled(rect, 2.0, bg);
    if let (Some(art), Some((renderer, assets))) = (art, sprites)
        && renderer.paint_art_preview(painter, rect, art, assets)
    {
        return response;
    }
    let glyph = field(entry, "glyph").and_then(Value::as_str).unwrap_or("?");
    let fg = color(entry, "color", [200, 200, 200, 255]);
    painter.text(rect.center(), egui::Align2::CENTER_CENTER, glyph, FontId::monospace(side * 0.65), fg);
    response
}

/// One selectable row of prototype `entry` of `data_type`; returns true when clicked.
fn row(
    ui: &mut Ui,
    (data_type, entry): (&DataTypeView, &PrototypeView),
    (art, sprites): (&PrototypeArt, &mut Sprites<'_>),
    bg: Color32,
    selected: bool,
) -> bool {
    let name = field(entry, "name").and_then(Value::as_str).unwrap_or("");
    ui.horizontal(|ui| {
        preview(ui, entry, art.get(data_type.id, entry.id).map(|art| &**art), SWATCH, bg, sprites);
        // The id, and the name under it: both whole in a narrow pane.
        let label = RichText::new(format!("{}\n{name}", entry.id)).monospace();
        ui.selectable_label(selected, label).clicked()
    })
    .inner
}

fn matches(entry: &PrototypeView, search: &str) -> bool {
    let name = field(entry, "name").and_then(Value::as_str).unwrap_or("");
    search.is_empty() || entry.id.as_str().to_lowercase().contains(search) || name.to_lowercase().contains(search)
}

/// Shows the palette.
pub fn ui(ui: &mut Ui, state: &mut EditorContext) {
    let snapshot = state.snapshot.clone();
    let data_type = |id: &str| snapshot.mods.data.iter().find(|t| t.id.as_str() == id);
    let art = snapshot.mods.art.as_ref();
    let level = &mut state.level;
    let viewport = &mut state.viewport;
    let mut sprites: Sprites<'_> =
        (!viewport.toggles.ascii).then(|| (&mut viewport.renderer, snapshot.mods.asset_dirs.as_slice()));
    ui.heading("Tiles");
    ui.horizontal(|ui| {
        ui.label("Search:");
        ui.add(egui::TextEdit::singleline(&mut level.search.0).hint_text("tile id or name"));
    });
    let search = level.search.0.to_lowercase();
    egui::ScrollArea::vertical().id_salt("palette-tiles").max_height(ui.available_height() * 0.45).show(ui, |ui| {
        let Some(tiles) = data_type("base.map_tile") else { return };
        for entry in tiles.entries.iter().filter(|e| matches(e, &search)) {
            let bg = color(entry, "background", [0, 0, 0, 255]);
            if row(ui, (tiles, entry), (art, &mut sprites), bg, level.tile == Some(entry.id)) {
                level.tile = Some(entry.id);
                if !matches!(level.tool, Tool::Brush | Tool::Rect | Tool::Fill | Tool::Line) {
                    level.tool = Tool::Brush;
                }
            }
        }
    });
    ui.separator();
    ui.heading("Objects");
    ui.horizontal(|ui| {
        ui.label("Search:");
        ui.add(egui::TextEdit::singleline(&mut level.search.1).hint_text("object id or name"));
    });
    let search = level.search.1.to_lowercase();
    egui::ScrollArea::vertical().id_salt("palette-objects").show(ui, |ui| {
        for kind in [ObjectKind::Chara, ObjectKind::Item, ObjectKind::Feat, ObjectKind::Mef] {
            let Some(objects) = data_type(kind.data_type()) else { continue };
            let list: Vec<&PrototypeView> = objects.entries.iter().filter(|e| matches(e, &search)).collect();
            egui::CollapsingHeader::new(format!("{} ({})", kind.data_type(), list.len())).default_open(true).show(
                ui,
                |ui| {
                    for entry in list {
                        let selected = level.object == Some((kind, entry.id));
                        if row(ui, (objects, entry), (art, &mut sprites), Color32::from_gray(20), selected) {
                            level.object = Some((kind, Symbol::intern(entry.id.as_str())));
                            level.tool = Tool::Place;
                        }
                    }
                },
            );
        }
    });
}
