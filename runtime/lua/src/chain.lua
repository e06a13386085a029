-- The iterators the engine returns (Chara.iter, map:iter, obj:iter_inventory, …) are chains:
-- `for i, obj in Chara.iter(map) do` works as ever, and, as in OpenNefia (luafun), so does
-- `Chara.iter(map):filter(function(c) return c.hp > 0 end):extract("uid"):to_list()`.
-- A chain holds its values in a list; each step makes a new chain, the old one is left as it
-- was. The functions given see the values (objects), not the loop's index.
local Chain = {}
Chain.__index = Chain
-- Shared by every mod: none may change it for the others.
Chain.__metatable = "chain"

local function chain(list)
   return setmetatable({ list = list }, Chain)
end

-- `for i, v in chain` steps through the list as `ipairs` does (a chain a step made is
-- looped over alone: the for loop then gives it no index to start from).
function Chain.__call(self, _, i)
   i = (i or 0) + 1
   local value = self.list[i]
   if value ~= nil then
      return i, value
   end
end

local function function_arg(name, f)
   if type(f) ~= "function" then
      error(("%s expects a function, not a %s"):format(name, type(f)), 3)
   end
end

--- How many values.
function Chain:length()
   return #self.list
end

--- The n-th value (from 1), or nil.
function Chain:nth(n)
   if math.type(n) ~= "integer" then
      error(("nth expects a whole number, not %s"):format(tostring(n)), 2)
   end
   return self.list[n]
end

--- The values `f(value)` is true for.
function Chain:filter(f)
   function_arg("filter", f)
   local kept = {}
   for _, value in ipairs(self.list) do
      if f(value) then
         kept[#kept + 1] = value
      end
   end
   return chain(kept)
end

--- `f(value)` of each value (nil results are left out, so the list stays a list).
function Chain:map(f)
   function_arg("map", f)
   local mapped = {}
   for _, value in ipairs(self.list) do
      local result = f(value)
      if result ~= nil then
         mapped[#mapped + 1] = result
      end
   end
   return chain(mapped)
end

--- Each value's `field`.
function Chain:extract(field)
   return self:map(function(value) return value[field] end)
end

--- The first `n` values.
function Chain:take(n)
   local taken = {}
   for i = 1, math.min(n, #self.list) do
      taken[i] = self.list[i]
   end
   return chain(taken)
end

--- Calls `f(value)` for each value.
function Chain:each(f)
   function_arg("each", f)
   for _, value in ipairs(self.list) do
      f(value)
   end
end

--- True if `f(value)` is true for some value.
function Chain:any(f)
   function_arg("any", f)
   for _, value in ipairs(self.list) do
      if f(value) then
         return true
      end
   end
   return false
end

--- True if `f(value)` is true for every value.
function Chain:all(f)
   function_arg("all", f)
   for _, value in ipairs(self.list) do
      if not f(value) then
         return false
      end
   end
   return true
end

--- `f(acc, value)` folded over the values from `init`.
function Chain:foldl(f, init)
   function_arg("foldl", f)
   local acc = init
   for _, value in ipairs(self.list) do
      acc = f(acc, value)
   end
   return acc
end

--- The sum of the values (numbers).
function Chain:sum()
   return self:foldl(function(a, b) return a + b end, 0)
end

--- The values as a plain list (a copy).
function Chain:to_list()
   return table.move(self.list, 1, #self.list, 1, {})
end

return chain
