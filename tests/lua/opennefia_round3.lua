-- OpenNefia's own engine tests (src/test/ in its repository), ported: the same steps and
-- checks, through TestUtil (tests/support/TestUtil.lua).

-- A map with the player on it, saved and current (TestUtil.set_player, register_map).
local function played_map()
   local map = InstancedMap:new(10, 10)
   map:clear("elona.floor_stone")
   local player = Chara.create("elona.player", 5, 5, {}, map)
   Chara.set_player(player)
   TestUtil.register_map(map)
   return map, player
end

-- src/test/event/instantiate_item.lua's prototypes: IItemEquipment as an _ext key.
function test_IItemEquipment_keys_a_prototypes_data_extension()
   local IItemEquipment = require("mod.elona.api.aspect.IItemEquipment")
   Assert.is_true(class.is_interface(IItemEquipment))
   data:add {
      _type = "base.item",
      _id = "bow",
      _ext = { [IItemEquipment] = { hit_bonus = 4, damage_bonus = 8, equip_slots = { "elona.ranged" } } },
   }
   local ext = data["base.item"]:ext("test.bow", IItemEquipment)
   Assert.eq(ext.hit_bonus, 4)
   Assert.same(ext.equip_slots, { "elona.ranged" })
   Assert.eq(require("mod.elona.api.aspect.IItemEquipment"), IItemEquipment, "one interface, required again")
end

-- src/test/internal/hotload.lua
function test_hotload_hotload()
   local function hotload_code(code)
      env.load_transient_path("mod.elona.api.Test", "elona", code)
      return hotload.hotload("mod.elona.api.Test")
   end
   local result = hotload_code("local Test = {}\nreturn Test\n")
   Assert.eq(table.count(result.module), 0)
   Assert.eq(result.require_path, "mod.elona.api.Test")
   result = hotload_code("local Test = {}\nfunction Test.dood() end\nreturn Test\n")
   Assert.eq(table.count(result.module), 1)
   Assert.eq(type(result.module.dood), "function")
   result = hotload_code("local Test = {}\nreturn Test\n")
   Assert.eq(table.count(result.module), 0)
   env.unload_transient_paths()
end

