//! Play mode on the runtime thread: the edit state set aside on Play and put back on Stop,
//! with the editor's undo history (see [`crate::host::play`]).

use super::{Host, RefusalKind};
use crate::game::display::LogLevel;
use crate::host::play::PlayFrom;
use crate::lua::gui;

impl Host {
    /// Starts playing; a failure leaves the edit state as it was.
    pub(super) fn begin_play(&self, from: PlayFrom) {
        if self.play.edit.borrow().is_some() {
            self.refuse_hinting(RefusalKind::Play, "already playing: stop first", super::Hint::StopPlay);
            return;
        }
        // A workbench preview is not part of the edit state: it closes, its map with it —
        // unless it is what is played ("Play this"); then it shows again after Stop.
        let preview = self.preview_map();
        if !matches!(from, PlayFrom::Map(map) if Some(map) == preview) {
            self.close_preview();
        }
        let began = from.describe(&self.runtime.maps());
        match self.runtime.begin_play(from) {
            Ok(edit) => {
                *self.play.edit.borrow_mut() = Some(edit);
                self.runtime.engine().gui.borrow_mut().clear_messages();
                self.play.paused.set(false);
                self.runtime.engine().play.playing.set(true);
                // Edits made while playing are undone with the play, not one by one.
                let history = std::mem::take(&mut *self.history.borrow_mut());
                *self.play.history.borrow_mut() = Some(history);
                self.start_recording(began);
            }
            Err(error) => {
                self.refuse(RefusalKind::Play, format!("cannot play: {error}"));
            }
        }
    }

    /// Stops playing and puts the edit state back.
    pub(super) fn end_play(&self) {
        self.play.stop_pending.set(false);
        let Some(edit) = self.play.edit.borrow_mut().take() else { return };
        self.finish_recording();
        self.error.take();
        self.play.paused.set(false);
        self.break_requested.set(false);
        let engine = self.runtime.engine();
        engine.play.playing.set(false);
        engine.play.quit_requested.set(false);
        engine.gui.borrow_mut().clear_messages();
        if let Err(error) = self.runtime.end_play(edit) {
            gui::log(self.runtime.lua(), LogLevel::Error, format!("the edit state could not be put back: {error}"));
        }
        // The play's history goes with the played world (its pins were in that world).
        *self.history.borrow_mut() = self.play.history.borrow_mut().take().unwrap_or_default();
    }

    /// Ends play once the code that was running has unwound, if Stop or `Play.quit()` asked.
    pub(super) fn finish_play_if_asked(&self) {
        let quit = self.runtime.engine().play.quit_requested.take();
        if self.play.stop_pending.get() || quit {
            self.end_play();
        }
    }

    /// A key with no UI layer open goes to the game: `base.on_key_pressed`. A break asked
    /// for pauses first, at this turn boundary; the key (a local there) can be changed.
    pub(super) fn game_key(&self, key: &str) -> mlua::Result<()> {
        let lua = self.runtime.lua();
        let mut key = key.to_owned();
        if self.break_requested.take() {
            let env = self.runtime.engine().repl.borrow().env.clone();
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
        crate::lua::event::trigger(lua, crate::Symbol::intern("base.on_key_pressed"), mlua::Value::Nil, params)?;
        Ok(())
    }
}
