# ターミナルで遊ぶとき（python -m bot.local）の表示。Discord では使いません。
local--prompt = { $player }（{ $seat }番席）› 行動を入力してください（`?`で選択肢、`? ステップ`で絞り込み、`h`で履歴、`resign`で投了、`ai`で最後までAIに任せる、`q`で終了）：
local--boards_folder = 📁 このゲームの盤面とパネルの画像は{ $path }に書き出します。
local--board = {"  "}［盤面：{ $path }］
local--panel_image = {"  "}［あなたのパネル：{ $path }］
local--did_you_mean = `{ $action }`のことですか？
local--choice_facts = { $words }：{ $facts }
local--left_unfinished = ゲーム #{ $id }は終わらないまま中断しました。
local--resume = ゲームは保存されています。続きは`{ $command }`で遊べます。
local--no_resume = 使い捨てのデータベースに保存していたため、このゲームはここで終わりです。あとで続けるには、`--db ファイル`を付けて始め、`--db ファイル --resume 番号`で再開してください。

# 残りのゲームを AI に任せた席（bot/service/seats.py の hand_to_ai）。
seat--handed_to_ai = 🤖 { $player }は席をAIに任せました。ゲームの終わりまでAIが担当します。
seat--you_handed_to_ai = ゲーム #{ $id }のあなたの席は、終わりまでAIが担当します。

# プレイシートの数値（モンスターハンターのシート選び）。
word--monsterhunter--sheet_roads = 道{ $n }本
word--monsterhunter--sheet_farthest = キャンプからいちばん遠いエリアまで道{ $n }本
