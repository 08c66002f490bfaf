board--alt = Board of { $game }, game #{ $id }, move { $move }: { $turn }
board--alt_turn = { $players } to play.
