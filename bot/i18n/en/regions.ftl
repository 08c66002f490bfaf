# What a tap on the web table's board or panel says (bot/service/regions.py).
region--unnamed = Nothing to say about this spot.
region--squares--cell_empty = Square { $square }: empty.
region--squares--cell_piece = Square { $square }: { $seat }'s { $kind_term }. { $effect }
region--squares--cell_petrified = Square { $square }: { $seat }'s { $kind_term }, petrified: it has no ability while the enemy Petrify piece stays right below it.
region--squares--hand = { $seat }'s { $kind_term }, in hand. { $effect }
region--squares--cap = { $seat }'s pieces in row { $row }: { $total } of at most { $cap } points.
region--squares--effect_transfer = Transfer: swaps places with another of its owner's transfer pieces on the board.
region--squares--effect_tide = Tide: pushes the piece directly above it one square up and moves into its square.
region--squares--effect_petrify = Petrify: the enemy piece directly above it has no ability.
region--squares--effect_martial_arts = Martial arts: always beats a piece worth 5 in battle.
region--squares--effect_plain = No ability.
region--arena--hex_empty = Hex { $hex }: empty.
region--arena--hex_figure = Hex { $hex }: { $seat }, facing { $facing }, life { $life } of { $life_max }.
region--arena--hex_figure_charge = Hex { $hex }: { $seat }, facing { $facing }, life { $life } of { $life_max }; may charge this turn.
region--arena--life = { $seat }'s life: { $life } of { $life_max }.
region--arena--dice_own = Your dice for turn { $turn }: { $dice }. Only you see them until the turn is resolved.
region--arena--dice_own_order = Your dice for turn { $turn }: { $dice }. Your order: { $order } (you may change it until the other order is in).
region--arena--dice_last = { $seat } in turn { $turn }: dice { $dice }, order { $order }.
region--osu--square = Square { $square }
region--osu--passage = Square { $square } (a secret passage: a tile arriving here goes on to the next free passage clockwise)
region--osu--osu_square = Square { $square } (the OSU square)
region--osu--cell_empty = { $where }: empty.
region--osu--cell_tile = { $where }: { $seat }'s tile { $number }. As shown: { $up } at the top, { $right } on the right, { $down } at the bottom, { $left } on the left; the mouse faces { $mouse_term }.
region--osu--animal_mouse = 🐭 mouse
region--osu--animal_cat = 🐱 cat
region--osu--animal_lion = 🦁 lion
region--osu--animal_monkey = 🐵 monkey
region--osu--score = { $seat } has captured { $score } of { $target } needed to win.
region--hostile--cell_empty = Square { $square }: empty.
region--hostile--cell = Square { $square }: { $parts }.
region--hostile--on_piece = { $seat }'s piece
region--hostile--on_tile = { $tile_term } ({ $facing_term }): { $does }
region--hostile--on_gems = { $count ->
        [one] 1 gem
       *[other] { $count } gems
    }
region--hostile--on_start = { $seat }'s start
region--hostile--on_zone = next to { $seat }'s start (no opponent may place a tile here)
region--hostile--does_slide = a piece entering it moves on one square where the arrow points
region--hostile--does_spring = a piece entering it jumps two squares where the arrow points, over the square between
region--hostile--does_ice = a piece entering it slides on one square the way it came in
region--hostile--does_stop = a piece entering it may move no more this turn
region--hostile--does_wall = a piece may enter or leave it only through its open sides
region--hostile--hand = { $seat }'s hand: { $tile_term }. When placed, { $does }.
region--hostile--hand_gem = { $seat }'s hand: gem tile { $square }. Used, it puts a gem on { $square }.
region--hostile--line = In the line: { $tile_term }. When placed, { $does }.
region--hostile--line_gem = In the line: gem tile { $square }. Used, it puts a gem on { $square }.
region--hostile--skill_free = Skill { $skill_term }, still to be picked: { $effect_term }.
region--hostile--skill_unowned = Skill { $skill_term }, not in play: { $effect_term }.
region--hostile--skill_owned = Skill { $skill_term }, { $seat }'s: { $effect_term }.
region--monsterhunter--monster_down = Monster #{ $id } on { $area }: face down.
region--monsterhunter--monster_up = { $monster_card } #{ $id } on { $area }, face up: { $health } health left; { $facts }.
region--monsterhunter--monster_own_down = Your face-down { $monster_card } #{ $id } on { $area } (only you see it): { $facts }.
region--monsterhunter--card = { $card_card } ({ $card }): { $facts }.
region--monsterhunter--area = Area { $area } of { $seat }'s sheet: { $monsters ->
        [0] no monster
        [one] 1 monster
       *[other] { $monsters } monsters
    }; hunters here: { $hunters }.
region--monsterhunter--area_camp = { $seat }'s camp ({ $area }); hunters here: { $hunters }.
region--monsterhunter--hunter_here = { $seat }
region--monsterhunter--sheet = Sheet { $sheet_sheet } ({ $sheet }).
region--monsterhunter--sheet_flip = Sheet { $sheet_sheet } ({ $sheet }); you may also take it upside down.
