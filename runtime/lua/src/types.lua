-- `types`: OpenNefia's type checkers (its `util/types.lua`), with its names and error texts, so
-- data types declare their fields as OpenNefia's do (`{ name = "hp", type = types.uint }`)
-- and `types.check(value, checker)` answers as it does: `true`, or `false` and
-- `Value is not of type "int >= 0": -1`. Runs once, given the API table.
--
-- Each checker is a table with a `kind` ("int", "optional", "list", ...), the parameters of
-- its kind (`checker`, `checkers`, `min`, `max`, `literals`, `_type`, `fields`, `enum`) and
-- the metatable of checkers; the engine reads those to know a field's type (the Data pane's
-- widgets, the type definitions, the protocol's schemas) without running Lua to find out.
-- Mods see the library through the sandbox's read-only views: a view of a checker is one
-- too (the sandbox tells `adopt`, which this chunk returns, of each).
--
-- Runs once, given the API table and the engine's table of declared fields, which
-- `check_declared` (also returned) reads: data type id → `{ decls = { {name, checker,
-- nil_ok} ... }, by_name = { name → decl }, strict = bool }` (lua/schema.rs fills it).
local api, declared = ...

local types = {}
local Checker = {}
Checker.__index = Checker
Checker.__name = "types.checker"

local function checker(kind, params)
   params = params or {}
   params.kind = kind
   return setmetatable(params, Checker)
end

-- The sandbox's read-only views of checkers, weak: a view is a checker too.
local views = setmetatable({}, { __mode = "k" })

function types.is_type_checker(obj)
   if getmetatable(obj) ~= Checker and views[obj] == nil then
      return false, ("%s is not a type checker"):format(tostring(obj))
   end
   return true
end

local function assert_checker(obj, what)
   if not types.is_type_checker(obj) then
      error(("%s is not a type checker (%s): use one of types' checkers, such as types.int"):format(
         what or "The argument", tostring(obj)), 3)
   end
end

-- The constructor of a checker of `kind` over one inner checker (`types.list(types.int)`).
local function of_one(kind)
   return function(inner)
      assert_checker(inner, "types." .. kind .. "'s checker")
      return checker(kind, { checker = inner })
   end
end

-- The name OpenNefia's messages give a value: strings quoted, tables inspected briefly.
local function smart_quote(str)
   if str:match('"') and not str:match("'") then
      return "'" .. str .. "'"
   end
   return '"' .. str:gsub('"', '\\"') .. '"'
end