-- src/test/event/on_hotload.lua (Nefia has no base.on_chara_moved: a refresh's event instead)
function test_hotload_IEventEmitter_events()
   local function hotload_code(code)
      env.load_transient_path("mod.elona.data.chara", "elona", code)
      return hotload.hotload("mod.elona.data.chara")
   end
   hotload_code('data:add { _type = "base.chara", _id = "hotload_events" }')
   local map = InstancedMap:new(10, 10)
   local chara = Chara.create("elona.hotload_events", 5, 5, {}, map)
   Chara.set_player(Chara.create("elona.player", 1, 1, {}, map))
   Map.set_map(map)
   Assert.eq(chara:has_event_handler("base.on_chara_refreshed"), false)
   hotload_code([[
      data:add {
         _type = "base.chara",
         _id = "hotload_events",
         events = { { id = "base.on_chara_refreshed", name = "Test event", callback = function(chara) chara.hp = 42 end } },
      }
   ]])
   Assert.eq(chara:has_event_handler("base.on_chara_refreshed"), true)
   hotload_code('data:add { _type = "base.chara", _id = "hotload_events" }')
   -- OpenNefia keeps the handlers a hotload connected to an object.
   Assert.eq(chara:has_event_handler("base.on_chara_refreshed"), true)
   env.unload_transient_paths()
end

-- OpenNefia's api/Queue.lua: push onto a buffer; pop moves what was pushed onto the ordered
-- stack (newest at the bottom) and takes its top.
function test_Queue_pushes_and_pops_as_OpenNefias()
   local Queue = require("api.Queue")
   local q = Queue:new()
   Assert.eq(q:len(), 0)
   Assert.is_nil(q:pop())
   q:push("a")
   q:push("b")
   Assert.eq(q:len(), 2)
   Assert.eq(q:pop(), "a")
   q:push("c")
   Assert.eq(q:pop(), "c", "what was pushed since goes on top of what waits")
   Assert.eq(q:pop(), "b")
   Assert.eq(q:len(), 0)
   q:push(1)
   q:clear()
   Assert.eq(q:len(), 0)
end

-- src/test/api/Map.lua
function test_Map_travel_to__deletes_saved_temporary_maps()
   local temp_uid
   do
      local temp = played_map()
      temp.is_temporary = true
      temp_uid = temp.uid
      Map.save(temp)
   end
   TestUtil.save_cycle()
   local main = InstancedMap:new(10, 10)
   main:clear("elona.floor_stone")
   Map.travel_to(main)
   local ok, err = Map.load(temp_uid)
   Assert.eq(ok, false)
   Assert.eq(err, ("file does not exist: temp/map/%d"):format(temp_uid))
end

function test_Map_travel_to__preserves_saved_nontemporary_maps()
   local map_uid
   do
      local map = played_map()
      map.is_temporary = false
      map_uid = map.uid
   end
   TestUtil.save_cycle()
   local main = InstancedMap:new(10, 10)
   main:clear("elona.floor_stone")
   Map.travel_to(main)
   local ok, map = Map.load(map_uid)
   Assert.eq(ok, true)
   Assert.eq(class.is_an(InstancedMap, map), true)
end

-- src/test/api/Save.lua
function test_Save_save_game__sanitizes_save_id()
   local config = require("internal.config")
   played_map()
   Save.save_game("<Gwen> the innocent")
   Assert.eq(config.base._save_id, "_Gwen_ the innocent")
   Save.load_game("<Gwen> the innocent")
   Assert.eq(config.base._save_id, "_Gwen_ the innocent")
end

-- As OpenNefia's, saving or loading without a name means the current save.
function test_a_nameless_save_or_load_is_of_the_current_save()
   Assert.throws(function() Save.save_game() end, "no game was saved or loaded yet, so there is no current save")
   local map = played_map()
   Save.save_game("<Gwen> the innocent")
   map.visited = true
   Save.save_game()
   map.visited = false
   Save.load_game()
   Assert.is_true(Map.current().visited, "the current save was written again")
   Assert.eq(require("internal.config").base._save_id, "_Gwen_ the innocent")
end

-- src/test/internal/object.lua
function test_object__get_reserved_field()
   local map = InstancedMap:new(10, 10)
   map:clear("elona.floor_stone")
   local chara = Chara.create("elona.putit", 4, 5, {}, map)
   Assert.eq(chara._id, "elona.putit")
   Assert.eq(chara._type, "base.chara")
   Assert.is_truthy(chara.uid)
   Assert.is_truthy(chara.__mt)
   Assert.is_truthy(chara.__iface)
   Assert.is_truthy(chara.proto)
   Assert.eq(chara.proto._id, "elona.putit")
   Assert.eq(chara.proto._type, "base.chara")
   Assert.eq(chara.x, 4)
   Assert.eq(chara.y, 5)
   Assert.is_truthy(chara.location)
end

-- src/test/event/instantiate_feat.lua, instantiate_item.lua and instantiate_mef.lua: a
-- prototype's callback (on_bash, on_use, on_stepped_on) is its objects' handler of the
-- elona_sys event, through change_prototype and save cycles; connected ones stay.
local kinds = {
   feat = {
      create = function(id, map) return Feat.create(id, 2, 2, {}, map) end,
      first = function(map) return Feat.iter(map):nth(1) end,
      event = "elona_sys.on_feat_bash",
      plain = "test.nonbashable",
      with = "test.bashable",
   },
   item = {
      create = function(id) return Item.create(id, nil, nil, {}, Chara.player()) end,
      first = function(map) return Item.find("test.useable", "all", map) or Item.find("test.nonuseable", "all", map) end,
      event = "elona_sys.on_item_use",
      plain = "test.nonuseable",
      with = "test.useable",
   },
   mef = {
      create = function(id, map) return Mef.create(id, 2, 2, {}, map) end,
      first = function(map) return Mef.iter(map):nth(1) end,
      event = "elona_sys.on_mef_stepped_on",
      plain = "test.nonsteppable",
      with = "test.steppable",
   },
}

local function add_prototypes()
   local IItemEquipment = require("mod.elona.api.aspect.IItemEquipment")
   data:add { _type = "base.feat", _id = "nonbashable", is_solid = true, is_opaque = false, on_bash = nil }
   data:add { _type = "base.feat", _id = "bashable", is_solid = true, is_opaque = false, on_bash = function() end }
   local equipment = { [IItemEquipment] = { hit_bonus = 4, damage_bonus = 8, equip_slots = { "elona.ranged" } } }
   -- (Nefia's items name their slots in equip_slots.)
   local bow = { _type = "base.item", dice_x = 2, dice_y = 7, equip_slots = { "main_hand" }, _ext = equipment }
   data:add(table.merge({ _id = "nonuseable", on_use = nil }, bow))
   data:add(table.merge({ _id = "useable", on_use = function() end }, bow))
   data:add { _type = "base.mef", _id = "nonsteppable", on_stepped_on = nil }
   data:add { _type = "base.mef", _id = "steppable", on_stepped_on = function() end }
end

-- change_prototype from `from` to `to` on an object of `kind`, then a save cycle.
local function change_and_save(kind, from, to)
   add_prototypes()
   local k = kinds[kind]
   do
      local map = played_map()
      local obj = k.create(k[from], map)
      Assert.eq(obj:has_event_handler(k.event), from == "with")
      obj:change_prototype(k[to])
      Assert.eq(obj:has_event_handler(k.event), to == "with")
   end
   TestUtil.save_cycle()
   Assert.eq(k.first(Chara.player():current_map()):has_event_handler(k.event), to == "with")
end

-- test_object_change_prototype__<kind>_callbacks_preserved
local function connected_handler_stays(kind)
   add_prototypes()
   local k = kinds[kind]
   local obj = k.create(k.with, played_map())
   obj:connect_self(k.event, "Unrelated event", function() end)
   Assert.is_truthy(obj:has_event_handler(k.event))
   obj:change_prototype(k.plain)
   Assert.is_truthy(obj:has_event_handler(k.event))
end

function test_feat_event_emitter_callbacks_restored()
   add_prototypes()
   played_map()
   Assert.is_truthy(Feat.create("test.bashable", 2, 2, {}, Map.current()):has_event_handler("elona_sys.on_feat_bash"))
   TestUtil.save_cycle()
   Assert.is_truthy(Feat.iter(Chara.player():current_map()):nth(1):has_event_handler("elona_sys.on_feat_bash"))
end

function test_object_change_prototype__feat_callbacks_added() change_and_save("feat", "plain", "with") end
function test_object_change_prototype__feat_callbacks_removed() change_and_save("feat", "with", "plain") end
function test_object_change_prototype__feat_callbacks_preserved() connected_handler_stays("feat") end

function test_item_event_emitter_callbacks_restored()
   add_prototypes()
   do
      local _, player = played_map()
      Assert.is_truthy(Item.create("test.useable", nil, nil, {}, player):has_event_handler("elona_sys.on_item_use"))
   end
   TestUtil.save_cycle()
   do
      local player = Chara.player()
      local item = Item.find("test.useable", "all", player:current_map())
      Assert.is_truthy(item:has_event_handler("elona_sys.on_item_use"))
      Assert.is_truthy(player:equip_item(item))
   end
   TestUtil.save_cycle()
   local item = Item.find("test.useable", "all", Chara.player():current_map())
   Assert.is_truthy(item:has_event_handler("elona_sys.on_item_use"), "worn, after a save cycle")
end

function test_object_change_prototype__item_callbacks_added() change_and_save("item", "plain", "with") end
function test_object_change_prototype__item_callbacks_removed() change_and_save("item", "with", "plain") end
function test_object_change_prototype__item_callbacks_preserved() connected_handler_stays("item") end

function test_object_change_prototype__mef_callbacks_added() change_and_save("mef", "plain", "with") end
function test_object_change_prototype__mef_callbacks_removed() change_and_save("mef", "with", "plain") end
function test_object_change_prototype__mef_callbacks_preserved() connected_handler_stays("mef") end

-- A map saved and loaded (Map.load) gives its objects their prototypes' callbacks again.
function test_a_loaded_map_gives_its_objects_their_callbacks()
   add_prototypes()
   local cave = InstancedMap:new(4, 4)
   cave:clear("elona.floor_stone")
   Feat.create("test.bashable", 1, 1, {}, cave)
   Assert.is_true(Map.save(cave))
   local ok, loaded = Map.load(cave.uid)
   Assert.is_true(ok)
   Assert.is_true(Feat.iter(loaded):nth(1):has_event_handler("elona_sys.on_feat_bash", "base.feat prototype on_bash handler"))
end

-- The callback is the handler: emitting the event calls it with the object and the params.
function test_a_prototypes_callback_handles_its_event()
   local seen = {}
   data:add { _type = "base.item", _id = "lever", on_use = function(item, params) seen[#seen + 1] = { item, params.chara } end }
   local _, player = played_map()
   local lever = Item.create("test.lever", nil, nil, {}, player)
   lever:emit("elona_sys.on_item_use", { chara = player })
   Assert.same(seen, { { lever, player } })
   Assert.throws(function()
      data:add { _type = "base.event", _id = "on_pull", prototype_callback = "on_pull" }
      data:add { _type = "base.item", _id = "rope" }
   end, "base.event 'test.on_pull': prototype_callback must be { type = \"base.item\", field = \"on_use\" }")
end
