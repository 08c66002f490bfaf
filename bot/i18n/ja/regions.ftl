# Web の卓で盤やパネルをタップしたときの説明（bot/service/regions.py）。
region--unnamed = ここには説明がありません。
region--squares--cell_empty = { $square }：空きマスです。
region--squares--cell_piece = { $square }：{ $seat }の{ $kind_term }です。{ $effect }
region--squares--cell_petrified = { $square }：{ $seat }の{ $kind_term }です。石化されていて、すぐ下側に相手の石化コマがある間は能力が無いものとして扱われます。
region--squares--hand = { $seat }の手元の{ $kind_term }です。{ $effect }
region--squares--cap = { $seat }の{ $row }行目のコマの合計は{ $total }点です（上限{ $cap }点）。
region--squares--effect_transfer = 転送：盤上の自分の転送コマ2つの位置を入れ換えます。
region--squares--effect_tide = 潮流：すぐ上側のコマを1マス上側に押し出して前進します。
region--squares--effect_petrify = 石化：すぐ上側の相手のコマの能力を封じます。
region--squares--effect_martial_arts = 格闘：戦闘時の5点のコマには必ず勝ちます。
region--squares--effect_plain = 能力はありません。
