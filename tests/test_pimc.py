"""PIMC policies of compiled games: the reference exploitabilities, every way of defining a game,
and strategy fusion (PIMC's textbook mistake)."""

import cfrkit
import pytest
from cfrkit.define import CHANCE, TERMINAL, GameDefinition
from test_define import merge_suits, python_kuhn

MODES = [(c, t) for c in ("expectation", "fixed") for t in ("lowest", "uniform")]

# ../shared/reference.md: Leduc "about 0.5" (later chance averaged) or "0.6" (fixed per world).
# Uniform ties give exactly those; the pure lowest-index policy is 13/30 when chance is averaged.
LEDUC = {
    ("expectation", "lowest"): 13 / 30,
    ("expectation", "uniform"): 0.5,
    ("fixed", "lowest"): 0.6,
    ("fixed", "uniform"): 0.6,
}


@pytest.mark.parametrize("chance,ties", MODES)
def test_kuhn_pimc_is_exploitable_by_one_sixth(chance, ties):
    game = cfrkit.load_game("kuhn")
    policy = cfrkit.pimc_policy(game, chance=chance, ties=ties)
    assert cfrkit.exploitability(game, policy) == pytest.approx(1 / 6, abs=1e-9)


@pytest.mark.parametrize("chance,ties", MODES)
def test_leduc_pimc_exploitability(chance, ties):
    game = cfrkit.load_game("leduc")
    policy = cfrkit.pimc_policy(game, chance=chance, ties=ties)
    assert cfrkit.exploitability(game, policy) == pytest.approx(LEDUC[chance, ties], abs=1e-6)


def test_default_policy_is_pure_and_keyed_like_the_game():
    game = cfrkit.load_game("leduc")
    policy = cfrkit.pimc_policy(game)
    assert policy.keys() == game.infoset_keys() and policy.game == "leduc"
    assert all(sorted(p.values())[-1] == 1.0 and sum(p.values()) == 1.0 for p in policy.to_dict().values())
    assert policy.to_dict() == cfrkit.pimc_policy(game, chance="expectation", ties="lowest").to_dict()


@pytest.mark.parametrize("chance", ["expectation", "fixed"])
def test_python_defined_kuhn_gives_the_native_policy(chance):
    native = cfrkit.pimc_policy(cfrkit.load_game("kuhn"), chance=chance).to_dict()
    assert cfrkit.pimc_policy(cfrkit.compile(python_kuhn()), chance=chance).to_dict() == native


class LateDealKuhn(GameDefinition):
    """Kuhn after a public opening move of player 0 (one legal action): the cards are dealt after
    a decision, so the game compiles with one deal and each information set spans public nodes."""

    num_players = 2
    name = "late-deal-kuhn"

    def __init__(self):
        self.kuhn = python_kuhn()

    def initial_state(self):
        return None

    def current_player(self, state):
        return 0 if state is None else self.kuhn.current_player(state)

    def chance_outcomes(self, state):
        return self.kuhn.chance_outcomes(state)

    def legal_actions(self, state):
        return [0] if state is None else self.kuhn.legal_actions(state)

    def apply(self, state, action):
        return self.kuhn.initial_state() if state is None else self.kuhn.apply(state, action)

    def returns(self, state):
        return self.kuhn.returns(state)

    def information_state(self, state, player):
        return "open" if state is None else self.kuhn.information_state(state, player)


@pytest.mark.parametrize("chance", ["expectation", "fixed"])
def test_information_sets_spanning_public_nodes_pool_their_worlds(chance):
    game = cfrkit.compile(LateDealKuhn())
    assert game.num_deals == 1 and game.num_keys == 13
    policy = cfrkit.pimc_policy(game, chance=chance)
    native = cfrkit.pimc_policy(cfrkit.load_game("kuhn"), chance=chance).to_dict()
    assert {k: v for k, v in policy.to_dict().items() if k != "open"} == native
    assert cfrkit.exploitability(game, policy) == pytest.approx(1 / 6, abs=1e-9)


