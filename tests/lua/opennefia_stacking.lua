-- OpenNefia's own engine tests of stacks (src/test/api/IStackableObject.lua), ported with the
-- same steps and checks through TestUtil. Nefia's content stands in where it lacks
-- OpenNefia's: elona.floor_stone for elona.cobble, elona.potion_of_sight for elona.apple.
-- (test_IStackableObject_stack__aspect is not ported: Nefia has no aspects.)

local function floor_map()
   local map = InstancedMap:new(10, 10)
   map:clear("elona.floor_stone")
   return map
end

function test_IStackableObject_separate__single()
   local item = TestUtil.stripped_item("elona.putitoro")
   Assert.eq(item.amount, 1)
   local sep = item:separate()
   Assert.eq(sep.amount, 1)
   Assert.eq(item.amount, 1)
   Assert.eq(sep, item)
end

function test_IStackableObject_separate__multiple()
   local item = TestUtil.stripped_item("elona.putitoro", nil, nil, nil, 5)
   Assert.eq(item.amount, 5)
   local sep = item:separate()
   Assert.eq(sep.amount, 1)
   Assert.eq(item.amount, 4)
   Assert.ne(sep, item)
   Assert.ne(sep.uid, item.uid)
   Assert.eq(sep:get_location(), item:get_location())
end

function test_IStackableObject_separate__amount()
   local item = TestUtil.stripped_item("elona.putitoro", nil, nil, nil, 5)
   Assert.eq(item.amount, 5)
   local sep = item:separate(3)
   Assert.eq(sep.amount, 3)
   Assert.eq(item.amount, 2)
   Assert.ne(sep, item)
   Assert.ne(sep.uid, item.uid)
   Assert.eq(sep:get_location(), item:get_location())
end

function test_IStackableObject_separate__amount_exceeding()
   local item = TestUtil.stripped_item("elona.putitoro", nil, nil, nil, 5)
   Assert.eq(item.amount, 5)
   local sep = item:separate(10)
   Assert.eq(sep.amount, 5)
   Assert.eq(item.amount, 5)
   Assert.eq(sep, item)
end

function test_IStackableObject_separate__same_location()
   local map = floor_map()
   local item = TestUtil.stripped_item("elona.putitoro", map, 1, 1, 5)
   Assert.eq(item.amount, 5)
   Assert.eq(item:get_location(), map)
   local sep = item:separate()
   Assert.eq(sep:get_location(), map)
   Assert.eq(sep.location, item.location)
   Assert.eq(sep:get_location(), item:get_location())
end

function test_IStackableObject_separate__events()
   floor_map()
   local item = TestUtil.stripped_item("elona.putitoro", nil, nil, nil, 5)
   local sep = item:separate()
   local result, id, name = item:compare_events(sep)
   Assert.eq(result, true, ("%s:%s"):format(id, name))
end

function test_IStackableObject_can_stack_with__nonobject()
   local item = TestUtil.stripped_item("elona.putitoro", nil, nil, nil, 5)
   Assert.eq(item:can_stack_with(1), false)
   Assert.eq(item:can_stack_with({}), false)
   Assert.eq(item:can_stack_with(function() end), false)
end

function test_IStackableObject_can_stack_with__self()
   local item = TestUtil.stripped_item("elona.putitoro", nil, nil, nil, 5)
   Assert.eq(item:can_stack_with(item), false)
end

function test_IStackableObject_can_stack_with__different_object_type()
   local item = TestUtil.stripped_item("elona.putitoro", nil, nil, nil, 5)
   local chara = Chara.create("elona.putit", nil, nil, { ownerless = true })
   Assert.eq(item:can_stack_with(chara), false)
end

function test_IStackableObject_can_stack_with__no_location()
   local map = floor_map()
   local item_ownerless = TestUtil.stripped_item("elona.putitoro", nil, nil, nil, 5)
   local item_map = TestUtil.stripped_item("elona.putitoro", map, 1, 1, 5)
   Assert.eq(item_ownerless:can_stack_with(item_map), false)
   Assert.eq(item_map:can_stack_with(item_ownerless), false)
end

function test_IStackableObject_can_stack_with__different_location()
   local map = floor_map()
   local item_ownerless = TestUtil.stripped_item("elona.putitoro", nil, nil, nil, 5)
   local chara = Chara.create("elona.putit", 1, 1, {}, map)
   local item_chara = TestUtil.stripped_item("elona.putitoro", chara, nil, nil, 5)
   Assert.eq(item_ownerless:can_stack_with(item_chara), false)
   Assert.eq(item_chara:can_stack_with(item_ownerless), false)
end

function test_IStackableObject_can_stack_with__different_id()
   local item_a = TestUtil.stripped_item("elona.putitoro")
   local item_b = TestUtil.stripped_item("elona.potion_of_sight")
   Assert.eq(item_a:can_stack_with(item_b), false)
   Assert.eq(item_b:can_stack_with(item_b), false)
end

function test_IStackableObject_can_stack_with__separated()
   local item = TestUtil.stripped_item("elona.putitoro", nil, nil, nil, 5)
   local sep = item:separate(2)
   Assert.eq(item:can_stack_with(sep), true)
   Assert.eq(sep:can_stack_with(item), true)
end

function test_IStackableObject_can_stack_with__separated_in_map()
   local map = floor_map()
   local item = TestUtil.stripped_item("elona.putitoro", map, 1, 1, 5)
   local sep = item:separate(2)
   Assert.eq(item:can_stack_with(sep), true)
   Assert.eq(sep:can_stack_with(item), true)
end

function test_IStackableObject_stack()
   local map = floor_map()
   local item_a = TestUtil.stripped_item("elona.putitoro", map, 1, 1)
   local item_b = TestUtil.stripped_item("elona.putitoro", map, 1, 2)
   local item_c = TestUtil.stripped_item("elona.potion_of_sight", map, 1, 3)
   item_b:set_pos(1, 1)
   item_c:set_pos(1, 1)
   Assert.same({ item_a.amount, item_b.amount, item_c.amount }, { 1, 1, 1 })
   item_b:stack()
   Assert.same({ item_a.amount, item_b.amount, item_c.amount }, { 0, 2, 1 })
   item_a:stack()
   Assert.same({ item_a.amount, item_b.amount, item_c.amount }, { 0, 2, 1 })
end

function test_IStackableObject_stack__chara()
   local chara = TestUtil.stripped_chara("elona.putit")
   local item_a = TestUtil.stripped_item("elona.putitoro", chara)
   local item_b = TestUtil.stripped_item("elona.putitoro", chara)
   local item_c = TestUtil.stripped_item("elona.potion_of_sight", chara)
   item_b:stack()
   Assert.same({ item_a.amount, item_b.amount, item_c.amount }, { 0, 2, 1 })
end
