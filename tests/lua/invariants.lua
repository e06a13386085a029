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
