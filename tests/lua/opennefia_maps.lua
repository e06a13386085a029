-- OpenNefia's map helpers: map:clear, map:iter_type_at_pos, Chara.at, Chara.find, Item.find.

function test_clear_sets_every_tile_and_keeps_the_objects()
   local map = InstancedMap:new(4, 3, "elona.grass")
   local putit = Chara.create("elona.putit", 2, 1, {}, map)
   map:clear("elona.wall_stone")
   for x = 0, 3 do
      for y = 0, 2 do
         Assert.eq(map:tile(x, y), "elona.wall_stone")
      end
   end
   Assert.eq(putit.location, map, "the putit stays")
   Assert.throws(function() map:clear("elona.lava") end, "map:clear: unknown base.map_tile id 'elona.lava'")
end

function test_iter_type_at_pos_gives_the_objects_of_one_type_on_a_cell()
   local map = InstancedMap:new(5, 5)
   local putit = Chara.create("elona.putit", 1, 1, {}, map)
   local potion = Item.create("elona.potion_of_sight", 1, 1, {}, map)
   Chara.create("elona.putit", 2, 2, {}, map)
   local found = {}
   for _, chara in map:iter_type_at_pos("base.chara", 1, 1) do
      found[#found + 1] = chara
   end
   Assert.eq(#found, 1)
   Assert.eq(found[1], putit)
   local items = {}
   for _, item in map:iter_type_at_pos("base.item", 1, 1) do
      items[#items + 1] = item
   end
   Assert.eq(items[1], potion)
   Assert.throws(function() map:iter_type_at_pos("base.map_tile", 1, 1) end, "use \"base.chara\", \"base.item\", \"base.feat\" or \"base.mef\"")
end

function test_chara_at_finds_the_living_character_on_a_cell()
   local map = InstancedMap:new(5, 5)
   Map.set_map(map)
   local dead = Chara.create("elona.putit", 3, 3, {}, map)
   dead.state = "Dead"
   local alive = Chara.create("elona.yeek", 3, 3, {}, map)
   Assert.eq(Chara.at(3, 3), alive, "the current map, the dead one passed over")
   Assert.eq(Chara.at(3, 3, map), alive)
   Assert.is_nil(Chara.at(0, 0, map))
   Assert.is_nil(Chara.at(9, 9, map), "out of bounds")
end

function test_find_looks_by_uid_or_id_where_it_is_told()
   local map = InstancedMap:new(6, 6)
   Map.set_map(map)
   local hero = Chara.create("elona.player", 0, 0, {}, map)
   Chara.set_player(hero)
   local putit = Chara.create("elona.putit", 1, 1, {}, map)
   Assert.eq(Chara.find("elona.putit"), putit)
   Assert.eq(Chara.find(putit.uid, "all", map), putit)
   Assert.eq(Chara.find("elona.player", "all"), hero)
   Assert.is_nil(Chara.find("elona.player", "others"), "the player is not among the others")
   Assert.throws(function() Chara.find("elona.putit", "allies") end, "no party yet")
   Assert.throws(function() Chara.find("elona.putit", "friends") end, "use \"all\" or \"others\"")

   local on_ground = Item.create("elona.potion_of_sight", 2, 2, {}, map)
   local carried = Item.create("elona.potion_of_sight", 0, 0, {}, hero)
   Assert.eq(Item.find("elona.potion_of_sight"), on_ground, "ground by default")
   Assert.eq(Item.find("elona.potion_of_sight", "inventory"), carried)
   Assert.eq(Item.find(carried.uid, "all"), carried)
   Assert.is_nil(Item.find(carried.uid, "ground"))
   local dagger = Item.create("elona.dagger", nil, nil, {}, hero)
   Assert.eq(Item.find("elona.dagger", "inventory"), dagger)
   hero:equip_item(dagger)
   Assert.eq(Item.find("elona.dagger", "equipment"), dagger, "worn")
   Assert.is_nil(Item.find("elona.dagger", "inventory"), "no longer carried")
   Assert.throws(function() Item.find("x", "pockets") end, "use \"ground\", \"inventory\", \"equipment\" or \"all\"")
   Assert.throws(function() Item.find({}) end, "a uid or a prototype id, not a table")
end

function test_an_object_tells_its_location_and_the_map_that_contains_it()
   local map = InstancedMap:new(5, 5)
   local hero = Chara.create("elona.player", 2, 3, {}, map)
   local potion = Item.create("elona.potion_of_sight", 0, 0, {}, hero)
   Assert.eq(hero:get_location(), map)
   Assert.eq(potion:get_location(), hero)
   Assert.eq(hero:current_map(), map)
   Assert.is_nil(potion:current_map(), "held, it is on no map itself")
   local found, holder, x, y = potion:containing_map()
   Assert.eq(found, map)
   Assert.eq(holder, hero, "the one standing on the map")
   Assert.eq(x, 2)
   Assert.eq(y, 3)
   Assert.eq(IMapObject.containing_map(potion), map)
   Assert.eq(require("api.IMapObject").current_map(hero), map)
   potion:remove_ownership()
   Assert.is_nil(potion:get_location())
   Assert.is_nil(potion:containing_map())
end

function test_change_prototype_keeps_own_values_and_tells_the_handlers()
   local map = InstancedMap:new(4, 4)
   local putit = Chara.create("elona.putit", 1, 1, {}, map)
   putit.hp = 3
   local told = {}
   Event.register("base.on_object_prototype_changed", "test.told", function(obj, params)
      told[#told + 1] = obj._id .. " from " .. params.old_id
   end)
   putit:change_prototype("elona.yeek")
   Assert.eq(putit._id, "elona.yeek")
   Assert.eq(putit.hp, 3, "its own value stays")
   Assert.eq(putit.name, "yeek", "what it did not set comes from the new prototype")
   Assert.eq(told[1], "elona.yeek from elona.putit")
   Assert.eq(Chara.at(1, 1, map), putit, "the same object, where it was")
   Assert.throws(function() putit:change_prototype("elona.nope") end, "change_prototype: unknown base.chara id 'elona.nope'")
   Assert.throws(function() putit:change_prototype("elona.putitoro") end, "unknown base.chara id 'elona.putitoro'")
end

function test_set_pos_moves_an_object_in_a_location_and_leaves_one_in_none()
   local map = InstancedMap:new(6, 6)
   local putit = Chara.create("elona.putit", 1, 2, {}, map)
   Assert.is_true(putit:set_pos(3, 4))
   Assert.eq(map:iter_type_at_pos("base.chara", 3, 4):length(), 1)
   Assert.eq(map:iter_type_at_pos("base.chara", 1, 2):length(), 0)
   putit:remove_ownership()
   Assert.is_false(putit:set_pos(5, 5), "nowhere to move it in")
   Assert.eq(putit.x, 3)
   Assert.eq(putit.y, 4)
end

function test_equipping_asks_for_an_item_held_and_unequipping_what_is_not_worn_is_no_error()
   local map = InstancedMap:new(6, 6)
   local hero = Chara.create("elona.player", 1, 1, {}, map)
   local on_ground = Item.create("elona.dagger", 2, 2, {}, map)
   local slot, reason = hero:equip_item(on_ground)
   Assert.is_nil(slot)
   Assert.contains(reason, "does not hold")
   Assert.eq(on_ground.location, map, "it stays where it was")
   local held = Item.create("elona.dagger", nil, nil, {}, hero)
   Assert.eq(hero:equip_item(held), "main_hand")
   local item, why = hero:unequip_item(on_ground)
   Assert.is_nil(item)
   Assert.contains(why, "is not worn by this character")
   Assert.eq(hero:unequip_item(held), held)
end
