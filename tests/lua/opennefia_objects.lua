-- OpenNefia's own engine tests of map objects (src/test/api/IEventEmitter.lua, IMapObject.lua,
-- MapObject.lua's clones, chara/IChara.lua, internal/object.lua, internal/data_table.lua,
-- location.lua, mef.lua), ported with the same steps and checks through TestUtil. Nefia's
-- content stands in where it lacks OpenNefia's: elona.floor_stone for elona.cobble,
-- elona.player for base.player, elona.dagger for elona.long_bow, elona.fire for elona.potion,
-- elona.yeek for elona.zeome.

local function floor_map()
   local map = InstancedMap:new(10, 10)
   map:clear("elona.floor_stone")
   return map
end

-- src/test/api/IEventEmitter.lua
function test_IEventEmitter_has_event_handler()
   local item = Item.create("elona.putitoro", nil, nil, { ownerless = true })
   Assert.eq(item:has_event_handler("elona_sys.on_item_throw"), false)
   item:connect_self("elona_sys.on_item_throw", "Thrown event", function() end)
   Assert.eq(item:has_event_handler("elona_sys.on_item_throw"), true)
   Assert.eq(item:has_event_handler("elona_sys.on_item_throw", "Thrown event"), true)
   Assert.eq(item:has_event_handler("elona_sys.on_item_throw", "dood"), false)
   Assert.eq(item:has_event_handler("elona_sys.on_item_use"), false)
end

function test_IEventEmitter_has_event_handler__throws_if_invalid()
   local item = Item.create("elona.putitoro", nil, nil, { ownerless = true })
   Assert.throws_error(function() item:has_event_handler("dood") end, "Unknown event type \"dood\"")
end

function test_IEventEmitter_disconnect_self()
   local item = Item.create("elona.putitoro", nil, nil, { ownerless = true })
   local throw = "elona_sys.on_item_throw"
   Assert.eq(item:has_event_handler(throw), false)
   item:connect_self(throw, "Thrown event", function() end)
   item:connect_self(throw, "Thrown event 2", function() end)

   item:disconnect_self(throw, "dood")
   Assert.eq(item:has_event_handler(throw), true)
   Assert.eq(item:has_event_handler(throw, "Thrown event"), true)
   Assert.eq(item:has_event_handler(throw, "Thrown event 2"), true)

   item:disconnect_self(throw, "Thrown event")
   Assert.eq(item:has_event_handler(throw), true)
   Assert.eq(item:has_event_handler(throw, "Thrown event"), false)
   Assert.eq(item:has_event_handler(throw, "Thrown event 2"), true)

   item:disconnect_self(throw, "Thrown event 2")
   Assert.eq(item:has_event_handler(throw), false)
   Assert.eq(item:has_event_handler(throw, "Thrown event"), false)
   Assert.eq(item:has_event_handler(throw, "Thrown event 2"), false)
end

-- src/test/api/IMapObject.lua
function test_IMapObject_set_pos()
   local map = floor_map()
   Assert.eq(map:iter_type_at_pos("base.chara", 1, 2):length(), 0)
   Assert.eq(map:iter_type_at_pos("base.chara", 3, 4):length(), 0)
   local obj = Chara.create("elona.putit", 1, 2, {}, map)
   Assert.eq(map:iter_type_at_pos("base.chara", 1, 2):length(), 1)
   Assert.eq(map:iter_type_at_pos("base.chara", 3, 4):length(), 0)
   Assert.eq(obj.x, 1)
   Assert.eq(obj.y, 2)
   obj:set_pos(3, 4)
   Assert.eq(map:iter_type_at_pos("base.chara", 1, 2):length(), 0)
   Assert.eq(map:iter_type_at_pos("base.chara", 3, 4):length(), 1)
   Assert.eq(obj.x, 3)
   Assert.eq(obj.y, 4)
   obj:remove_ownership()
   Assert.eq(map:iter_type_at_pos("base.chara", 1, 2):length(), 0)
   Assert.eq(map:iter_type_at_pos("base.chara", 3, 4):length(), 0)
end

function test_IMapObject_current_map()
   local map = floor_map()
   local player = Chara.create("elona.player", 5, 5, {}, map)
   Chara.set_player(player)
   Assert.eq(IMapObject.current_map(player), map)
   local item = Item.create("elona.dagger", nil, nil, {}, player)
   Assert.eq(IMapObject.current_map(item), nil)
   Assert.is_truthy(player:equip_item(item))
   Assert.eq(IMapObject.current_map(item), nil)
