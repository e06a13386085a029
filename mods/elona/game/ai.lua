-- What characters other than the player do on their turn: hostile ones that see the player
-- come for it and attack when next to it; the rest wander.
local AI = {}

local NEIGHBOURS = { { -1, -1 }, { 0, -1 }, { 1, -1 }, { -1, 0 }, { 1, 0 }, { -1, 1 }, { 0, 1 }, { 1, 1 } }

local function distance(ax, ay, bx, by)
   return math.max(math.abs(ax - bx), math.abs(ay - by))
end

--- The open neighbouring cell of (x, y) closest to (tx, ty), if one is closer than (x, y).
local function step_towards(map, x, y, tx, ty)
   local best, best_x, best_y = distance(x, y, tx, ty), nil, nil
   for _, d in ipairs(NEIGHBOURS) do
      local nx, ny = x + d[1], y + d[2]
      local nd = distance(nx, ny, tx, ty)
      if nd < best and map:can_access(nx, ny) then
         best, best_x, best_y = nd, nx, ny
      end
   end
   return best_x, best_y
end

--- `chara` acts once on `map`, where `player` is.
function AI.act(chara, player, map, rules)
   local x, y = chara.x, chara.y
   if rules.is_hostile(chara) then
      local d = distance(x, y, player.x, player.y)
      if d <= 1 then
         rules.attack(chara, player)
         return
      end
      -- It sees the player when the player sees it (sight is symmetric) and it is near enough.
      if map:is_in_fov(x, y) and d <= chara:calc("fov") then
         local nx, ny = step_towards(map, x, y, player.x, player.y)
         if nx ~= nil then
            chara:set_pos(nx, ny)
         end
         return
      end
   end
   if math.random(2) == 1 then
      local d = NEIGHBOURS[math.random(#NEIGHBOURS)]
      if map:can_access(x + d[1], y + d[2]) then
         chara:set_pos(x + d[1], y + d[2])
      end
   end
end

return AI
