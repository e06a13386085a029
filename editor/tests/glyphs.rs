//! Every character the editor's own text uses has a glyph in the fonts it draws with: a
//! missing one shows as ◻ (as 🧪 once did, in a font with no emoji).

use std::path::{Path, PathBuf};

use nefia_tests::repo_root;

/// The Rust files under `dir`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("readable").filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

#[test]
fn every_character_of_the_editors_text_has_a_glyph() {
    let mut files = Vec::new();
    sources(&repo_root().join("editor/src"), &mut files);
    // The characters outside ASCII in code (comments are not drawn), with a file each is in.
    let mut used: std::collections::BTreeMap<char, PathBuf> = Default::default();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for c in line.chars().filter(|c| !c.is_ascii()) {
                used.entry(c).or_insert_with(|| file.clone());
            }
        }
    }
    assert!(used.contains_key(&'▶') && used.contains_key(&'•'), "the scan finds the editor's symbols");
    // The fonts as the editor's windows install them, read inside a frame.
    let ctx = egui::Context::default();
    nefia_editor::render::install_fonts(&ctx);
    let mut missing: Vec<String> = Vec::new();
    let mut output = ctx.run_ui(egui::RawInput::default(), |ui| {
        missing = ui.ctx().fonts_mut(|fonts| {
            // A character no font has is drawn as the replacement glyph: the same image as ◻.
            let mut image_of = |c: char, font: &egui::FontId| {
                let galley = fonts.layout_no_wrap(c.to_string(), font.clone(), egui::Color32::WHITE);
                galley.rows.first().and_then(|row| row.glyphs.first()).map(|g| g.uv_rect)
            };
            let fonts_of = [egui::FontId::proportional(14.0), egui::FontId::monospace(14.0)];
            used.iter()
                .filter(|(c, _)| fonts_of.iter().any(|font| image_of(**c, font) == image_of('\u{25FB}', font)))
                .map(|(c, file)| format!("{c} (U+{:04X}) in {}", u32::from(*c), file.display()))
                .collect()
        });
    });
    output.textures_delta.clear();
    assert!(missing.is_empty(), "characters the fonts cannot draw: {missing:#?}");
}