end

function test_IMapObject_containing_map()
   local map = floor_map()
   local player = Chara.create("elona.player", 5, 5, {}, map)
   Chara.set_player(player)
   local containing, obj = IMapObject.containing_map(player)
   Assert.eq(player:get_location(), map)
   Assert.eq(containing, map)
   Assert.eq(obj, player)

   local item = Item.create("elona.dagger", nil, nil, {}, player)
   containing, obj = IMapObject.containing_map(item)
   Assert.eq(item:get_location(), player)
   Assert.eq(containing, map)
   Assert.eq(obj, player)

   Assert.is_truthy(player:equip_item(item))
   containing, obj = IMapObject.containing_map(item)
   Assert.eq(item:get_location(), player)
   Assert.eq(containing, map)
   Assert.eq(obj, player)
end

function test_IMapObject_containing_map__position()
   local map = floor_map()
   local player = Chara.create("elona.player", 1, 2, {}, map)
   Chara.set_player(player)
   local _, _, x, y = IMapObject.containing_map(player)
   Assert.same({ x, y }, { 1, 2 })

   local item = Item.create("elona.dagger", 3, 4, {}, map)
   _, _, x, y = IMapObject.containing_map(item)
   Assert.same({ x, y }, { 3, 4 })

   item = Item.create("elona.dagger", nil, nil, {}, player)
   _, _, x, y = IMapObject.containing_map(item)
   Assert.same({ x, y }, { 1, 2 })

   Assert.is_truthy(player:equip_item(item))
   _, _, x, y = IMapObject.containing_map(item)
   Assert.same({ x, y }, { 1, 2 })

   player:set_pos(3, 4)
   _, _, x, y = IMapObject.containing_map(item)
   Assert.same({ x, y }, { 3, 4 })

   player:remove_ownership()
   _, _, x, y = IMapObject.containing_map(item)
   Assert.eq(x, nil)
   Assert.eq(y, nil)
end

-- src/test/api/chara/IChara.lua
function test_IChara_swap_places()
   local map = floor_map()
   local player = Chara.create("elona.player", 1, 2, {}, map)
   local ally = Chara.create("elona.player", 3, 4, {}, map)
   Assert.same({ player.x, player.y, ally.x, ally.y }, { 1, 2, 3, 4 })
   player:swap_places(ally)
   Assert.same({ ally.x, ally.y, player.x, player.y }, { 1, 2, 3, 4 })
   ally:set_pos(0, 1)
   Assert.eq(Chara.at(1, 2, map), nil)
end

-- src/test/api/MapObject.lua
function test_MapObject_clone()
   local map = floor_map()
   local chara = Chara.create("elona.putit", 1, 2, {}, map)
   chara:mod("max_hp", 123, "set")
   Assert.eq(map:iter():length(), 1)
   Assert.eq(chara.location:iter():length(), 1)
   Assert.same({ chara.x, chara.y }, { 1, 2 })
   Assert.eq(chara:calc("max_hp"), 123)

   local new = MapObject.clone(chara)
   Assert.eq(map:iter():length(), 1)
   Assert.eq(chara.location:iter():length(), 1)
   Assert.same({ new.x, new.y }, { 1, 2 })
   Assert.eq(new.location, nil)
   Assert.eq(new:calc("max_hp"), 123)

   new:set_pos(3, 4)
   Assert.same({ chara.x, chara.y }, { 1, 2 })
   Assert.same({ new.x, new.y }, { 1, 2 }, "because it's not on the map")

   chara:remove_ownership()
   Assert.eq(map:iter():length(), 0)
   Assert.eq(chara.location, nil)
   Assert.eq(new.location, nil)
end

function test_MapObject_clone__owned_chara()
   local map = floor_map()
   local chara = Chara.create("elona.putit", 1, 2, {}, map)
   Assert.eq(map:iter():length(), 1)
   Assert.eq(chara.location:iter():length(), 1)
   Assert.is_truthy(chara.location)
   Assert.eq(chara:containing_map(), map)

   local new = MapObject.clone(chara, true)
   Assert.eq(map:iter():length(), 2)
   Assert.eq(chara.location:iter():length(), 2)
   Assert.is_truthy(new.x)
   Assert.is_truthy(new.y)
   Assert.eq(new.location, chara.location)
   Assert.eq(new.__iface, chara.__iface)
   Assert.eq(new:containing_map(), map)

   new:set_pos(3, 4)
   Assert.same({ chara.x, chara.y, new.x, new.y }, { 1, 2, 3, 4 })

   chara:remove_ownership()
   Assert.eq(map:iter():length(), 1)
   Assert.eq(chara.location, nil)
   Assert.is_truthy(new.location)
   Assert.eq(new.location:iter():length(), 1)
   Assert.eq(new:containing_map(), map)
