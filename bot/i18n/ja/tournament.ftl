cmd--tournament--name = 大会
cmd--tournament--desc = スイス式・総当たり・勝ち抜き戦の大会を開く
cmd--tournament_new--name = 新規
cmd--tournament_new--desc = 参加者を募る大会を開く
cmd--tournament_join--name = 参加
cmd--tournament_join--desc = 大会に参加する（スイス式なら開始後も可）
cmd--tournament_leave--name = 退出
cmd--tournament_leave--desc = 大会から抜ける（開始後は棄権）
cmd--tournament_start--name = 開始
cmd--tournament_start--desc = 大会を開始し第1ラウンドを組む（主催者）
cmd--tournament_standings--name = 順位
cmd--tournament_standings--desc = 大会の順位表（画像と文字）
cmd--tournament_drop--name = 棄権
cmd--tournament_drop--desc = 参加者を棄権させる（主催者）、または自分が棄権する
cmd--tournament_abandon--name = 中止
cmd--tournament_abandon--desc = 大会・リーグを中止する（主催者かサーバー管理権限）
cmd--league--name = リーグ
cmd--league--desc = 常設リーグ：いつでも参加し、対局を申し込み、順位を上げる
cmd--league_new--name = 新規
cmd--league_new--desc = このチャンネルでリーグを開く
cmd--league_join--name = 参加
cmd--league_join--desc = リーグに参加する
cmd--league_play--name = 対局
cmd--league_play--desc = 次のリーグ戦を申し込む（レーティングで組み合わせ）
cmd--league_table--name = 順位表
cmd--league_table--desc = リーグの順位表
cmd--league_leave--name = 退出
cmd--league_leave--desc = リーグから抜ける
cmd--arg--format--name = 形式
cmd--arg--format--desc = スイス式・総当たり・勝ち抜き戦
cmd--choice--format--swiss = スイス式
cmd--choice--format--roundrobin = 総当たり
cmd--choice--format--elimination = 勝ち抜き戦
cmd--arg--rounds--name = ラウンド数
cmd--arg--rounds--desc = スイス式のみ：ラウンド数（既定：全勝者が1人に絞れる数）
cmd--arg--table--name = 卓人数
cmd--arg--table--desc = 1卓の人数（スイス式。既定2）
cmd--arg--tournament_id--name = 大会番号
cmd--arg--tournament_id--desc = 大会番号（このサーバーで開催中が1つなら省略可）
cmd--arg--league_id--name = リーグ番号
cmd--arg--league_id--desc = リーグ番号（このサーバーに1つなら省略可）
cmd--arg--player--name = プレイヤー
cmd--arg--player--desc = 棄権させるプレイヤー（省略すると自分が棄権）
cmd--arg--games--name = 対局数
cmd--arg--games--desc = 各プレイヤーの対局数（既定5）
cmd--arg--tournament_deadline--desc = 各対局の1手の持ち時間：24h（既定）、3dなど
tournament--kind--swiss = スイス式
tournament--kind--roundrobin = 総当たり
tournament--kind--elimination = 勝ち抜き戦
tournament--kind--league = リーグ
tournament--status--open = 参加受付中
tournament--status--running = 進行中
tournament--status--finished = 終了
tournament--status--abandoned = 中止
tournament--created = 大会 #{ $id }を開きました。参加は`/tournament join`、開始は`/tournament start`です。
tournament--created_post = 🏆 **{ $game }**の{ $kind }大会 #{ $id }（主催：{ $by }）：{ $terms }。
    参加は`/tournament join tournament:{ $id }`で。
league--created = リーグ #{ $id }を開きました。参加は`/league join`、対局の申し込みは`/league play`です。
league--created_post = 🏅 **{ $game }**のリーグ #{ $id }（主催：{ $by }）：{ $terms }。
    `/league join league:{ $id }`で参加し、`/league play`で対局を申し込んでください。
tournament--term_deadline = 1手の持ち時間{ $hours }時間
tournament--term_rounds = 全{ $rounds }ラウンド
tournament--term_table = 1卓{ $size }人
tournament--term_options = オプション{ $options }
league--games_each = 各自{ $games }局。
tournament--joined = 大会 #{ $id }に参加しました（参加番号 #{ $entry }）。
tournament--joined_late = 大会 #{ $id }に途中参加しました（参加番号 #{ $entry }）。第{ $round }ラウンドから対局します。
league--joined = リーグ #{ $id }に参加しました（参加番号 #{ $entry }）。`/league play`で対局を申し込めます。
tournament--joined_post =
    { $family ->
        [league] ➕ { $player }さんがリーグ #{ $id }に参加しました（#{ $entry }、参加者{ $count }人）。
       *[other] ➕ { $player }さんが大会 #{ $id }に参加しました（#{ $entry }、参加者{ $count }人）。
    }
