-- OpenNefia's EquipSlots: the equipment slots of a character (`chara.equip`), or slots of
-- their own (`EquipSlots:new(body_parts)`), with blocked body parts. See items.rs.
--
-- In Nefia a slot is a name ("head", "main_hand": the holder's `equip_slots`) holding at most
-- one item, and what the slots hold is in the world like any object (the Rust World's equip
-- and unequip), so it is saved, stepped back and listed in Locations. Blocked body parts are
-- the holder's `blocked_body_parts` field. Runs once, given the object methods table, the
-- chain constructor, the API table, what the holder wears (`worn(holder)`: slot names and
-- items, by name; nothing when it wears nothing) and the maker of objects kept with the game
-- (`keep(prototype id)`).
local methods, chain, api, worn, keep = ...

-- The methods (the API's `EquipSlots`); a set of slots is `{ holder = obj }` with the
-- metatable `Slots`.
local EquipSlots = {}
local Slots = {}

local function slot_name(value, what)
   if type(value) ~= "string" or value == "" then
      error(("%s: a slot is named by a string such as \"head\", not %s"):format(what, tostring(value)), 3)
   end
   return value
end

local function item_arg(value, what)
   if not api.MapObject.is_map_object(value) or value._type ~= "base.item" then
      error(("%s: expected an item object, not %s"):format(what, tostring(value)), 3)
   end
   return value
end

local function list_of(value)
   local names = {}
   for _, name in ipairs(value or {}) do
      names[#names + 1] = name
   end
   return names
end

local function contains(list, wanted)
   for _, name in ipairs(list) do
      if name == wanted then
         return true
      end
   end
   return false
end

-- `chara.equip.head`: the item worn there; otherwise the methods.
Slots.__index = function(self, key)
   local method = rawget(EquipSlots, key)
   if method ~= nil then
      return method
   end
   if type(key) == "string" then
      local slots, items = worn(rawget(self, "holder"))
      for i = 1, slots and #slots or 0 do
         if slots[i] == key then
            return items[i]
         end
      end
   end
   return nil
end

Slots.__tostring = function(self)
   return ("EquipSlots of %s"):format(tostring(rawget(self, "holder")))
end

-- The slots of `holder` (a character or an item that holds_equipment).
local function slots_of(holder)
   return setmetatable({ holder = holder }, Slots)
end

-- OpenNefia's `EquipSlots:new(body_parts[, owner])`: slots of their own, named by
-- `body_parts` (unique names), kept with the game so they are saved. `owner` (an object)
-- is remembered as `owner_uid`.
function EquipSlots.new(_, body_parts, owner)
   if body_parts ~= nil and type(body_parts) ~= "table" then
      error(("EquipSlots:new: body_parts is a list of slot names such as { \"head\", \"neck\" }, not %s"):format(
         tostring(body_parts)), 2)
   end
   if owner ~= nil and not api.MapObject.is_map_object(owner) then
      error(("EquipSlots:new: the owner is a map object, not %s"):format(tostring(owner)), 2)
   end
   local names = {}
   for i, name in ipairs(body_parts or {}) do
      slot_name(name, ("EquipSlots:new: body_parts[%d]"):format(i))
      if contains(names, name) then
         error(("EquipSlots:new: slot \"%s\" is listed twice; each slot holds one item, so name them apart (\"%s_1\", \"%s_2\")")
            :format(name, name, name), 2)
      end
      names[#names + 1] = name
   end
   local holder = keep("base.equip_slots")
   holder.equip_slots = names
   if owner ~= nil then
      holder.owner_uid = owner.uid
   end
   return slots_of(holder)
end

-- The holder's slot names, blocked ones included.
function EquipSlots:slots()
   return list_of(self.holder.equip_slots)
end

function EquipSlots:is_body_part_blocked(slot)
   return contains(list_of(self.holder.blocked_body_parts), slot_name(slot, "is_body_part_blocked"))
end

-- Marks slot `slot` blocked (or not): equipping there is refused and the body-part
-- iterators leave it out, unless asked for blocked ones.
function EquipSlots:set_body_part_blocked(slot, blocked)
   slot_name(slot, "set_body_part_blocked")
   local kept = {}
   for _, name in ipairs(list_of(self.holder.blocked_body_parts)) do
      if name ~= slot then
         kept[#kept + 1] = name
      end
   end
   if blocked then
      kept[#kept + 1] = slot
      table.sort(kept)
   end
   self.holder.blocked_body_parts = kept
end

local function body_parts(self, also_empty, also_blocked)
   local by_slot = {}
   local slots, items = worn(self.holder)
   for i = 1, slots and #slots or 0 do
      by_slot[slots[i]] = items[i]
   end
   local parts = {}
   for index, slot in ipairs(self:slots()) do
      local equipped = by_slot[slot]
      if (also_empty or equipped ~= nil) and (also_blocked or not self:is_body_part_blocked(slot)) then
         parts[#parts + 1] = { type = slot, equipped = equipped, slot = index }
      end
   end
   return chain(parts)
end

-- Each slot as `{ type = name, equipped = item or nil, slot = index }`, blocked ones only if
-- `also_blocked`.
function EquipSlots:iter_all_body_parts(also_blocked)
   return body_parts(self, true, also_blocked)
end

-- The slots that hold an item, as iter_all_body_parts gives them.
function EquipSlots:iter_equipped_body_parts(also_blocked)
   return body_parts(self, false, also_blocked)
end

local function nothing() end

-- Every slot name and the item worn there, by name (blocked slots too, as OpenNefia's pool).
-- Nothing worn, the loop makes no garbage: it runs in refresh handlers, for every character.
function EquipSlots:iter()
   local slots, items = worn(self.holder)
   if slots == nil then
      return nothing
   end
   local i = 0
   return function()
      i = i + 1
      if slots[i] ~= nil then
         return slots[i], items[i]
      end
   end
end

function EquipSlots:has_object(item)
   return self:equip_slot_of(item) ~= nil
end

-- The slot `item` is worn in, as `{ type = name, equipped = item }`, or nil.
function EquipSlots:equip_slot_of(item)
   for slot, worn_item in self:iter() do
      if worn_item == item then
         return { type = slot, equipped = worn_item }
      end
   end
   return nil
end

-- How many slots are named `slot` (0 or 1: Nefia's slot names are unique).
function EquipSlots:body_part_count(slot)
   return contains(self:slots(), slot_name(slot, "body_part_count")) and 1 or 0
end

-- True if a slot fits `item`, even an occupied one.
function EquipSlots:has_body_part_for(item)
   item_arg(item, "has_body_part_for")
   for _, slot in ipairs(list_of(item.equip_slots)) do
      if contains(self:slots(), slot) then
         return true
      end
   end
   return false
end

-- The first free, unblocked slot that fits `item` (named `slot` if given), or nil.
function EquipSlots:find_free_slot(item, slot)
   item_arg(item, "find_free_slot")
   for _, part in self:iter_all_body_parts() do
      if part.equipped == nil and (slot == nil or part.type == slot) and contains(list_of(item.equip_slots), part.type) then
         return part.type
      end
   end
   return nil
end

-- OpenNefia's `equip(item[, slot])`: wears `item` (from anywhere) in `slot` or the first
-- free slot it fits. The item, or nil and why not.
function EquipSlots:equip(item, slot)
   item_arg(item, "equip")
   if slot ~= nil then
      slot_name(slot, "equip")
   end
   if self:has_object(item) then
      return nil, "is_equipped"
   end
   local done, reason = self.holder:equip_item(item, true, slot)
   if not done then
      return nil, reason
   end
   return item
end

-- Takes `item` off; it is then in no location (as OpenNefia's). The item, or nil.
function EquipSlots:unequip(item)
   item_arg(item, "unequip")
   if not self:has_object(item) then
      return nil
   end
   item:remove_ownership()
   return item
end

-- A new slot named `slot`.
function EquipSlots:add_body_part(slot)
   slot_name(slot, "add_body_part")
   local names = self:slots()
   if contains(names, slot) then
      error(("add_body_part: there is already a slot \"%s\"; name the new one apart"):format(slot), 2)
   end
   names[#names + 1] = slot
   self.holder.equip_slots = names
end

-- Removes slot `slot`: false if an item is worn there or there is no such slot.
function EquipSlots:remove_body_part(slot)
   slot_name(slot, "remove_body_part")
   local names, kept = self:slots(), {}
   for _, name in ipairs(names) do
      if name ~= slot then
         kept[#kept + 1] = name
      end
   end
   if #kept == #names or self[slot] ~= nil then
      return false
   end
   self.holder.equip_slots = kept
   return true
end

-- The character's slots as OpenNefia's ICharaEquip gives them.
local function equipper(self, method)
   if self.equip == nil then
      error(("%s is for characters and equipment slots, not a %s"):format(method, self._type), 3)
   end
   return self.equip
end

function methods.iter_all_body_parts(self, also_blocked)
   return equipper(self, "iter_all_body_parts"):iter_all_body_parts(also_blocked)
end

function methods.iter_equipped_body_parts(self, also_blocked)
   return equipper(self, "iter_equipped_body_parts"):iter_equipped_body_parts(also_blocked)
end

function methods.set_body_part_blocked(self, slot, blocked)
   return equipper(self, "set_body_part_blocked"):set_body_part_blocked(slot, blocked)
end

function methods.find_equip_slot_for(self, item, slot)
   return equipper(self, "find_equip_slot_for"):find_free_slot(item, slot)
end

api.EquipSlots = EquipSlots
return slots_of
