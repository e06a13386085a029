//! Where a prototype is used: the Data pane's "Where used" list, and what a Delete refuses
//! over.
//!
//! A prototype's id is named by objects (in the world, on the open maps and in the map files
//! not open), by cells of maps (a tile's id), by other prototypes' fields (a `data_id` value,
//! at any depth of a list or map), by string literals in the mods' Lua files (the Lua lexer
//! finds them, so comments and identifiers do not count) and by recordings (which replay
//! commands naming it). Each usage says where, precisely enough to open it: the object, the
//! map and cell, the file and line, the recording.

use std::io::BufRead;
use std::path::{Path, PathBuf};

use mlua::Lua;

use nefia_game::object::Uid;
use nefia_game::object_record::ObjectRecord;
use nefia_game::save::MapRecord;
use nefia_game::source_edit::{self, Locator};
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_protocol::editing::Usage;

/// Every place that uses prototype `id` of `data_type`, objects and maps first, then fields,
/// Lua files and recordings.
pub fn find(lua: &Lua, data_type: &str, id: &str) -> Vec<Usage> {
    find_where(lua, data_type, id, true)
}

/// The objects that use prototype `id` of `data_type` (see [`find`]), and the map cells.
pub(super) fn in_the_world(lua: &Lua, data_type: &str, id: &str) -> Vec<Usage> {
    find_where(lua, data_type, id, false)
}

/// [`find`], or with `everywhere` false only what the world holds.
fn find_where(lua: &Lua, data_type: &str, id: &str, everywhere: bool) -> Vec<Usage> {
    let mut usages = Vec::new();
    let Some((data_type, id)) = Symbol::lookup(data_type).zip(Symbol::lookup(id)) else { return usages };
    let engine = nefia_lua::engine(lua);
    let project_maps = engine.project().as_ref().map(|p| (p.maps_dir(), p.dir.join("recordings")));
    {
        let world = engine.world();
        let files = engine.map_files();
        in_world(&world, |uid| engine.is_held_by_script(uid), data_type, id, &mut usages);
        if !everywhere {
            return usages;
        }
        if let Some((maps_dir, _)) = &project_maps {
            let closed = files.names().filter(|name| files.map(name).is_none_or(|m| world.map(m).is_err()));
            for name in closed {
                in_map_file(&maps_dir.join(format!("{name}.ron")), name, data_type, id, &mut usages);
            }
        }
        in_fields(&world.data, data_type, id, &engine.sources(), &mut usages);
    }
    let files: Vec<(Symbol, PathBuf)> =
        engine.sources().values().filter_map(|s| Some((s.name, s.path.clone()?))).collect();
    let mut files = files;
    files.sort();
    for (name, path) in files {
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        for line in source_edit::lines_naming(&text, id.as_str()) {
            usages.push(Usage::Literal { at: format!("{name}:{line}") });
        }
    }
    if let Some((_, recordings)) = &project_maps {
        in_recordings(recordings, id.as_str(), &mut usages);
    }
    usages
}

/// The world's objects made from the prototype that are somewhere, or that the player or a
/// script holds (an object an undo took away waits, ownerless, for the next sweep: no use),
/// and the open maps' cells painted with it.
fn in_world(
    world: &nefia_game::world::World,
    held_by_script: impl Fn(Uid) -> bool,
    data_type: Symbol,
    id: Symbol,
    usages: &mut Vec<Usage>,
) {
    let kept = |o: &&nefia_game::object::Object| {
        o.location().is_some() || world.player() == Some(o.uid) || held_by_script(o.uid)
    };
    let made_from = world.all_objects().filter(|o| o.id == id && o.kind.data_type_symbol() == data_type);
    for object in made_from.filter(kept) {
        let outermost = outermost(world, object);
        let map = world.map_of(outermost.uid).and_then(|m| world.map(m).ok());
        usages.push(Usage::Object {
            uid: object.uid,
            title: world.describe(object.uid),
            map: map.map(|m| m.name.clone()),
            x: outermost.x,
            y: outermost.y,
        });
    }
    if data_type.as_str() == "base.map_tile" {
        for map in world.maps() {
            let cells = (0..map.height()).flat_map(|y| (0..map.width()).map(move |x| (x, y)));
            let painted: Vec<(i32, i32)> = cells.filter(|&(x, y)| map.tile(x, y) == Some(id)).collect();
            if let Some(&(x, y)) = painted.first() {
                usages.push(Usage::Tiles { map: map.name.clone(), x, y, count: painted.len() });
            }
        }
    }
}

/// What holds `object`, and what holds that, out to an object on a map or held by nothing.
fn outermost<'w>(
    world: &'w nefia_game::world::World,
    mut object: &'w nefia_game::object::Object,
) -> &'w nefia_game::object::Object {
    use nefia_game::location::Location;
    // Held objects form a tree (a container is never inside itself); the bound is a guard.
    for _ in 0..nefia_game::value::MAX_TABLE_DEPTH {
        let holder = match object.location() {
            Some(Location::Inventory(holder) | Location::Equipment(holder, _)) => holder,
            _ => break,
        };
        match world.object(holder) {
            Ok(next) => object = next,
            Err(_) => break,
        }
    }
    object
}

