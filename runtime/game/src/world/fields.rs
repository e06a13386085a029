//! Object fields (IModdable): base and temp values, `calc`, `mod`, `reset`, and what an
//! object shows on the map (`produce_memory`).

use super::object_store::{NO_SLOT, Slot};
use super::{World, WorldError};
use crate::base_changes::{BaseChange, BaseChangeListener};
use crate::map::ObjectMemory;
use crate::moddable::{FieldMap, ModError, ModMethod, Moddable, Origin};
use crate::object::Uid;
use crate::symbol::Symbol;
use crate::value::Value;

impl World {
    /// The prototype fields behind object `uid`.
    pub fn proto_fields(&self, uid: Uid) -> Result<&FieldMap, WorldError> {
        Ok(&self.data.proto(self.object(uid)?.proto).fields)
    }

    /// The names of every field object `uid` has: its prototype's, its own base values' and
    /// its temp values', sorted by name, each once.
    pub fn field_names(&self, uid: Uid) -> Result<Vec<Symbol>, WorldError> {
        let object = self.object(uid)?;
        let proto = &self.data.proto(object.proto).fields;
        let mut names: Vec<Symbol> = proto.iter().map(|(name, _)| name).collect();
        names.extend(object.fields.base.iter().map(|(name, _)| name));
        names.extend(object.fields.temp.iter().map(|(name, _)| name));
        names.sort_by_key(|name| name.as_str());
        names.dedup();
        Ok(names)
    }

    /// Temp if set, else base, else nil (seed: `calc`).
    pub fn calc(&self, uid: Uid, field: Symbol) -> Option<&Value> {
        self.calc_near(NO_SLOT, uid, field).ok().flatten()
    }

    /// [`World::calc`] of the object a handle saw at `slot`.
    pub fn calc_near(&self, slot: Slot, uid: Uid, field: Symbol) -> Result<Option<&Value>, WorldError> {
        // An error made only when it is one: dropping an unused one costs `calc` a call.
        let Some(object) = self.objects.get_near(slot, uid) else { return Err(WorldError::NoSuchObject(uid)) };
        Ok(object.fields.calc(field, &self.data.proto(object.proto).fields))
    }

    /// The base value: the object's own, else its prototype's (seed: `obj.field`).
    pub fn base(&self, uid: Uid, field: Symbol) -> Option<&Value> {
        let object = self.objects.get(&uid)?;
        object.fields.base(field, &self.data.proto(object.proto).fields)
    }

    /// Sets a base value (seed: `obj.field = v`).
    pub fn set_base(&mut self, uid: Uid, field: Symbol, value: Value) -> Result<(), WorldError> {
        self.change_fields(NO_SLOT, uid, Some(field), |fields, proto| {
            fields.set_base(field, value, proto);
            Ok(())
        })?;
        self.base_changed(uid);
        Ok(())
    }

    /// [`World::set_base`] of the object a handle saw at `slot`, for a caller that updates
    /// what the handle shows itself: the [`BaseChangeListener`](crate::base_changes) is not
    /// told (the fast `obj.field = v` of the Lua layer). False, having changed nothing, if
    /// `value` is not surely of the field's declared type (see
    /// [`WriteCheck`](crate::field_type::WriteCheck)): the field's checker must judge it.
    pub fn set_base_shown(&mut self, slot: Slot, uid: Uid, field: Symbol, value: Value) -> Result<bool, WorldError> {
        let Some(object) = self.objects.get_near_mut(slot, uid) else { return Err(WorldError::NoSuchObject(uid)) };
        if !self.data.write_check(object.proto, field).surely_admits(&value) {
            return Ok(false);
        }
        object.fields.set_base(field, value, &self.data.proto(object.proto).fields);
        let (location, position) = (object.location, (object.x, object.y));
        self.object_changed(uid, location, position, Some(field));
        Ok(true)
    }

    /// Tells the listener that object `uid`'s base values may have changed.
    pub(crate) fn base_changed(&self, uid: Uid) {
        self.data.base_changes.notify(BaseChange::Object(uid));
    }

    /// Has `listener` told of every change of what objects show of their base values, the
    /// world's and its data registry's (see [`crate::base_changes`]).
    pub fn listen_to_base_changes(&mut self, listener: BaseChangeListener) {
        self.data.base_changes = listener;
    }

