-- OpenNefia's own engine tests (src/test/ in its repository), round 4: ported with the same
-- steps and checks, through TestUtil (tests/support/TestUtil.lua). Nefia's content stands in
-- for OpenNefia's where it lacks the one named: elona.floor_stone for elona.cobble,
-- elona.player for base.player, elona.dagger for elona.long_bow.

-- src/test/api/IObject.lua's prototypes (elona.on_chara_displaced declared for them).
local function add_eventful_charas()
   data:add { _type = "base.event", _id = "on_chara_displaced" }
   local chara = { _type = "base.chara", level = 1, relation = Enum.Relation.Enemy }
   data:add(table.merge({ _id = "noneventful", events = nil }, chara))
   data:add(table.merge({
      _id = "eventful",
      events = { { id = "test.on_chara_displaced", name = "Test event", callback = function(self, params) end } },
   }, chara))
end

local function floor_map()
   local map = InstancedMap:new(10, 10)
   map:clear("elona.floor_stone")
   return map
end

function test_IObject_change_prototype__IEventEmitter_prototype_callbacks_added()
   add_eventful_charas()
   do
      local map = floor_map()
      local player = Chara.create("test.noneventful", 5, 5, {}, map)
      Chara.set_player(player)
      TestUtil.register_map(map)
      Assert.is_falsy(player:has_event_handler("test.on_chara_displaced"))
      player:change_prototype("test.eventful")
      Assert.is_truthy(player:has_event_handler("test.on_chara_displaced"))
   end
   TestUtil.save_cycle()
   Assert.is_truthy(Chara.player():has_event_handler("test.on_chara_displaced"))
end

function test_IObject_change_prototype__IEventEmitter_prototype_callbacks_removed()
   add_eventful_charas()
   do
      local map = floor_map()
      local player = Chara.create("test.eventful", 5, 5, {}, map)
      Chara.set_player(player)
      TestUtil.register_map(map)
      Assert.is_truthy(player:has_event_handler("test.on_chara_displaced"))
      player:change_prototype("test.noneventful")
      Assert.is_falsy(player:has_event_handler("test.on_chara_displaced"))
   end
   TestUtil.save_cycle()
   Assert.is_falsy(Chara.player():has_event_handler("test.on_chara_displaced"))
end

function test_IObject_change_prototype__IEventEmitter_prototype_callbacks_preserved()
   add_eventful_charas()
   local map = floor_map()
   local player = Chara.create("test.eventful", 5, 5, {}, map)
   Chara.set_player(player)
   TestUtil.register_map(map)
   player:connect_self("test.on_chara_displaced", "Unrelated event", function() end)
   Assert.is_truthy(player:has_event_handler("test.on_chara_displaced"))
   player:change_prototype("test.noneventful")
   Assert.is_truthy(player:has_event_handler("test.on_chara_displaced"))
end

-- src/test/internal/object.lua
function test_object_instantiate_events_save()
   do
      local map = floor_map()
      TestUtil.set_player(map)
      TestUtil.register_map(map)
      local inv = Inventory.get_or_create("test.test")
      local gold = Item.create("elona.gold_piece", 5, 5, {}, inv)
      Assert.eq(gold:has_event_handler("base.on_get_item"), true)
   end
   TestUtil.save_cycle()
   do
      local inv = Inventory.get_or_create("test.test")
      local gold = inv:iter():nth(1)
      Assert.is_truthy(gold)
      Assert.eq(gold._id, "elona.gold_piece")
      Assert.eq(gold:has_event_handler("base.on_get_item"), true)
   end
end

function test_object_instantiate_events_map_load()
   local map_uid
   do
      local map = floor_map()
      TestUtil.set_player(map)
      TestUtil.register_map(map)
      local gold = Item.create("elona.gold_piece", 5, 5, {}, map)
      Assert.eq(gold:has_event_handler("base.on_get_item"), true)
      Map.save(map)
      map_uid = map.uid
   end
   do
      local _, map = assert(Map.load(map_uid))
      local gold = Item.find("elona.gold_piece", "all", map)
      Assert.is_truthy(gold)
      Assert.eq(gold:has_event_handler("base.on_get_item"), true)
   end
end

-- src/test/api/MapObject.lua
function test_MapObject_clone__owned_equipment()
   local map = floor_map()
   local chara = Chara.create("elona.putit", 1, 2, {}, map)
   local item = Item.create("elona.dagger", nil, nil, {}, chara)
   Assert.is_truthy(chara:equip_item(item))
   -- (OpenNefia locates a worn item in its wearer's EquipSlots, item.location; Nefia in the
   -- wearer, whose worn items chara:iter_equipment() lists.)
   Assert.eq(chara.location:iter():length(), 1)
   Assert.eq(chara:iter_equipment():length(), 1)
   Assert.eq(chara:iter_inventory():length(), 0)
   Assert.eq(item:containing_map(), map)

   local new = MapObject.clone(item, true)
   Assert.eq(map:iter():length(), 1)
   Assert.eq(chara.location:iter():length(), 1)
   Assert.eq(chara:iter_equipment():length(), 1)
   Assert.eq(chara:iter_inventory():length(), 1)
   Assert.eq(new.x, 0)
   Assert.eq(new.y, 0)
   Assert.eq(new:get_location(), chara)
   Assert.eq(new:containing_map(), map)

   chara:remove_ownership()
   Assert.eq(chara.location, nil)
   Assert.eq(chara:iter_equipment():length(), 1)
   Assert.eq(chara:iter_inventory():length(), 1)
   Assert.eq(item:containing_map(), nil)
   Assert.eq(new:containing_map(), nil)
