//! The Locations pane: world → maps → objects grouped by type → a character's inventory and
//! equipment → items inside containers, plus the ownerless objects scripts still hold.
//!
//! Rows are virtualised (only the visible ones are laid out), so a map of 100,000 objects
//! scrolls smoothly. Click selects; drag an object onto a character, a container, a map or a
//! viewport cell to move it with `take_object` (a refusal says why and nothing moves); the
//! context menu inspects, clones, removes, refreshes, moves to the player or copies a Lua
//! expression for the object.

use std::collections::HashSet;
use std::sync::Arc;

use egui::{Color32, RichText, Sense, Ui};
use nefia_game::edit::Edit;
use nefia_game::location::Holder;
use nefia_game::{MapId, ObjectKind, Symbol, Uid};
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::view::{LocationTree, ObjectRow};

use crate::context::EditorContext;

const ROW_HEIGHT: f32 = 18.0;

/// What is being dragged: objects, by uid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraggedObjects(pub Vec<Uid>);

/// A node that can be expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Node {
    Map(MapId),
    Group(MapId, ObjectKind),
    Object(Uid),
    Ownerless,
}

/// An object as a line of the tree.
#[derive(Clone, Debug)]
struct ObjectLine {
    uid: Uid,
    kind: ObjectKind,
    id: Symbol,
    name: Option<Arc<str>>,
    at: (i32, i32),
    is_location: bool,
    has_contents: bool,
    slot: Option<Symbol>,
}

impl ObjectLine {
    fn new(row: &ObjectRow, slot: Option<Symbol>) -> ObjectLine {
        ObjectLine {
            uid: row.uid,
            kind: row.kind,
            id: row.id,
            name: row.name.clone(),
            at: (row.x, row.y),
            is_location: row.is_location,
            has_contents: row.contents.is_some(),
            slot,
        }
    }

    fn text(&self) -> String {
        let name = self.name.as_deref().map(|n| format!(" \"{n}\"")).unwrap_or_default();
        let slot = self.slot.map(|s| format!("{s}: ")).unwrap_or_default();
        format!("{slot}uid {} {}{name} ({}, {})", self.uid, self.id, self.at.0, self.at.1)
    }

    fn matches(&self, search: &str) -> bool {
        let search = search.trim().to_lowercase();
        let uid = search.strip_prefix("uid").map(str::trim).unwrap_or(&search);
        uid.parse::<u64>().is_ok_and(|n| n == self.uid.0)
            || self.id.as_str().to_lowercase().contains(&search)
            || self.name.as_deref().is_some_and(|n| n.to_lowercase().contains(&search))
    }
}

/// A line of the flattened tree.
#[derive(Clone, Debug)]
enum Line {
    World,
    Map { id: MapId, name: String, size: (i32, i32), current: bool, count: usize },
    Group { map: MapId, kind: ObjectKind, count: usize },
    Label(&'static str),
    Ownerless(usize),
    Object(ObjectLine),
}

/// The pane's state: search, expanded nodes, and the flattened tree of the last frame.
#[derive(Default)]
pub struct LocationsState {
    /// Only objects matching this (uid, id or name) are listed, flat.
    pub search: String,
    expanded: HashSet<Node>,
    /// The lines, and the tree, expansion and search they were made from.
    lines: Vec<(usize, Line)>,
    made_from: Option<(usize, u64, String)>,
    version: u64,
    /// Scroll to this object's line on the next frame (it was revealed).
    scroll_to: Option<Uid>,
}

impl LocationsState {
    /// Expands the nodes down to `uid` and scrolls its line into view.
    pub fn reveal(&mut self, tree: &LocationTree, uid: Uid) {
        self.scroll_to = Some(uid);
        for map in &tree.maps {
            if let Some(path) = path_to(&map.objects, uid) {
                self.expanded.insert(Node::Map(map.id));
                if let Some(first) = path.first() {
                    let kind = map.objects.iter().find(|r| r.uid == *first).map(|r| r.kind);
                    if let Some(kind) = kind {
                        self.expanded.insert(Node::Group(map.id, kind));
                    }
                }
                self.expanded.extend(path.iter().filter(|&&u| u != uid).map(|&u| Node::Object(u)));
                self.version += 1;
            }
        }
        if tree.ownerless.iter().any(|r| r.uid == uid) {
            self.expanded.insert(Node::Ownerless);
            self.version += 1;
        }
    }

