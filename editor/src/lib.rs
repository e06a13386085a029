//! # nefia_editor — the editor
//!
//! An eframe + egui_dock application around a running game. The game lives on the runtime
//! thread (`nefia_host`); the editor renders its snapshots and sends commands, and
//! never holds the Lua state. [`app`] is the dock and its menus, [`commands`] every user action
//! with its shortcut and menu entry, [`panes`] one file per pane,
//! [`render`] the map draw layers and the UI drawn over them, [`accessibility`] the names screen
//! readers are told of unlabelled widgets, [`links`] the clickable objects
//! and file:line places in output, [`cli`] the `nefia` command line, one file a subcommand, [`dap`] the debug adapter
//! (`nefia dap`).

pub mod accessibility;
pub mod app;
pub mod cli;
pub mod commands;
pub mod conflicts;
pub mod context;
pub mod dap;
pub mod default_project;
pub mod dialog_rows;
pub mod file_dialogs;
pub mod help;
pub mod import_dialog;
pub mod keybinds;
pub mod keys;
pub mod links;
pub mod package;
pub mod panes;
pub mod play_controls;
pub mod player;
pub mod player_dirs;
pub mod player_options;
pub mod player_quit;
pub mod recovery_dialog;
pub mod render;
pub mod settings;
pub mod themes;
pub mod tile_pictures;
pub mod tools;
