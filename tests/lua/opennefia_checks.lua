-- The checks OpenNefia makes when a prompt or a feat is made.

function test_a_prompt_takes_values_or_entries_with_their_own_whole_unique_indices()
   Assert.not_nil(Prompt:new { "a", "b", "c" })
   Assert.not_nil(Prompt:new { 1, 2, 3 })
   Assert.not_nil(Prompt:new { function() end, true, "foo" })
   Assert.not_nil(Prompt:new { { text = "a" }, { text = "b" } })
   Assert.not_nil(Prompt:new { { text = "a", index = 2 }, { text = "b", index = 1 } })
   Assert.throws(function() Prompt:new { { text = "a", index = 1 }, { text = "b", index = 1 } } end,
      "entries 1 and 2 both have index 1")
   Assert.throws(function() Prompt:new { { text = "a", index = 1 }, { text = "b", index = 2.5 } } end,
      "entry 2's index 2.5 is not a whole number")
   Assert.throws(function() Prompt:new { "a", { text = "b", index = 1 } } end, "entries 1 and 2 both have index 1")
   Assert.throws(function() Prompt:new { "a", { index = 3 } } end, "entry 2 is a table without a text")
end

function test_a_prompt_answers_with_the_index_its_entry_gives()
   Gui.push_ui_result({ index = 1 })
   local choice = Prompt:new({ { text = "second", index = 2 }, { text = "first", index = 1 } }):query()
   Assert.eq(choice.index, 2)
   Assert.eq(choice.text, "second")
end

function test_feat_params_are_checked_against_the_feats_declared_params()
   data:add {
      _type = "base.feat",
      _id = "spot",
      params = { info = { type = "string" }, depth = { type = "int", default = 1, min = 1 } },
   }
   local made = Feat.create("test.spot", nil, nil, { ownerless = true, params = { info = "elona.spring" } })
   Assert.eq(made.params.info, "elona.spring")
   Assert.eq(made.params.depth, 1, "a default fills in")
   Assert.throws(function() Feat.create("test.spot", nil, nil, { ownerless = true, params = { info = 42 } }) end,
      "base.feat 'test.spot' received invalid value for parameter 'info': Value is not of type \"string\": 42")
   Assert.throws(function()
      Feat.create("test.spot", nil, nil, { ownerless = true, params = { info = "x", dood = 42 } })
   end, "base.feat 'test.spot' does not accept parameter 'dood'\nits params: depth, info")
   Assert.throws(function() Feat.create("test.spot", nil, nil, { ownerless = true, params = {} }) end,
      "base.feat 'test.spot' is missing required parameter 'info': Value is not of type \"string\": nil")
   Assert.throws(function() Feat.create("test.spot", nil, nil, { ownerless = true }) end,
      "is missing required parameter 'info'")
   Assert.throws(function()
      Feat.create("elona.door", nil, nil, { ownerless = true, params = { locked = true } })
   end, "base.feat 'elona.door' does not accept parameter 'locked'\nit takes none")
end

function test_the_api_modules_an_engine_level_mod_requires_are_there()
   Assert.eq(require("api.InstancedMap"), InstancedMap)
   Assert.eq(require("api.IMapObject"), IMapObject)
   Assert.eq(require("api.MapObject"), MapObject)
   Assert.eq(require("api.ILocation"), ILocation)
   Assert.eq(require("api.gui.Prompt"), Prompt)
   Assert.eq(require("api.Enum"), Enum)
   Assert.eq(require("api.Chara"), Chara)
end

function test_enums_name_their_variants_and_refuse_unknown_ones()
   local Enum = require("api.Enum")
   Assert.eq(Enum.Relation.Enemy, -3)
   Assert.eq(Enum.Relation:to_string(10), "Ally")
   Assert.is_true(Enum.Quality:has_value(4))
   Assert.is_false((Enum.Quality:has_value(40)))
   Assert.throws(function() return Enum.Relation.Foe end, "Unknown enum variant 'Relation.Foe'")
   local v, problem = Enum.Relation:try_get("Foe")
   Assert.is_nil(v)
   Assert.contains(problem, "Relation.Foe")
   local Weather = Enum.new("Weather", { Sunny = 1, Rain = 2 })
   Assert.eq(Weather.Rain, 2)
   Assert.same(Weather:values(), { 1, 2 })
   Assert.throws(function() Weather.Snow = 3 end, "read-only")
end

function test_the_engine_enums_content_names_in_prototypes()
   Assert.eq(Enum.FltSelect.Town, 5)
   Assert.eq(Enum.Burden.Heavy, 3)
   Assert.eq(Enum.OwnState.Shop, 2)
   Assert.eq(Enum.OwnState.Inherited, -2)
   Assert.eq(Enum.TileRole.Water, 3)
   Assert.eq(Enum.AiBehavior.Follow, 4)
   Assert.throws(function() return Enum.Burden.Crushing end, "Unknown enum variant 'Burden.Crushing'")
end

function test_log_set_level_drops_lines_below_it()
   Log.set_level("warn")
   Log.info("quiet please")
   Log.warn("loud enough")
   local texts = {}
   for _, line in ipairs(Log.recent(5)) do texts[#texts + 1] = line.text end
   Log.set_level("trace")
   Assert.eq(table.concat(texts, "|"):find("quiet please", 1, true), nil, "below the level: dropped")
   Assert.contains(table.concat(texts, "|"), "loud enough")
   Assert.throws(function() Log.set_level("loud") end, "Log.set_level takes")
end
