Save.save_game("../escape")
