-- The engine's iterators are chains, as OpenNefia's (luafun) are, and still loop with `for`.

local function putits()
   local map = InstancedMap:new(8, 8)
   for i = 1, 5 do
      local putit = Chara.create("elona.putit", i, 1, {}, map)
      putit.level = i
   end
   Chara.create("elona.yeek", 6, 6, {}, map)
   return map
end

function test_a_for_loop_over_an_iterator_works_as_before()
   local map = putits()
   local seen = {}
   for i, chara in Chara.iter(map) do
      seen[#seen + 1] = i .. ":" .. chara._id
   end
   Assert.eq(#seen, 6)
   Assert.eq(seen[1], "1:elona.putit")
   Assert.eq(seen[6], "6:elona.yeek")
end

function test_chains_count_filter_map_and_collect()
   local map = putits()
   Assert.eq(Chara.iter(map):length(), 6)
   Assert.eq(Chara.iter(map):nth(6)._id, "elona.yeek")
   Assert.is_nil(Chara.iter(map):nth(7))
   local high = Chara.iter(map):filter(function(c) return c._id == "elona.putit" and c.level > 3 end)
   Assert.eq(high:length(), 2)
   Assert.eq(table.concat(high:extract("level"):to_list(), ","), "4,5")
   Assert.eq(Chara.iter(map):map(function(c) return c.level end):sum(), 1 + 2 + 3 + 4 + 5 + Chara.iter(map):nth(6).level)
   Assert.is_true(Chara.iter(map):any(function(c) return c._id == "elona.yeek" end))
   Assert.is_false(Chara.iter(map):all(function(c) return c._id == "elona.putit" end))
   Assert.eq(Chara.iter(map):take(2):length(), 2)
   local count = 0
   map:iter():each(function() count = count + 1 end)
   Assert.eq(count, 6)
   Assert.eq(Chara.iter(map):foldl(function(n, _) return n + 1 end, 0), 6)
   -- A chain can be looped over too, after its steps.
   local levels = {}
   for _, chara in Chara.iter(map):filter(function(c) return c._id == "elona.putit" and c.level <= 2 end) do
      levels[#levels + 1] = chara.level
   end
   Assert.eq(table.concat(levels, ","), "1,2")
end

function test_chains_say_what_they_expected()
   local map = putits()
   Assert.throws(function() Chara.iter(map):filter(3) end, "filter expects a function, not a number")
   Assert.throws(function() Chara.iter(map):nth(1.5) end, "nth expects a whole number")
   Assert.eq(getmetatable(Chara.iter(map)), "chain", "no mod can change the chains of another")
end
