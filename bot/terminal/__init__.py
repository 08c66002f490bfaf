"""The terminal, a way in: the same service as Discord, played at a keyboard (``python -m bot.local``)."""
