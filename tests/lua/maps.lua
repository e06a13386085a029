-- InstancedMap and tiles.

function test_new_maps_are_filled_with_a_walkable_floor()
   local map = InstancedMap:new(4, 3)
   Assert.eq(map.width, 4)
   Assert.eq(map.height, 3)
   Assert.eq(map:tile(0, 0), "base.floor")
   Assert.is_true(map:can_access(1, 1))
end

function test_a_fill_tile_can_be_given()
   local map = InstancedMap:new(2, 2, "elona.grass")
   Assert.eq(map:tile(1, 1), "elona.grass")
end

function test_tiles_are_set_by_id()
   local map = InstancedMap:new(3, 3)
   map:set_tile(1, 2, "elona.wall_stone")
   Assert.eq(map:tile(1, 2), "elona.wall_stone")
   Assert.is_false(map:can_access(1, 2), "walls are solid")
   Assert.is_nil(map:tile(3, 0), "out of bounds")
   Assert.throws(function() map:set_tile(0, 0, "elona.lava") end, "unknown base.map_tile id 'elona.lava'")
   Assert.throws(function() map:set_tile(5, 0, "elona.grass") end, "out of bounds")
   Assert.throws(function() InstancedMap:new(3, 3, "elona.nope") end, "elona.nope")
end

function test_current_map_can_be_switched()
   local map = InstancedMap:new(3, 3)
   Assert.ne(Map.current(), map)
   Map.set_map(map)
   Assert.eq(Map.current(), map)
end

function test_maps_have_names_and_print_well()
   local map = InstancedMap:new(3, 2)
   map.name = "cave"
   Assert.eq(tostring(map), "<map " .. map.uid .. " 'cave' 3x2>")
   Assert.throws(function() map.width = 9 end, "cannot assign 'width'")
end

local function traveller()
   local home = InstancedMap:new(8, 8)
   Map.set_map(home)
   local hero = Chara.create("elona.player", 2, 2, {}, home)
   Chara.set_player(hero)
   local dog = Chara.create("elona.putit", 3, 2, {}, home)
   dog.relation = "ally"
   local stranger = Chara.create("elona.putit", 5, 5, {}, home)
   return home, hero, dog, stranger
end

function test_travel_to_takes_the_player_and_allies_to_the_entrance_with_events()
   local home, hero, dog, stranger = traveller()
   local away = InstancedMap:new(6, 6)
   away.entrance = { 4, 1 }
   local seen = {}
   Event.register("base.on_map_leave", "travel test", function(map, params)
      seen[#seen + 1] = { "leave", map == home, params.next_map == away, hero:current_map() == home }
   end)
   Event.register("base.on_map_enter", "travel test", function(map, params)
      seen[#seen + 1] = { "enter", map == away, params.previous_map == home, Map.current() == away }
   end)
   Assert.is_true(Map.travel_to(away))
   Event.unregister("base.on_map_leave", "travel test")
   Event.unregister("base.on_map_enter", "travel test")
   Assert.eq(Map.current(), away)
   Assert.same({ hero.x, hero.y }, { 4, 1 }, "at the entrance")
   Assert.eq(hero:current_map(), away)
   Assert.eq(dog:current_map(), away, "the ally follows")
   Assert.is_true(math.abs(dog.x - 4) <= 1 and math.abs(dog.y - 1) <= 1, "next to the player")
   Assert.eq(stranger:current_map(), home, "others stay")
   Assert.same(seen, { { "leave", true, true, true }, { "enter", true, true, true } })
   Assert.is_truthy(Map.get(home.uid), "the map left is kept")
   Assert.is_true(Map.travel_to(away), "travelling to where one is does nothing")
end

function test_travel_to_a_start_position_and_a_temporary_map_is_deleted_when_left()
   local home, hero = traveller()
   home.is_temporary = true
   local away = InstancedMap:new(6, 6)
   local blocker = Chara.create("elona.putit", 1, 1, {}, away)
   Map.travel_to(away, { start_x = 1, start_y = 1 })
   Assert.ne({ hero.x, hero.y }, { 1, 1 })
   Assert.is_true(math.abs(hero.x - 1) <= 1 and math.abs(hero.y - 1) <= 1, "the nearest open cell")
   local kept = false
   for _, map in Map.iter() do
      kept = kept or map == home
   end
   Assert.is_false(kept, "a temporary map is deleted when left")
   Assert.throws(function() Map.travel_to(away, { start_x = 1.5, start_y = 1 }) end, "params.start_x must be a whole number")
   Assert.eq(blocker:current_map(), away)
end