tournament--joined_late_post = ➕ { $player }さんが大会 #{ $id }に途中参加しました。第{ $round }ラウンドから対局します（参加者{ $count }人）。
tournament--left =
    { $family ->
        [league] リーグ #{ $id }から抜けました。
       *[other] 大会 #{ $id }から抜けました。
    }
tournament--dropped =
    { $family ->
        [league] { $player }さんをリーグ #{ $id }から棄権扱いにしました。
       *[other] { $player }さんを大会 #{ $id }から棄権扱いにしました。
    }
tournament--left_post = ➖ { $player }さんが大会 #{ $id }から抜けました（参加者{ $count }人）。
tournament--dropped_post =
    { $family ->
        [league] 🚪 { $player }さんがリーグ #{ $id }を棄権しました。以後は対局が組まれず、対局中のゲームは投了となります。これまでの成績は順位表に残ります。
       *[other] 🚪 { $player }さんが大会 #{ $id }を棄権しました。以後は組み合わせに入らず、対局中のゲームは投了となります。これまでの成績は順位表に残ります。
    }
tournament--dropped_by_post =
    { $family ->
        [league] 🚪 { $by }さんが{ $player }さんをリーグ #{ $id }から棄権扱いにしました。以後は対局が組まれず、対局中のゲームは投了となります。これまでの成績は順位表に残ります。
       *[other] 🚪 { $by }さんが{ $player }さんを大会 #{ $id }から棄権扱いにしました。以後は組み合わせに入らず、対局中のゲームは投了となります。これまでの成績は順位表に残ります。
    }
tournament--you_started = 大会 #{ $id }を開始しました。
tournament--you_abandoned =
    { $family ->
        [league] リーグ #{ $id }を中止しました。
       *[other] 大会 #{ $id }を中止しました。
    }
tournament--round_post = 🏆 **第{ $round }ラウンド（全{ $rounds }ラウンド）** — **{ $game }** { $kind }大会 #{ $id }
tournament--pairings = {"*"}*第{ $round }ラウンドの組み合わせ**（各対局は専用スレッドで）：
tournament--table = 第{ $n }卓：{ $players } — ゲーム #{ $id }
tournament--pair = { $a }対{ $b }
tournament--bye = { $player }さん：このラウンドは不戦勝（1点）
tournament--walkover = { $player }さん：相手の棄権により不戦勝
tournament--no_games = このラウンドの対局はありません。
tournament--deadline_note = 1手の持ち時間は{ $hours }時間です。期限を過ぎたプレイヤーはその対局を失います。このラウンドの全対局が終わり次第、次のラウンドを組みます。
tournament--results = {"*"}*第{ $round }ラウンドの結果：**
tournament--result_win = #{ $id }：{ $winner }さんが{ $loser }さんに勝ち
tournament--result_draw = #{ $id }：{ $players }さんは引き分け
tournament--result_forfeit = #{ $id }：{ $absent }さんが期限切れで不戦敗、{ $winner }さんの勝ち
tournament--result_void = #{ $id }：中止のため{ $players }さんに得点なし
tournament--result_places = #{ $id }：{ $places }
tournament--placed = { $place }位{ $player }
tournament--standings_after = {"*"}*第{ $round }ラウンド終了時の順位：**
tournament--standings_header = {"*"}*順位：**
tournament--final_standings = {"*"}*最終順位：**
tournament--standing = { $rank }位`#{ $entry }` { $player } — { $points }点{ $tiebreak }・{ $played }局{ $dropped }
tournament--standing_wins = { $rank }位`#{ $entry }` { $player } — { $wins }勝・{ $played }局{ $dropped }
tournament--buchholz = ・ブッフホルツ{ $value }
tournament--head_to_head = ・直接対決{ $value }
tournament--dropped_mark = （棄権）
tournament--more_players = …ほか{ $count }人
tournament--finished_post = 🏁 **{ $game }** { $kind }大会 #{ $id }が終了しました。
tournament--champion = 🏆 大会 #{ $id }の優勝は{ $players }さん！おめでとうございます！
tournament--abandoned_post =
    { $family ->
        [league] 🛑 リーグ #{ $id }は{ $by }さんにより中止されました。
       *[other] 🛑 大会 #{ $id }は{ $by }さんにより中止されました。
    }
