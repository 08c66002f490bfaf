# The terminal driver (python -m bot.local): what it says that Discord never shows.
local--prompt = { $player } (seat { $seat }) › an action, ? for the choices (? STEP to open one), h for history, resign to resign, ai to let the AI play your seat to the end, q to quit:
local--boards_folder = 📁 This game's boards and panels are written to { $path }
local--board = {"  "}[board: { $path }]
local--panel_image = {"  "}[your panel: { $path }]
local--did_you_mean = Did you mean `{ $action }`?
local--choice_facts = { $words }: { $facts }
local--left_unfinished = Game #{ $id } is left unfinished.
local--resume = It is kept: go on with it later with `{ $command }`.
local--no_resume = It was kept in a throwaway database, so it ends here. To keep a game and come back to it, start it with --db FILE, then use --db FILE --resume ID.

# A seat handed to the AI for the rest of the game (bot/service/seats.py hand_to_ai).
seat--handed_to_ai = 🤖 { $player } hands their seat to the AI, which plays it to the end of the game.
seat--you_handed_to_ai = The AI plays your seat in game #{ $id } to the end.

# A play sheet's numbers, for choosing one (Monster Hunter's loadout).
word--monsterhunter--sheet_roads = { $n ->
    [one] 1 road
   *[other] { $n } roads
}
word--monsterhunter--sheet_farthest = { $n ->
    [one] farthest area 1 road from the camp
   *[other] farthest area { $n } roads from the camp
}