    /// Modifies a temp value (seed: `mod`).
    pub fn mod_temp(
        &mut self,
        uid: Uid,
        field: Symbol,
        value: Value,
        method: ModMethod,
        origin: Origin,
    ) -> Result<(), WorldError> {
        self.mod_temp_near(NO_SLOT, uid, field, value, method, origin)
    }

    /// [`World::mod_temp`] of the object a handle saw at `slot`.
    pub fn mod_temp_near(
        &mut self,
        slot: Slot,
        uid: Uid,
        field: Symbol,
        value: Value,
        method: ModMethod,
        origin: Origin,
    ) -> Result<(), WorldError> {
        self.change_fields(slot, uid, Some(field), |fields, proto| fields.mod_temp(field, value, method, origin, proto))
    }

    /// Modifies a base value (seed: `mod_base`).
    pub fn mod_base(&mut self, uid: Uid, field: Symbol, value: Value, method: ModMethod) -> Result<(), WorldError> {
        self.change_fields(NO_SLOT, uid, Some(field), |fields, proto| fields.mod_base(field, value, method, proto))?;
        self.base_changed(uid);
        Ok(())
    }

    /// Clears a temp value and sets the base value (seed: `reset`).
    pub fn reset(&mut self, uid: Uid, field: Symbol, value: Value) -> Result<(), WorldError> {
        self.change_fields(NO_SLOT, uid, Some(field), |fields, proto| {
            fields.reset(field, value, proto);
            Ok(())
        })?;
        self.base_changed(uid);
        Ok(())
    }

    /// Makes object `uid` one of prototype `id` of its own data type (OpenNefia's
    /// `change_prototype`): its own base and temp values stay; what it did not set comes from
    /// the new prototype. Returns the old prototype's id.
    pub fn change_prototype(&mut self, uid: Uid, id: &str) -> Result<Symbol, WorldError> {
        let object = self.objects.get(&uid).ok_or(WorldError::NoSuchObject(uid))?;
        let old = object.id;
        let proto = self.data.find(object.kind.data_type_symbol(), id)?;
        self.set_prototype(uid, proto)?;
        Ok(old)
    }

    /// Sets object `uid`'s prototype to `proto` (of its data type), marking what shows it as
    /// changed.
    pub(crate) fn set_prototype(&mut self, uid: Uid, proto: crate::data::ProtoIdx) -> Result<(), WorldError> {
        let id = self.data.proto(proto).id;
        let object = self.objects.get_mut(&uid).ok_or(WorldError::NoSuchObject(uid))?;
        (object.proto, object.id) = (proto, id);
        let (location, position) = (object.location, (object.x, object.y));
        self.object_changed(uid, location, position, None);
        self.base_changed(uid);
        Ok(())
    }

    /// Forgets the object's own base value so the prototype's shows again.
    pub fn reset_to_prototype(&mut self, uid: Uid, field: Symbol) -> Result<(), WorldError> {
        self.change_fields(NO_SLOT, uid, Some(field), |fields, _| {
            fields.reset_to_prototype(field);
            Ok(())
        })?;
        self.base_changed(uid);
        Ok(())
    }

    /// Clears every temp value (the first half of `refresh`; the Lua API then emits the
    /// refresh event so handlers re-apply theirs).
    /// Watches do not compare this clearing: only what the refresh ends with
    /// (see `world/watches.rs`).
    pub fn clear_temp(&mut self, uid: Uid) -> Result<(), WorldError> {
        self.quietly(|world| {
            world.change_fields(NO_SLOT, uid, None, |fields, _| {
                fields.clear_temp();
                Ok(())
            })
        })
    }

    /// Changes the fields of object `uid` (looked for at `slot` first) with `change`, given
    /// its prototype's fields; if that works, marks its map as changed, and its cell if the
    /// change is one a cell's memory shows (see [`World::object_changed`]).
    fn change_fields(
        &mut self,
        slot: Slot,
        uid: Uid,
        field: Option<Symbol>,
        change: impl FnOnce(&mut Moddable, &FieldMap) -> Result<(), ModError>,
    ) -> Result<(), WorldError> {
        let Some(object) = self.objects.get_near_mut(slot, uid) else { return Err(WorldError::NoSuchObject(uid)) };
        change(&mut object.fields, &self.data.proto(object.proto).fields)?;
        let (location, position) = (object.location, (object.x, object.y));
        self.object_changed(uid, location, position, field);
        Ok(())
    }

