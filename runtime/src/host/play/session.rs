//! Play mode on the runtime thread: the edit state set aside on Play and put back on Stop,
//! with the editor's undo history (see [`crate::host::play`]).

use std::sync::atomic::Ordering;

use super::{PlayCommand, PlayView};
use crate::game::display::Input;
use crate::game::display::LogLevel;
use crate::game::symbol::Symbol;
use crate::host::play::PlayFrom;
use crate::host::{Hint, Host, HostEvent, RefusalKind};
use crate::lua::GameError;
use crate::lua::gui;

impl Host {
    /// The play subsystem's part of the snapshot.
    pub(in crate::host) fn play_view(&self) -> PlayView {
        PlayView { playing: self.play.playing(), paused: self.play.paused.get(), recording: self.recording_position() }
    }

    /// Handles the play commands.
    pub(in crate::host) fn play(&self, command: PlayCommand) {
        match command {
            PlayCommand::Start(from) => self.begin_play(from),
            PlayCommand::Stop => {
                if self.waits.depth() > 0 {
                    // Lua code waits in a menu or a breakpoint: let it unwind first.
                    self.play.stop_pending.set(true);
                    self.shared.stop.store(true, Ordering::Relaxed);
                } else {
                    self.end_play();
                }
            }
            PlayCommand::Pause(paused) => self.play.paused.set(paused && self.play.playing()),
            PlayCommand::ListSaves => {
                let saves = crate::lua::save::list_saves(&self.runtime.engine().save_dir());
                self.send(HostEvent::Saves(saves));
            }
            PlayCommand::StepTurn => self.step_turn(),
            PlayCommand::StepBack => self.step_back(),
            PlayCommand::StepForward => self.step_forward(),
            PlayCommand::GoToTurn(mark) => {
                let outer = self.play.going_to.replace(Some(mark));
                self.go_to_mark(mark);
                self.play.going_to.set(outer);
            }
            PlayCommand::OpenRecording(path) => self.open_recording(&path),
        }
    }

    /// Input for the top UI layer, or the game when no layer is open and the game is played.
    /// Nothing reaches the game while it is stopped on the error screen or at a breakpoint.
    pub(in crate::host) fn input(&self, input: Input) {
        if self.debug.error.borrow().is_some() {
            return;
        }
        if self.at_breakpoint() {
            // The game's code is stopped mid-line: no key reaches it until it goes on.
            let message = "the game is stopped at a breakpoint: continue to go on";
            self.refuse_hinting(RefusalKind::Play, message, Hint::Continue);
            return;
        }
        let context = match &input {
            Input::Key(key) => format!("key {key}"),
            other => format!("{other:?}"),
        };
        let playing = self.play.playing() && !self.play.paused.get();
        let result = gui::handle_input(self.runtime.lua(), &input).and_then(|handled| match (handled, &input) {
            (false, Input::Key(key)) if playing => self.game_key(key),
            _ => Ok(()),
        });
        if let Err(error) = result {
            self.fail(GameError::new(context, &error));
        }
    }

    /// Lets one turn pass with the player waiting (`base.on_wait_turn`).
    fn step_turn(&self) {
        if !self.play.playing() {
            self.refuse(RefusalKind::Play, "Step works while playing");
            return;
        }
        let lua = self.runtime.lua();
        let trigger = lua.create_table().and_then(|params| {
            crate::lua::event::trigger(lua, Symbol::intern("base.on_wait_turn"), mlua::Value::Nil, params)
        });
        if let Err(error) = trigger {
            self.fail(GameError::new("step".into(), &error));
        }
    }

    /// Starts playing; a failure leaves the edit state as it was.
    pub(in crate::host) fn begin_play(&self, from: PlayFrom) {
        if self.play.playing() {
            self.refuse_hinting(RefusalKind::Play, "already playing: stop first", Hint::StopPlay);
            return;
        }
        // A workbench preview is not part of the edit state: it closes, its map with it —
        // unless it is what is played ("Play this"); then it shows again after Stop.
        let preview = self.workbench.preview_map();
        if !matches!(from, PlayFrom::Map(map) if Some(map) == preview) {
            self.workbench.close(&self.cx());
        }
        let began = from.describe(&self.runtime.maps());
        match self.runtime.begin_play(from) {
            Ok(edit) => {
                *self.play.edit.borrow_mut() = Some(edit);
                self.runtime.engine().clear_messages();
                self.play.paused.set(false);
                self.runtime.engine().start_playing();
                // Edits made while playing are undone with the play, not one by one.
                let history = std::mem::take(&mut *self.editing.history.borrow_mut());
                *self.play.history.borrow_mut() = Some(history);
                self.start_recording(began);
            }
            Err(error) => {
                self.refuse(RefusalKind::Play, format!("cannot play: {error}"));
            }
        }
    }

    /// Stops playing and puts the edit state back; returns where the session's recording
    /// was written, if it was.
    pub(in crate::host) fn end_play(&self) -> Option<std::path::PathBuf> {
        self.play.stop_pending.set(false);
        let edit = self.play.edit.borrow_mut().take()?;
        let recorded = self.finish_recording();
        self.debug.error.take();
        self.play.paused.set(false);
        self.debug.break_requested.set(false);
        let engine = self.runtime.engine();
        engine.stop_playing();
        engine.clear_messages();
        if let Err(error) = self.runtime.end_play(edit) {
            gui::log(self.runtime.lua(), LogLevel::Error, format!("the edit state could not be put back: {error}"));
        }
        // The play's history goes with the played world (its pins were in that world).
        *self.editing.history.borrow_mut() = self.play.history.borrow_mut().take().unwrap_or_default();
        recorded
    }

    /// Ends play once the code that was running has unwound, if Stop or `Play.quit()` asked;
    /// returns where the session's recording was written, if it was.
    pub(in crate::host) fn finish_play_if_asked(&self) -> Option<std::path::PathBuf> {
        let quit = self.runtime.engine().take_quit_request();
        if self.play.stop_pending.get() || quit { self.end_play() } else { None }
    }

    /// A key with no UI layer open goes to the game: `base.on_key_pressed`. A break asked
    /// for pauses first, at this turn boundary; the key (a local there) can be changed.
    pub(in crate::host) fn game_key(&self, key: &str) -> mlua::Result<()> {
        let lua = self.runtime.lua();
        let mut key = key.to_owned();
        if self.debug.break_requested.take() {
            let env = self.runtime.engine().repl_env();
            let turn = self.runtime.world().turn;
            let player = self.runtime.world().player();
            let player = player.map(|uid| crate::lua::handle::push_object(lua, uid)).transpose()?;
            key = lua
                .load("local key, player, turn = ... pause() return key")
                .set_name("=turn boundary")
                .set_environment(env)
                .call((key, player, turn))?;
        }
        let params = lua.create_table()?;
        params.set("key", key)?;
        crate::lua::event::trigger(lua, Symbol::intern("base.on_key_pressed"), mlua::Value::Nil, params)?;
        Ok(())
    }
}
