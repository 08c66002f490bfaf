"""Two people play a whole SQUARESIV game against each other by tapping their pages, while a third
follows as a spectator: every page follows every move live, without a reload."""

from __future__ import annotations

from tests.browser.conftest import ALICE, BOB, CAROL
from tests.browser.tapping import board_version, tap_action, wait_until

TURN_LIMIT = 24  # the game's own option: at this many turns it ends (a draw, unless someone won first)
MOST_MOVES = TURN_LIMIT + 5  # a hang bound on the loop


def chosen(actions: list[dict], ply: int) -> dict:
    """A move a person might make: a placement from the hand while there is one, else one of the
    moves offered, varied from turn to turn (not the same piece back and forth)."""
    placements = [a for a in actions if "@" in a["action"]]
    pool = placements or actions
    return pool[(ply * 7) % len(pool)]


def test_two_players_tap_a_whole_game_while_a_spectator_follows(table, people) -> None:
    game = table.new_game("squares", [ALICE, BOB], f"turn_limit={TURN_LIMIT}")
    players = {ALICE: people(ALICE), BOB: people(BOB)}
    spectator = people(CAROL)
    for person in [*players.values(), spectator]:
        person.open(game)
    assert spectator.state()["seat"] is None and not spectator.state()["actions"]
    loads = {p.user_id: p.page.evaluate("performance.getEntriesByType('navigation').length") for p in players.values()}

    for ply in range(MOST_MOVES):
        states = {uid: p.state() for uid, p in players.items()}
        if all(s["status"] != "active" for s in states.values()):
            break
        (uid,) = [u for u, s in states.items() if s["your_turn"]]
        before = states[uid]["version"]
        move = chosen(states[uid]["actions"], ply)
        tap_action(players[uid].page, move)
        for person in [*players.values(), spectator]:  # the mover's page, the opponent's and the spectator's
            wait_until(lambda: (board_version(person.page) or 0) > before,
                       f"{move['action']} (taps {move['targets']}) to show on {person.user_id}'s page; it says: "
                       f"{person.page.inner_text('#error')!r} {person.page.inner_text('#tapped')!r}")
    else:
        raise AssertionError(f"the game did not end in {MOST_MOVES} moves")

    final = players[ALICE].state()
    assert final["status"] == "finished" and final["outcome"]
    for person in [*players.values(), spectator]:
        wait_until(lambda: final["outcome"].split("{{")[0][:20] in person.text(), "the outcome on every page")
    # nobody reloaded: each page is still its first navigation, kept current by the live updates
    for uid, person in players.items():
        assert person.page.evaluate("performance.getEntriesByType('navigation').length") == loads[uid]
    history = table.run(table.host.history(game, asker=ALICE))
    assert len(history) > 2