    fn toggle(&mut self, node: Node) {
        if !self.expanded.remove(&node) {
            self.expanded.insert(node);
        }
        self.version += 1;
    }
}

/// The uids from a top-level row down to `uid`, if `uid` is in `rows`.
fn path_to(rows: &[ObjectRow], uid: Uid) -> Option<Vec<Uid>> {
    for row in rows {
        if row.uid == uid {
            return Some(vec![uid]);
        }
        if let Some(contents) = &row.contents {
            let inner: Vec<ObjectRow> =
                contents.inventory.iter().cloned().chain(contents.equipment.iter().map(|(_, r)| r.clone())).collect();
            if let Some(mut path) = path_to(&inner, uid) {
                path.insert(0, row.uid);
                return Some(path);
            }
        }
    }
    None
}

fn flatten(tree: &LocationTree, expanded: &HashSet<Node>, search: &str) -> Vec<(usize, Line)> {
    let mut lines = vec![(0, Line::World)];
    if !search.trim().is_empty() {
        fn collect(rows: &[ObjectRow], search: &str, lines: &mut Vec<(usize, Line)>) {
            for row in rows {
                let line = ObjectLine::new(row, None);
                if line.matches(search) {
                    lines.push((1, Line::Object(line)));
                }
                if let Some(contents) = &row.contents {
                    collect(&contents.inventory, search, lines);
                    let worn: Vec<ObjectRow> = contents.equipment.iter().map(|(_, r)| r.clone()).collect();
                    collect(&worn, search, lines);
                }
            }
        }
        for map in &tree.maps {
            collect(&map.objects, search, &mut lines);
        }
        collect(&tree.ownerless, search, &mut lines);
        return lines;
    }
    fn object(
        lines: &mut Vec<(usize, Line)>,
        row: &ObjectRow,
        slot: Option<Symbol>,
        depth: usize,
        expanded: &HashSet<Node>,
    ) {
        lines.push((depth, Line::Object(ObjectLine::new(row, slot))));
        let Some(contents) = &row.contents else { return };
        if !expanded.contains(&Node::Object(row.uid)) {
            return;
        }
        if !contents.inventory.is_empty() {
            lines.push((depth + 1, Line::Label(if row.kind == ObjectKind::Chara { "Inventory" } else { "Contents" })));
            for item in &contents.inventory {
                object(lines, item, None, depth + 2, expanded);
            }
        }
        if !contents.equipment.is_empty() {
            lines.push((depth + 1, Line::Label("Equipment")));
            for (slot, item) in &contents.equipment {
                object(lines, item, Some(*slot), depth + 2, expanded);
            }
        }
    }
    for map in &tree.maps {
        lines.push((
            1,
            Line::Map {
                id: map.id,
                name: map.name.clone(),
                size: map.size,
                current: map.current,
                count: map.objects.len(),
            },
        ));
        if !expanded.contains(&Node::Map(map.id)) {
            continue;
        }
        for kind in ObjectKind::ALL {
            let start = map.objects.partition_point(|r| r.kind.draw_order() < kind.draw_order());
            let rows: Vec<&ObjectRow> = map.objects[start..].iter().take_while(|r| r.kind == kind).collect();
            if rows.is_empty() {
                continue;
            }
            lines.push((2, Line::Group { map: map.id, kind, count: rows.len() }));
            if expanded.contains(&Node::Group(map.id, kind)) {
                for row in rows {
                    object(&mut lines, row, None, 3, expanded);
                }
            }
        }
    }
    lines.push((1, Line::Ownerless(tree.ownerless.len())));
    if expanded.contains(&Node::Ownerless) {
        for row in &tree.ownerless {
            object(&mut lines, row, None, 2, expanded);
        }
    }
    lines
}

fn group_name(kind: ObjectKind) -> &'static str {
    match kind {
        ObjectKind::Feat => "Feats",
        ObjectKind::Mef => "Mefs",
        ObjectKind::Item => "Items",
        ObjectKind::Chara => "Characters",
    }
}

