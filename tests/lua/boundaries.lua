-- Numbers and assignments at the Lua boundary: out of range is an error naming the argument,
-- never a silently truncated or dropped value.

local function hero()
   local c = Chara.create("elona.player", 2, 2)
   Chara.set_player(c)
   return c
end

function test_positions_past_i32_are_errors_not_another_cell()
   Assert.throws(function() Chara.create("elona.putit", 2^40, 0) end, "x = 1099511627776 is out of range")
   Assert.throws(function() Chara.create("elona.putit", 0, -2^40) end, "y = -1099511627776 is out of range")
   Assert.throws(function() Chara.create("elona.putit", 1.5, 0) end, "x must be a whole number, not 1.5")
   local count = 0
   for _ in Chara.iter() do count = count + 1 end
   Assert.eq(count, 0)
end

function test_objects_at_pos_past_i32_is_empty_not_another_cell()
   local map = Map.current()
   Item.create("elona.potion_of_sight", 3, 0)
   local found = 0
   for _ in map:objects_at_pos(2^32 + 3, 0) do found = found + 1 end
   Assert.eq(found, 0)
   for _ in map:objects_at_pos(3, 0) do found = found + 1 end
   Assert.eq(found, 1)
end

function test_a_huge_fov_sees_the_whole_map_instead_of_nothing()
   local c = hero()
   c:mod("fov", 46341)
   World.refresh_sight()
   Assert.is_true(Map.current():is_in_fov(19, 19))
   c:mod("fov", 2^62)
   World.refresh_sight()
   Assert.is_true(Map.current():is_in_fov(0, 19))
end

function test_the_clock_refuses_to_pass_its_end()
   World.pass_time(math.maxinteger)
   local before = World.date():hours()
   Assert.throws(function() World.pass_time(math.maxinteger) end, "run the clock past its end")
   Assert.eq(World.date():hours(), before)
   Assert.throws(function() World.pass_time(-5) end, "seconds = -5 is out of range")
   Assert.throws(function() World.pass_time(0.5) end, "seconds must be a whole number")
   World.pass_time(3600)
   Assert.eq(World.date():hours(), before + 1)
   World.pass_turn()
   Assert.eq(World.date():hours(), before + 1, "a turn at the calendar's end leaves the clock there")
end

function test_assigning_temp_is_mod_as_the_seed_says()
   local c = hero()
   c.temp.fov = 100
   Assert.eq(c:calc("fov"), 100)
   Assert.eq(c.temp.fov, 100)
   c.fov = 5
   Assert.eq(c:calc("fov"), 100, "the temp value still wins over the base")
   local seen = {}
   for field, value in pairs(c.temp) do seen[field] = value end
   Assert.eq(seen.fov, 100)
   c.temp.fov = nil
   Assert.eq(c:calc("fov"), 5)
   c.temp.fov = 30
   c:refresh()
   Assert.is_nil(c.temp.fov)
end

function test_maps_past_the_size_cap_are_refused()
   Assert.throws(function() InstancedMap:new(5000, 10) end, "between 1x1 and 4096x4096 cells, not 5000x10")
   Assert.throws(function() InstancedMap:new(2^40, 10) end, "out of range")
end
