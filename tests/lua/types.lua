-- OpenNefia's `types` checkers, and the typed fields data types declare with them.

local function refused(value, checker)
   local ok, problem = types.check(value, checker)
   Assert.eq(ok, false, "refused")
   return problem
end

function test_checkers_answer_with_opennefias_messages()
   Assert.eq(types.check(3, types.uint), true)
   Assert.eq(refused(-1, types.uint), 'Value is not of type "int >= 0": -1')
   Assert.eq(refused(1.5, types.int), 'Value is not of type "int": 1.5')
   Assert.eq(refused("lots", types.number), 'Value is not of type "number": "lots"')
   Assert.eq(types.check(nil, types.optional(types.string)), true)
   Assert.eq(refused(4, types.optional(types.string)),
      'Value is not of type "optional<string>"(Value is not of type "string"): 4')
   Assert.eq(refused(300, types.range(types.int, 0, 255)), 'Value is not of type "int in [0, 255]": 300')
   Assert.eq(refused("up", types.literal("hostile", "ally")), 'Value is not of type "literal<hostile, ally>": "up"')
   Assert.eq(types.check("elona.putit", types.data_id("base.chara")), true)
   Assert.eq(refused("putit", types.data_id("base.chara")), 'Value is not of type "data_id<base.chara>": "putit"')
end

function test_table_checkers_name_the_key_that_is_wrong()
   Assert.eq(types.check({ 1, 2, 3 }, types.list(types.int)), true)
   Assert.eq(refused({ 1, "two" }, types.list(types.int)), 'Value is not of type "int": 2 ("two")')
   Assert.eq(refused({ a = 1 }, types.list(types.int)):match("^Value is not of type \"table with integer keys"), 
      "Value is not of type \"table with integer keys")
   Assert.eq(types.check({ 255, 0, 0 }, types.color), true)
   Assert.eq(refused({ 255, 0, 999 }, types.color):match("int in %[0, 255%]"), "int in [0, 255]")
   local point = types.fields_strict { x = types.int, y = types.int, label = types.optional(types.string) }
   Assert.eq(types.check({ x = 1, y = 2 }, point), true)
   Assert.eq(refused({ x = 1, y = 2, z = 3 }, point), 'Table has superfluous key: "z": { x = 1, y = 2, z = 3 }')
   Assert.eq(refused({ x = 1 }, point), "Table is missing required field 'y' of type 'int': { x = 1 }")
   Assert.eq(types.check({ a = true }, types.map(types.string, types.boolean)), true)
   Assert.eq(types.check(4, types.some(types.string, types.int)), true)
   Assert.eq(refused(true, types.some(types.string, types.int)), 'Value is not of type "some<string, int>": true')
end

function test_wrapped_checkers_answer_as_check_does_and_the_verbose_path_names_each_step()
   local is_uint = types.wrap(types.uint)
   Assert.eq(is_uint(3), true)
   Assert.eq(select(2, is_uint(-1)), 'Value is not of type "int >= 0": -1')
   Assert.throws(function() types.wrap_strict(types.uint)(-1) end, 'Value is not of type "int >= 0": -1')
   local nested = types.fields { stats = types.list(types.int) }
   local _, verbose = types.check({ stats = { 1, "two" } }, nested, true)
   Assert.eq(verbose, 'Value is not of type "int": { stats = {...} }["stats"] -> { 1, "two" }[2] -> "two"')
end

function test_the_library_is_reached_as_opennefias_mods_reach_it()
   Assert.eq(require("util.types"), types)
   Assert.eq(require("api.types"), types)
   Assert.eq(types.is_type_checker(types.int), true)
   Assert.eq(tostring(types.uint), "int >= 0")
   Assert.eq(types.is_type_checker({ check = function() return true end }), false)
   Assert.throws(function() types.list(42) end, "is not a type checker")
end

function test_a_data_type_declares_typed_fields_and_a_prototype_is_checked_against_them()
   data:add_type {
      name = "spell",
      fields = {
         { name = "cost", type = types.uint, default = 5, doc = "Mana." },
         { name = "school", type = types.literal("fire", "ice"), default = "fire" },
         { name = "summons", type = types.optional(types.data_id("base.chara")) },
      },
   }
   data:add { _type = "test.spell", _id = "fireball", cost = 12 }
   Assert.eq(data["test.spell"]["test.fireball"].cost, 12)
   Assert.throws(function() data:add { _type = "test.spell", _id = "bad", cost = -3 } end,
      "Validation for data entry 'test.spell:test.bad' failed: Value is not of type \"int >= 0\": \"cost\" (-3)")
   Assert.throws(function() data:add { _type = "test.spell", _id = "bad2", school = "earth" } end,
      "\"school\" (\"earth\")")
   Assert.throws(function()
      data:add_type { name = "rune", fields = { { name = "power", type = types.uint, default = -1 } } }
   end, "Data type test.rune: invalid default value for field 'power'")
   Assert.throws(function()
      data:add_type { name = "rune", fields = { { name = "power", type = "uint" } } }
   end, "Data type test.rune: invalid type specified for field named 'power'")
end

function test_the_engines_data_types_refuse_a_prototype_of_the_wrong_type()
   Assert.throws(function() data:add { _type = "base.chara", _id = "broken", max_hp = "lots" } end,
      "Validation for data entry 'base.chara:test.broken' failed: Value is not of type \"int >= 0\"(Value is not of type \"int\"): \"max_hp\" (\"lots\")")
   Assert.throws(function() data:add { _type = "base.item", _id = "broken", is_container = "yes" } end,
      "\"is_container\" (\"yes\")")
   -- A mod's own fields stay its own (the engine's types are permissive).
   data:add { _type = "base.chara", _id = "custom", favourite_food = "putitoro" }
end

function test_a_strict_data_type_refuses_fields_it_does_not_declare()
   data:add_type { name = "sigil", validation = "strict", fields = { { name = "power", type = types.int, default = 1 } } }
   data:add { _type = "test.sigil", _id = "good", power = 3 }
   Assert.throws(function() data:add { _type = "test.sigil", _id = "bad", powre = 3 } end,
      'Table has superfluous key: "powre"')
end