/// Shows the locations tree.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, locations: &mut LocationsState) {
    let snapshot = state.snapshot.clone();
    ui.horizontal(|ui| {
        ui.label("Search:");
        ui.add(egui::TextEdit::singleline(&mut locations.search).hint_text("uid, id or name"));
    });
    if let Some(uid) = state.reveal.take() {
        locations.reveal(&snapshot.locations, uid);
    }
    let view = &mut *locations;
    let key = (Arc::as_ptr(&snapshot.locations) as usize, view.version, view.search.clone());
    if view.made_from.as_ref() != Some(&key) {
        view.lines = flatten(&snapshot.locations, &view.expanded, &view.search);
        view.made_from = Some(key);
    }
    let mut actions = Vec::new();
    let mut scroll = egui::ScrollArea::both().auto_shrink([false; 2]);
    if let Some(uid) = view.scroll_to.take()
        && let Some(index) = view.lines.iter().position(|(_, line)| matches!(line, Line::Object(o) if o.uid == uid))
    {
        // The line in the middle of the pane.
        let spacing = ui.spacing().item_spacing.y;
        let offset = index as f32 * (ROW_HEIGHT + spacing) - ui.available_height() / 2.0;
        scroll = scroll.vertical_scroll_offset(offset.max(0.0));
    }
    scroll.show_rows(ui, ROW_HEIGHT, view.lines.len(), |ui, range| {
        for (depth, line) in &view.lines[range] {
            ui.horizontal(|ui| {
                ui.set_height(ROW_HEIGHT);
                ui.add_space(*depth as f32 * 14.0);
                line_ui(ui, line, &view.expanded, &state.selection, &mut actions);
            });
        }
    });
    for action in actions {
        match action {
            Action::Toggle(node) => locations.toggle(node),
            Action::Select(uid) => state.select_and_show(uid),
            Action::Command(command) => state.outbox.push(command),
            Action::Drop(uids, holder) => {
                let (x, y) = match (holder, uids.first()) {
                    (Holder::Map(map), Some(&uid)) => drop_position(&snapshot.locations, map, uid),
                    _ => (0, 0),
                };
                state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::Move { uids, to: holder, x, y })));
            }
            Action::MoveToPlayer(uid, kind) => {
                if let Some(command) = move_to_player(&snapshot.locations, snapshot.player, uid, kind) {
                    state.outbox.push(command);
                }
            }
        }
    }
}

enum Action {
    Toggle(Node),
    Select(Uid),
    Command(Command),
    Drop(Vec<Uid>, Holder),
    MoveToPlayer(Uid, ObjectKind),
}

fn expander(ui: &mut Ui, node: Node, expanded: &HashSet<Node>, actions: &mut Vec<Action>) {
    let arrow = if expanded.contains(&node) { "⏷" } else { "⏵" };
    if ui.add(egui::Button::new(arrow).frame(false).small()).clicked() {
        actions.push(Action::Toggle(node));
    }
}

fn line_ui(ui: &mut Ui, line: &Line, expanded: &HashSet<Node>, selection: &[Uid], actions: &mut Vec<Action>) {
    match line {
        Line::World => {
            ui.strong("World");
        }
        Line::Map { id, name, size, current, count } => {
            expander(ui, Node::Map(*id), expanded, actions);
            // The expander is the row's one triangle: the current map says so in words.
            let current = if *current { " · current" } else { "" };
            let text = format!("map {id} '{name}' {}×{} ({count}){current}", size.0, size.1);
            let response = ui.add(egui::Label::new(RichText::new(text).strong()).sense(Sense::click()));
            drop_target(&response, Holder::Map(*id), actions);
        }
        Line::Group { map, kind, count } => {
            expander(ui, Node::Group(*map, *kind), expanded, actions);
            ui.label(format!("{} ({count})", group_name(*kind)));
        }
        Line::Label(text) => {
            ui.weak(*text);
        }
        Line::Ownerless(count) => {
            expander(ui, Node::Ownerless, expanded, actions);
            ui.label(format!("Ownerless, held by scripts ({count})"));
        }
        Line::Object(object) => object_ui(ui, object, expanded, selection, actions),
    }
}

