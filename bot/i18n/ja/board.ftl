board--alt = { $game }の盤面（ゲーム #{ $id }、{ $move }手目）：{ $turn }
board--alt_turn = { $players }の手番です。
