-- OpenNefia's Inventory:new: an inventory of its own that an object's field keeps (a
-- shopkeeper's stock), made in, handed to a container and saved with its owner.

local function shop()
   local map = InstancedMap:new(10, 10)
   map:clear("elona.floor_stone")
   local shopkeeper = Chara.create("elona.putit", 1, 2, {}, map)
   shopkeeper.shop_inventory = Inventory:new(nil, "base.item", shopkeeper)
   return map, shopkeeper
end

-- OpenNefia's test_transfer_between_two_nested_inventories.
function test_a_shopkeepers_stock_hands_its_items_to_a_container()
   local map, shopkeeper = shop()
   Item.create("elona.putitoro", nil, nil, {}, shopkeeper.shop_inventory)
   Item.create("elona.dagger", nil, nil, {}, shopkeeper.shop_inventory)
   Assert.eq(shopkeeper.shop_inventory:len(), 2)
   Assert.eq(shopkeeper.shop_inventory, shopkeeper.shop_inventory, "the field gives the same handle each time")

   local trunk = Item.create("elona.bag", 3, 4, {}, map)
   Assert.eq(true, trunk:is_item_container())
   for _, item in shopkeeper.shop_inventory:iter() do
      Assert.is_truthy(trunk:can_take_object(item))
      Assert.is_truthy(trunk:take_object(item))
   end
   for _, item in trunk:iter() do
      Assert.eq(trunk, item:get_location())
   end
   Assert.eq(shopkeeper.shop_inventory:len(), 0)
end

function test_an_inventory_has_opennefias_capacity_methods_and_its_owner()
   local _, shopkeeper = shop()
   local stock = shopkeeper.shop_inventory
   Assert.eq(stock:get_max_capacity(), 200)
   local small = Inventory:new(1)
   Assert.is_false(small:is_full())
   local potion = Item.create("elona.potion_of_sight", nil, nil, {}, small)
   Assert.is_true(small:is_full())
   Assert.eq(small:free_slots(), 0)
   Assert.is_true(small:contains(potion))
   Assert.is_nil(Item.create("elona.dagger", nil, nil, {}, small), "a full inventory takes no more")
   local dagger = Item.create("elona.dagger", nil, nil, {}, stock)
   Assert.eq(dagger:get_owning_chara(), shopkeeper, "the stock's owner owns what it holds")
   Assert.is_nil(potion:get_owning_chara())
   small:set_owner(shopkeeper)
   Assert.eq(potion:get_owning_chara(), shopkeeper)
   Assert.eq(Inventory:new(math.huge):get_max_capacity(), math.maxinteger)
end

function test_an_inventorys_arguments_are_checked()
   Assert.throws(function() Inventory:new(2.5) end, "max_size is a whole number")
   Assert.throws(function() Inventory:new("ten") end, "max_size is a whole number")
   Assert.throws(function() Inventory:new(nil, "base.chara") end, "an inventory holds items")
   Assert.throws(function() Inventory:new(nil, nil, "shopkeeper") end, "the owner is a map object")
   Assert.throws(function() Map.current().x = { inner = Inventory:new() } end, "elsewhere store its uid")
   Assert.throws(function()
      save.test.bad = { ["$object"] = 3 }
      Save.save_game("bad")
   end, "it is how saves write an object reference")
end

function test_the_stock_is_saved_with_its_owner()
   local _, shopkeeper = shop()
   Item.create("elona.dagger", nil, nil, {}, shopkeeper.shop_inventory)
   local uid = shopkeeper.uid
   Save.save_game("stock")
   shopkeeper.shop_inventory = nil
   Save.load_game("stock")
   local loaded = World.object(uid)
   Assert.eq(loaded.shop_inventory:len(), 1)
   Assert.eq(loaded.shop_inventory:iter():nth(1)._id, "elona.dagger")
end
