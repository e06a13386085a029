-- Saves (seed: Save Data).

local function count(iterator, state, init)
   local n = 0
   for _ in iterator, state, init do n = n + 1 end
   return n
end

function test_every_mod_has_a_save_table()
   Assert.eq(type(save.base), "table")
   Assert.eq(type(save.elona), "table")
   save[_MOD_NAME].counter = 3
   Assert.eq(save.test.counter, 3)
   save.brand_new.flag = true
   Assert.is_true(save.brand_new.flag, "subtables appear on first use")
end

function test_a_game_survives_save_and_load()
   local map = Map.current()
   map.name = "home"
   local hero = Chara.create("elona.player", 3, 4)
   Chara.set_player(hero)
   hero.name = "Aria"
   hero:mod("fov", 30)
   local dagger = Item.create("elona.dagger", nil, nil, {}, hero)
   hero:equip_item(dagger)
   Item.create("elona.putitoro", nil, nil, {}, hero)
   local bag = Item.create("elona.bag", 6, 6)
   Item.create("elona.gold_piece", nil, nil, {}, bag)
   local cave = InstancedMap:new(8, 8, "elona.floor_stone")
   cave:set_tile(1, 1, "elona.wall_stone")
   Chara.create("elona.putit", 2, 2, {}, cave)
   World.refresh_sight()
   World.pass_time(3600)
   save.test.quest = { stage = 2, names = { "a", "b" } }
   local hours = World.date():hours()
   local uid = hero.uid
   local next_uid = Chara.create("elona.putit", 1, 1, { ownerless = true }).uid + 1

   Save.save_game("slot1")

   hero.name = "changed"
   Chara.create("elona.yeek", 9, 9)
   save.test.quest = nil
   Save.load_game("slot1")

   local player = Chara.player()
   Assert.eq(player.uid, uid)
   Assert.eq(player.name, "Aria")
   Assert.eq(player:calc("fov"), 30, "temp values are saved")
   Assert.eq(player.fov, 15)
   Assert.eq(player:mod_sources("fov")[1].line > 0, true, "with their provenance")
   Assert.eq(player.equip.main_hand._id, "elona.dagger")
   Assert.eq(player.equip.main_hand.location, player)
   Assert.eq(count(player:iter()), 1)
   Assert.eq(Map.current().name, "home")
   Assert.eq(player.location, Map.current())
   Assert.eq(player.x, 3)
   local bags = 0
   for _, item in Item.iter() do
      if item._id == "elona.bag" then
         bags = bags + 1
         Assert.eq(count(item:iter()), 1, "container contents are saved")
      end
   end
   Assert.eq(bags, 1)
   Assert.eq(count(Chara.iter()), 1, "the yeek made after saving is gone")
   Assert.is_true(Map.current():is_memorized(3, 4), "map memory is saved")
   Assert.eq(World.date():hours(), hours)
   Assert.same(save.test.quest, { stage = 2, names = { "a", "b" } })
   local maps = 0
   for _, m in Map.iter() do
      maps = maps + 1
      if m ~= Map.current() then
         Assert.eq(m:tile(1, 1), "elona.wall_stone")
         Assert.eq(count(Chara.iter(m)), 1)
      end
   end
   Assert.eq(maps, 2)
   Assert.eq(Chara.create("elona.putit", 1, 1).uid, next_uid, "the uid counter is saved")
end

function test_handles_from_before_a_load_say_so()
   local putit = Chara.create("elona.putit", 1, 1)
   Save.save_game("slot")
   Save.load_game("slot")
   Assert.throws(function() return putit.name end, "from before the game was loaded")
   Assert.eq(World.object(putit.uid).name, "putit", "looking it up again works")
end

function test_unsaveable_values_name_their_path_and_keep_the_old_save()
   save.test.score = 1
   Save.save_game("keep")
   save.test.score = 2
   save.test.cb = function() end
   Assert.throws(function() Save.save_game("keep") end, "save.test.cb")
   save.test.cb = nil
   local loop = {}
   loop.again = loop
   save.test.loop = loop
   Assert.throws(function() Save.save_game("keep") end, "save.test.loop.again")
   save.test.loop = nil
   Save.load_game("keep")
   Assert.eq(save.test.score, 1, "the earlier save is intact")
end

function test_loading_a_missing_save_is_a_clear_error()
   Assert.throws(function() Save.load_game("nothing_here") end, "nothing_here.ron")
end

function test_save_names_are_cleaned_as_opennefia_cleans_them()
   local path = Save.save_game("<Gwen> the innocent")
   Assert.is_true(path:sub(-#"/_Gwen_ the innocent.ron") == "/_Gwen_ the innocent.ron", path)
   Save.load_game("<Gwen> the innocent")
   local escaped = Save.save_game("../escape")
   Assert.is_true(escaped:sub(-#"/___escape.ron") == "/___escape.ron", "it stays in the save folder: " .. escaped)
   Assert.is_true(Save.save_game("dood."):sub(-#"/dood_.ron") == "/dood_.ron")
   Assert.throws(function() Save.save_game("con") end, "Windows keeps 'con' for a device")
   Assert.throws(function() Save.save_game("") end, "is not a save name")
end
