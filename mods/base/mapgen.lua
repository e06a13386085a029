--- Building blocks for map generators (`base.map_generator`), on a map filled with walls:
--- `local Gen = require("mod.base.mapgen")`. Each takes the `rng` the generator was given,
--- so the same seed gives the same map. Cells are {x, y} pairs; a room is {x, y, w, h}.
local Gen = {}

--- A table telling whether each tile id is solid, looked up once per id. It holds what the
--- tiles were when it was made: make one per pass over a map (a hotload may change a tile).
function Gen.solid_tiles()
   return setmetatable({}, {
      __index = function(known, tile)
         local entry = data["base.map_tile"][tile]
         local is_solid = entry == nil or entry.is_solid == true
         known[tile] = is_solid
         return is_solid
      end,
   })
end

--- True if (x, y) can be walked on (its tile is not solid). `solid` is a
--- `Gen.solid_tiles()` table when the caller checks many cells.
function Gen.is_floor(map, x, y, solid)
   local tile = map:tile(x, y)
   return tile ~= nil and not (solid or Gen.solid_tiles())[tile]
end

--- Fills the rectangle {x, y, w, h} with `tile`.
function Gen.fill(map, room, tile)
   for x = room[1], room[1] + room[3] - 1 do
      for y = room[2], room[2] + room[4] - 1 do
         map:set_tile(x, y, tile)
      end
   end
end

