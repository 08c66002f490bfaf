"""A fake hidden-information game that exercises the secret-panel mechanism and the contract.

Each round both players secretly pick a number 1-3 at the same time (a simultaneous, private
step); when both are in, the higher pick scores a point. First to 2 points wins; a game also
ends after 5 rounds.
"""

from __future__ import annotations

from games.base import Game, Outcome
from games.errors import NotationError


class SecretPick(Game):
    def __init__(self):
        super().__init__(name="secretpick", min_players=2, max_players=2, hidden_information=True)

    def setup(self, players, options, seed):
        self.resolve_options(options, players)
        return {"players": 2, "rng": seed, "round": 1, "picks": [None, None], "score": [0, 0],
                "revealed": [], "outcome": None}

    def to_act(self, state):
        if state["outcome"]:
            return set()
        return {s for s in (0, 1) if state["picks"][s] is None}

    def parse(self, action):
        if action in ("pick1", "pick2", "pick3"):
            return int(action[-1])
        raise NotationError("bad_notation", action=action)

    def legal_actions(self, state, seat):
        return ["pick1", "pick2", "pick3"] if seat in self.to_act(state) else []

    def why_illegal(self, state, seat, action):
        return "illegal_action"

    def _apply(self, state, seat, action):
        state["picks"][seat] = self.parse(action)
        events = [{"type": "picked", "seat": seat}]
        if None in state["picks"]:
            return events
        a, b = state["picks"]
        state["revealed"].append([a, b])
        if a != b:
            state["score"][0 if a > b else 1] += 1
        events.append({"type": "revealed", "a": a, "b": b})
        state["picks"] = [None, None]
        state["round"] += 1
        for s in (0, 1):
            if state["score"][s] >= 2:
                state["outcome"] = Outcome((s,), "points").to_json()
        if state["outcome"] is None and state["round"] > 5:
            state["outcome"] = Outcome((), "rounds", draw=True).to_json()
        return events

    def view(self, state, seat):
        return {
            "game": self.name, "viewer": seat, "round": state["round"], "score": state["score"],
            "revealed": state["revealed"],
            "submitted": [p is not None for p in state["picks"]],
            "my_pick": state["picks"][seat] if seat is not None else None,
            "to_act": sorted(self.to_act(state)), "outcome": state["outcome"],
        }

    def scramble_hidden(self, state, seat, rng):
        """Re-deal what ``seat`` may not know: the other seat's pending pick, and the RNG."""
        new = super().scramble_hidden(state, seat, rng)
        for other in (0, 1):
            if other != seat and new["picks"][other] is not None:
                new["picks"][other] = rng.below(3) + 1
        return new


def render_secretpick(view: dict, **options) -> bytes:
    """A real PNG of the public score (the fake game needs an image like any other)."""
    import io

    from PIL import Image

    image = Image.new("RGB", (40 + 10 * view["round"], 20), (20 * view["score"][0], 20 * view["score"][1], 90))
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def register_plugin() -> None:
    """Entry point for GAME_PLUGINS: lets the real bot process host the fake secret game."""
    import renderers
    from bot import i18n
    from games import registry

    registry.register(SecretPick())
    renderers.register("secretpick")(render_secretpick)
    for lang, entries in STRINGS.items():
        i18n.extend(lang, entries)


STRINGS = {
    "en": {"game.secretpick.title": "Secret pick (test game)", "event.secretpick.picked": "🔒 {seat} has chosen.",
           "event.secretpick.revealed": "Revealed: {a} vs {b}.", "reason.points": "points",
           "reason.rounds": "all rounds played",
           "rules.secretpick.summary": "A tiny test game: both secretly pick 1-3; the higher pick scores.",
           "rules.secretpick.notation": "Notation: `pick1`, `pick2`, `pick3`."},
    "ja": {"game.secretpick.title": "ひみつの数（テスト用）", "event.secretpick.picked": "🔒 {seat} が選びました。",
           "event.secretpick.revealed": "公開: {a} 対 {b}。", "reason.points": "得点", "reason.rounds": "全ラウンド終了",
           "rules.secretpick.summary": "テスト用の小さなゲーム: 2人が秘密に1〜3を選び、大きい方が得点します。",
           "rules.secretpick.notation": "記法: `pick1`, `pick2`, `pick3`"},
}
