-- OpenNefia's EquipSlots as a module (its test_EquipSlots_iter_all_body_parts__blocked, with
-- Nefia's slot names), blocked body parts on characters, and the slots' errors.

function test_slots_of_their_own_leave_blocked_parts_out()
   local equip = EquipSlots:new { "main_hand", "body" }

   Assert.eq(2, equip:iter_all_body_parts():length())
   Assert.eq(0, equip:iter_equipped_body_parts():length())

   local item = Item.create("elona.dagger", nil, nil, { ownerless = true })
   Assert.is_truthy(equip:equip(item))
   Assert.eq(equip.main_hand, item)

   Assert.eq(2, equip:iter_all_body_parts():length())
   Assert.eq(1, equip:iter_equipped_body_parts():length())

   equip:set_body_part_blocked("main_hand", true)

   Assert.eq(1, equip:iter_all_body_parts():length())
   Assert.eq(0, equip:iter_equipped_body_parts():length())

   item = Item.create("elona.leather_armor", nil, nil, { ownerless = true })
   Assert.is_truthy(equip:equip(item))

   Assert.eq(1, equip:iter_all_body_parts():length())
   Assert.eq(1, equip:iter_equipped_body_parts():length())

   equip:set_body_part_blocked("main_hand", false)

   Assert.eq(2, equip:iter_all_body_parts():length())
   Assert.eq(2, equip:iter_equipped_body_parts():length())
end

function test_equipping_into_a_blocked_slot_is_refused()
   local equip = EquipSlots:new { "main_hand", "off_hand" }
   equip:set_body_part_blocked("main_hand", true)
   local dagger = Item.create("elona.dagger", nil, nil, { ownerless = true })
   local done, why = equip:equip(dagger, "main_hand")
   Assert.is_nil(done)
   Assert.contains(why, "slot 'main_hand'")
   Assert.contains(why, "is blocked")
   Assert.eq(equip:find_free_slot(dagger), "off_hand", "a free slot skips the blocked one")
   Assert.is_truthy(equip:equip(dagger))
   Assert.eq(equip.off_hand, dagger)
   Assert.eq(equip:unequip(dagger), dagger)
   Assert.is_nil(dagger:get_location(), "unequipped, it is in no location, as in OpenNefia")
end

function test_a_characters_blocked_body_part_is_left_out_and_refused()
   local map = InstancedMap:new(4, 4)
   map:clear("elona.floor_stone")
   local putit = Chara.create("elona.putit", 1, 1, {}, map)
   local all = putit:iter_all_body_parts():length()
   local helmet = Item.create("elona.helmet", nil, nil, {}, putit)
   putit:set_body_part_blocked("head", true)
   Assert.eq(putit:iter_all_body_parts():length(), all - 1)
   Assert.eq(putit:iter_all_body_parts(true):length(), all, "also_blocked")
   Assert.is_true(putit.equip:is_body_part_blocked("head"))
   local done, why = putit:equip_item(helmet)
   Assert.is_nil(done)
   Assert.contains(why, "no free slot")
   Assert.is_nil(putit:equip_item(helmet, "head"))
   putit:set_body_part_blocked("head", false)
   Assert.eq(putit:equip_item(helmet), "head")
   Assert.eq(putit.equip.head, helmet)
   Assert.eq(putit:iter_equipped_body_parts():nth(1).equipped, helmet)
end

function test_opennefias_forced_equip_takes_the_item_from_anywhere()
   local map = InstancedMap:new(4, 4)
   map:clear("elona.floor_stone")
   local putit = Chara.create("elona.putit", 1, 1, {}, map)
   local helmet = Item.create("elona.helmet", 2, 2, {}, map)
   local done, why = putit:equip_item(helmet)
   Assert.is_nil(done)
   Assert.contains(why, "does not hold")
   Assert.eq(putit:equip_item(helmet, true), "head", "force: OpenNefia's equip_item(item, force)")
   Assert.is_true(helmet:is_equipped())
end

function test_slots_of_their_own_are_saved_and_checked()
   local equip = EquipSlots:new({ "neck" }, Chara.create("elona.putit", nil, nil, { ownerless = true }))
   Assert.is_truthy(equip.holder.owner_uid)
   Assert.throws(function() EquipSlots:new { "hand", "hand" } end, "slot \"hand\" is listed twice")
   Assert.throws(function() EquipSlots:new { 3 } end, "body_parts[1]: a slot is named by a string")
   Assert.throws(function() EquipSlots:new("hand") end, "body_parts is a list of slot names")
   Assert.throws(function() equip:equip("dagger") end, "equip: expected an item object")
   equip:add_body_part("ring")
   Assert.same(equip:slots(), { "neck", "ring" })
   Assert.is_true(equip:remove_body_part("ring"))
   Assert.is_false(equip:remove_body_part("ring"))
   local uid = equip.holder.uid
   Save.save_game("slots")
   Save.load_game("slots")
   Assert.same(World.object(uid).equip:slots(), { "neck" })
end
