//! The draw context `d` given to `draw(self, d)` of widgets, map draw layers and custom UI
//! layers, and calling their `draw` and `update` safely.

use super::messages::log;
use super::messages::text_of;
use mlua::{Function, Lua, Table, UserData, UserDataMethods};
use nefia_game::display::LogLevel;

use super::super::convert::from_lua;
use super::super::{engine, rt_error};
use nefia_game::display::{Color, DrawCmd, DrawList, Position};
use nefia_protocol::failure::GameError;

/// The `d` given to `draw(self, d)`.
#[derive(Default)]
pub(super) struct DrawContext {
    pub(super) commands: DrawList,
}

pub(super) fn color_arg(lua: &Lua, value: &mlua::Value, alpha: Option<f32>) -> mlua::Result<Color> {
    let mut color = match value {
        mlua::Value::Nil => [255, 255, 255, 255],
        other => {
            let value = from_lua(lua, other, "color").map_err(|e| rt_error(lua, e))?;
            nefia_game::world::parse_color(&value).ok_or_else(|| {
                rt_error(lua, format!("a colour must be {{r, g, b}}, {{r, g, b, a}} or \"#rrggbb\", not {value}"))
            })?
        }
    };
    if let Some(alpha) = alpha {
        color[3] = (color[3] as f32 * alpha.clamp(0.0, 1.0)).round() as u8;
    }
    Ok(color)
}

pub(super) struct DrawOptions {
    pub(super) dx: f32,
    pub(super) dy: f32,
    pub(super) size: Option<f32>,
    pub(super) alpha: Option<f32>,
}

pub(super) fn options(options: Option<Table>) -> mlua::Result<DrawOptions> {
    let Some(options) = options else { return Ok(DrawOptions { dx: 0.0, dy: 0.0, size: None, alpha: None }) };
    Ok(DrawOptions {
        dx: options.get::<Option<f32>>("dx")?.unwrap_or(0.0),
        dy: options.get::<Option<f32>>("dy")?.unwrap_or(0.0),
        size: options.get("size")?,
        alpha: options.get("alpha")?,
    })
}

impl UserData for DrawContext {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method_mut(
            "rect",
            |lua, this, (x, y, w, h, color, opts): (f32, f32, f32, f32, mlua::Value, Option<Table>)| {
                let opts = options(opts)?;
                let color = color_arg(lua, &color, opts.alpha)?;
                this.commands.push(DrawCmd::Rect { at: Position { x, y, dx: opts.dx, dy: opts.dy }, w, h, color });
                Ok(())
            },
        );
        methods.add_method_mut(
            "text",
            |lua, this, (x, y, text, color, opts): (f32, f32, mlua::Value, mlua::Value, Option<Table>)| {
                let opts = options(opts)?;
                let color = color_arg(lua, &color, opts.alpha)?;
                let text = text_of(&text)?;
                let at = Position { x, y, dx: opts.dx, dy: opts.dy };
                this.commands.push(DrawCmd::Text { at, text, color, size: opts.size.unwrap_or(14.0) });
                Ok(())
            },
        );
        methods.add_method_mut(
            "glyph",
            |lua, this, (x, y, glyph, color, opts): (f32, f32, String, mlua::Value, Option<Table>)| {
                let opts = options(opts)?;
                let color = color_arg(lua, &color, opts.alpha)?;
                this.commands.push(DrawCmd::Glyph { at: Position { x, y, dx: opts.dx, dy: opts.dy }, glyph, color });
                Ok(())
            },
        );
    }
}

/// Calls `table:draw(d)` and returns what it drew. A failing draw draws nothing and is
/// logged once while it keeps failing, so one broken widget cannot take the HUD down (drawing
/// is not game logic: it does not stop the game).
pub(super) fn draw(lua: &Lua, table: &Table, what: &Drawer) -> DrawList {
    let Ok(Some(function)) = table.get::<Option<Function>>("draw") else { return Vec::new() };
    let engine = engine(lua);
    let result = engine.profiler.scope(
        || what.profile_key("draw"),
        || {
            let context = lua.create_userdata(DrawContext::default())?;
            function.call::<()>((table, &context))?;
            Ok::<_, mlua::Error>(context.take::<DrawContext>()?.commands)
        },
    );
    let what = &what.name;
    match result {
        Ok(commands) => {
            engine.gui.borrow_mut().failing_draws.remove(what);
            commands
        }
        Err(error) => {
            let first = engine.gui.borrow_mut().failing_draws.insert(what.to_owned());
            if first {
                log(lua, LogLevel::Error, format!("{what}: draw failed: {}", crate::error::failure(error)));
            }
            Vec::new()
        }
    }
}

/// Calls `table:update(dt)`; returns true if it asked for more frames.
pub(super) fn update(lua: &Lua, table: &Table, dt: f32, what: &Drawer) -> Result<bool, GameError> {
    let Ok(Some(function)) = table.get::<Option<Function>>("update") else { return Ok(false) };
    let called =
        engine(lua).profiler.scope(|| what.profile_key("update"), || function.call::<mlua::Value>((table, dt)));
    match called {
        Ok(result) => Ok(!matches!(result, mlua::Value::Nil | mlua::Value::Boolean(false))),
        Err(error) => Err(crate::error::game_error(format!("{}: update", what.name), &error)),
    }
}

/// A Lua table the engine draws or updates: how messages and the profiler name it.
pub(super) struct Drawer {
    /// `widget 'hp'`, `map layer 'paths'`, `UI layer 'inventory'`.
    pub(super) name: String,
    /// What it is, for the profiler.
    pub(super) kind: nefia_protocol::profile::ProfileKind,
    /// Where it was registered, if known.
    pub(super) at: String,
}

impl Drawer {
    /// A UI layer named `name`.
    pub(super) fn ui_layer(name: &str) -> Drawer {
        Drawer {
            name: format!("UI layer '{name}'"),
            kind: nefia_protocol::profile::ProfileKind::Layer,
            at: String::new(),
        }
    }

    pub(super) fn profile_key(&self, call: &str) -> nefia_protocol::profile::ProfileKey {
        nefia_protocol::profile::ProfileKey {
            kind: self.kind,
            name: format!("{} {call}", self.name),
            at: self.at.clone(),
        }
    }
}
