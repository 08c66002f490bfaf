"""Worker processes: the pool that draws boards and runs AI searches off the event loop, its fork
server, the fork server's warm-up and the replay frames drawn there.

Kept empty: ``bot.workers.fork_server`` is imported on the bot's first line, before the pool's
own imports (the engines and renderers) should start."""
