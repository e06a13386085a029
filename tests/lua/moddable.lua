-- Temporary values (seed: Temporary Values).

local function hero()
   local chara = Chara.create("elona.player", 5, 5)
   Chara.set_player(chara)
   return chara
end

function test_the_seeds_fov_demonstration()
   local player = hero()
   Assert.eq(Chara.player():calc("fov"), 15)
   Chara.player():mod("fov", 100)
   Assert.eq(Chara.player():calc("fov"), 100)
   Chara.player().fov = 5
   Assert.eq(Chara.player():calc("fov"), 100, "the temp value still wins")
   Assert.eq(player.fov, 5, "the base value did change")
   Chara.player():refresh()
   Assert.eq(Chara.player():calc("fov"), 5)
   Chara.player().fov = 100
   Assert.eq(Chara.player():calc("fov"), 100)
end

function test_add_adds_to_the_temp_value_or_the_base()
   local c = hero()
   c.dv = 10
   c:mod("dv", 20, "add")
   c:mod("dv", 20, "add")
   Assert.eq(c:calc("dv"), 50)
   Assert.eq(c.dv, 10)
end

function test_merge_sets_only_nil_or_false()
   local c = hero()
   c:mod("dv", 3, "merge")
   Assert.eq(c:calc("dv"), 4, "dv was already set (the player's 4)")
   c:mod("is_flying", true, "merge")
   Assert.is_true(c:calc("is_flying"))
   c.is_cursed = false
   c:mod("is_cursed", true, "merge")
   Assert.is_true(c:calc("is_cursed"))
end

function test_unknown_method_lists_the_valid_ones()
   local c = hero()
   local err = Assert.throws(function() c:mod("dv", 1, "multiply") end, "unknown method 'multiply'")
   Assert.contains(err, '"set", "add" or "merge"')
end

function test_mod_nil_removes_the_temp_value()
   local c = hero()
   c:mod("fov", 3)
   c:mod("fov", nil)
   Assert.eq(c:calc("fov"), 15)
   Assert.is_nil(c.temp.fov)
end

function test_calc_is_temp_then_base_then_nil()
   local c = hero()
   Assert.is_nil(c:calc("no_such_field"))
   c.luck = 3
   Assert.eq(c:calc("luck"), 3)
   c:mod("luck", 9)
   Assert.eq(c:calc("luck"), 9)
end

function test_mod_base_and_reset()
   local c = hero()
   c:mod_base("strength", 4, "add")
   Assert.eq(c.strength, 10)
   c:mod("strength", 50)
   c:reset("strength", 2)
   Assert.eq(c:calc("strength"), 2, "reset clears the temp value and sets the base")
   Assert.eq(c.strength, 2)
end

function test_adding_to_a_non_number_says_what_to_do()
   local c = hero()
   Assert.throws(function() c:mod("name", 1, "add") end, 'use the "set" method')
end

