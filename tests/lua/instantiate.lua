-- OpenNefia's instantiation events: whenever an object comes into play with what saves do not
-- keep (made, cloned, loaded with a save or with its map, given a prototype with
-- { instantiate = true }, its prototype hotloaded), base.on_object_instantiated and the
-- kind's own event let a mod connect its handlers again.

-- A prototype whose objects connect a handler of their own when instantiated, as OpenNefia's
-- content does; returns a function telling how many instantiations each kind event saw.
local function glowing_prototype()
   local seen = { object = 0, item = 0 }
   data:add {
      _type = "base.item",
      _id = "glowing",
      events = {
         {
            id = "base.on_object_instantiated",
            name = "connect glow",
            callback = function(item)
               seen.object = seen.object + 1
               item:connect_self("base.on_damage", "glow", function() end)
            end,
         },
         { id = "base.on_item_instantiated", name = "count", callback = function() seen.item = seen.item + 1 end },
      },
   }
   data:add { _type = "base.item", _id = "dull" }
   return seen
end

function test_a_new_object_is_instantiated_unless_not_built()
   local seen = glowing_prototype()
   local lamp = Item.create("test.glowing", nil, nil, { ownerless = true })
   Assert.is_true(lamp:has_event_handler("base.on_damage", "glow"))
   Assert.same(seen, { object = 1, item = 1 }, "the object's event, then the kind's")
   local bare = Item.create("test.glowing", nil, nil, { ownerless = true, no_build = true })
   Assert.is_false(bare:has_event_handler("base.on_damage", "glow"))
   Assert.same(seen, { object = 1, item = 1 })
end

function test_a_clone_is_instantiated_and_gets_its_connected_handlers_again()
   glowing_prototype()
   local lamp = Item.create("test.glowing", nil, nil, { ownerless = true })
   local copy = lamp:clone()
   Assert.is_true(copy:has_event_handler("base.on_damage", "glow"))
end

function test_a_loaded_game_instantiates_every_object()
   glowing_prototype()
   local global = {}
   Event.register("base.on_chara_instantiated", "test.count", function(chara) global[#global + 1] = chara.uid end)
   local putit = Chara.create("elona.putit", 1, 1, {}, Map.current())
   local lamp = Item.create("test.glowing", nil, nil, {}, putit)
   local uids = { putit = putit.uid, lamp = lamp.uid }
   Save.save_game("instantiate")
   global = {}
   Save.load_game("instantiate")
   local loaded = World.object(uids.lamp)
   Assert.is_true(loaded:has_event_handler("base.on_damage", "glow"), "connected again by the prototype's handler")
   Assert.is_true(table.has_value(global, uids.putit), "the kind's event reached the global handler")
end

function test_a_loaded_map_instantiates_its_objects()
   glowing_prototype()
   local cave = InstancedMap:new(4, 4)
   cave:clear("elona.floor_stone")
   local holder = Chara.create("elona.putit", 1, 1, {}, cave)
   Item.create("test.glowing", nil, nil, {}, holder)
   Assert.is_true(Map.save(cave))
   local ok, loaded = Map.load(cave.uid)
   Assert.is_true(ok)
   local lamp = Chara.at(1, 1, loaded):iter_inventory():nth(1)
   Assert.eq(lamp._id, "test.glowing")
   Assert.is_true(lamp:has_event_handler("base.on_damage", "glow"), "an item inside a character too")
end

function test_change_prototype_instantiates_only_when_asked()
   local seen = glowing_prototype()
   local item = Item.create("test.dull", nil, nil, { ownerless = true })
   item:change_prototype("test.glowing")
   Assert.is_false(item:has_event_handler("base.on_damage", "glow"))
   item:change_prototype("test.dull")
   item:change_prototype("test.glowing", { instantiate = true })
   Assert.is_true(item:has_event_handler("base.on_damage", "glow"))
   Assert.eq(seen.item, 1)
end

function test_a_hotloaded_prototype_instantiates_its_objects_and_tells_them()
   local code = [[
      data:add {
         _type = "base.item",
         _id = "hotlamp",
         events = {
            { id = "base.on_object_instantiated", name = "glow", callback = function(item)
                 item:connect_self("base.on_damage", "VERSION", function() end)
              end },
         },
      }
      return {}
   ]]
   env.load_transient_path("mod.elona.hotlamp", "elona", code:gsub("VERSION", "first"))
   require("mod.elona.hotlamp")
   local lamp = Item.create("elona.hotlamp", nil, nil, { ownerless = true })
   local other = Item.create("elona.dagger", nil, nil, { ownerless = true })
   local told = {}
   Event.register("base.on_hotload_object", "test.told", function(obj, params)
      told[#told + 1] = { uid = obj.uid, reloaded = params.hotloaded_data[1]._id, kind = params.hotloaded_data[1]._type }
   end)
   env.load_transient_path("mod.elona.hotlamp", "elona", code:gsub("VERSION", "second"))
   hotload.hotload("mod.elona.hotlamp")
   Assert.is_true(lamp:has_event_handler("base.on_damage", "second"), "the new prototype's instantiation ran")
   Assert.same(told, { { uid = lamp.uid, reloaded = "elona.hotlamp", kind = "base.item" } })
   Assert.is_false(other:has_event_handler("base.on_damage", "second"))
   env.unload_transient_paths()
end
