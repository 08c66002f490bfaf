cmd--follow--name = フォロー
cmd--follow--desc = 観戦者としてゲームをフォローする（手番ごとに1通）
cmd--unfollow--name = フォロー解除
cmd--unfollow--desc = ゲームのフォローをやめる
cmd--arg--view_side--name = 自分側から表示
cmd--arg--view_side--desc = 自分だけに見える盤面を自分の側から描く（対応するゲームのみ）
cmd--arg--view_large--name = 大きく表示
cmd--arg--view_large--desc = 自分だけに見える盤面を小さな画面向けに大きく描く
follow--button--on = 👁️ フォロー
follow--button--off = 🙈 フォロー解除
follow--started = 👁️ ゲーム #{ $id }（{ $game }）をフォローしました。新しいプレイヤーの手番になるたびに1通お知らせします。やめるときは下のボタンか /gameフォロー解除で。
follow--stopped = 🙈 ゲーム #{ $id }（{ $game }）のフォローをやめました。
follow--list = 👁️ フォロー中の人（{ $count }人）：{ $followers } { $more }
follow--list_more = ほか{ $count }人
follow--notice_header =
    { $count ->
        [1] 👁️ { $player }さん、フォロー中のゲームで手番が進みました：
       *[other] 👁️ { $player }さん、フォロー中の{ $count }件のゲームで手番が進みました：
    }
follow--notice_game = • #{ $id } { $game }：{ $players }さんの手番です — { $link }
error--follow_playing = あなたはゲーム #{ $id }のプレイヤーです。自分の手番は通知されるので、フォローの必要はありません。
error--follow_already = ゲーム #{ $id }はすでにフォロー中です。
error--follow_not_following = ゲーム #{ $id }はフォローしていません。
settings--view_side_on = 🔄 自分だけに見える盤面（パネルと、あなたへの返信の盤面）を、対応するゲームでは自分の側から描きます。公開の盤面とリプレイビューアーは全員共通のままです。
settings--view_side_off = 🔄 自分だけに見える盤面を通常の向きで描きます。
settings--view_large_on = 🔍 自分だけに見える盤面を1.5倍の大きさで描きます。公開の盤面は全員共通のままです。
settings--view_large_off = 🔍 自分だけに見える盤面を通常の大きさで描きます。
