//! Clickable text: objects (`<object ('base.chara', uid 12) elona.putit>`) and file:line
//! places (`mods/elona/init.lua:12`) found in REPL results, errors and tracebacks.

use egui::{Color32, RichText, Ui};
use nefia_game::Uid;

/// A piece of a line of output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment<'a> {
    /// Plain text.
    Text(&'a str),
    /// A game object: clicking it selects and inspects it.
    Object {
        /// The text shown.
        text: &'a str,
        /// The object.
        uid: Uid,
    },
    /// A place in a Lua file: clicking it shows the lines around it.
    Source {
        /// The text shown (`file:line`).
        text: &'a str,
        /// The file.
        file: &'a str,
        /// The line.
        line: u32,
    },
}

/// What clicking a link asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkAction {
    /// Select and inspect this object.
    Inspect(Uid),
    /// Show the lines of `file` around `line`.
    ShowSource(String, u32),
    /// Open map `map` (a project map, by name) unless it is the current one, bring cell
    /// (x, y) into view and select what `select` names there, once the map is shown (a Where
    /// used place).
    ShowOnMap {
        /// The map's name.
        map: String,
        /// The cell's column.
        x: i32,
        /// The cell's row.
        y: i32,
        /// What is selected there.
        select: OnMap,
    },
}

/// What a [`LinkAction::ShowOnMap`] selects once its map is shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnMap {
    /// This object.
    Object(Uid),
    /// The object made from this prototype on the cell: an object of a map file that was not
    /// open has its uid only once the map is.
    MadeFrom(String),
    /// The cell itself: the Inspector explains its tile.
    Cell,
}

/// Splits `line` into text, objects and file:line places.
pub fn segments(line: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut rest = line;
    while !rest.is_empty() {
        let object = find_object(rest);
        let source = find_source(rest);
        let next = match (object, source) {
            (Some(o), Some(s)) => Some(if o.0 <= s.0 { o } else { s }),
            (o, s) => o.or(s),
        };
        let Some((start, end, segment)) = next else {
            out.push(Segment::Text(rest));
            break;
        };
        if start > 0 {
            out.push(Segment::Text(&rest[..start]));
        }
        out.push(segment);
        rest = &rest[end..];
    }
    out
}

/// The first `<object (… uid N) …>` in `text`: its byte range and segment.
fn find_object(text: &str) -> Option<(usize, usize, Segment<'_>)> {
    let start = text.find("<object (")?;
    let end = start + text[start..].find('>')? + 1;
    let inner = &text[start..end];
    let digits = inner.split("uid ").nth(1)?;
    let uid: u64 = digits.chars().take_while(char::is_ascii_digit).collect::<String>().parse().ok()?;
    Some((start, end, Segment::Object { text: inner, uid: Uid(uid) }))
}

/// The first `something.lua:N` in `text`: its byte range and segment.
fn find_source(text: &str) -> Option<(usize, usize, Segment<'_>)> {
    let mut from = 0;
    while let Some(found) = text[from..].find(".lua:") {
        let colon = from + found + 4;
        let digits: String = text[colon + 1..].chars().take_while(char::is_ascii_digit).collect();
        let start = text[..colon]
            .rfind(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '(' | '<'))
            .map_or(0, |i| i + 1);
        if let Ok(line) = digits.parse::<u32>()
            && start < colon
        {
            let end = colon + 1 + digits.len();
            return Some((start, end, Segment::Source { text: &text[start..end], file: &text[start..colon], line }));
        }
        from = colon;
    }
    None
}

/// Shows `text` (several lines) in monospace `color`, with its objects and file:line places
/// as links; a clicked link's action goes in `actions`.
pub fn show(ui: &mut Ui, text: &str, color: Color32, actions: &mut Vec<LinkAction>) {
    for line in text.lines() {
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 0.0;
            show_inline(ui, line, color, actions);
        });
    }
}

/// Adds one line of text with its links to the current (horizontal) `ui`.
pub fn show_inline(ui: &mut Ui, line: &str, color: Color32, actions: &mut Vec<LinkAction>) {
    for segment in segments(line) {
        match segment {
            Segment::Text(text) => {
                ui.label(RichText::new(text).monospace().color(color));
            }
            Segment::Object { text, uid } => {
                if ui.link(RichText::new(text).monospace()).on_hover_text("Select and inspect").clicked() {
                    actions.push(LinkAction::Inspect(uid));
                }
            }
            Segment::Source { text, file, line } => {
                if ui.link(RichText::new(text).monospace()).on_hover_text("Show the source lines").clicked() {
                    actions.push(LinkAction::ShowSource(file.to_owned(), line));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_and_places_are_found_among_text() {
        let line = "{ <object ('base.chara', uid 12) elona.putit>, at mods/elona/init.lua:3: oops }";
        assert_eq!(
            segments(line),
            [
                Segment::Text("{ "),
                Segment::Object { text: "<object ('base.chara', uid 12) elona.putit>", uid: Uid(12) },
                Segment::Text(", at "),
                Segment::Source { text: "mods/elona/init.lua:3", file: "mods/elona/init.lua", line: 3 },
                Segment::Text(": oops }"),
            ]
        );
        assert_eq!(segments("\trepl:1: in main chunk"), [Segment::Text("\trepl:1: in main chunk")]);
        assert_eq!(
            segments("a.lua:x b.lua:7"),
            [Segment::Text("a.lua:x "), Segment::Source { text: "b.lua:7", file: "b.lua", line: 7 }]
        );
    }
}
