"""The expert's search options (horizon, rollout policy, trust), its budget in CPU time, and --think on
the command line."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from voicejack.bots import ExpertBot, make_bot
from voicejack.bots.expert import DEAL_HORIZON, ExpertOptions, parse_expert_options
from voicejack.bots.factory import with_think
from voicejack.engine import GameState, legal_moves

from tests.bots.test_bots_expert import positions_from_matches, redealt


@pytest.fixture(scope="module")
def two_player_positions() -> list[GameState]:
    return positions_from_matches(2, False, "regular", wanted=6)


def test_the_search_options_parse() -> None:
    assert parse_expert_options("horizon=deal").horizon == DEAL_HORIZON
    assert parse_expert_options("horizon=0:policy=hard:trust=1.5") == ExpertOptions(horizon=0, policy="hard", trust=1.5)
    assert parse_expert_options("") == ExpertOptions()
    assert parse_expert_options("drop=0:infer=5") == ExpertOptions(drop=0.0, infer=5.0)


@pytest.mark.parametrize("text,message", [
    ("horizon=forever", "horizon needs a whole number or 'deal'"),
    ("horizon=-3", "horizon at least 0"),
    ("trust=-1", "trust, drop and infer at least 0"),
    ("drop=-2", "trust, drop and infer at least 0"),
    ("infer=-0.5", "trust, drop and infer at least 0"),
    ("infer=warm", "infer needs a float"),
    ("policy=expert", "easy, medium, hard"),
    ("think=inf", "above 0"),
    ("think=nan", "above 0"),
])
def test_bad_search_options_are_refused_with_what_is_accepted(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_expert_options(text)


@pytest.mark.parametrize("options", ["horizon=deal", "horizon=0:policy=hard", "trust=1", "drop=2", "infer=5"])
def test_every_horizon_and_policy_keeps_the_choice_to_what_the_seat_sees(
    two_player_positions: list[GameState], options: str,
) -> None:
    kind = f"bot:expert:samples=3:candidates=3:think=60:{options}"
    rng = random.Random(2)
    for state in two_player_positions[:3]:
        moves = legal_moves(state)
        first = make_bot(kind, seed=4).choose(state, moves)
        assert make_bot(kind, seed=4).choose(redealt(state, rng), moves) == first


@pytest.mark.parametrize("options", ["think=0.1", "think=0.1:horizon=deal"])
def test_the_cpu_budget_is_kept(two_player_positions: list[GameState], options: str) -> None:
    # Far more worlds than the budget buys, measured by the bot's own CPU time: the clock stops the search.
    bot = make_bot(f"bot:expert:clock=cpu:samples=100000:{options}", seed=1)
    assert isinstance(bot, ExpertBot)
    slowest = 0.0
    for state in two_player_positions:
        started = time.thread_time()
        bot.choose(state, legal_moves(state))
        slowest = max(slowest, time.thread_time() - started)
    assert slowest <= bot.options.think + 0.05


def test_the_plies_think_buys_are_spent_and_counted(two_player_positions: list[GameState]) -> None:
    # A budget the clock never cuts: the search stops on the plies planned, a little over them at most.
    bot = make_bot("bot:expert:think=0.05:clock=cpu", seed=1)
    assert isinstance(bot, ExpertBot)
    planned = bot.options.plies(2)
    for state in two_player_positions:
        bot.choose(state, legal_moves(state))
        if bot.last_worlds and not bot.last_cut_short:
            assert bot.last_plies >= min(planned, 2)
            assert bot.last_worlds >= 2


def test_in_two_players_every_candidate_gets_every_world(two_player_positions: list[GameState]) -> None:
    # The budget buys far more than 24 worlds, so only ``samples`` ends the search: no candidate leaves it early.
    bot = make_bot("bot:expert:samples=24:think=60", seed=2)
    assert isinstance(bot, ExpertBot)
    searched = 0
    for state in two_player_positions:
        bot.choose(state, legal_moves(state))
        if bot.last_worlds:
            assert bot.last_worlds == 24
            searched += 1
    assert searched >= 2


def test_dropping_candidates_still_ends_a_search_early() -> None:
    # With drop=Z (the 4-player default) a search whose moves are far apart stops before its samples run out.
    stopped = 0
    for state in positions_from_matches(2, False, "regular", wanted=10):
        bot = make_bot("bot:expert:samples=200:think=60:drop=2", seed=2)
        assert isinstance(bot, ExpertBot)
        bot.choose(state, legal_moves(state))
        stopped += 0 < bot.last_worlds < 200
    assert stopped >= 1


# --------------------------------------------------------------------------
# --think


def test_think_is_written_into_every_expert_seat_that_has_none() -> None:
    assert with_think("bot:expert", 0.5) == "bot:expert:think=0.5"
    assert with_think("bot:expert:samples=3", 0.25) == "bot:expert:think=0.25:samples=3"
    assert with_think("bot:expert:think=2", 0.5) == "bot:expert:think=2"  # the seat's own budget wins
    assert with_think("bot:hard", 0.5) == "bot:hard" and with_think("human", 0.5) == "human"
    bot = make_bot(with_think("bot:expert", 0.3))
    assert isinstance(bot, ExpertBot) and bot.options.think == 0.3
    with pytest.raises(ValueError, match="above 0"):
        with_think("bot:expert", 0)


def test_play_takes_think_for_its_expert_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    from voicejack.app import play as play_app

    started: list[GameState] = []
    monkeypatch.setattr(play_app, "_run", lambda state, args, **kwargs: started.append(state) or 0)
    seats = "human,bot:expert,bot:hard,bot:expert:think=2"
    assert play_app.play_main(["--seats", seats, "--think", "0.4", "--seed", "1"]) == 0
    assert [seat.kind for seat in started[0].seats] == ["human", "bot:expert:think=0.4", "bot:hard", "bot:expert:think=2"]


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf"])
def test_a_bad_think_is_a_one_line_usage_error(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    from voicejack.app.play import play_main

    with pytest.raises(SystemExit) as stop:
        play_main(["--seats", "human,bot:expert,bot,bot", "--think", value])
    assert stop.value.code == 2
    error = capsys.readouterr().err.strip()
    assert error.count("\n") == 0 and "--think needs a number of seconds above 0" in error


def test_think_is_in_the_help_of_play_and_host(capsys: pytest.CaptureFixture[str]) -> None:
    from voicejack.app.join import host_main
    from voicejack.app.play import play_main

    for main in (play_main, host_main):
        with pytest.raises(SystemExit):
            main(["--help"])
        assert "--think SECONDS" in capsys.readouterr().out


def test_host_sends_the_budget_in_the_seat_kinds(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from voicejack.app import join

    sent: list[dict[str, object]] = []
    monkeypatch.setattr(join, "_run", lambda urls, intent, args, seated: sent.append(intent.options) or 0)
    assert join.host_main(["ws://127.0.0.1:9", "--seats", "human,bot:expert,bot,bot:expert", "--think", "0.7"]) == 0
    assert sent[0]["seats"] == ["human", "bot:expert:think=0.7", "bot", "bot:expert:think=0.7"]


def test_a_saved_match_keeps_the_budget_of_its_expert_seats() -> None:
    # --think is written into the seat kind, so `voicejack resume` thinks as long as the match did.
    import json

    from voicejack.engine import make_rules, new_game
    from voicejack.engine.state import Seat
    from voicejack.tablefile import table_from_text, table_to_dict

    seats = (Seat("red", "You", "human"), Seat("green", "Green", with_think("bot:expert", 0.4)))
    state, _ = new_game(make_rules(players=2), seed=1, seats=seats)
    loaded = table_from_text(json.dumps(table_to_dict(state)))
    bot = make_bot(loaded.seats[1].kind)
    assert isinstance(bot, ExpertBot) and bot.options.think == 0.4


@pytest.mark.parametrize(("rule_set", "players", "teams", "horizon"), [
    ("karooty", 4, True, "1"), ("online", 2, False, "deal"), ("online", 4, True, "deal"), ("online", 4, False, "1"),
    ("voicejack", 2, False, "deal"),
])
def test_the_expert_plays_complete_matches_under_every_rule_set(
    rule_set: str, players: int, teams: bool, horizon: str,
) -> None:
    # ON2 deals four each with the deal index staying 0: the end of a deal is read from the pile, so
    # horizon=deal still stops; every move chosen is legal (play_match raises otherwise).
    from voicejack.bots.arena import play_match
    from voicejack.engine import make_rules

    rules = make_rules(players, teams, rule_set=rule_set)
    kind = f"bot:expert:samples=2:candidates=3:horizon={horizon}"
    bots = {c: make_bot(kind if i % 2 == 0 else "bot:hard", i) for i, c in enumerate(rules.seats)}
    assert play_match(rules, bots, seed=11).winner is not None
