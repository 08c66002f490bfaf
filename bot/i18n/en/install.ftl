# The app installed to a person's account: games in group DMs, commands that need a server.
error--needs_server = This needs a server that added the bot: tournaments, leagues and server settings live there. Games work anywhere: try `/game new`.
install--turn_shown = 👉 It is your turn in game #{ $id }. The board is in your group chat; press one of its buttons or type `/play` there.
install--turn_waiting = 👉 It is your turn in game #{ $id }. Press any button of the game in your group chat, or type `/play` there: the new board comes with it.
