-- Events.

function test_handlers_run_by_priority_then_name_and_chain_results()
   local order = {}
   Event.register("base.on_turn_passed", "b", function(_, _, result)
      order[#order + 1] = "b"
      return (result or 0) + 1
   end)
   Event.register("base.on_turn_passed", "a", function(_, _, result)
      order[#order + 1] = "a"
      return (result or 0) + 10
   end)
   Event.register("base.on_turn_passed", "first", function(_, params, result)
      order[#order + 1] = "first"
      Assert.eq(params.turn, 7)
      Assert.is_nil(result)
   end, { priority = 10 })
   local result = Event.trigger("base.on_turn_passed", { turn = 7 })
   Assert.same(order, { "first", "a", "b" })
   Assert.eq(result, 11)
end

function test_receiver_is_nil_for_trigger()
   local got = "unset"
   Event.register("base.on_turn_passed", "r", function(receiver) got = receiver end)
   Event.trigger("base.on_turn_passed")
   Assert.is_nil(got)
end

function test_duplicate_names_and_unknown_events_are_errors()
   Event.register("base.on_turn_passed", "dup", function() end)
   Assert.throws(function() Event.register("base.on_turn_passed", "dup", function() end) end, "already registered")
   Assert.throws(function() Event.register("base.no_such_event", "x", function() end) end, 'Unknown event type "base.no_such_event"')
   Assert.throws(function() Event.trigger("base.no_such_event") end, "Unknown event type")
end

function test_unregister_removes_a_handler()
   local calls = 0
   Event.register("base.on_turn_passed", "count", function() calls = calls + 1 end)
   Event.trigger("base.on_turn_passed")
   Assert.is_true(Event.unregister("base.on_turn_passed", "count"))
   Event.trigger("base.on_turn_passed")
   Assert.eq(calls, 1)
   Assert.is_false(Event.unregister("base.on_turn_passed", "count"))
end

function test_mods_can_declare_events()
   data:add { _type = "base.event", _id = "on_sneeze" }
   local heard
   Event.register("test.on_sneeze", "listener", function(_, params) heard = params.who end)
   Event.trigger("test.on_sneeze", { who = "putit" })
   Assert.eq(heard, "putit")
end

function test_a_refresh_passes_params_to_handlers_that_take_them_and_nil_to_others()
   local chara = Chara.create("elona.putit", 1, 1)
   local seen, count = "unset", -1
   Event.register("base.on_chara_refreshed", "takes_params", function(_, params) seen = params end)
   Event.register("base.on_chara_refreshed", "takes_any", function(...) count = select("#", ...) end)
   chara:refresh()
   Assert.eq(type(seen), "table")
   Assert.eq(count, 3)
   Event.unregister("base.on_chara_refreshed", "takes_params")
   Event.unregister("base.on_chara_refreshed", "takes_any")
end