function test_mod_sources_tell_who_set_a_temp_value()
   local c = hero()
   c:mod("fov", 100)
   local line = debug.getinfo(1, "l").currentline - 1
   local sources = c:mod_sources("fov")
   Assert.eq(#sources, 1)
   Assert.eq(sources[1].method, "set")
   Assert.eq(sources[1].value, 100)
   Assert.eq(sources[1].mod, "test")
   Assert.contains(sources[1].file, "moddable.lua")
   Assert.eq(sources[1].line, line)
   c:mod("fov", 5, "add")
   Assert.eq(#c:mod_sources("fov"), 2)
   c:mod("fov", 1)
   Assert.eq(#c:mod_sources("fov"), 1, "set starts the list again")
end

function test_mod_sources_name_each_calling_chunk_past_the_callers_remembered()
   -- mod remembers each calling function's file by its address, keeping the function alive
   -- until it has kept 4096; then it starts over and old functions may be collected and their
   -- addresses reused by new ones, which must not be taken for the old.
   local c = hero()
   for i = 1, 6000 do
      local set = load("local c = ... c:mod('fov', " .. i .. ")", "=chunk" .. i)
      set(c)
      local source = c:mod_sources("fov")[1]
      if source.file ~= "chunk" .. i or source.value ~= i then
         Assert.eq(source.file, "chunk" .. i)
         Assert.eq(source.value, i)
      end
      if i % 500 == 0 then collectgarbage() end
   end
end

function test_mod_sources_name_the_line_of_each_call_site_every_time()
   -- mod remembers each call site's origin by the address of the instruction after the call:
   -- two sites of one function, called in turn by two closures of it, keep their own lines.
   local c = hero()
   local first = debug.getinfo(1, "l").currentline + 4
   local function make()
      return function(n)
         for _ = 1, n do
            c:mod("dv", 1, "add")
            c:mod("dv", 2, "add")
         end
      end
   end
   make()(2)
   make()(1)
   local sources = c:mod_sources("dv")
   Assert.eq(#sources, 6, "adds from alternating lines do not join")
   for i, source in ipairs(sources) do
      Assert.eq(source.line, first + (i + 1) % 2, "source " .. i)
      Assert.eq(source.value, 2 - i % 2, "source " .. i)
   end
end

function test_mod_called_by_a_c_function_is_not_taken_for_the_lua_function_before_it()
   -- `f` runs two calls deep, as does the C pcall under the sandbox's Lua pcall, which then
   -- reuses f's frame: where pcall cannot yield (the main thread), it leaves there what f
   -- left, f's call site, which is not pcall's.
   local c = hero()
   local line = debug.getinfo(1, "l").currentline + 1
   local function f() c:mod("dv", 1, "add") end
   local function g() f() end
   g()
   pcall(c.mod, c, "dv", 2, "add")
   local sources = c:mod_sources("dv")
   Assert.eq(#sources, 2, "the add called by pcall does not join the add of f's line")
   Assert.eq(sources[1].line, line)
   Assert.ne(sources[2].line, line, "pcall is not on f's line")
end

function test_adds_made_one_after_another_by_one_line_are_one_source()
   local c = hero()
   for _ = 1, 10 do c:mod("dv", 5, "add") end
   local sources = c:mod_sources("dv")
   Assert.eq(#sources, 1, "ten adds from one line")
   Assert.eq(sources[1].value, 50)
   Assert.eq(sources[1].times, 10)
   Assert.eq(c:calc("dv"), c.dv + 50)
   c:mod("dv", 1, "add") -- another line: a source of its own
   Assert.eq(#c:mod_sources("dv"), 2)
   Assert.eq(c:mod_sources("dv")[2].times, 1)
end

function test_refresh_emits_the_refreshed_event_and_handlers_reapply()
   local c = hero()
   local calls = 0
   Event.register("base.on_chara_refreshed", "test.blessing", function(chara, params)
      calls = calls + 1
      chara:mod("dv", 20, "add")
   end)
   c:refresh()
   local after_first = calls
   Assert.eq(c:calc("dv"), 24)
   c:refresh()
   Assert.eq(c:calc("dv"), 24, "cleared and re-applied, not stacked")
   Assert.eq(calls, after_first + 1)
   Event.unregister("base.on_chara_refreshed", "test.blessing")
   c:refresh()
   Assert.eq(c:calc("dv"), 4)
end

function test_items_and_feats_emit_their_own_refresh_events()
   local seen = {}
   Event.register("base.on_item_refreshed", "test.items", function(item) seen[#seen + 1] = item._type end)
   Event.register("base.on_feat_refreshed", "test.feats", function(feat) seen[#seen + 1] = feat._type end)
   Item.create("elona.putitoro", 1, 1):refresh()
   Feat.create("elona.door", 1, 1):refresh()
   Assert.same(seen, { "base.item", "base.item", "base.feat", "base.feat" }, "created objects are refreshed too")
end

function test_sight_reads_calc_fov()
   local map = InstancedMap:new(60, 60)
   Map.set_map(map)
   local c = Chara.create("elona.player", 30, 30, {}, map)
   Chara.set_player(c)
   World.refresh_sight()
   Assert.is_true(map:is_in_fov(44, 30))
   Assert.is_false(map:is_in_fov(50, 30))
   c:mod("fov", 25)
   World.refresh_sight()
   Assert.is_true(map:is_in_fov(50, 30), "the temp value widens sight")
   c:refresh()
   World.refresh_sight()
   Assert.is_false(map:is_in_fov(50, 30))
   Assert.is_true(map:is_memorized(50, 30), "but the cell is remembered")
end

function test_walls_and_closed_doors_block_sight()
   local map = InstancedMap:new(20, 5)
   Map.set_map(map)
   for y = 0, 4 do map:set_tile(10, y, "elona.wall_stone") end
   local c = Chara.create("elona.player", 5, 2, {}, map)
   Chara.set_player(c)
   World.refresh_sight()
   Assert.is_true(map:is_in_fov(10, 2), "the wall is seen")
   Assert.is_false(map:is_in_fov(12, 2), "what is behind it is not")
   map:set_tile(10, 2, "elona.floor_stone")
   local door = Feat.create("elona.door", 10, 2, {}, map)
   World.refresh_sight()
   Assert.is_false(map:is_in_fov(12, 2), "a closed door blocks sight")
   door:mod_base("is_opaque", false)
   World.refresh_sight()
   Assert.is_true(map:is_in_fov(12, 2))
end

function test_errors_point_at_the_calling_line()
   local c = hero()
   local map = Map.current()
   local function where(fn)
      local ok, err = pcall(fn)
      Assert.is_false(ok)
      return err
   end
   local line = debug.getinfo(1, "l").currentline
   Assert.contains(where(function() c:mod("dv", 1, "multiply") end), "moddable.lua:" .. (line + 1) .. ":")
   Assert.contains(where(function() c:calc({}) end), "moddable.lua:" .. (line + 2) .. ":")
   Assert.contains(where(function() map:objects_at_pos("a", 1) end), "moddable.lua:" .. (line + 3) .. ":")
   Assert.contains(where(function() c:mod("f", function() end) end), "moddable.lua:" .. (line + 4) .. ":")
end
