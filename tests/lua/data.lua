-- Data types and prototypes.

function test_prototypes_are_namespaced_by_mod_and_readable()
   local putit = data["base.chara"]["elona.putit"]
   Assert.eq(putit._id, "elona.putit")
   Assert.eq(putit._type, "base.chara")
   Assert.eq(putit.glyph, "p")
   Assert.is_nil(data["base.chara"]["elona.nope"])
end

function test_iter_lists_entries_in_registration_order()
   local ids = {}
   for id, proto in data["base.chara"]:iter() do
      Assert.eq(proto._id, id)
      ids[#ids + 1] = id
   end
   Assert.eq(ids[1], "elona.player")
   Assert.eq(ids[2], "elona.putit")
end

function test_add_type_and_add_from_a_file()
   data:add_type { name = "spell", fields = { { name = "cost", default = 5 } } }
   data:add { _type = "test.spell", _id = "fireball", power = 12 }
   local fireball = data["test.spell"]["test.fireball"]
   Assert.eq(fireball.power, 12)
   Assert.eq(fireball._id, "test.fireball")
end

function test_types_declare_defaults_objects_see()
   data:add { _type = "base.chara", _id = "blank" }
   local blank = Chara.create("test.blank", 1, 1)
   Assert.eq(blank.fov, 15)
   Assert.eq(blank.inventory_capacity, 200)
end

function test_a_duplicate_id_is_refused()
   data:add { _type = "base.item", _id = "rock" }
   Assert.throws(function() data:add { _type = "base.item", _id = "rock" } end, "ID is already taken")
end

function test_unknown_types_are_named()
   local err = Assert.throws(function() data:add { _type = "base.spellz", _id = "x" } end, "unknown data type 'base.spellz'")
   Assert.contains(err, "base.chara")
   Assert.throws(function() return data["base.nothing"] end, "unknown data type 'base.nothing'")
end

function test_add_multi_adds_each_entry_of_the_list_with_the_type()
   local list = {
      { _id = "snail", level = 2, relation = Enum.Relation.Enemy },
      { _id = "beetle", _type = "base.item" },
   }
   data:add_multi("base.chara", list)
   Assert.eq(data["base.chara"]["test.snail"].level, 2)
   Assert.eq(data["base.chara"]["test.snail"].relation, -3)
   Assert.eq(data["base.chara"]["test.beetle"]._type, "base.chara", "the call's type wins, as in OpenNefia")
   Assert.eq(Chara.create("test.snail", 1, 1).relation, Enum.Relation.Enemy)
   Assert.throws(function() data:add_multi("base.chara", { "snail" }) end, "entry 1 of the list is not a table")
   Assert.throws(function() data:add_multi({ _id = "x" }) end, "takes the data type first")
   Assert.throws(function() data:add_multi("base.chara", "x") end, "takes a list of prototypes' tables second")
end

function test_an_unknown_method_of_data_is_named_as_a_method()
   local err = Assert.throws(function() data:add_multiple("base.chara", {}) end, "data has no method 'add_multiple'")
   Assert.contains(err, "add_multi")
end

function test_relation_is_a_word_or_an_enum_relation()
   data:add { _type = "base.chara", _id = "friend", relation = Enum.Relation.Ally }
   data:add { _type = "base.chara", _id = "foe", relation = "hostile" }
   Assert.throws(function() data:add { _type = "base.chara", _id = "odd", relation = 5 } end, "relation")
   Assert.throws(function() data:add { _type = "base.chara", _id = "odd", relation = "friendly" } end, "relation")
end

function test_ids_must_be_bare()
   Assert.throws(function() data:add { _type = "base.item", _id = "elona.rock" } end, "must not contain '.'")
end

function test_functions_stay_in_the_prototype_table()
   data:add { _type = "base.item", _id = "wand", zap = function() return "zap" end, charges = 3 }
   local wand = Item.create("test.wand", 1, 1)
   Assert.eq(wand.charges, 3)
   Assert.is_nil(wand.zap, "functions are not base values")
   Assert.eq(wand.proto.zap(), "zap", "but the prototype has them")
end

function test_base_declares_the_engine_types()
   local types = {}
   for _, id in ipairs(data:types()) do types[id] = true end
   for _, id in ipairs { "base.chara", "base.item", "base.feat", "base.map_tile", "base.event" } do
      Assert.is_true(types[id], id)
   end
end

function test_ext_tables_keyed_by_interface_or_data_ext_id_stay_on_the_prototype()
   local IGlows = class.interface("IGlows", { brightness = "number" })
   local ISmokes = class.interface("ISmokes")
   data:add { _type = "base.data_ext", _id = "fuel", fields = { { name = "burns", default = 10 } } }
   data:add {
      _type = "base.item",
      _id = "lantern",
      _ext = { [IGlows] = { brightness = 3 }, ["test.fuel"] = { burns = 4 }, ISmokes },
   }
   local lantern = data["base.item"]["test.lantern"]
   Assert.eq(lantern._ext[IGlows].brightness, 3, "read back by the interface itself")
   Assert.same(lantern._ext[ISmokes], {}, "an interface listed alone gets an empty table")
   Assert.is_nil(lantern._ext[1])
   Assert.eq(data["base.item"]:ext("test.lantern", "test.fuel").burns, 4)
   local item = Item.create("test.lantern", 1, 1)
   Assert.eq(item.proto._ext[IGlows].brightness, 3, "an object reaches them through its prototype")
   Assert.is_nil(item._ext, "they are not base values")

   data:add { _type = "base.item", _id = "candle" }
   Assert.eq(data["base.item"]:ext("test.candle", "test.fuel").burns, 10, "the extension's default")
   Assert.is_nil(data["base.item"]:ext("test.candle", IGlows))
   Assert.eq(data["base.item"]:ensure("test.candle")._id, "test.candle")
   Assert.throws(function() data["base.item"]:ensure("test.nope") end, "No instance of 'base.item' with ID 'test.nope' was found.")

   Assert.throws(function() data:add { _type = "base.item", _id = "bad1", _ext = 5 } end, "_ext is a table keyed by interfaces")
   Assert.throws(
      function() data:add { _type = "base.item", _id = "bad2", _ext = { ["test.nothing"] = {} } } end,
      "No data extension (base.data_ext) with ID test.nothing was registered yet."
   )
   Assert.throws(function() data:add { _type = "base.item", _id = "bad3", _ext = { [IGlows] = 1 } } end, "is a table of the extension's fields")
   Assert.is_nil(data["base.item"]["test.bad2"], "a refused prototype is not added")
end
