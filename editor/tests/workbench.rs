//! The Workbench pane: a generator picked shows its map in the viewport, ▶ takes the next
//! seed and tells what changed, saving the generator's file regenerates the same seed, and a
//! scan of seeds lists the seeds kept, each previewed with a click.

mod common;

use common::{editor_on, step_until};
use egui_kittest::kittest::Queryable;
use nefia_editor::panes::Tab;
use nefia_editor::panes::repl::ReplState;
use nefia_tests::DemoCopy;

#[test]
fn picking_a_generator_previews_it_and_the_next_seed_and_a_hotload_show_the_change() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Workbench);
    step_until(&mut harness, "the generators", |h| h.query_by_label("generator").is_some());
    harness.get_by_label("generator").click();
    step_until(&mut harness, "the list", |h| h.query_by_label("elona.cave").is_some());
    // Through accesskit: kittest's pointer click in the hover's frame misses a popup's items.
    harness.get_by_label("elona.cave").click_accesskit();
    step_until(&mut harness, "the preview", |h| {
        h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "elona.cave #0")
    });
    assert!(harness.query_by_label("param fill").is_some(), "the params' widgets, from the schema");
    step_until(&mut harness, "no problems", |h| h.query_by_label("The validators find no problem.").is_some());

    // The list stays open after an accesskit click: Escape closes it.
    harness.key_press(egui::Key::Escape);
    step_until(&mut harness, "the list closed", |h| h.query_by_label("elona.dungeon").is_none());
    harness.get_by_label("▶").click();
    step_until(&mut harness, "the next seed", |h| {
        h.state().state().snapshot.preview.as_ref().is_some_and(|p| p.seed == 1 && p.diff.is_some())
    });
    step_until(&mut harness, "the change told", |h| h.query_by_label_contains("cells changed:").is_some());

    let file = copy.mod_file("elona/content/generators.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replacen("default = 6, min = 0, max = 200", "default = 30, min = 0, max = 200", 1))
        .unwrap();
    harness.state().host().send(nefia_runtime::host::Command::Reload(file));
    step_until(&mut harness, "the hotload's change", |h| {
        h.state()
            .state()
            .snapshot
            .preview
            .as_ref()
            .and_then(|p| p.diff.as_ref())
            .is_some_and(|d| d.tiles == 0 && d.objects > 0)
    });
    assert_eq!(harness.state().state().snapshot.preview.as_ref().map(|p| p.seed), Some(1), "the same seed");
    // Scan seeds 1 to 20 on every core, keep those whose entrance is left of x = 40.
    harness.get_by_label("Scan seeds").click_accesskit();
    step_until(&mut harness, "the scan's form", |h| h.query_by_label("Scan").is_some());
    {
        let scan = &mut harness.state_mut().panes_mut().workbench.scan;
        (scan.from, scan.to, scan.predicate) = (1, 20, "map.entrance[1] < 40".into());
    }
    // Below the pane's fold (it scrolls): clicked through accesskit.
    harness.get_by_label("Scan").click_accesskit();
    step_until(&mut harness, "the scan's result", |h| h.query_by_label_contains("of 20 seeds kept").is_some());
    let kept: Vec<i64> = match &harness.state_mut().panes_mut().workbench.scan.report {
        Some(Ok(report)) => report.matches.iter().map(|m| m.seed).collect(),
        other => panic!("{:?}", other.as_ref().map(|r| r.as_ref().map(|r| r.scanned))),
    };
    assert!(!kept.is_empty() && kept.len() < 20, "{kept:?}");
    harness.get_by_label(&kept[0].to_string()).click_accesskit();
    step_until(&mut harness, "the seed clicked, previewed", |h| {
        h.state().state().snapshot.preview.as_ref().is_some_and(|p| p.seed == kept[0])
    });
    harness.get_by_label("Close preview").click();
    step_until(&mut harness, "the town again", |h| {
        h.state().state().snapshot.preview.is_none()
            && h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "town")
    });
}
