cmd--tournament--name = tournament
cmd--tournament--desc = Run a Swiss, round robin or elimination tournament
cmd--tournament_new--name = new
cmd--tournament_new--desc = Open a tournament for players to join
cmd--tournament_join--name = join
cmd--tournament_join--desc = Join a tournament (a Swiss one even after it started)
cmd--tournament_leave--name = leave
cmd--tournament_leave--desc = Leave a tournament; once it runs, you drop out
cmd--tournament_start--name = start
cmd--tournament_start--desc = Start a tournament: pair the first round (organiser)
cmd--tournament_standings--name = standings
cmd--tournament_standings--desc = A tournament's standings, as a picture and in words
cmd--tournament_drop--name = drop
cmd--tournament_drop--desc = Drop a player from a tournament (organiser), or drop out yourself
cmd--tournament_abandon--name = abandon
cmd--tournament_abandon--desc = Stop a tournament or league (organiser or Manage Server)
cmd--league--name = league
cmd--league--desc = A standing league: join any time, ask for games, climb the table
cmd--league_new--name = new
cmd--league_new--desc = Open a league in this channel
cmd--league_join--name = join
cmd--league_join--desc = Join a league
cmd--league_play--name = play
cmd--league_play--desc = Ask for your next league game (paired by rating)
cmd--league_table--name = table
cmd--league_table--desc = A league's table
cmd--league_leave--name = leave
cmd--league_leave--desc = Leave a league
cmd--arg--format--name = format
cmd--arg--format--desc = Swiss, round robin or single elimination
cmd--choice--format--swiss = Swiss
cmd--choice--format--roundrobin = Round robin
cmd--choice--format--elimination = Single elimination
cmd--arg--rounds--name = rounds
cmd--arg--rounds--desc = Swiss only: how many rounds (default: enough for one unbeaten player)
cmd--arg--table--name = table
cmd--arg--table--desc = Players per game (Swiss; default 2)
cmd--arg--tournament_id--name = tournament
cmd--arg--tournament_id--desc = Tournament number (optional when this server has one open)
cmd--arg--league_id--name = league
cmd--arg--league_id--desc = League number (optional when this server has one)
cmd--arg--player--name = player
cmd--arg--player--desc = The player to drop (leave out to drop out yourself)
cmd--arg--games--name = games
cmd--arg--games--desc = Games each player plays (default 5)
cmd--arg--tournament_deadline--desc = Time per turn in each game: e.g. 24h (default), 3d
tournament--kind--swiss = Swiss
tournament--kind--roundrobin = round robin
tournament--kind--elimination = single elimination
tournament--kind--league = league
tournament--status--open = open for entries
tournament--status--running = under way
tournament--status--finished = finished
tournament--status--abandoned = abandoned
tournament--created = Tournament #{ $id } is open. Players join with `/tournament join`; you start it with `/tournament start`.
tournament--created_post = 🏆 **{ $kind }** tournament #{ $id } of **{ $game }**, organised by { $by }: { $terms }.
    Join with `/tournament join tournament:{ $id }`.
league--created = League #{ $id } is open. Players join with `/league join` and ask for games with `/league play`.
league--created_post = 🏅 **{ $game }** league #{ $id }, organised by { $by }: { $terms }.
    Join with `/league join league:{ $id }`, then ask for a game with `/league play`.
tournament--term_deadline = deadline per turn { $hours } h
tournament--term_rounds = { $rounds } rounds
tournament--term_table = { $size } players per game
tournament--term_options = options { $options }
league--games_each = { $games } games each.
tournament--joined = You joined tournament #{ $id } as player #{ $entry }.
tournament--joined_late = You joined tournament #{ $id } as player #{ $entry }; you play from round { $round }.
league--joined = You joined league #{ $id } as player #{ $entry }. Ask for a game with `/league play`.
tournament--joined_post =
    { $family ->
        [league] ➕ { $player } joined league #{ $id } as #{ $entry } (players: { $count }).
       *[other] ➕ { $player } joined tournament #{ $id } as #{ $entry } (players: { $count }).
    }
