-- math.random is the world's random number generator: seeded, repeatable, saved with the game.

local function draws(n, ...)
   local out = {}
   for i = 1, n do out[i] = math.random(...) end
   return out
end

function test_the_same_seed_gives_the_same_numbers()
   math.randomseed(42)
   local first = draws(8, 100)
   math.randomseed(42)
   Assert.same(draws(8, 100), first)
   math.randomseed(43)
   Assert.is_false(table.concat(draws(8, 100), ",") == table.concat(first, ","), "another seed, other numbers")
end

function test_random_keeps_lua_54_meanings()
   math.randomseed(1)
   for _ = 1, 50 do
      local f = math.random()
      Assert.is_true(f >= 0 and f < 1, "a float in [0, 1)")
      local d = math.random(6)
      Assert.is_true(d >= 1 and d <= 6 and math.type(d) == "integer", "an integer in [1, 6]")
      local r = math.random(-2, 2)
      Assert.is_true(r >= -2 and r <= 2)
   end
   Assert.eq(math.random(3, 3), 3)
   Assert.eq(math.type(math.random(0)), "integer")
   Assert.throws(function() math.random(5, 1) end, "interval [5, 1] is empty")
   Assert.throws(function() math.random(1.5) end, "must be a whole number")
end

function test_randomseed_without_a_seed_is_refused_with_the_reason()
   Assert.throws(function() math.randomseed() end, "needs a seed: game logic is deterministic")
end