def test_openspiel_kuhn_gives_the_native_policy(pyspiel):
    game = cfrkit.from_openspiel(pyspiel.load_game("kuhn_poker"))
    for chance in ("expectation", "fixed"):
        policy = cfrkit.pimc_policy(game, chance=chance)
        assert policy.to_dict() == cfrkit.pimc_policy(cfrkit.load_game("kuhn"), chance=chance).to_dict()
        assert cfrkit.exploitability(game, policy) == pytest.approx(1 / 6, abs=1e-9)


def test_coarse_keys_pool_the_worlds_of_their_information_sets():
    full = cfrkit.load_game("leduc")
    coarse = cfrkit.rekey(full, merge_suits)
    policy = cfrkit.pimc_policy(coarse)
    assert len(policy) == coarse.num_keys == 288
    # Suits do not matter in Leduc: pooling suit-symmetric worlds changes no decision.
    assert cfrkit.exploitability(coarse, policy) == pytest.approx(LEDUC["expectation", "lowest"], abs=1e-9)


class StrategyFusion(GameDefinition):
    """The textbook strategy-fusion game. Chance picks world 0 or 1 (1/2 each), unseen by player 0.
    A (action 0) pays 0.6 in both worlds; B (action 1) leads to a second decision, one
    information set across both worlds, where x (0) pays 1 in world 0 and 0 in world 1, and y (1)
    the reverse. Player 1 never moves and receives the negated payoff (zero-sum)."""

    num_players = 2
    name = "strategy-fusion"

    def initial_state(self):
        return (None, ())  # (world, player 0's actions)

    def current_player(self, state):
        world, moves = state
        if world is None:
            return CHANCE
        return 0 if moves in ((), (1,)) else TERMINAL

    def chance_outcomes(self, state):
        return [(0, 0.5), (1, 0.5)]

    def legal_actions(self, state):
        return [0, 1]

    def apply(self, state, action):
        world, moves = state
        return (action, moves) if world is None else (world, moves + (action,))

    def returns(self, state):
        world, moves = state
        value = 0.6 if moves == (0,) else float(moves[1] == world)
        return [value, -value]

    def information_state(self, state, player):
        return "start" if state[1] == () else "after B"


@pytest.mark.parametrize("chance,ties", MODES)
def test_strategy_fusion_makes_pimc_pick_the_wrong_action(chance, ties):
    game = cfrkit.compile(StrategyFusion())
    policy = cfrkit.pimc_policy(game, chance=chance, ties=ties)
    # Each world's solver picks the winning card at the second decision, so B looks worth 1.0 and
    # PIMC plays it...
    assert policy["start"] == {0: 0.0, 1: 1.0}
    # ...but the player cannot tell the worlds apart there: B is worth 0.5, A's 0.6 is correct.
    assert cfrkit.expected_values(game, policy)[0] == pytest.approx(0.5)
    value, response = cfrkit.best_response(game, policy, 0)
    assert value == pytest.approx(0.6) and response["start"] == {0: 1.0, 1: 0.0}
    assert cfrkit.exploitability(game, policy) == pytest.approx((0.6 - 0.5) / 2)


@pytest.mark.parametrize(
    "kwargs,named",
    [
        ({"chance": "sampled"}, '"sampled" (one of expectation, fixed)'),
        ({"chance": None}, '"None" (one of expectation, fixed)'),
        ({"ties": "random"}, '"random" (one of lowest, uniform)'),
    ],
)
def test_bad_modes_are_refused_naming_the_value_and_the_allowed_ones(kwargs, named):
    with pytest.raises(cfrkit.InvalidArgumentError, match="invalid value for") as err:
        cfrkit.pimc_policy(cfrkit.load_game("kuhn"), **kwargs)
    assert named in str(err.value)


def test_every_games_pimc_agent_takes_the_same_options():
    from cfrkit import schafkopf, setback, skat

    for game in (skat, schafkopf, setback):
        a = game.agent("pimc:worlds=5,threads=0,seed=3,values=none")
        assert a.name == "pimc:worlds=5,seed=3,values=none", (game.__name__, a.name)
        with pytest.raises(cfrkit.InvalidArgumentError, match=r"threads=T \(0 = all cores, the default;"):
            game.agent("pimc:depth=3")
