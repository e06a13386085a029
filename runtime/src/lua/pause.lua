-- pause(): the seed's debug breakpoint. Captures the calling function's locals and upvalues,
-- lets the REPL read and assign them while the game is suspended, then writes the assigned
-- ones back (nil and false included) before the paused code continues.
local debug, suspend, api = ...

-- The environment REPL input runs in during a break: the paused function's locals and
-- upvalues first, then the REPL's own globals.
local function frame_env(frame, repl_env)
   return setmetatable({}, {
      __index = function(_, key)
         local slot = frame.slots[key]
         if slot then
            return frame.values[slot]
         end
         return repl_env[key]
      end,
      __newindex = function(_, key, value)
         local slot = frame.slots[key]
         if slot then
            frame.values[slot] = value
            frame.changed[slot] = true
         else
            repl_env[key] = value
         end
      end,
   })
end

-- Pauses the function `level` levels up from here (1 is pause_at itself).
local function pause_at(level)
   local info = debug.getinfo(level, "Slnf")
   if info == nil then
      return
   end
   local frame = { names = {}, values = {}, kinds = {}, indices = {}, changed = {}, slots = {}, count = 0 }
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
      if name:sub(1, 1) ~= "(" then
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
      if name ~= "_ENV" then
         add("upvalue", i, name, value)
      end
      i = i + 1
   end
   local function describe(at)
      if at.name ~= nil then
         return at.name
      end
      return at.what == "main" and "main chunk" or ("function <" .. at.short_src .. ":" .. at.linedefined .. ">")
   end
   -- The stack from the paused function outwards, as "function at file:line".
   local stack = {}
   for l = level, level + 30 do
      local at = debug.getinfo(l, "Sln")
      if at == nil then
         break
      end
      if at.what ~= "C" then
         stack[#stack + 1] = describe(at) .. " at " .. at.short_src .. ":" .. at.currentline
      end
   end
   suspend(frame, frame_env, info.short_src, info.currentline, describe(info), stack)
   for slot = 1, frame.count do
      if frame.changed[slot] then
         if frame.kinds[slot] == "local" then
            debug.setlocal(level, frame.indices[slot], frame.values[slot])
         else
            debug.setupvalue(info.func, frame.indices[slot], frame.values[slot])
         end
      end
   end
end

function api.pause()
   -- Level 3 from pause_at is the function that called pause() (not tail calls: neither
   -- returns anything).
   pause_at(3)
end

-- Pauses the Lua function nearest up the stack, past the C functions between: the line that
-- wrote a watched field, under the engine function it called (`obj:mod`, `obj.hp = ...`).
local function pause_writer()
   local level = 2
   while true do
      local info = debug.getinfo(level, "S")
      if info == nil then
         return
      end
      if info.what ~= "C" then
         break
      end
      level = level + 1
   end
   pause_at(level + 1)
end

return pause_writer
