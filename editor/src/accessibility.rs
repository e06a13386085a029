//! What screen readers (and tests querying by label) are told of widgets that show no label of
//! their own. A leaf: the panes, the dialogs and the play controls all name their widgets with
//! it, and it names nothing of the editor.

use egui::Ui;

/// Names a widget for screen readers and tests (`get_by_label`) when it shows no label of
/// its own, such as a text box.
pub fn accessible_name(ui: &Ui, response: &egui::Response, name: impl Into<String>) {
    let name = name.into();
    ui.ctx().accesskit_node_builder(response.id, |node| node.set_label(name));
}
