error--prefix = ⚠️ { $message }
list--separator = 、
list--nothing = なし
error--not_your_turn = あなたの手番ではありません。
error--illegal_action = その行動は今は行えません。
error--bad_notation = `{ $action }`はこのゲームの行動ではありません。記法は`/ゲーム ルール`で確認するか、`/プレイ`の候補から選んでください。
error--game_over = このゲームはすでに終了しています。
error--option_unknown = `{ $option }`というオプションはありません。このゲームのオプション：{ $known }
error--option_bad_value = オプション`{ $option }`に`{ $value }`は指定できません。
error--option_out_of_range = オプション`{ $option }`は{ $low }から{ $high }の間で指定してください（指定値：{ $value }）。
error--option_bad_choice = オプション`{ $option }`は次のいずれかです：{ $choices }（指定値：`{ $value }`）
error--option_syntax = オプションは名前=値の形でスペース区切りで書いてください（読めなかった部分：`{ $token }`）。
error--unknown_game = `{ $name }`というゲームはありません。
error--game_not_found = ここにはゲーム #{ $id }はありません。
error--stale = このボタンは古くなっています（ゲームが進みました）。最新の盤面メッセージを使ってください。
error--busy = このゲームに同時に多くの操作が届いたため、あなたの操作は反映されませんでした。もう一度お試しください。
error--corrupt_game = ゲーム #{ $id }を保存データから読み込めませんでした（{ $detail }）。サーバー管理者に知らせてください。
error--future_game = ゲーム #{ $id }は新しいバージョンのボットで保存されています（{ $detail }）。サーバー管理者に知らせてください。
error--store_error = 保存データの問題：{ $detail }
error--already_joined = すでにゲーム #{ $id }に参加しています。
error--lobby_full = ゲーム #{ $id }は満員です（{ $max }人）。
error--not_in_game = あなたはゲーム #{ $id }のプレイヤーではありません。
error--not_enough_players = ゲーム #{ $id }を始めるには{ $min }人以上必要です。
error--not_in_lobby = ゲーム #{ $id }はすでに始まっています。
error--game_not_started = ゲーム #{ $id }はまだ始まっていません。
error--game_finished = ゲーム #{ $id }はすでに終了しています。
error--game_abandoned = ゲーム #{ $id }は中止されました。
error--game_active = ゲーム #{ $id }はすでに進行中です。
error--not_creator = それができるのはゲーム #{ $id }の作成者か「サーバー管理」権限を持つメンバーだけです。
error--not_starter = ゲーム #{ $id }を開始できるのは作成者の{ $creator }か「サーバー管理」権限を持つメンバーだけです。作成者が抜けたか、ロビーが{ $hours }時間動かなかったときは、着席している誰でも開始できます。
error--unknown_component = このボタンは認識できません。古いバージョンのボットのものかもしれません。
error--internal = ボット側で問題が起きました。何も変更されていません。もう一度お試しください。
error--which_game = このチャンネルで複数のゲームに参加しています（{ $ids }）。ゲーム番号を指定してください。
error--no_game_here = このチャンネルにあなたの進行中のゲームはありません。ゲーム番号を指定するか`/ゲーム 一覧`を見てください。
lobby--created = ロビー #{ $id }を開きました。ほかの人はメッセージのボタンで参加できます。
lobby--joined = ゲーム #{ $id }に参加しました。
lobby--ai_added = AIプレイヤーがゲーム #{ $id }に参加しました。
lobby--left = ゲーム #{ $id }から抜けました。
lobby--closed = ロビー #{ $id }を閉じました（参加者がいません）。
lobby--started = ゲーム #{ $id }を開始しました。
lobby--header = 🎲 **{ $game }** — ゲーム #{ $id }：いま{ $seated }人（{ $counts }人で遊べます）。オプション：{ $options }
lobby--header_started = 🎲 **{ $game }** — ゲーム #{ $id }、{ $seated }人。オプション：{ $options }
players--range = { $low }〜{ $high }
players--either = { $first }・{ $last }
lobby--players = 参加者：{ $players }
lobby--button--join = 参加
lobby--button--leave = 抜ける
lobby--button--start = 開始
game--started = 🎲 **{ $game }** #{ $id }開始！席順：{ $seats }
game--you_resigned = ゲーム #{ $id }を投了しました。
game--abandoned = ゲーム #{ $id }は{ $by }によって中止されました。
game--you_abandoned = ゲーム #{ $id }を中止しました。
game--resumed = （ゲーム #{ $id }：再起動前に投稿できなかった盤面です。）
game--counted_board_follows = ✅ 操作は反映されました。盤面をすぐに表示できなかったため、数秒後にお送りします。
game--board_here = （ゲーム #{ $id }の盤面です。）
delivery--incomplete = ⚠️ 処理は完了しましたが、返答をすべて表示できませんでした。ゲームの状況は`/game status`で確認できます。
delivery--late_dm = ⌛ この返答はDiscordが非公開で表示できる時間（15分）を過ぎたため、ここにお届けします：
delivery--late_channel = ⌛ { $user }ご依頼への返答がDiscordで非公開に表示できる時間を過ぎ、DMも閉じられています。ゲームの状況は`/game status`で確認できます。
game--summary = #{ $id } { $game } — { $status } — { $players }
turn--played = { $player }が`{ $action }`を行いました。
turn--played--hostile = { $player }が`{ $action }`を行いました。
turn--played--arena = { $player }が行動予定`{ $action }`を出しました。
turn--played--osu = { $player }が`{ $action }`で行動しました。
turn--played--squares = { $player }が`{ $action }`のアクションを行いました。
turn--played--monsterhunter = { $player }が`{ $action }`を行いました。
turn--accepted = ✅ `{ $action }`を行いました。
turn--choose = { $group } — 次を選んでください：
turn--waiting = { $players }の手番待ちです。
turn--prompt = 👉 { $players }さんの手番です。
player--ai = AI { $n }
event--resigned = 🏳️ { $seat }が投了しました。
reason--resign = 投了
outcome--win = 🏆 勝者：{ $winners }（{ $reason }）
outcome--draw = 🤝 引き分け（{ $reason }）
history--header =
    { $count ->
        [1] 📜 ゲーム #{ $id }（{ $game }）：1手
       *[other] 📜 ゲーム #{ $id }（{ $game }）：{ $count }手
    }
