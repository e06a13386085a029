-- Carrying: inventories, equipment and containers as OpenNefia's code asks about them, and
-- prototypes that make their own location rules.

local function putit_with_armor()
   local map = InstancedMap:new(6, 6)
   map:clear("elona.floor_stone")
   local putit = Chara.create("elona.putit", 2, 2, {}, map)
   local armor = Item.create("elona.leather_armor", nil, nil, {}, putit)
   local dagger = Item.create("elona.dagger", nil, nil, {}, putit)
   return map, putit, armor, dagger
end

function test_inventory_and_equipment_are_told_apart()
   local _, putit, armor, dagger = putit_with_armor()
   Assert.eq(putit:iter_inventory():length(), 2)
   Assert.eq(putit:iter_equipment():length(), 0)
   Assert.is_false(armor:is_equipped())
   Assert.eq(putit:equip_item(armor), "body")
   Assert.is_true(armor:is_equipped())
   Assert.is_true(putit:has_item_equipped(armor))
   Assert.is_false(putit:has_item_equipped(dagger))
   Assert.is_true(putit:has_item(armor), "worn things are had too")
   Assert.is_true(putit:has_item(dagger))
   Assert.same(putit:iter_equipment():extract("_id"):to_list(), { "elona.leather_armor" })
   Assert.eq(putit:find_item("elona.dagger"), dagger)
   Assert.is_nil(putit:find_item("elona.helmet"))
end

function test_every_body_part_is_listed_worn_or_not()
   local _, putit, armor = putit_with_armor()
   putit:equip_item(armor)
   local parts = putit:iter_all_body_parts():to_list()
   Assert.eq(#parts, #putit.equip_slots)
   local body = putit:iter_all_body_parts():filter(function(p) return p.type == "body" end):nth(1)
   Assert.eq(body.equipped, armor)
   local head = putit:iter_all_body_parts():filter(function(p) return p.type == "head" end):nth(1)
   Assert.is_nil(head.equipped)
end

function test_a_container_item_is_a_location()
   local map, putit, armor = putit_with_armor()
   local bag = Item.create("elona.bag", 1, 1, {}, map)
   Assert.is_true(bag:is_item_container())
   Assert.is_false(armor:is_item_container())
   Assert.is_false(bag:is_positional())
   Assert.is_true(map:is_positional())
   Assert.is_truthy(bag:take_object(armor))
   Assert.is_true(bag:has_object(armor))
   Assert.is_false(putit:has_object(armor))
   Assert.eq(bag:iter():length(), 1)
   Assert.throws(function() putit:is_item_container() end, "is for base.item objects, not a base.chara")
end

function test_a_prototype_makes_its_own_location_rules_and_reaches_the_engines()
   data:add {
      _type = "base.item",
      _id = "coin_purse",
      is_container = true,
      can_take_object = function(self, obj, x, y)
         if obj._id ~= "elona.gold_piece" then
            return false, "only gold goes in a coin purse"
         end
         return ILocation.can_take_object(self, obj, x, y)
      end,
      take_object = function(self, obj, x, y)
         local ok, reason = self:can_take_object(obj, x, y)
         if not ok then
            return nil, reason
         end
         obj.taken_by_purse = true
         return ILocation.take_object(self, obj, x, y)
      end,
   }
   local map = InstancedMap:new(4, 4)
   local purse = Item.create("test.coin_purse", 1, 1, {}, map)
   local dagger = Item.create("elona.dagger", 2, 2, {}, map)
   local gold = Item.create("elona.gold_piece", 2, 2, {}, map)
   local ok, reason = purse:can_take_object(dagger)
   Assert.is_false(ok)
   Assert.eq(reason, "only gold goes in a coin purse")
   Assert.is_nil((purse:take_object(dagger)))
   Assert.eq(dagger:get_location(), map)
   Assert.eq(purse:take_object(gold), gold)
   Assert.is_true(gold.taken_by_purse)
   Assert.eq(gold:get_location(), purse)
end

function test_a_game_wide_inventory_is_made_once_holds_items_and_is_saved()
   local freezer = Inventory.get_or_create("test.freezer")
   Assert.eq(Inventory.get_or_create("test.freezer"), freezer, "the same one each time")
   Assert.ne(Inventory.get_or_create("test.pocket"), freezer)
   local putitoro = Item.create("elona.putitoro", nil, nil, { ownerless = true })
   Assert.is_truthy(freezer:take_object(putitoro))
   Assert.is_true(freezer:has_object(putitoro))
   Assert.eq(freezer:iter():length(), 1)
   Save.save_game("inventories")
   Save.load_game("inventories")
   local again = Inventory.get_or_create("test.freezer")
   Assert.eq(again:iter():nth(1)._id, "elona.putitoro", "saved with the game")
   Assert.eq(require("api.Inventory"), Inventory)
   Assert.throws(function() Inventory.get_or_create(3) end, "the id is a string")
end

function test_take_item_moves_a_stack_or_part_of_it_into_the_inventory()
   local map, putit = putit_with_armor()
   local potions = Item.create("elona.putitoro", 3, 3, { amount = 5 }, map)
   local two = putit:take_item(potions, 2)
   Assert.eq(two.amount, 2, "OpenNefia's take_item returns what was taken")
   Assert.eq(two:get_location(), putit)
   Assert.eq(potions.amount, 3, "the rest stays on the ground")
   Assert.eq(potions:get_location(), map)
   local rest = putit:take_item(potions)
   Assert.eq(rest.amount + two.amount, 5, "nil takes the whole stack")
   Assert.throws(function() putit:take_item("elona.putitoro") end, "the item to take is an item object")
end

function test_the_owning_chara_is_found_through_containers_and_equipment()
   local map, putit, armor, dagger = putit_with_armor()
   Assert.eq(dagger:get_owning_chara(), putit, "in the inventory")
   putit:equip_item(armor)
   Assert.eq(armor:get_owning_chara(), putit, "worn")
   local bag = Item.create("elona.bag", nil, nil, {}, putit)
   local pouch = Item.create("elona.bag", nil, nil, {}, bag)
   pouch:take_object(dagger)
   Assert.eq(dagger:get_owning_chara(), putit, "in a bag in a bag")
   map:take_object(bag, 4, 4)
   Assert.is_nil(dagger:get_owning_chara(), "the bag lies on the ground")
   Assert.is_nil(Item.create("elona.dagger", 1, 1, { ownerless = true }):get_owning_chara())
end

function test_cloning_a_worn_item_with_owned_puts_the_copy_in_the_wearers_inventory()
   local _, putit, armor = putit_with_armor()
   putit:equip_item(armor)
   local copy = armor:clone(true)
   Assert.eq(copy:get_location(), putit)
   Assert.is_false(copy:is_equipped(), "the copy is carried, the original stays worn")
   Assert.is_true(armor:is_equipped())
end

function test_compare_events_names_the_first_handler_one_object_lacks()
   local a = Chara.create("elona.putit", 1, 1)
   local b = Chara.create("elona.putit", 2, 1)
   Assert.is_true(a:compare_events(b))
   b:connect_self("base.on_damage", "glow", function() end)
   local same, id, name = a:compare_events(b)
   Assert.is_false(same)
   Assert.eq(id, "base.on_damage")
   Assert.eq(name, "glow")
   a:connect_self("base.on_damage", "glow", function() end)
   Assert.is_true(a:compare_events(b), "handlers are compared by event and name")
end
