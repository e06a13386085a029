//! The Help menu's windows: About, and Keyboard and mouse — the editor's shortcuts, its mouse
//! gestures and the game's own keys (its `base.keybind` prototypes, as the game reads them
//! now), each a row that wraps, filtered by a search.

use egui::Ui;
use nefia_protocol::view::Snapshot;

use crate::commands;

/// The mouse and prompt gestures no shortcut lists.
const GESTURES: [(&str, &str); 8] = [
    ("Mouse wheel", "zoom the viewport at the cursor"),
    ("Middle drag, Space + drag", "pan the viewport"),
    ("Click", "select the object on a cell and give the game the keyboard"),
    ("Drag a selected object", "move the selection (Select tool)"),
    ("Right-click, Alt+click", "pick the tile under the cursor (painting tools)"),
    ("Arrows, Enter, Escape, a/b/c…", "answer prompts and menus"),
    ("Enter / Shift+Enter", "run REPL input / add a line"),
    ("S B R F L I O E", "the level tools: select, brush, rectangle, fill, line, eyedropper, place, erase"),
];

/// The width of the keys' column: a longer list of keys wraps inside it.
const KEYS_WIDTH: f32 = 190.0;

/// Which Help windows are open, and the keyboard window's search.
#[derive(Default)]
pub struct Help {
    /// About Nefia is open.
    pub about: bool,
    /// Keyboard and mouse is open.
    pub keys: bool,
    /// What the keyboard window's rows are filtered by.
    pub search: String,
}

/// One row of the keyboard window: the keys, and what they do.
type Row = (String, String);

/// The game's keys: each `base.keybind` prototype's default and alternate keys, and its name.
pub fn game_keys(snapshot: &Snapshot) -> Vec<Row> {
    crate::keybinds::game_keybinds(&snapshot.mods)
        .into_iter()
        .map(|keybind| (keybind.keys.join(", "), keybind.name))
        .collect()
}

impl Help {
    /// Shows the open Help windows.
    pub fn windows(&mut self, ctx: &egui::Context, snapshot: &Snapshot) {
        egui::Window::new("About Nefia").open(&mut self.about).show(ctx, |ui| {
            ui.label(format!("Nefia {}", env!("CARGO_PKG_VERSION")));
            ui.label("An editor-centric 2D roguelike engine in the spirit of OpenNefia.");
        });
        let search = &mut self.search;
        egui::Window::new("Keyboard and mouse").open(&mut self.keys).default_width(520.0).show(ctx, |ui| {
            ui.horizontal(|ui| {
                ui.label("Search:");
                let field = ui.text_edit_singleline(search);
                crate::accessibility::accessible_name(ui, &field, "search keys");
            });
            let wanted = search.to_lowercase();
            let matches =
                |row: &Row| wanted.is_empty() || format!("{} {}", row.0, row.1).to_lowercase().contains(&wanted);
            let editor: Vec<Row> = commands::help_rows(ctx).into_iter().map(|(k, what)| (k, what.to_owned())).collect();
            let gestures: Vec<Row> = GESTURES.iter().map(|&(k, what)| (k.to_owned(), what.to_owned())).collect();
            let game = game_keys(snapshot);
            egui::ScrollArea::vertical().max_height(ctx.content_rect().height() * 0.7).show(ui, |ui| {
                // One grid for every section, so the keys line up down the window.
                egui::Grid::new("help keys").num_columns(2).striped(true).show(ui, |ui| {
                    for (title, rows) in
                        [("The editor", editor), ("Mouse and prompts", gestures), ("The game, while playing", game)]
                    {
                        let rows: Vec<Row> = rows.into_iter().filter(|row| matches(row)).collect();
                        if !rows.is_empty() {
                            section(ui, title, &rows);
                        }
                    }
                });
            });
        });
    }
}

/// A heading and its rows in the window's grid, the keys' column wrapping at [`KEYS_WIDTH`].
fn section(ui: &mut Ui, title: &str, rows: &[Row]) {
    ui.strong(title);
    ui.end_row();
    for (keys, what) in rows {
        ui.scope(|ui| {
            ui.set_max_width(KEYS_WIDTH);
            ui.add(egui::Label::new(egui::RichText::new(keys).strong()).wrap());
        });
        ui.add(egui::Label::new(what).wrap());
        ui.end_row();
    }
}