/// How many of `record` and the records it holds are made from the prototype.
fn count_in(record: &ObjectRecord, data_type: Symbol, id: Symbol) -> usize {
    let own = usize::from(record.id == id && record.kind.data_type_symbol() == data_type);
    own + record.inventory.iter().chain(record.equipment.values()).map(|r| count_in(r, data_type, id)).sum::<usize>()
}

/// The objects and tiles of a map file that is not open. A file that cannot be read is
/// skipped: the Maps pane tells its problem.
fn in_map_file(path: &Path, name: &str, data_type: Symbol, id: Symbol, usages: &mut Vec<Usage>) {
    let Ok(record) = nefia_game::files::read_ron::<MapRecord>(path) else { return };
    for object in &record.objects {
        let found = count_in(object, data_type, id);
        usages.extend((0..found).map(|_| Usage::MapFile { map: name.to_owned(), x: object.x, y: object.y }));
    }
    if data_type.as_str() == "base.map_tile" {
        let codes: Vec<&str> =
            record.palette.iter().filter(|(_, tile)| **tile == id).map(|(c, _)| c.as_str()).collect();
        let width = codes.first().map_or(1, |c| c.len().max(1));
        let mut first = None;
        let mut count = 0;
        for (y, row) in record.tiles.iter().enumerate() {
            for (x, code) in row.as_bytes().chunks(width).enumerate() {
                if codes.iter().any(|c| c.as_bytes() == code) {
                    count += 1;
                    first = first.or(Some((x, y)));
                }
            }
        }
        if let Some((x, y)) = first {
            let (x, y) = (i32::try_from(x).unwrap_or(i32::MAX), i32::try_from(y).unwrap_or(i32::MAX));
            usages.push(Usage::Tiles { map: name.to_owned(), x, y, count });
        }
    }
}

/// Other prototypes' fields that name the id, at the line of the field's value.
fn in_fields(
    data: &nefia_game::data::DataRegistry,
    data_type: Symbol,
    id: Symbol,
    sources: &rustc_hash::FxHashMap<String, nefia_lua::SourceFile>,
    usages: &mut Vec<Usage>,
) {
    fn names(value: &Value, id: &str) -> bool {
        match value {
            Value::Str(s) => &**s == id,
            Value::List(items) => items.iter().any(|v| names(v, id)),
            Value::Map(entries) => entries.iter().any(|(_, v)| names(v, id)),
            _ => false,
        }
    }
    for other_type in data.types() {
        for proto in data.entries(other_type.id.as_str()) {
            if proto.data_type == data_type && proto.id == id {
                continue;
            }
            for (field, value) in proto.given.sorted_by_name() {
                if !names(value, id.as_str()) {
                    continue;
                }
                let line = field_line(proto, field.as_str(), sources).unwrap_or(proto.origin.line);
                usages.push(Usage::Field {
                    data_type: other_type.id.as_str().to_owned(),
                    id: proto.id.as_str().to_owned(),
                    field: field.as_str().to_owned(),
                    at: format!("{}:{line}", proto.origin.file),
                });
            }
        }
    }
}

/// The line of `field`'s value in the `data:add` of `proto`, if its file can be read there.
fn field_line(
    proto: &nefia_game::data::Prototype,
    field: &str,
    sources: &rustc_hash::FxHashMap<String, nefia_lua::SourceFile>,
) -> Option<u32> {
    let path = sources.values().find(|s| s.name == proto.origin.file)?.path.clone()?;
    let text = std::fs::read_to_string(path).ok()?;
    let short_id = proto.id.as_str().strip_prefix(&format!("{}.", proto.origin.mod_id?))?.to_owned();
    let at = Locator { data_type: proto.data_type.as_str(), short_id: &short_id, line: proto.origin.line };
    Some(source_edit::field_source(&text, &at, field).ok()??.line)
}

/// The recordings (in `recordings/` and its `tests/`, not the kept copies of mods' files in
/// `files/`) whose text names the id as a string.
fn in_recordings(dir: &Path, id: &str, usages: &mut Vec<Usage>) {
    let quoted = format!("\"{id}\"");
    for folder in [dir.to_owned(), dir.join("tests")] {
        for path in nefia_game::files::ron_files(&folder) {
            let Ok(file) = std::fs::File::open(&path) else { continue };
            let names_it =
                std::io::BufReader::new(file).lines().map_while(Result::ok).any(|line| line.contains(&quoted));
            if names_it && let Ok(name) = path.strip_prefix(dir) {
                usages.push(Usage::Recording { name: name.to_string_lossy().into_owned() });
            }
        }
    }
}
