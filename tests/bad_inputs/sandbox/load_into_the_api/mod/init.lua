load("Event.register = nil")()
