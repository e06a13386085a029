//! Prototypes' images read when `data:add` is given them: each field declared with
//! `types.image` is read into art (see [`nefia_game::art::parse`]) and checked against the
//! sheets in the project's asset folders — a missing file, a region outside its sheet, a
//! side over 4096 or a file that is not a PNG refuses the prototype, naming it, the file and
//! the line of its `data:add`. A `base.theme`'s `overrides` are read the same way. The art is
//! kept with the data registry ([`nefia_game::art::ArtBook`]), so a map view never reads an
//! `image` value again. OpenNefia's ids of image prototypes (`image = "elona.chara_putit"`)
//! are kept as written and draw the glyph (see [`nefia_game::art::parse::is_image_id`]).

use mlua::{Lua, Table};

use super::convert::from_lua;
use super::{Engine, rt_error};
use nefia_game::art::book::THEME_TYPE;
use nefia_game::art::{ArtError, Parsed, Replacement, Sheets};
use nefia_game::moddable::Origin;
use nefia_game::symbol::Symbol;
use nefia_game::value::{Key, Value};

/// What `data:add` keeps once the prototype is in the registry: its images, read.
pub struct ReadImages {
    own: Option<Parsed>,
    theme: Option<Vec<Replacement>>,
}

/// Whether `checker` is `types.image` or `types.optional(types.image)`.
fn is_image_checker(checker: &Table) -> mlua::Result<bool> {
    match checker.get::<String>("kind")?.as_str() {
        "image" => Ok(true),
        "optional" => Ok(checker.get::<Table>("checker")?.get::<String>("kind")? == "image"),
        _ => Ok(false),
    }
}

/// The fields of `data_type` declared with `types.image`.
fn image_fields(lua: &Lua, data_type: Symbol) -> mlua::Result<Vec<String>> {
    let Some(declared) = super::schema::checkers(lua)?.raw_get::<Option<Table>>(data_type.as_str())? else {
        return Ok(Vec::new());
    };
    let mut fields = Vec::new();
    for decl in declared.raw_get::<Table>("decls")?.sequence_values::<Table>() {
        let decl = decl?;
        if is_image_checker(&decl.raw_get("checker")?)? {
            fields.push(decl.raw_get("name")?);
        }
    }
    Ok(fields)
}

/// Reads the images of prototype `id` of `data_type` (the table `entry` given to `data:add`
/// at `origin`), refusing a bad one.
pub fn read(
    lua: &Lua,
    engine: &Engine,
    data_type: Symbol,
    id: Symbol,
    entry: &Table,
    origin: &Origin,
) -> mlua::Result<ReadImages> {
    let sheets = engine.sheets.borrow();
    let refuse = |field: &str, error: ArtError| {
        rt_error(lua, format!("{data_type} {id} (its data:add at {}): {field}: {error}", origin_text(origin)))
    };
    let mut own = None;
    for field in image_fields(lua, data_type)? {
        let value = entry.raw_get::<mlua::Value>(field.as_str())?;
        if value.is_nil() {
            continue;
        }
        let value = from_lua(lua, &value, &field).map_err(|e| rt_error(lua, e))?;
        if nefia_game::art::parse::is_image_id(&value) {
            // OpenNefia's id of a chara_image or item_chip: kept, the glyph drawn.
            continue;
        }
        let parsed = nefia_game::art::parse(&value, &sheets).map_err(|e| refuse(&field, e))?;
        // The art a map draws is the `image` field's; others are read to be checked.
        if field == "image" {
            own = Some(parsed);
        }
    }
    let theme = match data_type.as_str() == THEME_TYPE {
        true => Some(theme_overrides(lua, entry, &sheets).map_err(|(at, e)| refuse(&at, e))?),
        false => None,
    };
    Ok(ReadImages { own, theme })
}

/// `[mod] mods/x/init.lua:12` without the mod: the file and line.
fn origin_text(origin: &Origin) -> String {
    match origin.line {
        0 => origin.file.to_string(),
        line => format!("{}:{line}", origin.file),
    }
}

/// A theme's `overrides = { ["base.map_tile"] = { ["elona.wall"] = { image = ... } } }`, read:
/// (data type, id, art) for each; the error says where in `overrides` it is.
fn theme_overrides(lua: &Lua, entry: &Table, sheets: &Sheets) -> Result<Vec<Replacement>, (String, ArtError)> {
    let usage = "overrides = { [\"base.map_tile\"] = { [\"elona.wall\"] = { image = \"tiles/wall.png\" } } }";
    let shape = |at: &str, what: String| (at.to_owned(), ArtError::Shape(format!("{what}: write {usage}")));
    let value = entry.raw_get::<mlua::Value>("overrides").map_err(|e| shape("overrides", e.to_string()))?;
    let value = from_lua(lua, &value, "overrides").map_err(|e| shape("overrides", e.to_string()))?;
    let mut read = Vec::new();
    let by_type = match &value {
        Value::Nil => return Ok(read),
        Value::Map(map) => map,
        other => return Err(shape("overrides", format!("it is a {}, not a table by data type", other.type_name()))),
    };
    for (data_type, prototypes) in by_type.iter() {
        let Key::Str(data_type) = data_type else {
            return Err(shape("overrides", "its keys are data types such as \"base.map_tile\"".into()));
        };
        let Value::Map(prototypes) = prototypes else {
            return Err(shape(&format!("overrides[\"{data_type}\"]"), "it is not a table by prototype id".into()));
        };
        for (id, fields) in prototypes.iter() {
            let Key::Str(id) = id else {
                return Err(shape(&format!("overrides[\"{data_type}\"]"), "its keys are prototype ids".into()));
            };
            let at = format!("overrides[\"{data_type}\"][\"{id}\"]");
            let Value::Map(fields) = fields else { return Err(shape(&at, "it is not a table of fields".into())) };
            if let Some(other) = fields.keys().find(|k| **k != Key::Str("image".into())) {
                return Err(shape(&at, format!("a theme replaces images only, not {other:?}")));
            }
            let Some(image) = fields.get(&Key::Str("image".into())) else { continue };
            let parsed = nefia_game::art::parse(image, sheets).map_err(|e| (format!("{at}.image"), e))?;
            read.push((Symbol::intern(data_type), Symbol::intern(id), parsed));
        }
    }
    Ok(read)
}

/// Keeps what [`read`] read, once prototype `id` of `data_type` is in the registry.
pub fn keep(engine: &Engine, data_type: Symbol, id: Symbol, images: ReadImages) {
    let mut world = engine.world.borrow_mut();
    world.data.art.set(data_type, id, images.own);
    if let Some(theme) = images.theme {
        world.data.art.set_theme(id, theme);
    }
}