history--line = { $n }. { $player } `{ $action }`
history--line_words = { $n }. { $player }：{ $words }（`{ $action }`）
history--empty = まだ手はありません。
list--header_here = {"*"}*このサーバーの進行中のゲーム**（{ $count }）
list--header_mine = {"*"}*あなたのゲーム**（{ $count }）
list--none = ありません。`/ゲーム 新規`で始めましょう。
list--line = #{ $id } { $game } — { $status } — { $players } — 手番：{ $waiting } — 期限{ $left } { $away } — { $channel }
status--lobby = 参加者募集中
status--active = 進行中
status--finished = 終了
status--abandoned = 中止
panel--header = 🔒 ゲーム #{ $id }（{ $game }）：あなたは{ $seat }です。あなた専用のパネルです。
panel--your_choice = 下から選んでください。ほかの人には見えません。
panel--waiting = 今は選ぶものがありません。
panel--button = 自分のパネル
panel--dm_closed = { $user }さん、DMを送れませんでした（DMが閉じています）。**自分のパネル**を押すと、ここであなただけに選択肢が表示されます。
controls--group_option =
    { $count ->
        [1] 1つの行動
       *[other] { $count }通りの行動
    }
controls--pick_group = コマを選んでください…
autocomplete--game = #{ $id } { $game }（{ $status }）
cmd--game--name = ゲーム
cmd--game--desc = ボードゲームを始める・参加する・管理する
cmd--new--name = 新規
cmd--new--desc = 新しいゲームのロビーを開く
cmd--join--name = 参加
cmd--join--desc = ゲームのロビーに参加する
cmd--leave--name = 退出
cmd--leave--desc = ゲームのロビーから抜ける
cmd--start--name = 開始
cmd--start--desc = ロビーからゲームを開始する
cmd--status--name = 状況
cmd--status--desc = 盤面と手番を表示する
cmd--history--name = 履歴
cmd--history--desc = これまでの手を表示する
cmd--resign--name = 投了
cmd--resign--desc = ゲームを投了する
cmd--abandon--name = 中止
cmd--abandon--desc = ゲームを中止する（作成者かサーバー管理権限）
cmd--list--name = 一覧
cmd--list--desc = ダッシュボード：このサーバーの進行中のゲーム
cmd--rules--name = ルール
cmd--rules--desc = ゲームのルール概要と行動の記法
cmd--play--name = プレイ
cmd--play--desc = ゲームで行動する
cmd--arg--game_name--name = ゲーム
cmd--arg--game_name--desc = どのゲームか
cmd--arg--options--name = オプション
cmd--arg--options--desc = 名前=値の形のゲームオプション（例：cap=6）
cmd--arg--id--name = ゲーム番号
cmd--arg--id--desc = ゲーム番号（このチャンネルで参加中のゲームが1つなら省略可）
cmd--arg--action--name = 行動
cmd--arg--action--desc = ゲームの記法で書いた行動（候補には合法手だけが出ます）
panel--dm_probe = 🔒 ゲーム #{ $id }に参加しました。このゲームの秘密の選択はこのDMに届きます。
panel--dm_closed_on_join = DMが閉じているため、秘密の選択はチャンネルの**自分のパネル**ボタンから行います（このサーバーからのDMを許可すると、DMで受け取れます）。
game--seat = { $mark }：{ $player }
controls--pick_step = { $question }（{ $first } … { $last }）
turn--may_change = 全員の選択がそろうまでは変更できます：
game--commitment = 🔐 公正のため、このゲームの乱数シードを`{ $hash }`としてコミットしました。終了時に公開します。
game--reveal = 🔓 シード`{ $seed }`、ソルト`{ $salt }`。確認：`python -m bot.common.fairplay { $seed } { $salt }`の出力が、開始時に投稿したコミットと一致するはずです。
timeout--passed = ⏰ { $player }さんが期限を過ぎました（不在{ $count }回目）。
timeout--replaced = 🤖 { $player }さんは3回不在だったため、残りは代理AIがその席を担当します。
timeout--forfeit = 🏳️ 期限切れのため{ $player }さんの負けとなりました。
timeout--skipped = ⏭️ { $player }さんの手番を飛ばします。
timeout--stand_in_played = 🤖 { $player }さんの代理：`{ $action }`
reminder--header =
    { $count ->
        [1] ⏰ { $player }さん、あなたを待っているゲームがあります：
       *[other] ⏰ { $player }さん、{ $count }件のゲームがあなたの手番を待っています：
    }
