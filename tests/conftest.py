import pytest


def pytest_configure(config):
    config.addinivalue_line("markers", "openspiel: cross-checks that run OpenSpiel itself")


@pytest.fixture(scope="session")
def pyspiel():
    return pytest.importorskip("pyspiel")


def scripted_play(play, answer, limit: int = 300, **kwargs):
    """Plays a terminal game in-process: ``play(read=..., out=..., **kwargs)`` (a game's terminal
    loop with its bots chosen), ``answer(prompt, said so far)`` giving each line. Returns what
    was said, the prompts and what ``play`` returned; a script that loops on a refused answer
    meets the end of input after ``limit`` prompts."""
    import io

    out, prompts = io.StringIO(), []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > limit:
            raise EOFError
        return answer(prompt, out.getvalue())

    result = play(read=read, out=out, **kwargs)
    return out.getvalue(), prompts, result


def aec_game(e, seed: int, pick) -> tuple[dict, int]:
    """Plays one game of the PettingZoo AEC environment ``e`` from ``reset(seed=seed)``, each
    seat's action ``pick(legal action ids)``; returns every agent's total reward and the number
    of actions taken."""
    import numpy as np

    e.reset(seed=seed)
    total, steps = {a: 0.0 for a in e.possible_agents}, 0
    for agent in e.agent_iter():
        obs, reward, termination, truncation, _ = e.last()
        total[agent] += reward
        if termination or truncation:
            e.step(None)
        else:
            e.step(int(pick(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return total, steps
