-- A map's own fields, with base and temp values as objects have, and Map.save / Map.load of
-- a map of the running game.

local function map()
   local m = InstancedMap:new(6, 6)
   m:clear("elona.floor_stone")
   return m
end

function test_a_map_keeps_fields_of_its_own_with_base_and_temp_values()
   local m = map()
   Assert.is_nil(m.is_temporary)
   m.is_temporary = true
   Assert.is_true(m.is_temporary)
   Assert.is_nil(m.temp.danger)
   m:mod("danger", 3)
   Assert.eq(m.temp.danger, 3)
   Assert.eq(m:calc("danger"), 3)
   Assert.is_nil(m.danger, "the base value is untouched")
   m.temp.light = 0.5
   Assert.eq(m:calc("light"), 0.5)
   m:mod_base("level", 2, "add")
   Assert.eq(m.level, 2)
   m:refresh()
   Assert.is_nil(m.temp.danger, "refresh clears the temp values")
   Assert.is_true(m.is_temporary)
   m:reset("level", 7)
   Assert.eq(m:calc("level"), 7)
   Assert.throws(function() m.width = 3 end, "cannot assign 'width' of a map")
   Assert.throws(function() m.temp = {} end, "use map:mod(field, value[, method])")
end

function test_a_maps_fields_survive_a_save_and_a_load()
   local m = Map.current()
   m.is_temporary = false
   m:mod("danger", 4)
   Save.save_game("map fields")
   Save.load_game("map fields")
   local again = Map.current()
   Assert.is_false(again.is_temporary)
   Assert.eq(again.temp.danger, 4, "a save game keeps temp values")
end

function test_map_save_and_load_bring_a_map_back_as_it_was_saved()
   local m = map()
   m.is_temporary = true
   local putit = Chara.create("elona.putit", 2, 2, {}, m)
   putit.hp = 3
   putit:mod("dv", 5)
   local uid = m.uid
   Assert.is_true(Map.save(m))
   putit.hp = 1
   m:set_tile(0, 0, "elona.wall_stone")
   local ok, loaded = Map.load(uid)
   Assert.is_true(ok)
   Assert.eq(loaded.uid, uid)
   Assert.eq(loaded:tile(0, 0), "elona.floor_stone", "the tiles as saved")
   Assert.is_true(loaded.is_temporary)
   local back = Chara.at(2, 2, loaded)
   Assert.eq(back.hp, 3, "the objects as saved")
   Assert.eq(back.temp.dv, 5)
   Assert.ne(back.uid, putit.uid, "made again with a new uid")
   local missing, reason = Map.load(99999)
   Assert.is_false(missing)
   Assert.eq(reason, "file does not exist: temp/map/99999")
   local current = Map.current()
   local none, why = Map.load(current.uid)
   Assert.is_false(none)
   Assert.eq(why, ("file does not exist: temp/map/%d"):format(current.uid), "the current map, never saved")
end

-- As OpenNefia's tests load it: the current map's saved copy takes its place, the player
-- standing where they stood.
function test_loading_the_current_map_puts_its_saved_copy_in_place_keeping_the_player()
   local map = InstancedMap:new(6, 6)
   local player = Chara.create("elona.player", 3, 4, {}, map)
   Chara.set_player(player)
   local putit = Chara.create("elona.putit", 1, 1, {}, map)
   Map.set_map(map)
   Assert.is_true(Map.save(map))
   putit.hp = 1
   local ok, loaded = Map.load(map.uid)
   Assert.is_true(ok)
   Assert.eq(Map.current(), loaded)
   Assert.eq(Chara.player().location, loaded)
   Assert.same({ Chara.player().x, Chara.player().y }, { 3, 4 })
   Assert.ne(Chara.at(1, 1, loaded).hp, 1, "the putit as saved")
end
