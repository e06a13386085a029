-- Invariants as data (base.invariant): the engine's and the demo's hold in a fresh game, a
-- broken one is named with its message, and one that raises fails with its error.

function test_the_invariants_hold_and_a_broken_one_is_named_with_its_object()
   Assert.same(World.check_invariants(), {})
   local putit = Chara.create("elona.putit", 1, 1)
   putit.hp = putit:calc("max_hp") + 5
   local failed = World.check_invariants()
   Assert.eq(#failed, 1)
   Assert.eq(failed[1].id, "elona.hp_within_max")
   Assert.contains(failed[1].message, "above its max_hp")
   Assert.contains(failed[1].message, "putit")
end

function test_an_invariant_that_raises_fails_with_its_error()
   data:add { _type = "base.invariant", _id = "broken", check = function() error("the check itself broke") end }
   data:add { _type = "base.invariant", _id = "silent", check = function() return false end }
   local failed = World.check_invariants()
   Assert.eq(#failed, 2)
   Assert.eq(failed[1].id, "test.broken")
   Assert.contains(failed[1].message, "the check itself broke")
   Assert.same(failed[2], { id = "test.silent", message = "it does not hold" })
   local ok, why = World.check_bookkeeping()
   Assert.is_true(ok)
   Assert.is_nil(why)
end

function test_an_invariant_of_each_object_names_the_object_that_breaks_it()
   local checked = {}
   data:add {
      _type = "base.invariant",
      _id = "small_stacks",
      each = "base.item",
      fields = { "amount" },
      check = function(item)
         checked[#checked + 1] = item.uid
         return item.amount < 99, ("%d is too many"):format(item.amount)
      end,
   }
   local small = Item.create("elona.dagger", 2, 2)
   local big = Item.create("elona.gold_piece", 3, 3, { amount = 120 })
   local failed = World.check_invariants()
   Assert.eq(#failed, 1)
   Assert.eq(failed[1].id, "test.small_stacks")
   Assert.eq(failed[1].message, ("uid %d (elona.gold_piece): 120 is too many"):format(big.uid))
   Assert.same(checked, { small.uid, big.uid }, "each item once, in uid order, up to the one that breaks it")
end

function test_a_misdeclared_invariant_of_each_object_says_what_to_give_instead()
   local function holds()
      return true
   end
   data:add { _type = "base.invariant", _id = "each_potato", each = "base.potato", check = holds }
   -- Fields of the wrong type are refused by base.invariant's declared types as they are added.
   Assert.throws(function()
      data:add { _type = "base.invariant", _id = "fields_string", each = "base.chara", fields = "hp", check = holds }
   end, "failed: Value is not of type \"optional<list<string>>\"")
   Assert.throws(function()
      data:add { _type = "base.invariant", _id = "fields_numbers", each = "base.chara", fields = { 1 }, check = holds }
   end, '(Value is not of type "string"): 1 (1)')
   local failed = World.check_invariants()
   Assert.eq(#failed, 1)
   Assert.eq(failed[1].id, "test.each_potato")
   Assert.contains(failed[1].message, '"base.potato", not a data type of map objects (base.feat, base.mef, base.item, base.chara)')
end
