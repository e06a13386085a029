string.find(("a"):rep(30000), "a*a*a*a*a*b")
