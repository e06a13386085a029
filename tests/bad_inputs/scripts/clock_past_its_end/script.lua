World.pass_time(math.maxinteger)
World.pass_time(math.maxinteger)