reminder--game = • #{ $id } { $game }（{ $channel }）、期限{ $left }
vacation--granted =
    { $count ->
        [1] 🏖️ ゲーム #{ $id }：{ $until }まで1日間、あなたの期限を止めます。
       *[other] 🏖️ ゲーム #{ $id }：{ $until }まで{ $count }日間、あなたの期限を止めます。
    }
vacation--none_left = ゲーム #{ $id }：このゲームで使える休暇日数は残っていません。
settings--dm_reminders_on = 🔔 手番のリマインドをDMでも送ります。
settings--dm_reminders_off = 🔕 リマインドのDMを止めました。ゲームのチャンネルでのメンションは続きます。
rematch--started = 再戦 #{ $id }を開始しました。
rematch--header = 🔁 #{ $old }の再戦：**{ $game }** #{ $id }。席順：{ $seats }
rematch--button = 再戦
stats--header =
    { $count ->
        [1] 📊 **このサーバーの成績**（1人）
       *[other] 📊 **このサーバーの成績**（{ $count }人）
    }
stats--line = { $game } — { $player }：{ $won }勝 / { $played }戦（引き分け{ $drawn }）
stats--none = 終了したゲームはまだありません。
stats--header_dm = 📊 **ボットとのDMでのあなたの成績**（ここではあなた自身のゲームだけを表示します。サーバーの成績は、そのサーバーで`/ゲーム 成績`と入力すると表示されます）
stats--line_dm = { $game }：{ $won }勝 / { $played }戦（引き分け{ $drawn }）
stats--none_dm = ボットとのDMで最後まで遊んだゲームはまだありません。
list--away = 🏖️ { $player }
turn--deadline = ⏳ 期限{ $left }
turn--on_vacation = 🏖️ 休暇中（期限停止）：{ $players }
error--deadline_syntax = 期限`{ $value }`を読めませんでした。`24h`、`3d`、`none`のように書いてください。
error--deadline_range = 期限`{ $value }`は15分から30日の間か、`none`にしてください。
error--timeout_policy = タイムアウト時の扱い`{ $value }`は使えません。次から選んでください：{ $choices }
error--vacation_range = 休暇は1〜60日で指定してください（指定値：{ $value }）。
error--no_running_games = 進行中のゲームはありません。
error--rematch_not_finished = ゲーム #{ $id }はまだ終わっていないので、再戦できません。
error--rematch_exists = 再戦はすでにあります：ゲーム #{ $id }
thread--name = 🎲 { $game } #{ $id }
cmd--arg--deadline--name = 期限
cmd--arg--deadline--desc = 1手の持ち時間：24h（既定）、3d、noneなど
cmd--arg--timeout--name = 時間切れ
cmd--arg--timeout--desc = 期限を過ぎたときの扱い（既定：AIが代わりにプレイする）
cmd--choice--timeout--ai = 代理AIがその手番をプレイする
cmd--choice--timeout--skip = ゲームが許せば手番を飛ばす
cmd--choice--timeout--forfeit = 遅れたプレイヤーの負け
cmd--arg--thread--name = スレッド
cmd--arg--thread--desc = 専用のスレッドで遊ぶ（既定：はい）
cmd--arg--vacation--name = 休暇
cmd--arg--vacation--desc = このゲームで各プレイヤーが取れる休暇日数（既定7）
cmd--mine--name = 自分
cmd--mine--desc = 全サーバーの自分のゲームと手番
cmd--stats--name = 成績
cmd--stats--desc = このサーバーでの対戦数と勝利数（DMでは自分のDMでのゲーム）
cmd--settings--name = 設定
cmd--settings--desc = リマインド・既定の方針・表示の設定と、このサーバーの代理AI（管理者）
cmd--arg--dm_reminders--name = dmリマインド
cmd--arg--dm_reminders--desc = 手番のリマインドをDMでも受け取る
cmd--vacation--name = 休暇
cmd--vacation--desc = 数日間、自分の期限を止める
cmd--arg--days--name = 日数
cmd--arg--days--desc = 何日間か
reminder--your_turn = 👉 ゲーム #{ $id }であなたの手番です：{ $link }
error--player_count = ゲーム #{ $id }は{ $count }人では始められません（遊べる人数：{ $allowed }）。
error--game_broken = ゲーム #{ $id }は保存データが壊れているため、停止しました。表示も続行もできず、やり直しても直りません。ほかのゲームはそのまま続きます（壊れた箇所はボットのログに記録されています）。対処法：終わっていないゲームなら、作成者かサーバー管理者が`/game abandon`（中止）で終了できます。または、ボットの運営者が壊れる前のバックアップを復元してください。
error--action_empty = /playの後に行動を入力してください（候補から選べます）。
error--action_too_long = 行動としては長すぎます（{ $limit }文字まで）。
error--action_failed = その行動を読み取れませんでした。何も変わっていません。候補と見比べてください。
error--option_quote = オプションの引用符が閉じていません。オプションは名前=値を空白で区切って書きます。
error--options_too_long = オプションが長すぎます（{ $limit }文字まで）。
error--deadline_syntax_long = 期限が長すぎて読めません。`24h`、`3d`、`none`のように書いてください。
error--timeout_policy_long = 時間切れの扱いは一覧から選んでください：ai、skip、forfeit。
error--stale_typed = 直前の行動をまだ表示しているところです。最新の盤面を見てから、もう一度どうぞ。
ai--level--easy = やさしい
ai--level--normal = ふつう
ai--level--hard = つよい
ai--level--easy--desc = 良い手を好むが、初めての人でも勝てる強さ
ai--level--normal--desc = 局面を評価し、相手の一手先まで読む
ai--level--hard--desc = 一手ごとに約1秒かけて探索する
player--ai_level = AI { $n }（{ $level }）
lobby--ai_select = AIプレイヤーを追加…
cmd--arg--ai--name = ai
cmd--arg--ai--desc = AIプレイヤーと代理の強さ（既定：ふつう。代理はサーバーの設定に従う）
error--ai_level = AIの強さ`{ $value }`はありません。{ $choices }から選んでください。
error--ai_level_long = AIの強さとしては長すぎます。{ $choices }から選んでください。
turn--played_words = { $player }：{ $words }（`{ $action }`）
turn--phase = 現在のステップ：{ $phase }
seat--mark = {"*"}*{ $letter }** { $shape } { $colour }
seat--mark_short = {"*"}*{ $letter }** { $shape }
seat--named = { $mark } { $player }
colour--blue = 青
colour--orange = オレンジ
colour--bluish_green = 緑
colour--reddish_purple = 紫
colour--sky_blue = 水色
colour--vermillion = 赤
history--page = { $pages }ページ中{ $page }ページ目（{ $first }〜{ $last }手目）。最初の手は`/ゲーム 履歴 ページ:{ $pages }`で見られます。
cmd--arg--page--name = ページ
cmd--arg--page--desc = どのページか（1 = 最新の手）
error--history_page = { $page }ページはありません（全{ $pages }ページ）。
cmd--help--name = ヘルプ
cmd--help--desc = このボットでできることと、ゲームの始め方
help--intro = 🎲 **Discordでボードゲーム。**どのチャンネルでもゲームを始めて仲間を招き、ボタン・メニュー・`/プレイ`の行で遊べます。一手ごとに盤面が画像で表示されます。秘密の選択はDMで届きます（DMを閉じている人には、その人だけに見える**マイパネル**ボタン）。ゲームは何日でも手番を待ち、ボットが再起動しても続きます。
help--games_header = {"*"}*ゲーム**
help--game = • { $game }（{ $counts }人）— ルールと図は`/ゲーム ルール`
help--commands = {"*"}*コマンド**
    • `/ゲーム 新規`ロビーを開く（オプション・期限・AIの強さ）· `/ゲーム 参加` · `/ゲーム 退出` · `/ゲーム 開始`
    • `/プレイ`行動する（候補に合法手が出ます）· `/ゲーム 状況` · `/ゲーム 履歴`
    • `/ゲーム 投了` · `/ゲーム 中止`（作成者か管理者）· `/ゲーム 一覧` · `/ゲーム 自分` · `/ゲーム 成績` · `/ゲーム ランキング`レーティング · `/ゲーム 待った`直前の自分の行動を取り消す（他の全員の同意が必要）
    • `/ゲーム 設定` DMでの通知 · `/ゲーム 休暇`期限を止める · `/ゲーム ルール` · `/ゲーム フォロー` / `/ゲーム フォロー解除`観戦者としてゲームを見守る
    • `/ゲーム リプレイ`ゲームを一手ずつ見返す · `/ゲーム 書き出し`ゲームをファイルで受け取る · `/デッキ 一覧` · `/デッキ 表示` · `/デッキ 保存` · `/デッキ 削除` · `/デッキ 確認`モンスターハンターのデッキ
