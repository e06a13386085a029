-- The OpenNefia side of the floor bench's field rows (see `floor.rs`): a field read
-- (`c.max_hp`) and write (`c.hp = r`) over 10,000 putits, beside the same over plain tables
-- holding the fields as their own, in the same VM, alternately, best of 7 — the loops of
-- `floor.rs`, run by OpenNefia (LuaJIT) instead of Nefia. Run it in OpenNefia's REPL (or
-- headless, from its `src/` folder, with a game started) with `dofile("opennefia_fields.lua")`;
-- it prints each row in ns per call and the ratio to the plain table's. Only OpenNefia's
-- public API is used: `InstancedMap:new`, `Map.set_map`, `Chara.create`.

local Chara = require("api.Chara")
local InstancedMap = require("api.InstancedMap")
local Map = require("api.Map")

local OBJECTS, ROUNDS, REPEATS = 10000, 7, 10

local side = math.ceil(math.sqrt(OBJECTS)) + 1
local map = InstancedMap:new(side, side)
Map.set_map(map)
local list, plain = {}, {}
for i = 0, OBJECTS - 1 do
   list[i + 1] = Chara.create("elona.putit", i % side, math.floor(i / side), {}, map)
   assert(list[i + 1], "a putit could not be placed: make the map of floor tiles")
   plain[i + 1] = { max_hp = 10 + i % 7, dv = i % 5, fov = 14, hp = 6 }
end

local function read_loop(objects, n, rounds)
   local x
   for _ = 1, rounds do for i = 1, n do x = objects[i].max_hp end end
   return x
end

local function write_loop(objects, n, rounds)
   for r = 1, rounds do for i = 1, n do objects[i].hp = r end end
end

local rows = {
   { "field read", read_loop, list },
   { "field read plain table", read_loop, plain },
   { "field write", write_loop, list },
   { "field write plain table", write_loop, plain },
}
local best = {}
for _ = 1, ROUNDS do
   for index, row in ipairs(rows) do
      local start = os.clock()
      row[2](row[3], OBJECTS, REPEATS)
      local took = os.clock() - start
      best[index] = math.min(best[index] or math.huge, took)
   end
end
local function ns(index) return best[index] * 1e9 / (OBJECTS * REPEATS) end
for index, row in ipairs(rows) do
   print(("%-26s %7.1f ns"):format(row[1], ns(index)))
end
print(("read %.2fx, write %.2fx the plain table's"):format(ns(1) / ns(2), ns(3) / ns(4)))
