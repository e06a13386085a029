Save.load_game("/etc/passwd")
