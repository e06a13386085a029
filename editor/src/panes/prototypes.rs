//! The Prototypes pane: every data type and its entries, searchable.

use egui::Ui;

use crate::context::EditorContext;

/// Shows the prototypes.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, search: &mut String) {
    let snapshot = state.snapshot.clone();
    ui.horizontal(|ui| {
        ui.label("Search:");
        ui.text_edit_singleline(search);
    });
    let search = search.to_lowercase();
    egui::ScrollArea::vertical().show(ui, |ui| {
        for data_type in snapshot.mods.data.iter() {
            let entries: Vec<_> = data_type
                .entries
                .iter()
                .filter(|e| search.is_empty() || e.id.as_str().to_lowercase().contains(&search))
                .collect();
            if entries.is_empty() && !search.is_empty() {
                continue;
            }
            egui::CollapsingHeader::new(format!("{} ({})", data_type.id, entries.len()))
                .default_open(!search.is_empty())
                .show(ui, |ui| {
                    for entry in entries {
                        egui::CollapsingHeader::new(entry.id.as_str())
                            .id_salt((data_type.id.as_str(), entry.id.as_str()))
                            .show(ui, |ui| {
                                ui.weak(format!("added at {}", entry.origin));
                                for (field, value) in &entry.fields {
                                    ui.monospace(format!("{field} = {value}"));
                                }
                            });
                    }
                });
        }
    });
}
