//! Rows of the editor's dialogs, shared by the File menu's dialogs and the import dialog.

/// A row of a dialog's grid: `label`, then a one-line field for `text` that screen readers
/// and tests find by `name`. Sized: in a modal's grid a field would shrink to its text. A
/// `secret` field is masked unless its Show toggle beside it is on.
pub fn field_row(ui: &mut egui::Ui, (label, name): (&str, &str), text: &mut String, secret: Option<&mut bool>) {
    ui.label(label);
    ui.horizontal(|ui| {
        let masked = secret.as_deref().is_some_and(|shown| !shown);
        let field = ui.add_sized([360.0, 20.0], egui::TextEdit::singleline(text).password(masked));
        crate::accessibility::accessible_name(ui, &field, name);
        if let Some(shown) = secret {
            ui.toggle_value(shown, "Show").on_hover_text("Show what is typed (it is masked otherwise)");
        }
    });
    ui.end_row();
}
