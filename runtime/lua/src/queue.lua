-- OpenNefia's Queue (api/Queue.lua), the API's `Queue`: `Queue:new()`, `q:push(value)`,
-- `q:pop()`, `q:clear()` and `q:len()`. As OpenNefia's, a queue is two stacks: `push` puts a
-- value on the pushed stack; `pop` first moves everything pushed onto the waiting stack
-- (the newest pushed lowest), then takes the top of it. So values pushed together come out
-- first in first out, and a value pushed after a `pop` comes out before the older ones still
-- waiting, as it does in OpenNefia. Runs once, given the API table.
local api = ...

local Queue = {}
local Instance = { __index = Queue, __metatable = "Queue" }

-- (Mods reach `Queue` through the API's read-only view, so `self` is not compared.)
function Queue.new()
   return setmetatable({ waiting = {}, pushed = {} }, Instance)
end

function Queue:push(value)
   self.pushed[#self.pushed + 1] = value
end

function Queue:pop()
   local waiting, pushed = self.waiting, self.pushed
   for i = #pushed, 1, -1 do
      waiting[#waiting + 1] = pushed[i]
      pushed[i] = nil
   end
   local top = waiting[#waiting]
   waiting[#waiting] = nil
   return top
end

function Queue:clear()
   self.waiting, self.pushed = {}, {}
end

function Queue:len()
   return #self.waiting + #self.pushed
end

api.Queue = Queue