tournament--abandoned_games = 進行中の対局は通常のゲームとして続けられます。
tournament--summary = 🏆 #{ $id }：**{ $game }**の{ $kind }大会、{ $status }、第{ $round }ラウンド（全{ $rounds }）、参加者{ $count }人
league--summary = 🏅 #{ $id }：**{ $game }**のリーグ、{ $status }、参加者{ $count }人
tournament--nobody_yet = まだ参加者がいません。
tournament--game_header = 🏆 大会 #{ $tournament }第{ $round }ラウンド第{ $table }卓：**{ $game }**ゲーム #{ $id } — { $seats }
league--game_header = 🏅 リーグ #{ $tournament }第{ $table }戦：**{ $game }**ゲーム #{ $id } — { $seats }
league--waiting = リーグ #{ $id }で対戦相手を待っています（{ $games }局中{ $played }局消化）。次に申し込んだプレイヤーと組み合わせます。
league--paired = リーグ #{ $id }の対局はゲーム #{ $game }、相手は{ $opponent }さんです。
league--game_post = 🏅 リーグ #{ $id }：{ $players } — ゲーム #{ $game }
error--tournament_needs_server = 大会はサーバーに属します。サーバーのチャンネルで開いてください。
error--tournament_kind = `{ $value }`は大会の形式ではありません。スイス式・総当たり・勝ち抜き戦から選んでください。
error--tournament_table_size = { $game }は{ $size }人では遊べません。1卓の人数は{ $allowed }から選んでください。
error--tournament_two_players = { $kind }は1卓2人です。多人数の卓はスイス式大会で使えます。
error--tournament_rounds_swiss_only = ラウンド数を指定できるのはスイス式だけです。ほかの形式は参加人数で決まります。
error--tournament_rounds_range = ラウンド数は1〜{ $most }です。
error--league_games_range = 各自の対局数は1〜{ $most }です。
error--tournament_not_found =
    { $family ->
        [league] ここにはリーグ #{ $id }はありません。
       *[other] ここには大会 #{ $id }はありません。
    }
error--tournament_already_joined =
    { $family ->
        [league] すでにリーグ #{ $id }に参加しています。
       *[other] すでに大会 #{ $id }に参加しています。
    }
error--tournament_dropped =
    { $family ->
        [league] このプレイヤーはリーグ #{ $id }をすでに棄権しています。棄権したプレイヤーは復帰できません。
       *[other] このプレイヤーは大会 #{ $id }をすでに棄権しています。棄権したプレイヤーは復帰できません。
    }
error--tournament_finished =
    { $family ->
        [league] リーグ #{ $id }はすでに終了しています。
       *[other] 大会 #{ $id }はすでに終了しています。
    }
error--tournament_abandoned =
    { $family ->
        [league] リーグ #{ $id }は中止されました。
       *[other] 大会 #{ $id }は中止されました。
    }
error--tournament_running = 大会 #{ $id }はすでに始まっています。途中参加できるのはスイス式だけです。
error--tournament_last_round = 大会 #{ $id }は最終ラウンドです。いまからは参加できません。
error--tournament_full =
    { $family ->
        [league] リーグ #{ $id }は満員です（{ $most }人）。
       *[other] 大会 #{ $id }は満員です（{ $most }人）。
    }
error--tournament_not_entrant =
    { $family ->
        [league] { $player }さんはリーグ #{ $id }に参加していません。
       *[other] { $player }さんは大会 #{ $id }に参加していません。
    }
error--tournament_started =
    { $family ->
        [league] リーグ #{ $id }は開いた時から進行中で、開始の操作はいりません。対局は`/league play`で申し込めます。
       *[other] 大会 #{ $id }はすでに始まっています。
    }
error--tournament_too_few = 大会 #{ $id }の開始には{ $least }人以上必要です（現在{ $count }人）。
error--tournament_which = どの大会ですか？このサーバーには{ $ids }があります。番号を指定してください。
error--tournament_none_here = このサーバーには開催中の大会がありません。`/tournament new`で開けます。
error--league_which = どのリーグですか？このサーバーには{ $ids }があります。番号を指定してください。
error--league_none_here = このサーバーにはリーグがありません。`/league new`で開けます。
error--not_in_tournament =
    { $family ->
        [league] リーグ #{ $id }に参加していません。
       *[other] 大会 #{ $id }に参加していません。
    }
error--not_organiser =
    { $family ->
        [league] それができるのはリーグ #{ $id }の主催者か、サーバー管理権限を持つメンバーだけです。
       *[other] それができるのは大会 #{ $id }の主催者か、サーバー管理権限を持つメンバーだけです。
    }
error--league_not_a_league = #{ $id }はリーグではなく大会です。`/tournament`のコマンドを使ってください。
error--league_already_waiting = リーグ #{ $id }ですでに対戦相手を待っています。
error--league_done = リーグ #{ $id }の{ $games }局をすべて消化しました。
league--term_games = 各自{ $games }局
tournament--alt = { $rank }位 #{ $entry }：{ $points }点。
tournament--deadline_note_table = 1手の持ち時間は{ $hours }時間です。期限を過ぎたプレイヤーの手番は代理AIがプレイします。このラウンドの全対局が終わり次第、次のラウンドを組みます。
