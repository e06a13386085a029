-- `class`: OpenNefia's small object system, which its UI layers and content are written with
-- (`class.class`, `class.interface`, `class.is_an`, ...). Runs once, given the API table.
--
-- An interface has a name, required fields (`reqs`: a type name, or `{ default = v,
-- optional = bool }`), parent interfaces and methods (`function IFoo:bar() end`). A class
-- has a name and interfaces; `Klass:new(...)` makes an instance, calls `init` and checks that
-- the instance has what each interface requires. An instance finds a method in its class
-- first, then in its interfaces and their parents, looked up when called, so a method added
-- to an interface later (a hotload) reaches instances made before. `delegate(field, names)`
-- forwards methods to the object in a field, as OpenNefia's does.
local api = ...

local class = {}
local classes = setmetatable({}, { __mode = "k" })
local interfaces = setmetatable({}, { __mode = "k" })

local function name_of(kind)
   return type(kind) == "table" and rawget(kind, "__name") or tostring(kind)
end

-- The method `key` of interface `iface` or of one of its parents.
local function method_of(iface, key)
   local found = rawget(iface, "methods")[key]
   if found ~= nil then
      return found
   end
   for _, parent in ipairs(rawget(iface, "__parents")) do
      found = method_of(parent, key)
      if found ~= nil then
         return found
      end
   end
   return nil
end

-- Every field `iface` and its parents require, the nearer one winning.
local function requirements(iface, into)
   for _, parent in ipairs(iface.__parents) do
      requirements(parent, into)
   end
   for field, kind in pairs(iface.reqs) do
      into[field] = kind
   end
   return into
end

-- Whether `instance` has what `iface` requires; if not, false and the fields missing. With
-- `fill`, a missing field with a default gets it (as a new instance does).
local function verify(instance, iface, fill)
   local missing = nil
   for field, kind in pairs(requirements(iface, {})) do
      local wanted, optional = kind, false
      if type(kind) == "table" then
         if fill and instance[field] == nil then
            instance[field] = kind.default
         end
         wanted, optional = type(kind.default), kind.optional
      end
      local value = rawget(instance, field)
      if value == nil then
         value = instance[field]
      end
      if type(value) ~= wanted and not optional then
         missing = (missing or "") .. ("\n    %s (%s)"):format(field, wanted)
      end
   end
   return missing == nil, missing
end