tournament--joined_late_post = ➕ { $player } joined tournament #{ $id } late and plays from round { $round } (players: { $count }).
tournament--left =
    { $family ->
        [league] You left league #{ $id }.
       *[other] You left tournament #{ $id }.
    }
tournament--dropped =
    { $family ->
        [league] { $player } was dropped from league #{ $id }.
       *[other] { $player } was dropped from tournament #{ $id }.
    }
tournament--left_post = ➖ { $player } left tournament #{ $id } (players: { $count }).
tournament--dropped_post =
    { $family ->
        [league] 🚪 { $player } dropped out of league #{ $id }: no more games for them; a game of theirs still running is resigned, and their results stay in the table.
       *[other] 🚪 { $player } dropped out of tournament #{ $id }: no more pairings for them; a game of theirs still running is resigned, and their results stay in the standings.
    }
tournament--dropped_by_post =
    { $family ->
        [league] 🚪 { $by } dropped { $player } from league #{ $id }: no more games for them; a game of theirs still running is resigned, and their results stay in the table.
       *[other] 🚪 { $by } dropped { $player } from tournament #{ $id }: no more pairings for them; a game of theirs still running is resigned, and their results stay in the standings.
    }
tournament--you_started = Tournament #{ $id } started.
tournament--you_abandoned =
    { $family ->
        [league] League #{ $id } was abandoned.
       *[other] Tournament #{ $id } was abandoned.
    }
tournament--round_post = 🏆 **Round { $round } of { $rounds }** — { $kind } tournament #{ $id } of **{ $game }**
tournament--pairings = {"*"}*Pairings of round { $round }** (each game in a thread of its own):
tournament--table = Table { $n }: { $players } — game #{ $id }
tournament--pair = { $a } vs { $b }
tournament--bye = { $player }: a bye this round (1 point)
tournament--walkover = { $player }: wins by walkover (the opponent dropped out)
tournament--no_games = No games this round.
tournament--deadline_note = Each turn has { $hours } h; a player who lets the deadline pass forfeits the game. The next round is paired as soon as every game of this one has ended.
tournament--results = {"*"}*Results of round { $round }:**
tournament--result_win = #{ $id }: { $winner } beat { $loser }
tournament--result_draw = #{ $id }: { $players } drew
tournament--result_forfeit = #{ $id }: { $absent } let the deadline pass and forfeits; { $winner } wins
tournament--result_void = #{ $id }: abandoned, no points for { $players }
tournament--result_places = #{ $id }: { $places }
tournament--placed = { $place }. { $player }
tournament--standings_after = {"*"}*Standings after round { $round }:**
tournament--standings_header = {"*"}*Standings:**
tournament--final_standings = {"*"}*Final standings:**
tournament--standing = { $rank }. `#{ $entry }` { $player } — points { $points }{ $tiebreak } · games { $played }{ $dropped }
tournament--standing_wins = { $rank }. `#{ $entry }` { $player } — wins { $wins } · games { $played }{ $dropped }
tournament--buchholz = {" "}· Buchholz { $value }
tournament--head_to_head = {" "}· head-to-head { $value }
tournament--dropped_mark = {" "}(dropped out)
tournament--more_players = … and { $count } more
tournament--finished_post = 🏁 { $kind } tournament #{ $id } of **{ $game }** is over.
tournament--champion = 🏆 Winner of tournament #{ $id }: { $players }! Congratulations!
tournament--abandoned_post =
    { $family ->
        [league] 🛑 League #{ $id } was abandoned by { $by }.
       *[other] 🛑 Tournament #{ $id } was abandoned by { $by }.
    }