-- A table on one line, as OpenNefia's messages inspect it: `{ 1, 2, x = 3 }`, nested tables
-- as `{...}`, cut after 32 characters.
local function describe(obj)
   local parts, count = {}, #obj
   for i = 1, count do
      local value = obj[i]
      parts[#parts + 1] = type(value) == "table" and "{...}" or type(value) == "string" and smart_quote(value)
         or tostring(value)
   end
   local keys = {}
   for key in pairs(obj) do
      if not (math.type(key) == "integer" and key >= 1 and key <= count) then
         keys[#keys + 1] = key
      end
   end
   table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
   for _, key in ipairs(keys) do
      local value = obj[key]
      local shown = type(value) == "table" and "{...}" or type(value) == "string" and smart_quote(value)
         or tostring(value)
      local name = type(key) == "string" and key:match("^[%a_][%w_]*$") and key or ("[" .. tostring(key) .. "]")
      parts[#parts + 1] = name .. " = " .. shown
   end
   local text = #parts == 0 and "{}" or "{ " .. table.concat(parts, ", ") .. " }"
   if #text > 32 then
      text = text:sub(1, 32) .. "..."
   end
   return text
end

local function get_name(obj)
   if type(obj) == "string" then
      return smart_quote(obj)
   elseif type(obj) == "table" and not types.is_type_checker(obj) then
      return describe(obj)
   end
   return tostring(obj)
end

local function print_list(list)
   local s = {}
   for i, val in ipairs(list) do
      if i > 10 then
         s[#s + 1] = "..."
         break
      end
      s[#s + 1] = tostring(val)
   end
   return table.concat(s, ", ")
end

local function print_fields(fields)
   local keys = {}
   for key in pairs(fields) do
      keys[#keys + 1] = key
   end
   table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
   local s = {}
   for i, key in ipairs(keys) do
      if i > 10 then
         s[#s + 1] = "..."
         break
      end
      s[#s + 1] = get_name(key) .. "=" .. get_name(fields[key])
   end
   return table.concat(s, ", ")
end

local function type_error(ty, inner)
   local s = ('Value is not of type "%s"'):format(tostring(ty))
   if inner then
      s = s .. "(" .. inner .. ")"
   end
   return s
end

-- The path into the value being checked, for the message of `types.check`: the keys and
-- values of its first `n` steps, kept in two arrays so that a step allocates nothing.
local Context = {}
Context.__index = Context

function Context:push(key, value)
   local n = self.n + 1
   self.n, self.keys[n], self.values[n] = n, key, value
end

function Context:pop()
   self.n = self.n - 1
end

function Context:make_trail(obj)
   local s = { get_name(obj) }
   for i = 1, self.n do
      s[#s + 1] = "[" .. get_name(self.keys[i]) .. "]"
      if self.values[i] ~= nil then
         s[#s + 1] = " -> " .. get_name(self.values[i])
      end
   end
   return table.concat(s)
end

local function make_context()
   return setmetatable({ n = 0, keys = {}, values = {} }, Context)
end

local function is_nan(obj)
   return obj ~= obj
end

-- What each kind checks and how it is named. `check(self, obj, ctxt)` returns true, or false
-- and why.
local kinds = {}

local function simple(kind, name, test)
   kinds[kind] = {
      check = function(self, obj)
         if test(obj) then
            return true
         end
         return false, type_error(self)
      end,
      name = function() return name end,
   }
   types[kind] = checker(kind)
end

simple("any", "any", function() return true end)
for _, primitive in ipairs { "nil", "boolean", "string", "table", "function", "userdata", "thread" } do
   simple(primitive, primitive, function(obj) return type(obj) == primitive end)
end
simple("number", "number", function(obj) return type(obj) == "number" and not is_nan(obj) end)
simple("nan", "nan", function(obj) return type(obj) == "number" and is_nan(obj) end)
simple("int", "int", function(obj) return math.type(obj) == "integer" end)
simple("float", "float", function(obj) return math.type(obj) == "float" and not is_nan(obj) end)
local ID_PATTERN = "^[_a-z][_a-z0-9]+%.[_a-z][_a-z0-9]+$"
simple("identifier", "identifier", function(obj) return type(obj) == "string" and obj:match("^[a-z][_a-z0-9]*$") ~= nil end)
simple("data_type_id", "data_type_id", function(obj) return type(obj) == "string" and obj:match(ID_PATTERN) ~= nil end)
for _, stringly in ipairs { "path", "locale_id", "require_path" } do
   simple(stringly, stringly, function(obj) return type(obj) == "string" end)
end
simple("type", "type checker", function(obj) return types.is_type_checker(obj) end)
simple("class_type", "class type", function(obj) return api.class.is_class(obj) end)
simple("interface_type", "interface type", function(obj) return api.class.is_interface(obj) end)
-- An enum made by `Enum.new` (it reads its name and has `has_value`).
local function is_enum(obj)
   if type(obj) ~= "table" then
      return false
   end
   local ok, name, has_value = pcall(function() return obj.__name, obj.has_value end)
   return ok and type(name) == "string" and type(has_value) == "function"
end
simple("enum_type", "enum type", is_enum)

-- A bound on what an inner checker accepts: gt, lt, gteq, lteq and range.
local function bounded(kind, name, test)
   kinds[kind] = {
      check = function(self, obj, ctxt)
         local ok, err = self.checker:check(obj, ctxt)
         if not ok then
            return false, type_error(self, err)
         end
         if test(self, obj) then
            return true
         end
         return false, type_error(self)
      end,
      name = name,
   }
   types[kind] = function(inner, a, b)
      assert_checker(inner, "types." .. kind .. "'s checker")
      return checker(kind, { checker = inner, comp = a, min = a, max = b })
   end
end

bounded("gt", function(self) return ("%s > %s"):format(self.checker, self.comp) end,
   function(self, obj) return obj > self.comp end)
bounded("lt", function(self) return ("%s < %s"):format(self.checker, self.comp) end,
   function(self, obj) return obj < self.comp end)
bounded("gteq", function(self) return ("%s >= %s"):format(self.checker, self.comp) end,
   function(self, obj) return obj >= self.comp end)
bounded("lteq", function(self) return ("%s <= %s"):format(self.checker, self.comp) end,
   function(self, obj) return obj <= self.comp end)
bounded("range", function(self) return ("%s in [%s, %s]"):format(self.checker, self.min, self.max) end,
   function(self, obj) return obj >= self.min and obj <= self.max end)

function types.positive(inner)
   return types.gteq(inner, 0)
end

function types.negative(inner)
   return types.lt(inner, 0)
end

types.uint = types.positive(types.int)

kinds.enum = {
   check = function(self, obj)
      if self.enum.has_value(self.enum, obj) then
         return true
      end
      return false, type_error(self)
   end,
   name = function() return "enum type" end,
}
function types.enum(enum)
   if not is_enum(enum) then
      error(("%s is not an enum: make one with Enum.new(name, variants)"):format(tostring(enum)), 2)
   end
   return checker("enum", { enum = enum })
end

-- Instances of a class or an interface.
for _, kind in ipairs { "class", "interface" } do
   kinds[kind] = {
      check = function(self, obj)
         if api.class.is_an(self.of, obj) then
            return true
         end
         return false, type_error(self)
      end,
      name = function(self) return tostring(self.of) end,
   }
   types[kind] = function(of)
      return checker(kind, { of = of })
   end
end

kinds.optional = {
   check = function(self, obj, ctxt)
      if obj == nil then
         return true
      end
      local ok, err = self.checker:check(obj, ctxt)
      if not ok then
         return false, type_error(self, err)
      end
      return true
   end,
   name = function(self) return ("optional<%s>"):format(self.checker) end,
}
types.optional = of_one("optional")

kinds.tuple = {
   check = function(self, obj, ctxt)
      if type(obj) ~= "table" then
         return false, type_error(self)
      end
      for i, inner in ipairs(self.checkers) do
         local val = obj[i]
         ctxt:push(i, val)
         local ok, err = inner:check(val, ctxt)
         if not ok then
            return false, type_error(self, err)
         end
         ctxt:pop()
      end
      return true
   end,
   name = function(self) return ("tuple<%s>"):format(print_list(self.checkers)) end,
}
function types.tuple(checkers)
   for i, inner in ipairs(checkers) do
      if not types.is_type_checker(inner) then
         error(("Object for tuple index '%s' is not a type checker (%s)"):format(i, tostring(inner)), 2)
      end
   end
   return checker("tuple", { checkers = checkers })
end

-- Checks every key (`keys`), every value (`values`) or both (`map`) of a table.
local function each_entry(kind, name, keys_of, values_of)
   kinds[kind] = {
      check = function(self, obj, ctxt)
         if type(obj) ~= "table" then
            return false, type_error(self)
         end
         for key, val in pairs(obj) do
            local key_checker, value_checker = keys_of(self), values_of(self)
            if key_checker then
               ctxt:push(key)
               local ok, err = key_checker:check(key, ctxt)
               if not ok then
                  return false, type_error(self, err)
               end
               ctxt:pop()
            end
            if value_checker then
               ctxt:push(key, val)
               local ok, err = value_checker:check(val, ctxt)
               if not ok then
                  return false, type_error(self, err)
               end
               ctxt:pop()
            end
         end
         return true
      end,
      name = name,
   }
end

each_entry("keys", function(self) return ("keys<%s>"):format(self.checker) end,
   function(self) return self.checker end, function() return nil end)
each_entry("values", function(self) return ("values<%s>"):format(self.checker) end,
   function() return nil end, function(self) return self.checker end)
each_entry("map", function(self) return ("map<%s, %s>"):format(self.key_checker, self.value_checker) end,
   function(self) return self.key_checker end, function(self) return self.value_checker end)

types.keys = of_one("keys")

types.values = of_one("values")

function types.map(key_checker, value_checker)
   assert_checker(key_checker, "types.map's key checker")
   assert_checker(value_checker, "types.map's value checker")
   return checker("map", { key_checker = key_checker, value_checker = value_checker })
end

-- OpenNefia's set: a table whose keys are of `value_checker` and whose values are true.
function types.set(value_checker)
   return types.map(value_checker, types.boolean)
end

local list_keys = types.keys(types.uint)
kinds.list = {
   check = function(self, obj, ctxt)
      if type(obj) ~= "table" then
         return false, type_error(self)
      end
      if next(obj) == nil then
         return true
      end
      local ok, err = list_keys:check(obj, ctxt)
      if not ok then
         return false, type_error(("table with integer keys (%s)"):format(err))
      end
      for i, val in ipairs(obj) do
         ctxt:push(i, val)
         ok, err = self.checker:check(val, ctxt)
         if not ok then
            return false, err
         end
         ctxt:pop()
      end
      return true
   end,
   name = function(self) return ("list<%s>"):format(self.checker) end,
}
types.list = of_one("list")

kinds.some = {
   check = function(self, obj, ctxt)
      for _, inner in ipairs(self.checkers) do
         if inner:check(obj, make_context()) then
            return true
         end
      end
      return false, type_error(self)
   end,
   name = function(self) return ("some<%s>"):format(print_list(self.checkers)) end,
}
kinds.all = {
   check = function(self, obj, ctxt)
      for _, inner in ipairs(self.checkers) do
         local ok, err = inner:check(obj, ctxt)
         if not ok then
            return false, err
         end
      end
      return true
   end,
   name = function(self) return ("all<%s>"):format(print_list(self.checkers)) end,
}
for _, kind in ipairs { "some", "all" } do
   types[kind] = function(...)
      local checkers = { ... }
      for _, inner in ipairs(checkers) do
         assert_checker(inner, "types." .. kind .. "'s checker")
      end
      return checker(kind, { checkers = checkers })
   end
end

types.serializable = types.some(types["nil"], types.boolean, types.number, types.string, types.table)

-- The named fields of a table, checked in the order of their sorted names (kept as `keys`);
-- `fields_strict` also refuses keys it does not name and requires those that are not optional.
local function sorted_keys(fields)
   local keys = {}
   for key in pairs(fields) do
      keys[#keys + 1] = key
   end
   table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
   return keys
end

kinds.fields = {
   check = function(self, obj, ctxt)
      if type(obj) ~= "table" then
         return false, type_error(self)
      end
      for _, key in ipairs(self.keys) do
         ctxt:push(key, obj[key])
         local ok, err = self.fields[key]:check(obj[key], ctxt)
         if not ok then
            return false, err
         end
         ctxt:pop()
      end
      if self.array_part then
         for i, val in ipairs(obj) do
            ctxt:push(i, val)
            local ok, err = self.array_part:check(val, ctxt)
            if not ok then
               return false, err
            end
            ctxt:pop()
         end
      end
      return true
   end,
   name = function(self) return ("fields<%s>"):format(print_fields(self.fields)) end,
}
kinds.fields_strict = {
   check = function(self, obj, ctxt)
      if type(obj) ~= "table" then
         return false, type_error(self)
      end
      for key, val in pairs(obj) do
         local inner = self.fields[key]
         if not inner then
            return false, ('Table has superfluous key: "%s"'):format(tostring(key))
         end
         ctxt:push(key, val)
         local ok, err = inner:check(val, ctxt)
         if not ok then
            return false, err
         end
         ctxt:pop()
      end
      for _, key in ipairs(self.keys) do
         local inner = self.fields[key]
         if obj[key] == nil and inner.kind ~= "optional" and not inner:check(nil, make_context()) then
            return false, ("Table is missing required field '%s' of type '%s'"):format(tostring(key), tostring(inner))
         end
      end
      return true
   end,
   name = function(self) return ("fields_strict<%s>"):format(print_fields(self.fields)) end,
}
local function check_fields(fields)
   for key, inner in pairs(fields) do
      if not types.is_type_checker(inner) then
         error(("Object for field '%s' is not a type checker (%s)"):format(tostring(key), tostring(inner)), 3)
      end
   end
end
function types.fields(fields, array_part)
   check_fields(fields)
   if array_part ~= nil then
      assert_checker(array_part, "types.fields's array part")
   end
   return checker("fields", { fields = fields, keys = sorted_keys(fields), array_part = array_part })
end
function types.fields_strict(fields)
   check_fields(fields)
   return checker("fields_strict", { fields = fields, keys = sorted_keys(fields) })
end

kinds.literal = {
   check = function(self, obj)
      for _, literal in ipairs(self.literals) do
         if obj == literal then
            return true
         end
      end
      return false, type_error(self)
   end,
   name = function(self) return ("literal<%s>"):format(print_list(self.literals)) end,
}
function types.literal(...)
   return checker("literal", { literals = { ... } })
end

local color_value = types.range(types.int, 0, 255)
types.color = types.tuple { color_value, color_value, color_value, types.optional(color_value) }
rawset(types.color, "color", true)

-- A prototype's image: a file name or a table (a region, frames, variants, a sprite set).
-- The table's shape is read and checked against its sheet when the prototype is added
-- (lua/images.rs), where the message can say what in it is wrong.
kinds.image = {
   check = function(self, obj)
      local t = type(obj)
      if t == "string" or t == "table" then
         return true
      end
      return false, type_error(self)
         .. ' (give a file under the asset folders, "tiles/grass.png", or a region { source = "tiles/sheet.png", x = 0, y = 0, width = 32, height = 32 })'
   end,
   name = function() return "image" end,
}
types.image = checker("image")

-- Ids of a data type's prototypes (`data_id("base.chara")`) and prototypes themselves.
kinds.data_id = {
   check = function(self, obj)
      if type(obj) == "string" and obj:match(ID_PATTERN) then
         return true
      end
      return false, type_error(self)
   end,
   name = function(self) return ("data_id<%s>"):format(self._type) end,
}
kinds.data_entry = {
   check = function(self, obj)
      if type(obj) == "table" and obj._type == self._type then
         return true
      end
      return false, type_error(self)
   end,
   name = function(self) return ("data_entry<%s>"):format(self._type) end,
}
for _, kind in ipairs { "data_id", "data_entry" } do
   types[kind] = function(data_type)
      if type(data_type) ~= "string" then
         error(("types.%s takes a data type's id, such as \"base.chara\", not %s"):format(kind, tostring(data_type)), 2)
      end
      return checker(kind, { _type = data_type })
   end
end

kinds.callback = {
   check = function(self, obj)
      if type(obj) == "function" then
         return true
      end
      return false, type_error(self)
   end,
   name = function(self) return ("function<%s>"):format(print_list(self.args)) end,
}
function types.callback(...)
   if select("#", ...) == 0 then
      return types["function"]
   end
   return checker("callback", { args = {} })
end

kinds.map_object = {
   check = function(self, obj)
      if not api.MapObject.is_map_object(obj) then
         return false, type_error(self)
      end
      if self._type == "any" or self._type == obj._type then
         return true
      end
      return false, ("Expected map object of type '%s', got '%s'"):format(self._type, tostring(obj._type))
   end,
   name = function(self) return ("map_object<%s>"):format(self._type) end,
}
function types.map_object(data_type)
   if type(data_type) ~= "string" then
      error(("types.map_object takes a data type's id or \"any\", not %s"):format(tostring(data_type)), 2)
   end
   return checker("map_object", { _type = data_type })
end

function Checker:check(obj, ctxt)
   return kinds[self.kind].check(self, obj, ctxt or make_context())
end

function Checker:__tostring()
   return kinds[self.kind].name(self)
end

-- OpenNefia's message for `obj` refused by a checker with `err`: what is wrong, then where
-- `ctxt` stopped (the innermost key and value, or with `verbose` the whole path).
local function refusal(obj, err, ctxt, verbose)
   err = err or "<unknown error>"
   local where
   if verbose then
      where = ctxt:make_trail(obj)
   else
      local n = ctxt.n
      if n > 0 then
         where = get_name(ctxt.keys[n])
         if ctxt.values[n] ~= nil then
            where = where .. " (" .. get_name(ctxt.values[n]) .. ")"
         end
      else
         where = get_name(obj)
      end
   end
   return ("%s: %s"):format(err, where)
end

-- `true`, or `false` and OpenNefia's message.
function types.check(obj, checker_, verbose)
   assert_checker(checker_, "types.check's checker")
   local ctxt = make_context()
   local ok, err = checker_:check(obj, ctxt)
   if ok then
      return true
   end
   return false, refusal(obj, err, ctxt, verbose)
end

-- `decl`'s field of `entry` checked with `ctxt`: nil, or OpenNefia's message.
local function check_field(entry, decl, ctxt)
   local value = entry[decl.name]
   if value == nil and decl.nil_ok then
      return nil
   end
   ctxt.n = 0
   local checker_ = decl.checker
   local ok, err = kinds[checker_.kind].check(checker_, value, ctxt)
   if ok then
      return nil
   end
   -- Refused at the field itself, not inside it: the field is where.
   if ctxt.n == 0 then
      ctxt:push(decl.name, value)
   end
   return refusal(entry, err, ctxt)
end

-- The engine's check of a prototype given to `data:add` as data type `type_id`, in one call:
-- each declared field (in declaration order) unless left nil where nil is fine (it has a
-- default, or its type takes nil), and for a strict type no key it does not declare but
-- those starting with `_`; with `only`, that one field. Returns nil, or OpenNefia's message
-- for the first field refused — the same `types.check(entry, types.fields{...})` gives.
local function check_declared(entry, type_id, only)
   local checked = declared[type_id]
   if checked == nil then
      return nil
   end
   local ctxt = make_context()
   if only ~= nil then
      local decl = checked.by_name[only]
      return decl and check_field(entry, decl, ctxt)
   end
   local decls = checked.decls
   for i = 1, #decls do
      local problem = check_field(entry, decls[i], ctxt)
      if problem then
         return problem
      end
   end
   if checked.strict then
      for key in pairs(entry) do
         local name = tostring(key)
         if checked.by_name[name] == nil and name:sub(1, 1) ~= "_" then
            return ('Table has superfluous key: "%s"'):format(name)
         end
      end
   end
   return nil
end

function types.wrap(checker_)
   return function(obj)
      return types.check(obj, checker_)
   end
end

function types.wrap_strict(checker_)
   return function(obj)
      return assert(types.check(obj, checker_))
   end
end

api.types = types

-- The sandbox's `adopt` (a read-only view of a checker is a checker), and the engine's
-- `check_declared` (lua/schema.rs).
return function(original, view)
   if getmetatable(original) == Checker then
      views[view] = original
      return true
   end
   return false
end, check_declared
