setmetatable(Map, {})
