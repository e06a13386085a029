-- Carrying: what characters hold and wear, containers, and game-wide inventories (see
-- items.rs). Runs once, given the object methods table, the chain constructor the engine's
-- iterators use, and the API table.
local methods, chain, api = ...

local function only(self, data_type, method)
   if self._type ~= data_type then
      error(("%s is for %s objects, not a %s"):format(method, data_type, self._type), 3)
   end
end

function methods.is_item_container(self)
   only(self, "base.item", "is_item_container")
   return not not self:calc("is_container")
end

function methods.iter_inventory(self)
   return self:iter()
end

function methods.iter_equipment(self)
   only(self, "base.chara", "iter_equipment")
   local worn = {}
   for _, item in self.equip:iter() do
      worn[#worn + 1] = item
   end
   return chain(worn)
end

function methods.has_item_equipped(self, item)
   only(self, "base.chara", "has_item_equipped")
   for _, worn in self.equip:iter() do
      if worn == item then
         return true
      end
   end
   return false
end

-- OpenNefia's `take_item`: `amount` of `item` (all of it if nil) into the inventory, as
-- `move_some` does; the item taken, or nil.
function methods.take_item(self, item, amount)
   only(self, "base.chara", "take_item")
   if not api.MapObject.is_map_object(item) or item._type ~= "base.item" then
      error(("take_item: the item to take is an item object, not %s"):format(tostring(item)), 2)
   end
   return item:move_some(amount, self)
end

-- The character carrying or wearing the item, through any containers and inventories that
-- have an owner (Inventory:new's); nil if none does.
function methods.get_owning_chara(self)
   only(self, "base.item", "get_owning_chara")
   local holder = self:get_location()
   while api.MapObject.is_map_object(holder) do
      if holder._type == "base.chara" then
         return holder
      end
      local owner = holder.owner_uid and api.World.object(holder.owner_uid)
      holder = owner or holder:get_location()
   end
   return nil
end

-- OpenNefia's Inventory methods, for anything that holds items (characters, containers and
-- the inventories of Inventory:new).
local function holds_items(self, method)
   if not self:is_item_container() and self._type ~= "base.chara" then
      error(("%s is for characters and containers, not %s"):format(method, tostring(self)), 3)
   end
end

-- How many items (stacks) it holds.
function methods.len(self)
   holds_items(self, "len")
   return self:iter():length()
end

function methods.get_max_capacity(self)
   holds_items(self, "get_max_capacity")
   return self:calc("inventory_capacity")
end

function methods.free_slots(self)
   return self:get_max_capacity() - self:len()
end

function methods.is_full(self)
   return self:free_slots() <= 0
end

function methods.contains(self, item)
   holds_items(self, "contains")
   return self:has_object(item)
end

-- The object that owns an inventory of Inventory:new (or any holder of items).
function methods.set_owner(self, owner)
   if not api.MapObject.is_map_object(owner) then
      error(("set_owner: the owner is a map object, not %s"):format(tostring(owner)), 2)
   end
   self.owner_uid = owner.uid
end

function methods.has_item(self, item)
   return self:has_object(item)
end

function methods.find_item(self, id)
   return self:iter_inventory():filter(function(i) return i._id == id and i.amount > 0 end):nth(1)
end

function methods.is_equipped(self)
   only(self, "base.item", "is_equipped")
   local wearer = self:get_location()
   return wearer ~= nil and wearer._type == "base.chara" and wearer:has_item_equipped(self)
end

-- Game-wide inventories and slots of their own (EquipSlots:new) live on a one-cell map of
-- their own, found by its field.
local function inventories_map()
   for _, map in api.Map.iter() do
      if map.holds_inventories then
         return map
      end
   end
   local map = api.InstancedMap:new(1, 1)
   map.name = "inventories"
   map.holds_inventories = true
   return map
end

-- A new object of item prototype `id` kept with the game (saved, never swept), as the
-- holders of game-wide inventories and of slots of their own are.
local function keep(id)
   return api.Item.create(id, 0, 0, { no_stack = true }, inventories_map())
end

api.Inventory = {
   -- The game-wide inventory `id` (made empty the first time it is asked for).
   get_or_create = function(id)
      if type(id) ~= "string" then
         error(("Inventory.get_or_create: the id is a string such as \"my_mod.freezer\", not a %s"):format(type(id)), 2)
      end
      local map = inventories_map()
      for _, inventory in map:iter() do
         if inventory.inventory_id == id then
            return inventory
         end
      end
      local inventory = api.Item.create("base.inventory", 0, 0, { no_stack = true }, map)
      inventory.inventory_id = id
      return inventory
   end,
}

-- OpenNefia's `Inventory:new([max_size[, type[, owner]]])`: an inventory of its own, kept
-- with the game (saved, stepped back), that an object's field may hold (a shopkeeper's
-- stock: `chara.shop_inventory = Inventory:new(nil, "base.item", chara)`), items may be made
-- in or moved to, and a container may take items from. It holds `max_size` stacks (200 if
-- nil; `math.huge` for no limit).
function api.Inventory.new(_, max_size, type_id, owner)
   local capacity = 200
   if max_size == math.huge then
      capacity = math.maxinteger
   elseif max_size ~= nil then
      local whole = math.type(max_size) ~= nil and math.tointeger(max_size)
      if not whole then
         error(("Inventory:new: max_size is a whole number of stacks (or nil for 200), not %s"):format(tostring(max_size)), 2)
      end
      capacity = math.max(whole, 1)
   end
   if type_id ~= nil and type_id ~= "base.item" then
      error(("Inventory:new: an inventory holds items (\"base.item\"), not %s; characters stand on maps"):format(tostring(type_id)), 2)
   end
   if owner ~= nil and not api.MapObject.is_map_object(owner) then
      error(("Inventory:new: the owner is a map object, not %s"):format(tostring(owner)), 2)
   end
   local inventory = keep("base.inventory")
   inventory.inventory_capacity = capacity
   if owner ~= nil then
      inventory.owner_uid = owner.uid
   end
   return inventory
end

return keep
