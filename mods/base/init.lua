-- The engine's data types, the events it emits, and a minimal tile set so a world works
-- with no other mod loaded.

-- The colour of what is drawn: { r, g, b } (0 to 255) or "#rrggbb".
local color = types.some(types.color, types.string)

-- What an `image` field draws instead of the glyph (OpenNefia's shape, extended), read and
-- checked against the sheets' PNG headers when the prototype is added:
--   "tiles/grass.png"                                     the whole file, one still sprite
--   { image = "tiles/water.png", count_x = 4 }             the file split in count_x frames across
--   { source = "tiles/sheet.png", x = 0, y = 32, width = 32, height = 32,
--     count_x = 4, frame_ms = 250, key_color = { 0, 0, 0 } }   a region; count_x frames side by side
--   { source = ..., x, y, width, height, frames = { { x = 0, y = 0, ms = 250 }, ... } }
--   { source = ..., offset_x = 0, offset_y = -4, flip_x = true, flip_y = false, rotation = 90 }
--   { variants = { { weight = 3, image = <a file or region> }, { weight = 1, image = ... } } }
--   { source = "tiles/wall.png", x = 0, y = 0, width = 32, height = 32,
--     autotile = "blob47" | "wang16", columns = 8, connects = "wall" }   pieces left to right, columns a row
--   { multitile = { center = ..., edge = ..., corner = ..., t_connection = ..., end_piece = ...,
--     unconnected = ... }, connects = "wall" }             CDDA's parts, turned to face the neighbours
-- A sprite stands on its cell's bottom edge, centred. Variants are picked per cell from the
-- map's `art_seed` (else its name); a base.theme can replace any prototype's image.
local image_doc = "An image under the asset folders drawn instead of the glyph: a file (\"tiles/grass.png\"), a region { source, x, y, width, height, count_x, key_color }, frames, variants or an autotile set (see mods/base/init.lua)."

data:add_type {
   name = "chara",
   fields = {
      { name = "name", type = types.string, default = "someone", template = true, doc = "What messages call the character." },
      { name = "glyph", type = types.string, default = "@", template = true, doc = "The character drawn for it." },
      { name = "color", type = color, default = { 255, 255, 255 }, template = true, doc = "Its colour: {r, g, b} or \"#rrggbb\"." },
      { name = "image", type = types.optional(types.image), doc = image_doc },
      { name = "level", type = types.uint, default = 1, template = true, doc = "Experience level." },
      { name = "max_hp", type = types.uint, default = 10, template = true, doc = "Most hit points it can have." },
      { name = "hp", type = types.int, default = 10, template = true, doc = "Hit points; it dies at 0." },
      { name = "strength", type = types.int, default = 4, doc = "Adds to melee damage." },
      { name = "dv", type = types.number, default = 0, doc = "Defence value: lowers the chance to be hit." },
      { name = "pv", type = types.number, default = 0, doc = "Protection value: lowers damage taken." },
      { name = "speed", type = types.uint, default = 100, doc = "Action speed." },
      { name = "fov", type = types.uint, default = 15, doc = "Sight radius in cells. Read it with calc(\"fov\")." },
      { name = "relation", type = types.some(types.literal("hostile", "neutral", "ally"), types.enum(Enum.Relation)), default = "neutral", template = true, doc = "\"hostile\", \"neutral\" or \"ally\" towards the player, or OpenNefia's Enum.Relation (Enemy -3 and below is hostile, Ally 10 an ally)." },
      { name = "inventory_capacity", type = types.uint, default = 200, doc = "How many items it can carry." },
      {
         name = "equip_slots",
         type = types.list(types.string),
         default = { "head", "neck", "body", "main_hand", "off_hand", "ring", "feet" },
         doc = "The equipment slots it has.",
      },
      {
         name = "blocked_body_parts",
         type = types.list(types.string),
         default = {},
         doc = "Slots it cannot use now (chara:set_body_part_blocked): equipping there is refused and iter_all_body_parts leaves them out.",
      },
   },
   -- Rules across fields: a prototype that breaks one loads, and is listed in Problems.
   validators = {
      {
         fields = { "hp", "max_hp" },
         doc = "A character starts with at most its max_hp.",
         validate = function(chara)
            if chara.hp > chara.max_hp then
               return false, ("hp (%d) is more than max_hp (%d)"):format(chara.hp, chara.max_hp)
            end
            return true
         end,
      },
   },
}

-- OpenNefia's data extensions: an entry declares fields with defaults, and prototypes give
-- their own values in `_ext["mod.id"]` (`data["base.item"]:ext(id, "mod.id")`).
data:add_type {
   name = "data_ext",
   fields = {
      { name = "fields", type = types.list(types.table), default = {}, doc = "The extension's fields: { { name = ..., default = ... }, ... }." },
   },
}

data:add_type {
   name = "item",
   fields = {
      { name = "name", type = types.string, default = "something", template = true, doc = "What messages call the item." },
      { name = "glyph", type = types.string, default = "?", template = true, doc = "The character drawn for it." },
      { name = "color", type = color, default = { 255, 255, 255 }, template = true, doc = "Its colour." },
      { name = "image", type = types.optional(types.image), doc = image_doc },
      { name = "weight", type = types.number, default = 1, template = true, doc = "Weight in tenths of a stone." },
      { name = "value", type = types.number, default = 0, template = true, doc = "Price in gold." },
      { name = "equip_slots", type = types.optional(types.list(types.string)), doc = "The slots it can be worn in, if any; for an item that holds_equipment, the slots it has." },
      { name = "holds_equipment", type = types.boolean, default = false, doc = "True for a set of equipment slots of its own (what EquipSlots:new makes)." },
      { name = "blocked_body_parts", type = types.list(types.string), default = {}, doc = "For an item that holds_equipment: the slots it cannot use now." },
      { name = "amount", type = types.uint, default = 1, doc = "How many there are in the stack (item:separate, item:stack)." },
      { name = "is_container", type = types.boolean, default = false, doc = "True if it holds items (a bag)." },
      { name = "inventory_capacity", type = types.optional(types.uint), doc = "How many items a container holds." },
   },
}

data:add_type {
   name = "feat",
   fields = {
      { name = "name", type = types.string, default = "feature", template = true, doc = "What messages call it." },
      { name = "glyph", type = types.string, default = "^", template = true, doc = "The character drawn for it." },
      { name = "color", type = color, default = { 200, 200, 200 }, template = true, doc = "Its colour." },
      { name = "image", type = types.optional(types.image), doc = image_doc },
      { name = "is_solid", type = types.boolean, default = false, template = true, doc = "True if it blocks movement." },
      { name = "is_opaque", type = types.boolean, default = false, doc = "True if it blocks sight." },
      { name = "is_stairs", type = types.boolean, default = false, doc = "True for stairs: they must be reachable from the entrance." },
   },
}

-- What Inventory.get_or_create(id) gives: a game-wide container.
data:add {
   _type = "base.item",
   _id = "inventory",
   name = "inventory",
   glyph = "&",
   is_container = true,
   weight = 0,
}

-- What EquipSlots:new(body_parts) gives: equipment slots of their own.
data:add {
   _type = "base.item",
   _id = "equip_slots",
   name = "equipment slots",
   glyph = "&",
   is_container = true,
   holds_equipment = true,
   equip_slots = {},
   weight = 0,
}

data:add_type {
   name = "mef",
   fields = {
      { name = "name", type = types.string, default = "effect", template = true, doc = "What messages call it (fire, a web)." },
      { name = "glyph", type = types.string, default = "*", template = true, doc = "The character drawn for it." },
      { name = "color", type = color, default = { 255, 140, 60 }, template = true, doc = "Its colour." },
      { name = "image", type = types.optional(types.image), doc = image_doc },
      { name = "turns", type = types.int, default = 10, template = true, doc = "Turns left before it goes (-1: it lasts). Mef.create's duration sets it." },
      { name = "power", type = types.number, default = 0, doc = "How strong it is. Mef.create's power sets it." },
      { name = "origin_uid", type = types.optional(types.uint), doc = "The uid of what made it, if Mef.create was told (mef:get_origin())." },
   },
}

data:add_type {
   name = "map_tile",
   fields = {
      { name = "name", type = types.string, default = "ground", template = true, doc = "What the tile is called." },
      { name = "glyph", type = types.string, default = ".", template = true, doc = "The character drawn for it." },
      { name = "color", type = color, default = { 128, 128, 128 }, template = true, doc = "Its colour." },
      { name = "background", type = color, default = { 0, 0, 0 }, doc = "The colour of the cell behind the glyph." },
      { name = "image", type = types.optional(types.image), doc = image_doc },
      { name = "is_solid", type = types.boolean, default = false, template = true, doc = "True if it blocks movement." },
      { name = "is_opaque", type = types.boolean, default = false, template = true, doc = "True if it blocks sight." },
      {
         name = "tags",
         type = types.list(types.string),
         default = {},
         doc = "What auto-tiling rules call it (\"wall\", \"floor\", \"water\"): a rule's tag:wall takes every tile tagged wall.",
      },
   },
}

-- Auto-tiling (Map:apply_autotile): rules that lay a map's visible tiles from what each cell
-- is meant to be. Rules run in order, and each that matches a cell paints it (a later rule
-- paints over an earlier one; `stop` ends the cell's run). A rule:
--   { name = "wall face",
--     pattern = { "* # *", "* # *", "* . *" },   -- odd square rows of tokens, up to 7x7
--     legend = { ["#"] = "tag:wall", ["."] = "!tag:wall" },  -- token -> tile id or tag:NAME, ! negates
--     place = "elona.wall_face",                -- or { { "a.tile", 3 }, { "b.tile", 1 } } by weight
--     chance = 0.5, stop = true, mirror_x = true, mirror_y = false, rotate = false }
-- `*` takes anything and `_` an empty cell or the outside of the map.
data:add_type {
   name = "autotile_rule_set",
   fields = {
      { name = "doc", type = types.string, default = "", template = true, doc = "What the rules lay." },
      {
         name = "rules",
         type = types.list(types.table),
         default = {},
         template = true,
         doc = "The rules in the order they run: { name, pattern, legend, place, chance, stop, mirror_x, mirror_y, rotate }.",
      },
   },
}

data:add_type {
   name = "event",
   fields = {
      { name = "doc", type = types.string, default = "", doc = "When the event fires and what its params hold." },
      { name = "receiver", type = types.optional(types.string), doc = "The type of what it is triggered on (a LuaLS type such as \"IChara\"), if anything." },
      { name = "params", type = types.optional(types.list(types.table)), doc = "What its params hold, as { name, LuaLS type } pairs: the type definitions give handlers these." },
   },
}

local chara_refreshed = "A character's temp values were cleared by refresh(); re-apply yours with mod()."
for _, event in ipairs {
   { "on_chara_refreshed", chara_refreshed, receiver = "IChara" },
   { "on_item_refreshed", "An item's temp values were cleared by refresh().", receiver = "IItem" },
   { "on_feat_refreshed", "A feat's temp values were cleared by refresh().", receiver = "IFeat" },
   { "on_mef_refreshed", "A mef's temp values were cleared by refresh().", receiver = "IMef" },
   {
      "on_damage",
      "A character took damage. params: target, source (may be nil), amount.",
      params = { { "target", "IChara" }, { "source", "IMapObject?" }, { "amount", "integer" } },
   },
   {
      "on_chara_killed",
      "A character died. params: target, source (may be nil).",
      params = { { "target", "IChara" }, { "source", "IMapObject?" } },
   },
   { "on_turn_passed", "A game turn ended (World.pass_turn()). params: turn.", params = { { "turn", "integer" } } },
   { "on_wait_turn", "The editor's Step button: let one turn pass with the player waiting." },
   {
      "on_game_started",
      "Play began: a new game's player is placed on its map. params: player.",
      params = { { "player", "IChara" } },
   },
   {
      "on_key_pressed",
      "A key was pressed with no UI layer open. params: key (such as \"up\" or \"ctrl+s\").",
      params = { { "key", "string" } },
   },
   {
      "on_item_can_stack_with",
      "item:can_stack_with(other) asks: return false to keep the two apart. params: item, other.",
      params = { { "item", "IItem" }, { "other", "IItem" } },
   },
   {
      "on_map_leave",
      "Map.travel_to is about to take the player off this map (the receiver). params: next_map.",
      receiver = "InstancedMap",
      params = { { "next_map", "InstancedMap" } },
   },
   {
      "on_map_enter",
      "Map.travel_to made this map (the receiver) current. params: previous_map.",
      receiver = "InstancedMap",
      params = { { "previous_map", "InstancedMap?" } },
   },
   {
      "on_object_prototype_changed",
      "obj:change_prototype(id) made the object one of another prototype. params: old_id.",
      receiver = "IMapObject",
      params = { { "old_id", "string" } },
   },
   {
      "on_object_instantiated",
      "An object came into play: made, cloned, loaded with a save or its map, its prototype hotloaded, or change_prototype(id, { instantiate = true }). Connect what saves do not keep here.",
      receiver = "IMapObject",
   },
   { "on_chara_instantiated", "A character came into play (after base.on_object_instantiated).", receiver = "IChara" },
   { "on_item_instantiated", "An item came into play (after base.on_object_instantiated).", receiver = "IItem" },
   { "on_feat_instantiated", "A feat came into play (after base.on_object_instantiated).", receiver = "IFeat" },
   { "on_mef_instantiated", "A mef came into play (after base.on_object_instantiated).", receiver = "IMef" },
   {
      "on_hotload_object",
      "The object's prototype was hotloaded (after its instantiation events). params: hotloaded_data, the reloaded prototypes as { _type, _id }.",
      receiver = "IMapObject",
      params = { { "hotloaded_data", "{ _type: string, _id: string }[]" } },
   },
} do
   data:add { _type = "base.event", _id = event[1], doc = event[2], receiver = event.receiver, params = event.params }
end

data:add {
   _type = "base.map_tile",
   _id = "floor",
   name = "floor",
   glyph = ".",
   color = { 110, 110, 110 },
   background = { 24, 24, 28 },
}

data:add {
   _type = "base.map_tile",
   _id = "wall",
   name = "wall",
   glyph = "#",
   color = { 170, 170, 170 },
   background = { 70, 70, 76 },
   is_solid = true,
   is_opaque = true,
}
require("widgets")

-- The player's keys while playing, OpenNefia's keybinds: a mod adds one per action and
-- carries it out when `base.on_key_pressed` gives one of its keys. The editor's Help lists
-- them, and the Data pane rebinds them.
data:add_type {
   name = "keybind",
   fields = {
      { name = "name", type = types.string, default = "", template = true, doc = "What it does, as Help lists it (\"Move north\")." },
      {
         name = "default",
         type = types.string,
         template = true,
         doc = "The key that does it, named as base.on_key_pressed gives it (\"up\", \"g\", \"shift+period\", \"ctrl+s\").",
      },
      { name = "default_alternate", type = types.list(types.string), default = {}, doc = "Other keys that do it too." },
   },
}

-- Themes (OpenNefia's base.theme): replace other mods' images without editing them. The
-- active themes are a list (the first to replace an image wins), switched in the editor's
-- viewport toolbar and the player's options.
data:add_type {
   name = "theme",
   fields = {
      { name = "name", type = types.string, default = "", template = true, doc = "What the theme menus call it (its id if empty)." },
      {
         name = "overrides",
         type = types.map(types.data_type_id, types.map(types.string, types.table)),
         default = {},
         template = true,
         doc = "By data type, then prototype id, the fields it replaces: { [\"base.map_tile\"] = { [\"elona.wall\"] = { image = ... } } } (image only).",
      },
   },
}

-- Procedural maps (Map.generate) and the checks maps must pass (Map.validate, nefia check).
data:add_type {
   name = "map_generator",
   fields = {
      { name = "doc", type = types.string, default = "", template = true, doc = "What it makes." },
      { name = "width", type = types.uint, default = 80, template = true, doc = "The map's width, unless a 'width' param sets it." },
      { name = "height", type = types.uint, default = 40, template = true, doc = "The map's height, unless a 'height' param sets it." },
      { name = "tile", type = types.data_id("base.map_tile"), default = "base.wall", template = true, doc = "The tile the map starts filled with." },
      { name = "params", type = types.map(types.string, types.table), default = {}, doc = "The params' schema: name = { type = \"int\"|\"float\"|\"bool\"|\"string\", default, min, max }." },
      { name = "generate", type = types.callback("map", "params", "rng"), doc = "function(map, params, rng): fills the fresh map; rng:random(...) as math.random." },
   },
}

data:add_type {
   name = "map_validator",
   fields = {
      { name = "doc", type = types.string, default = "", doc = "What it checks." },
      { name = "validate", type = types.callback("map"), doc = "function(map): returns ok, and a list of problems { x =, y =, message = }." },
   },
}

require("validators")

-- What must hold after every turn: World.check_invariants() runs them, and so do
-- `nefia fuzz`, `nefia replay --invariants` and `nefia test --invariants`. One declared
-- `each` object of a data type is checked only on the objects that changed since the last
-- check (made, moved to another location, or one of its `fields` written), so checking
-- after every turn costs what the turn changed, not the size of the world.
data:add_type {
   name = "invariant",
   fields = {
      { name = "doc", type = types.string, default = "", doc = "What must hold." },
      {
         name = "check",
         type = types.callback("world_or_object"),
         doc = "function(world), or function(object) with `each`: true, or false and a message naming the object.",
      },
      {
         name = "each",
         type = types.optional(types.data_type_id),
         doc = "A data type of map objects (\"base.chara\", \"base.item\", \"base.feat\", \"base.mef\"): check(object) runs on each object of it that changed since the last check, which must read only that object.",
      },
      {
         name = "fields",
         type = types.optional(types.list(types.string)),
         doc = "With `each`: the fields check reads (\"x\" and \"y\" for its position); only a change of one of them (or the object made or moved elsewhere) checks it again. Without: any change does.",
      },
   },
}

require("invariants")
require("actions")

-- Mefs last their turns: each turn that passes takes one from every mef of the current map
-- (one with -1 lasts), and a mef with none left goes.
Event.register("base.on_turn_passed", "base: mefs run out", function()
   local map = Map.current()
   if map == nil then
      return
   end
   for _, mef in ipairs(Mef.iter(map):to_list()) do
      if mef.turns > 0 then
         mef.turns = mef.turns - 1
         if mef.turns == 0 then
            mef:remove_ownership()
         end
      end
   end
end)
require("i18n")