    /// After object `uid` (at `location`, `position`) changed `field` (`None`: anything): its
    /// map is marked changed, its cell too only if the player's memory of a cell shows the
    /// field (marking it is a write to a random place of a big map, which a change of `dv`
    /// need not make), its watches compare and the change log notes it.
    fn object_changed(
        &mut self,
        uid: Uid,
        location: Option<crate::location::Location>,
        position: (i32, i32),
        field: Option<Symbol>,
    ) {
        self.touch_location(location, position, field.is_none_or(|field| MemoryFields::get().includes(field)));
        self.revision += 1;
        if !self.watches.is_empty() {
            self.compare_watched(uid);
        }
        self.changed_field(uid, field);
    }

    /// What the renderer needs to draw the object (seed: `produce_memory`).
    pub fn produce_memory(&self, uid: Uid) -> Result<ObjectMemory, WorldError> {
        self.memory_of(uid, &MemoryFields::get()).ok_or(WorldError::NoSuchObject(uid))
    }

    /// [`World::produce_memory`] with the names of the fields it reads at hand.
    pub(crate) fn memory_of(&self, uid: Uid, names: &MemoryFields) -> Option<ObjectMemory> {
        let object = self.objects.get(&uid)?;
        let proto = &self.data.proto(object.proto).fields;
        let calc = |field: Symbol| object.fields.calc(field, proto);
        Some(ObjectMemory {
            uid,
            kind: object.kind,
            id: object.id,
            show: !matches!(calc(names.show), Some(Value::Bool(false))),
            glyph: calc(names.glyph).and_then(Value::as_str).map_or(names.unknown_glyph, Symbol::intern),
            color: calc(names.color).and_then(parse_color).unwrap_or([255, 255, 255, 255]),
            image: calc(names.image).cloned(),
        })
    }
}

/// The names of the fields `produce_memory` reads, interned once.
#[derive(Clone, Copy)]
pub(crate) struct MemoryFields {
    show: Symbol,
    glyph: Symbol,
    color: Symbol,
    image: Symbol,
    /// The glyph of an object that names none.
    unknown_glyph: Symbol,
}

impl MemoryFields {
    /// Whether the memory of an object reads `field`.
    fn includes(&self, field: Symbol) -> bool {
        [self.show, self.glyph, self.color, self.image].contains(&field)
    }

    /// The names, interned on first use.
    pub(crate) fn get() -> MemoryFields {
        static NAMES: std::sync::OnceLock<MemoryFields> = std::sync::OnceLock::new();
        *NAMES.get_or_init(|| MemoryFields {
            show: Symbol::intern("show"),
            glyph: Symbol::intern("glyph"),
            color: Symbol::intern("color"),
            image: Symbol::intern("image"),
            unknown_glyph: Symbol::intern("?"),
        })
    }
}

/// Reads a colour field: `{r, g, b}`, `{r, g, b, a}` (0–255) or `"#rrggbb"` / `"#rrggbbaa"`.
pub fn parse_color(value: &Value) -> Option<[u8; 4]> {
    match value {
        Value::List(items) if items.len() == 3 || items.len() == 4 => {
            let mut rgba = [255u8; 4];
            for (slot, item) in rgba.iter_mut().zip(items.iter()) {
                *slot = item.as_i64()?.clamp(0, 255) as u8;
            }
            Some(rgba)
        }
        Value::Str(s) => {
            let hex = s.strip_prefix('#')?;
            if !(hex.len() == 6 || hex.len() == 8) || !hex.is_ascii() {
                return None;
            }
            let mut rgba = [255u8; 4];
            for (i, slot) in rgba.iter_mut().enumerate().take(hex.len() / 2) {
                *slot = u8::from_str_radix(&hex[i * 2..i * 2 + 2], 16).ok()?;
            }
            Some(rgba)
        }
        _ => None,
    }
}
