-- Mefs (map effects, OpenNefia's IMef): on maps only, one a cell, lasting their turns.

local function map()
   local m = InstancedMap:new(6, 6)
   m:clear("elona.floor_stone")
   return m
end

function test_a_mef_stands_on_a_cell_and_a_new_one_takes_its_place()
   local m = map()
   local fire = Mef.create("elona.fire", 2, 2, { duration = 5, power = 3 }, m)
   Assert.eq(fire._type, "base.mef")
   Assert.eq(fire.turns, 5)
   Assert.eq(fire.power, 3)
   Assert.eq(Mef.at(2, 2, m), fire)
   Assert.is_nil(Mef.at(3, 3, m))
   local puddle = Mef.create("elona.puddle", 2, 2, {}, m)
   Assert.eq(Mef.at(2, 2, m), puddle, "one mef a cell: the new one replaces the old")
   Assert.is_nil(fire:get_location())
   Assert.eq(Mef.iter(m):length(), 1)
   Assert.eq(puddle.turns, 10, "Mef.create's default duration")
end

function test_a_cell_never_holds_two_mefs_and_mefs_stand_on_maps_only()
   local m = map()
   local a = Mef.create("elona.fire", 1, 1, {}, m)
   local b = Mef.create("elona.fire", 2, 1, {}, m)
   local ok, reason = m:can_take_object(Mef.create("elona.puddle", nil, nil, { ownerless = true }), 1, 1)
   Assert.is_false(ok)
   Assert.contains(reason, "a mef is already at (1, 1)")
   Assert.throws(function() b:set_pos(1, 1) end, "a cell holds one mef at most")
   local putit = Chara.create("elona.putit", 3, 3, {}, m)
   Assert.throws(function() Mef.create("elona.fire", nil, nil, {}, putit) end, "a mef stands on a map")
   Assert.is_falsy(putit:take_object(a))
   -- Other objects share a mef's cell.
   Assert.not_nil(Item.create("elona.putitoro", 1, 1, {}, m))
end

function test_a_mef_knows_its_origin_while_it_exists()
   local m = map()
   local putit = Chara.create("elona.putit", 3, 3, {}, m)
   local fire = Mef.create("elona.fire", 1, 1, { origin = putit }, m)
   Assert.eq(fire:get_origin(), putit)
   putit:remove_ownership()
   Assert.eq(Mef.create("elona.fire", 2, 2, {}, m):get_origin(), nil)
   Assert.throws(function() putit:get_origin() end, "get_origin is for mefs, not a character")
end

function test_mefs_run_out_as_turns_pass_and_are_saved()
   local m = Map.current()
   local fire = Mef.create("elona.fire", 1, 1, { duration = 2 }, m)
   local puddle = Mef.create("elona.puddle", 2, 1, { duration = -1 }, m)
   World.pass_turn()
   Assert.eq(fire.turns, 1)
   Save.save_game("mefs")
   Save.load_game("mefs")
   local again = Mef.at(1, 1)
   Assert.eq(again.turns, 1, "saved with the game")
   World.pass_turn()
   Assert.is_nil(Mef.at(1, 1), "it ran out")
   Assert.eq(Mef.at(2, 1).turns, -1, "a lasting mef stays")
end
