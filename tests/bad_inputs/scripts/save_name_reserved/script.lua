Save.save_game("aux.txt")
