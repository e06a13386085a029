collectgarbage("stop")
