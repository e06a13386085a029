rawset(string, "upper", function() return "x" end)