help--first_game = {"*"}*はじめてのゲーム：**`/ゲーム 新規`でゲームを選び、仲間に**参加**を押してもらうか（メニューからAIプレイヤーも追加できます）、**開始**を押します。盤面の投稿に、誰の手番か、あなたの席（文字・形・色）が書かれています。
rules--picture = 図は例の局面です。記法で使う座標が書かれています。
lobby--default_options = ルールブックどおり
lobby--numbered = { $n }. { $player }
lobby--player_n = { $n }番目の参加者
lobby--remove_option = 外す：{ $n }. { $player }
lobby--remove_select = 席を外す（作成者）…
lobby--invite_select = プレイヤーを招待…
lobby--invited = 📨 { $players }さん：{ $by }さんが**{ $game }**ゲーム #{ $id }に招待しています。上のロビーの**参加**を押してください。
lobby--invites_sent =
    { $count ->
        [1] ゲーム #{ $id }の招待を送りました。
       *[other] ゲーム #{ $id }の招待を送りました（{ $count }人）。
    }
lobby--removed = ゲーム #{ $id }から席を外しました。
error--nobody_to_invite = 選んだ人はみな、すでにゲーム #{ $id }に参加しています。
error--remove_creator = 作成者はゲーム #{ $id }から外せません。ロビーを閉じるには「退出」を使ってください。
local--your_choice = 下に選択を入力してください。ほかの人には見えません。
local--bad_notation = `{ $action }`はこのゲームの行動ではありません。`?`で合法手を表示します。
local--action_empty = 行動を入力してください（`?`で合法手を表示）。
local--no_choice = `{ $typed }`で始まる選択肢はありません。`?`ですべて表示します。
local--here = このテーブル
local--in = あと{ $amount }{ $unit }
local--ago = { $amount }{ $unit }前
local--unit--d = 日
local--unit--h = 時間
local--unit--m = 分
cmd--leaderboard--name = ランキング
cmd--leaderboard--desc = このサーバーのゲームごとのレーティング上位（DMでは自分のレーティング）
cmd--undo--name = 待った
cmd--undo--desc = 直前の自分の行動の取り消しを申し出る（他のプレイヤー全員の同意が必要）
rating--header = 📈 **レーティング**
rating--change = { $player }：{ $before } → { $rating }（{ $delta }）
player--ai_rated = 🤖 AI（{ $level }）
leaderboard--header = 🏅 **このサーバーのランキング**（レーティング = 実力 − 3 × 不確かさ）
leaderboard--game = {"*"}*{ $game }**
leaderboard--line =
    { $count ->
        [1] { $rank }位{ $player } — { $rating }（1戦）
       *[other] { $rank }位{ $player } — { $rating }（{ $count }戦）
    }
