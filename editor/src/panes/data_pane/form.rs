//! The selected prototype's form: its cell and id, where it is added, what it breaks and what
//! was refused, then a row per declared field — its name whole in a column as wide as the
//! longest name (wrapped in a narrow pane), its widget, and ↺ (unset) for a field it sets. A
//! list or table field, and every field of a pane too narrow for two columns, has its widget
//! under its name. A refused value's message is shown under its field; a rule across fields
//! it breaks, above the form, with the fields the rule names in the warning colour. Under the
//! fields, its art ([`super::art`]) and its localized texts in each language
//! ([`super::localized`]).

use std::time::Instant;

use egui::{RichText, Ui};
use nefia_game::edit::Edit;
use nefia_game::{ObjectKind, Symbol, Value};
use nefia_protocol::view::{DataTypeView, FieldView, PrototypeView};

use super::super::field_editor::{field_editor, is_list_or_map};
use super::DataState;
use super::actions::{actions_ui, functions_ui, origin_place, usages_ui};
use super::art::art_ui;
use super::localized::localized_ui;
use crate::context::EditorContext;
use crate::links;
use crate::panes::palette;

/// The narrowest a field's widget is given beside the names' column: narrower, each name goes
/// above its widget.
const MIN_WIDGET_WIDTH: f32 = 70.0;

/// The most of a narrow pane's width the names' column takes (a longer name wraps).
const NAMES_SHARE: f32 = 0.45;

/// The narrowest the names' column is made.
const MIN_NAMES_WIDTH: f32 = 60.0;

/// The button that unsets a field: "revert", as other editors draw it.
const UNSET: &str = "↺";

/// What the Data pane's glyph carries when dragged onto the map: a prototype to place there.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacePrototype {
    /// The kind of object it makes.
    pub kind: ObjectKind,
    /// The prototype's id.
    pub id: String,
}

/// The form of prototype `proto` of `data_type`, disabled while `waiting` for the answer to
/// its last edit.
pub(super) fn form_ui(
    ui: &mut Ui,
    state: &mut EditorContext,
    data: &mut DataState,
    types: &[DataTypeView],
    data_type: &DataTypeView,
    proto: &PrototypeView,
    waiting: bool,
) {
    let key = (data_type.id, proto.id);
    ui.horizontal(|ui| {
        glyph_ui(ui, state, data_type, proto);
        ui.heading(proto.id.as_str());
    });
    let place = origin_place(&proto.origin);
    let link = ui.add(egui::Link::new(place)).on_hover_text("Where it is added: show the source lines");
    if link.clicked()
        && let Some((file, line)) = place.rsplit_once(':').and_then(|(f, l)| Some((f.to_owned(), l.parse().ok()?)))
    {
        state.follow(links::LinkAction::ShowSource(file, line));
    }
    if let Some((made, said)) = &data.made
        && *made == key
    {
        ui.add(egui::Label::new(RichText::new(format!("✔ {said}")).strong()).wrap());
    }
    for problem in &proto.problems {
        let text = RichText::new(format!("⚠ {}", problem.message)).color(ui.visuals().warn_fg_color);
        ui.add(egui::Label::new(text).wrap()).on_hover_text(format!("A rule of {}: it was written", data_type.id));
    }
    if let Some(refusal) = data.refusal(key).filter(|r| r.field.is_none()) {
        ui.add(
            egui::Label::new(RichText::new(format!("⚠ {}", refusal.message)).color(ui.visuals().error_fg_color)).wrap(),
        );
    }
    actions_ui(ui, state, data, types, data_type, proto);
    usages_ui(ui, state, data, proto);
    ui.separator();
    let edits = ui.add_enabled_ui(!waiting, |ui| fields_ui(ui, data, types, data_type, proto)).inner;
    if !edits.is_empty() {
        data.in_flight = Some((Instant::now(), proto.clone()));
    }
    for (field, value) in edits {
        let edit = Edit::PrototypeField {
            data_type: data_type.id.as_str().to_owned(),
            id: proto.id.as_str().to_owned(),
            field: field.as_str().to_owned(),
            value,
        };
        data.send(state, edit, key, Some(field));
    }
    art_ui(ui, state, data_type, proto);
    localized_ui(ui, state, data, data_type, proto);
    functions_ui(ui, data, proto);
}

