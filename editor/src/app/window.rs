//! The editor's native window: opened on a project, serving its game to debug adapters and
//! scripts (`nefia edit --listen`), or attached to a game served elsewhere.

use std::path::PathBuf;
use std::sync::Arc;

use nefia_host::AttachError;

use super::{EditorApp, attach_and_wait};

/// Runs the editor window on `project`, with `recording` opened in the timeline if given.
pub fn run(project: PathBuf, recording: Option<PathBuf>) -> eframe::Result<()> {
    eframe::run_native(
        "nefia",
        window_options(),
        Box::new(move |cc| Ok(Box::new(EditorApp::opening(&cc.egui_ctx, project, recording, cc.storage)))),
    )
}

/// Opens the editor on `project` and serves its game on `listener` (`nefia edit --listen`), so
/// a code editor's debug adapter (`nefia dap`, attach) or a script attaches to the game being
/// edited and played. The game served is the one the editor opened: opening another project
/// ends the connections.
pub fn run_serving(
    project: PathBuf,
    recording: Option<PathBuf>,
    listener: nefia_host::remote::Listener,
) -> eframe::Result<()> {
    eframe::run_native(
        "nefia",
        window_options(),
        Box::new(move |cc| {
            let app = EditorApp::opening(&cc.egui_ctx, project, recording, cc.storage);
            let server = listener.serve(app.host().connector());
            Ok(Box::new(Serving { app, _server: server }))
        }),
    )
}

/// The editor with the server of its game beside it.
struct Serving {
    app: EditorApp,
    _server: nefia_host::remote::Server,
}

impl eframe::App for Serving {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        eframe::App::ui(&mut self.app, ui, frame);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::App::save(&mut self.app, storage);
    }
}

/// The editor window's size and title.
fn window_options() -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_title("Nefia").with_inner_size([1280.0, 800.0]),
        ..Default::default()
    }
}

/// Runs the editor window attached to the game served at `address` (`nefia edit --attach`)
/// until it is closed; the game goes on. Attaching happens before the window opens, so a
/// wrong address or token is told on the command line.
pub fn run_attached(address: &str, token: &str) -> Result<eframe::Result<()>, AttachError> {
    let window: Arc<std::sync::OnceLock<egui::Context>> = Arc::default();
    let told = window.clone();
    let repaint = Arc::new(move || {
        if let Some(ctx) = told.get() {
            ctx.request_repaint();
        }
    });
    let host = attach_and_wait(address, token, repaint)?;
    Ok(eframe::run_native(
        "nefia",
        window_options(),
        Box::new(move |cc| {
            let _set = window.set(cc.egui_ctx.clone());
            let project = host.snapshot().project_dir.clone();
            Ok(Box::new(EditorApp::with_host(&cc.egui_ctx, host, project, cc.storage, false)))
        }),
    ))
}
