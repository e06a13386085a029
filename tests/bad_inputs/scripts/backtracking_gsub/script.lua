local s = ("a"):rep(30000):gsub("a*a*a*a*b", "")