leaderboard--none = まだレーティングのついたプレイヤーはいません。ゲームを最後まで遊ぶとここに載ります。
leaderboard--header_dm = 🏅 ランキングはサーバーごとです。サーバーで`/ゲーム ランキング`と入力すると、そのサーバーの上位のプレイヤーが表示されます。**ボットとのDMでのゲームによるあなたのレーティング**（レーティング = 実力 − 3 × 不確かさ）：
leaderboard--line_dm =
    { $count ->
        [1] { $game } — { $rating }（1戦）
       *[other] { $game } — { $rating }（{ $count }戦）
    }
leaderboard--none_dm = DMでのゲームによるレーティングはまだありません。ボットとのDMでゲームを最後まで遊ぶと付きます。
undo--button--ask = ↩️ 待った
undo--button--yes = ✅ 同意する
undo--button--no = ✖️ 断る
undo--asked = ↩️ { $player }が行動{ $n }（`{ $action }`）の取り消し（待った）を申し出ています。
undo--ask_others = { $players }：同意しますか？全員の同意が必要で、1人でも断れば行動はそのままです。誰かが次の行動をすると申し出は取り下げになります。
undo--you_asked = ゲーム #{ $id }に待ったの申し出を出しました。他のプレイヤーの返事を待っています。
undo--agreed = ✅ { $player }が同意しました。残りは{ $waiting }の返事待ちです。
undo--you_agreed = 同意しました（ゲーム #{ $id }）。
undo--declined = ✖️ { $player }が断りました。{ $asker }の行動はそのままです。
undo--you_declined = 断りました（ゲーム #{ $id }）。行動はそのままです。
undo--done = ↩️ 全員の同意により、{ $player }の行動{ $n }（`{ $action }`）を取り消しました。
undo--taken_back = ↩️ ゲーム #{ $id }の行動{ $n }を取り消しました。
history--undo = { $n }. { $player } ↩️ 行動{ $target }以降を取り消し（待った）
history--taken_back = { $n }. ~~{ $player } `{ $action }`~~（取り消し済み）
history--taken_back_words = { $n }. ~~{ $player }：{ $words }（`{ $action }`）~~（取り消し済み）
error--undo_nothing = 取り消せる自分の行動がありません。最新の行動があなたのものではない（またはまだ行動していない）ためです。
error--undo_not_yours = 待ったを申し出られるのは、直前に行動したプレイヤーだけです。
error--undo_final = その行動はもう取り消せません。その後にカードが引かれたか、サイコロが振られたか、隠れた情報が公開されました。
error--undo_unavailable = このゲームの記録を再現できないため、取り消しはできません。
error--undo_pending = この行動の待ったの申し出は、すでに返事を待っています。
error--undo_declined_here = この行動の待ったは、すでに断られています。
error--undo_expired = その申し出は期限切れです。その後にゲームが進みました。
error--undo_own_request = 申し出たのはあなたです。返事をするのは他のプレイヤーです。
error--undo_not_asked = この申し出にあなたの返事は必要ありません。
error--undo_already_answered = この申し出にはすでに返事をしています。
error--undo_closed = この申し出はすでに断られています。行動はそのままです。
cmd--deck--name = デッキ
cmd--deck--desc = デッキを持ち込むゲームのための、保存したデッキ
cmd--deck_list--name = 一覧
cmd--deck_list--desc = 保存したデッキと構築済みデッキ
cmd--deck_show--name = 表示
cmd--deck_show--desc = デッキのカードを画像で見る
cmd--deck_save--name = 保存
cmd--deck_save--desc = デッキコードに名前を付けて保存（同じ名前のデッキは置き換え）
cmd--deck_delete--name = 削除
cmd--deck_delete--desc = 保存したデッキを削除する
cmd--deck_check--name = 確認
cmd--deck_check--desc = デッキコードを確認し、問題をすべて挙げる
cmd--arg--deck_name--name = 名前
cmd--arg--deck_name--desc = デッキ名：32文字までの1語（文字・数字・-・_）
cmd--arg--deck_code--name = コード
cmd--arg--deck_code--desc = デッキコード（例：A01x2.A02x3.I02x2…）
cmd--arg--policy--name = 方針
cmd--arg--policy--desc = 新しいゲームごとに自動で設定される既定の方針（例：def:block）
error--deck_which_game = デッキを使うゲームが複数あります（{ $games }）。ゲームを指定してください。
error--deck_no_decks = { $game }にはデッキがありません。
error--deck_name_long = デッキ名は{ $limit }文字までです。
error--deck_name_bad = デッキ名は文字・数字・-・_ からなる1語です（{ $limit }文字まで）。
error--deck_not_found = `{ $name }`という名前のデッキはありません（/デッキ一覧で確認できます）。
error--deck_name_reserved = `{ $name }`は構築済みデッキなので、置き換えも削除もできません。別の名前にしてください。
error--deck_refused = デッキ`{ $name }`は保存されませんでした：
    { $problems }