end

function test_MapObject_is_map_object()
   Assert.eq(MapObject.is_map_object(nil), false)
   Assert.eq(MapObject.is_map_object("dood"), false)
   Assert.eq(MapObject.is_map_object(42), false)
   Assert.eq(MapObject.is_map_object(function() end), false)
   Assert.eq(MapObject.is_map_object({}), false)
   Assert.eq(MapObject.is_map_object(Queue:new()), false)

   local activity = Object.generate_from("base.activity", "elona.traveling")
   Assert.eq(MapObject.is_map_object(activity), false)

   Assert.eq(MapObject.is_map_object(Chara.create("elona.putit", nil, nil, { ownerless = true })), true)
   Assert.eq(MapObject.is_map_object(Item.create("elona.putitoro", nil, nil, { ownerless = true })), true)
   Assert.eq(MapObject.is_map_object(Feat.create("elona.fountain", nil, nil, { ownerless = true })), true)
   Assert.eq(MapObject.is_map_object(Mef.create("elona.fire", nil, nil, { ownerless = true })), true)
end

-- src/test/api/item/IItem.lua
function test_IItem_get_owning_chara()
   local IItem = require("api.item.IItem")
   local Action = require("api.Action")
   do
      local map = floor_map()
      local player = Chara.create("elona.player", 5, 5, {}, map)
      Chara.set_player(player)
      TestUtil.register_map(map)
      local item = Item.create("elona.dagger", nil, nil, {}, map)
      Assert.eq(IItem.get_owning_chara(item), nil)
      Assert.is_truthy(Action.get(player, item))
      Assert.eq(IItem.get_owning_chara(item), player)
   end
   TestUtil.save_cycle()
   do
      local player = Chara.player()
      local item = Item.find("elona.dagger", "all", player:current_map())
      Assert.eq(IItem.get_owning_chara(item), player)
      Assert.is_truthy(player:equip_item(item))
      Assert.eq(IItem.get_owning_chara(item), player)
   end
   TestUtil.save_cycle()
   local player = Chara.player()
   Assert.eq(IItem.get_owning_chara(Item.find("elona.dagger", "all", player:current_map())), player)
end

-- src/test/api/Feat.lua
function test_Feat_create__params_validation()
   Assert.throws_error(function() Feat.create("elona.material_spot", nil, nil, {ownerless=true, params={material_spot_info=42}}) end,
      "base.feat 'elona.material_spot' received invalid value for parameter 'material_spot_info': Value is not of type \"data_id<elona.material_spot_feat_info>\": 42")

   Assert.throws_error(function() Feat.create("elona.material_spot", nil, nil, {ownerless=true, params={material_spot_info="elona.sprint", dood=42}}) end,
         "base.feat 'elona.material_spot' does not accept parameter 'dood'")

   Assert.throws_error(function() Feat.create("elona.material_spot", nil, nil, {ownerless=true, params={}}) end,
         "base.feat 'elona.material_spot' is missing required parameter 'material_spot_info': Value is not of type \"data_id<elona.material_spot_feat_info>\": nil")

   Assert.throws_error(function() Feat.create("elona.material_spot", nil, nil, {ownerless=true}) end,
         "base.feat 'elona.material_spot' is missing required parameter 'material_spot_info': Value is not of type \"data_id<elona.material_spot_feat_info>\": nil")

   local feat = Feat.create("elona.material_spot", nil, nil, {ownerless=true,params={material_spot_info="elona.spring"}})
   Assert.eq(feat.params.material_spot_info, "elona.spring")
end

-- Nefia's own checks of what the tests above rely on.
function test_generate_from_copies_a_prototype_that_stays_its_own()
   local activity = Object.generate_from("base.activity", "elona.traveling")
   Assert.eq(activity._id, "elona.traveling")
   Assert.eq(activity._type, "base.activity")
   Assert.eq(activity.default_turns, 20)
   Assert.eq(activity.proto, data["base.activity"]["elona.traveling"])
   Assert.is_true(types.is_type_checker(activity.params.dest_x), "a checker copied stays one")
   activity.default_turns = 5
   Assert.eq(data["base.activity"]["elona.traveling"].default_turns, 20, "a copy")
   Assert.throws(function() Object.generate_from("base.activity", "elona.sleeping") end,
      "No instance of 'base.activity' with ID 'elona.sleeping' was found.")
end

function test_action_get_picks_up_and_gold_goes_to_the_purse()
   local map = floor_map()
   local player = TestUtil.set_player(map, 2, 2)
   local dagger = Item.create("elona.dagger", 2, 2, {}, map)
   Assert.is_truthy(Action.get(player))
   Assert.eq(dagger:get_location(), player, "the top item of the cell")
   local gold = Item.create("elona.gold_piece", 2, 2, { amount = 30 }, map)
   Assert.eq(Action.get(player, gold), true)
   Assert.eq(player.gold, 30)
   Assert.eq(gold.location, nil)
   Assert.eq(Action.get(player), false, "nothing left here")
end
