-- The Lua side of the engine API: the safe standard library every mod sees, and the few
-- helpers that are simpler in Lua than in Rust. Runs once, given the API table, the raw
-- global table, and three Rust functions.
local api, raw, clean_error, emit_print, interrupted, resume = ...

for _, name in ipairs({
   "assert", "error", "getmetatable", "ipairs", "next", "pairs", "rawequal", "rawget",
   "rawlen", "rawset", "select", "setmetatable", "tonumber", "tostring", "type", "_VERSION",
   "string", "table", "math", "utf8",
}) do
   api[name] = raw[name]
end
api.os = { clock = raw.os.clock, date = raw.os.date, time = raw.os.time, difftime = raw.os.difftime }

-- Options that change the collector for everyone are not for mods.
local gc_options = { collect = true, count = true, step = true, isrunning = true }
function api.collectgarbage(option, ...)
   option = option or "collect"
   if not gc_options[option] then
      raw.error(("collectgarbage(%q) is not available: it would change the collector for every mod; "
         .. "use \"collect\", \"count\" or \"step\""):format(raw.tostring(option)), 2)
   end
   return raw.collectgarbage(option, ...)
end

local raw_pcall, raw_xpcall = raw.pcall, raw.xpcall
local select, tostring, concat, error = raw.select, raw.tostring, raw.table.concat, raw.error

-- A script interrupted by the time limit or Stop cannot catch the interruption: whatever
-- caught it raises it again.
local function rethrow(ok, ...)
   if not ok then
      local reason = interrupted()
      if reason then
         error(reason, 0)
      end
   end
   return ok, ...
end

-- Errors raised by the engine arrive as userdata; scripts get the message as a string.
local function finish(ok, ...)
   if ok then
      return true, ...
   end
   return rethrow(false, clean_error((...)))
end

function api.pcall(f, ...)
   return finish(raw_pcall(f, ...))
end

function api.xpcall(f, handler, ...)
   return rethrow(raw_xpcall(f, function(err) return handler(clean_error(err)) end, ...))
end

api.coroutine = {}
for name, f in raw.pairs(raw.coroutine) do
   api.coroutine[name] = f
end
-- Resuming goes through `resume`, so the time limit and Stop reach code in coroutines too.
function api.coroutine.resume(co, ...)
   return rethrow(resume(co, ...))
end
local create, close = raw.coroutine.create, raw.coroutine.close
local function wrapped(co, ok, ...)
   if ok then
      return ...
   end
   close(co)
   error((...), 2)
end
function api.coroutine.wrap(f)
   local co = create(f)
   return function(...)
      return wrapped(co, rethrow(resume(co, ...)))
   end
end

function api.print(...)
   local parts = {}
   for i = 1, select("#", ...) do
      parts[i] = tostring((select(i, ...)))
   end
   emit_print(concat(parts, "\t"))
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