tournament--abandoned_games = Games already under way go on as ordinary games.
tournament--summary = 🏆 #{ $id }: { $kind } tournament of **{ $game }**, { $status }; round { $round } of { $rounds }; players: { $count }
league--summary = 🏅 #{ $id }: league of **{ $game }**, { $status }; players: { $count }
tournament--nobody_yet = Nobody has joined yet.
tournament--game_header = 🏆 Tournament #{ $tournament }, round { $round }, table { $table }: game #{ $id } of **{ $game }** — { $seats }
league--game_header = 🏅 League #{ $tournament }, game { $table }: game #{ $id } of **{ $game }** — { $seats }
league--waiting = You are waiting for an opponent in league #{ $id } ({ $played } of { $games } games played). The next player to ask is paired with you.
league--paired = Your league #{ $id } game is game #{ $game }, against { $opponent }.
league--game_post = 🏅 League #{ $id }: { $players } — game #{ $game }
error--tournament_needs_server = Tournaments belong to a server: open one in a server's channel.
error--tournament_kind = `{ $value }` is not a tournament format: Swiss, round robin or single elimination.
error--tournament_table_size = { $game } is not played by { $size }: choose { $allowed } players per game.
error--tournament_two_players = A { $kind } pairs two players per game; multi-player tables are for Swiss tournaments.
error--tournament_rounds_swiss_only = Only a Swiss tournament takes a number of rounds; the others follow from the players.
error--tournament_rounds_range = Rounds: from 1 to { $most }.
error--league_games_range = Games per player: from 1 to { $most }.
error--tournament_not_found =
    { $family ->
        [league] There is no league #{ $id } here.
       *[other] There is no tournament #{ $id } here.
    }
error--tournament_already_joined =
    { $family ->
        [league] You are already in league #{ $id }.
       *[other] You are already in tournament #{ $id }.
    }
error--tournament_dropped =
    { $family ->
        [league] Already dropped out of league #{ $id }: a player who drops out does not come back.
       *[other] Already dropped out of tournament #{ $id }: a player who drops out does not come back.
    }
error--tournament_finished =
    { $family ->
        [league] League #{ $id } is over.
       *[other] Tournament #{ $id } is over.
    }
error--tournament_abandoned =
    { $family ->
        [league] League #{ $id } was abandoned.
       *[other] Tournament #{ $id } was abandoned.
    }
error--tournament_running = Tournament #{ $id } has started: only Swiss tournaments take late entries.
error--tournament_last_round = Tournament #{ $id } is in its last round: too late to join.
error--tournament_full =
    { $family ->
        [league] League #{ $id } is full ({ $most } players).
       *[other] Tournament #{ $id } is full ({ $most } players).
    }
error--tournament_not_entrant =
    { $family ->
        [league] { $player } is not in league #{ $id }.
       *[other] { $player } is not in tournament #{ $id }.
    }
error--tournament_started =
    { $family ->
        [league] League #{ $id } runs from the moment it opens: there is nothing to start. Players ask for games with `/league play`.
       *[other] Tournament #{ $id } has started already.
    }
error--tournament_too_few = Tournament #{ $id } needs at least { $least } players to start (it has { $count }).
error--tournament_which = Which tournament? This server has { $ids }: give its number.
error--tournament_none_here = This server has no open tournament. Open one with `/tournament new`.
error--league_which = Which league? This server has { $ids }: give its number.
error--league_none_here = This server has no league. Open one with `/league new`.
error--not_in_tournament =
    { $family ->
        [league] You are not in league #{ $id }.
       *[other] You are not in tournament #{ $id }.
    }
error--not_organiser =
    { $family ->
        [league] Only the organiser of league #{ $id } or a member with Manage Server can do that.
       *[other] Only the organiser of tournament #{ $id } or a member with Manage Server can do that.
    }
error--league_not_a_league = #{ $id } is a tournament, not a league: use the `/tournament` commands for it.
error--league_already_waiting = You are already waiting for an opponent in league #{ $id }.
error--league_done = You have played your { $games } games of league #{ $id }.
league--term_games = { $games } games each
tournament--alt = { $rank }. #{ $entry }: { $points } points.
tournament--deadline_note_table = Each turn has { $hours } h; the AI stand-in plays the turn of a player who lets the deadline pass. The next round is paired as soon as every game of this one has ended.
