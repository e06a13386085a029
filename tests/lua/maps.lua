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