end

function test_MapObject_clone__owned_item()
   local map = floor_map()
   local chara = Chara.create("elona.putit", 1, 2, {}, map)
   local item = Item.create("elona.putitoro", nil, nil, {}, chara)
   Assert.eq(map:iter():length(), 1)
   Assert.eq(chara.location:iter():length(), 1)
   Assert.eq(item.location:iter():length(), 1)
   Assert.eq(item:containing_map(), map)

   local new = MapObject.clone(item, true)
   Assert.eq(map:iter():length(), 1)
   Assert.eq(chara.location:iter():length(), 1)
   Assert.eq(item.location:iter():length(), 2)
   Assert.same({ new.x, new.y }, { 0, 0 })
   Assert.eq(new.location, item.location)
   Assert.eq(new:containing_map(), map)

   chara:remove_ownership()
   Assert.eq(chara.location, nil)
   Assert.eq(item.location:iter():length(), 2)
   Assert.eq(item:containing_map(), nil)
   Assert.eq(new:containing_map(), nil)
end

function test_MapObject_clone__equip_slots()
   local map = floor_map()
   local chara = Chara.create("elona.putit", 1, 2, {}, map)
   local item = Item.create("elona.dagger", nil, nil, {}, chara)
   Assert.is_truthy(chara:equip_item(item))
   local function equipped_parts(c)
      return c:iter_all_body_parts():filter(function(part) return part.equipped end):length()
   end
   Assert.eq(chara:iter_equipment():length(), 1)
   Assert.eq(equipped_parts(chara), 1)
   Assert.eq(item:containing_map(), map)

   local new = MapObject.clone(chara, true)
   Assert.eq(new:iter_equipment():length(), 1)
   Assert.eq(equipped_parts(new), 1)
end

-- src/test/internal/object.lua
local is_reserved = "is a reserved field name on map objects.$"

-- Each reserved field of `obj` refuses a value, in OpenNefia's words.
local function refuses_reserved_fields(obj)
   for _, field in ipairs { "_id", "_type", "__mt", "__iface", "proto", "uid", "x", "y", "location" } do
      Assert.throws_error(function() obj[field] = "dood" end, is_reserved)
   end
end

function test_object___tostring()
   local putit = Chara.create("elona.putit", nil, nil, { ownerless = true })
   Assert.matches(tostring(putit), "^<object %('base.chara', uid [0-9]+%) .*>$")
end

function test_object__set_reserved_field()
   refuses_reserved_fields(Chara.create("elona.putit", nil, nil, { ownerless = true }))
end

function test_object_serialize()
   local uid
   do
      local map = floor_map()
      local player = Chara.create("elona.player", 4, 5, {}, map)
      Chara.set_player(player)
      TestUtil.register_map(map)
      uid = player.uid
   end
   TestUtil.save_cycle()
   local player = Chara.player()
   local map = player:current_map()
   Assert.eq(player._id, "elona.player")
   Assert.eq(player._type, "base.chara")
   Assert.eq(player.uid, uid)
   Assert.same({ player.x, player.y }, { 4, 5 })
   Assert.is_truthy(map)
   Assert.is_truthy(map:has_object(player))
   refuses_reserved_fields(player)
end

function test_object_change_prototype()
   do
      local map = floor_map()
      TestUtil.set_player(map)
      TestUtil.register_map(map)
      local putit = Chara.create("elona.putit", 5, 5, {}, map)
      Assert.eq(putit._id, "elona.putit")
      Assert.eq(putit.proto._id, "elona.putit")
      putit:change_prototype("elona.yeek")
      Assert.eq(putit._id, "elona.yeek")
      Assert.eq(putit.proto._id, "elona.yeek")
   end
   TestUtil.save_cycle()
   local map = Chara.player():current_map()
   local changed = Chara.find("elona.yeek", "all", map)
   Assert.is_truthy(changed)
   Assert.eq(changed._id, "elona.yeek")
   Assert.eq(changed.proto._id, "elona.yeek")
end

