//! The Profiler pane: where each turn's time went. Record turns the runtime's turn profiler
//! on; the plot shows the last few hundred turns' times (click a bar to pick a turn), and the
//! table lists the picked turn's entries — each event handler, UI layer, widget and map
//! layer with its mod and file:line, and the engine's own work — sortable by any column.

use std::sync::Arc;

use egui::{Color32, RichText, Ui};
use egui_extras::{Column, TableBuilder};
use egui_plot::{Bar, BarChart, Plot};
use nefia_protocol::debugging::DebugCommand;
use nefia_protocol::message::Command;
use nefia_protocol::profile::{ProfileKey, Spent, TurnProfile};

use crate::context::EditorContext;

/// The column the table is sorted by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SortBy {
    /// Own time (the default).
    #[default]
    Time,
    /// How many times it ran.
    Calls,
    /// Kind, then name.
    Name,
}

/// The pane's own state.
#[derive(Default)]
pub struct ProfilerState {
    /// The turn picked in the plot; the newest when none.
    pub picked: Option<u64>,
    /// The table's order.
    pub sort: SortBy,
    /// Ascending instead of the natural order (slowest, most called, A to Z).
    pub reversed: bool,
}

/// Shows the pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, pane: &mut ProfilerState) {
    let profile = state.snapshot.debug.profile.clone();
    ui.horizontal(|ui| {
        let label = if profile.on { "⏺ Recording" } else { "⏺ Record" };
        let record = ui.selectable_label(
            profile.on,
            RichText::new(label).color(if profile.on {
                Color32::from_rgb(255, 110, 110)
            } else {
                ui.visuals().text_color()
            }),
        );
        if record.on_hover_text("Measure where each turn's time goes (costs a few percent of a turn)").clicked() {
            state.outbox.push(Command::Debug(DebugCommand::SetProfiling(!profile.on)));
        }
        if ui.button("Clear").clicked() {
            state.outbox.push(Command::Debug(DebugCommand::ClearProfile));
            pane.picked = None;
        }
        ui.weak(format!("{} turns kept", profile.turns.len()));
    });
    if profile.turns.is_empty() {
        ui.weak("No turns profiled yet: press Record and play a few turns.");
        return;
    }
    plot_ui(ui, &profile.turns, pane);
    let turn = pane
        .picked
        .and_then(|picked| profile.turns.iter().find(|t| t.turn == picked))
        .or_else(|| profile.turns.last())
        .cloned();
    if let Some(turn) = turn {
        table_ui(ui, &turn, pane);
    }
}

/// The turns plot's id (its memory holds where it was drawn: tests click a bar by it).
pub fn plot_id() -> egui::Id {
    egui::Id::new("nefia-turn-profile")
}

/// The turns' times as bars, the picked one highlighted; a click picks the turn under it.
fn plot_ui(ui: &mut Ui, turns: &[Arc<TurnProfile>], pane: &mut ProfilerState) {
    let picked = pane.picked.unwrap_or_else(|| turns.last().map_or(0, |t| t.turn));
    let bars = turns
        .iter()
        .map(|t| {
            let bar = Bar::new(t.turn as f64, t.total.as_secs_f64() * 1e3).width(0.8);
            if t.turn == picked { bar.fill(Color32::from_rgb(255, 210, 90)) } else { bar }
        })
        .collect();
    // The chart stays put above the table and leaves it most of the pane.
    let height = (ui.available_height() * 0.3).clamp(60.0, 140.0);
    let response = Plot::new("turn-profile")
        .id(plot_id())
        .height(height)
        .include_y(0.0)
        .y_axis_label("ms")
        .x_axis_label("turn")
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.bar_chart(BarChart::new("turns", bars).color(Color32::LIGHT_BLUE));
            plot.pointer_coordinate()
        });
    if response.response.clicked()
        && let Some(point) = response.inner
    {
        let nearest = turns.iter().min_by_key(|t| ((t.turn as f64 - point.x).abs() * 1000.0) as u64);
        pane.picked = nearest.map(|t| t.turn);
    }
}

/// The picked turn's entries.
fn table_ui(ui: &mut Ui, turn: &TurnProfile, pane: &mut ProfilerState) {
    ui.strong(format!("turn {}: {:.3} ms", turn.turn, turn.total.as_secs_f64() * 1e3));
    let mut entries: Vec<&(ProfileKey, Spent)> = turn.entries.iter().collect();
    match pane.sort {
        SortBy::Time => entries.sort_by_key(|e| std::cmp::Reverse(e.1.time)),
        SortBy::Calls => entries.sort_by_key(|e| std::cmp::Reverse(e.1.calls)),
        SortBy::Name => entries.sort_by(|a, b| (a.0.kind, &a.0.name).cmp(&(b.0.kind, &b.0.name))),
    }
    if pane.reversed {
        entries.reverse();
    }
    let total = turn.total.as_secs_f64().max(1e-12);
    // Only the table scrolls; its columns are resizable, and a cut entry shows in full on
    // hover (the label's own tooltip: one).
    TableBuilder::new(ui)
        .id_salt("profile-table")
        .striped(true)
        .resizable(true)
        .auto_shrink([false; 2])
        .max_scroll_height(f32::INFINITY)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::auto().at_least(70.0).resizable(true))
        .column(Column::auto().at_least(40.0).resizable(true))
        .column(Column::auto().at_least(50.0).resizable(true))
        .column(Column::remainder().at_least(120.0).clip(true))
        .header(20.0, |mut header| {
            header.col(|ui| sort_button(ui, pane, "ms", SortBy::Time));
            header.col(|ui| {
                ui.strong("%");
            });
            for (title, sort) in [("calls", SortBy::Calls), ("what", SortBy::Name)] {
                header.col(|ui| sort_button(ui, pane, title, sort));
            }
        })
        .body(|mut body| {
            for (key, spent) in entries {
                body.row(20.0, |mut row| {
                    let ms = spent.time.as_secs_f64() * 1e3;
                    row.col(|ui| {
                        ui.label(RichText::new(format!("{ms:.3}")).monospace());
                    });
                    row.col(|ui| {
                        ui.label(format!("{:.1}", spent.time.as_secs_f64() / total * 100.0));
                    });
                    row.col(|ui| {
                        ui.label(spent.calls.to_string());
                    });
                    row.col(|ui| {
                        let at = if key.at.is_empty() { String::new() } else { format!("  {}", key.at) };
                        let text = format!("{}: {}{at}", key.kind.name(), key.name);
                        ui.add(egui::Label::new(RichText::new(text).monospace()).truncate());
                    });
                });
            }
        });
}

/// A column header that sorts the table by `sort` (again: the other way).
fn sort_button(ui: &mut Ui, pane: &mut ProfilerState, title: &str, sort: SortBy) {
    let arrow = match (pane.sort == sort, pane.reversed) {
        (true, false) => " ⏷",
        (true, true) => " ⏶",
        _ => "",
    };
    if ui.button(format!("{title}{arrow}")).on_hover_text("Sort by this column").clicked() {
        pane.reversed = pane.sort == sort && !pane.reversed;
        pane.sort = sort;
    }
}