-- Forwards the methods `names` (a name, a list of names, or an interface: its methods) of
-- `into`'s objects to the object in their field `field`.
local function delegate(into, owner, field, names)
   if type(field) ~= "string" then
      error(("%s.delegate: the field is a name such as \"inv\", not a %s"):format(owner, type(field)), 3)
   end
   local list = names
   if type(names) == "string" then
      list = { names }
   elseif interfaces[names] then
      list = {}
      local function collect(iface)
         for key in pairs(rawget(iface, "methods")) do
            list[#list + 1] = key
         end
         for _, parent in ipairs(rawget(iface, "__parents")) do
            collect(parent)
         end
      end
      collect(names)
   elseif type(names) ~= "table" or classes[names] then
      error(("%s.delegate: name the methods (a name, a list of names or an interface), not %s"):format(owner, tostring(names)), 3)
   end
   for _, key in ipairs(list) do
      into[key] = function(self, ...)
         local target = self[field]
         if target == nil then
            error(("%s:%s() forwards to the field '%s', which is nil"):format(owner, key, field), 2)
         end
         return target[key](target, ...)
      end
   end
end

-- Raises the error a maker (`class.interface`, `class.class`) gives for a name that is not a
-- string.
local function check_name(maker, name, example)
   if type(name) ~= "string" then
      error(("class.%s: the name is a string such as \"%s\", not a %s"):format(maker, example, type(name)), 3)
   end
end

-- `given` (nil, one interface, or a list of them) as a list, every entry checked: what
-- `maker` calls `role` (the parents, the interfaces) of `name`.
local function interface_list(maker, role, name, given)
   if interfaces[given] then
      given = { given }
   end
   local list = {}
   for n, iface in ipairs(given or {}) do
      if not interfaces[iface] then
         error(("class.%s: %s %d of %s is not an interface but %s"):format(maker, role, n, name, tostring(iface)), 3)
      end
      list[n] = iface
   end
   return list
end

local interface_meta = {
   __index = function(iface, key)
      return method_of(iface, key)
   end,
   __newindex = function(iface, key, value)
      if type(value) == "function" then
         rawget(iface, "methods")[key] = value
      else
         rawset(iface, key, value)
      end
   end,
   __tostring = function(iface)
      return ("Interface '%s'"):format(rawget(iface, "__name"))
   end,
}

--- An interface named `name`, requiring the fields `reqs`, with the parent interfaces
--- `parents` (one, or a list).
function class.interface(name, reqs, parents)
   check_name("interface", name, "IMyLayer")
   if reqs ~= nil and type(reqs) ~= "table" then
      error(("class.interface: %s's required fields are a table such as { x = \"number\" }, not a %s"):format(name, type(reqs)), 2)
   end
   local iface = {
      __name = name,
      reqs = reqs or {},
      methods = {},
      __parents = interface_list("interface", "parent", name, parents),
   }
   iface.delegate = function(self, field, names)
      delegate(rawget(self, "methods"), name, field, names)
   end
   interfaces[iface] = true
   return setmetatable(iface, interface_meta)
end

local class_meta = {
   __tostring = function(klass)
      return ("Class '%s'"):format(rawget(klass, "__name"))
   end,
}

--- A class named `name` implementing the interfaces `ifaces` (one, or a list). `opts` is
--- accepted for OpenNefia's code and not used.
function class.class(name, ifaces, opts)
   check_name("class", name, "MyLayer")
   if opts ~= nil and type(opts) ~= "table" then
      error(("class.class: %s's options are a table, not a %s"):format(name, type(opts)), 2)
   end
   local list = interface_list("class", "interface", name, ifaces)
   local klass = { __name = name, __interfaces = list }
   klass.__index = function(_, key)
      local found = rawget(klass, key)
      if found ~= nil then
         return found
      end
      for _, iface in ipairs(list) do
         found = method_of(iface, key)
         if found ~= nil then
            return found
         end
      end
      return nil
   end
   klass.__tostring = function()
      return ("instance of '%s'"):format(name)
   end
   klass.delegate = function(_, field, names)
      delegate(klass, name, field, names)
   end
   klass.new = function(self, ...)
      if self ~= klass then
         error(("%s.new: call it with a colon, %s:new(...)"):format(name, name), 2)
      end
      local instance = setmetatable({ __class = klass }, klass)
      local init = rawget(klass, "init")
      if init ~= nil then
         init(instance, ...)
      end
      for _, iface in ipairs(list) do
         local ok, missing = verify(instance, iface, true)
         if not ok then
            error(("%s:new(): the instance lacks what %s requires:%s"):format(name, tostring(iface), missing), 2)
         end
      end
      return instance
   end
   classes[klass] = true
   return setmetatable(klass, class_meta)
end

--- True if `klass_or_iface` is `iface`, or a class or interface built on it.
function class.implements(iface, klass_or_iface)
   if not interfaces[iface] then
      return false
   end
   if classes[klass_or_iface] then
      for _, own in ipairs(rawget(klass_or_iface, "__interfaces")) do
         if class.implements(iface, own) then
            return true
         end
      end
   elseif interfaces[klass_or_iface] then
      if klass_or_iface == iface then
         return true
      end
      for _, parent in ipairs(rawget(klass_or_iface, "__parents")) do
         if class.implements(iface, parent) then
            return true
         end
      end
   end
   return false
end

-- True if `kind` is the engine's `InstancedMap` (as mods see it, through the API's read-only
-- view: told by its `new`), whose instances are map handles, not instances of a class.
local function is_map_module(kind)
   local found, new = pcall(function() return kind.new end)
   return found and new ~= nil and new == api.InstancedMap.new
end

--- Whether `obj` is an instance of class `kind`, or is of interface `kind`: its class
--- implements it, or (for an interface that requires fields) it has them all. As in
--- OpenNefia, `class.is_an(InstancedMap, map)` is true of a map.
function class.is_an(kind, obj)
   if not classes[kind] and not interfaces[kind] and is_map_module(kind) then
      return getmetatable(obj) == "map"
   end
   if not classes[kind] and not interfaces[kind] then
      error(("class.is_an: the first argument is a class or an interface, not %s"):format(tostring(kind)), 2)
   end
   if type(obj) ~= "table" then
      return false
   end
   local own = rawget(obj, "__class")
   if classes[kind] then
      return own == kind
   end
   if own ~= nil and class.implements(kind, own) then
      return true
   end
   return next(requirements(kind, {})) ~= nil and (verify(obj, kind, false))
end

--- As `is_an`, raising an error that says what is missing.
function class.assert_is_an(kind, obj)
   if class.is_an(kind, obj) then
      return
   end
   local why = ("a %s"):format(type(obj))
   if type(obj) == "table" and interfaces[kind] then
      local _, missing = verify(obj, kind, false)
      why = missing and ("it lacks" .. missing) or why
   elseif type(obj) == "table" and rawget(obj, "__class") then
      why = ("an instance of '%s'"):format(name_of(rawget(obj, "__class")))
   end
   error(("%s is not an instance of %s: %s"):format(tostring(obj), tostring(kind), why), 2)
end

--- Whether the interfaces `klass_or_iface` names itself (not through parents) include `iface`.
function class.uses_interface(klass_or_iface, iface)
   local list = interfaces[klass_or_iface] and rawget(klass_or_iface, "__parents")
      or classes[klass_or_iface] and rawget(klass_or_iface, "__interfaces")
      or {}
   for _, own in ipairs(list) do
      if own == iface then
         return true
      end
   end
   return false
end

--- Whether `value` is a class made by `class.class`.
function class.is_class(value)
   return classes[value] == true
end

--- Whether `value` is an interface made by `class.interface`.
function class.is_interface(value)
   return interfaces[value] == true
end

--- Whether `value` is an instance of a class made by `class.class`.
function class.is_class_instance(value)
   return type(value) == "table" and classes[rawget(value, "__class")] == true
end

api.class = class
