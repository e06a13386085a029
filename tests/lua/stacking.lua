-- Item stacking (OpenNefia's IStackableObject): amount, separate, can_stack_with, stack,
-- move_some, and clone(owned).

local function item(where, x, y, amount)
   local made
   if where == nil then
      made = Item.create("elona.putitoro", nil, nil, { ownerless = true })
   else
      -- Apart, so each test stacks them itself (a new item joins a like stack otherwise).
      made = Item.create("elona.putitoro", x, y, { no_stack = true }, where)
   end
   made.amount = amount or 1
   return made
end

local function map()
   local m = InstancedMap:new(10, 10)
   m:clear("elona.floor_stone")
   return m
end

function test_an_item_is_one_unless_told_and_separating_a_single_gives_itself()
   local one = item()
   Assert.eq(one.amount, 1)
   Assert.eq(one:separate(), one)
   Assert.eq(one.amount, 1)
   Assert.is_nil(one:separate(0), "nothing separated")
end

function test_separate_splits_a_stack_into_the_same_location()
   local m = map()
   local five = item(m, 1, 1, 5)
   local three = five:separate(3)
   Assert.eq(three.amount, 3)
   Assert.eq(five.amount, 2)
   Assert.ne(three.uid, five.uid)
   Assert.eq(three:get_location(), m)
   Assert.eq(three.x, 1)
   Assert.eq(five:separate(10), five, "all of it is the stack itself")
   Assert.eq(five.amount, 2)
   local loose = five:separate(1, false)
   Assert.is_nil(loose:get_location(), "owned = false leaves it ownerless")
end

function test_can_stack_with_needs_one_prototype_one_location_and_equal_own_values()
   local m = map()
   local putit = Chara.create("elona.putit", 2, 2, {}, m)
   local a, b = item(m, 1, 1, 5), item(m, 1, 1, 2)
   Assert.is_true(a:can_stack_with(b))
   Assert.is_false(a:can_stack_with(a), "not with itself")
   Assert.is_false(a:can_stack_with(putit), "not with a character")
   Assert.is_false(a:can_stack_with(1))
   Assert.is_false(a:can_stack_with({}))
   Assert.is_false(a:can_stack_with(item(nil, nil, nil, 5)), "not across locations")
   local carried = item(putit, nil, nil, 5)
   Assert.is_false(carried:can_stack_with(a))
   Assert.is_false(a:can_stack_with(Item.create("elona.dagger", 1, 1, {}, m)), "not across prototypes")
   b.value = 999
   Assert.is_false(a:can_stack_with(b), "an own value differs")
   b.value = a.value
   b:mod("value", 5, "add")
   Assert.is_true(a:can_stack_with(b), "temp values do not count")
   b:connect_self("base.on_damage", "Cursed", function() end)
   Assert.is_false(a:can_stack_with(b), "its own handlers differ")
end

function test_a_mod_adds_to_the_comparison_with_an_event()
   local m = map()
   local a, b = item(m, 1, 1), item(m, 1, 1)
   Event.register("base.on_item_can_stack_with", "never on Tuesdays", function(_, params)
      if params.other.uid == b.uid then
         return false
      end
   end)
   Assert.is_false(a:can_stack_with(b))
   Assert.is_true(a:can_stack_with(item(m, 1, 1)))
end

function test_stack_merges_the_items_of_one_cell_or_one_inventory()
   local m = map()
   local a, b = item(m, 1, 1), item(m, 1, 2)
   local dagger = Item.create("elona.dagger", 1, 3, {}, m)
   b:set_pos(1, 1)
   dagger:set_pos(1, 1)
   local far = item(m, 5, 5)
   Assert.is_true(b:stack())
   Assert.eq(a.amount, 0)
   Assert.is_nil(a:get_location(), "the merged one is taken out")
   Assert.eq(b.amount, 2)
   Assert.eq(far.amount, 1, "another cell is another stack")
   Assert.eq(dagger.amount, 1)
   Assert.is_false(b:stack(), "nothing more to merge")

   local putit = Chara.create("elona.putit", 2, 2, {}, m)
   local x, y = item(putit), item(putit, nil, nil, 3)
   Assert.is_true(y:stack())
   Assert.eq(y.amount, 4)
   Assert.eq(putit:iter():length(), 1)
end

function test_move_some_moves_part_of_a_stack_and_clone_owned_stays_put()
   local m = map()
   local putit = Chara.create("elona.putit", 2, 2, {}, m)
   local five = item(m, 1, 1, 5)
   local two = five:move_some(2, putit)
   Assert.eq(two.amount, 2)
   Assert.eq(two:get_location(), putit)
   Assert.eq(five.amount, 3)
   local copy = putit:clone(true)
   Assert.eq(copy:get_location(), m)
   Assert.eq(copy.x, 2)
   Assert.is_nil(putit:clone():get_location())
   Assert.eq(MapObject.clone(five, true):get_location(), m)
   Assert.throws(function() putit:separate() end, "separate is for items, not a base.chara")
end
