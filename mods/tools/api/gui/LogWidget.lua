-- A widget that shows the most recent log lines (Log.info, Log.warn, errors of mod code).

local LogWidget = {}
LogWidget.__index = LogWidget

local COLORS = {
   debug = { 150, 150, 150 },
   info = { 170, 230, 170 },
   warn = { 255, 220, 110 },
   error = { 255, 120, 120 },
}

--- A log widget showing `lines` lines.
function LogWidget.new(lines)
   return setmetatable({ lines = lines or 6, anchor = "top_right", x = 8, y = 8, width = 420, height = (lines or 6) * 16 + 8 }, LogWidget)
end

function LogWidget:draw(d)
   local recent = Log.recent(self.lines)
   if #recent == 0 then
      return
   end
   d:rect(0, 0, self.width, #recent * 16 + 8, { 0, 0, 0, 140 })
   for i, line in ipairs(recent) do
      d:text(6, 4 + (i - 1) * 16, "[" .. line.level .. "] " .. line.text, COLORS[line.level] or COLORS.info, { size = 12 })
   end
end

return LogWidget
