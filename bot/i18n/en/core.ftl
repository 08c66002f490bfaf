error--prefix = ⚠️ { $message }
list--separator = ,{" "}
list--nothing = none
error--not_your_turn = It is not your turn.
error--illegal_action = That action is not allowed now.
error--bad_notation = `{ $action }` is not an action of this game. Use `/game rules` for the notation, or pick from the suggestions of `/play`.
error--game_over = This game has already ended.
error--option_unknown = Unknown option `{ $option }`. Options of this game: { $known }.
error--option_bad_value = Option `{ $option }` cannot be `{ $value }`.
error--option_out_of_range = Option `{ $option }` must be between { $low } and { $high } (got { $value }).
error--option_bad_choice = Option `{ $option }` must be one of: { $choices } (got `{ $value }`).
error--option_syntax = Options are written as name=value, separated by spaces (could not read `{ $token }`).
error--unknown_game = There is no game called `{ $name }`.
error--game_not_found = There is no game #{ $id } here.
error--stale = That button is out of date: the game has moved on. Use the latest board message.
error--busy = Many moves reached this game at the same moment and yours could not be applied. Please try again.
error--corrupt_game = Game #{ $id } could not be read from storage ({ $detail }). Please tell the server admin.
error--future_game = Game #{ $id } was saved by a newer version of this bot ({ $detail }). Please tell the server admin.
error--store_error = Storage problem: { $detail }
error--already_joined = You are already in game #{ $id }.
error--lobby_full = Game #{ $id } is full ({ $max } players).
error--not_in_game = You are not a player in game #{ $id }.
error--not_enough_players = Game #{ $id } needs at least { $min } players to start.
error--not_in_lobby = Game #{ $id } has already started.
error--game_not_started = Game #{ $id } has not started yet.
error--game_finished = Game #{ $id } has already finished.
error--game_abandoned = Game #{ $id } was abandoned.
error--game_active = Game #{ $id } is already running.
error--not_creator = Only the creator of game #{ $id } or a member with Manage Server can do that.
error--not_starter = Only { $creator } (who opened game #{ $id }) or a member with Manage Server can start it; anyone seated may start it once its creator has left or the lobby has waited { $hours } hours.
error--unknown_component = This button is not one I know. It may come from an old version of the bot.
error--internal = Something went wrong on my side. Nothing was changed; please try again.
error--which_game = You are in several games here ({ $ids }). Say which one with the game option.
error--no_game_here = There is no open game of yours in this channel. Give the game number, or see `/game list`.
lobby--created = Lobby #{ $id } is open. Others can join with the buttons on it.
lobby--joined = You joined game #{ $id }.
lobby--ai_added = An AI player joined game #{ $id }.
lobby--left = You left game #{ $id }.
lobby--closed = Lobby #{ $id } closed: nobody is left.
lobby--started = Game #{ $id } started.
lobby--header =
    { $seated ->
        [one] 🎲 **{ $game }** — game #{ $id }: 1 player so far ({ $counts } can play). Options: { $options }
       *[other] 🎲 **{ $game }** — game #{ $id }: { $seated } players so far ({ $counts } can play). Options: { $options }
    }
lobby--header_started = 🎲 **{ $game }** — game #{ $id }, { $seated } players. Options: { $options }
players--range = { $low } to { $high }
players--either = { $first } or { $last }
lobby--players = Players: { $players }
lobby--button--join = Join
lobby--button--leave = Leave
lobby--button--start = Start
game--started = 🎲 **{ $game }** #{ $id } begins! Seats: { $seats }
game--you_resigned = You resigned game #{ $id }.
game--abandoned = Game #{ $id } was abandoned by { $by }.
game--you_abandoned = You abandoned game #{ $id }.
game--resumed = (Game #{ $id }: here is the board I could not post before a restart.)
game--counted_board_follows = ✅ That counted. I could not show the board just now; it follows in a few seconds.
game--board_here = (Game #{ $id }: here is the board.)
delivery--incomplete = ⚠️ That was done, but I could not show my whole answer here. `/game status` shows where the game stands.
delivery--late_dm = ⌛ This answer came too late for Discord to show it privately where you asked (its 15 minutes had passed), so it comes here:
delivery--late_channel = ⌛ { $user } my answer to your request came too late for Discord to show it to you privately, and your DMs are closed. `/game status` shows where the game stands.
game--summary = #{ $id } { $game } — { $status } — { $players }
turn--played = { $player } played `{ $action }`.
turn--played--hostile = { $player } played `{ $action }`.
turn--played--arena = { $player } gave the order `{ $action }`.
turn--played--osu = { $player } played `{ $action }`.
turn--played--squares = { $player } played `{ $action }`.
turn--played--monsterhunter = { $player } played `{ $action }`.
turn--accepted = ✅ `{ $action }` played.
turn--choose = { $group } — choose:
turn--waiting = Waiting for { $players }.
turn--prompt = 👉 { $players }, your turn.
player--ai = AI { $n }
event--resigned = 🏳️ { $seat } resigned.
reason--resign = resignation
outcome--win = 🏆 Winner: { $winners } ({ $reason }).
outcome--draw = 🤝 Draw ({ $reason }).
history--header =
    { $count ->
        [one] 📜 Game #{ $id } ({ $game }): 1 action
       *[other] 📜 Game #{ $id } ({ $game }): { $count } actions
    }
history--line = { $n }. { $player } `{ $action }`
history--line_words = { $n }. { $player }: { $words } (`{ $action }`)
history--empty = No actions yet.
list--header_here = {"*"}*Open games in this server** ({ $count })
list--header_mine = {"*"}*Your games** ({ $count })
list--none = None. Start one with `/game new`.
list--line = #{ $id } { $game } — { $status } — { $players } — waiting for { $waiting } — deadline { $left } { $away } — { $channel }
status--lobby = waiting for players
status--active = in play
status--finished = finished
status--abandoned = abandoned
panel--header = 🔒 Game #{ $id } ({ $game }): you are { $seat }. Your private panel.
panel--your_choice = Make your choice below. Nobody else sees it.
panel--waiting = Nothing to choose right now.
panel--button = My panel
panel--dm_closed = { $user }, I could not DM you (your DMs are closed). Press **My panel** to see your private choices here.
controls--group_option =
    { $count ->
        [one] 1 action
       *[other] { $count } actions
    }
controls--pick_group = Choose a piece…
autocomplete--game = #{ $id } { $game } ({ $status })
cmd--game--name = game
cmd--game--desc = Start, join and manage tabletop games
cmd--new--name = new
cmd--new--desc = Open a lobby for a new game
cmd--join--name = join
cmd--join--desc = Join a game's lobby
cmd--leave--name = leave
cmd--leave--desc = Leave a game's lobby
cmd--start--name = start
cmd--start--desc = Start a game from its lobby
cmd--status--name = status
cmd--status--desc = Show a game's board and whose turn it is
cmd--history--name = history
cmd--history--desc = Show a game's moves so far
cmd--resign--name = resign
cmd--resign--desc = Resign from a game
cmd--abandon--name = abandon
cmd--abandon--desc = Abandon a game (its creator or Manage Server)
cmd--list--name = list
cmd--list--desc = Dashboard: open games in this server
cmd--rules--name = rules
cmd--rules--desc = A game's rules summary and action notation
cmd--play--name = play
cmd--play--desc = Play an action in your game
cmd--arg--game_name--name = game
cmd--arg--game_name--desc = Which game
cmd--arg--options--name = options
cmd--arg--options--desc = Game options as name=value, e.g. cap=6
cmd--arg--id--name = game_id
cmd--arg--id--desc = Game number (optional when you have one game in this channel)
cmd--arg--action--name = action
cmd--arg--action--desc = The action in the game's notation (suggestions show legal ones)
panel--dm_probe = 🔒 You joined game #{ $id }. Your secret choices for it will arrive here, in DMs.
panel--dm_closed_on_join = Your DMs are closed, so your secret choices will appear behind a **My panel** button in the channel instead. (Open DMs from this server to get them privately by DM.)
game--seat = { $mark }: { $player }
controls--pick_step = { $question } ({ $first } … { $last })
turn--may_change = You can still change it until everyone's choice is in:
game--commitment = 🔐 Fair play: this game's random seed is committed as `{ $hash }`; it is revealed when the game ends.
game--reveal = 🔓 Seed `{ $seed }`, salt `{ $salt }`. Check: `python -m bot.common.fairplay { $seed } { $salt }` must print the commitment posted at the start.
timeout--passed = ⏰ { $player } let the deadline pass (absence { $count }).
timeout--replaced = 🤖 { $player } was absent 3 times: the stand-in plays their seat for the rest of the game.
timeout--forfeit = 🏳️ { $player } forfeits: the deadline passed.
timeout--skipped = ⏭️ { $player }'s turn is skipped.
timeout--stand_in_played = 🤖 Stand-in for { $player }: `{ $action }`
reminder--header =
    { $count ->
        [one] ⏰ { $player }, a game is waiting for you:
       *[other] ⏰ { $player }, { $count } games are waiting for you:
    }
reminder--game = • #{ $id } { $game } in { $channel }, deadline { $left }
vacation--granted =
    { $count ->
        [one] 🏖️ Game #{ $id }: your deadlines pause for 1 day, until { $until }.
       *[other] 🏖️ Game #{ $id }: your deadlines pause for { $count } days, until { $until }.
    }
vacation--none_left = Game #{ $id }: no vacation days are left for you in this game.
settings--dm_reminders_on = 🔔 You will get turn reminders by DM too.
settings--dm_reminders_off = 🔕 No more reminder DMs; you are still mentioned in the game's channel.
rematch--started = Rematch #{ $id } started.
rematch--header = 🔁 Rematch of #{ $old }: **{ $game }** #{ $id }. Seats: { $seats }
rematch--button = Rematch
stats--header =
    { $count ->
        [one] 📊 **Results in this server** (1 player)
       *[other] 📊 **Results in this server** ({ $count } players)
    }
stats--line = { $game } — { $player }: { $won } won / { $played } played ({ $drawn } drawn)
stats--none = No finished games yet.
stats--header_dm = 📊 **Your results in DMs with the bot** (only your own games here; a server's results show when you type `/game stats` there)
stats--line_dm = { $game }: { $won } won / { $played } played ({ $drawn } drawn)
stats--none_dm = You have not finished a game in a DM with the bot yet.
list--away = 🏖️ { $player }
turn--deadline = ⏳ Deadline { $left }.
turn--on_vacation = 🏖️ On vacation (deadlines paused): { $players }
error--deadline_syntax = Could not read the deadline `{ $value }`: write e.g. `24h`, `3d` or `none`.
error--deadline_range = The deadline `{ $value }` must be between 15 minutes and 30 days, or `none`.
error--timeout_policy = Unknown timeout policy `{ $value }`; choose one of: { $choices }.
error--vacation_range = Vacation must be between 1 and 60 days (got { $value }).
error--no_running_games = You have no running games.
error--rematch_not_finished = Game #{ $id } has not finished, so there is nothing to rematch yet.
error--rematch_exists = There already is a rematch: game #{ $id }.
thread--name = 🎲 { $game } #{ $id }
cmd--arg--deadline--name = deadline
cmd--arg--deadline--desc = Time per turn: e.g. 24h (default), 3d, or none
cmd--arg--timeout--name = timeout
cmd--arg--timeout--desc = When a deadline passes (default: the AI plays that turn)
cmd--choice--timeout--ai = The AI stand-in plays the turn
cmd--choice--timeout--skip = Skip the turn where the game allows
cmd--choice--timeout--forfeit = The late player forfeits
cmd--arg--thread--name = thread
cmd--arg--thread--desc = Play in a thread of its own (default: yes)
cmd--arg--vacation--name = vacation
cmd--arg--vacation--desc = Vacation days each player may take in this game (default 7)
cmd--mine--name = mine
cmd--mine--desc = Your games in every server, with whose turn it is
cmd--stats--name = stats
cmd--stats--desc = Games played and won in this server (in a DM: your own DM games)
cmd--settings--name = settings
cmd--settings--desc = Your reminders, default policies and views; this server's stand-in AI (admins)
cmd--arg--dm_reminders--name = dm_reminders
cmd--arg--dm_reminders--desc = Also send turn reminders by DM
cmd--vacation--name = vacation
cmd--vacation--desc = Pause your deadlines for some days
cmd--arg--days--name = days
cmd--arg--days--desc = How many days
reminder--your_turn = 👉 It is your turn in game #{ $id }: { $link }
error--player_count = Game #{ $id } cannot start with { $count } players; it plays with { $allowed }.
error--game_broken = Game #{ $id } has been set aside: its saved data is damaged, so it can be neither shown nor played, and trying again will not mend it. Every other game goes on; the bot's log says what is damaged. What can be done: while it is open, the game's creator or a server admin ends it with `/game abandon`; or whoever hosts the bot restores a backup from before the damage.
error--action_empty = Type an action after /play, for example one the autocomplete offers.
error--action_too_long = That is too long to be an action (at most { $limit } characters).
error--action_failed = I could not read that action. Nothing was changed; check it against the autocomplete.
error--option_quote = A quote in the options is not closed: write options as name=value, separated by spaces.
error--options_too_long = The options are too long (at most { $limit } characters).
error--deadline_syntax_long = That deadline is too long to read: write e.g. `24h`, `3d` or `none`.
error--timeout_policy_long = Choose the timeout from the list: ai, skip or forfeit.
error--stale_typed = Your previous action is still being shown. Look at the newest board, then play again.
ai--level--easy = easy
ai--level--normal = normal
ai--level--hard = hard
ai--level--easy--desc = Prefers good moves, but a new player can beat it
ai--level--normal--desc = Weighs positions and looks one reply ahead
ai--level--hard--desc = Searches for about a second per move
player--ai_level = AI { $n } ({ $level })
lobby--ai_select = Add an AI player…
cmd--arg--ai--name = ai
cmd--arg--ai--desc = How strong AI players and stand-ins are (default: normal; stand-ins: the server's level)
error--ai_level = There is no AI level `{ $value }`: choose { $choices }.
error--ai_level_long = That is too long to be an AI level: choose { $choices }.
turn--played_words = { $player }: { $words } (`{ $action }`).
turn--phase = Step: { $phase }
seat--mark = {"*"}*{ $letter }** { $shape } { $colour }
seat--mark_short = {"*"}*{ $letter }** { $shape }
seat--named = { $mark } { $player }
colour--blue = blue
colour--orange = orange
colour--bluish_green = green
colour--reddish_purple = purple
colour--sky_blue = sky blue
colour--vermillion = red
history--page = Page { $page } of { $pages } (actions { $first }–{ $last }); `/game history page:{ $pages }` shows the first moves.
cmd--arg--page--name = page
cmd--arg--page--desc = Which page (1 = the latest moves)
error--history_page = There is no page { $page }: this history has { $pages }.
cmd--help--name = help
cmd--help--desc = What this bot does and how to start a game
help--intro = 🎲 **Tabletop games in Discord.** Start a game in any channel, invite others, and play with buttons, menus or `/play` lines. Every move shows the board as a picture; secret choices come to you by DM (or a private **My panel** button when your DMs are closed). Games wait days for a move and survive restarts.
help--games_header = {"*"}*Games**
help--game = • { $game } ({ $counts } players) — `/game rules` for the rules and a picture
help--commands = {"*"}*Commands**
    • `/game new` open a lobby (options, deadline, AI strength) · `/game join` · `/game leave` · `/game start`
    • `/play` play an action (suggestions show legal ones) · `/game status` · `/game history`
    • `/game resign` · `/game abandon` (creator or admins) · `/game list` · `/game mine` · `/game stats` · `/game leaderboard` ratings · `/game undo` take back your last action (the others agree)
    • `/game settings` reminders by DM · `/game vacation` pause your deadlines · `/game rules` · `/game follow` / `/game unfollow` watch a game as a spectator
    • `/game replay` step through a game · `/game export` the game as a file · `/deck list` · `/deck show` · `/deck save` · `/deck delete` · `/deck check` your Monster Hunter decks
help--first_game = {"*"}*Your first game:** type `/game new`, pick a game, then ask a friend to press **Join** (or add an AI player from the menu) and press **Start**. The board tells you whose turn it is and which seat (letter, shape, colour) is yours.
rules--picture = The picture shows an example position, with the coordinates used in the notation.
lobby--default_options = as in the rulebook
lobby--numbered = { $n }. { $player }
lobby--player_n = player { $n }
lobby--remove_option = Remove { $n }. { $player }
lobby--remove_select = Remove a seat (creator)…
lobby--invite_select = Invite players…
lobby--invited = 📨 { $players }: { $by } invites you to **{ $game }** game #{ $id }. Press **Join** on the lobby above.
lobby--invites_sent =
    { $count ->
        [one] Invitation sent for game #{ $id }.
       *[other] Invitations sent for game #{ $id } ({ $count }).
    }
lobby--removed = The seat was removed from game #{ $id }.
error--nobody_to_invite = Everyone you picked is already in game #{ $id }.
error--remove_creator = The creator cannot be removed from game #{ $id }; use Leave to close the lobby.
local--your_choice = Type your choice below. Nobody else sees it.
local--bad_notation = `{ $action }` is not an action of this game. Type ? for the legal ones.
local--action_empty = Type an action, or ? for the legal ones.
local--no_choice = No choice begins with `{ $typed }`. Type ? for all of them.
local--here = this table
local--in = in { $amount } { $unit }
local--ago = { $amount } { $unit } ago
local--unit--d = days
local--unit--h = h
local--unit--m = min
cmd--leaderboard--name = leaderboard
cmd--leaderboard--desc = The best rated players of this server, per game (in a DM: your own rating)
cmd--undo--name = undo
cmd--undo--desc = Ask to take back your last action (the other players must agree)
rating--header = 📈 **Ratings**
rating--change = { $player }: { $before } → { $rating } ({ $delta })
player--ai_rated = 🤖 AI ({ $level })
leaderboard--header = 🏅 **Leaderboard of this server** (rating = skill − 3 × uncertainty)
leaderboard--game = {"*"}*{ $game }**
leaderboard--line =
    { $count ->
        [one] { $rank }. { $player } — { $rating } (1 game)
       *[other] { $rank }. { $player } — { $rating } ({ $count } games)
    }
leaderboard--none = Nobody is rated yet: finish a game to appear here.
leaderboard--header_dm = 🏅 Leaderboards are kept per server: type `/game leaderboard` in a server to see its best players. **Your own rating from games in DMs with the bot** (rating = skill − 3 × uncertainty):
leaderboard--line_dm =
    { $count ->
        [one] { $game } — { $rating } (1 game)
       *[other] { $game } — { $rating } ({ $count } games)
    }
leaderboard--none_dm = You have no rating from games in DMs yet: finish a game in a DM with the bot to get one.
undo--button--ask = ↩️ Take it back
undo--button--yes = ✅ Agree
undo--button--no = ✖️ Decline
undo--asked = ↩️ { $player } asks to take back action { $n } (`{ $action }`).
undo--ask_others = { $players }: do you agree? Everyone asked must agree; one refusal keeps the move. Any new move cancels the request.
undo--you_asked = Your request to take it back is posted in game #{ $id }; the other players are asked.
undo--agreed = ✅ { $player } agrees. Still waiting for { $waiting }.
undo--you_agreed = You agreed (game #{ $id }).
undo--declined = ✖️ { $player } declined: { $asker }'s move stands.
undo--you_declined = You declined (game #{ $id }); the move stands.
undo--done = ↩️ { $player }'s action { $n } (`{ $action }`) was taken back, with everyone's consent.
undo--taken_back = ↩️ Action { $n } of game #{ $id } was taken back.
history--undo = { $n }. { $player } ↩️ took back everything from action { $target } on
history--taken_back = { $n }. ~~{ $player } `{ $action }`~~ (taken back)
history--taken_back_words = { $n }. ~~{ $player }: { $words } (`{ $action }`)~~ (taken back)
error--undo_nothing = There is nothing of yours to take back: your last action is not the latest one (or you have not acted yet).
error--undo_not_yours = Only the player who just acted may ask to take it back.
error--undo_final = That can no longer be taken back: since then a card was drawn, dice were rolled or something hidden was revealed.
error--undo_unavailable = This game's record cannot be replayed, so nothing can be taken back.
error--undo_pending = A request to take this move back is already waiting for answers.
error--undo_declined_here = Taking this move back was already declined.
error--undo_expired = That request has expired: the game has moved on since.
error--undo_own_request = You asked for it: the other players answer.
error--undo_not_asked = Your answer is not needed for this request.
error--undo_already_answered = You have already answered this request.
error--undo_closed = This request was already declined: the move stands.
cmd--deck--name = deck
cmd--deck--desc = Your saved decks for games where players bring a deck
cmd--deck_list--name = list
cmd--deck_list--desc = Your saved decks and the ready decks
cmd--deck_show--name = show
cmd--deck_show--desc = A picture of a deck's cards
cmd--deck_save--name = save
cmd--deck_save--desc = Save a deck code under a name (replaces a deck of that name)
cmd--deck_delete--name = delete
cmd--deck_delete--desc = Delete one of your saved decks
cmd--deck_check--name = check
cmd--deck_check--desc = Check a deck code and name every problem
cmd--arg--deck_name--name = name
cmd--arg--deck_name--desc = The deck's name: one word, up to 32 letters, digits, - or _
cmd--arg--deck_code--name = code
cmd--arg--deck_code--desc = The deck code, e.g. A01x2.A02x3.I02x2…
cmd--arg--policy--name = policy
cmd--arg--policy--desc = A default policy played for you in each new game, e.g. def:block
error--deck_which_game = Several games have decks ({ $games }): say which with the game option.
error--deck_no_decks = { $game } has no decks.
error--deck_name_long = A deck name is at most { $limit } characters.
error--deck_name_bad = A deck name is one word of letters, digits, - or _ (at most { $limit }).
error--deck_not_found = You have no deck named `{ $name }` (see /deck list).
error--deck_name_reserved = `{ $name }` is a ready deck: it cannot be replaced or deleted. Pick another name.
error--deck_refused = Deck `{ $name }` was not saved:
    { $problems }
error--deck_limit = You have { $limit } saved decks for this game already: delete one first.
error--deck_code_long = That deck code is too long (at most { $limit } characters).
error--policy_which_game = Several games have policies ({ $games }): say which with the game option.
error--policy_none = { $game } has no standing policies.
error--policy_bad = Write a policy as key:value, one of: { $choices }
deck--list_header = 🃏 Your decks for { $game } ({ $count }/{ $limit } saved). Ready decks, always there:
deck--option_saved = Your deck: { $name }
deck--option_ready = Ready deck: { $title }
deck--option_with = { $deck } · { $action }
deck--option_default = The hunter's own ready deck
deck--menu = Choose a deck: your saved decks, then the ready decks
deck--ready_line = • `{ $name }`: { $title }
deck--saved_line = • `{ $name }`: your deck, { $cards } cards
deck--none_saved = You have no saved decks yet: /deck save name code
deck--show_header = 🃏 Deck `{ $name }` for { $game }: { $cards } cards.
deck--cards = Cards: { $cards }
deck--code = Code: `{ $code }`
deck--saved = ✅ Deck `{ $name }` saved for { $game }. Name it where you pick your hunter, e.g. `take H01 2A { $name }`.
deck--replaced = ✅ Deck `{ $name }` replaced for { $game }.
deck--deleted = 🗑️ Deck `{ $name }` deleted.
deck--check_bad =
    { $count ->
        [one] ❌ That deck cannot be played (1 problem):
       *[other] ❌ That deck cannot be played ({ $count } problems):
    }
deck--check_good = ✅ That deck can be played ({ $cards } cards).
policy--saved = ✅ Your default policies for { $game }: { $policies }. They are set for you (privately) at your first chance in each new game.
alt--seat = { $letter } ({ $colour })
alt--more = +{ $count } more
