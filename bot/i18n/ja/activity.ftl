# Discord アクティビティとしてのテーブル（bot/web/activity.py）：ページと、受け付けられないときの説明。
web--activity_opening = テーブルを開いています…
web--error--activity_off = このボットはDiscordの中でテーブルを開きません。「テーブル」ボタンで受け取ったリンクを使ってください。
web--error--activity_code = Discordがあなたを確認できませんでした。アクティビティを閉じ、「テーブル」ボタンからもう一度開いてください。何も変更されていません。
web--error--activity_no_game = このアクティビティはもうゲームにつながっていません。ゲームの盤面の下にある「テーブル」ボタンをもう一度押してください。
web--error--activity_not_in_instance = あなたはこのアクティビティに参加していません。Discordで参加するか、ご自身で「テーブル」ボタンを押してください。
web--error--activity_discord = Discordに接続できませんでした。少し待ってからもう一度お試しください。何も変更されていません。
web--table_button = テーブル
web--table_link = このゲームのあなた専用のテーブルです（このリンクはあなただけのもので、15分間有効です）：{ $link }
web--your_turn_link = テーブルを開く：{ $link }
web--table_off = このボットはウェブのテーブルを提供していません。ここでボタンと`/play`を使って遊んでください。
