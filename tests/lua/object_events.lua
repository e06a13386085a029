-- Per-object events (OpenNefia's IEventEmitter): handlers an object has of its own, run with
-- the global ones whenever the object is the receiver of an event.

local function putitoro()
   return Item.create("elona.putitoro", nil, nil, { ownerless = true })
end

function test_connect_self_is_this_objects_only_and_has_event_handler_asks_by_name()
   local item, other = putitoro(), putitoro()
   Assert.is_false(item:has_event_handler("base.on_damage"))
   item:connect_self("base.on_damage", "Thrown event", function() end)
   Assert.is_true(item:has_event_handler("base.on_damage"))
   Assert.is_true(item:has_event_handler("base.on_damage", "Thrown event"))
   Assert.is_false(item:has_event_handler("base.on_damage", "dood"))
   Assert.is_false(item:has_event_handler("base.on_turn_passed"))
   Assert.is_false(other:has_event_handler("base.on_damage"), "another object has none")
   Assert.throws(function() item:has_event_handler("dood") end, 'Unknown event type "dood"')
   Assert.throws(function() item:connect_self("dood", "x", function() end) end, 'Unknown event type "dood"')
end

function test_disconnect_self_removes_one_handler_by_name()
   local item = putitoro()
   item:connect_self("base.on_damage", "one", function() end)
   item:connect_self("base.on_damage", "two", function() end)
   Assert.is_false(item:disconnect_self("base.on_damage", "dood"), "an unknown name changes nothing")
   Assert.is_true(item:has_event_handler("base.on_damage", "one"))
   Assert.is_true(item:disconnect_self("base.on_damage", "one"))
   Assert.is_false(item:has_event_handler("base.on_damage", "one"))
   Assert.is_true(item:has_event_handler("base.on_damage"))
   item:disconnect_self("base.on_damage", "two")
   Assert.is_false(item:has_event_handler("base.on_damage"))
end

function test_emit_runs_own_and_global_handlers_by_priority_from_a_starting_result()
   local item = putitoro()
   local order = {}
   Event.register("base.on_damage", "global", function(receiver, params, result)
      order[#order + 1] = receiver == item and "global" or "global for another"
      return result .. "g"
   end)
   item:connect_self("base.on_damage", "early", function(_, params, result)
      order[#order + 1] = "early"
      Assert.eq(params.amount, 3)
      return result .. "e"
   end, { priority = 10 })
   item:connect_self("base.on_damage", "late", function(_, _, result)
      order[#order + 1] = "late"
      return result .. "l"
   end, 200000)
   Assert.eq(item:emit("base.on_damage", { amount = 3 }, ">"), ">egl")
   Assert.same(order, { "early", "global", "late" })
   -- Another object's emit runs only the global handler.
   order = {}
   Assert.eq(putitoro():emit("base.on_damage", {}, ">"), ">g")
   Assert.same(order, { "global for another" })
end

function test_the_engines_own_events_reach_an_objects_handlers()
   local putit = Chara.create("elona.putit", 2, 2, {}, InstancedMap:new(4, 4))
   local refreshed = 0
   putit:connect_self("base.on_chara_refreshed", "count", function() refreshed = refreshed + 1 end)
   putit:refresh()
   Assert.eq(refreshed, 1)
end

function test_a_prototypes_events_belong_to_each_of_its_objects_and_a_connected_one_takes_its_name()
   local calls = {}
   data:add {
      _type = "base.item",
      _id = "eventful",
      events = {
         { id = "base.on_damage", name = "Eventful", callback = function() calls[#calls + 1] = "proto" end },
      },
   }
   data:add { _type = "base.item", _id = "plain" }
   local a, b = Item.create("test.eventful", nil, nil, { ownerless = true }), Item.create("test.eventful", nil, nil, { ownerless = true })
   Assert.is_true(a:has_event_handler("base.on_damage", "Eventful"))
   b:emit("base.on_damage")
   Assert.same(calls, { "proto" })
   a:connect_self("base.on_damage", "Eventful", function() calls[#calls + 1] = "own" end)
   a:emit("base.on_damage")
   Assert.same(calls, { "proto", "own" })
   -- change_prototype drops the prototype's handlers and keeps the connected ones.
   b:connect_self("base.on_damage", "Unrelated", function() end)
   b:change_prototype("test.plain")
   Assert.is_false(b:has_event_handler("base.on_damage", "Eventful"))
   Assert.is_true(b:has_event_handler("base.on_damage", "Unrelated"))
   Assert.throws(function()
      data:add { _type = "base.item", _id = "broken", events = { { id = "base.on_damage" } } }
   end, "events[1] of 'test.broken' must be")
end

function test_connected_handlers_are_not_saved_and_clones_start_without_them()
   local putit = Chara.create("elona.putit", 1, 1, {}, Map.current())
   putit:connect_self("base.on_damage", "mine", function() end)
   Assert.is_false(putit:clone():has_event_handler("base.on_damage"), "a clone has none of its own")
   local uid = putit.uid
   Save.save_game("events")
   Save.load_game("events")
   local loaded = Chara.find(uid)
   Assert.is_false(loaded:has_event_handler("base.on_damage"), "functions are not saved, as in OpenNefia")
end
