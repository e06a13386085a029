getmetatable("").__index = {}
