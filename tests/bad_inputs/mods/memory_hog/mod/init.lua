local chunk = ("x"):rep(2^24)
local t = {}
for i = 1, 1e9 do t[i] = chunk .. i end
