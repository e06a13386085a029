-- Object ownership and locations (seed: ILocation).

local function list(iterator, state, init)
   local out = {}
   for _, obj in iterator, state, init do
      out[#out + 1] = obj
   end
   return out
end

function test_take_object_returns_the_object_and_moves_it_from_its_old_location()
   local a = InstancedMap:new(10, 10)
   local b = InstancedMap:new(10, 10)
   local putit = Chara.create("elona.putit", 1, 1, {}, a)
   Assert.eq(b:take_object(putit, 2, 3), putit)
   Assert.eq(putit.location, b)
   Assert.eq(putit.x, 2)
   Assert.eq(#list(a:iter()), 0, "gone from the old map")
   Assert.eq(#list(a:objects_at_pos(1, 1)), 0)
   Assert.eq(list(b:objects_at_pos(2, 3))[1], putit)
end

function test_take_object_refuses_with_a_reason()
   local map = Map.current()
   local putit = Chara.create("elona.putit", 1, 1)
   local obj, reason = map:take_object(putit, 2, 2)
   Assert.is_nil(obj)
   Assert.contains(reason, "already there")

   obj, reason = InstancedMap:new(5, 5):take_object(putit, 5, 0)
   Assert.is_nil(obj)
   Assert.contains(reason, "out of bounds")
   Assert.eq(putit.location, map, "a refused object stays where it was")

   local hero = Chara.create("elona.player", 3, 3)
   obj, reason = hero:take_object(putit)
   Assert.is_nil(obj)
   Assert.contains(reason, "wrong type")
end

function test_can_take_object_answers_without_moving()
   local hero = Chara.create("elona.player", 3, 3)
   local item = Item.create("elona.putitoro", 1, 1)
   Assert.is_true(hero:can_take_object(item))
   Assert.eq(item.location, Map.current())
   local ok, reason = InstancedMap:new(4, 4):can_take_object(item, -1, 0)
   Assert.is_false(ok)
   Assert.contains(reason, "out of bounds")
end

function test_a_map_without_a_position_offers_an_open_cell()
   local small = InstancedMap:new(3, 3)
   local item = Item.create("elona.putitoro", 1, 1)
   Assert.is_true(small:can_take_object(item))
   Assert.eq(item.location, Map.current(), "asking moves nothing")
   Assert.eq(small:take_object(item), item)
   Assert.eq(item.location, small)
   Assert.is_true(item.x >= 0 and item.x < 3 and item.y >= 0 and item.y < 3)
end

function test_inventory_is_full_at_capacity()
   local hero = Chara.create("elona.player", 3, 3)
   hero.inventory_capacity = 3
   for _ = 1, 3 do
      Assert.not_nil(Item.create("elona.gold_piece", nil, nil, { no_stack = true }, hero))
   end
   local item, reason = Item.create("elona.putitoro", nil, nil, {}, hero)
   Assert.is_nil(item)
   Assert.contains(reason, "full")
   Assert.eq(#list(hero:iter()), 3)
end

function test_default_inventory_capacity_is_200()
   local hero = Chara.create("elona.player", 3, 3)
   Assert.eq(hero:calc("inventory_capacity"), 200)
end

function test_item_create_into_a_character_puts_it_in_the_inventory()
   local hero = Chara.create("elona.player", 3, 3)
   Chara.set_player(hero)
   local item = Item.create("elona.putitoro", nil, nil, {}, Chara.player())
   Assert.eq(item.location, hero)
   Assert.eq(list(hero:iter())[1], item)
   Assert.eq(#list(Item.iter()), 0, "not on the map")
   Assert.eq(list(Item.iter(hero))[1], item, "Item.iter over a character lists its inventory")
end

function test_objects_at_pos_and_iter_are_snapshots_in_insertion_order()
   local map = Map.current()
   local a = Item.create("elona.putitoro", 4, 4)
   local b = Chara.create("elona.putit", 4, 4)
   local c = Feat.create("elona.stairs_down", 4, 4)
   local d = Chara.create("elona.yeek", 4, 4)
   local here = list(map:objects_at_pos(4, 4))
   Assert.same(here, { a, b, c, d }, "any number of objects share a cell, in arrival order")
   local seen = 0
   for _, obj in map:objects_at_pos(4, 4) do
      obj:remove_ownership()
      seen = seen + 1
   end
   Assert.eq(seen, 4, "removing while iterating does not disturb the snapshot")
   Assert.eq(#list(map:objects_at_pos(4, 4)), 0)
end

function test_out_of_bounds_queries_are_empty()
   Assert.eq(#list(Map.current():objects_at_pos(-1, 3)), 0)
   Assert.eq(#list(Map.current():objects_at_pos(20, 0)), 0)
end

function test_cells_are_zero_based()
   local map = InstancedMap:new(3, 2)
   Assert.is_true(map:is_in_bounds(0, 0))
   Assert.is_true(map:is_in_bounds(2, 1))
   Assert.is_false(map:is_in_bounds(3, 0))
   Assert.is_false(map:is_in_bounds(0, 2))
   Assert.not_nil(Chara.create("elona.putit", 2, 1, {}, map))
   local none, reason = Chara.create("elona.putit", 3, 1, {}, map)
   Assert.is_nil(none)
   Assert.contains(reason, "out of bounds")
end

function test_move_object_and_remove_object()
   local map = Map.current()
   local putit = Chara.create("elona.putit", 1, 1)
   map:move_object(putit, 6, 6)
   Assert.eq(putit.x, 6)
   map:remove_object(putit)
   Assert.is_nil(putit.location)
   Assert.throws(function() map:remove_object(putit) end, "is not in this location")
end

function test_equipment_lives_in_slots_and_its_location_is_the_character()
   local hero = Chara.create("elona.player", 3, 3)
   local dagger = Item.create("elona.dagger", nil, nil, {}, hero)
   for _ in hero.equip:iter() do
      error("nothing is worn yet")
   end
   Assert.eq(rawequal(hero.equip, hero.equip), true, "the handle keeps its equipment view")
   Assert.eq(hero:equip_item(dagger), "main_hand", "the first free slot it fits")
   Assert.eq(hero.equip.main_hand, dagger)
   Assert.eq(dagger.location, hero)
   Assert.eq(#list(hero:iter()), 0, "worn items are not in the inventory")
   local second = Item.create("elona.dagger", nil, nil, {}, hero)
   Assert.eq(hero:equip_item(second), "off_hand")
   local third = Item.create("elona.dagger", nil, nil, {}, hero)
   local slot, reason = hero:equip_item(third)
   Assert.is_nil(slot)
   Assert.contains(reason, "no free slot")
   slot, reason = hero:equip_item(Item.create("elona.helmet", nil, nil, {}, hero), "body")
   Assert.is_nil(slot)
   Assert.contains(reason, "does not fit slot 'body'")
   local worn = {}
   for slot_name, item in hero.equip:iter() do
      worn[slot_name] = item
   end
   Assert.same(worn, { main_hand = dagger, off_hand = second })
   Assert.eq(hero:unequip_item("main_hand"), dagger)
   Assert.is_nil(hero.equip.main_hand)
   Assert.eq(dagger.location, hero)
   Assert.eq(list(hero:iter())[3], dagger, "back in the inventory")
end

function test_containers_hold_items_but_not_themselves()
   local bag = Item.create("elona.bag", 1, 1)
   local gold = Item.create("elona.gold_piece", nil, nil, {}, bag)
   Assert.eq(gold.location, bag)
   local inner = Item.create("elona.bag", nil, nil, {}, bag)
   local ok, reason = inner:take_object(bag)
   Assert.is_nil(ok)
   Assert.contains(reason, "inside itself")
   local putitoro = Item.create("elona.putitoro", 1, 1)
   Assert.throws(function() putitoro:take_object(gold) end, "is not a location")
end

function test_removing_a_character_takes_its_inventory_along()
   local hero = Chara.create("elona.player", 3, 3)
   local item = Item.create("elona.putitoro", nil, nil, {}, hero)
   hero:remove_ownership()
   Assert.eq(item.location, hero, "still in the inventory")
   Map.current():take_object(hero, 5, 5)
   Assert.eq(list(hero:iter())[1], item)
end

function test_single_object_cells_iterate_once_even_nested()
   local putit = Chara.create("elona.putit", 2, 2)
   local seen = {}
   for i, o in Map.current():objects_at_pos(2, 2) do
      for j, p in Map.current():objects_at_pos(2, 2) do
         seen[#seen + 1] = { i, j, o == putit, p == putit }
      end
   end
   Assert.same(seen, { { 1, 1, true, true } })
end
