# The table as a Discord Activity (bot/web/activity.py): its page and its refusals.
web--activity_opening = Opening the table…
web--error--activity_off = This bot does not open its table inside Discord. Use the link the Table button gives you.
web--error--activity_code = Discord did not confirm who you are. Close the Activity and open it again with the Table button; nothing was changed.
web--error--activity_no_game = This Activity is not tied to a game any more. Press the Table button under the game's board again.
web--error--activity_not_in_instance = You are not in this Activity. Join it in Discord, or press the Table button yourself.
web--error--activity_discord = Discord could not be reached. Try again in a moment; nothing was changed.
web--table_button = Table
web--table_link = Your table for this game (the link is yours alone and works for 15 minutes): { $link }
web--your_turn_link = Open the table: { $link }
web--table_off = This bot serves no web table. Play here with the buttons and /play.
