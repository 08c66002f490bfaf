"""Forms (Game.form): for every game that offers one, along random playouts, a form fits Discord's
dialog (at most 5 questions of at most 25 choices), every combination of its choices composes to
exactly the legal actions, and the dialog discord.py builds from it passes the stand-in's checks
in both languages."""

from __future__ import annotations

import itertools

import pytest

from bot.discord_app import custom_ids
from bot.discord_app.components import FormModal, form_values
from bot.i18n import T, render
from bot.service.forms import Forms
from bot.service.outbox import FormSpec
from games import MAX_FORM_CHOICES, MAX_FORM_FIELDS, get_game
from tests.fakediscord import validate as V

@pytest.mark.parametrize("options", [{}, {"dice": "reported"}], ids=["bot dice", "reported dice"])
def test_arena_forms_compose_exactly_the_legal_actions(options):
    game = get_game("arena")
    seen = 0
    for seed in range(6):
        state = game.setup(2, game.resolve_options(options, 2), seed)
        for _ in range(12):
            if game.outcome(state) is not None:
                break
            for seat in sorted(game.to_act(state)):
                form = game.form(state, seat)
                assert form is not None and len(form.fields) <= MAX_FORM_FIELDS
                assert all(1 <= len(f.choices) <= MAX_FORM_CHOICES for f in form.fields)
                combos = itertools.product(*[[v for v, _ in f.choices] for f in form.fields])
                composed = {game.form_action(state, seat, c) for c in combos}
                assert composed == set(game.legal_actions(state, seat))
                seen += 1
            seat = min(game.to_act(state))
            state, _ = game.apply(state, seat, game.legal_actions(state, seat)[0])
    assert seen > 20


def test_arena_form_refuses_values_outside_the_notation():
    game = get_game("arena")
    state = game.setup(2, game.resolve_options({}, 2), 1)
    assert game.form_action(state, 0, ("XX", "0")) is None
    assert game.form_action(state, 0, ("F",)) is None
    assert game.form_action(state, 0, ("7", "1", "1")) is None
    assert game.form_action(state, 0, ("CF", "0")) == "CF/0"  # well-formed: apply judges (no charge right)
    assert game.form(game.setup(2, game.resolve_options({}, 2), 1) | {"outcome": {"winners": [0], "reason": "x"}}, 0) is None


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("options", [{}, {"dice": "reported"}])
def test_the_dialog_discord_py_builds_passes_discords_checks(lang, options):
    game = get_game("arena")
    state = game.setup(2, game.resolve_options(options, 2), 3)
    form = game.form(state, 0)
    spec = FormSpec(7, 12, 123456789012345678, Forms._form_words(game, form.title),
                    [(Forms._form_words(game, f.label), [(v, Forms._form_words(game, w)) for v, w in f.choices])
                     for f in form.fields])
    data = FormModal(spec, lang).to_dict()
    assert V.modal_problems(data) == []
    # The catalogue texts fit as they are (the dialog would otherwise cut them short).
    assert len(render(lang, spec.title)) <= 45 and all(len(render(lang, label)) <= 45 for label, _ in spec.fields)
    assert custom_ids.form_owner(custom_ids.decode(data["custom_id"])) == 123456789012345678
    assert all(c["type"] == 18 and c["component"]["type"] in (3, 21) for c in data["components"])
    # What Discord sends back on submit reads as the answers in field order.
    submitted = {"custom_id": data["custom_id"], "components": [
        {"type": 18, "component": {"type": c["component"]["type"], "custom_id": c["component"]["custom_id"],
                                   **({"value": c["component"]["options"][-1]["value"]} if c["component"]["type"] == 21
                                      else {"values": [c["component"]["options"][-1]["value"]]})}}
        for c in data["components"]]}
    values = form_values(submitted)
    assert values == [f.choices[-1][0] for f in form.fields]
    assert game.form_action(state, 0, tuple(values)) in game.legal_actions(state, 0)


def test_a_one_choice_question_is_a_select_and_missing_answers_are_none():
    spec = FormSpec(1, 1, 5, T("form.arena.order_title"),
                    [(T("form.arena.move_label"), [("S", T("form.arena.move", move_term=T("term.arena.S")))])])
    data = FormModal(spec, "en").to_dict()
    assert data["components"][0]["component"]["type"] == 3 and V.modal_problems(data) == []
    assert form_values({"components": []}) == []
    assert form_values({"components": [{"type": 18, "component": {"type": 21, "custom_id": "f1", "value": "S"}}]}) is None


def test_form_custom_ids_round_trip_and_reject_junk():
    assert custom_ids.decode(custom_ids.encode_form_button(4)).kind == "m"
    assert custom_ids.decode(custom_ids.encode_form_button(4, 9)).version == 9
    route = custom_ids.decode(custom_ids.encode_form(4, 9, 77))
    assert (route.version, custom_ids.form_owner(route)) == (9, 77)
    assert custom_ids.form_owner(custom_ids.decode(custom_ids.encode_form_button(4, 9))) is None
    for junk in ("tt:m:4:x", "tt:m:4:9:alice", "tt:m:4::7", "tt:m:4:9:" + "9" * 21):
        assert custom_ids.decode(junk) is None, junk