--- Rooms and corridors by binary space partition: the map (less a border of 1) is split
--- in two, at random, until the parts are smaller than `max_leaf`; each part gets a room,
--- and the two halves of every split are joined by an L-shaped corridor. Returns the rooms
--- and the corridors' cells where they leave a room (where doors go).
function Gen.bsp_rooms(map, rng, opts)
   opts = opts or {}
   local floor = opts.floor or "base.floor"
   local min_room, max_leaf = opts.min_room or 4, opts.max_leaf or 16
   local rooms, doors, solid = {}, {}, Gen.solid_tiles()
   local function center(room)
      return room[1] + room[3] // 2, room[2] + room[4] // 2
   end
   local function corridor(a, b)
      local ax, ay = center(a)
      local bx, by = center(b)
      local x, y = ax, ay
      local was_floor = true
      local function step()
         local inside = Gen.is_floor(map, x, y, solid)
         if not inside and was_floor then
            doors[#doors + 1] = { x, y }
         end
         map:set_tile(x, y, floor)
         was_floor = inside
      end
      while x ~= bx do
         step()
         x = x + (bx > x and 1 or -1)
      end
      while y ~= by do
         step()
         y = y + (by > y and 1 or -1)
      end
   end
   -- Returns a room of the part {x, y, w, h}, split or not.
   local function split(part)
      local x, y, w, h = part[1], part[2], part[3], part[4]
      local can_w, can_h = w > max_leaf, h > max_leaf
      if not can_w and not can_h then
         local rw = rng:random(math.min(min_room, w - 2), math.max(min_room, w - 2))
         local rh = rng:random(math.min(min_room, h - 2), math.max(min_room, h - 2))
         local room = { x + rng:random(1, math.max(1, w - rw - 1)), y + rng:random(1, math.max(1, h - rh - 1)), rw, rh }
         Gen.fill(map, room, floor)
         rooms[#rooms + 1] = room
         return room
      end
      local vertical = can_w and (not can_h or rng:random(2) == 1)
      local a, b
      if vertical then
         local cut = rng:random(w // 3, w - w // 3)
         a, b = split({ x, y, cut, h }), split({ x + cut, y, w - cut, h })
      else
         local cut = rng:random(h // 3, h - h // 3)
         a, b = split({ x, y, w, cut }), split({ x, y + cut, w, h - cut })
      end
      corridor(a, b)
      return rng:random(2) == 1 and a or b
   end
   split({ 1, 1, map.width - 2, map.height - 2 })
   return rooms, doors
end

--- A cave by cellular automaton: each inner cell starts open with chance `fill`, then
--- `steps` times a cell becomes wall when 5 or more of its 8 neighbours are walls. Returns
--- its open cells as `Gen.floor_grid` would (to pass on to the blocks that take a grid).
function Gen.cave(map, rng, opts)
   opts = opts or {}
   local floor, wall = opts.floor or "base.floor", opts.wall or "base.wall"
   local fill, steps = opts.fill or 0.45, opts.steps or 4
   local w, h = map.width, map.height
   -- open[y * w + x]: true for open cells; the border stays wall.
   local open = {}
   for y = 1, h - 2 do
      for x = 1, w - 2 do
         open[y * w + x] = rng:random() > fill
      end
   end
   for _ = 1, steps do
      local next_open = {}
      for y = 1, h - 2 do
         for x = 1, w - 2 do
            local i = y * w + x
            local up, down = i - w, i + w
            local opened = (open[up - 1] and 1 or 0) + (open[up] and 1 or 0) + (open[up + 1] and 1 or 0)
               + (open[i - 1] and 1 or 0) + (open[i + 1] and 1 or 0)
               + (open[down - 1] and 1 or 0) + (open[down] and 1 or 0) + (open[down + 1] and 1 or 0)
            -- Fewer than 5 of the 8 neighbours are walls.
            next_open[i] = opened > 3
         end
      end
      open = next_open
   end
   local grid = {}
   for y = 1, h - 2 do
      for x = 1, w - 2 do
         local i = y * w + x
         map:set_tile(x, y, open[i] and floor or wall)
         grid[i] = open[i] or nil
      end
   end
   return grid
end

--- The walkable cells of the map as a set keyed by `y * width + x`.
function Gen.floor_grid(map)
   local grid, w, solid = {}, map.width, Gen.solid_tiles()
   for y = 0, map.height - 1 do
      for x = 0, w - 1 do
         if Gen.is_floor(map, x, y, solid) then
            grid[y * w + x] = true
         end
      end
   end
   return grid
end

--- The walkable cells reachable from (x, y), as distances in steps (8 directions) keyed by
--- `y * width + x`; `grid` is `Gen.floor_grid(map)` if the caller has it.
function Gen.reachable(map, x, y, grid)
   grid = grid or Gen.floor_grid(map)
   local w = map.width
   local start = y * w + x
   local seen, queue, head = { [start] = 0 }, { start }, 1
   while head <= #queue do
      local i = queue[head]
      head = head + 1
      local d, cx = seen[i] + 1, i % w
      for dx = -1, 1 do
         local nx = cx + dx
         if nx >= 0 and nx < w then
            for dy = -w, w, w do
               local n = i + dy + dx
               if seen[n] == nil and grid[n] then
                  seen[n] = d
                  queue[#queue + 1] = n
               end
            end
         end
      end
   end
   return seen
end

--- Joins every open region to the largest by digging straight tunnels, so every walkable
--- cell can be reached from every other. `opts.grid` is the map's floor grid if the caller
--- has it (it is kept up to date); returns the grid.
function Gen.connect_regions(map, rng, opts)
   local floor = (opts and opts.floor) or "base.floor"
   local regions, owner = {}, {}
   local grid = (opts and opts.grid) or Gen.floor_grid(map)
   for y = 1, map.height - 2 do
      for x = 1, map.width - 2 do
         local key = y * map.width + x
         if owner[key] == nil and grid[key] then
            local region = { cells = {} }
            for cell in pairs(Gen.reachable(map, x, y, grid)) do
               owner[cell] = region
               region.cells[#region.cells + 1] = cell
            end
            table.sort(region.cells)
            regions[#regions + 1] = region
         end
      end
   end
   table.sort(regions, function(a, b) return #a.cells > #b.cells end)
   local main = regions[1]
   for i = 2, #regions do
      local from = regions[i].cells[rng:random(#regions[i].cells)]
      local to = main.cells[rng:random(#main.cells)]
      local x, y = from % map.width, from // map.width
      local tx, ty = to % map.width, to // map.width
      while x ~= tx or y ~= ty do
         if x ~= tx and (y == ty or rng:random(2) == 1) then
            x = x + (tx > x and 1 or -1)
         else
            y = y + (ty > y and 1 or -1)
         end
         map:set_tile(x, y, floor)
         grid[y * map.width + x] = true
      end
   end
   return grid
end

--- Puts the entrance on a random walkable cell and `stairs` (a feat id) on the walkable
--- cell reachable from it that is farthest away; `grid` is the map's floor grid if the
--- caller has it. Returns the stairs' cell.
function Gen.place_stairs_far_apart(map, rng, stairs, grid)
   local open = {}
   grid = grid or Gen.floor_grid(map)
   for y = 1, map.height - 2 do
      for x = 1, map.width - 2 do
         if grid[y * map.width + x] then
            open[#open + 1] = { x, y }
         end
      end
   end
   if #open == 0 then
      error("place_stairs_far_apart: the map has no walkable cell to put the entrance on", 2)
   end
   local start = open[rng:random(#open)]
   map.entrance = start
   local far, farthest = start, -1
   local distances = Gen.reachable(map, start[1], start[2], grid)
   for _, cell in ipairs(open) do
      local d = distances[cell[2] * map.width + cell[1]]
      if d ~= nil and d > farthest then
         far, farthest = cell, d
      end
   end
   if stairs ~= nil then
      Feat.create(stairs, far[1], far[2], {}, map)
   end
   return far
end

--- Creates `count` objects on random walkable cells that hold nothing yet (not on the stairs),
--- each picked from `weights` (a list of { id, weight, kind }, kind "chara", "item" or
--- "feat") by weight.
function Gen.scatter(map, rng, weights, count)
   local total = 0
   for _, entry in ipairs(weights) do
      total = total + entry[2]
   end
   local api = { chara = Chara, item = Item, feat = Feat }
   for _ = 1, count do
      local pick = rng:random() * total
      local chosen = weights[#weights]
      for _, entry in ipairs(weights) do
         pick = pick - entry[2]
         if pick <= 0 then
            chosen = entry
            break
         end
      end
      for _ = 1, 20 do
         local x, y = rng:random(1, map.width - 2), rng:random(1, map.height - 2)
         local free = true
         for _ in map:objects_at_pos(x, y) do
            free = false
         end
         if free and map:can_access(x, y) then
            api[chosen[3] or "chara"].create(chosen[1], x, y, {}, map)
            break
         end
      end
   end
end

return Gen
