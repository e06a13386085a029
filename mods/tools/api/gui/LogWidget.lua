-- A widget that shows the most recent log lines (Log.info, Log.warn, errors of mod code) for
-- a few seconds each: a line fades out `keep` seconds after it was logged, at most `rows`
-- rows show, and a multi-line text (a traceback) takes as many rows as it has lines. The
-- editor hides it while editing unless the user turns it on (show_while_editing).

local LogWidget = {}
LogWidget.__index = LogWidget

local COLORS = {
   debug = { 150, 150, 150 },
   info = { 170, 230, 170 },
   warn = { 255, 220, 110 },
   error = { 255, 120, 120 },
}

local ROW = 16
local FADE = 1 -- seconds of fading at the end of a line's time

--- A log widget showing up to `rows` rows, each line for `keep` seconds.
function LogWidget.new(rows, keep)
   rows = rows or 6
   return setmetatable({
      rows = rows,
      keep = keep or 6,
      anchor = "top_right",
      x = 8,
      y = 8,
      width = 420,
      height = rows * ROW + 8,
      show_while_editing = false,
      -- Seconds since each shown line (by Log.recent id) was logged.
      ages = {},
      newest = 0,
   }, LogWidget)
end

--- Ages the lines shown; true while any is still showing (so the HUD keeps redrawing until
--- the last one has faded).
function LogWidget:update(dt)
   for _, line in ipairs(Log.recent(self.rows)) do
      if line.id > self.newest then
         self.ages[line.id] = 0
         self.newest = line.id
      end
   end
   local showing = false
   for id, age in pairs(self.ages) do
      if age + dt > self.keep then
         self.ages[id] = nil
      else
         self.ages[id] = age + dt
         showing = true
      end
   end
   return showing
end

--- The rows to draw, newest last: each { text, color, alpha }.
function LogWidget:visible_rows()
   local rows = {}
   local recent = Log.recent(self.rows)
   for i = #recent, 1, -1 do
      local line = recent[i]
      local age = self.ages[line.id]
      if age ~= nil then
         local alpha = math.min(1, (self.keep - age) / FADE)
         local parts = {}
         for part in (("[" .. line.level .. "] " .. line.text) .. "\n"):gmatch("(.-)\n") do
            parts[#parts + 1] = part
         end
         for j = #parts, 1, -1 do
            if #rows == self.rows then
               break
            end
            table.insert(rows, 1, { text = parts[j], color = COLORS[line.level] or COLORS.info, alpha = alpha })
         end
      end
   end
   return rows
end

function LogWidget:draw(d)
   local rows = self:visible_rows()
   if #rows == 0 then
      return
   end
   d:rect(0, 0, self.width, #rows * ROW + 8, { 0, 0, 0, 140 })
   for i, row in ipairs(rows) do
      d:text(6, 4 + (i - 1) * ROW, row.text, row.color, { size = 12, alpha = row.alpha })
   end
end

return LogWidget