/// A row per declared field of `data_type`, showing `proto`'s value; returns the edits made
/// (a field and its new value, none to unset it).
fn fields_ui(
    ui: &mut Ui,
    data: &DataState,
    types: &[DataTypeView],
    data_type: &DataTypeView,
    proto: &PrototypeView,
) -> Vec<(Symbol, Option<Value>)> {
    let galley_width = |text: RichText, style: egui::TextStyle| {
        egui::WidgetText::from(text).into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, style).size().x
    };
    let spacing = ui.spacing().item_spacing.x;
    let names_width = data_type
        .fields
        .iter()
        .map(|f| galley_width(RichText::new(f.name.as_str()).strong(), egui::TextStyle::Body))
        .fold(0.0, f32::max);
    // The names' column: as wide as the longest name, or a share of a narrow pane, where a
    // long name wraps.
    let names_width = names_width.min((ui.available_width() * NAMES_SHARE).max(MIN_NAMES_WIDTH));
    let unset_width = galley_width(RichText::new(UNSET), egui::TextStyle::Button) + 2.0 * ui.spacing().button_padding.x;
    let beside = names_width + MIN_WIDGET_WIDTH + unset_width + spacing * 2.0 <= ui.available_width();
    let refusal = data.refusal((data_type.id, proto.id));
    // A field's refusal starts `elona.putit.max_hp: `.
    let refused_prefix = format!("{}.", proto.id);
    let mut edits = Vec::new();
    for field in &data_type.fields {
        let row = Row {
            field,
            given: proto.given.contains(&field.name),
            value: proto.fields.iter().find(|(name, _)| *name == field.name).map_or(&Value::Nil, |(_, v)| v),
            broken: proto
                .problems
                .iter()
                .filter(|p| p.fields.contains(&field.name))
                .map(|p| p.message.as_str())
                .collect(),
        };
        let label = format!("{} of {}", field.name, proto.id);
        let id = ui.make_persistent_id(("data field", proto.id.as_str(), field.name.as_str()));
        let widget = |ui: &mut Ui| field_editor(ui, id, &field.ty, row.value, field, types, label.clone());
        // A list or a table gets the pane's width, under its name.
        let stacked = !beside || is_list_or_map(&field.ty);
        let (new, unset) = match stacked {
            false => {
                ui.horizontal_top(|ui| {
                    ui.allocate_ui_with_layout(
                        egui::vec2(names_width, 0.0),
                        egui::Layout::top_down(egui::Align::LEFT),
                        |ui| {
                            ui.set_width(names_width);
                            row.name_ui(ui);
                        },
                    );
                    let room = ui.available_width() - unset_width - spacing;
                    let new = ui.allocate_ui(egui::vec2(room, 0.0), |ui| widget(ui)).inner;
                    (new, row.unset_ui(ui, &label))
                })
                .inner
            }
            true => {
                let unset = ui.horizontal_wrapped(|ui| {
                    row.name_ui(ui);
                    row.unset_ui(ui, &label)
                });
                let new = ui.indent(id.with("indent"), |ui| widget(ui)).inner;
                (new, unset.inner)
            }
        };
        if let Some(refusal) = refusal.filter(|r| r.field == Some(field.name)) {
            // Under the field, the pane's width: the message without the field it names first.
            let message = refusal.message.strip_prefix(&format!("{refused_prefix}{}: ", field.name));
            let text = format!("⚠ {}", message.unwrap_or(&refusal.message));
            ui.indent(id.with("refusal"), |ui| {
                ui.add(egui::Label::new(RichText::new(text).color(ui.visuals().error_fg_color)).wrap());
            });
        }
        if let Some(new) = new {
            edits.push((field.name, Some(new)));
        }
        if unset {
            edits.push((field.name, None));
        }
    }
    edits
}

/// One field's row of the form.
struct Row<'a> {
    /// The field.
    field: &'a FieldView,
    /// Whether the prototype sets it (else its default shows).
    given: bool,
    /// Its value, the default when not given.
    value: &'a Value,
    /// What the rules across fields it is named by say the prototype breaks.
    broken: Vec<&'a str>,
}

impl Row<'_> {
    /// The field's name, strong when the prototype sets it, in the problems' colour when a
    /// rule it is named by is broken; its type, default and doc on hover.
    fn name_ui(&self, ui: &mut Ui) {
        let field = self.field;
        let name = RichText::new(field.name.as_str());
        let name = if self.given { name.strong() } else { name.weak() };
        let name = if self.broken.is_empty() { name } else { name.color(ui.visuals().warn_fg_color) };
        let mut hover = format!("{}\n\ntype: {}\ndefault: {}", field.doc, field.type_name, field.default);
        for broken in &self.broken {
            hover.push_str(&format!("\n⚠ {broken}"));
        }
        ui.add(egui::Label::new(name).wrap()).on_hover_text(hover);
    }

    /// [`UNSET`] for a field the prototype sets: true when clicked.
    fn unset_ui(&self, ui: &mut Ui, label: &str) -> bool {
        if !self.given {
            return false;
        }
        let hover =
            format!("Unset: remove it from the prototype's table, and the default ({}) shows", self.field.default);
        let unset = ui.button(UNSET).on_hover_text(hover);
        crate::accessibility::accessible_name(ui, &unset, format!("unset {label}"));
        unset.clicked()
    }
}

/// The prototype's cell at the map's zoom — its sprite (as the palette previews it), or its
/// glyph in its colour in the ASCII view and where it has no image; for a character, item,
/// feat or mef, dragging it onto the map places one there.
fn glyph_ui(ui: &mut Ui, state: &mut EditorContext, data_type: &DataTypeView, proto: &PrototypeView) {
    if !matches!(palette::field(proto, "glyph"), Some(Value::Str(_))) {
        return;
    }
    let zoom = state.viewport.camera.map_or(24.0, |c| c.zoom).clamp(16.0, 64.0);
    let art = state.snapshot.mods.art.get(data_type.id, proto.id).cloned();
    let assets = state.snapshot.mods.asset_dirs.clone();
    let viewport = &mut state.viewport;
    let mut sprites: palette::Sprites<'_> =
        (!viewport.toggles.ascii).then(|| (&mut viewport.renderer, assets.as_slice()));
    let mut draw = |ui: &mut Ui| palette::preview(ui, proto, art.as_deref(), zoom, egui::Color32::BLACK, &mut sprites);
    let kind = ObjectKind::ALL.into_iter().find(|k| k.data_type() == data_type.id.as_str());
    match kind {
        Some(kind) => {
            let payload = PlacePrototype { kind, id: proto.id.as_str().to_owned() };
            let id = egui::Id::new(("place prototype", proto.id.as_str()));
            ui.dnd_drag_source(id, payload, draw).response.on_hover_text("Drag onto the map to place one");
        }
        None => {
            draw(ui);
        }
    }
}
