-- OpenNefia's TestUtil (src/api/test/TestUtil.lua), as the Lua tests that port its engine
-- tests use it: the same helpers over Nefia's API. Its base.player is elona.player here, and
-- a map is registered by saving it and making it current (Nefia has no areas).

TestUtil = {}

TestUtil.TEST_SAVE_ID = "__test__"

-- A character of `id` with no items, on `map` at x, y, or in no location without a map.
function TestUtil.stripped_chara(id, map, x, y)
   local chara
   if map then
      chara = Chara.create(id, x, y, {}, map)
   else
      chara = Chara.create(id, nil, nil, { ownerless = true })
   end
   for _, item in chara:iter() do
      item:remove_ownership()
   end
   chara:refresh()
   return chara
end

-- A player on `map` (at x, y), made the player; or one in no location without a map.
function TestUtil.set_player(map, x, y)
   local player = assert(TestUtil.stripped_chara("elona.player", map, x, y))
   Chara.set_player(player)
   return player
end

-- `map` saved and made current; the player is set first.
function TestUtil.register_map(map)
   assert(Chara.player(), "player must be set")
   Map.save(map)
   Map.set_map(map)
end

-- A save and a load of the test save.
function TestUtil.save_cycle()
   Save.save_game(TestUtil.TEST_SAVE_ID)
   Save.load_game(TestUtil.TEST_SAVE_ID)
end

-- An item of `id` (a stack of `amount`) in `where` at x, y, or in no location.
function TestUtil.stripped_item(id, where, x, y, amount)
   if where == nil then
      return Item.create(id, x, y, { ownerless = true, amount = amount or 1 })
   end
   return Item.create(id, x, y, { amount = amount or 1 }, where)
end
