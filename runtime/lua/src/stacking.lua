-- Item stacking, written with the object API (see stacking.rs for the rules). Runs once,
-- given the object methods table, the API table and the engine's part of can_stack_with.
local methods, api, engine_allows = ...

local function items_only(self, method)
   if self._type ~= "base.item" then
      error(("%s is for items, not a %s: only items stack"):format(method, self._type), 3)
   end
end

function methods.can_stack_with(self, other)
   items_only(self, "can_stack_with")
   if not engine_allows(self, other) then
      return false
   end
   -- A mod's own comparison: any handler returning false keeps them apart.
   local refused = api.Event.trigger("base.on_item_can_stack_with", { item = self, other = other })
   return refused ~= false
end

function methods.stack_with(self, other)
   items_only(self, "stack_with")
   self.amount = self.amount + other.amount
   other.amount = 0
   other:remove_ownership()
end

function methods.stack(self, show_message)
   items_only(self, "stack")
   local location = self:get_location()
   if location == nil then
      return false
   end
   local others
   if location:is_positional() then
      others = location:iter_type_at_pos("base.item", self.x, self.y):to_list()
   else
      others = location:iter():to_list()
   end
   local stacked = false
   for _, other in ipairs(others) do
      if self:can_stack_with(other) then
         self:stack_with(other)
         stacked = true
      end
   end
   if stacked and show_message then
      api.Gui.mes(("%s: %d now."):format(self.name, self.amount))
   end
   return stacked
end

function methods.separate(self, amount, owned)
   items_only(self, "separate")
   amount = math.max(0, math.min(amount or 1, self.amount))
   if amount == 0 then
      return nil
   end
   if self.amount <= 1 or amount >= self.amount then
      return self
   end
   local separated = self:clone(owned ~= false)
   if separated == nil then
      return nil
   end
   separated.amount = amount
   self.amount = self.amount - amount
   return separated
end

function methods.move_some(self, amount, where, x, y)
   items_only(self, "move_some")
   local separated = self:separate(amount or self.amount, false)
   if separated == nil then
      return nil
   end
   if not where:can_take_object(separated, x, y) then
      if separated ~= self then
         self:stack_with(separated)
      end
      return nil
   end
   where:take_object(separated, x, y)
   return separated
end

api.MapObject = {
   clone = function(obj, owned) return obj:clone(owned) end,
}