fn object_ui(ui: &mut Ui, object: &ObjectLine, expanded: &HashSet<Node>, selection: &[Uid], actions: &mut Vec<Action>) {
    if object.has_contents {
        expander(ui, Node::Object(object.uid), expanded, actions);
    } else {
        ui.add_space(18.0);
    }
    let selected = selection.contains(&object.uid);
    let text = RichText::new(object.text()).monospace();
    let text = if selected { text.background_color(Color32::from_rgb(40, 70, 120)) } else { text };
    let response = ui.add(egui::Label::new(text).sense(Sense::click_and_drag()));
    if response.clicked() {
        actions.push(Action::Select(object.uid));
    }
    if response.drag_started() {
        response.dnd_set_drag_payload(DraggedObjects(vec![object.uid]));
    }
    if object.is_location {
        drop_target(&response, Holder::Object(object.uid), actions);
    }
    let uid = object.uid;
    response.context_menu(|ui| {
        if ui.button("Inspect").clicked() {
            actions.push(Action::Select(uid));
        }
        if ui.button("Clone").clicked() {
            actions.push(Action::Command(Command::Editing(EditingCommand::Edit(Edit::Clone { uids: vec![uid] }))));
        }
        if ui.button("Remove (remove_ownership)").clicked() {
            actions.push(Action::Command(Command::Editing(EditingCommand::Edit(Edit::Remove { uids: vec![uid] }))));
        }
        if ui.button("Refresh").clicked() {
            actions.push(Action::Command(Command::Editing(EditingCommand::Edit(Edit::Refresh { uids: vec![uid] }))));
        }
        if ui.button("Move to player").clicked() {
            actions.push(Action::MoveToPlayer(uid, object.kind));
        }
        if ui.button("Copy Lua expression").clicked() {
            ui.ctx().copy_text(format!("World.object({uid})"));
        }
    });
}

/// Dropping objects on `response` moves them into `holder`.
fn drop_target(response: &egui::Response, holder: Holder, actions: &mut Vec<Action>) {
    if response.dnd_hover_payload::<DraggedObjects>().is_some() {
        response.ctx.debug_painter().rect_stroke(
            response.rect,
            2.0,
            (1.5, Color32::LIGHT_BLUE),
            egui::StrokeKind::Outside,
        );
    }
    if let Some(payload) = response.dnd_release_payload::<DraggedObjects>() {
        actions.push(Action::Drop(payload.0.clone(), holder));
    }
}

/// Where on `map` dropped objects go: where they stand if they are on a map (kept inside the
/// target map), else its middle.
fn drop_position(tree: &LocationTree, map: MapId, uid: Uid) -> (i32, i32) {
    let Some(target) = tree.maps.iter().find(|m| m.id == map) else { return (0, 0) };
    let standing = tree.maps.iter().find_map(|m| m.objects.iter().find(|r| r.uid == uid)).map(|r| (r.x, r.y));
    match standing {
        Some((x, y)) => (x.clamp(0, target.size.0 - 1), y.clamp(0, target.size.1 - 1)),
        None => (target.size.0 / 2, target.size.1 / 2),
    }
}

/// "Move to player": items go into the player's inventory, anything else next to the player.
fn move_to_player(tree: &LocationTree, player: Option<Uid>, uid: Uid, kind: ObjectKind) -> Option<Command> {
    let player = player?;
    if kind == ObjectKind::Item {
        return Some(Command::Editing(EditingCommand::Edit(Edit::Move {
            uids: vec![uid],
            to: Holder::Object(player),
            x: 0,
            y: 0,
        })));
    }
    let (map, row) = tree.maps.iter().find_map(|m| m.objects.iter().find(|r| r.uid == player).map(|r| (m.id, r)))?;
    Some(Command::Editing(EditingCommand::Edit(Edit::Move {
        uids: vec![uid],
        to: Holder::Map(map),
        x: row.x,
        y: row.y,
    })))
}
