-- pause(): the seed's debug breakpoint. Captures the Lua frames on the stack (the paused
-- function first) with their locals and upvalues, lets the REPL and a debug adapter read and
-- assign them while the game is suspended, then writes the assigned ones back (nil and false
-- included) before the paused code continues. Line breakpoints and steps pause the same way
-- (from the debugger's hook, `lua/debugger.rs`), and evaluate their conditions and log
-- messages among the locals of the line they stopped on.
local debug, suspend, api, resume, pauses_for_error = ...

-- The environment code runs in among a frame's variables: its locals and upvalues first,
-- then `fallback` (the REPL's globals).
local function frame_env(frame, fallback)
   return setmetatable({}, {
      __index = function(_, key)
         local slot = frame.slots[key]
         if slot then
            return frame.values[slot]
         end
         return fallback[key]
      end,
      __newindex = function(_, key, value)
         local slot = frame.slots[key]
         if slot then
            frame.values[slot] = value
            frame.changed[slot] = true
         else
            fallback[key] = value
         end
      end,
   })
end

local function describe(at)
   if at.name ~= nil then
      return at.name
   end
   return at.what == "main" and "main chunk" or ("function <" .. at.short_src .. ":" .. at.linedefined .. ">")
end

-- The Lua function `level` levels up from the caller of capture, with its locals and
-- upvalues in slots (and where it is), or nil past the top of the stack.
local function capture(level)
   level = level + 1
   local info = debug.getinfo(level, "Slnf")
   if info == nil then
      return nil
   end
   local frame = {
      names = {}, values = {}, kinds = {}, indices = {}, changed = {}, slots = {}, count = 0,
      level = level - 1, func = info.func, what = info.what,
      ["function"] = describe(info), file = info.short_src, source = info.source, line = info.currentline,
   }
   if info.what == "C" then
      return frame
   end
   local function add(kind, index, name, value)
      frame.count = frame.count + 1
      local slot = frame.count
      frame.names[slot], frame.values[slot], frame.kinds[slot], frame.indices[slot] = name, value, kind, index
      -- A later local of the same name shadows an earlier one, and locals shadow upvalues.
      if kind == "local" or frame.slots[name] == nil then
         frame.slots[name] = slot
      end
   end
   local i = 1
   while true do
      local name, value = debug.getlocal(level, i)
      if name == nil then
         break
      end
      -- The debugger's probe (a file loaded with breakpoints keeps it in a local) is not the
      -- code's.
      if name:sub(1, 1) ~= "(" and name ~= "__nefia_probe" then
         add("local", i, name, value)
      end
      i = i + 1
   end
   i = 1
   while true do
      local name, value = debug.getupvalue(info.func, i)
      if name == nil then
         break
      end
      if name == "_ENV" then
         frame.globals = value
      elseif name ~= "__nefia_probe" then
         add("upvalue", i, name, value)
      end
      i = i + 1
   end
   return frame
end

-- How many frames a break keeps, from the paused one outwards.
local MAX_FRAMES = 32

-- Pauses the function `level` levels up from here (1 is pause_at itself), for `cause`
-- (nil: pause()).
local function pause_at(level, cause)
   local frames = {}
   for l = level, level + MAX_FRAMES * 2 do
      -- capture's levels count from its caller, this function.
      local frame = capture(l)
      if frame == nil or #frames >= MAX_FRAMES then
         break
      end
      if frame.what ~= "C" then
         frames[#frames + 1] = frame
      end
   end
   if frames[1] == nil then
      return
   end
   suspend(frames, frame_env, cause)
   for _, frame in ipairs(frames) do
      for slot = 1, frame.count do
         if frame.changed[slot] then
            if frame.kinds[slot] == "local" then
               debug.setlocal(frame.level, frame.indices[slot], frame.values[slot])
            else
               debug.setupvalue(frame.func, frame.indices[slot], frame.values[slot])
            end
         end
      end
   end
end

function api.pause()
   -- Level 3 from pause_at is the function that called pause() (not tail calls: neither
   -- returns anything).
   pause_at(3)
end

-- The level (from the caller of nearest_lua) of the Lua function nearest up the stack, past
-- the C functions between: the line that wrote a watched field, under the engine function it
-- called (`obj:mod`, `obj.hp = ...`), the line the debugger's hook stopped on, under the
-- hook's own function, or the line that raised an error, under its message handler. The
-- engine's own Lua (chunks named `=nefia ...`) is passed over too.
local function nearest_lua()
   local level = 3
   while true do
      local info = debug.getinfo(level, "S")
      if info == nil then
         return nil
      end
      if info.what ~= "C" and info.source:sub(1, 6) ~= "=nefia" then
         return level - 1
      end
      level = level + 1
   end
end

local breaks = {}

-- Pauses the Lua function nearest up the stack for `cause` (nil: a watch).
function breaks.pause(cause)
   local level = nearest_lua()
   if level ~= nil then
      pause_at(level + 1, cause)
   end
end

-- Evaluates the expression `code` among the variables of the Lua function nearest up the
-- stack (a breakpoint's condition, a log message's `{...}`), in a coroutine so the limits
-- reach it: true and its value, or false and the error.
function breaks.evaluate(code, fallback)
   local level = nearest_lua()
   local frame = level and capture(level)
   if frame == nil then
      return false, "no Lua function is running"
   end
   local chunk, problem = load("return " .. code, "=condition", "t", frame_env(frame, fallback))
   if chunk == nil then
      return false, problem
   end
   return resume(coroutine.create(chunk))
end

-- The message handler of calls that stop on errors: pauses the line that raised `err` (once
-- per error, when the debugger asks for it: `pauses_for_error`), then lets it go on.
function breaks.on_error(err)
   if pauses_for_error(err) then
      local level = nearest_lua()
      if level ~= nil then
         pause_at(level + 1, "exception")
      end
   end
   return err
end

-- Calls `f` with the arguments, pausing where an error is raised before it goes on up.
local function rethrow(ok, ...)
   if not ok then
      error((...), 0)
   end
   return ...
end
function breaks.call(f, ...)
   return rethrow(xpcall(f, breaks.on_error, ...))
end

-- Errors a mod catches with pcall or xpcall pause too while `catching` is set.
local catching = false
function breaks.set_catching(on)
   catching = on
end
local plain_pcall, plain_xpcall = api.pcall, api.xpcall
function api.pcall(f, ...)
   if catching then
      return plain_xpcall(f, breaks.on_error, ...)
   end
   return plain_pcall(f, ...)
end
function api.xpcall(f, handler, ...)
   if catching then
      return plain_xpcall(f, function(err)
         breaks.on_error(err)
         return handler(err)
      end, ...)
   end
   return plain_xpcall(f, handler, ...)
end

-- Runs `f` in a coroutine of its own (REPL input while a break the hook made waits: the hook's
-- own thread takes no hooks, a new coroutine does): true and its results, or false and the
-- error.
function breaks.run(f)
   return resume(coroutine.create(f))
end

return breaks
