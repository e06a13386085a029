-- The Lua side of the engine API: the safe standard library every mod sees, and the few
-- helpers that are simpler in Lua than in Rust. Runs once, given the API table, the raw
-- global table, and two Rust functions.
local api, raw, clean_error, emit_print = ...

for _, name in ipairs({
   "assert", "error", "getmetatable", "ipairs", "next", "pairs", "rawequal", "rawget",
   "rawlen", "rawset", "select", "setmetatable", "tonumber", "tostring", "type", "_VERSION",
   "string", "table", "math", "utf8", "coroutine", "collectgarbage",
}) do
   api[name] = raw[name]
end
api.os = { clock = raw.os.clock, date = raw.os.date, time = raw.os.time, difftime = raw.os.difftime }
api._G = api

local raw_pcall, raw_xpcall, raw_load = raw.pcall, raw.xpcall, raw.load
local select, tostring, concat = raw.select, raw.tostring, raw.table.concat

-- Errors raised by the engine arrive as userdata; scripts get the message as a string.
local function finish(ok, ...)
   if ok then
      return true, ...
   end
   return false, clean_error((...))
end

function api.pcall(f, ...)
   return finish(raw_pcall(f, ...))
end

function api.xpcall(f, handler, ...)
   return raw_xpcall(f, function(err) return handler(clean_error(err)) end, ...)
end

function api.print(...)
   local parts = {}
   for i = 1, select("#", ...) do
      parts[i] = tostring((select(i, ...)))
   end
   emit_print(concat(parts, "\t"))
end

-- Text chunks only (binary chunks can crash the interpreter); the default environment is
-- the API, never the raw globals.
function api.load(chunk, name, _mode, env)
   return raw_load(chunk, name, "t", env or api)
end

-- An iterator over two parallel sequences: for key, value in pairs_of(keys, values) do.
local function pairs_of(keys, values)
   local i = 0
   return function()
      i = i + 1
      local key = keys[i]
      if key ~= nil then
         return key, values[i]
      end
   end
end

return pairs_of
