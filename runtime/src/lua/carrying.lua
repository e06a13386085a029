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

function methods.iter_all_body_parts(self)
   only(self, "base.chara", "iter_all_body_parts")
   local by_slot = {}
   for slot, item in self.equip:iter() do
      by_slot[slot] = item
   end
   local parts = {}
   for _, slot in ipairs(self.equip_slots or {}) do
      parts[#parts + 1] = { type = slot, equipped = by_slot[slot] }
   end
   return chain(parts)
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

-- The character carrying or wearing the item, through any containers; nil if none does.
function methods.get_owning_chara(self)
   only(self, "base.item", "get_owning_chara")
   local holder = self:get_location()
   while api.MapObject.is_map_object(holder) do
      if holder._type == "base.chara" then
         return holder
      end
      holder = holder:get_location()
   end
   return nil
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

-- Game-wide inventories live on a one-cell map of their own, found by its field.
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
      local inventory = api.Item.create("base.inventory", 0, 0, {}, map)
      inventory.inventory_id = id
      return inventory
   end,
}
