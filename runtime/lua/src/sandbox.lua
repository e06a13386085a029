-- The sandbox every environment reads through (Luau's sandbox is the model): read-only views
-- of the engine's API tables and of the standard library, so no mod, handler or script can
-- change what another one calls. Runs once, after the whole API is installed, given the API
-- table and `adopt(original, proxy)`, told of each table frozen (it answers true for a value
-- whose type owns its proxies, as `types` does its checkers: their proxies print as they do).
-- Returns the read-only API and a function that makes an environment's `load`.
local api, adopt = ...
local next, type, error, tostring, rawset = next, type, error, tostring, rawset
local setmetatable, getmetatable, load = setmetatable, getmetatable, load

-- Read-only proxy -> its dotted name, for messages; weak so proxies of dropped tables go.
local names = setmetatable({}, { __mode = "k" })

local function refuse(proxy, key)
   error(("%s.%s cannot be assigned: the engine's tables are read-only to mods and scripts; "
      .. "keep your own values in your globals or your own tables"):format(names[proxy], tostring(key)), 2)
end

-- A read-only proxy of `original`: reads see it (nested tables as read-only proxies too),
-- writes, rawset and setmetatable are refused. Tables with a metatable of their own (such as
-- `data`, whose __index finds data types) keep it behind the view.
local frozen, views = {}, {}
local function freeze(original, name)
   if frozen[original] then
      return frozen[original]
   end
   local proxy, view = {}, {}
   frozen[original] = proxy
   views[proxy] = view
   names[proxy] = name
   for key, value in next, original do
      if type(value) == "table" then
         view[key] = freeze(value, name .. "." .. tostring(key))
      else
         view[key] = value
      end
   end
   if getmetatable(original) ~= nil then
      setmetatable(view, { __index = original })
   end
   setmetatable(proxy, {
      __index = view,
      __newindex = refuse,
      __metatable = "read-only",
      __pairs = function() return function(_, key) return next(view, key) end, proxy, nil end,
      __len = function() return #view end,
      __tostring = adopt(original, proxy) and getmetatable(original).__tostring or nil,
   })
   return proxy
end

-- `save` stays live: each mod's subtable is its own to change; a whole entry may be replaced
-- by a table (and by nothing else, so every entry stays a table).
local live_save = api.save
api.save = nil
local read_only = freeze(api, "_G")
local save_proxy = setmetatable({}, {
   __index = live_save,
   __newindex = function(_, key, value)
      if type(value) ~= "table" then
         error(("save.%s = %s: each mod's save entry is a table; set its fields instead (save.%s.x = 1)")
            :format(tostring(key), type(value), tostring(key)), 2)
      end
      live_save[key] = value
   end,
   __metatable = "read-only",
   __pairs = function() return next, live_save, nil end,
})
api.save = live_save
views[read_only].save = save_proxy
names[save_proxy] = "save"

-- rawset cannot write into a proxy (it would show to everyone).
local raw_rawset = rawset
views[read_only].rawset = function(t, key, value)
   if names[t] then
      refuse(t, key)
   end
   return raw_rawset(t, key, value)
end

-- The string metatable cannot be reached (`getmetatable("")` answers "string").
getmetatable("").__metatable = "string"

-- Each environment's `load` defaults to that environment (never the API), text chunks only.
local function load_in(env)
   return function(chunk, chunk_name, _mode, chunk_env)
      return load(chunk, chunk_name, "t", chunk_env or env)
   end
end

return read_only, load_in
