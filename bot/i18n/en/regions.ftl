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
