rawset(getmetatable(_G).__index, "print", nil)
