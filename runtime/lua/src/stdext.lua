-- OpenNefia's extensions of the standard library (its `ext/table.lua`, `ext/string.lua` and
-- `ext/math.lua`), which its content and tests call as if they were Lua's own: added to the
-- `table`, `string` and `math` libraries once, before the sandbox makes them read-only to
-- mods, so `("a,b"):split(",")` works as it does there. Written for Lua 5.4 to give what
-- OpenNefia's give on LuaJIT.
local table_lib, string_lib, math_lib = ...

local type, pairs, ipairs, next, select, error = type, pairs, ipairs, next, select, error
local getmetatable, setmetatable, rawequal = getmetatable, setmetatable, rawequal
local floor, min, max = math.floor, math.min, math.max
local remove = table.remove
local find, sub, gsub = string.find, string.sub, string.gsub

-- ---- table ----

--- Copies every key of `b` into `a` (shallow, overwriting); returns `a`.
function table_lib.merge(a, b)
   for k, v in pairs(b or {}) do
      a[k] = v
   end
   return a
end

--- Appends the list part of `b` to `a`; returns `a`.
function table_lib.imerge(a, b)
   for _, v in ipairs(b or {}) do
      a[#a + 1] = v
   end
   return a
end

--- As `imerge`, with `b` required.
function table_lib.append(a, b)
   if type(b) ~= "table" then
      error("table.append: the second argument must be a table", 2)
   end
   return table_lib.imerge(a, b)
end

--- Copies the keys of `b` that `a` lacks (nil in `a`); returns `a`.
function table_lib.merge_missing(a, b)
   for k, v in pairs(b or {}) do
      if a[k] == nil then
         a[k] = v
      end
   end
   return a
end

--- Copies the keys of `b` that `a` already has; returns `a`.
function table_lib.merge_existing(a, b)
   for k, v in pairs(b or {}) do
      if a[k] ~= nil then
         a[k] = v
      end
   end
   return a
end

--- Empties `t` and fills it with `other`'s keys, so what holds `t` sees the new contents.
function table_lib.replace_with(t, other)
   if rawequal(t, other) then
      return t
   end
   for k in pairs(t) do
      t[k] = nil
   end
   for k, v in pairs(other) do
      t[k] = v
   end
   return t
end

--- The top-level keys of `t` in a new table (no metatable).
function table_lib.shallow_copy(t)
   local copy = {}
   for k, v in pairs(t) do
      copy[k] = v
   end
   return copy
end

--- A copy of `value` all the way down, keys included; cycles stay cycles, and each copy
--- shares its original's metatable. Anything but a table is returned as it is.
function table_lib.deepcopy(value)
   local copies = {}
   local function copy(v)
      if type(v) ~= "table" then
         return v
      end
      local done = copies[v]
      if done then
         return done
      end
      local new = {}
      copies[v] = new
      for k, inner in next, v do
         new[copy(k)] = copy(inner)
      end
      return setmetatable(new, getmetatable(v))
   end
   return copy(value)
end

--- True if `a` and `b` hold equal values all the way down. A table whose metatable has
--- `__eq` is compared with `==` unless `ignore_mt`; numbers within `eps` of each other are
--- equal when it is given.
function table_lib.deepcompare(a, b, ignore_mt, eps)
   local seen = {}
   local function same(x, y)
      if type(x) ~= type(y) then
         return false
      end
      if type(x) == "number" and eps then
         return math.abs(x - y) < eps
      end
      if type(x) ~= "table" then
         return x == y
      end
      local mt = getmetatable(x)
      if not ignore_mt and type(mt) == "table" and mt.__eq then
         return x == y
      end
      if seen[x] == y then
         return true
      end
      seen[x] = y
      for k, v in pairs(x) do
         if y[k] == nil or not same(v, y[k]) then
            return false
         end
      end
      for k in pairs(y) do
         if x[k] == nil then
            return false
         end
      end
      return true
   end
   return same(a, b)
end

--- How many keys `t` has, named ones included.
function table_lib.count(t)
   local n = 0
   for _ in pairs(t) do
      n = n + 1
   end
   return n
end

--- A list of `n` entries: `item(i)` if `item` is a function, else `item` itself.
function table_lib.of(item, n)
   local list = {}
   for i = 1, n do
      if type(item) == "function" then
         list[i] = item(i)
      else
         list[i] = item
      end
   end
   return list
end

--- Removes the first entry of the list equal to `value`; returns it, or nil.
function table_lib.iremove_value(t, value)
   for i, v in ipairs(t) do
      if v == value then
         return remove(t, i)
      end
   end
   return nil
end

--- True if the list part of `t` holds `value`.
function table_lib.has_value(t, value)
   for _, v in ipairs(t) do
      if v == value then
         return true
      end
   end
   return false
end

--- A list of the entries of a list of lists (one level).
function table_lib.flatten(lists)
   local flat = {}
   for _, list in ipairs(lists) do
      for _, v in ipairs(list) do
         flat[#flat + 1] = v
      end
   end
   return flat
end

--- `obj[k1][k2]...`, or nil as soon as a step is nil or false.
function table_lib.maybe(obj, ...)
   for i = 1, select("#", ...) do
      if not obj then
         return nil
      end
      obj = obj[(select(i, ...))]
   end
   return obj
end

--- `{ [v] = true }` for each value of the list part of `list`; with `keep_map_part`, the
--- named keys are copied too.
function table_lib.set(list, keep_map_part)
   local set = {}
   for k, v in pairs(list) do
      if math.type(k) == "integer" then
         set[v] = true
      elseif keep_map_part then
         set[k] = v
      end
   end
   return set
end

--- The keys of `t`, in `pairs` order.
function table_lib.keys(t)
   local keys = {}
   for k in pairs(t) do
      keys[#keys + 1] = k
   end
   return keys
end

--- The values of `t`, in `pairs` order.
function table_lib.values(t)
   local values = {}
   for _, v in pairs(t) do
      values[#values + 1] = v
   end
   return values
end

--- The distinct values of the list part of `t` (in no particular order).
function table_lib.unique(t)
   return table_lib.keys(table_lib.set(t))
end

--- Removes the entries at `indices` (ascending) from the list `t`; returns `t`.
function table_lib.remove_indices(t, indices)
   for i = #indices, 1, -1 do
      remove(t, indices[i])
   end
   return t
end

--- Sets `t[k] = nil` for each key listed in `keys`; returns `t`.
function table_lib.remove_keys(t, keys)
   for _, k in ipairs(keys) do
      t[k] = nil
   end
   return t
end

--- Removes the entries of the list `t` for which `f(v)` is true; returns `t`.
function table_lib.remove_by(t, f)
   local kept = 0
   local n = #t
   for i = 1, n do
      local v = t[i]
      t[i] = nil
      if not f(v) then
         kept = kept + 1
         t[kept] = v
      end
   end
   return t
end

-- ---- string ----

--- True if `s` is a string with something in it.
function string_lib.nonempty(s)
   return type(s) == "string" and s ~= ""
end

--- `s` with every character but letters and digits escaped for a Lua pattern, and the
--- number of them.
function string_lib.escape_for_gsub(s)
   return gsub(s, "[^%w]", "%%%0")
end

--- Where `s` begins with `prefix` (as `string.find` says), or nil.
function string_lib.has_prefix(s, prefix)
   if sub(s, 1, #prefix) == prefix then
      return 1, #prefix
   end
   return nil
end

--- Where `s` ends with `suffix` (as `string.find` says), or nil.
function string_lib.has_suffix(s, suffix)
   local from = #s - #suffix + 1
   if from >= 1 and sub(s, from) == suffix then
      return from, #s
   end
   return nil
end

--- `s` without `prefix` if it begins with it, and how many were taken off (0 or 1).
function string_lib.strip_prefix(s, prefix)
   if sub(s, 1, #prefix) == prefix then
      return sub(s, #prefix + 1), 1
   end
   return s, 0
end

--- `s` without `suffix` if it ends with it, and how many were taken off (0 or 1).
function string_lib.strip_suffix(s, suffix)
   if #suffix <= #s and sub(s, #s - #suffix + 1) == suffix then
      return sub(s, 1, #s - #suffix), 1
   end
   return s, 0
end

--- `s` without whitespace at either end.
function string_lib.strip_whitespace(s)
   return (gsub(gsub(s, "^%s+", ""), "%s+$", ""))
end

--- The pieces of `s` between the characters of `separators` (any one of them splits;
--- default a newline): `"a,,b"` gives `{ "a", "", "b" }`, `""` gives `{ "" }`.
function string_lib.split(s, separators)
   separators = separators or "\n"
   local class = "[" .. gsub(separators, "[%^%]%-%%]", "%%%0") .. "]"
   local pieces = {}
   local start = 1
   while true do
      local at = find(s, class, start)
      if not at then
         pieces[#pieces + 1] = sub(s, start)
         return pieces
      end
      pieces[#pieces + 1] = sub(s, start, at - 1)
      start = at + 1
   end
end

--- The part of `s` up to `position` and the part after it.
function string_lib.split_at_pos(s, position)
   return sub(s, 1, position), sub(s, position + 1)
end

--- An iterator over the lines of `s` (a last line without a newline included).
function string_lib.lines(s)
   if sub(s, -1) ~= "\n" then
      s = s .. "\n"
   end
   return string.gmatch(s, "(.-)\n")
end

--- An iterator over the bytes of `s`, each as a one-character string.
function string_lib.chars(s)
   local i = 0
   return function()
      i = i + 1
      if i <= #s then
         return sub(s, i, i)
      end
   end
end

-- ---- math ----

--- `n` kept between `low` and `high`.
function math_lib.clamp(n, low, high)
   return min(high, max(low, n))
end

--- `per` percent of `v`, rounded down.
function math_lib.percent(v, per)
   return floor(per / 100 * v)
end

--- `v` plus `per` percent of it.
function math_lib.percent_inc(v, per)
   return v + math_lib.percent(v, per)
end

--- `v` less `per` percent of it.
function math_lib.percent_dec(v, per)
   return v - math_lib.percent(v, per)
end

--- -1, 0 or 1 as `v` is below, at or above zero (0 for NaN).
function math_lib.sign(v)
   if v > 0 then
      return 1
   elseif v < 0 then
      return -1
   end
   return 0
end