-- src/test/internal/data_table.lua
function test_data_table__ext()
   data:add { _type = "base.data_ext", _id = "color", fields = { { name = "color", type = "table", default = { 64, 128, 196 } } } }
   data:add { _type = "base.chara", _id = "ext_colored", _ext = { "test.color" } }
   data:add { _type = "base.chara", _id = "ext_colored_param", _ext = { ["test.color"] = { color = { 196, 128, 64 } } } }
   data:add { _type = "base.chara", _id = "ext_uncolored" }
   local charas = data["base.chara"]
   Assert.same(charas["test.ext_colored"]._ext["test.color"], {})
   Assert.same(charas:ext("test.ext_colored", "test.color"), {})
   Assert.same(charas["test.ext_colored_param"]._ext["test.color"], { color = { 196, 128, 64 } })
   Assert.same(charas:ext("test.ext_colored_param", "test.color"), { color = { 196, 128, 64 } })
   Assert.same(charas:ext("test.ext_uncolored", "test.color"), { color = { 64, 128, 196 } })
end

-- src/test/location.lua
function test_item_owning_location()
   do
      local map = floor_map()
      local player = Chara.create("elona.player", 5, 5, {}, map)
      Chara.set_player(player)
      TestUtil.register_map(map)
      local item = Item.create("elona.dagger", nil, nil, {}, player)
      Assert.eq(item:get_location(), player)
      Assert.eq(player:get_location(), map)
   end
   TestUtil.save_cycle()
   local player = Chara.player()
   local map = player:current_map()
   Assert.eq(Item.find("elona.dagger", "all", map):get_location(), player)
   Assert.eq(player:get_location(), map)
end

-- src/test/mef.lua
function test_mef_serialize_origin()
   do
      local map = floor_map()
      local player = Chara.create("elona.player", 5, 5, {}, map)
      Chara.set_player(player)
      TestUtil.register_map(map)
      local mef = Mef.create("elona.fire", 5, 4, { origin = player, duration = -1, power = 50 }, map)
      Assert.eq(mef:get_origin(), player)
   end
   TestUtil.save_cycle()
   local player = Chara.player()
   Assert.eq(Mef.iter(player:current_map()):nth(1):get_origin(), player)
end

-- src/test/api/item/IItemContainer.lua (elona.bag for elona.shopkeepers_trunk)
function test_IItemContainer_is_item_container__false()
   Assert.eq(Item.create("elona.putitoro", nil, nil, { ownerless = true }):is_item_container(), false)
end

function test_IItemContainer_is_item_container__true()
   Assert.eq(Item.create("elona.bag", nil, nil, { ownerless = true }):is_item_container(), true)
end

function test_IItemContainer_is_item_container__containing_map()
   local map = floor_map()
   local trunk = Item.create("elona.bag", 1, 2, {}, map)
   local putitoro = Item.create("elona.putitoro", nil, nil, {}, trunk)
   Assert.is_truthy(putitoro)
   Assert.is_truthy(putitoro.location)
   Assert.eq(putitoro:get_location(), trunk)
   Assert.eq(trunk:has_object(putitoro), true)
   Assert.eq(putitoro:current_map(), nil)

   local containing_map, containing_obj, x, y = putitoro:containing_map()
   Assert.eq(containing_map, map)
   Assert.eq(containing_obj, trunk)
   Assert.same({ x, y }, { 1, 2 })

   trunk:remove_ownership()
   Assert.eq(putitoro:current_map(), nil)
   Assert.eq(putitoro:containing_map(), nil)
end

-- src/test/api/chara/ICharaEquip.lua (elona.putit for elona.the_leopard_warrior)
function test_ICharaEquip_equip_item()
   local chara = TestUtil.stripped_chara("elona.putit")
   local item = Item.create("elona.dagger", nil, nil, { ownerless = true })
   Assert.eq(item:is_equipped(), false)
   Assert.eq(chara:has_item_equipped(item), false)
   Assert.is_falsy(chara:equip_item(item))
   Assert.is_truthy(chara:take_item(item))
   Assert.is_truthy(chara:equip_item(item))
   Assert.eq(item:is_equipped(), true)
   Assert.eq(chara:has_item_equipped(item), true)
   Assert.is_truthy(chara:unequip_item(item))
   Assert.eq(item:is_equipped(), false)
   Assert.eq(chara:has_item_equipped(item), false)
   Assert.is_falsy(chara:unequip_item(item))
   Assert.eq(item:is_equipped(), false)
   Assert.eq(chara:has_item_equipped(item), false)
end
