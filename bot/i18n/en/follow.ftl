cmd--follow--name = follow
cmd--follow--desc = Follow a game as a spectator: one message per turn
cmd--unfollow--name = unfollow
cmd--unfollow--desc = Stop following a game
cmd--arg--view_side--name = view_side
cmd--arg--view_side--desc = Boards only you see are drawn from your side (where the game allows)
cmd--arg--view_large--name = view_large
cmd--arg--view_large--desc = Boards only you see are drawn larger, for small screens
follow--button--on = 👁️ Follow
follow--button--off = 🙈 Unfollow
follow--started = 👁️ You follow game #{ $id } ({ $game }): one message each time a new player must act. Stop with the button below or /game unfollow.
follow--stopped = 🙈 You no longer follow game #{ $id } ({ $game }).
follow--list = 👁️ Followers ({ $count }): { $followers } { $more }
follow--list_more = and { $count } more
follow--notice_header =
    { $count ->
        [one] 👁️ { $player }, a game you follow has a new turn:
       *[other] 👁️ { $player }, { $count } games you follow have a new turn:
    }
follow--notice_game = • #{ $id } { $game }: waiting for { $players } — { $link }
error--follow_playing = You are playing in game #{ $id }: you already hear of your turns, so there is nothing to follow.
error--follow_already = You already follow game #{ $id }.
error--follow_not_following = You do not follow game #{ $id }.
settings--view_side_on = 🔄 Boards only you see (your panel and the boards in replies to you) are drawn from your side where the game allows it. The public board and the replay viewer stay the same for everyone.
settings--view_side_off = 🔄 Boards only you see are drawn the usual way round.
settings--view_large_on = 🔍 Boards only you see are drawn 1.5× larger. The public board stays the same for everyone.
settings--view_large_off = 🔍 Boards only you see are drawn at the usual size.