error--deck_limit = このゲームのデッキはすでに{ $limit }個保存されています。先に1つ削除してください。
error--deck_code_long = デッキコードが長すぎます（{ $limit }文字まで）。
error--policy_which_game = 方針のあるゲームが複数あります（{ $games }）。ゲームを指定してください。
error--policy_none = { $game }には方針の設定がありません。
error--policy_bad = 方針はキー：値の形で書いてください。次のいずれかです：{ $choices }
deck--list_header = 🃏 { $game }のあなたのデッキ（保存{ $count }/{ $limit }）。いつでも使える構築済みデッキ：
deck--option_saved = 保存したデッキ：{ $name }
deck--option_ready = 構築済みデッキ：{ $title }
deck--option_with = { $deck }・{ $action }
deck--option_default = このハンターの構築済みデッキ
deck--menu = デッキを選んでください（保存したデッキ、次に構築済みデッキ）
deck--ready_line = • `{ $name }`：{ $title }
deck--saved_line = • `{ $name }`：あなたのデッキ、{ $cards }枚
deck--none_saved = 保存したデッキはまだありません： /デッキ保存名前コード
deck--show_header = 🃏 { $game }のデッキ`{ $name }`：{ $cards }枚。
deck--cards = カード：{ $cards }
deck--code = コード：`{ $code }`
deck--saved = ✅ デッキ`{ $name }`を{ $game }用に保存しました。ハンターを選ぶときに名前を書いてください（例：`take H01 2A { $name }`）。
deck--replaced = ✅ { $game }のデッキ`{ $name }`を置き換えました。
deck--deleted = 🗑️ デッキ`{ $name }`を削除しました。
deck--check_bad =
    { $count ->
        [1] ❌ このデッキは使えません（問題1件）：
       *[other] ❌ このデッキは使えません（問題{ $count }件）：
    }
deck--check_good = ✅ このデッキは使えます（{ $cards }枚）。
policy--saved = ✅ { $game }の既定の方針：{ $policies }。新しいゲームごとに、最初の機会にあなたに代わって（非公開で）設定されます。
alt--seat = { $letter }（{ $colour }）
alt--more = ほか{ $count }件
