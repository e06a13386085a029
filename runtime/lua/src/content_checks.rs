//! What content must be besides of its fields' types, once every mod has loaded: each id a
//! `data_id` field names is a prototype of that type ([`nefia_game::references`]), no field
//! name is a slip for a declared one ([`nefia_game::field_spelling`]), and a field a form
//! edits is not set again by code after its `data:add` ([`super::prototype_overrides`]).
//!
//! The forms and `data.set_field` ask [`check_field_edit`] before they change anything (the
//! value's type and ids are [`super::schema::check_value`]'s); a hotload may not leave a
//! reference dangling that was not ([`dangling_added`]); `nefia check` lists every problem
//! ([`problems`]). A problem is placed at the line of the field in the prototype's
//! `data:add` table where the table writes it out, else at the `data:add`.

use std::fmt;

use mlua::Lua;

use super::engine;
use super::prototype_overrides::{self, Overridden};
use nefia_game::field_spelling::{self, Misspelled};
use nefia_game::moddable::Origin;
use nefia_game::references::{self, Dangling};
use nefia_game::source_edit::{self, Locator};
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;

/// Why a form may not write a prototype's field.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FieldEditError {
    /// The field is not declared but nearly is: a slip for a declared one.
    #[error(transparent)]
    Misspelled(#[from] Misspelled),
    /// Code sets the field again after the prototype's `data:add`: the edit would not show.
    #[error(transparent)]
    Overridden(#[from] Overridden),
}

/// Checks a form's edit of field `field` of prototype `id` (of `data_type`) to `value` (none:
/// unset) against what [`super::schema::check_value`] does not judge: a new value for a
/// misspelled field, and any edit of a field code sets again after `data:add`.
pub fn check_field_edit(
    lua: &Lua,
    data_type: &str,
    id: &str,
    field: &str,
    value: Option<&Value>,
) -> Result<(), FieldEditError> {
    if value.is_some() {
        let engine = engine(lua);
        let world = engine.world.borrow();
        if let Some(misspelled) =
            world.data.data_type(data_type).ok().and_then(|t| field_spelling::misspelled(t, field))
        {
            return Err(misspelled.into());
        }
    }
    match prototype_overrides::overridden(lua, data_type, id, field) {
        Some(overridden) => Err(overridden.into()),
        None => Ok(()),
    }
}

/// A problem with a prototype, where its source says it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentProblem {
    /// The file, as errors name it (`mods/elona/content/generators.lua`).
    pub file: Symbol,
    /// Its line (1-based), or 0 when not known.
    pub line: u32,
    /// What is wrong, naming the prototype and field.
    pub message: String,
}

impl fmt::Display for ContentProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// Every reference that names no prototype of its type, and every misspelled field, of the
/// loaded prototypes (what `nefia check` reports).
pub fn problems(lua: &Lua) -> Vec<ContentProblem> {
    let (dangling, misspelled) = {
        let engine = engine(lua);
        let world = engine.world.borrow();
        (references::dangling(&world.data), field_spelling::misspelled_fields(&world.data))
    };
    let mut found: Vec<ContentProblem> = dangling.iter().map(|d| locate_dangling(lua, d, None)).collect();
    for (id, misspelled) in misspelled {
        let (file, line) = locate(lua, misspelled.data_type, id, &misspelled.name, None, None);
        found.push(ContentProblem { file, line, message: format!("{id}: {misspelled}") });
    }
    found
}

/// The references that name no prototype of their type now, of those that did before (a
/// hotload's `before`, from [`references::dangling`]): what the reload of file `file`, which
/// ran `text`, left dangling.
pub fn dangling_added(lua: &Lua, before: &[Dangling], file: Symbol, text: &str) -> Vec<ContentProblem> {
    let now = {
        let engine = engine(lua);
        references::dangling(&engine.world.borrow().data)
    };
    // The same reference, though the ids a refusal lists may differ.
    let same = |a: &Dangling, b: &Dangling| {
        (a.data_type, a.prototype, a.field, &a.within, a.error.id())
            == (b.data_type, b.prototype, b.field, &b.within, b.error.id())
    };
    now.iter()
        .filter(|d| !before.iter().any(|b| same(b, d)))
        .map(|d| locate_dangling(lua, d, Some((file, text))))
        .collect()
}

/// Places `dangling` in the source: `reloaded` is a file's name and the text it runs now.
fn locate_dangling(lua: &Lua, dangling: &Dangling, reloaded: Option<(Symbol, &str)>) -> ContentProblem {
    let (file, line) = match dangling.prototype {
        Some(id) => {
            // An item of a list is placed at its own line.
            let item = dangling.within.strip_prefix('[').and_then(|rest| rest.split(']').next()?.parse().ok());
            locate(lua, dangling.data_type, id, dangling.field.as_str(), item, reloaded)
        }
        None => {
            let engine = engine(lua);
            let world = engine.world.borrow();
            let origin = world.data.data_type(dangling.data_type.as_str()).map(|t| t.origin.clone());
            origin.map_or((dangling.data_type, 0), |o| (o.file, o.line))
        }
    };
    ContentProblem { file, line, message: dangling.to_string() }
}

/// The file and line of field `field` (its `item`th item, 1-based, if given and a list's) of
/// prototype `id` of `data_type`: the field's line in the prototype's `data:add` table where
/// it is written there, else the `data:add`'s line. `reloaded` gives a file's text as it runs
/// now (a hotload's, maybe not yet on disk).
fn locate(
    lua: &Lua,
    data_type: Symbol,
    id: Symbol,
    field: &str,
    item: Option<usize>,
    reloaded: Option<(Symbol, &str)>,
) -> (Symbol, u32) {
    let engine = engine(lua);
    let origin: Origin = {
        let world = engine.world.borrow();
        match world.data.find_symbol(data_type, id) {
            Ok(index) => world.data.proto(index).origin.clone(),
            Err(_) => return (data_type, 0),
        }
    };
    let text = match reloaded {
        Some((file, text)) if file == origin.file => Some(text.to_owned()),
        _ => engine
            .sources
            .borrow()
            .values()
            .find(|source| source.name == origin.file)
            .and_then(|source| source.path.as_ref())
            .and_then(|path| std::fs::read_to_string(path).ok()),
    };
    let short_id = origin.mod_id.and_then(|m| id.as_str().strip_prefix(&format!("{m}.")).map(str::to_owned));
    let line = text.zip(short_id).and_then(|(text, short_id)| {
        let at = Locator { data_type: data_type.as_str(), short_id: &short_id, line: origin.line };
        let item_line =
            item.and_then(|n| source_edit::item_lines(&text, &at, field).ok()??.get(n.checked_sub(1)?).copied());
        item_line.or_else(|| Some(source_edit::field_source(&text, &at, field).ok()??.line))
    });
    (origin.file, line.unwrap_or(origin.line))
}
