-- OpenNefia's Object (api/Object.lua), the API's `Object`: plain objects made from a
-- prototype of any data type, such as an activity, which are not map objects (they have no
-- uid and no location, and MapObject.is_map_object says false). Runs once, given the API table.
--
-- `Object.make_prototype(obj)` is a deep copy of `obj`'s fields without its `_ext` (cycles and
-- metatables kept, classes left out), with its `_type` and `_id`. `Object.generate_from(type,
-- id)` is such a copy of prototype `id` of data type `type`, reading the prototype for fields
-- it does not have (`obj.proto` is the prototype); an unknown type or id is an error naming it.
local api = ...

local Object = {}

-- Fields OpenNefia leaves out of a copy.
local NO_COPY = { _ext = true }

local function copy(value, seen)
   if type(value) ~= "table" then
      return value
   end
   if rawget(value, "__class") ~= nil then
      return nil
   end
   -- Checkers are values that never change: shared, they stay checkers.
   if api.types.is_type_checker(value) then
      return value
   end
   if seen[value] then
      return seen[value]
   end
   local result = {}
   seen[value] = result
   for k, v in pairs(value) do
      if not NO_COPY[k] then
         result[copy(k, seen)] = copy(v, seen)
      end
   end
   -- As OpenNefia's copy, a table keeps its metatable.
   local meta = getmetatable(value)
   if type(meta) == "table" then
      setmetatable(result, meta)
   end
   return result
end

function Object.make_prototype(obj)
   local _type, _id = obj._type, obj._id
   if _type == nil or _id == nil then
      error("Object.make_prototype: the object has no _type and _id; give it a prototype or a map object", 2)
   end
   local result = copy(obj, {})
   result._type, result._id = _type, _id
   return result
end

function Object.generate_from(_type, id)
   local proto = api.data[_type]:ensure(id)
   local obj = Object.make_prototype(proto)
   return setmetatable(obj, {
      __index = function(_, key)
         if key == "proto" then
            return proto
         end
         return proto[key]
      end,
   })
end

api.Object = Object
